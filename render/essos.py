"""Essos, drawn apart from the board image, so that both read on a phone.

The Mother of Dragons board with Essos (``mother-of-dragons-essos``, the board of every game Targaryen plays) is one
map 1926 px wide, Essos to the right of Westeros. Shown whole at a phone's width, its chips would be 19 px and its
names 10 px. So its images show it in two parts, each as legible as the base board:

* the board image: the status strip over the map's Westeros side (``RenderBoard.board_width`` px: every area whose
  pieces and name lie there, Dragonstone included), as for the other boards;
* the Essos image (:func:`compose_essos`): the map's Essos side (:func:`essos_region`: every area whose pieces or
  name lie past the Westeros side, with the seas between), drawn at its zoom like a crop (1080 px wide in a post),
  with the dragon strength track where the board prints the Iron Bank (``shapes.panel_box``, drawn by
  ``dragons.draw_track`` on every crop that shows it) and, under the track when the view has the bank, the Iron Bank's
  own panel (``bank.draw_panel``).

A whole-board post sends both; ``render_board`` (one PNG) stacks them (:func:`stack`).
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from render import base, palette, shapes, style
from render.crop import Crop, compose, focus_box
from render.data import RenderBoard, board_named
from render.views import View

LANGS = ("en", "ru")
MARGIN = 36  # map px around the Essos pieces and names and the track
Box = tuple[int, int, int, int]


def in_board_image(board: RenderBoard, box: tuple[float, float, float, float]) -> bool:
    """Whether a map box lies wholly on the board image (the Westeros side)."""
    return box[2] <= board.board_width


def essos_areas(board: RenderBoard) -> list[str]:
    """The areas the board image cannot show whole: some of their pieces or their name lie past its edge."""
    return [a for a in board.areas if not all(in_board_image(board, focus_box(board, a, lang)) for lang in LANGS)]


def essos_region(board: RenderBoard) -> Box:
    """The map slice of the Essos image (map px): those areas' pieces and names, the track, to the map's right and
    bottom edges."""
    return _essos_region(board.name)


@cache
def _essos_region(name: str) -> Box:
    board = board_named(name)
    boxes = [focus_box(board, a, lang) for a in essos_areas(board) for lang in LANGS]
    panel = shapes.panel_box(board)
    if panel is not None:
        boxes.append(panel)
    w, h = board.size
    return max(0, round(min(b[0] for b in boxes)) - MARGIN), max(0, round(min(b[1] for b in boxes)) - MARGIN), w, h


def compose_essos(board: RenderBoard, view: View, lang: str, out_w: int = style.PHONE_W) -> Crop:
    """The Essos image (mode P, in the board's palette), ``out_w`` px wide or a little less (the zoom is rounded)."""
    return compose(board, view, lang, [], region=essos_region(board), out_w=out_w)


STACK_GAP = 16  # px of paper between the board image and the Essos image under it


def stack(board: RenderBoard, view: View, top: Image.Image, bottom: Image.Image) -> Image.Image:
    """The board image over the Essos image, centred, in one picture (mode P)."""
    w = max(top.width, bottom.width)
    out = Image.new("P", (w, top.height + STACK_GAP + bottom.height), palette.idx(style.PAPER))
    out.paste(top, ((w - top.width) // 2, 0))
    out.paste(bottom, ((w - bottom.width) // 2, top.height + STACK_GAP))
    out.putpalette(base.board_palette(board, view))
    return out
