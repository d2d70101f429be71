"""Arrows for marches, retreats, raids and supports on the crops: routed around names and pieces, and drawn as a
house-coloured shaft inside a dark edge inside a light halo, so that every house's arrow shows on land and sea."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from PIL import ImageDraw

from render import palette, style
from render.layout import Box, Piece
from render.style import OUTLINE, RGB, WHITE

Point = tuple[float, float]
HALO: RGB = WHITE


def arrow_colours(house: str | None) -> tuple[RGB, RGB, RGB]:
    """(shaft, edge, halo) for ``house``'s arrows (see :func:`style.arrow_fill`)."""
    return style.arrow_fill(house), OUTLINE, HALO


@dataclass(frozen=True)
class Arrow:
    house: str | None
    kind: str  # march | retreat | raid | support
    points: tuple[Point, ...]  # the routed centre line, tail to head
    width: float
    crossings: int  # names and other pieces the routed arrow still crosses


def _bezier(a: Point, c: Point, b: Point, n: int = 28) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]))
    return out


def _inside(p: Point, box: Box, grow: float) -> bool:
    return box[0] - grow <= p[0] <= box[2] + grow and box[1] - grow <= p[1] <= box[3] + grow


def _seg_hits(p: Point, q: Point, box: Box, grow: float) -> bool:
    """Whether the segment p-q passes within ``grow`` of ``box``: it meets the box grown by ``grow`` (Liang-Barsky
    clipping, exact and constant-time; routing tests thousands of segments per image)."""
    x0, y0, x1, y1 = box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow
    dx, dy = q[0] - p[0], q[1] - p[1]
    low, high = 0.0, 1.0
    for step, room in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def crossings(
    points: list[Point] | tuple[Point, ...], obstacles: list[Box], width: float, limit: int | None = None
) -> int:
    """How many ``obstacles`` the polyline passes within half its ``width`` (+2 px) of; counting stops past
    ``limit`` (routing only needs to know that a candidate is worse than the best so far)."""
    grow = width / 2 + 2
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    left, right, top, bottom = min(xs) - grow, max(xs) + grow, min(ys) - grow, max(ys) + grow
    near = [b for b in obstacles if b[0] <= right and left <= b[2] and b[1] <= bottom and top <= b[3]]
    segments = []  # each with its bounding box, to skip the exact test for boxes far from it
    for p, q in itertools.pairwise(points):
        sx0, sx1 = (p[0], q[0]) if p[0] < q[0] else (q[0], p[0])
        sy0, sy1 = (p[1], q[1]) if p[1] < q[1] else (q[1], p[1])
        segments.append((p, q, sx0, sx1, sy0, sy1))
    hit = 0
    for box in near:
        x0, y0, x1, y1 = box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow
        if any(_seg_hits(p, q, box, grow) for p, q, sx0, sx1, sy0, sy1 in segments
               if sx0 <= x1 and x0 <= sx1 and sy0 <= y1 and y0 <= sy1):  # fmt: skip
            hit += 1
            if limit is not None and hit > limit:
                return hit
    return hit


def _anchors(boxes: list[Box], fallback: Point) -> list[Point]:
    """Where an arrow may start or end: the middle of the pieces at that end, then the middles of their sides."""
    if not boxes:
        return [fallback]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return [(cx, cy), (x1 + 6, cy), (x0 - 6, cy), (cx, y0 - 6), (cx, y1 + 6)]


def _trim(points: list[Point], boxes: list[Box], from_start: bool) -> list[Point]:
    """Drop the points at one end that lie on that end's own pieces (the arrow starts and stops beside them)."""
    seq = points if from_start else points[::-1]
    i = 0
    while i < len(seq) - 2 and any(_inside(seq[i], b, 4) for b in boxes):
        i += 1
    kept = seq[i:]
    return kept if from_start else kept[::-1]


