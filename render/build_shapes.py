"""Build the renderer's area shapes once from ``data/layout-grid.png`` (run by hand; outputs are committed).

    python -m render.build_shapes [--board mother-of-dragons] [--place-only]

Outputs, all at the final drawing scale (``style.SCALE`` x the layout frame: 741 x 1378, or 1204 x 1378 for the
Mother of Dragons board with Essos):

* ``assets/areas.png`` — palette image; pixel value k is the area whose palette entry is k (its ``grid_value``, see
  ``render.palette.area_slot``), 0 where the board has no area (the Essos board's Iron Bank panel). The blocky
  6-px cells are upscaled, smoothed (per-label Gaussian, then arg-max), cut down to one connected piece per area,
  and repaired where smoothing changed which areas touch; the script refuses to write a shape whose contacts
  differ from ``board.json`` (adjacency plus ``rivers_not_adjacent``).
* ``assets/borders.png`` — border class per pixel (0 none, 1 land/land, 2 coast, 3 sea/sea, 4 port/sea, 5 river).
* ``assets/areas.json`` — per area: bbox, pixel count, an anchor pixel that nothing is drawn over (it always
  shows the area's fill), and the boxes
  where units, the order token, power token, garrison and the name label (per language) are drawn.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render import style
from render.data import BOARDS, DATA_DIR, Area, RenderBoard, board_named
from render.marks import NameBlock, marks_size, wraps
from render.palette import MAX_AREAS, NO_AREA, area_slot

SMOOTH_RADIUS = 7.0
LANGS = ("en", "ru")
BORDER_NONE, BORDER_LAND, BORDER_COAST, BORDER_SEA, BORDER_PORT, BORDER_RIVER = range(6)

Rect = tuple[int, int, int, int]  # x, y, w, h


# --- shapes -----------------------------------------------------------------------------------------------


def upscale_grid(board: RenderBoard) -> Image.Image:
    """The label raster at final scale, nearest-neighbour (cell size 6 * SCALE px), each grid value turned into its
    area's palette entry."""
    grid = Image.open(DATA_DIR / board.files.grid).convert("L")
    grid = grid.point([area_slot(v) if 0 < v <= MAX_AREAS else v for v in range(256)])
    cell = style.CELL * style.SCALE
    return grid.resize((round(grid.width * cell), round(grid.height * cell)), Image.Resampling.NEAREST).crop(
        (0, 0, *board.size)
    )


def smooth(board: RenderBoard, raw: Image.Image, radius: float) -> Image.Image:
    """Each pixel takes the label whose blurred indicator is largest there (ties keep the lower label). Pixels of no
    area (the Essos board's Iron Bank panel) stay as they are: the panel keeps its straight edges."""
    W, H = raw.size
    labels = Image.new("L", raw.size, 0)
    best = Image.new("L", raw.size, 0)
    pad = int(radius * 3) + 2
    for k in sorted(board.area_by_index):
        indicator = raw.point(lambda v, k=k: 255 if v == k else 0)
        bbox = indicator.getbbox()
        if bbox is None:
            raise ValueError(f"label {k} missing from the grid")
        box = (max(0, bbox[0] - pad), max(0, bbox[1] - pad), min(W, bbox[2] + pad), min(H, bbox[3] + pad))
        blurred = indicator.crop(box).filter(ImageFilter.GaussianBlur(radius))
        current = best.crop(box)
        wins = ImageChops.subtract(blurred, current).point(lambda v: 255 if v > 0 else 0)
        labels.paste(k, box, wins)
        best.paste(ImageChops.lighter(current, blurred), box)
    labels.paste(NO_AREA, (0, 0, W, H), raw.point(lambda v: 255 if v == NO_AREA else 0))
    return labels


def _neighbours(i: int, W: int, H: int) -> Iterable[int]:
    x = i % W
    if x > 0:
        yield i - 1
    if x < W - 1:
        yield i + 1
    if i >= W:
        yield i - W
    if i < W * (H - 1):
        yield i + W


