"""The single 256-colour palette of every board image.

Entries 1..61 belong to the areas (entry k is the area whose ``grid_value`` is k) and are set per render, so
colouring an area by its controller is a palette change; the Mother of Dragons board with Essos has 75 areas, and its
areas past the 61st take the top entries of the palette (:func:`area_slot`). Entry 0 is the part of a board that is no
area (the Iron Bank panel of the Essos board), filled per board. The other entries are fixed: plain colours plus a few
blend ramps between colour pairs that meet at anti-aliased edges (text on its halo, a glyph on its chip), so that
anti-aliased stamps survive being mapped to the palette.

The fixed entries keep their order as houses and colours are added: Targaryen's come after all the others, so the
images of games without Targaryen keep every palette index they had.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from PIL import Image

from render import style
from render.style import RGB, mix

AREA_ENTRIES = 61  # the low block of area entries: every area of the base and the 7-house boards
FIRST_FIXED = AREA_ENTRIES + 1
MAX_AREAS = 75  # the largest board drawn: Mother of Dragons with Essos
HIGH_SLOTS = tuple(range(256 - (MAX_AREAS - AREA_ENTRIES), 256))  # areas 62..75 of the Essos board
AREA_SLOTS = frozenset(range(1, AREA_ENTRIES + 1)) | frozenset(HIGH_SLOTS)
NO_AREA = 0  # the entry of a board's pixels that belong to no area (the Iron Bank panel)
PLACEHOLDER: RGB = (255, 0, 255)  # never drawn: keeps stamps from mapping onto the area entries
# Houses whose colours were added after the palette's order was set: their entries come last.
LATE_HOUSES = ("targaryen",)


def area_slot(grid_value: int) -> int:
    """The palette entry of the area whose ``grid_value`` is given: itself up to 61, then the top entries."""
    if not 1 <= grid_value <= MAX_AREAS:
        raise ValueError(f"no palette entry for area {grid_value}")
    return grid_value if grid_value <= AREA_ENTRIES else HIGH_SLOTS[grid_value - AREA_ENTRIES - 1]


def _build() -> tuple[list[RGB], dict[RGB, int], int]:
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
    early = [h for h in style.HOUSE_STYLES if h not in LATE_HOUSES]
    late = [h for h in style.HOUSE_STYLES if h in LATE_HOUSES]
    for house in early:
        add(style.HOUSE_STYLES[house].colour)
        add(style.HOUSE_STYLES[house].tint)
    for maybe in (*early, None):
        add(style.arrow_fill(maybe))
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
    for house in early:
        _house_ramps(ramp, style.HOUSE_STYLES[house])
    # Added with Targaryen (after everything above, so that the other boards keep their indices): its colours and the
    # dark figures on the dragons' gold strength badge.
    first_late = len(entries)
    for house in late:
        add(style.HOUSE_STYLES[house].colour)
        add(style.HOUSE_STYLES[house].tint)
        add(style.arrow_fill(house))
        _house_ramps(ramp, style.HOUSE_STYLES[house])
    ramp(style.GOLD, style.INK, 2)
    if len(entries) > HIGH_SLOTS[0]:
        raise RuntimeError(f"palette overflow: {len(entries)} entries")
    while len(entries) < 256:
        entries.append(PLACEHOLDER)
    return entries, index, first_late


def _house_ramps(ramp: Callable[[RGB, RGB, int], None], hs: style.HouseStyle) -> None:
    ramp(hs.colour, hs.ink, 3)
    ramp(hs.colour, style.OUTLINE, 1)
    ramp(hs.colour, style.WHITE, 1)


ENTRIES, _INDEX, FIRST_LATE = _build()
# The colours that only the late houses' stamps contain: a stamp without any is mapped as before they came.
_LATE_MARKS = frozenset(c for h in LATE_HOUSES for c in (style.HOUSE_STYLES[h].colour, style.HOUSE_STYLES[h].tint))


def idx(colour: RGB) -> int:
    """Palette index of a fixed colour (it must be one of the palette's fixed entries)."""
    return _INDEX[colour]


def palette_bytes(fills: dict[int, RGB], late: bool = False) -> bytes:
    """The 768-byte palette with area entries taken from ``fills`` (palette entry -> colour). ``late``: with the late
    houses' entries (an image that may show Targaryen); without, the palette is byte for byte the one from before
    they came, so the other boards' PNGs stay as they were."""
    out = bytearray()
    for i, colour in enumerate(ENTRIES):
        if i in AREA_SLOTS or i == NO_AREA:
            c = fills.get(i, colour)
        else:
            c = colour if late or i < FIRST_LATE else PLACEHOLDER
        out += bytes(c)
    return bytes(out)


@cache
def _quant_palette(late: bool) -> Image.Image:
    """The palette stamps are mapped onto: every fixed entry, or (``late`` False) those from before the late houses,
    so that a stamp drawn without them maps exactly as it did then (a new entry never attracts its anti-aliasing)."""
    entries = ENTRIES if late else [c if i < FIRST_LATE else PLACEHOLDER for i, c in enumerate(ENTRIES)]
    img = Image.new("P", (1, 1))
    img.putpalette(bytes(v for c in entries for v in c))
    return img


def quantize(rgb: Image.Image) -> Image.Image:
    """Map an RGB stamp onto the fixed entries (nearest colour, no dithering)."""
    rgb = rgb.convert("RGB")
    colours = rgb.getcolors(rgb.width * rgb.height) or []
    late = any(c in _LATE_MARKS for _, c in colours)
    out = rgb.quantize(palette=_quant_palette(late), dither=Image.Dither.NONE)
    counts = out.histogram()
    if counts[NO_AREA] or any(counts[i] for i in AREA_SLOTS):
        raise ValueError("stamp mapped onto an area palette entry")
    return out