def route(
    house: str | None,
    kind: str,
    start: Point,
    end: Point,
    start_boxes: list[Box],
    end_boxes: list[Box],
    obstacles: list[Box],
    width: float,
    frame: Box | None = None,
) -> Arrow:
    """The arrow from ``start`` to ``end`` bending (a quadratic curve) as little as it can while crossing as few
    ``obstacles`` (names, other pieces) as possible; its ends stop at the pieces at either end. Within ``frame``
    (the crop) where it can: an arrow that leaves the picture and comes back reads as two arrows, or none."""
    best: tuple[int, float, list[Point]] | None = None
    for a in _anchors(start_boxes, start):
        for b in _anchors(end_boxes, end):
            length = math.dist(a, b) or 1.0
            nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            for bend in BENDS:
                ctrl = (mid[0] + nx * bend * length, mid[1] + ny * bend * length)
                pts = _trim(_trim(_bezier(a, ctrl, b), start_boxes, True), end_boxes, False)
                if len(pts) < 2 or math.dist(pts[0], pts[-1]) < width * 3:
                    continue
                hits = crossings(pts, obstacles, width, best[0] if best is not None else None)
                if frame is not None and not all(_inside(p, frame, -width) for p in pts):
                    hits += OFF_FRAME
                cost = abs(bend) + (0 if (a, b) == (start, end) else 0.5)
                if best is None or (hits, cost) < best[:2]:
                    best = (hits, cost, pts)
            if best is not None and best[0] == 0 and best[1] < 0.5:
                break
        if best is not None and best[0] == 0 and best[1] < 0.5:
            break
    if best is None:
        return Arrow(house, kind, (start, end), width, 0)
    return Arrow(house, kind, tuple(best[2]), width, best[0])


BENDS = (0.0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6, 0.85, -0.85, 1.1, -1.1)
OFF_FRAME = 3  # an arrow leaving the crop costs as much as crossing three names or pieces


def draw(d: ImageDraw.ImageDraw, arrow: Arrow) -> None:
    """Halo, edge and shaft, with a head at the end (a raid's head is a cross-bar), on an image in the board's
    palette (hard-edged, so every pixel is one of its entries)."""
    fill, edge, halo = arrow_colours(arrow.house)
    pts = list(arrow.points)
    if len(pts) < 2:
        return
    w = arrow.width
    head = w * 2.2
    # Pull the shaft back under the head.
    tip = pts[-1]
    back = pts[-2]
    i = len(pts) - 2
    while i > 0 and math.dist(pts[i], tip) < head:
        i -= 1
        back = pts[i]
    ang = math.atan2(tip[1] - back[1], tip[0] - back[0])
    ux, uy = math.cos(ang), math.sin(ang)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    shaft = [*pts[: i + 1], base]
    nx, ny = -uy, ux

    def tri(grow: float) -> list[Point]:
        h = head + grow
        return [
            (tip[0] + ux * grow, tip[1] + uy * grow),
            (tip[0] - ux * h + nx * (h * 0.62), tip[1] - uy * h + ny * (h * 0.62)),
            (tip[0] - ux * h - nx * (h * 0.62), tip[1] - uy * h - ny * (h * 0.62)),
        ]

    dash = arrow.kind == "retreat"
    for colour, extra in ((halo, 8.0), (edge, 4.5), (fill, 0.0)):
        width = round(w + extra)
        ink = palette.idx(colour)
        if dash and colour == fill:
            _dashed(d, shaft, ink, width)
        else:
            d.line(shaft, fill=ink, width=width, joint="curve")
        d.polygon(tri(extra * 0.9), fill=ink)


def _dashed(d: ImageDraw.ImageDraw, pts: list[Point], ink: int, width: int) -> None:
    """A retreat's shaft: dashes of the house colour on the dark edge."""
    on, off = 14.0, 9.0
    drawing, left = True, on
    for p, q in itertools.pairwise(pts):
        seg = math.dist(p, q)
        t = 0.0
        while t < seg:
            step = min(left, seg - t)
            a = (p[0] + (q[0] - p[0]) * t / seg, p[1] + (q[1] - p[1]) * t / seg)
            b = (p[0] + (q[0] - p[0]) * (t + step) / seg, p[1] + (q[1] - p[1]) * (t + step) / seg)
            if drawing:
                d.line([a, b], fill=ink, width=width)
            t += step
            left -= step
            if left <= 0:
                drawing = not drawing
                left = on if drawing else off


def piece_boxes(pieces: list[Piece], area: str) -> list[Box]:
    return [p.box for p in pieces if p.area == area and p.kind not in ("name", "marks", "loyalty", "development")]
