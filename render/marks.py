"""The static label of an area: its name (wrapped) over a row of printed marks.

Marks: castle or stronghold, supply barrels, crowns, and the crest (initial) of a home area; a port shows an anchor.
The build script sizes and places these blocks once; the base layer draws them from the stored placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise

from PIL import Image

from render import stamps
from render.data import Area
from render.stamps import Canvas, Stamp
from render.style import (
    BARREL,
    GOLD,
    HALO,
    INK,
    OUTLINE,
    SEA_HALO,
    SEA_INK,
    STONE,
    WHITE,
    house_style,
    initial,
)

NAME_WEIGHT = "condensed"
NAME_STROKE = 2
MARK_GAP = 3
MARK_H = 22


def name_colours(area: Area) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    return (INK, HALO) if area.kind == "land" else (SEA_INK, SEA_HALO)


def line_stamp(area: Area, line: str, size: int) -> Stamp:
    ink, halo = name_colours(area)
    return stamps.text(line, NAME_WEIGHT, size, ink, halo=halo, stroke=NAME_STROKE)


def line_step(size: int) -> int:
    return size + 2


@lru_cache(maxsize=512)
def crest(house: str, lang: str, size: int = 26) -> Stamp:
    """A house's printed crest on its home area: a swallow-tailed banner of the house colour with the house
    initial (a banner, so it never reads as a unit chip or a power token)."""
    hs = house_style(house)
    w, h = round(size * 0.8), size
    c = Canvas(w, h)
    c.icon("banner", (0, 0, w, h), OUTLINE)
    c.icon("banner", (1.5, 1.5, w - 1.5, h - 1.8), hs.colour)
    init = initial(house, lang)
    c.text((w / 2, h * 0.4), init, "bold", size * (0.5 if len(init) == 1 else 0.4), hs.ink)
    return c.finish()


def mark_stamps(area: Area, lang: str, z: float = 1.0) -> list[Stamp]:
    """The printed marks of ``area`` in drawing order, ``z`` times their size on the board."""
    if area.kind == "port":
        return [stamps.glyph("anchor", round(24 * z), SEA_INK, outline=SEA_HALO, outline_px=1.5 * z)]
    out: list[Stamp] = []
    if area.home_of:
        out.append(crest(area.home_of, lang, round(MARK_H * 1.1 * z)))
    if area.fortification == 2:
        out.append(stamps.glyph("stronghold", round((MARK_H + 8) * z), WHITE, outline_px=1.5 * z))
    elif area.fortification == 1:
        out.append(stamps.glyph("castle", round(MARK_H * z), STONE, outline_px=1.4 * z))
    out += [stamps.glyph("barrel", round(19 * z), BARREL, outline_px=1.2 * z)] * area.supply
    out += [stamps.glyph("crown", round(21 * z), GOLD, outline_px=1.2 * z)] * area.crowns
    return out


def mark_kinds(area: Area) -> list[str]:
    """What each of :func:`mark_stamps` shows, in the same order: anchor, crest, castle or stronghold, barrel, crown."""
    if area.kind == "port":
        return ["anchor"]
    fort = {2: ["stronghold"], 1: ["castle"]}.get(area.fortification, [])
    return ["crest"] * bool(area.home_of) + fort + ["barrel"] * area.supply + ["crown"] * area.crowns


def marks_size(area: Area, lang: str, z: float = 1.0) -> tuple[int, int]:
    items = mark_stamps(area, lang, z)
    if not items:
        return 0, 0
    return sum(s.width for s in items) + round(MARK_GAP * z) * (len(items) - 1), max(s.height for s in items)


def wraps(name: str, max_lines: int = 3) -> list[tuple[str, ...]]:
    """Ways to break ``name`` into 1..max_lines lines at spaces, fewest lines first."""
    words = name.split()
    out: list[tuple[str, ...]] = []
    for n in range(1, min(max_lines, len(words)) + 1):
        for cuts in combinations(range(1, len(words)), n - 1):
            bounds = (0, *cuts, len(words))
            out.append(tuple(" ".join(words[a:b]) for a, b in pairwise(bounds)))
    return out


@dataclass(frozen=True)
class NameBlock:
    lines: tuple[str, ...]
    size: int
    with_marks: bool = True
    z: float = 1.0  # scale of the marks (the caller scales ``size`` itself)

    def line_stamps(self, area: Area) -> list[Stamp]:
        return [line_stamp(area, line, self.size) for line in self.lines]

    def measure(self, area: Area, lang: str) -> tuple[int, int]:
        ls = self.line_stamps(area)
        mw, mh = marks_size(area, lang, self.z) if self.with_marks else (0, 0)
        w = max([s.width for s in ls] + [mw])
        h = (line_step(self.size) * (len(ls) - 1) + ls[-1].height) if ls else 0
        if mh:
            h += mh + (1 if ls else 0)
        return w, h

    def draw(self, dst: Image.Image, area: Area, lang: str, x: int, y: int) -> None:
        """Draw the block with its top-left corner at (x, y)."""
        w, _ = self.measure(area, lang)
        cy = y
        for s in self.line_stamps(area):
            s.paste(dst, x + (w - s.width) / 2, cy)
            cy += line_step(self.size)
        if self.with_marks:
            draw_marks(dst, area, lang, *self.marks_at(area, lang, x, y), self.z)

    def marks_at(self, area: Area, lang: str, x: float, y: float) -> tuple[float, float]:
        """The top-left corner of the marks row of the block drawn with its top-left corner at (x, y)."""
        w, _ = self.measure(area, lang)
        ls = self.line_stamps(area)
        cy = y + line_step(self.size) * len(ls)
        if ls:
            cy += ls[-1].height - line_step(self.size) + 1
        return x + (w - marks_size(area, lang, self.z)[0]) / 2, cy


def draw_marks(dst: Image.Image, area: Area, lang: str, x: float, y: float, z: float = 1.0) -> None:
    """The marks row with its top-left corner at (x, y)."""
    for _, s, sx, sy in mark_boxes(area, lang, x, y, z):
        s.paste(dst, sx, sy)


def mark_boxes(area: Area, lang: str, x: float, y: float, z: float = 1.0) -> list[tuple[str, Stamp, float, float]]:
    """The marks of the row with its top-left corner at (x, y): what each shows (:func:`mark_kinds`), its stamp and
    its top-left corner."""
    mh = marks_size(area, lang, z)[1]
    out = []
    for kind, s in zip(mark_kinds(area), mark_stamps(area, lang, z), strict=True):
        out.append((kind, s, x, y + (mh - s.height) / 2))
        x += s.width + round(MARK_GAP * z)
    return out
