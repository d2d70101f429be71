"""Stamps of the pieces placed on the map: unit groups, order tokens, power tokens, garrisons, neutral forces."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from render import style
from render.data import UNIT_KINDS, UNIT_TYPES
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
    WHITE,
    house_style,
    initial,
)

# Drawing order in a chip: dragons, then the strongest land units first, ships last (dragon, knight, footman, siege
# engine, ship).
UNIT_ORDER = tuple(
    sorted(UNIT_TYPES, key=lambda t: (UNIT_KINDS[t].at_sea, not UNIT_KINDS[t].flies, -UNIT_KINDS[t].strength))
)
DRAGON = "dragon"
MAX_DRAWN_DRAGONS = 3  # dragons drawn one by one (there are three); more would be one with a count
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")
Group = tuple[tuple[str, bool, int], ...]  # (unit type, routed, count), in drawing order


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


NORMAL = GroupSize(26, style.UNIT_ROW, 17)
COMPACT = GroupSize(24, style.COMPACT_UNIT_ROW, 16)  # ports and the smallest areas


def group_size(compact: bool, z: float = 1.0) -> GroupSize:
    gs = COMPACT if compact else NORMAL
    return GroupSize(round(gs.icon * z), round(gs.row * z), round(gs.font * z))


def _one_by_one(unit: str, routed: bool, count: int) -> bool:
    """Healthy dragons are drawn one pictogram each (their count never reads as their strength)."""
    return unit == DRAGON and not routed and count <= MAX_DRAWN_DRAGONS


def _badge_size(gs: GroupSize) -> int:
    return gs.icon - 2


def _segment_width(unit: str, routed: bool, count: int, gs: GroupSize, strength: int | None) -> int:
    if _one_by_one(unit, routed, count):
        width = count * gs.icon + (count - 1) * max(1, round(gs.icon / 13))
        return width + (2 + _badge_size(gs) if strength is not None else 0)
    return gs.icon + (text_size(str(count), "bold", gs.font)[0] + 2 if count > 1 else 0)


def strength_shown(group: Group, strength: int | None) -> int | None:
    """The dragon strength a group's chip shows: only a group with a healthy dragon shows it."""
    return strength if any(_one_by_one(u, r, n) for u, r, n in group) else None


def strength_badge(c: Canvas, cx: float, cy: float, d: float, strength: int) -> None:
    """The dragons' strength: a gold disc with a dark ring and the number (the dragon strength track's token)."""
    c.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), OUTLINE)
    ring = max(1.2, d / 14)
    c.ellipse((cx - d / 2 + ring, cy - d / 2 + ring, cx + d / 2 - ring, cy + d / 2 - ring), GOLD)
    c.text((cx, cy + 0.5), str(strength), "bold", d * 0.72, INK)


@lru_cache(maxsize=1024)
def unit_group(
    house: str, group: Group, lang: str, compact: bool = False, z: float = 1.0, dragon_strength: int | None = None
) -> Stamp:
    """A rounded bar in the house colour: the house initial, then each unit type's pictogram and count.
    Routed units lie on their side on a white segment struck through in red. Dragons (Targaryen's) are drawn one
    by one, followed by their current strength on a gold badge when ``dragon_strength`` is given. ``z`` scales
    everything."""
    gs = group_size(compact, z)
    hs = house_style(house)
    init = initial(house, lang)
    init_size = gs.font + 1
    init_w = text_size(init, "bold", init_size)[0]
    pad = round((4 if compact else 5) * z)
    gap = max(3, round(3 * z))
    segs = [_segment_width(u, r, n, gs, dragon_strength) for u, r, n in group]
    w = pad + init_w + gap + 1 + sum(segs) + gap * (len(segs) - 1) + pad
    h = gs.row
    c = Canvas(w, h)
    c.rect((0, 0, w, h), OUTLINE, radius=7 * z)
    c.rect((1.5 * z, 1.5 * z, w - 1.5 * z, h - 1.5 * z), hs.colour, radius=6 * z)
    c.text((pad, h / 2 + 0.5), init, "bold", init_size, hs.ink, anchor="lm")
    x = pad + init_w + gap + 1
    c.line([(x - gap / 2 - 1, 5 * z), (x - gap / 2 - 1, h - 5 * z)], hs.ink, 1.2 * z)
    for (unit, routed, count), sw in zip(group, segs, strict=True):
        box = (x, (h - gs.icon) / 2, x + gs.icon, (h + gs.icon) / 2)
        if _one_by_one(unit, routed, count):
            step = gs.icon + max(1, round(gs.icon / 13))
            for i in range(count):
                c.icon(unit, (x + i * step, box[1], x + i * step + gs.icon, box[3]), hs.ink)
            if dragon_strength is not None:
                d = _badge_size(gs)
                strength_badge(c, x + sw - d / 2, h / 2, d, dragon_strength)
            x += sw + gap
            continue
        if routed:
            c.rect((x - 1, 3 * z, x + sw + 1, h - 3 * z), WHITE, radius=3 * z)
            c.icon(unit, box, OUTLINE, rotate=90)
            c.line([(x - 1, h - 4 * z), (x + sw + 1, 4 * z)], ALERT, 2.2 * z)
            ink = OUTLINE
        else:
            c.icon(unit, box, hs.ink)
            ink = hs.ink
        if count > 1:
            c.text((x + gs.icon + 1, h / 2 + 1), str(count), "bold", gs.font, ink, anchor="lm")
        x += sw + gap
    return c.finish()


def _star(c: Canvas, cx: float, cy: float, r: float) -> None:
    c.icon("star", (cx - r - 1.2, cy - r - 1.2, cx + r + 1.2, cy + r + 1.2), OUTLINE)
    c.icon("star", (cx - r, cy - r, cx + r, cy + r), GOLD)


