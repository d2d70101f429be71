"""The single 256-colour palette of every board image.

Entries 1..61 belong to the areas (entry k is the area whose ``grid_value`` is k) and are set per render, so
colouring an area by its controller is a palette change. The other entries are fixed: plain colours plus a few
blend ramps between colour pairs that meet at anti-aliased edges (text on its halo, a glyph on its chip), so that
anti-aliased stamps survive being mapped to the palette.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from render import style
from render.style import RGB, mix

AREA_ENTRIES = 61  # the largest board drawn: Mother of Dragons' 7-house board
FIRST_FIXED = AREA_ENTRIES + 1
PLACEHOLDER: RGB = (255, 0, 255)  # never drawn: keeps stamps from mapping onto the area entries


def _build() -> tuple[list[RGB], dict[RGB, int]]:
    entries: list[RGB] = [PLACEHOLDER] * FIRST_FIXED
    index: dict[RGB, int] = {}

    def add(colour: RGB) -> None:
        if colour not in index and colour != PLACEHOLDER:
            index[colour] = len(entries)
            entries.append(colour)

    def ramp(a: RGB, b: RGB, steps: int = 3) -> None:
        add(a)
        add(b)
        for i in range(1, steps + 1):
            add(mix(a, b, i / (steps + 1)))

    solids = [
        style.INK, style.WHITE, style.HALO, style.PAPER, style.PAPER_DARK, style.RULE, style.MUTED,
        style.SEA_INK, style.SEA_HALO, style.BORDER_LAND, style.BORDER_COAST, style.BORDER_SEA, style.RIVER,
        style.GOLD, style.GOLD_DARK, style.STONE, style.STONE_DARK, style.NEUTRAL_FORCE, style.HATCH,
        style.ALERT, style.BARREL, style.OUTLINE, style.LAND_NEUTRAL, style.LAND_IMPASSABLE, style.PORT_FILL,
        *style.SEA_FILLS,
    ]  # fmt: skip
    for colour in solids:
        add(colour)
    for hs in style.HOUSE_STYLES.values():
        add(hs.colour)
        add(hs.tint)
    for house in (*style.HOUSE_STYLES, None):
        add(style.arrow_fill(house))
    # Text ramps (the most visible anti-aliasing gets the finest ramps).
    ramp(style.INK, style.HALO, 5)
    ramp(style.INK, style.PAPER, 5)
    ramp(style.SEA_INK, style.SEA_HALO, 4)
    ramp(style.INK, style.WHITE, 3)
    ramp(style.MUTED, style.PAPER, 2)
    ramp(style.ALERT, style.PAPER, 2)
    ramp(style.ALERT, style.WHITE, 2)
    ramp(style.INK, style.STONE, 2)
    ramp(style.WHITE, style.NEUTRAL_FORCE, 2)
    ramp(style.OUTLINE, style.GOLD, 2)
    ramp(style.OUTLINE, style.WHITE, 2)
    ramp(style.OUTLINE, style.STONE, 1)
    ramp(style.BARREL, style.OUTLINE, 1)
    ramp(style.PAPER_DARK, style.INK, 2)
    for hs in style.HOUSE_STYLES.values():
        ramp(hs.colour, hs.ink, 3)
        ramp(hs.colour, style.OUTLINE, 1)
        ramp(hs.colour, style.WHITE, 1)
    if len(entries) > 256:
        raise RuntimeError(f"palette overflow: {len(entries)} entries")
    while len(entries) < 256:
        entries.append(PLACEHOLDER)
    return entries, index


ENTRIES, _INDEX = _build()


def idx(colour: RGB) -> int:
    """Palette index of a fixed colour (it must be one of the palette's fixed entries)."""
    return _INDEX[colour]


def palette_bytes(fills: dict[int, RGB]) -> bytes:
    """The 768-byte palette with area entries taken from ``fills`` (grid_value -> colour)."""
    out = bytearray()
    for i, colour in enumerate(ENTRIES):
        c = fills.get(i, colour) if 1 <= i <= AREA_ENTRIES else colour
        out += bytes(c)
    return bytes(out)


@cache
def _quant_palette() -> Image.Image:
    img = Image.new("P", (1, 1))
    img.putpalette(palette_bytes({}))
    return img


def quantize(rgb: Image.Image) -> Image.Image:
    """Map an RGB stamp onto the fixed entries (nearest colour, no dithering)."""
    out = rgb.convert("RGB").quantize(palette=_quant_palette(), dither=Image.Dither.NONE)
    if any(out.histogram()[:FIRST_FIXED]):
        raise ValueError("stamp mapped onto an area palette entry")
    return out
