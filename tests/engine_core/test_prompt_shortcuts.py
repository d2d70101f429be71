"""``Game.prompt_for``, ``Game.awaiting`` and the step machine's "does this frame ask anything" agree with the full
list of prompts at every step of whole games, although steps may work them out without building every prompt.
The recorded whole games (tests/engine_sim/test_golden_games.py) prove that ``Game.run`` stops where it did."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flow import STEPS
from engine.game import Game
from engine.sim import play_game


def check_shortcuts(g: Game, *_: Any) -> None:
    prompts = g.prompts()
    for house in g.state.players:
        expected = next((p for p in prompts if p.house == house), None)
        assert g.prompt_for(house) == expected, house
    assert g.awaiting() == [p.house for p in prompts if not p.answered]
    # The game stopped here because the top frame asks something ("asks" is what Game.run stops on).
    if not g.finished:
        top = g.state.stack[-1]
        assert STEPS[top["type"]].asks(g, top) and prompts


@pytest.mark.parametrize(("players", "seed", "agent", "tides"), [(3, 5, "random", False), (6, 6, "heuristic", True)])
def test_shortcuts_agree_with_the_prompts_in_whole_games(players: int, seed: int, agent: str, tides: bool) -> None:
    result = play_game(
        players, seed, agent, check_invariants=False, options={"tides_of_battle": tides}, on_step=check_shortcuts
    )
    assert result.error is None and result.finished
