"""Targaryen's loyalty tokens (Mother of Dragons with Targaryen): the token drawn on the map, and where it goes.

A loyalty token is a diamond in Targaryen's purple, ringed in white inside a dark edge, with a white heart: no other
piece is a diamond (orders and power tokens are discs, a neutral force an octagon, a garrison a tower), and a heart is
on nothing else. An area holding more than one shows one token with the count on a white disc at its right corner
(under it where there is no room beside).

The build placed no box for it (the tokens came after the shapes), so a token is placed when drawn, at the zoom it
is drawn at (the board, a crop, the Essos image), clear by ``GAP`` px of every name, mark and piece of that drawing
and leaving the area's anchor pixel uncovered (:func:`place`): at the point nearest the middle of the area's reserved
boxes (units, order, power token, garrison) where it lies wholly inside the area, ``EDGE`` px off its border, and off
those reserved boxes too when it can (so that it does not jump when units come in). In a thin coastal area with no
such room it may reach over the sea, never over another land. With no room at all it goes on the area's power token
spot; where that is taken, as a last resort, it may touch the pieces around it and reach over the area's own port.
On the board with Essos a token of Westeros stays on the board image (left of its right edge).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Hashable, Iterable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from render import shapes
from render.data import RenderBoard, board_named
from render.stamps import Canvas, Stamp
from render.style import INK, OUTLINE, WHITE, house_style

TARGARYEN = "targaryen"
SIZE = 32  # px on the map: the diamond's width and height (29 px on a phone, like the compact tokens)
GAP = 3  # px at zoom 1 kept between a token and any other piece or name
EDGE = 3  # map px kept between a token and its area's edge (the border lines)
STEP = 2  # map px between the candidate points
NONE = 1 << 30  # the rank of no candidate
Box = tuple[float, float, float, float]


def _diamond(s: float, inset: float) -> list[tuple[float, float]]:
    return [(s / 2, inset), (s - inset, s / 2), (s / 2, s - inset), (inset, s / 2)]


def badge_size(size: int) -> int:
    """The count's disc, for a token ``size`` px across."""
    return round(size * 0.7)


@lru_cache(maxsize=128)
def token(size: int = SIZE, count: int = 1, below: bool = False) -> Stamp:
    """A loyalty token ``size`` px across; with ``count`` > 1, the count on a white disc at its right corner (the
    stamp is then wider than tall), or ``below`` it (taller than wide) where an area has no room beside."""
    k = size / SIZE
    b = badge_size(size) if count > 1 else 0
    extra = math.ceil(b * 0.72) if count > 1 else 0
    c = Canvas(size, size + extra) if below else Canvas(size + extra, size)
    c.polygon(_diamond(size, 0), OUTLINE)
    c.polygon(_diamond(size, 2.2 * k), WHITE)
    c.polygon(_diamond(size, 4.6 * k), house_style(TARGARYEN).colour)
    h = size * 0.44
    c.icon("heart", (size / 2 - h / 2, size / 2 - h / 2 + 0.5 * k, size / 2 + h / 2, size / 2 + h / 2 + 0.5 * k), WHITE)
    if count > 1:
        cx, cy = (size / 2, c.h - b / 2) if below else (c.w - b / 2, size / 2)
        c.ellipse((cx - b / 2, cy - b / 2, cx + b / 2, cy + b / 2), OUTLINE)
        ring = 1.6 * k
        c.ellipse((cx - b / 2 + ring, cy - b / 2 + ring, cx + b / 2 - ring, cy + b / 2 - ring), WHITE)
        label = str(count)
        c.text((cx, cy + 0.5 * k), label, "bold", b * (0.7 if len(label) == 1 else 0.56), INK)
    return c.finish()


def preferred(board: RenderBoard, area_id: str) -> tuple[float, float]:
    """The map point a token goes nearest to: the middle of the boxes the build reserved for the area's pieces."""
    rec = shapes.area_meta(board, area_id)
    rects = [rec[key] for key in ("units", "order", "power", "garrison") if rec.get(key)]
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return (x0 + x1) / 2, (y0 + y1) / 2