def components(buf: bytearray, W: int, H: int) -> list[tuple[int, list[int]]]:
    """4-connected components as (label, pixel indices)."""
    seen = bytearray(len(buf))
    out: list[tuple[int, list[int]]] = []
    for start in range(len(buf)):
        if seen[start]:
            continue
        label = buf[start]
        seen[start] = 1
        stack = [start]
        pixels: list[int] = []
        while stack:
            i = stack.pop()
            pixels.append(i)
            for j in _neighbours(i, W, H):
                if not seen[j] and buf[j] == label:
                    seen[j] = 1
                    stack.append(j)
        out.append((label, pixels))
    return out


def keep_largest_pieces(buf: bytearray, W: int, H: int) -> int:
    """Give every piece but an area's largest to the label that surrounds it most. Returns pieces merged."""
    comps = components(buf, W, H)
    largest: dict[int, int] = {}
    for n, (label, pixels) in enumerate(comps):
        if label not in largest or len(pixels) > len(comps[largest[label]][1]):
            largest[label] = n
    merged = 0
    for n, (label, pixels) in enumerate(comps):
        if largest[label] == n:
            continue
        inside = set(pixels)
        around = Counter(buf[j] for i in pixels for j in _neighbours(i, W, H) if j not in inside)
        for i in pixels:
            buf[i] = around.most_common(1)[0][0]
        merged += 1
    return merged


def contacts(buf: bytes | bytearray, W: int, H: int) -> dict[frozenset[int], list[int]]:
    """Area pairs that share a pixel edge, with the pixel indices where they do (edges with no area are not
    contacts)."""
    out: dict[frozenset[int], list[int]] = {}
    for y in range(H):
        row = buf[y * W : (y + 1) * W]
        for x, (a, b) in enumerate(itertools.pairwise(row)):
            if a != b:
                out.setdefault(frozenset((a, b)), []).append(y * W + x)
        if y + 1 < H:
            below = buf[(y + 1) * W : (y + 2) * W]
            for x, (a, b) in enumerate(zip(row, below, strict=False)):
                if a != b:
                    out.setdefault(frozenset((a, b)), []).append(y * W + x)
    return {pair: where for pair, where in out.items() if NO_AREA not in pair}


def expected_contacts(board: RenderBoard) -> set[frozenset[int]]:
    by_id = board.areas
    pairs = board.adjacency | board.rivers
    return {frozenset(by_id[a].index for a in pair) for pair in pairs}


def repair(buf: bytearray, raw: bytes, expected: set[frozenset[int]], W: int, H: int) -> None:
    """Restore raw labels around contacts that smoothing added or removed until the contacts match."""
    raw_contacts = contacts(raw, W, H)
    radius = 4
    for _ in range(40):
        found = contacts(buf, W, H)
        extra = [p for p in found if p not in expected]
        missing = [p for p in expected if p not in found]
        if not extra and not missing:
            return
        spots = [i for p in extra for i in found[p]] + [i for p in missing for i in raw_contacts[p][:50]]
        for i in spots:
            cx, cy = i % W, i // W
            for y in range(max(0, cy - radius), min(H, cy + radius + 1)):
                buf[y * W + max(0, cx - radius) : y * W + min(W, cx + radius + 1)] = raw[
                    y * W + max(0, cx - radius) : y * W + min(W, cx + radius + 1)
                ]
        radius += 2
    raise RuntimeError("could not repair the area contacts")


