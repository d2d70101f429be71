"""Where every piece and name of a view goes, in output pixels: the one layout the drawing and the legibility figures
(``bench/render.py``, the tests) both read, so what is measured is what is drawn.

A :class:`Piece` is a unit chip, an order token, a power token, a garrison, a neutral force, an area's name or its
row of printed marks, with its box and its *legibility size*: a chip's height, a token's diameter, a name's font
size in px. ``z`` scales the map (1 on the board, more on the crops); ``origin`` is the map point drawn at (0, 0).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from render import bank, loyalty, shapes, style, tokens
from render.data import RenderBoard
from render.marks import NameBlock, mark_boxes
from render.stamps import Stamp
from render.views import View, area_state, declined, developed, dragon_strength, loyalty_tokens

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
PIECE_KINDS = ("units", "order", "power", "garrison", "neutral", "loyalty", "development")
LABEL_KINDS = ("name", "marks")


@dataclass(frozen=True)
class Piece:
    kind: str  # units | order | power | garrison | neutral | loyalty | development | name | marks | declined
    area: str
    box: Box
    size: float  # legibility size in output px: chip height, token diameter, name font px (0 for marks)
    stamp: Stamp | None = None  # what to paste at the box's top-left (None for names and marks)


def _centre(rect: list[int], z: float, origin: tuple[float, float]) -> tuple[float, float]:
    return (rect[0] + rect[2] / 2) * z - origin[0], (rect[1] + rect[3] / 2) * z - origin[1]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _at(kind: str, area: str, stamp: Stamp, cx: float, cy: float, size: float) -> Piece:
    x0, y0 = round(cx - stamp.width / 2), round(cy - stamp.height / 2)
    return Piece(kind, area, (x0, y0, x0 + stamp.width, y0 + stamp.height), size, stamp)


def zoom_key(z: float) -> float:
    """Zooms are rounded to 1/20 so the stamp caches see a few sizes only."""
    return round(z * 20) / 20


def is_impassable(view: View, area_id: str) -> bool:
    return area_state(view, area_id).get("neutral") == "impassable"


def area_pieces(
    board: RenderBoard, view: View, area_id: str, lang: str, z: float = 1.0, origin: tuple[float, float] = (0, 0)
) -> list[Piece]:
    """The dynamic pieces of one area (nothing for an impassable area: it shows its hatching only)."""
    state = area_state(view, area_id)
    if not state or is_impassable(view, area_id):
        return []
    area = board.areas[area_id]
    rec = shapes.area_meta(board, area_id)
    compact = bool(rec.get("compact")) or area.kind == "port"
    out: list[Piece] = []
    ux, uy = _centre(rec["units"], z, origin)
    neutral = _int(state.get("neutral"))
    if neutral is not None:
        size = round((style.COMPACT_NEUTRAL_SIZE if compact else style.NEUTRAL_SIZE) * z)
        out.append(_at("neutral", area_id, tokens.neutral_token(neutral, size), ux, uy, size))
    garrison = _int(state.get("garrison"))
    if garrison:
        gx, gy = _centre(rec.get("garrison") or rec["units"], z, origin)
        size = round(style.GARRISON_SIZE * z)
        out.append(_at("garrison", area_id, tokens.garrison_token(garrison, area.home_of, size), gx, gy, size))
    power = state.get("power_token")
    if isinstance(power, str):
        px, py = _centre(rec.get("power") or rec["order"], z, origin)
        size = round((style.COMPACT_POWER_SIZE if compact else style.POWER_SIZE) * z)
        out.append(_at("power", area_id, tokens.power_token(power, lang, size), px, py, size))
    units = state.get("units") or []
    chips: list[Stamp] = []
    if units and neutral is None:
        gz = zoom_key(z)
        chips = [
            tokens.unit_group(h, g, lang, compact, gz, tokens.strength_shown(g, dragon_strength(view)))
            for h, g in sorted(tokens.group_units(units).items())
        ]
    order = state.get("order")
    if isinstance(order, dict) and order.get("house"):
        ox, oy = _beside_chips(rec, chips, z, origin)
        size = round((style.COMPACT_ORDER_SIZE if compact else style.ORDER_SIZE) * z)
        if order.get("hidden") or not order.get("type"):
            stamp = tokens.order_token(str(order["house"]), None, False, 0, size)
        else:
            bonus = _int(order.get("bonus")) or 0
            stamp = tokens.order_token(
                str(order["house"]), str(order["type"]), bool(order.get("star")), bonus, size, bool(order.get("sea"))
            )
        placed = _at("order", area_id, stamp, ox, oy, size)
        if any(_overlap(placed.box, o.box) for o in _name_of(board, area_id, lang, z, origin) + out):
            placed = _at("order", area_id, stamp, *_centre(rec["order"], z, origin), size)  # the reserved spot
        out.append(placed)
    if chips:
        total = sum(c.height for c in chips) + 2 * (len(chips) - 1)
        y = uy - total / 2
        for chip in chips:
            out.append(_at("units", area_id, chip, ux, y + chip.height / 2, chip.height))
            y += chip.height + 2
    return out


def _beside_chips(
    rec: dict[str, Any], chips: list[Stamp], z: float, origin: tuple[float, float]
) -> tuple[float, float]:
    """Where the order token goes: its reserved spot, moved up against the unit chips actually drawn (a chip is often
    narrower than the box reserved for it), so that an order always touches its units."""
    ox, oy = _centre(rec["order"], z, origin)
    if not chips:
        return ox, oy
    ux, uy = _centre(rec["units"], z, origin)
    _, _, uw, uh = rec["units"]
    _, _, ow, oh = rec["order"]
    w = max(c.width for c in chips)
    h = sum(c.height for c in chips) + 2 * (len(chips) - 1)
    gap = 3 * z
    dx, dy = ox - ux, oy - uy
    if abs(dx) * uh >= abs(dy) * uw:  # beside (left or right)
        if abs(dx) - (uw + ow) * z / 2 <= 12 * z:
            reach = max(0.0, h / 2 + oh * z / 2 - 8 * z)
            return ux + (1 if dx > 0 else -1) * (w / 2 + gap + ow * z / 2), min(max(oy, uy - reach), uy + reach)
    elif abs(dy) - (uh + oh) * z / 2 <= 12 * z:  # above or below
        reach = max(0.0, w / 2 + ow * z / 2 - 8 * z)
        return min(max(ox, ux - reach), ux + reach), uy + (1 if dy > 0 else -1) * (h / 2 + gap + oh * z / 2)
    return ox, oy


def name_pieces(
    board: RenderBoard, view: View | None, lang: str, z: float = 1.0, origin: tuple[float, float] = (0, 0)
) -> list[Piece]:
    """Every area's name and marks as laid out by the build (hidden for impassable areas)."""
    out: list[Piece] = []
    for area_id in board.areas:
        if view is not None and is_impassable(view, area_id):
            continue
        got = _name_of(board, area_id, lang, z, origin)
        if view is not None and board.areas[area_id].kind == "port":
            state = area_state(view, area_id)
            if state.get("units") or state.get("order"):
                continue  # a port's anchor lies under its ships: shown only while the port is empty
        out += got
    return out


