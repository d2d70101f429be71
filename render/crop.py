"""Zoomed crops of the map, drawn at their zoom (not resampled): the fields are enlarged, then names, marks, pieces
and arrows are drawn at the crop's scale, so a crop 1080 px wide keeps chips and tokens >= 40 px and names
>= 22 px (``MAX_REGION_W`` bounds the map width a crop may show)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render import arrows, bank, base, dragons, palette, shapes, style
from render.data import RenderBoard, board_named
from render.layout import (
    Box,
    Piece,
    area_pieces,
    decline_pieces,
    development_pieces,
    is_impassable,
    loyalty_pieces,
    name_block,
    name_pieces,
    overlaps,
    zoom_key,
)
from render.marks import draw_marks
from render.pieces import hatch, paste_pieces
from render.png import encode_png
from render.views import View, developed, loyalty_tokens

OUT_W = style.PHONE_W  # crops are drawn for a phone's width
MAX_REGION_W = 800  # map px: the widest slice a crop shows (zoom >= 1.35)
MIN_REGION_W = 520
MARGIN = 70
STILL = ("name", "marks", "loyalty", "development")  # what an arrow goes round even in the areas at its two ends


@dataclass(frozen=True)
class Move:
    """An arrow to draw: ``kind`` march | retreat | raid | support, from one area's pieces to another's."""

    house: str | None
    kind: str
    origin: str
    to: str


@dataclass
class Crop:
    image: Image.Image  # mode P, in the board's palette (its area entries set for the view)
    region: tuple[int, int, int, int]  # the map slice shown (map px)
    zoom: float
    pieces: list[Piece] = field(default_factory=list)  # every piece and label drawn (output px)
    arrows: list[arrows.Arrow] = field(default_factory=list)

    def overlap_count(self) -> int:
        frame: Box = (0, 0, self.image.width, self.image.height)
        return len(overlaps(self.pieces, frame)) + sum(a.crossings for a in self.arrows)

    def min_sizes(self) -> tuple[float, float]:
        """(smallest chip or token, smallest name) fully in the frame, at a phone's width."""
        w, h = self.image.size
        k = style.PHONE_W / w
        inside = [p for p in self.pieces if p.box[0] >= 0 and p.box[1] >= 0 and p.box[2] <= w and p.box[3] <= h]
        piece = min((p.size for p in inside if p.kind not in ("name", "marks")), default=0.0)
        label = min((p.size for p in inside if p.kind == "name"), default=0.0)
        return piece * k, label * k


def focus_box(board: RenderBoard, area_id: str, lang: str) -> Box:
    """The part of an area a crop must show: its pieces' boxes and its name (not its whole outline, so a long sea
    does not pull the crop across the board)."""
    rec = shapes.area_meta(board, area_id)
    rects = [rec[k] for k in ("units", "order", "power", "garrison") if k in rec]
    name = rec["name"][lang]
    if name["box"]:
        rects.append(name["box"])
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return x0, y0, x1, y1


def region_for(board: RenderBoard, focus: list[str], lang: str) -> tuple[int, int, int, int]:
    """A map slice around ``focus`` (the first area first: if all do not fit, the crop centres on it)."""
    boxes = [focus_box(board, a, lang) for a in focus if a in board.areas]
    map_w, map_h = board.size
    if not boxes:
        return 0, 0, map_w, map_h
    x0 = min(b[0] for b in boxes) - MARGIN
    y0 = min(b[1] for b in boxes) - MARGIN
    x1 = max(b[2] for b in boxes) + MARGIN
    y1 = max(b[3] for b in boxes) + MARGIN
    w = min(max(x1 - x0, MIN_REGION_W, (y1 - y0) / 1.35), MAX_REGION_W)
    h = min(max(y1 - y0, w * 0.72), w * 1.15)
    first = boxes[0]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    # Too wide or tall for one crop: keep the first area in the frame.
    cx = min(max(cx, first[2] + MARGIN - w / 2), first[0] - MARGIN + w / 2)
    cy = min(max(cy, first[3] + MARGIN - h / 2), first[1] - MARGIN + h / 2)
    left = min(max(0.0, cx - w / 2), map_w - w)
    top = min(max(0.0, cy - h / 2), map_h - h)
    return round(left), round(top), round(left + w), round(top + h)


