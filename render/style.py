"""Sizes and colours of the drawing (one place to tune the look)."""

from __future__ import annotations

from dataclasses import dataclass

from render.vision import contrast_ratio

RGB = tuple[int, int, int]

# Geometry: the layout frame (741 x 1378) drawn at SCALE; the board image is the status strip over the map.
FRAME_W, FRAME_H = 741, 1378
SCALE = 1.6
CELL = 6  # px per cell of data/layout-grid.png, in frame units
MAP_W, MAP_H = 1186, 2205

# Piece sizes (px on the map, which is also the board image's width): sized so that a board shown 1080 px wide
# (a phone's physical width) keeps every chip and token at least 28 px and every name at least 16 px.
UNIT_ROW = 34  # unit chip height
COMPACT_UNIT_ROW = 31
ORDER_SIZE = 40  # order token diameter (the stamp adds room for the star and the bonus badge)
COMPACT_ORDER_SIZE = 32
ORDER_EXTRA = 8
POWER_SIZE = 32
COMPACT_POWER_SIZE = 31
GARRISON_SIZE = 32
NEUTRAL_SIZE = 36
COMPACT_NEUTRAL_SIZE = 32
PHONE_W = 1080  # a phone's physical width in px, the width the legibility figures are worked out at

# Reserved boxes (w, h) for the dynamic pieces, per area kind; the build script places them once.
UNIT_BOX = {"land": (124, UNIT_ROW), "sea": (100, UNIT_ROW), "port": (60, COMPACT_UNIT_ROW)}
ORDER_BOX = {
    "land": (ORDER_SIZE + ORDER_EXTRA,) * 2,
    "sea": (ORDER_SIZE + ORDER_EXTRA,) * 2,
    "port": (COMPACT_ORDER_SIZE + ORDER_EXTRA,) * 2,
}
POWER_BOX = (POWER_SIZE, POWER_SIZE)
GARRISON_BOX = (GARRISON_SIZE, GARRISON_SIZE + 2)
# Areas too small for everything at the normal size use these (and the compact stamps).
COMPACT_UNIT_BOX = (100, COMPACT_UNIT_ROW)
COMPACT_ORDER_BOX = (COMPACT_ORDER_SIZE + ORDER_EXTRA,) * 2
COMPACT_POWER_BOX = (COMPACT_POWER_SIZE, COMPACT_POWER_SIZE)
COMPACT_GARRISON_BOX = (GARRISON_SIZE, GARRISON_SIZE + 2)

# Fonts (px) for area names: tried from large to small until the name fits its area; 18 px on the map is 16 px on
# a phone.
LAND_NAME_SIZES = (20, 19, 18)
SEA_NAME_SIZES = (24, 23, 22, 21, 20, 19, 18)
MIN_NAME_SIZE = 18

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
BORDER_SEA: RGB = (28, 62, 112)
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


# Adjusted from data/houses.json for contrast. The land tints were tuned with render/vision.py so that every pair of
# tints, and each tint against unowned land, stays at least 12 CIEDE2000 apart for normal vision, protanopia,
# deuteranopia and tritanopia (tests/render/test_colour.py); every chip also carries the house initial.
HOUSE_STYLES: dict[str, HouseStyle] = {
    "stark": HouseStyle((214, 221, 229), (217, 236, 248), INK, "S", "С"),
    "lannister": HouseStyle((178, 24, 30), (193, 55, 73), WHITE, "L", "Л"),
    "baratheon": HouseStyle((246, 198, 0), (247, 190, 38), INK, "B", "Б"),
    "greyjoy": HouseStyle((34, 38, 44), (122, 123, 142), WHITE, "G", "Г"),
    "tyrell": HouseStyle((0, 128, 84), (79, 166, 132), WHITE, "T", "Т"),
    "martell": HouseStyle((232, 112, 0), (202, 126, 35), INK, "M", "М"),
    # Mother of Dragons: violet, chosen with the same check against the six above (a light blue would read as sea).
    "arryn": HouseStyle((150, 60, 250), (180, 116, 252), WHITE, "A", "А"),
    # Targaryen: the deep purple of data/mother-of-dragons/houses.json (#6A1B9A) for its pieces, its land a lighter
    # purple; both checked against the seven above like them (darker than Arryn's violet for every vision). "Ta", not
    # "T": Tyrell has that initial.
    "targaryen": HouseStyle((106, 27, 154), (128, 56, 176), WHITE, "Ta", "Та"),
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


def arrow_fill(house: str | None) -> RGB:
    """The shaft of ``house``'s arrows: the house colour, lightened until it stands out from the dark ``OUTLINE``
    edge (Greyjoy's near-black would vanish into it). A palette entry, so arrows are drawn in the board's palette."""
    base = house_style(house or "").colour
    fill, t = base, 0.0
    while contrast_ratio(fill, OUTLINE) < 3 and t < 1:
        t += 0.1
        fill = mix(base, WHITE, t)
    return fill
