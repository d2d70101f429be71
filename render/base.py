"""The static layer of a board image (areas, borders, rivers, names, printed marks), built once per language,
and the per-render area colours (a palette change)."""

from __future__ import annotations

import threading
from functools import cache

from PIL import Image, ImageFilter

from render import palette, shapes, style
from render.data import RenderBoard, board_named
from render.marks import NameBlock, draw_marks
from render.views import View, area_state

_lock = threading.Lock()
_bases: dict[tuple[str, str], Image.Image] = {}  # (board, language) -> the static map

BORDER_COLOURS = {
    1: style.BORDER_LAND,
    2: style.BORDER_COAST,
    3: style.BORDER_SEA,
    4: style.BORDER_SEA,
    5: style.RIVER,
}


def _draw_fields(img: Image.Image, board: RenderBoard) -> None:
    """Areas (raw indices: entry k is area k) and borders; sea borders drawn twice as wide, so a sea reads as one
    region and its pieces as belonging to it."""
    img.paste(shapes.labels(board), (0, 0))
    b = shapes.borders(board)
    sea = b.point(lambda v: 255 if v in (3, 4) else 0).filter(ImageFilter.MaxFilter(3))
    img.paste(palette.idx(style.BORDER_SEA), (0, 0, b.width, b.height), sea)
    for cls, colour in BORDER_COLOURS.items():
        if cls in (3, 4):
            continue
        img.paste(palette.idx(colour), (0, 0, b.width, b.height), b.point(lambda v, c=cls: 255 if v == c else 0))


def _draw_map(img: Image.Image, board: RenderBoard, lang: str) -> None:
    _draw_fields(img, board)
    for area_id in board.areas:
        draw_label(img, board, area_id, lang)


def fields(board: RenderBoard) -> Image.Image:
    """The map without names or marks (mode P): the crops draw those themselves at their zoom."""
    return _fields(board.name)


@cache
def _fields(board: str) -> Image.Image:
    img = Image.new("P", (style.MAP_W, style.MAP_H), palette.idx(style.PAPER))
    _draw_fields(img, board_named(board))
    return img


def draw_label(img: Image.Image, board: RenderBoard, area_id: str, lang: str, dx: int = 0, dy: int = 0) -> None:
    """An area's name and printed marks where the build placed them."""
    area = board.areas[area_id]
    rec = shapes.area_meta(board, area_id)["name"][lang]
    if rec["box"] is None:
        return
    x, y, _, _ = rec["box"]
    NameBlock(tuple(rec["lines"]), rec["size"], rec["marks"] is None).draw(img, area, lang, x + dx, y + dy)
    if rec["marks"] is not None:
        draw_marks(img, area, lang, rec["marks"][0] + dx, rec["marks"][1] + dy)


def map_base(board: RenderBoard, lang: str) -> Image.Image:
    """The static map (no panel), mode P; callers copy it before drawing."""
    key = (board.name, lang)
    with _lock:
        got = _bases.get(key)
        if got is None:
            got = Image.new("P", (style.MAP_W, style.MAP_H), palette.idx(style.PAPER))
            _draw_map(got, board, lang)
            _bases[key] = got
        return got


def sea_shades(board: RenderBoard) -> dict[str, style.RGB]:
    """Neighbouring seas get different blues (greedy colouring of the sea/sea adjacency)."""
    return _sea_shades(board.name)


@cache
def _sea_shades(name: str) -> dict[str, style.RGB]:
    board = board_named(name)
    seas = sorted(a.id for a in board.areas.values() if a.kind == "sea")
    out: dict[str, style.RGB] = {}
    for sea in seas:
        taken = {out[o] for pair in board.adjacency if sea in pair for o in pair if o != sea and o in out}
        out[sea] = next(c for c in style.SEA_FILLS if c not in taken)
    return out


def impassable(view: View, area_id: str) -> bool:
    return area_state(view, area_id).get("neutral") == "impassable"


def area_fills(board: RenderBoard, view: View) -> dict[int, style.RGB]:
    """Palette entries 1..58: land by controller (parchment when none), seas blue, ports pale blue."""
    fills: dict[int, style.RGB] = {}
    shades = sea_shades(board)
    for k, area in board.area_by_index.items():
        if area.kind == "sea":
            fills[k] = shades[area.id]
        elif area.kind == "port":
            fills[k] = style.PORT_FILL
        elif impassable(view, area.id):
            fills[k] = style.LAND_IMPASSABLE
        else:
            controller = area_state(view, area.id).get("controller")
            fills[k] = style.house_style(controller).tint if controller else style.LAND_NEUTRAL
    return fills