def _name_of(board: RenderBoard, area_id: str, lang: str, z: float, origin: tuple[float, float]) -> list[Piece]:
    area = board.areas[area_id]
    rec = shapes.area_meta(board, area_id)["name"][lang]
    if rec["box"] is None:
        return []
    x, y, w, h = rec["box"]
    box = (x * z - origin[0], y * z - origin[1], (x + w) * z - origin[0], (y + h) * z - origin[1])
    if area.kind == "port":
        return [Piece("marks", area_id, box, 0)]
    out = [Piece("name", area_id, box, rec["size"] * z)]
    if rec["marks"] is not None:
        mx, my, mw, mh = rec["marks"]
        out.append(
            Piece("marks", area_id, (mx * z - origin[0], my * z - origin[1], (mx + mw) * z - origin[0],
                                     (my + mh) * z - origin[1]), 0)
        )  # fmt: skip
    return out


def name_block(board: RenderBoard, area_id: str, lang: str, z: float) -> tuple[NameBlock, tuple[int, int]] | None:
    """The name block of an area at zoom ``z`` and its top-left corner on the unzoomed map."""
    rec = shapes.area_meta(board, area_id)["name"][lang]
    if rec["box"] is None:
        return None
    return NameBlock(tuple(rec["lines"]), round(rec["size"] * z), rec["marks"] is None, z), (
        rec["box"][0],
        rec["box"][1],
    )


def board_pieces(
    board: RenderBoard, view: View, lang: str, z: float = 1.0, origin: tuple[float, float] = (0, 0)
) -> list[Piece]:
    """All pieces and labels of a view."""
    out = name_pieces(board, view, lang, z, origin)
    for area_id in board.areas:
        out += area_pieces(board, view, area_id, lang, z, origin)
    out += loyalty_pieces(board, view, out, z, origin)
    return out + development_pieces(board, view, lang, out, z, origin)