def reserved_boxes(board: RenderBoard, area_id: str, z: float, origin: tuple[float, float]) -> tuple[Box, ...]:
    """The boxes the build reserved for an area's own pieces, at zoom ``z`` (output px)."""
    rec = shapes.area_meta(board, area_id)
    out = []
    for key in ("units", "order", "power", "garrison"):
        r = rec.get(key)
        if r:
            out.append((r[0] * z - origin[0], r[1] * z - origin[1], (r[0] + r[2]) * z - origin[0],
                        (r[1] + r[3]) * z - origin[1]))  # fmt: skip
    return tuple(out)


def place(
    board: RenderBoard,
    area_id: str,
    count: int,
    z: float,
    origin: tuple[float, float],
    obstacles: list[Box],
    last_resort: bool = False,
) -> tuple[Box, Stamp] | None:
    """Where the token of ``count`` goes in ``area_id`` at zoom ``z`` (output px) and the stamp drawn there; None when
    the area has no room for it. The token is clear of ``obstacles`` (every name, mark and piece drawn) and leaves
    the area's anchor pixel uncovered; tried in turn, nearest the middle of the area's pieces first:

    1. wholly inside the area (``EDGE`` px off its border), clear of the boxes reserved for the area's own pieces;
    2. wholly inside the area, over reserved boxes left empty;
    3. its centre inside the area, the rest over no other land (a thin coastal area's token may reach over the sea);
    With ``last_resort`` (no room above, and the area's power token spot taken): passes 2 and 3 without the ``GAP``
    around the obstacles, then the rest of the token over the sea or the area's own port.

    A count goes beside the diamond, else below it."""
    layouts = (False, True) if count > 1 else (False,)
    return place_stamp(board, area_id, token, piece_size(z), count, layouts, preferred(board, area_id), z, origin,
                       obstacles, last_resort)  # fmt: skip


Maker = Callable[[int, Any, bool], Stamp]  # (size, what, below) -> the stamp of a token laid out one way or the other


def place_stamp(
    board: RenderBoard,
    area_id: str,
    make: Maker,
    size: int,
    what: Hashable,
    layouts: tuple[bool, ...],
    pref: tuple[float, float],
    z: float,
    origin: tuple[float, float],
    obstacles: list[Box],
    last_resort: bool = False,
) -> tuple[Box, Stamp] | None:
    """Where the stamp ``make(size, what, below)`` goes in ``area_id`` as :func:`place` places a loyalty token
    (nearest the map point ``pref``), trying each layout ``below`` of ``layouts`` in turn at each step; and the stamp
    drawn there. Any token drawn in an area (render/bank.py's too) is placed here."""
    w = max(make(size, what, below).width for below in (False, True))
    h = max(make(size, what, below).height for below in (False, True))
    (ax0, ay0, ax1, ay1), _ = shapes.area_mask(board, area_id)
    reach = (ax0 * z - origin[0] - w, ay0 * z - origin[1] - h, ax1 * z - origin[0] + w, ay1 * z - origin[1] + h)
    gap = 0 if last_resort else GAP * z
    got = _place(board.name, area_id, make, size, what, layouts, pref, z, origin,
                 _grown((o for o in obstacles if _overlap(o, reach)), gap),
                 _grown(reserved_boxes(board, area_id, z, origin), gap), last_resort)  # fmt: skip
    if got is None:
        return None
    box, below = got
    return box, make(size, what, below)


def _grown(boxes: Iterable[Box], by: float) -> tuple[Box, ...]:
    return tuple((o[0] - by, o[1] - by, o[2] + by, o[3] + by) for o in boxes)


