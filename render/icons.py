"""Pictograms (units, orders, board marks) as polygons in a unit square, drawn supersampled."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw

from render.style import RGB

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Painter = Callable[[ImageDraw.ImageDraw, Box, RGB], None]


def _pts(box: Box, pts: Sequence[Point]) -> list[Point]:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return [(x0 + px * w, y0 + py * h) for px, py in pts]


def _circle(d: ImageDraw.ImageDraw, box: Box, cx: float, cy: float, r: float, fill: RGB) -> None:
    (px, py), (qx, qy) = _pts(box, [(cx - r, cy - r), (cx + r, cy + r)])
    d.ellipse((px, py, qx, qy), fill=fill)


def _rect(d: ImageDraw.ImageDraw, box: Box, x0: float, y0: float, x1: float, y1: float, fill: RGB) -> None:
    (px, py), (qx, qy) = _pts(box, [(x0, y0), (x1, y1)])
    d.rectangle((px, py, qx, qy), fill=fill)


def _poly(d: ImageDraw.ImageDraw, box: Box, pts: Sequence[Point], fill: RGB) -> None:
    d.polygon(_pts(box, pts), fill=fill)


def _line(d: ImageDraw.ImageDraw, box: Box, pts: Sequence[Point], fill: RGB, width: float) -> None:
    scale = box[2] - box[0]
    d.line(_pts(box, pts), fill=fill, width=max(1, round(width * scale)), joint="curve")


# --- units ------------------------------------------------------------------------------------------------


def footman(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A pawn: round head over a flared body."""
    _circle(d, box, 0.5, 0.27, 0.15, fill)
    _poly(d, box, [(0.40, 0.40), (0.60, 0.40), (0.70, 0.78), (0.30, 0.78)], fill)
    _rect(d, box, 0.20, 0.78, 0.80, 0.92, fill)


