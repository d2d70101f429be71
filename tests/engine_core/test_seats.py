"""Changing who controls a house is valid in every state and never disturbs the game (fuzzed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, invariants, new_game
from engine.agents import RandomAgent


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4, 5, 6]), steps=st.integers(1, 60))
def test_seat_changes_at_random_moments_keep_the_game_whole(seed: int, players: int, steps: int) -> None:
    g = new_game(players, seed=seed)
    rnd = random.Random(seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if rnd.random() < 0.4:
            house = rnd.choice(g.state.players)
            prompts_before = [p.to_dict() for p in g.prompts()]
            g.set_seat(house, str(rnd.randrange(1000)), autopilot=rnd.random() < 0.5)
            assert [p.to_dict() for p in g.prompts()] == prompts_before
            invariants.check(g)
        open_prompts = [p for p in g.prompts() if not p.answered]
        if not open_prompts or g.finished:
            break
        p = open_prompts[0]
        try:
            g.act(p.house, agent.answer(p, g.view(p.house)))
        except RuleError:
            g.act(p.house, p.default)
        invariants.check(g)


def test_seat_change_round_trips_and_is_an_event() -> None:
    g = new_game(3, seed=1)
    events = g.set_seat("stark", "42", autopilot=True)
    assert events == [{"type": "seat-changed", "house": "stark", "seat": "42", "autopilot": True}]
    assert g.view(None)["houses"]["stark"]["autopilot"] is True
    assert Game.from_json(g.to_json()) == g


def test_seat_change_for_a_house_not_in_play_is_refused() -> None:
    g = new_game(3, seed=1)
    before = g.to_json()
    try:
        g.set_seat("martell", "1")
    except RuleError as err:
        assert err.code == "unknown-house"
    assert g.to_json() == before