def classify_borders(board: RenderBoard, buf: bytes | bytearray) -> bytearray:
    """Border class per pixel; the edge of the part with no area (the Iron Bank panel) is drawn like a coast."""
    W, H = board.size
    by_index = board.area_by_index
    river_pairs = {frozenset(board.areas[a].index for a in pair) for pair in board.rivers}
    kind = {k: a.kind for k, a in by_index.items()} | {NO_AREA: "panel"}
    out = bytearray(len(buf))
    rank = {BORDER_NONE: 0, BORDER_SEA: 1, BORDER_PORT: 2, BORDER_LAND: 3, BORDER_COAST: 4, BORDER_RIVER: 5}
    river_pixels: list[int] = []
    for i, a in enumerate(buf):
        cls = BORDER_NONE
        for j in _neighbours(i, W, H):
            b = buf[j]
            if b == a:
                continue
            ka, kb = kind[a], kind[b]
            if frozenset((a, b)) in river_pairs:
                c = BORDER_RIVER
            elif "panel" in (ka, kb):
                c = BORDER_COAST
            elif ka == "land" and kb == "land":
                c = BORDER_LAND
            elif "land" in (ka, kb):
                c = BORDER_COAST
            elif "port" in (ka, kb):
                c = BORDER_PORT
            else:
                c = BORDER_SEA
            if rank[c] > rank[cls]:
                cls = c
        out[i] = cls
        if cls == BORDER_RIVER:
            river_pixels.append(i)
    # Rivers are drawn wider, but only inside the two areas they separate.
    for i in river_pixels:
        for j in _neighbours(i, W, H):
            if out[j] != BORDER_RIVER and kind[buf[j]] == "land":
                out[j] = BORDER_RIVER
    return out


# --- placement --------------------------------------------------------------------------------------------


def _shift(img: Image.Image, dx: int, dy: int) -> Image.Image:
    """``img`` moved by (-dx, -dy) (pixel (x, y) takes the value at (x + dx, y + dy)); the edge fills with 0."""
    out = Image.new("L", img.size, 0)
    out.paste(img.crop((dx, dy, img.width, img.height)), (0, 0))
    return out


def _window_min(img: Image.Image, length: int, horizontal: bool) -> Image.Image:
    """Pixel (x, y) takes the minimum over the ``length`` pixels starting there (right or down)."""
    if length <= 1:
        return img
    table = img
    span = 1
    while span * 2 <= length:
        table = ImageChops.darker(table, _shift(table, span, 0) if horizontal else _shift(table, 0, span))
        span *= 2
    rest = length - span
    if rest:
        table = ImageChops.darker(table, _shift(table, rest, 0) if horizontal else _shift(table, 0, rest))
    return table


def fitting_corners(free: Image.Image, w: int, h: int) -> Image.Image:
    """255 at top-left corners where a w x h box lies on free (255) pixels only."""
    return _window_min(_window_min(free, w, True), h, False)


