"""Stamps of the pieces placed on the map: unit groups, order tokens, power tokens, garrisons, neutral forces."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from render.fonts import text_size
from render.stamps import Canvas, Stamp
from render.style import (
    ALERT,
    GOLD,
    HALO,
    INK,
    NEUTRAL_FORCE,
    OUTLINE,
    STONE,
    STONE_DARK,
    WHITE,
    house_style,
    initial,
)

UNIT_ORDER = ("knight", "footman", "siege-engine", "ship")
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")
Group = tuple[tuple[str, bool, int], ...]  # (unit type, routed, count), in drawing order

ICON = 24
ROW_H = 32


def group_units(units: list[dict[str, object]]) -> dict[str, Group]:
    """Units of an area by house, counted per (type, routed); healthy before routed, knights first."""
    counts: dict[str, dict[tuple[str, bool], int]] = {}
    for u in units:
        key = (str(u.get("type", "footman")), bool(u.get("routed", False)))
        per = counts.setdefault(str(u.get("house", "?")), {})
        per[key] = per.get(key, 0) + 1
    out: dict[str, Group] = {}
    for house, per in counts.items():
        keys = sorted(per, key=lambda k: (k[1], UNIT_ORDER.index(k[0]) if k[0] in UNIT_ORDER else 9))
        out[house] = tuple((t, r, per[(t, r)]) for t, r in keys)
    return out


@dataclass(frozen=True)
class GroupSize:
    icon: int
    row: int
    font: int


NORMAL = GroupSize(ICON, ROW_H, 15)
COMPACT = GroupSize(20, 28, 14)  # ports


def _segment_width(count: int, gs: GroupSize) -> int:
    return gs.icon + (text_size(str(count), "bold", gs.font)[0] + 2 if count > 1 else 0)


@lru_cache(maxsize=1024)
def unit_group(house: str, group: Group, lang: str, compact: bool = False) -> Stamp:
    """A rounded bar in the house colour: the house initial, then each unit type's pictogram and count.
    Routed units lie on their side on a white segment struck through in red."""
    gs = COMPACT if compact else NORMAL
    hs = house_style(house)
    init = initial(house, lang)
    init_size = gs.font + 1
    init_w = text_size(init, "bold", init_size)[0]
    pad = 4 if compact else 5
    segs = [_segment_width(n, gs) for _, _, n in group]
    w = pad + init_w + 4 + sum(segs) + 3 * (len(segs) - 1) + pad
    h = gs.row
    c = Canvas(w, h)
    c.rect((0, 0, w, h), OUTLINE, radius=7)
    c.rect((1.5, 1.5, w - 1.5, h - 1.5), hs.colour, radius=6)
    c.text((pad, h / 2 + 0.5), init, "bold", init_size, hs.ink, anchor="lm")
    x = pad + init_w + 4
    c.line([(x - 2.5, 5), (x - 2.5, h - 5)], hs.ink, 1.2)
    for (unit, routed, count), sw in zip(group, segs, strict=True):
        box = (x, (h - gs.icon) / 2, x + gs.icon, (h + gs.icon) / 2)
        if routed:
            c.rect((x - 1, 3, x + sw + 1, h - 3), WHITE, radius=3)
            c.icon(unit, box, OUTLINE, rotate=90)
            c.line([(x - 1, h - 4), (x + sw + 1, 4)], ALERT, 2.2)
            ink = OUTLINE
        else:
            c.icon(unit, box, hs.ink)
            ink = hs.ink
        if count > 1:
            c.text((x + gs.icon + 1, h / 2 + 1), str(count), "bold", gs.font, ink, anchor="lm")
        x += sw + 3
    return c.finish()


def _star(c: Canvas, cx: float, cy: float, r: float) -> None:
    c.icon("star", (cx - r - 1.2, cy - r - 1.2, cx + r + 1.2, cy + r + 1.2), OUTLINE)
    c.icon("star", (cx - r, cy - r, cx + r, cy + r), GOLD)


@lru_cache(maxsize=512)
def order_token(house: str, kind: str | None, star: bool, bonus: int, size: int = 40) -> Stamp:
    """A round order token ringed in the house colour. ``kind`` None is a face-down (hidden) order."""
    hs = house_style(house)
    extra = 8
    w = size + extra
    c = Canvas(w, w)
    o = extra / 2
    c.ellipse((o, o, o + size, o + size), OUTLINE)
    c.ellipse((o + 1.5, o + 1.5, o + size - 1.5, o + size - 1.5), hs.colour)
    inner = (o + 5.5, o + 5.5, o + size - 5.5, o + size - 5.5)
    if kind is None:
        c.ellipse((inner[0] - 1, inner[1] - 1, inner[2] + 1, inner[3] + 1), OUTLINE)
        c.ellipse(inner, NEUTRAL_FORCE)
        c.text((o + size / 2, o + size / 2 + 1), "?", "bold", 20, WHITE)
        return c.finish()
    c.ellipse((inner[0] - 1, inner[1] - 1, inner[2] + 1, inner[3] + 1), OUTLINE)
    c.ellipse(inner, WHITE)
    g = 3
    c.icon(kind, (inner[0] + g, inner[1] + g, inner[2] - g, inner[3] - g), INK)
    if star:
        _star(c, w - 9, 9, 8.5)
    if bonus:
        label = f"+{bonus}" if bonus > 0 else f"\u2212{-bonus}"
        tw = text_size(label, "bold", 12)[0] + 6
        box = (w - tw, w - 15, w, w)
        c.rect(box, OUTLINE, radius=4)
        c.rect((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), HALO, radius=3)
        c.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 0.5), label, "bold", 12, INK)
    return c.finish()


@lru_cache(maxsize=64)
def power_token(house: str, lang: str, size: int = 27) -> Stamp:
    """A small disc of the house colour with the house initial and a gold rim (a power token on an area)."""
    hs = house_style(house)
    c = Canvas(size, size)
    c.ellipse((0, 0, size, size), OUTLINE)
    c.ellipse((1.2, 1.2, size - 1.2, size - 1.2), GOLD)
    c.ellipse((4, 4, size - 4, size - 4), hs.colour)
    c.text((size / 2, size / 2 + 0.5), initial(house, lang), "bold", 14, hs.ink)
    return c.finish()


@lru_cache(maxsize=64)
def garrison_token(strength: int, house: str | None, size: int = 30) -> Stamp:
    """A stone tower with the garrison strength; a house-coloured base strip if the owner is known."""
    c = Canvas(size, size)
    c.rect((1, 5, size - 1, size), OUTLINE, radius=3)
    for x in (1, size / 2 - 3.5, size - 8):
        c.rect((x, 0, x + 7, 8), OUTLINE)
        c.rect((x + 1.2, 1.2, x + 5.8, 8), STONE)
    c.rect((2.2, 6.2, size - 2.2, size - 1.2), STONE, radius=2)
    if house:
        c.rect((2.2, size - 6, size - 2.2, size - 1.2), house_style(house).colour)
    c.text((size / 2, size / 2 + 2), str(strength), "bold", 15, INK)
    return c.finish()


@lru_cache(maxsize=64)
def neutral_token(strength: int | None, size: int = 34) -> Stamp:
    """A neutral force: a dark shield with its strength; ``None`` is an impassable marker (a cross)."""
    c = Canvas(size, size)
    c.rect((0, 0, size, size), OUTLINE, radius=5)
    c.rect((1.5, 1.5, size - 1.5, size - 1.5), NEUTRAL_FORCE, radius=4)
    if strength is None:
        c.icon("cross", (5, 5, size - 5, size - 5), WHITE)
    else:
        c.icon("sword", (2, 3, 12, size - 3), STONE_DARK)
        c.text((size / 2 + 4, size / 2 + 0.5), str(strength), "bold", 17, WHITE)
    return c.finish()