def loyalty_pieces(
    board: RenderBoard,
    view: View,
    others: list[Piece],
    z: float = 1.0,
    origin: tuple[float, float] = (0, 0),
    within: Box | None = None,
) -> list[Piece]:
    """Targaryen's loyalty tokens (one per area holding any, with the count when more than one), each placed in its
    area clear of ``others`` (every name, mark and piece of the drawing) and of the tokens placed before it; with
    ``within`` (a crop's frame), only in the areas that reach into it."""
    out: list[Piece] = []
    size = loyalty.piece_size(z)
    for area_id, count in sorted(loyalty_tokens(view).items()):
        if area_id not in board.areas or is_impassable(view, area_id):
            continue
        if within is not None:  # a token may reach past its area's box by half its own size (over the sea)
            x0, y0, x1, y1 = shapes.area_mask(board, area_id)[0]
            reach = (x0 * z - origin[0] - 2 * size, y0 * z - origin[1] - 2 * size, x1 * z - origin[0] + 2 * size,
                     y1 * z - origin[1] + 2 * size)  # fmt: skip
            if not _overlap(reach, within):
                continue
        taken = [p.box for p in others + out]
        got = loyalty.place(board, area_id, count, z, origin, taken)
        if got is None:  # no room anywhere in the area: on its power token spot, else the last resort
            stamp = loyalty.token(size, count)
            rec = shapes.area_meta(board, area_id)
            spot = _at("loyalty", area_id, stamp, *_centre(rec.get("power") or rec["order"], z, origin), size)
            if any(_overlap(spot.box, o) for o in taken):
                got = loyalty.place(board, area_id, count, z, origin, taken, last_resort=True)
            if got is None:  # whatever lies there
                out.append(spot)
                continue
        box, stamp = got
        out.append(Piece("loyalty", area_id, box, size, stamp))
    return out


def _reaches(board: RenderBoard, area_id: str, z: float, origin: tuple[float, float], size: float,
             within: Box) -> bool:  # fmt: skip
    """Whether a token ``size`` px across placed in the area may show in the frame ``within`` (it may reach past the
    area's box by half its own size, over the sea)."""
    x0, y0, x1, y1 = shapes.area_mask(board, area_id)[0]
    reach = (x0 * z - origin[0] - 2 * size, y0 * z - origin[1] - 2 * size, x1 * z - origin[0] + 2 * size,
             y1 * z - origin[1] + 2 * size)  # fmt: skip
    return _overlap(reach, within)


def development_pieces(
    board: RenderBoard,
    view: View,
    lang: str,
    others: list[Piece],
    z: float = 1.0,
    origin: tuple[float, float] = (0, 0),
    within: Box | None = None,
) -> list[Piece]:
    """The Iron Bank's development tokens (render/bank.py): one row of chips per area holding any, placed as a loyalty
    token is (:func:`render.loyalty.place_stamp`) but nearest the area's printed marks (a token adds a symbol to
    them), clear of ``others`` and of the tokens placed before; with ``within``, only in the areas reaching into it."""
    out: list[Piece] = []
    size = bank.dev_size(z)
    for area_id, held in sorted(developed(view).items()):
        if area_id not in board.areas or is_impassable(view, area_id):
            continue
        if within is not None and not _reaches(board, area_id, z, origin, size * len(held), within):
            continue
        layouts = (False, True) if len(held) > 1 else (False,)
        taken = [p.box for p in others + out]
        pref = _marks_middle(board, area_id, lang)
        got = loyalty.place_stamp(board, area_id, bank.development_token, size, held, layouts, pref, z, origin, taken)
        if got is None:  # no room anywhere in the area: on its power token spot, else the last resort
            stamp = bank.development_token(size, held)
            rec = shapes.area_meta(board, area_id)
            spot = _at("development", area_id, stamp, *_centre(rec.get("power") or rec["order"], z, origin), size)
            if any(_overlap(spot.box, o) for o in taken):
                got = loyalty.place_stamp(board, area_id, bank.development_token, size, held, layouts, pref, z, origin,
                                          taken, last_resort=True)  # fmt: skip
            if got is None:  # whatever lies there
                out.append(spot)
                continue
        box, stamp = got
        out.append(Piece("development", area_id, box, size, stamp))
    return out


