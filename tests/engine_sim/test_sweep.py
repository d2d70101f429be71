"""The CI sweep: whole games between agents, invariants checked after every step (issue E).

The full sweep (200 games per player count) is run by hand with ``python -m engine.sim``; CI plays a
smaller one on every change.
"""

from __future__ import annotations

import pytest

from engine.sim import play_game, sweep

pytestmark = pytest.mark.slow  # whole games: make test runs them, make check skips them


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_agents_finish_twenty_games_without_errors(players: int) -> None:
    summary = sweep(20, players, seed=1000 * players, agent="random")
    assert summary["errors"] == []
    assert summary["finished"] == 20
    assert summary["rounds_per_game"] == 10.0  # random play never reaches seven castles early
    assert sum(summary["winners"].values()) == 20


@pytest.mark.parametrize("players", [3, 6])
def test_heuristic_agents_fight_and_finish(players: int) -> None:
    summary = sweep(8, players, seed=77, agent="heuristic")
    assert summary["errors"] == []
    assert summary["finished"] == 8
    assert summary["battles"] >= 8  # the heuristic agent attacks: combat is exercised every game


def test_a_failure_is_reported_with_seed_and_step() -> None:
    """A game that breaks is reported, not raised, with what is needed to replay it."""
    result = play_game(3, seed=5, agent="random", on_step=_explode_at_step(7))
    assert result.error is not None
    assert result.error["seed"] == 5 and result.error["step"] == 7  # failed after its 7th answer
    assert "boom" in result.error["message"]


def _explode_at_step(n: int):  # type: ignore[no-untyped-def]
    count = {"steps": 0}

    def on_step(*_: object) -> None:
        count["steps"] += 1
        if count["steps"] == n:
            raise RuntimeError("boom")

    return on_step
