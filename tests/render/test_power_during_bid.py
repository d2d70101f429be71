"""Issue U, fault 7, as the table sees it: a board drawn while a bid is open reads each house's Power as announced
before the bid (B-HIDDEN-02), not "?"; the Power left stays hidden (tests/engine_action/test_hidden.py)."""

from __future__ import annotations

from render.data import board_of
from render.strip import items
from tests.engine_action.test_hidden import clash_game


def test_the_board_posted_during_a_bid_shows_the_announced_power_not_question_marks() -> None:
    g = clash_game()
    g.act("stark", 3)  # a bid given changes nothing the board shows
    view = g.view(None)
    assert view["power"]["stark"] is None
    cells = {i.house: i.text for i in items(board_of(view), view, "en") if i.kind == "power_col"}
    assert cells["stark"] == "7" and cells["lannister"] == "2"
    assert "?" not in cells.values()
