"""Entry points: view dict in, PNG bytes out."""

from __future__ import annotations

from PIL import Image

from render import base, palette, style
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
    checked and on ``board``. The image is as wide as the map, so a phone shows the map as large as it can."""
    top = strip(board, view, lang, style.MAP_W)
    img = Image.new("P", (style.MAP_W, top.height + style.MAP_H), palette.idx(style.PAPER))
    img.paste(top, (0, 0))
    img.paste(base.map_base(board, lang), (0, top.height))
    draw_pieces(img, board, view, lang, top.height)
    img.putpalette(palette.palette_bytes(base.area_fills(board, view)))
    return img


def warm_up(langs: tuple[str, ...] = ("en", "ru")) -> None:
    """Build the static layers and common stamps now (about 0.15 s per language) instead of on the first
    request; safe to call from a worker thread at bot start-up."""
    for lang in langs:
        compose_board(board_named("base"), {"viewer": None, "areas": {}}, lang_of(lang))


def render_board(view: View, lang: str = "en") -> bytes:
    """PNG of the public full board. Raises :class:`PrivateViewError` for a private view."""
    v = require_public(view)
    return encode_png(compose_board(board_of(v), v, lang_of(lang)))


def render_private_board(view: View, lang: str = "en") -> bytes:
    """PNG of one house's private board (its own orders face up), for that house's DMs only.
    Raises :class:`ViewError` unless ``view["viewer"]`` is a house."""
    v = require_private(view)
    return encode_png(compose_board(board_of(v), v, lang_of(lang)))


def render_panel(view: View, lang: str = "en") -> bytes:
    """PNG of the status strip alone (public views only), as wide as the board."""
    v = require_public(view)
    img = strip(board_of(v), v, lang_of(lang), style.MAP_W).copy()
    img.putpalette(palette.palette_bytes({}))
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