def _marks_middle(board: RenderBoard, area_id: str, lang: str) -> tuple[float, float]:
    """The map point at the middle of an area's printed marks (of its name when the marks are part of its block)."""
    rec = shapes.area_meta(board, area_id)["name"][lang]
    x, y, w, h = rec["marks"] or rec["box"] or shapes.area_meta(board, area_id)["units"]
    return x + w / 2, y + h / 2


def decline_pieces(
    board: RenderBoard, view: View, lang: str, z: float = 1.0, origin: tuple[float, float] = (0, 0)
) -> list[Piece]:
    """The Iron Bank's decline tokens, each over the printed castle it covers (in the area's row of marks, where the
    base layer or the crop drew it); none in an impassable area (its marks are hidden). They lie on the marks, so they
    are no piece of their own in the overlap figures."""
    out: list[Piece] = []
    for area_id, symbols in sorted(declined(view).items()):
        if area_id not in board.areas or is_impassable(view, area_id) or "castle" not in symbols:
            continue
        area = board.areas[area_id]
        rec = shapes.area_meta(board, area_id)["name"][lang]
        if rec["marks"] is not None:
            mx, my = rec["marks"][0] * z - origin[0], rec["marks"][1] * z - origin[1]
        else:
            got = name_block(board, area_id, lang, z)
            if got is None:
                continue
            block, (bx, by) = got
            mx, my = block.marks_at(area, lang, round(bx * z - origin[0]), round(by * z - origin[1]))
        for kind, stamp, sx, sy in mark_boxes(area, lang, mx, my, z):
            if kind == "castle":
                cover = bank.decline_cover(stamp.width)
                cx, cy = round(sx) + stamp.width / 2, round(sy) + stamp.height / 2
                out.append(_at("declined", area_id, cover, cx, cy, stamp.width))
    return out


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlaps(pieces: list[Piece], within: Box | None = None) -> list[tuple[Piece, Piece]]:
    """Pairs of pieces or labels whose boxes overlap (only those touching ``within`` when given)."""
    items = [p for p in pieces if within is None or _overlap(p.box, within)]
    items.sort(key=lambda p: p.box[0])
    out: list[tuple[Piece, Piece]] = []
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if b.box[0] >= a.box[2]:
                break
            if _overlap(a.box, b.box):
                out.append((a, b))
    return out


def outside(
    board: RenderBoard, pieces: list[Piece], z: float = 1.0, origin: tuple[float, float] = (0, 0)
) -> list[Piece]:
    """Pieces (not labels) whose box centre or corners leave their own area by more than a few pixels."""
    labels = shapes.labels(board)
    out = []
    for p in pieces:
        if p.kind not in PIECE_KINDS:
            continue
        k = board.areas[p.area].index
        inset = 4 * z
        x0, y0, x1, y1 = p.box
        pts = [((x0 + x1) / 2, (y0 + y1) / 2), (x0 + inset, y0 + inset), (x1 - inset, y0 + inset),
               (x0 + inset, y1 - inset), (x1 - inset, y1 - inset)]  # fmt: skip
        for px, py in pts:
            mx, my = int((px + origin[0]) / z), int((py + origin[1]) / z)
            if not (0 <= mx < labels.width and 0 <= my < labels.height) or labels.getpixel((mx, my)) != k:
                out.append(p)
                break
    return out


def order_gaps(pieces: list[Piece]) -> dict[str, float]:
    """Per area with an order and units: the distance between the order token and the nearest unit chip."""
    out: dict[str, float] = {}
    by_area: dict[str, list[Piece]] = {}
    for p in pieces:
        by_area.setdefault(p.area, []).append(p)
    for area_id, items in by_area.items():
        orders = [p for p in items if p.kind == "order"]
        chips = [p for p in items if p.kind == "units"]
        for o, c in itertools.product(orders, chips):
            dx = max(0.0, o.box[0] - c.box[2], c.box[0] - o.box[2])
            dy = max(0.0, o.box[1] - c.box[3], c.box[1] - o.box[3])
            d = (dx * dx + dy * dy) ** 0.5
            out[area_id] = min(out.get(area_id, d), d)
    return out


def min_sizes(pieces: list[Piece]) -> tuple[float, float]:
    """(smallest piece size, smallest name size) among ``pieces``."""
    piece = min((p.size for p in pieces if p.kind in PIECE_KINDS), default=0.0)
    label = min((p.size for p in pieces if p.kind == "name"), default=0.0)
    return piece, label