def compose(
    board: RenderBoard,
    view: View,
    lang: str,
    focus: list[str],
    *,
    moves: list[Move] = (),  # type: ignore[assignment]
    highlight: list[str] = (),  # type: ignore[assignment]
    highlight_colour: style.RGB = style.ALERT,
    out_w: int = OUT_W,
    region: tuple[int, int, int, int] | None = None,
) -> Crop:
    """The crop around ``focus`` (or of the map slice ``region``) with ``moves`` drawn as arrows and ``highlight``
    areas outlined."""
    if region is None:
        region = region_for(board, focus, lang)
    rx0, ry0, rx1, ry1 = region
    z = zoom_key(out_w / (rx1 - rx0))
    origin = (rx0 * z, ry0 * z)
    size = (round((rx1 - rx0) * z), round((ry1 - ry0) * z))
    hatched = [a for a in board.areas if is_impassable(view, a)]
    if not hatched and not highlight:  # the fields alone (the Essos image): enlarged once per slice
        img = _plain_fields(board.name, region, size).copy()
    else:
        # Fields (areas, borders, hatching, outlines) at map scale, then enlarged.
        fields = base.fields(board).crop(region)
        for area_id in hatched:
            hatch(fields, board, area_id, -rx0, -ry0)
        for area_id in highlight:
            if area_id in board.areas:
                (ox, oy), band = shapes.outline_mask(board, area_id)
                fields.paste(palette.idx(highlight_colour), (ox - rx0, oy - ry0, ox - rx0 + band.width,
                                                             oy - ry0 + band.height), band)  # fmt: skip
        img = enlarge(board, fields, region, size)
    img.putpalette(base.board_palette(board, view))
    # Names and marks, at the crop's scale.
    all_labels = name_pieces(board, view, lang, z, origin)
    labels = [p for p in all_labels if _touches(p.box, size)]
    for area_id in sorted({p.area for p in labels}):
        got = name_block(board, area_id, lang, z)
        if got is None:
            continue
        block, (bx, by) = got
        area = board.areas[area_id]
        block.draw(img, area, lang, round(bx * z - origin[0]), round(by * z - origin[1]))
        rec = shapes.area_meta(board, area_id)["name"][lang]
        if rec["marks"] is not None:
            draw_marks(img, area, lang, rec["marks"][0] * z - origin[0], rec["marks"][1] * z - origin[1], z)
    paste_pieces(img, [p for p in decline_pieces(board, view, lang, z, origin) if _touches(p.box, size)])
    # Pieces.
    every: list[Piece] = []
    for area_id in board.areas:
        every += area_pieces(board, view, area_id, lang, z, origin)
    if loyalty_tokens(view):  # in the areas the crop reaches, clear of every name and piece, in the frame or not
        every += loyalty_pieces(board, view, all_labels + every, z, origin, (0, 0, *size))
    if developed(view):  # the Iron Bank's development tokens, the same way
        every += development_pieces(board, view, lang, all_labels + every, z, origin, (0, 0, *size))
    pieces = [p for p in every if _touches(p.box, size)]
    for p in pieces:
        if p.stamp is not None:
            p.stamp.paste(img, p.box[0], p.box[1])
    everything = labels + pieces
    dragons.draw_track(img, board, view, lang, region, z)  # where the Essos board prints the Iron Bank
    bank.draw_panel(img, board, view, lang, region, z)  # and the Iron Bank itself, under the track
    # Arrows, routed around every name and piece but those at their two ends.
    routed: list[arrows.Arrow] = []
    d = ImageDraw.Draw(img)
    for mv in moves:
        if mv.origin not in board.areas or mv.to not in board.areas:
            continue
        start_boxes = arrows.piece_boxes(everything, mv.origin) or [_reserved(board, mv.origin, z, origin)]
        end_boxes = arrows.piece_boxes(everything, mv.to) or [_reserved(board, mv.to, z, origin)]
        a = _centre(_reserved(board, mv.origin, z, origin))
        b = _centre(_reserved(board, mv.to, z, origin))
        obstacles = [p.box for p in everything if p.area not in (mv.origin, mv.to) or p.kind in STILL]
        width = (9 if mv.kind in ("march", "retreat") else 6) * z
        arrow = arrows.route(mv.house, mv.kind, a, b, start_boxes, end_boxes, obstacles, width, (0, 0, *size))
        routed.append(arrow)
    for arrow in routed:
        arrows.draw(d, arrow)
    return Crop(img, region, z, everything, routed)


