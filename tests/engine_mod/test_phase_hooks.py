"""Issue T, a seam: the round's phases call the ruleset's hooks (a round starting, the Westeros phase, Planning, and a
settle hook after every step outside a battle), so Targaryen's rules hang on them; both rulesets' setups end with one
shared step, so the expansion's setup draws its decks exactly as the base game does."""

from __future__ import annotations

from typing import Any

import pytest

from engine import new_game, setup
from engine.agents import Agent
from engine.game import Game
from engine.rng import Rng
from engine.rulesets.base import Ruleset
from engine.rulesets.mother_of_dragons import MotherOfDragons
from engine.state import GameState


def play(g: Game, until_round: int) -> None:
    agent = Agent(0)
    for _ in range(5000):
        if g.finished or (g.state.round >= until_round and g.state.phase == "planning"):
            return
        prompt = next(p for p in g.prompts() if not p.answered)
        g.act(prompt.house, agent.answer(prompt, g.view(prompt.house)))
    raise AssertionError("the game did not reach the round")


@pytest.mark.parametrize("options", [{}, {"ruleset": "mother-of-dragons"}])
def test_each_hook_is_called_where_the_round_says(monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]) -> None:
    calls: list[tuple[str, int, str]] = []

    def record(name: str, original: Any) -> Any:
        def hook(self: Ruleset, g: Game) -> None:
            calls.append((name, g.state.round, g.state.phase))
            original(self, g)

        return hook

    cls = MotherOfDragons if options else Ruleset
    for name in ("round_started", "westeros_started", "planning_started", "settle"):
        monkeypatch.setattr(cls, name, record(name, getattr(cls, name)))
    g = new_game(4, seed=6, options=options)
    play(g, until_round=3)
    phases = [(n, r) for n, r, _ in calls if n != "settle"]
    assert phases[:2] == [("planning_started", 1), ("round_started", 2)]
    assert ("westeros_started", 2) in phases and ("planning_started", 2) in phases
    assert (
        phases.index(("round_started", 2))
        < phases.index(("westeros_started", 2))
        < phases.index(("planning_started", 2))
    )
    settled = [c for c in calls if c[0] == "settle"]
    assert len(settled) > 10
    assert all(p in ("planning", "action", "westeros") for _, _, p in settled)


def test_settle_is_never_called_inside_a_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def settle(self: Ruleset, g: Game) -> None:
        seen.append(any(f["type"] == "combat" for f in g.state.stack))

    monkeypatch.setattr(Ruleset, "settle", settle)
    g = new_game(3, seed=11)
    play(g, until_round=4)
    assert seen and not any(seen)


def test_the_expansions_setup_deals_its_decks_by_the_shared_step() -> None:
    """The expansion's decks are those the shared step deals from the same seed: its own setup draws nothing else."""
    g = new_game(5, seed=21, options={"ruleset": "mother-of-dragons", "tides_of_battle": True})
    s = g.state
    dealt = GameState(seed=21, rng=0, options=dict(s.options), players=[])
    setup.deal_decks(dealt, Rng(21))
    assert (s.wildling_deck, s.westeros_decks, s.tides_deck) == (
        dealt.wildling_deck,
        dealt.westeros_decks,
        dealt.tides_deck,
    )
