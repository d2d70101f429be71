"""Whole Mother of Dragons games between agents, every invariant checked after every step (issue M1).

The full sweep (200 games) is run by hand: ``python -m engine.sim --ruleset mother-of-dragons --players 7
--games 200``; CI plays a smaller one. The agents place sea orders (on land too, as bluffs), play Arryn's cards,
and now and then give Power where the rules allow.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import data, rules
from engine.game import Game
from engine.prompts import Prompt
from engine.sim import play_game, sweep

MOD = {"ruleset": "mother-of-dragons"}
ARRYN_CARDS = {c.id for c in data.house_cards().values() if c.house == "arryn"}
SEA_ORDERS = {"sea-march-minus-1", "sea-support"}

pytestmark = pytest.mark.slow  # whole games: make test runs them, make check skips them


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_seven_player_games_finish_without_errors(agent: str) -> None:
    summary = sweep(8, 7, seed=700, agent=agent, options=MOD)
    assert summary["errors"] == [] and summary["finished"] == 8
    assert set(summary["winners"]) <= {"baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"}


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_games_with_targaryen_finish_without_errors(players: int, agent: str) -> None:
    """Issue T: Targaryen in every game, 4 to 8 players; the invariants (Targaryen on space 8, dragon strength as
    the track, no dragon mustered or back from the dead) are checked after every step."""
    summary = sweep(3, players, seed=800 + players, agent=agent, options=MOD, targaryen=players < 8)
    assert summary["errors"] == [] and summary["finished"] == 3
    assert sum(summary["endings"].values()) == 3
    assert set(summary["endings"]) <= {"round-limit", "seven-castles", "seven-loyalty"}


def test_agents_fly_dragons_and_hand_out_targaryens_bids() -> None:
    """The agents play Targaryen: dragons fly, bids are handed out, dragons grow."""
    seen: set[str] = set()

    def watch(g: Game, prompt: Prompt, events: list[dict[str, Any]]) -> None:
        for e in events:
            if e["type"] == "march" and "dragon" in e["units"] and not rules.board(g.s).adjacent(e["origin"], e["to"]):
                seen.add("flight")
            if e["type"] in ("bid-handout", "dragon-strength"):
                seen.add(e["type"])

    for seed in range(3):
        assert play_game(8, seed, "random", options=MOD, on_step=watch).error is None
    assert seen == {"flight", "bid-handout", "dragon-strength"}


def test_agents_use_sea_orders_gifts_and_arryns_cards() -> None:
    seen: set[str] = set()

    def watch(g: Game, prompt: Prompt, events: list[dict[str, Any]]) -> None:
        for e in events:
            if e["type"] == "order-removed" and e["reason"] == "sea-order-on-land":
                seen.add("a sea order removed from land")
            if e["type"] == "orders-revealed" and {token for _, token in e["orders"].values()} & SEA_ORDERS:
                seen.add("a sea order placed")
            if e["type"] == "house-cards-revealed" and {e["attacker"], e["defender"]} & ARRYN_CARDS:
                seen.add("an Arryn card played")

    gifts = 0
    for seed in range(3):
        result = play_game(7, 710 + seed, "random", options=MOD, on_step=watch)
        assert result.error is None
        gifts += result.gifts
    assert seen == {"a sea order removed from land", "a sea order placed", "an Arryn card played"}
    assert gifts > 0