def knight(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A chess knight: horse head facing left, on a base."""
    head = [
        (0.30, 0.80), (0.36, 0.60), (0.28, 0.60), (0.16, 0.54), (0.14, 0.44), (0.30, 0.28), (0.42, 0.16),
        (0.46, 0.05), (0.54, 0.14), (0.68, 0.20), (0.80, 0.36), (0.84, 0.58), (0.78, 0.80),
    ]  # fmt: skip
    _poly(d, box, head, fill)
    _rect(d, box, 0.18, 0.78, 0.84, 0.93, fill)


def siege_engine(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A trebuchet: A-frame, long throwing arm, wheeled base."""
    _line(d, box, [(0.26, 0.72), (0.50, 0.30), (0.74, 0.72)], fill, 0.10)
    _line(d, box, [(0.12, 0.14), (0.78, 0.50)], fill, 0.09)
    _circle(d, box, 0.82, 0.52, 0.09, fill)
    _rect(d, box, 0.10, 0.68, 0.90, 0.78, fill)
    _circle(d, box, 0.26, 0.82, 0.10, fill)
    _circle(d, box, 0.74, 0.82, 0.10, fill)


def ship(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A one-masted ship: hull, mast and two sails."""
    _poly(d, box, [(0.06, 0.62), (0.94, 0.62), (0.78, 0.88), (0.22, 0.88)], fill)
    _rect(d, box, 0.46, 0.08, 0.54, 0.64, fill)
    _poly(d, box, [(0.58, 0.12), (0.58, 0.56), (0.90, 0.56)], fill)
    _poly(d, box, [(0.42, 0.20), (0.42, 0.56), (0.16, 0.56)], fill)


def _mirrored(pts: Sequence[Point]) -> list[Point]:
    return [(1 - x, y) for x, y in pts]


def dragon(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A dragon seen from the front: two wide bat wings spread out, a horned head and a curled tail (as wide as it is
    tall, unlike the narrow pawn and horse head)."""
    wing = [
        (0.47, 0.34), (0.34, 0.14), (0.02, 0.05), (0.09, 0.27), (0.03, 0.51), (0.17, 0.44), (0.19, 0.63),
        (0.31, 0.53), (0.37, 0.68), (0.46, 0.58),
    ]  # fmt: skip
    _poly(d, box, wing, fill)
    _poly(d, box, _mirrored(wing), fill)
    body = [
        (0.42, 0.40), (0.43, 0.22), (0.35, 0.09), (0.45, 0.13), (0.50, 0.05), (0.55, 0.13), (0.65, 0.09),
        (0.57, 0.22), (0.58, 0.40), (0.61, 0.68), (0.50, 0.80), (0.39, 0.68),
    ]  # fmt: skip
    _poly(d, box, body, fill)
    _line(d, box, [(0.50, 0.74), (0.60, 0.84), (0.56, 0.94), (0.42, 0.95)], fill, 0.075)


UNIT_PAINTERS: dict[str, Painter] = {
    "footman": footman,
    "knight": knight,
    "siege-engine": siege_engine,
    "ship": ship,
    "dragon": dragon,
}

# --- orders -----------------------------------------------------------------------------------------------


def march(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """An arrow pointing right."""
    _rect(d, box, 0.12, 0.40, 0.58, 0.60, fill)
    _poly(d, box, [(0.50, 0.18), (0.90, 0.50), (0.50, 0.82)], fill)


def defense(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A shield."""
    pts: list[Point] = [(0.18, 0.14), (0.50, 0.08), (0.82, 0.14), (0.82, 0.46)]
    for i in range(1, 8):
        a = i / 8 * math.pi / 2
        pts.append((0.5 + 0.32 * math.cos(a), 0.46 + 0.44 * math.sin(a)))
    for i in range(8, 0, -1):
        a = i / 8 * math.pi / 2
        pts.append((0.5 - 0.32 * math.cos(a), 0.46 + 0.44 * math.sin(a)))
    pts.append((0.18, 0.46))
    _poly(d, box, pts, fill)


def support(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A plus sign."""
    _rect(d, box, 0.40, 0.12, 0.60, 0.88, fill)
    _rect(d, box, 0.12, 0.40, 0.88, 0.60, fill)


def raid(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A flame with two tongues."""
    pts = [
        (0.46, 0.04), (0.60, 0.24), (0.66, 0.40), (0.74, 0.26), (0.84, 0.48), (0.86, 0.66), (0.78, 0.84),
        (0.60, 0.96), (0.40, 0.96), (0.22, 0.84), (0.14, 0.64), (0.20, 0.44), (0.30, 0.54), (0.32, 0.30),
    ]  # fmt: skip
    _poly(d, box, pts, fill)


def crown(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A three-pointed crown (consolidate power; the crowns printed on areas)."""
    pts = [
        (0.10, 0.82), (0.06, 0.24), (0.30, 0.52), (0.50, 0.14), (0.70, 0.52), (0.94, 0.24), (0.90, 0.82),
    ]  # fmt: skip
    _poly(d, box, pts, fill)


def iron_bank(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A bank: a pediment over three columns on a base (the Iron Bank's sea order, Mother of Dragons)."""
    _poly(d, box, [(0.06, 0.34), (0.50, 0.06), (0.94, 0.34)], fill)
    _rect(d, box, 0.12, 0.38, 0.88, 0.46, fill)
    for x in (0.16, 0.42, 0.68):
        _rect(d, box, x, 0.50, x + 0.16, 0.80, fill)
    _rect(d, box, 0.06, 0.84, 0.94, 0.94, fill)


ORDER_PAINTERS: dict[str, Painter] = {
    "march": march,
    "defense": defense,
    "support": support,
    "raid": raid,
    "consolidate": crown,
    "iron-bank": iron_bank,
}

# --- board marks ------------------------------------------------------------------------------------------


def star(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    pts: list[Point] = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = 0.5 if i % 2 == 0 else 0.21
        pts.append((0.5 + r * math.cos(a), 0.54 + r * math.sin(a)))
    _poly(d, box, pts, fill)


def castle(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A single narrow crenellated tower (castle)."""
    _rect(d, box, 0.26, 0.30, 0.74, 0.96, fill)
    for x in (0.26, 0.445, 0.63):
        _rect(d, box, x, 0.08, x + 0.11, 0.32, fill)


def stronghold(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A wide fortress: a tall central keep between two towers and a curtain wall (stronghold)."""
    _rect(d, box, 0.02, 0.56, 0.98, 0.96, fill)  # curtain wall
    _rect(d, box, 0.02, 0.34, 0.24, 0.96, fill)  # left tower
    _rect(d, box, 0.76, 0.34, 0.98, 0.96, fill)  # right tower
    _rect(d, box, 0.34, 0.16, 0.66, 0.96, fill)  # keep
    for x in (0.02, 0.16, 0.76, 0.90):
        _rect(d, box, x, 0.22, x + 0.08, 0.36, fill)
    for x in (0.34, 0.46, 0.58):
        _rect(d, box, x, 0.02, x + 0.08, 0.18, fill)


def banner(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A swallow-tailed banner (a house's home crest)."""
    _poly(d, box, [(0.08, 0.02), (0.92, 0.02), (0.92, 0.98), (0.5, 0.74), (0.08, 0.98)], fill)


def barrel(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    pts: list[Point] = []
    for i in range(13):
        a = -math.pi / 2 + i * math.pi / 12
        pts.append((0.5 + 0.42 * math.cos(a), 0.5 + 0.46 * math.sin(a)))
    for i in range(13):
        a = math.pi / 2 + i * math.pi / 12
        pts.append((0.5 + 0.42 * math.cos(a), 0.5 + 0.46 * math.sin(a)))
    _poly(d, box, pts, fill)


def anchor(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    _line(d, box, [(0.5, 0.18), (0.5, 0.86)], fill, 0.12)
    _line(d, box, [(0.28, 0.32), (0.72, 0.32)], fill, 0.10)
    _line(d, box, [(0.12, 0.56), (0.22, 0.76), (0.5, 0.88), (0.78, 0.76), (0.88, 0.56)], fill, 0.10)
    d.ellipse(_bbox(box, 0.5, 0.12, 0.09), outline=fill, width=max(1, round(0.07 * (box[2] - box[0]))))


def _bbox(box: Box, cx: float, cy: float, r: float) -> tuple[float, float, float, float]:
    (px, py), (qx, qy) = _pts(box, [(cx - r, cy - r), (cx + r, cy + r)])
    return (px, py, qx, qy)


def cross(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    _line(d, box, [(0.2, 0.2), (0.8, 0.8)], fill, 0.16)
    _line(d, box, [(0.8, 0.2), (0.2, 0.8)], fill, 0.16)


def sword(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A sword pointing up (the Valyrian Steel Blade; sword icons)."""
    _poly(d, box, [(0.5, 0.04), (0.58, 0.16), (0.58, 0.66), (0.42, 0.66), (0.42, 0.16)], fill)
    _rect(d, box, 0.24, 0.64, 0.76, 0.72, fill)
    _rect(d, box, 0.45, 0.72, 0.55, 0.90, fill)
    _circle(d, box, 0.5, 0.92, 0.06, fill)


def throne(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A high-backed seat (Iron Throne)."""
    for x in (0.18, 0.34, 0.50, 0.66):
        _poly(d, box, [(x, 0.50), (x + 0.08, 0.04), (x + 0.16, 0.50)], fill)
    _rect(d, box, 0.16, 0.44, 0.84, 0.60, fill)
    _rect(d, box, 0.10, 0.58, 0.90, 0.70, fill)
    _rect(d, box, 0.14, 0.70, 0.26, 0.96, fill)
    _rect(d, box, 0.74, 0.70, 0.86, 0.96, fill)


def raven(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A bird in flight (Messenger Raven)."""
    pts = [
        (0.04, 0.30), (0.30, 0.36), (0.46, 0.52), (0.62, 0.34), (0.96, 0.20), (0.70, 0.56), (0.58, 0.66),
        (0.66, 0.86), (0.50, 0.76), (0.36, 0.86), (0.40, 0.64),
    ]  # fmt: skip
    _poly(d, box, pts, fill)


def skull(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    _circle(d, box, 0.5, 0.42, 0.34, fill)
    _rect(d, box, 0.32, 0.60, 0.68, 0.90, fill)


def heart(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A heart (Targaryen's loyalty tokens): two lobes over a point."""
    _circle(d, box, 0.29, 0.33, 0.23, fill)
    _circle(d, box, 0.71, 0.33, 0.23, fill)
    _poly(d, box, [(0.07, 0.40), (0.50, 0.30), (0.93, 0.40), (0.50, 0.92)], fill)


MARK_PAINTERS: dict[str, Painter] = {
    "star": star,
    "castle": castle,
    "stronghold": stronghold,
    "banner": banner,
    "barrel": barrel,
    "crown": crown,
    "anchor": anchor,
    "cross": cross,
    "sword": sword,
    "throne": throne,
    "raven": raven,
    "skull": skull,
    "heart": heart,
}

ALL_PAINTERS: dict[str, Painter] = {**UNIT_PAINTERS, **ORDER_PAINTERS, **MARK_PAINTERS}