def _nearest_on(img: Image.Image, target: tuple[float, float]) -> tuple[int, int] | None:
    """The 255 pixel of ``img`` nearest ``target`` (searched in growing windows around it)."""
    tx, ty = target
    for reach in (16, 48, 128, 100_000):
        x0, y0 = max(0, int(tx) - reach), max(0, int(ty) - reach)
        x1, y1 = min(img.width, int(tx) + reach + 1), min(img.height, int(ty) + reach + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        window = img.crop((x0, y0, x1, y1))
        best: tuple[float, int, int] | None = None
        for m in re.finditer(b"\xff", window.tobytes()):
            x, y = x0 + m.start() % window.width, y0 + m.start() // window.width
            d = (x - tx) ** 2 + (y - ty) ** 2
            if best is None or d < best[0]:
                best = (d, x, y)
        if best is not None and (reach == 100_000 or math.sqrt(best[0]) <= reach):
            return best[1], best[2]
    return None


QUALITY_COST = {"in": 0, "tight": 20, "edge": 80, "part": 2500, "any": 5000}


class Placer:
    """Places boxes inside areas, never over each other (a global obstacle map spans all areas)."""

    def __init__(self, board: RenderBoard, labels: Image.Image) -> None:
        self.board = board
        self.labels = labels
        self.free = Image.new("L", labels.size, 255)
        self._boxes: dict[int, tuple[int, int, int, int]] = {}

    def occupy(self, rect: Rect, gap: int = 3) -> None:
        x, y, w, h = rect
        ImageDraw.Draw(self.free).rectangle((x - gap, y - gap, x + w + gap - 1, y + h + gap - 1), fill=0)

    def snapshot(self) -> Image.Image:
        return self.free.copy()

    def restore(self, saved: Image.Image) -> None:
        self.free = saved.copy()

    def bbox(self, k: int) -> tuple[int, int, int, int]:
        if k not in self._boxes:
            got = self.labels.point(lambda v: 255 if v == k else 0).getbbox()
            assert got is not None
            self._boxes[k] = got
        return self._boxes[k]

    def place(self, k: int, size: tuple[int, int], prefer: tuple[float, float], margin: int = 4) -> tuple[Rect, str]:
        """A w x h box in area k nearest ``prefer`` (its centre) and its quality: fully inside with ``margin``
        ("in"), with less margin ("tight", "edge"), mostly inside ("part"), or anywhere free ("any")."""
        w, h = size
        W, H = self.labels.size
        x0, y0, x1, y1 = self.bbox(k)
        pad = max(w, h) + 8
        box = (max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad))
        inside = self.labels.crop(box).point(lambda v: 255 if v == k else 0)
        free = self.free.crop(box)
        target = (prefer[0] - w / 2 - box[0], prefer[1] - h / 2 - box[1])
        usable = ImageChops.darker(inside, free)
        for m, quality in ((margin, "in"), (2, "tight"), (0, "edge")):
            ok = fitting_corners(usable, w + 2 * m, h + 2 * m)
            hit = _nearest_on(ok, (target[0] - m, target[1] - m))
            if hit is not None:
                return (hit[0] + m + box[0], hit[1] + m + box[1], w, h), quality
        # Mostly inside: the share of the box on the area (a box average moved to the corner), off other boxes.
        not_taken = fitting_corners(free, w, h)
        share_at_corner = _shift(inside.filter(ImageFilter.BoxBlur((w / 2, h / 2))), w // 2, h // 2)
        for share in (0.75, 0.55):
            good = ImageChops.darker(share_at_corner.point(lambda v, s=share: 255 if v >= 255 * s else 0), not_taken)
            hit = _nearest_on(good, target)
            if hit is not None:
                return (hit[0] + box[0], hit[1] + box[1], w, h), "part"
        hit = _nearest_on(not_taken, target)
        if hit is not None:
            return (hit[0] + box[0], hit[1] + box[1], w, h), "any"
        return (round(prefer[0] - w / 2), round(prefer[1] - h / 2), w, h), "any"


def _scaled(point: list[float]) -> tuple[float, float]:
    return (point[0] * style.SCALE, point[1] * style.SCALE)


def _centre(rect: Rect) -> tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


SEPARATE_BELOW = 20  # a name this small with its marks is retried with the marks placed apart (but touching)
MARKS_MAX_GAP = 8


def _gap(a: Rect, b: Rect) -> float:
    """Distance between two boxes (0 when they touch or overlap)."""
    dx = max(0, a[0] - (b[0] + b[2]), b[0] - (a[0] + a[2]))
    dy = max(0, a[1] - (b[1] + b[3]), b[1] - (a[1] + a[3]))
    return math.hypot(dx, dy)


def _fit(
    placer: Placer, area: Area, size: tuple[int, int], prefer: tuple[float, float], margin: int = 3
) -> Rect | None:
    """A box fully inside the area (with ``margin``) on free pixels, nearest ``prefer``; None if none."""
    k = area.index
    x0, y0, x1, y1 = placer.bbox(k)
    w, h = size
    if w + 2 * margin > x1 - x0 or h + 2 * margin > y1 - y0:
        return None
    inside = placer.labels.crop((x0, y0, x1, y1)).point(lambda v: 255 if v == k else 0)
    free = ImageChops.darker(inside, placer.free.crop((x0, y0, x1, y1)))
    ok = fitting_corners(free, w + 2 * margin, h + 2 * margin)
    hit = _nearest_on(ok, (prefer[0] - w / 2 - x0 - margin, prefer[1] - h / 2 - y0 - margin))
    return None if hit is None else (hit[0] + margin + x0, hit[1] + margin + y0, w, h)


@dataclass
class NamePlacement:
    block: NameBlock
    rect: Rect
    marks: Rect | None
    inside: bool


def place_name(placer: Placer, area: Area, lang: str, pole: tuple[float, float]) -> NamePlacement:
    """The largest name block (font size, then fewest lines) fully inside the area, marks under the name;
    for a small fit, a larger name with the marks placed apart is tried too."""
    sizes = style.LAND_NAME_SIZES if area.kind == "land" else style.SEA_NAME_SIZES
    if area.kind == "port":
        block = NameBlock((), sizes[-1])
        size = block.measure(area, lang)
        rect = _fit(placer, area, size, pole, margin=1)
        if rect is None:  # no room for the anchor: it is decoration, so it stays out rather than spill over
            return NamePlacement(block, (0, 0, 0, 0), None, False)
        return NamePlacement(block, rect, None, True)
    name = area.name(lang)
    combined: NamePlacement | None = None
    for block in (NameBlock(lines, size) for size in sizes for lines in wraps(name)):
        rect = _fit(placer, area, block.measure(area, lang), pole)
        if rect is not None:
            combined = NamePlacement(block, rect, None, True)
            break
    if combined is not None and combined.block.size >= SEPARATE_BELOW:
        return combined
    floor = combined.block.size if combined else 0
    mw, mh = marks_size(area, lang)
    for block in (NameBlock(lines, size, False) for size in sizes if size > floor for lines in wraps(name)):
        rect = _fit(placer, area, block.measure(area, lang), pole)
        if rect is None:
            continue
        saved = placer.snapshot()
        placer.occupy(rect, gap=2)
        spots = [
            (rect[0] + rect[2] / 2, rect[1] + rect[3] + mh / 2 + 3),  # below
            (rect[0] + rect[2] + mw / 2 + 4, rect[1] + rect[3] / 2),  # right
            (rect[0] - mw / 2 - 4, rect[1] + rect[3] / 2),  # left
            (rect[0] + rect[2] / 2, rect[1] - mh / 2 - 3),  # above
        ]
        marks = None
        for spot in spots if mw else []:
            got = _fit(placer, area, (mw, mh), spot, margin=2)
            if got is not None and _gap(got, rect) <= MARKS_MAX_GAP:  # the marks must read as the name's
                marks = got
                break
        placer.restore(saved)
        if marks is not None or not mw:
            return NamePlacement(block, rect, marks, True)
    if combined is not None:
        return combined
    # A coastal land too small for its label: let the label hang over the sea (never over other land).
    for block in (NameBlock(lines, size) for size in sizes for lines in wraps(name)):
        rect = _fit_coastal(placer, area, block.measure(area, lang), pole)
        if rect is not None:
            return NamePlacement(block, rect, None, True)
    block = NameBlock(wraps(name)[-1], sizes[-1])
    rect, quality = placer.place(area.index, block.measure(area, lang), pole, margin=1)
    return NamePlacement(block, rect, None, quality in ("in", "tight", "edge"))


def _fit_coastal(placer: Placer, area: Area, size: tuple[int, int], prefer: tuple[float, float]) -> Rect | None:
    """A free box on the area or the sea around it, at least half of it on the area."""
    k = area.index
    w, h = size
    W, H = placer.labels.size
    x0, y0, x1, y1 = placer.bbox(k)
    pad = max(w, h)
    box = (max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad))
    wet = {a.index for a in placer.board.areas.values() if a.kind != "land"} | {k}
    usable = placer.labels.crop(box).point(lambda v: 255 if v in wet else 0)
    usable = ImageChops.darker(usable, placer.free.crop(box))
    ok = fitting_corners(usable, w + 4, h + 4)
    share = _shift(
        placer.labels.crop(box).point(lambda v: 255 if v == k else 0).filter(ImageFilter.BoxBlur((w / 2, h / 2))),
        w // 2,
        h // 2,
    ).point(lambda v: 255 if v >= 128 else 0)
    ok = ImageChops.darker(ok, _shift(share, 0, 0))
    hit = _nearest_on(ok, (prefer[0] - w / 2 - box[0] - 2, prefer[1] - h / 2 - box[1] - 2))
    return None if hit is None else (hit[0] + 2 + box[0], hit[1] + 2 + box[1], w, h)


