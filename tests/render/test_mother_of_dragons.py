"""The Mother of Dragons board for 7 houses (issue M1): drawn from the expansion's layout, as legible as the base board,
and never mixed up with it in one process."""

from __future__ import annotations

import io

from PIL import Image

from engine import new_game
from engine.sim import play_game
from render import measure, render_board, style
from render.data import board_named, board_of
from render.layout import board_pieces
from render.views import check

MOD = {"ruleset": "mother-of-dragons"}


def setup_view() -> dict[str, object]:
    return new_game(7, seed=3, options=MOD).view(None)


def midgame_view() -> dict[str, object]:
    found: dict[str, dict[str, object]] = {}

    def keep(g, prompt, events) -> None:  # type: ignore[no-untyped-def]
        if g.state.round == 5 and g.state.phase == "action" and "view" not in found:
            found["view"] = g.view(None)

    play_game(7, 5, "heuristic", options=MOD, check_invariants=False, on_step=keep)
    return found["view"]


def test_the_expansion_board_is_drawn_with_its_61_areas() -> None:
    view = setup_view()
    board = board_of(check(view))
    assert board.name == "mother-of-dragons" and len(board.areas) == 61
    assert {"the-bite", "the-vale-of-arryn", "port-of-the-eyrie"} <= set(board.areas)
    png = render_board(view, "en")
    with Image.open(io.BytesIO(png)) as im:
        assert im.format == "PNG" and im.width == style.MAP_W


def test_arryns_pieces_stand_in_its_areas_and_nothing_overlaps_at_phone_width() -> None:
    views = [setup_view(), midgame_view()]
    for lang in ("en", "ru"):
        figures = measure.board_figures(views, lang)  # type: ignore[arg-type]
        assert figures.overlaps == 0 and figures.min_piece_px >= 28
    pieces = board_pieces(board_of(views[0]), views[0], "en")  # type: ignore[arg-type]
    assert {p.area for p in pieces if p.kind == "units"} >= {"the-eyrie", "the-vale-of-arryn", "port-of-the-eyrie"}


def test_one_process_draws_both_boards_without_mixing_them() -> None:
    base = new_game(6, seed=1).view(None)
    first = render_board(base, "en")
    render_board(setup_view(), "en")
    assert render_board(base, "en") == first
    assert board_of(base) is board_named("base") and "the-bite" not in board_of(base).areas
