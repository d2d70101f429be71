"""Entry points: view dict in, PNG bytes out."""

from __future__ import annotations

import io

from PIL import Image

from render import base, palette, style
from render.battle import compose_battle
from render.panel import draw_panel
from render.pieces import draw_pieces
from render.views import PrivateViewError, View, ViewError, lang_of, require_private, require_public

__all__ = [
    "PNG_OPTIONS",
    "PrivateViewError",
    "ViewError",
    "compose_board",
    "encode_png",
    "render_battle",
    "render_board",
    "render_panel",
    "render_private_board",
    "warm_up",
]

# zlib level 1 with the RLE strategy: flat map colours compress well and fast (see docs/render.md).
PNG_OPTIONS: dict[str, int] = {"compress_level": 1, "compress_type": 3}


def encode_png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", **PNG_OPTIONS)
    return out.getvalue()


def compose_board(view: View, lang: str) -> Image.Image:
    """The full board image (mode P): map with pieces plus the side panel. ``view`` must already be checked."""
    img = Image.new("P", (style.IMAGE_W, style.IMAGE_H), palette.idx(style.PAPER))
    img.paste(base.map_base(lang), (0, 0))
    draw_pieces(img, view, lang)
    draw_panel(img, view, lang, style.MAP_W, style.PANEL_W)
    img.putpalette(palette.palette_bytes(base.area_fills(view)))
    return img


def warm_up(langs: tuple[str, ...] = ("en", "ru")) -> None:
    """Build the static layers and common stamps now (about 0.15 s per language) instead of on the first
    request; safe to call from a worker thread at bot start-up."""
    for lang in langs:
        compose_board({"viewer": None, "areas": {}}, lang_of(lang))


def render_board(view: View, lang: str = "en") -> bytes:
    """PNG of the public full board. Raises :class:`PrivateViewError` for a private view."""
    v = require_public(view)
    return encode_png(compose_board(v, lang_of(lang)))


def render_private_board(view: View, lang: str = "en") -> bytes:
    """PNG of one house's private board (its own orders face up), for that house's DMs only.
    Raises :class:`ViewError` unless ``view["viewer"]`` is a house."""
    v = require_private(view)
    return encode_png(compose_board(v, lang_of(lang)))


def render_panel(view: View, lang: str = "en") -> bytes:
    """PNG of the side panel alone (same public/private rule as the board: a private view needs ``private``)."""
    v = require_public(view)
    img = Image.new("P", (style.PANEL_W, style.IMAGE_H), palette.idx(style.PAPER))
    draw_panel(img, v, lang_of(lang), 0, style.PANEL_W)
    img.putpalette(palette.palette_bytes({}))
    return encode_png(img)


def render_battle(view: View, lang: str = "en", *, private: bool = False) -> bytes:
    """PNG of a zoomed crop around ``view["battle"]["area"]`` with the battle panel. A private view is refused
    unless ``private=True`` (then the image is for that house's DMs only)."""
    v = require_private(view) if private else require_public(view)
    if not isinstance(v.get("battle"), dict) or not v["battle"].get("area"):
        raise ViewError("no battle in this view")
    return compose_battle(v, lang_of(lang))


_ = ViewError, PrivateViewError
