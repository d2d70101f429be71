"""Draws a view's pieces on the map from the layout (render/layout.py), and the hatching of impassable areas."""

from __future__ import annotations

from PIL import Image

from render import palette, shapes, style
from render.data import RenderBoard
from render.layout import (
    Piece,
    area_pieces,
    decline_pieces,
    development_pieces,
    is_impassable,
    loyalty_pieces,
    name_pieces,
)
from render.views import View, developed, loyalty_tokens


def hatch(img: Image.Image, board: RenderBoard, area_id: str, dx: int = 0, dy: int = 0) -> None:
    """Cover an impassable area with its own fill (hiding its name and marks), then hatch it."""
    (x0, y0, _, _), mask = shapes.area_mask(board, area_id)
    img.paste(board.areas[area_id].index, (x0 + dx, y0 + dy, x0 + dx + mask.width, y0 + dy + mask.height), mask)
    (hx, hy), lines = shapes.hatch_mask(board, area_id)
    img.paste(palette.idx(style.HATCH), (hx + dx, hy + dy, hx + dx + lines.width, hy + dy + lines.height), lines)


def paste_pieces(img: Image.Image, pieces: list[Piece]) -> None:
    for p in pieces:
        if p.stamp is not None:
            p.stamp.paste(img, p.box[0], p.box[1])


def draw_pieces(img: Image.Image, board: RenderBoard, view: View, lang: str, dy: int = 0) -> list[Piece]:
    """Draw every area's pieces on the board's map (at its own scale, its top ``dy`` px down); returns them."""
    paste_pieces(img, decline_pieces(board, view, lang, 1.0, (0, -dy)))  # over the printed castles they cover
    drawn: list[Piece] = []
    for area_id in board.areas:
        if is_impassable(view, area_id):
            hatch(img, board, area_id, 0, dy)
            continue
        got = area_pieces(board, view, area_id, lang, 1.0, (0, -dy))
        paste_pieces(img, got)
        drawn += got
    if loyalty_tokens(view):  # Targaryen's loyalty tokens, placed clear of every name and piece
        got = loyalty_pieces(board, view, name_pieces(board, view, lang, 1.0, (0, -dy)) + drawn, 1.0, (0, -dy))
        paste_pieces(img, got)
        drawn += got
    if developed(view):  # the Iron Bank's development tokens, placed the same way
        got = development_pieces(board, view, lang, name_pieces(board, view, lang, 1.0, (0, -dy)) + drawn, 1.0,
                                 (0, -dy))  # fmt: skip
        paste_pieces(img, got)
        drawn += got
    return drawn