Prefer = Callable[[dict[str, Rect]], tuple[float, float]]


def _plans(area: Area, info: dict[str, Any]) -> list[list[tuple[str, Prefer]]]:
    """Orders and preferred spots to try for the pieces of one area; the best scoring layout wins. The units start
    at the layout's unit slot or at the pole of inaccessibility (the middle of the area's widest inner part); the
    order token always goes right next to them, the power token or garrison next to that pair."""
    u, pole = _scaled(info["unit_slot"]), _scaled(info["pole_of_inaccessibility"])
    at: Callable[[tuple[float, float]], Prefer] = lambda pt: lambda _r: pt  # noqa: E731

    def beside(key: str, side: str, size: tuple[int, int]) -> Prefer:
        def prefer(r: dict[str, Rect]) -> tuple[float, float]:
            if key not in r:
                return pole
            x, y, w, h = r[key]
            return {
                "right": (x + w + 3 + size[0] / 2, y + h / 2),
                "left": (x - 3 - size[0] / 2, y + h / 2),
                "below": (x + w / 2, y + h + 3 + size[1] / 2),
                "above": (x + w / 2, y - 3 - size[1] / 2),
            }[side]

        return prefer

    if area.kind == "port":
        keep = {"units", "order"}
    elif area.kind == "sea":
        keep = {"units", "order", "name"}
    else:
        keep = {"units", "order", "name", "power"}
    extra = "garrison" if area.home_of else "power"
    sizes = piece_sizes(area.kind, False)
    starts = [u] if math.dist(u, pole) < 30 else [u, pole]
    opposite = {"right": "left", "left": "right", "below": "right", "above": "right"}
    out = []
    for start in starts:
        for side in ("right", "left", "below", "above"):
            pieces: list[tuple[str, Prefer]] = [
                ("units", at(start)),
                ("order", beside("units", side, sizes["order"])),
                (extra, beside("units", opposite[side], sizes[extra])),
            ]
            for name_first in (False, True):
                plan = [("name", at(pole)), *pieces] if name_first else [*pieces, ("name", at(pole))]
                out.append([(k, f) for k, f in plan if k in keep or (k == "garrison" and "power" in keep)])
    return out


