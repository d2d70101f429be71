"""``Game.prompt_for``, ``Game.awaiting``, ``Game.prompt_ids`` (the kind each id begins with, the house it names)
and the step machine's "does this frame ask anything" agree with the full list of prompts at every step of whole
games, although steps may work them out without building every prompt.
The recorded whole games (tests/engine_sim/test_golden_games.py) prove that ``Game.run`` stops where it did."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flow import STEPS, id_house, id_kind
from engine.game import Game
from engine.prompts import PromptKind
from engine.sim import play_game


def check_shortcuts(g: Game, *_: Any) -> None:
    prompts = g.prompts()
    for house in g.state.players:
        expected = next((p for p in prompts if p.house == house), None)
        assert g.prompt_for(house) == expected, house
    assert g.awaiting() == [p.house for p in prompts if not p.answered]
    assert g.prompt_ids() == [p.id for p in prompts]
    assert all(id_kind(p.id).startswith(p.kind) and id_house(p.id) == p.house for p in prompts), [p.id for p in prompts]
    # The game stopped here because the top frame asks something ("asks" is what Game.run stops on).
    if not g.finished:
        top = g.state.stack[-1]
        assert STEPS[top["type"]].asks(g, top) and prompts


@pytest.mark.parametrize(
    ("players", "seed", "agent", "options"),
    [
        (3, 5, "random", {}),
        (6, 6, "heuristic", {"tides_of_battle": True}),
        # Mother of Dragons with four players: the houses nobody plays are vassals, with orders of their own.
        (4, 7, "random", {"ruleset": "mother-of-dragons"}),
    ],
)
def test_shortcuts_agree_with_the_prompts_in_whole_games(
    players: int, seed: int, agent: str, options: dict[str, Any]
) -> None:
    vassal_orders = []

    def check(g: Game, *rest: Any) -> None:
        check_shortcuts(g, *rest)
        vassal_orders.extend(p for p in g.prompts() if p.kind == PromptKind.VASSAL_ORDERS)

    result = play_game(players, seed, agent, check_invariants=False, options=options, on_step=check)
    assert result.error is None and result.finished
    assert bool(vassal_orders) == (options.get("ruleset") == "mother-of-dragons")
