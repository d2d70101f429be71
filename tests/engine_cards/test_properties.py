"""Property tests: random combats with random hands, supports, tracks and answers never crash, every default is
legal, and ``engine.invariants.check`` holds after every step (also in whole games with Tides of Battle)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, data, invariants
from engine.orders import ORDER_TOKENS
from engine.prompts import Prompt
from engine.sim import play_game

from .helpers import ALL_HOUSES, combat_frame


def random_answer(rng: random.Random, p: Prompt) -> Any:
    choices = p.choices
    if p.kind == "casualties":
        pool = [t for t, n in choices["units"].items() for _ in range(n)]
        return rng.sample(pool, choices["count"])
    if p.kind == "support" and rng.random() < 0.3:
        return {a: rng.choice(choices) for a in p.info["from"]}
    if rng.random() < 0.05:
        return rng.choice(["nonsense", None, 7, {"x": 1}, ["footman"]])  # must be refused without harm
    if isinstance(choices, list) and choices:
        return rng.choice(choices)
    return p.default


# Orders a neighbour falls back on when its house has used up the ones drawn for it: none of them starts a raid or
# a march of its own before the march under test.
QUIET = ["defense1", "defense2*", "support0", "support1*", "consolidate", "consolidate*"]


def random_combat(rng: random.Random) -> tuple[Game, str, str, str, list[str]]:
    """A random battle a game can reach: units within each house's figures, orders within its tokens and its
    King's Court stars, ships in a port only of the house holding its land, a garrison only in its house's home."""
    board = data.board()
    sea = rng.random() < 0.25
    kind = "sea" if sea else "land"
    areas = sorted(a.id for a in board.areas.values() if a.kind == kind)
    while True:
        target = rng.choice(areas)
        origins = sorted(n for n in board.neighbours[target] if board.areas[n].kind == kind)
        if origins:
            break
    origin = rng.choice(origins)
    attacker, defender = rng.sample(ALL_HOUSES, 2)
    home = board.areas[target].home_of
    garrisoned = home is not None and home != attacker and rng.random() < 0.6
    if garrisoned:
        defender = str(home)  # a garrison only ever defends its own house's home area
    tracks = {}
    for t in data.TRACKS:
        order = list(ALL_HOUSES)
        rng.shuffle(order)
        tracks[t] = order
    figures = {h: dict(data.houses()[h].unit_limits) for h in ALL_HOUSES}
    tokens = {h: {t: tok.copies for t, tok in ORDER_TOKENS.items()} for h in ALL_HOUSES}
    stars = {h: data.stars_allowed(tracks["kings_court"].index(h), len(ALL_HOUSES)) for h in ALL_HOUSES}

    def figure(house: str, options: list[str]) -> str | None:
        """One of the house's figures still off the board, of a type picked at random from ``options``."""
        free = [k for k in options if figures[house][k] > 0]
        if not free:
            return None
        chosen = rng.choice(free)
        figures[house][chosen] -= 1
        return chosen

    def token(house: str, options: list[str], fallback: list[str]) -> str | None:
        """One of the house's order tokens picked at random from ``options`` (else ``fallback``)."""
        for choices in (options, fallback):
            free = [t for t in choices if tokens[house][t] > 0 and (not ORDER_TOKENS[t].star or stars[house] > 0)]
            if free:
                chosen = rng.choice(free)
                tokens[house][chosen] -= 1
                stars[house] -= ORDER_TOKENS[chosen].star
                return chosen
        return None

    kinds = ["ship"] if sea else ["footman", "footman", "knight", "siege-engine"]
    attacking = [k for k in (figure(attacker, kinds) for _ in range(rng.randint(1, 3))) if k]
    defending = [
        ("routed-" if rng.random() < 0.2 else "") + k
        for k in (figure(defender, kinds) for _ in range(rng.randint(0, 3)))
        if k
    ]
    units: dict[str, str] = {origin: " ".join([attacker, *attacking])}
    orders: dict[str, str | None] = {origin: token(attacker, ["march0", "march1*", "march-1"], [])}
    if defending:
        units[target] = " ".join([defender, *defending])
        orders[target] = token(defender, ["defense1", "defense2*", "consolidate", "support0"], ["defense1"])
    garrisons = {target: 2} if garrisoned else {}
    if not defending and not garrisoned:
        return random_combat(rng)
    for n in sorted(board.neighbours[target]):
        if n in units or rng.random() < 0.4:
            continue
        here = board.areas[n]
        house = rng.choice(ALL_HOUSES)
        if here.is_port:
            port_land = here.port_of
            if port_land is None or units.get(port_land, "").split()[:1] not in ([], [house]):
                continue
        unit = figure(house, ["ship"] if not here.is_land else ["footman", "knight"])
        if unit is None:
            continue
        units[n] = f"{house} {unit}"
        orders[n] = token(house, ["support0", "support1*", "defense1", "consolidate", "consolidate*"], QUIET)
    for port, ships in list(units.items()):
        land = board.areas[port].port_of
        if board.areas[port].is_port and land is not None:
            holder = units[land].split()[0] if land in units else board.areas[land].home_of
            if holder != ships.split()[0]:  # a port's ships belong to the house holding its land
                del units[port], orders[port]
    hands: dict[str, list[str]] = {}
    discards: dict[str, list[str]] = {}
    for house in ALL_HOUSES:
        cards = sorted(c.id for c in data.house_cards().values() if c.house == house)
        rng.shuffle(cards)
        k = rng.randint(1, 7)
        hands[house], discards[house] = cards[:k], cards[k:]
    spec = {
        "players": 6,
        "units": units,
        "orders": {area: o for area, o in orders.items() if o is not None},
        "garrisons": garrisons,
        "neutral": {},
        "hands": hands,
        "discards": discards,
        "tracks": tracks,
        "supply": {h: 6 for h in ALL_HOUSES},
        "power": {h: rng.randint(0, 8) for h in ALL_HOUSES},
        "blade_used": rng.random() < 0.3,
        "round": 10,
        "start": "action",
        "options": {"tides_of_battle": rng.random() < 0.5},
    }
    return Game.from_scenario(spec), attacker, origin, target, [t.removeprefix("routed-") for t in attacking]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_combats_with_random_hands_keep_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    g, attacker, origin, target, attacking = random_combat(rng)
    invariants.check(g, views=False, round_trip=False)  # the scenario refused any illegal position
    p = g.prompt_for(attacker)
    if p is None or p.kind != "march" or origin not in p.choices:
        return
    try:
        g.act(attacker, {"from": origin, "moves": [{"to": target, "units": attacking}]})
    except RuleError:
        return  # e.g. a siege engine that cannot go there: not the combat under test
    invariants.check(g)
    fought = combat_frame(g) is not None
    for _ in range(200):
        if g.finished or combat_frame(g) is None:
            break
        prompt = next(p for p in g.prompts() if not p.answered)
        for _attempt in range(4):
            before = g.to_json()
            try:
                g.act(prompt.house, random_answer(rng, prompt))
                break
            except RuleError:
                assert g.to_json() == before
        else:
            g.act(prompt.house, prompt.default)  # the default must always be legal
        invariants.check(g)
    assert combat_frame(g) is None, "the combat did not end"
    if fought:
        for house in ALL_HOUSES:
            hs = g.s.houses[house]
            assert sorted(hs.hand + hs.discards) == sorted(
                c.id for c in data.house_cards().values() if c.house == house
            )
            assert hs.hand, f"{house} was left without a house card"
    if g.s.options["tides_of_battle"] and fought:
        assert len(g.s.tides_deck) == 24


@pytest.mark.parametrize(("agent", "players", "seed"), [("random", 6, 11), ("heuristic", 6, 12), ("random", 3, 13)])
def test_whole_games_with_tides_of_battle_and_every_ability(agent: str, players: int, seed: int) -> None:
    result = play_game(players, seed, agent, options={"tides_of_battle": True})
    assert result.error is None, result.error
    assert result.finished and result.battles > 0
