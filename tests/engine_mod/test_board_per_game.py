"""Issue T, a seam: the board is chosen per game from its state (Essos joins only when Targaryen plays, M-ESSOS-02),
the views name it, and the agents and the renderer read the board the view names."""

from __future__ import annotations

import pytest

from engine import new_game, rules, rulesets
from engine.rulesets.base import Ruleset
from render.data import board_of

ONLY_MOD = "port-of-the-eyrie"  # the expansion's Westeros board adds the Eyrie's port


def test_each_ruleset_names_its_board_in_the_view() -> None:
    base = new_game(3, seed=1)
    mod = new_game(4, seed=1, options={"ruleset": "mother-of-dragons"})
    assert base.view(None)["options"]["board"] == "base"
    assert mod.view(None)["options"]["board"] == "mother-of-dragons"
    assert rules.board(mod.state) is rulesets.board_named("mother-of-dragons")
    assert ONLY_MOD in rules.board(mod.state).areas and ONLY_MOD not in rules.board(base.state).areas
    assert set(board_of(mod.view(None)).areas) == set(rules.board(mod.state).areas)


def test_the_board_follows_the_state_not_the_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset whose board depends on the game: every reader follows the state's choice."""
    g = new_game(3, seed=4)
    monkeypatch.setattr(
        Ruleset, "boards", {"base": "board.json", "mother-of-dragons": "mother-of-dragons/board-westeros.json"}
    )
    monkeypatch.setattr(Ruleset, "board_name", lambda self, s: "mother-of-dragons" if s.round >= 2 else "base")
    assert rules.board(g.state) is rulesets.board_named("base")
    g.state.round = 2
    view = g.view(None)
    assert view["options"]["board"] == "mother-of-dragons"
    assert rules.board(g.state) is rulesets.board_named("mother-of-dragons")
    assert set(board_of(view).areas) == set(rulesets.board_named("mother-of-dragons").areas)


def test_a_view_from_before_boards_were_named_is_drawn_on_its_rulesets_board() -> None:
    view = new_game(4, seed=2, options={"ruleset": "mother-of-dragons"}).view(None)
    del view["options"]["board"]
    assert ONLY_MOD in board_of(view).areas
    assert ONLY_MOD not in board_of({"options": {}}).areas
