"""``/game map area:``: the part of the public board around one area and its neighbours, drawn at a phone's width at
the crop's own zoom (render/crop.py: names and pieces drawn at its scale, never resampled), the area outlined."""

from __future__ import annotations

from render.crop import compose, encode
from render.data import adjacency_of, board_of
from render.views import View, ViewError, lang_of, require_public

HIGHLIGHT = (232, 178, 20)  # the gold of a step's changed areas: "look here"


def neighbours(board_name: str, area: str) -> list[str]:
    """The areas next to ``area`` on the board, in a fixed order."""
    return sorted(b for pair in adjacency_of(board_name) if area in pair for b in pair if b != area)


def render_area(view: View, area: str, lang: str = "en") -> bytes:
    """PNG of the public board around ``area`` (first, so a crop too small for all its neighbours centres on it) and
    its neighbours. Raises :class:`ViewError` for an area not on the view's board or a private view."""
    v = require_public(view)
    board = board_of(v)
    if area not in board.areas:
        raise ViewError(f"no area {area!r} on this board")
    crop = compose(board, v, lang_of(lang), [area, *neighbours(board.name, area)], highlight=[area],
                   highlight_colour=HIGHLIGHT)  # fmt: skip
    return encode(crop.image)