ADJACENT_GAP = 8  # px between an order and its units at most, when the area allows
PIECE_WEIGHT = {"units": 1.0, "order": 0.8, "power": 0.5, "garrison": 0.5}


def piece_sizes(kind: str, compact: bool) -> dict[str, tuple[int, int]]:
    if compact:
        return {
            "units": style.COMPACT_UNIT_BOX,
            "order": style.COMPACT_ORDER_BOX,
            "power": style.COMPACT_POWER_BOX,
            "garrison": style.COMPACT_GARRISON_BOX,
        }
    return {
        "units": style.UNIT_BOX[kind],
        "order": style.ORDER_BOX[kind],
        "power": style.POWER_BOX,
        "garrison": style.GARRISON_BOX,
    }


@dataclass
class Trial:
    score: float
    rects: dict[str, Rect]
    names: dict[str, NamePlacement]
    clean: bool  # every piece fully inside its area
    compact: bool


def _try_plan(
    placer: Placer, area: Area, plan: list[tuple[str, Prefer]], slots: dict[str, tuple[float, float]], compact: bool
) -> Trial:
    rects: dict[str, Rect] = {}
    names: dict[str, NamePlacement] = {}
    score = -80.0 if compact else 0.0
    clean = True
    sizes = piece_sizes(area.kind, compact)
    for key, prefer in plan:
        want = prefer(rects)
        if key == "name":
            for lang in LANGS:
                got = place_name(placer, area, lang, want)
                names[lang] = got
                size = got.block.size
                score += size * 12 - 25 * max(0, 16 - size) - 6 * len(got.block.lines) - (15 if got.marks else 0)
                if not got.inside:
                    score -= 3000
                    clean = False
            for got in names.values():
                if got.rect[2]:
                    placer.occupy(got.rect, gap=2)
                if got.marks:
                    placer.occupy(got.marks, gap=2)
            rects["name"] = names[LANGS[0]].rect
            continue
        rect, quality = placer.place(area.index, sizes[key], want)
        placer.occupy(rect)
        rects[key] = rect
        clean = clean and quality in ("in", "tight", "edge")
        cx, cy = _centre(rect)
        sx, sy = want if key != "units" else slots.get(key, want)
        score -= PIECE_WEIGHT[key] * (QUALITY_COST[quality] + 0.08 * math.hypot(cx - sx, cy - sy))
        if key != "units" and "units" in rects:  # an order (or token) far from its units reads as someone else's
            near = min(_gap(rect, r) for k, r in rects.items() if k not in (key, "name"))
            score -= 8 * max(0.0, near - ADJACENT_GAP)
    return Trial(score, rects, names, clean, compact)