@lru_cache(maxsize=512)
def _place(
    board: str,
    area_id: str,
    make: Maker,
    size: int,
    what: Hashable,
    layouts: tuple[bool, ...],
    pref: tuple[float, float],
    z: float,
    origin: tuple[float, float],
    obstacles: tuple[Box, ...],
    reserved: tuple[Box, ...],
    last_resort: bool = False,
) -> tuple[Box, bool] | None:
    chosen = board_named(board)
    ax, ay = shapes.area_meta(chosen, area_id)["anchor"]
    anchor = [
        (x, y)
        for x in range(math.floor(ax * z - origin[0]), math.ceil((ax + 1) * z - origin[0]))
        for y in range(math.floor(ay * z - origin[1]), math.ceil((ay + 1) * z - origin[1]))
    ]
    passes = [(0, obstacles + reserved), (0, obstacles), (1, obstacles)]
    if last_resort:  # the passes above found nothing: closer to the obstacles, and over the area's port
        passes = [(0, obstacles), (1, obstacles)] + [(2, obstacles)] * bool(chosen.areas[area_id].port)
    for coast, avoid in passes:
        for below in layouts:
            stamp = make(size, what, below)
            w, h = stamp.width, stamp.height
            edge = 0 if coast else EDGE
            rx, ry = math.ceil(w / 2 / z) + edge, math.ceil(h / 2 / z) + edge
            (x0, y0), ranks, points = _candidates(board, area_id, rx, ry, pref, coast, _limit(chosen, area_id))
            # Every centre whose token would touch an obstacle, struck off the area's room (up to a pixel more than
            # exactly: the box found is checked exactly); then the nearest point left, if any.
            left = ranks.copy()
            d = ImageDraw.Draw(left)
            for o in avoid:
                d.rectangle(
                    (
                        -(-math.floor((o[0] - w / 2 - 0.5 + origin[0]) / z - x0 - 0.5) // STEP),
                        -(-math.floor((o[1] - h / 2 - 0.5 + origin[1]) / z - y0 - 0.5) // STEP),
                        math.ceil((o[2] + w / 2 + 0.5 + origin[0]) / z - x0 - 0.5) // STEP,
                        math.ceil((o[3] + h / 2 + 0.5 + origin[1]) / z - y0 - 0.5) // STEP,
                    ),
                    fill=NONE,
                )
            while (nearest := _lowest(left)) < NONE:
                gx, gy = points[nearest]
                mx, my = x0 + gx * STEP + 0.5, y0 + gy * STEP + 0.5
                bx, by = round(mx * z - origin[0] - w / 2), round(my * z - origin[1] - h / 2)
                box = (bx, by, bx + w, by + h)
                if not any(_overlap(box, o) for o in avoid) and not _covers(stamp, bx, by, anchor):
                    return box, below
                left.putpixel((gx, gy), NONE)
    return None


def _lowest(img: Image.Image) -> int:
    low = img.getextrema()[0]
    assert isinstance(low, int)
    return low


def _covers(stamp: Stamp, x: int, y: int, pixels: list[tuple[int, int]]) -> bool:
    """Whether ``stamp`` pasted at (x, y) covers any of ``pixels`` (its transparent corners cover nothing)."""
    for px, py in pixels:
        u, v = px - x, py - y
        if 0 <= u < stamp.width and 0 <= v < stamp.height and (stamp.mask is None or stamp.mask.getpixel((u, v))):
            return True
    return False


def _limit(board: RenderBoard, area_id: str) -> int | None:
    """How far right (map px) a token of an area on the board image may reach: on the board with Essos, that image's
    edge, for every area whose pieces the board image shows (Dragonstone reaches past it)."""
    if not board.has_essos:
        return None
    rec = shapes.area_meta(board, area_id)
    ends = [rec[key][0] + rec[key][2] for key in ("units", "order", "power", "garrison") if rec.get(key)]
    return board.board_width if max(ends) <= board.board_width else None


@lru_cache(maxsize=256)
def _candidates(
    board: str, area_id: str, rx: int, ry: int, pref: tuple[float, float], coast: int, limit: int | None
) -> tuple[tuple[int, int], Image.Image, tuple[tuple[int, int], ...]]:
    """Where the centre of a box reaching ``rx``, ``ry`` px from it may go: the box wholly inside the area, or with
    ``coast`` its centre inside the area and the rest inside it or the seas (``coast`` 2: or its own port); and left of
    ``limit`` (map px) when given. Returns the area's top-left corner (x0, y0) on the map; an image (mode I) of the
    grid of points every ``STEP`` px from it, pixel (gx, gy) standing for the map pixel (x0 + gx * STEP, y0 + gy *
    STEP), holding that point's rank by distance to ``pref`` where it may be a centre (``NONE`` elsewhere); and the
    points by rank."""
    chosen = board_named(board)
    (x0, y0, x1, y1), mask = shapes.area_mask(chosen, area_id)
    if coast:
        own = chosen.areas[area_id].index
        port = chosen.areas[area_id].port if coast == 2 else None
        room = {own} | {a.index for a in chosen.areas.values() if a.kind == "sea" or a.id == port}
        lut = [255 if v in room else 0 for v in range(256)]
        around = shapes.labels(chosen).crop((x0 - rx, y0 - ry, x1 + rx, y1 + ry)).point(lut)
        inner = ImageChops.darker(_eroded(around, rx, ry).crop((rx, ry, rx + mask.width, ry + mask.height)), mask)
    else:
        inner = _eroded(mask, rx, ry)
    if limit is not None and x1 + rx > limit:
        inner = inner.copy()
        ImageDraw.Draw(inner).rectangle((max(0, limit - rx - x0), 0, inner.width, inner.height), fill=0)
    full, w = inner.tobytes(), inner.width
    data = b"".join(full[y * w : (y + 1) * w : STEP] for y in range(0, inner.height, STEP))  # every STEP px
    size = (-(-w // STEP), -(-inner.height // STEP))
    px, py = (pref[0] - x0 - 0.5) / STEP, (pref[1] - y0 - 0.5) / STEP
    pts = sorted(
        ((x - px) ** 2 + (y - py) ** 2, y, x) for y in range(size[1]) for x in range(size[0]) if data[y * size[0] + x]
    )
    ranks = array("i", [NONE]) * len(data)
    for rank, (_, y, x) in enumerate(pts):
        ranks[y * size[0] + x] = rank
    return (x0, y0), Image.frombytes("I", size, ranks.tobytes(), "raw", "I"), tuple((x, y) for _, y, x in pts)


def _shifted(img: Image.Image, dx: int, dy: int) -> Image.Image:
    out = Image.new("L", img.size, 0)
    out.paste(img, (dx, dy))
    return out


def _eroded(mask: Image.Image, rx: int, ry: int) -> Image.Image:
    """``mask`` (0/255) where a box reaching ``rx`` px left and right and ``ry`` px up and down stays inside it
    (outside the mask's frame counts as outside): a running minimum over each row, then each column, in a few
    doubling steps."""
    return _window_min(_window_min(mask, rx, True), ry, False)


def _window_min(img: Image.Image, r: int, across: bool) -> Image.Image:
    """The minimum over the ``2r + 1`` pixels centred on each pixel, along rows (``across``) or columns."""
    n = 2 * r + 1
    span = 1
    out = img  # out(x) = min over [x, x + span - 1]
    while span * 2 <= n:
        out = ImageChops.darker(out, _shifted(out, -span, 0) if across else _shifted(out, 0, -span))
        span *= 2
    # min over [x - r, x + r] = min(out(x - r), out(x - r + n - span)), the two windows covering it
    a, b = -r, -r + n - span
    return ImageChops.darker(
        _shifted(out, -a, 0) if across else _shifted(out, 0, -a),
        _shifted(out, -b, 0) if across else _shifted(out, 0, -b),
    )


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def piece_size(z: float = 1.0) -> int:
    """The token's size at zoom ``z`` (its legibility size, as a chip's height or a token's diameter)."""
    return round(SIZE * z)
