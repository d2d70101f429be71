"""Sizes and colours of the drawing (one place to tune the look)."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

# Geometry: the layout frame (741 x 1378) drawn at SCALE; the side panel sits to the right of the map.
FRAME_W, FRAME_H = 741, 1378
SCALE = 1.6
CELL = 6  # px per cell of data/layout-grid.png, in frame units
MAP_W, MAP_H = 1186, 2205
PANEL_W = 392
IMAGE_W, IMAGE_H = MAP_W + PANEL_W, MAP_H

# Reserved boxes (w, h) for the dynamic pieces, per area kind; the build script places them once.
UNIT_BOX = {"land": (106, 32), "sea": (106, 32), "port": (50, 28)}
ORDER_BOX = {"land": (44, 44), "sea": (44, 44), "port": (34, 34)}
POWER_BOX = (28, 28)
GARRISON_BOX = (30, 32)
# Areas too small for everything at the normal size use these (and the compact stamps).
COMPACT_UNIT_BOX = (84, 28)
COMPACT_ORDER_BOX = (34, 34)
COMPACT_POWER_BOX = (24, 24)
COMPACT_GARRISON_BOX = (26, 28)

# Fonts (px) for area names: tried from large to small until the name fits its area.
LAND_NAME_SIZES = (19, 18, 17, 16, 15, 14, 13, 12)
SEA_NAME_SIZES = (21, 20, 19, 18, 17, 16, 15, 14)

# Fixed colours.
INK: RGB = (26, 24, 22)
WHITE: RGB = (255, 255, 255)
HALO: RGB = (250, 246, 234)
PAPER: RGB = (241, 234, 214)
PAPER_DARK: RGB = (222, 211, 182)
RULE: RGB = (150, 135, 105)
MUTED: RGB = (110, 100, 86)
SEA_INK: RGB = (16, 44, 84)
SEA_HALO: RGB = (206, 226, 244)
BORDER_LAND: RGB = (84, 66, 48)
BORDER_COAST: RGB = (30, 50, 80)
BORDER_SEA: RGB = (70, 112, 165)
RIVER: RGB = (22, 96, 214)
GOLD: RGB = (232, 178, 20)
GOLD_DARK: RGB = (140, 98, 0)
STONE: RGB = (176, 172, 164)
STONE_DARK: RGB = (92, 88, 82)
NEUTRAL_FORCE: RGB = (70, 58, 56)
HATCH: RGB = (120, 116, 110)
ALERT: RGB = (196, 20, 20)
BARREL: RGB = (150, 96, 40)
OUTLINE: RGB = (20, 18, 16)

# Area fills (palette entries 1..58 are set per render from these).
LAND_NEUTRAL: RGB = (233, 222, 190)
LAND_IMPASSABLE: RGB = (168, 164, 158)
SEA_FILLS: tuple[RGB, ...] = ((104, 152, 204), (118, 164, 212), (92, 141, 196))
PORT_FILL: RGB = (160, 196, 230)


@dataclass(frozen=True)
class HouseStyle:
    colour: RGB  # chips, tokens, track markers
    tint: RGB  # fill of the land areas it controls
    ink: RGB  # glyphs drawn on ``colour``
    initial_en: str
    initial_ru: str


# Adjusted from data/houses.json for contrast: the six differ in lightness as well as hue (red/green and
# orange/yellow stay apart for colour-blind players), and every chip also carries the house initial.
HOUSE_STYLES: dict[str, HouseStyle] = {
    "stark": HouseStyle((214, 221, 229), (196, 206, 218), INK, "S", "С"),
    "lannister": HouseStyle((178, 24, 30), (214, 104, 96), WHITE, "L", "Л"),
    "baratheon": HouseStyle((246, 198, 0), (246, 216, 96), INK, "B", "Б"),
    "greyjoy": HouseStyle((34, 38, 44), (128, 134, 142), WHITE, "G", "Г"),
    "tyrell": HouseStyle((0, 128, 84), (112, 188, 144), WHITE, "T", "Т"),
    "martell": HouseStyle((232, 112, 0), (246, 172, 86), INK, "M", "М"),
}

UNKNOWN_HOUSE = HouseStyle((150, 150, 150), (200, 200, 200), INK, "?", "?")


def house_style(house: str) -> HouseStyle:
    return HOUSE_STYLES.get(house, UNKNOWN_HOUSE)


def initial(house: str, lang: str) -> str:
    style = house_style(house)
    return style.initial_ru if lang == "ru" else style.initial_en


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
