"""The shortcut that skips working out a step's views: it never skips a step that shows something."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, new_game
from engine.agents import HeuristicAgent
from render.aio import ANSWERED_ONLY, step_may_show_something, step_shows_something


def public(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if not e.get("private_to")]


def play_checking_the_shortcut(game: Game, seed: int, steps: int) -> int:
    """Play ``steps`` answers; at each, a step the shortcut skips must be one that shows nothing. Returns how many
    steps the shortcut skipped."""
    agent = HeuristicAgent(seed)
    skipped = 0
    for _ in range(steps):
        prompts = [p for p in game.prompts() if not p.answered]
        if not prompts or game.finished:
            break
        prompt = prompts[0]
        before = game.view(None)
        try:
            events = game.act(prompt.house, agent.answer(prompt, game.view(prompt.house)))
        except (RuleError, NotImplementedError):
            try:
                events = game.act(prompt.house, prompt.default)
            except NotImplementedError:
                break
        if not step_may_show_something(public(events)):
            skipped += 1
            assert {e["type"] for e in public(events)} <= ANSWERED_ONLY
            assert not step_shows_something(before, game.view(None), public(events)), events
    return skipped


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 6]), seed=st.integers(0, 2**32), tides=st.booleans())
def test_a_step_the_shortcut_skips_never_shows_anything(players: int, seed: int, tides: bool) -> None:
    game = new_game(players, seed=seed, options={"tides_of_battle": tides})
    assert play_checking_the_shortcut(game, seed, 400) > 0  # orders and bids were placed: the shortcut was used


def test_the_shortcut_never_skips_a_step_with_other_public_events() -> None:
    revealed = [{"type": "orders-submitted", "house": "stark"}, {"type": "orders-revealed"}]
    assert step_may_show_something(revealed)
    assert step_may_show_something([])  # nothing public: the views decide
    assert step_may_show_something([{"type": "orders-submitted", "house": "stark", "private_to": "stark"}])
    assert not step_may_show_something([{"type": "bid-submitted", "house": "stark"}])