@lru_cache(maxsize=512)
def order_token(
    house: str, kind: str | None, star: bool, bonus: int, size: int = style.ORDER_SIZE, sea: bool = False
) -> Stamp:
    """A round order token (``size`` px across) ringed in the house colour. ``kind`` None is a face-down (hidden)
    order; ``sea`` a sea order (Mother of Dragons), on a blue face as printed. The stamp is ``size * 1.2`` square:
    the star and the bonus badge stick out of the disc."""
    hs = house_style(house)
    k = size / 40
    extra = round(style.ORDER_EXTRA * k)
    w = size + extra
    c = Canvas(w, w)
    o = extra / 2
    c.ellipse((o, o, o + size, o + size), OUTLINE)
    c.ellipse((o + 1.5 * k, o + 1.5 * k, o + size - 1.5 * k, o + size - 1.5 * k), hs.colour)
    ring = 5.5 * k
    inner = (o + ring, o + ring, o + size - ring, o + size - ring)
    c.ellipse((inner[0] - k, inner[1] - k, inner[2] + k, inner[3] + k), OUTLINE)
    if kind is None:
        c.ellipse(inner, NEUTRAL_FORCE)
        c.text((o + size / 2, o + size / 2 + k), "?", "bold", 20 * k, WHITE)
        return c.finish()
    c.ellipse(inner, style.PORT_FILL if sea else WHITE)
    g = 3 * k
    c.icon(kind, (inner[0] + g, inner[1] + g, inner[2] - g, inner[3] - g), INK)
    if star:
        _star(c, w - 9 * k, 9 * k, 8.5 * k)
    if bonus:
        label = f"+{bonus}" if bonus > 0 else f"\u2212{-bonus}"
        fs = round(13 * k)
        tw = text_size(label, "bold", fs)[0] + 6 * k
        box = (w - tw, w - 16 * k, w, w)
        c.rect(box, OUTLINE, radius=4 * k)
        c.rect((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), HALO, radius=3 * k)
        c.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 0.5), label, "bold", fs, INK)
    return c.finish()


@lru_cache(maxsize=64)
def power_token(house: str, lang: str, size: int = style.POWER_SIZE) -> Stamp:
    """A disc of the house colour with the house initial and a gold rim (a power token on an area)."""
    hs = house_style(house)
    k = size / 32
    c = Canvas(size, size)
    c.ellipse((0, 0, size, size), OUTLINE)
    c.ellipse((1.2 * k, 1.2 * k, size - 1.2 * k, size - 1.2 * k), GOLD)
    c.ellipse((5 * k, 5 * k, size - 5 * k, size - 5 * k), hs.colour)
    init = initial(house, lang)
    c.text((size / 2, size / 2 + 0.5), init, "bold", (16 if len(init) == 1 else 13) * k, hs.ink)
    return c.finish()


@lru_cache(maxsize=64)
def garrison_token(strength: int, house: str | None, size: int = style.GARRISON_SIZE) -> Stamp:
    """A garrison: a light stone tower with three merlons and the strength in dark ink, on a base strip in the
    owner's colour (light and crenellated, unlike the dark octagon of a neutral force)."""
    k = size / 32
    w, h = size, size + round(2 * k)
    c = Canvas(w, h)
    merlon = 7.5 * k
    body_top = 7 * k
    c.rect((1 * k, body_top, w - 1 * k, h), OUTLINE, radius=3 * k)
    for x in (1 * k, w / 2 - merlon / 2, w - 1 * k - merlon):
        c.rect((x, 0, x + merlon, body_top + 2 * k), OUTLINE)
        c.rect((x + 1.4 * k, 1.4 * k, x + merlon - 1.4 * k, body_top + 2 * k), STONE)
    c.rect((2.4 * k, body_top + 1.4 * k, w - 2.4 * k, h - 1.4 * k), STONE, radius=2 * k)
    if house:
        c.rect((2.4 * k, h - 7 * k, w - 2.4 * k, h - 1.4 * k), house_style(house).colour)
    c.text((w / 2, body_top + (h - body_top) / 2 - 1 * k), str(strength), "bold", 17 * k, INK)
    return c.finish()


def _octagon(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    cut = (x1 - x0) * 0.29
    return [
        (x0 + cut, y0), (x1 - cut, y0), (x1, y0 + cut), (x1, y1 - cut),
        (x1 - cut, y1), (x0 + cut, y1), (x0, y1 - cut), (x0, y0 + cut),
    ]  # fmt: skip


@lru_cache(maxsize=64)
def neutral_token(strength: int | None, size: int = style.NEUTRAL_SIZE) -> Stamp:
    """A neutral force: a dark octagon with its strength in white; ``None`` is an impassable marker (a cross)."""
    k = size / 36
    c = Canvas(size, size)
    c.polygon(_octagon(0, 0, size, size), OUTLINE)
    c.polygon(_octagon(1.6 * k, 1.6 * k, size - 1.6 * k, size - 1.6 * k), NEUTRAL_FORCE)
    c.polygon(_octagon(4 * k, 4 * k, size - 4 * k, size - 4 * k), OUTLINE)
    c.polygon(_octagon(5.2 * k, 5.2 * k, size - 5.2 * k, size - 5.2 * k), NEUTRAL_FORCE)
    if strength is None:
        c.icon("cross", (8 * k, 8 * k, size - 8 * k, size - 8 * k), WHITE)
    else:
        c.text((size / 2, size / 2 + 0.5), str(strength), "bold", 19 * k, WHITE)
    return c.finish()
