"""The official setup for 3 to 6 players (B-SETUP-01..12, B-PLAYERS-01..07)."""

from __future__ import annotations

from typing import Any

from engine import data
from engine.errors import RuleError
from engine.rng import Rng
from engine.state import GameState, HouseState, Unit

DEFAULT_OPTIONS: dict[str, Any] = {
    "tides_of_battle": False,  # B-TIDES-01: off unless all players agree
    "tie_breakers": "rulebook",  # or "faq" (FFG FAQ v2.0 order)
}


def houses_for(player_count: int) -> list[str]:
    counts = data.setups()["player_counts"]
    if str(player_count) not in counts:
        raise RuleError("bad-player-count", "A game has 3 to 6 players.", players=player_count)
    houses: list[str] = counts[str(player_count)]["houses"]
    return list(houses)


def westeros_decks(rng: Rng, decks: tuple[int, ...] = (1, 2, 3)) -> list[list[str]]:
    """The Westeros decks ``decks`` (1-based numbers), each shuffled in turn."""
    out: list[list[str]] = [[] for _ in decks]
    for card in data.all_westeros_cards().values():
        if card["deck"] in decks:
            out[decks.index(card["deck"])].extend([card["id"]] * card["copies"])
    for deck in out:
        rng.shuffle(deck)
    return out


def tides_deck(rng: Rng) -> list[str]:
    deck = [c["id"] for c in data.tides_cards().values() for _ in range(c["count"])]
    rng.shuffle(deck)
    return deck


def initial_state(player_count: int, seed: int, options: dict[str, Any]) -> GameState:
    houses = houses_for(player_count)
    setup = data.setups()["player_counts"][str(player_count)]
    rng = Rng(seed)
    state = GameState(seed=seed, rng=0, options={**DEFAULT_OPTIONS, **options}, players=list(houses))
    state.tracks = {t: list(setup["tracks"][t]) for t in data.TRACKS}
    info = data.houses()
    cards_by_house: dict[str, list[str]] = {h: [] for h in houses}
    for card in data.house_cards().values():
        if card.house in cards_by_house:
            cards_by_house[card.house].append(card.id)
    for house in houses:
        state.houses[house] = HouseState(
            power=data.setups()["starting_power"],
            supply=info[house].starting_supply,
            hand=cards_by_house[house],
            discards=[],
        )
        for area, unit_types in info[house].starting_units.items():
            state.units.setdefault(area, []).extend(Unit(house, t) for t in unit_types)
        state.garrisons[info[house].home] = info[house].garrison
    state.neutral = dict(setup["neutral_forces"])
    state.wildling_threat = data.setups()["wildling_start"]
    deal_decks(state, rng)
    return state


def deal_decks(state: GameState, rng: Rng) -> None:
    """The last step of every ruleset's setup: the wildling deck, the Westeros decks and (with Tides of Battle) the
    Tides deck shuffled, in this order, from the seed's generator, which the state keeps from then on."""
    wildlings = list(data.wildling_cards())
    rng.shuffle(wildlings)
    state.wildling_deck = wildlings
    state.westeros_decks = westeros_decks(rng)
    if state.options.get("tides_of_battle"):
        state.tides_deck = tides_deck(rng)
    state.rng = rng.state
