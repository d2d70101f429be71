"""Map snapshots for the play-by-post bot, drawn with Pillow from a game *view* (docs/view-format.md).

Public entry points (see docs/render.md):

* :func:`render_board` — the public full board (refuses a private view);
* :func:`render_private_board` — one house's private board, for that house's DMs only;
* :func:`render_battle` — a zoomed crop around the current combat with a battle panel;
* :func:`render_board_async` — the same off the event loop, with a small result cache.
"""

from __future__ import annotations

from render.aio import RenderCache, render_battle_async, render_board_async, render_private_board_async
from render.api import (
    PrivateViewError,
    ViewError,
    render_battle,
    render_board,
    render_legend,
    render_panel,
    render_private_board,
    warm_up,
)
from render.step import images_for_step

__all__ = [
    "PrivateViewError",
    "RenderCache",
    "ViewError",
    "images_for_step",
    "render_battle",
    "render_battle_async",
    "render_board",
    "render_board_async",
    "render_legend",
    "render_panel",
    "render_private_board",
    "render_private_board_async",
    "warm_up",
]
