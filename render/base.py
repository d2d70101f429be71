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
    chosen = board_named(board)
    img = Image.new("P", chosen.size, palette.idx(style.PAPER))
    _draw_fields(img, chosen)
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
            got = Image.new("P", board.size, palette.idx(style.PAPER))
            _draw_map(got, board, lang)
            _bases[key] = got
        return got


def sea_shades(board: RenderBoard) -> dict[str, style.RGB]:
    """Neighbouring seas get different blues (greedy colouring of the sea/sea adjacency)."""
    return _sea_shades(board.name)


@cache
def _sea_shades(name: str) -> dict[str, style.RGB]:
    """Greedy in name order (the base and 7-house boards' shades); where that runs out of blues (the Essos board),
    the first colouring a depth-first search finds in that order."""
    board = board_named(name)
    seas = sorted(a.id for a in board.areas.values() if a.kind == "sea")
    near = {sea: {o for pair in board.adjacency if sea in pair for o in pair if o != sea} for sea in seas}
    out: dict[str, style.RGB] = {}
    for sea in seas:
        taken = {out[o] for o in near[sea] if o in out}
        free = [c for c in style.SEA_FILLS if c not in taken]
        if not free:
            return _search_shades(seas, near)
        out[sea] = free[0]
    return out


def _search_shades(seas: list[str], near: dict[str, set[str]]) -> dict[str, style.RGB]:
    out: dict[str, style.RGB] = {}

    def fill(i: int) -> bool:
        if i == len(seas):
            return True
        taken = {out[o] for o in near[seas[i]] if o in out}
        for colour in style.SEA_FILLS:
            if colour not in taken:
                out[seas[i]] = colour
                if fill(i + 1):
                    return True
                del out[seas[i]]
        return False

    if not fill(0):
        raise RuntimeError("the seas cannot be told apart with the sea shades")
    return out


def impassable(view: View, area_id: str) -> bool:
    return area_state(view, area_id).get("neutral") == "impassable"


def area_fills(board: RenderBoard, view: View) -> dict[int, style.RGB]:
    """The area entries of the palette: land by controller (parchment when none), seas blue, ports pale blue; and
    the part of the board that is no area (the Essos board's Iron Bank panel, where the dragons' track is drawn)."""
    fills: dict[int, style.RGB] = {palette.NO_AREA: style.PAPER} if board.has_essos else {}
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


def board_palette(board: RenderBoard, view: View) -> bytes:
    """The palette of an image of ``board`` showing ``view``: its areas' fills, and Targaryen's entries on the board
    where Targaryen plays."""
    return palette.palette_bytes(area_fills(board, view), board.files.late_colours)