def _reserved(board: RenderBoard, area_id: str, z: float, origin: tuple[float, float]) -> Box:
    x, y, w, h = shapes.area_meta(board, area_id)["units"]
    return x * z - origin[0], y * z - origin[1], (x + w) * z - origin[0], (y + h) * z - origin[1]


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _touches(box: Box, size: tuple[int, int]) -> bool:
    return box[2] > 0 and box[3] > 0 and box[0] < size[0] and box[1] < size[1]


@lru_cache(maxsize=8)
def _plain_fields(board: str, region: tuple[int, int, int, int], size: tuple[int, int]) -> Image.Image:
    chosen = board_named(board)
    return enlarge(chosen, base.fields(chosen).crop(region), region, size)


def enlarge(
    board: RenderBoard, fields: Image.Image, region: tuple[int, int, int, int], size: tuple[int, int]
) -> Image.Image:
    """``fields`` (mode P, the map slice ``region``) enlarged to ``size`` in their own palette, so the crop needs no
    quantizing: the areas nearest neighbour, and the lines (borders, rivers, hatching, outlines) where their mask,
    enlarged smoothly, passes a threshold, so their curves do not turn into nearest neighbour's staircases. A line
    pixel takes the colour of the nearest line (areas and lines meet only where a line covers the seam)."""
    raw = Image.frombytes("L", fields.size, fields.tobytes())
    lines = raw.point(_LINES_ONLY)
    near = lines
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        near = ImageChops.lighter(near, ImageChops.offset(lines, dx, dy))
    near.paste(lines, (0, 0), lines.point(_ANY))  # a line pixel keeps its own colour
    cover = lines.point(_ANY).resize(size, Image.Resampling.BILINEAR).point(_THRESHOLD)
    out = Image.frombytes("P", size, shapes.labels(board).crop(region).resize(size, Image.Resampling.NEAREST).tobytes())
    drawn = near.resize(size, Image.Resampling.NEAREST).tobytes()
    out.paste(Image.frombytes("P", size, drawn), (0, 0), cover)
    return out


_LINES_ONLY = [v if v >= palette.FIRST_FIXED and v not in palette.AREA_SLOTS else 0 for v in range(256)]
_ANY = [255 if v else 0 for v in range(256)]
# Of 255: under half, so a one-pixel diagonal line stays joined when enlarged, and over 64, so a pixel passes only
# beside a line (bilinear weighs four map pixels, a diagonal one by at most a quarter) and takes a line's colour.
LINE_THRESHOLD = 100
_THRESHOLD = [255 if v >= LINE_THRESHOLD else 0 for v in range(256)]


def encode(img: Image.Image) -> bytes:
    """A crop or battle image (mode P, already in the board's palette) with the renderer's PNG options."""
    if img.mode != "P":
        raise ValueError(f"expected a palette image, got mode {img.mode}")
    return encode_png(img)
