"""Entry points: view dict in, PNG bytes out."""

from __future__ import annotations

from PIL import Image

from render import base, essos, palette, style
from render.battle import compose_battle
from render.data import RenderBoard, board_named, board_of
from render.legend import draw_legend
from render.pieces import draw_pieces
from render.png import PNG_OPTIONS, encode_png
from render.strip import strip
from render.views import PrivateViewError, View, ViewError, lang_of, require_private, require_public

__all__ = [
    "PNG_OPTIONS",
    "PrivateViewError",
    "ViewError",
    "compose_board",
    "compose_whole",
    "encode_png",
    "render_battle",
    "render_board",
    "render_legend",
    "render_panel",
    "render_private_board",
    "warm_up",
]


def compose_board(board: RenderBoard, view: View, lang: str) -> Image.Image:
    """The full board image (mode P): the status strip over the map with its pieces. ``view`` must already be
    checked and on ``board``. The image is as wide as the map, so a phone shows the map as large as it can; on the
    board with Essos, as wide as its Westeros side (Essos is drawn apart: :func:`compose_whole`)."""
    width = board.board_width
    top = strip(board, view, lang, width)
    img = Image.new("P", (width, top.height + board.size[1]), palette.idx(style.PAPER))
    img.paste(top, (0, 0))
    img.paste(base.map_base(board, lang), (0, top.height))
    draw_pieces(img, board, view, lang, top.height)
    img.putpalette(base.board_palette(board, view))
    return img


def compose_whole(board: RenderBoard, view: View, lang: str) -> Image.Image:
    """Everything a board shows in one picture: the board image, and under it, on the board with Essos, the Essos
    image (render/essos.py) as wide."""
    img = compose_board(board, view, lang)
    if not board.has_essos:
        return img
    return essos.stack(board, view, img, essos.compose_essos(board, view, lang, img.width).image)


def warm_up(langs: tuple[str, ...] = ("en", "ru"), boards: tuple[str, ...] = ("base",)) -> None:
    """Build the static layers and common stamps of ``boards`` now (about 0.15 s per language on the base board)
    instead of on the first request; safe to call from a worker thread at bot start-up. The other boards are built
    on their first image (the board with Essos takes about 1.4 s): warming all of them in every worker costs each
    start-up a second of CPU, which a bot's test suite, starting a bot per test, pays hundreds of times."""
    for name in boards:
        for lang in langs:
            compose_board(board_named(name), {"viewer": None, "areas": {}}, lang_of(lang))


def render_board(view: View, lang: str = "en") -> bytes:
    """PNG of the public full board (on the board with Essos, Essos under it). Raises :class:`PrivateViewError` for a
    private view."""
    v = require_public(view)
    return encode_png(compose_whole(board_of(v), v, lang_of(lang)))


def render_private_board(view: View, lang: str = "en") -> bytes:
    """PNG of one house's private board (its own orders face up), for that house's DMs only.
    Raises :class:`ViewError` unless ``view["viewer"]`` is a house."""
    v = require_private(view)
    return encode_png(compose_whole(board_of(v), v, lang_of(lang)))


def render_panel(view: View, lang: str = "en") -> bytes:
    """PNG of the status strip alone (public views only), as wide as the board."""
    v = require_public(view)
    board = board_of(v)
    img = strip(board, v, lang_of(lang), board.board_width).copy()
    img.putpalette(palette.palette_bytes({}, board.files.late_colours))
    return encode_png(img)


def render_legend(lang: str = "en") -> bytes:
    """PNG of the legend (every piece and mark with its meaning), for ``/game help``: posted images carry none."""
    return encode_png(draw_legend(lang_of(lang)))


def render_battle(view: View, lang: str = "en", *, private: bool = False) -> bytes:
    """PNG of a zoomed crop around ``view["battle"]["area"]`` with the battle panel. A private view is refused
    unless ``private=True`` (then the image is for that house's DMs only)."""
    v = require_private(view) if private else require_public(view)
    if not isinstance(v.get("battle"), dict) or not v["battle"].get("area"):
        raise ViewError("no battle in this view")
    return compose_battle(board_of(v), v, lang_of(lang))


_ = ViewError, PrivateViewError