FENCE_GAP = 6  # px between the pieces of the Essos board's Westeros side and the edge of the board image


def place_all(board: RenderBoard, labels: Image.Image) -> dict[str, Any]:
    placer = Placer(board, labels)
    W, H = labels.size
    fence = board.files.board_width
    frame = board.layout()["areas"]
    out: dict[str, Any] = {}
    by_id = board.areas
    # Small areas first: what cannot fit spills over, and the larger neighbours then make room.
    for area in sorted(by_id.values(), key=lambda a: frame[a.id]["area_px"]):
        info = frame[area.id]
        k = area.index
        mask = labels.point(lambda v, k=k: 255 if v == k else 0)
        bbox = mask.getbbox()
        assert bbox is not None
        slots = {
            "units": _scaled(info["unit_slot"]),
            "order": _scaled(info["order_slot"]),
            "power": _scaled(info["power_token_slot"]),
            "garrison": _scaled(info["power_token_slot"]),
        }
        clean = placer.snapshot()
        if fence is not None and info.get("board") == "westeros":
            # The board image shows the Essos board's Westeros side only: its areas keep every piece and name there.
            placer.occupy((fence, 0, W - fence, H), gap=FENCE_GAP)
        start = placer.snapshot()
        best: Trial | None = None
        for compact in (False, True):
            names_ok = (
                min((n.block.size for n in best.names.values()), default=99) >= style.MIN_NAME_SIZE if best else False
            )
            if best is not None and best.clean and names_ok:
                break
            for plan in _plans(area, info):
                placer.restore(start)
                tried = _try_plan(placer, area, plan, slots, compact)
                if best is None or tried.score > best.score:
                    best = tried
        assert best is not None
        placer.restore(clean)
        rec: dict[str, Any] = {"index": k, "kind": area.kind, "bbox": list(bbox), "pixels": mask.histogram()[255]}
        for key in ("units", "order", "power", "garrison"):
            if key in best.rects:
                placer.occupy(best.rects[key])
                rec[key] = list(best.rects[key])
        rec["compact"] = best.compact
        names = best.names
        if area.kind == "port":
            # The anchor sits under the ships: an empty port shows it, a port with ships shows the ships.
            ux, uy = _centre(best.rects["units"])
            block = NameBlock((), style.SEA_NAME_SIZES[-1])
            aw, ah = block.measure(area, LANGS[0])
            rect = (round(ux - aw / 2), round(uy - ah / 2), aw, ah)
            names = {lang: NamePlacement(block, rect, None, True) for lang in LANGS}
        for got in names.values():
            if got.rect[2]:
                placer.occupy(got.rect, gap=2)
            if got.marks:
                placer.occupy(got.marks, gap=2)
        rec["name"] = {
            lang: {
                "lines": list(got.block.lines),
                "size": got.block.size,
                "box": list(got.rect) if got.rect[2] else None,
                "marks": list(got.marks) if got.marks else None,
            }
            for lang, got in names.items()
        }
        out[area.id] = rec
        summary = [(g.block.size, " / ".join(g.block.lines), "apart" if g.marks else "") for g in names.values()]
        flags = ("compact " if rec["compact"] else "") + ("" if best.clean else "SPILLS ")
        print(f"{area.id}: {flags}score {best.score:.0f} {summary}")
    # Fill anchors: one pixel per area that nothing is drawn over (wide unit groups may outgrow their box).
    for rec in out.values():
        x, y, w, h = rec["units"]
        placer.occupy((x - 40, y - 4, w + 80, h + 8))
    for area in by_id.values():
        pole = _scaled(frame[area.id]["pole_of_inaccessibility"])
        anchor, quality = placer.place(area.index, (1, 1), pole, margin=6)
        assert quality in ("in", "tight", "edge"), area.id
        placer.occupy(anchor, gap=1)
        out[area.id]["anchor"] = [anchor[0], anchor[1]]
    return {aid: out[aid] for aid in by_id}


# --- main -------------------------------------------------------------------------------------------------


def preview_palette(board: RenderBoard) -> list[int]:
    pal = [0, 0, 0] * 256
    for k, a in board.area_by_index.items():
        colour = style.LAND_NEUTRAL if a.kind == "land" else style.PORT_FILL if a.kind == "port" else style.SEA_FILLS[0]
        pal[3 * k : 3 * k + 3] = list(colour)
    return pal


def build(board: RenderBoard) -> None:
    asset_dir = board.files.assets
    W, H = board.size
    raw = upscale_grid(board)
    expected = expected_contacts(board)
    if set(contacts(raw.tobytes(), W, H)) != expected:
        raise RuntimeError("the layout grid's own contacts differ from board.json")
    labels = smooth(board, raw, SMOOTH_RADIUS)
    buf = bytearray(labels.tobytes())
    print("pieces merged:", keep_largest_pieces(buf, W, H))
    repair(buf, raw.tobytes(), expected, W, H)
    if set(contacts(buf, W, H)) != expected:
        raise RuntimeError("contacts differ after repair")
    pieces = Counter(label for label, _ in components(buf, W, H) if label != NO_AREA)
    if any(n != 1 for n in pieces.values()) or len(pieces) != len(board.areas):
        raise RuntimeError(f"areas not in one piece each: {pieces}")
    labels = Image.frombytes("L", (W, H), bytes(buf))
    asset_dir.mkdir(exist_ok=True)
    shapes = Image.frombytes("P", (W, H), bytes(buf))
    shapes.putpalette(preview_palette(board))
    shapes.save(asset_dir / "areas.png", optimize=True)
    borders = Image.frombytes("P", (W, H), bytes(classify_borders(board, buf)))
    colours = [(255, 255, 255), style.BORDER_LAND, style.BORDER_COAST, style.BORDER_SEA, style.BORDER_SEA, style.RIVER]
    borders.putpalette([c for rgb in colours for c in rgb])
    borders.save(asset_dir / "borders.png", optimize=True)
    placements = place_all(board, labels)
    meta = {
        "about": f"Derived by render/build_shapes.py from data/{board.files.grid}; coordinates in final map pixels.",
        "scale": style.SCALE,
        "size": [W, H],
        "areas": placements,
    }
    (asset_dir / "areas.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("wrote", ", ".join(p.name for p in sorted(asset_dir.iterdir())))


def place_only(board: RenderBoard) -> None:
    """Re-place the pieces and names on the committed shapes (after a change of sizes; the shapes stay)."""
    asset_dir = board.files.assets
    meta = json.loads((asset_dir / "areas.json").read_text(encoding="utf-8"))
    with Image.open(asset_dir / "areas.png") as im:
        labels = Image.frombytes("L", im.size, im.tobytes())
    meta["areas"] = place_all(board, labels)
    (asset_dir / "areas.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("wrote areas.json")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Build the renderer's area shapes for one board.")
    parser.add_argument("--board", default="base", choices=sorted(BOARDS))
    parser.add_argument("--place-only", action="store_true", help="re-place pieces and names; keep the shapes")
    args = parser.parse_args()
    chosen = board_named(args.board)
    place_only(chosen) if args.place_only else build(chosen)
