"""Property test: random legal play through round 1 keeps the game's invariants.

Every decision is answered with a random answer built from the prompt's choices; the engine may refuse it
(RuleError, state unchanged), and after a few refusals the prompt's default is used (which must be legal).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, data, new_game, rules
from engine.orders import ORDER_TOKENS
from engine.prompts import Prompt


def random_orders(rng: random.Random, p: Prompt) -> dict[str, Any]:
    areas: list[str] = p.choices["areas"]
    tokens: dict[str, int] = p.choices["tokens"]
    normal = [t for t, n in tokens.items() if not ORDER_TOKENS[t].star for _ in range(n)]
    stars = [t for t, n in tokens.items() if ORDER_TOKENS[t].star for _ in range(n)]
    rng.shuffle(stars)
    pool = normal + stars[: rng.randint(0, p.choices["stars"])]
    rng.shuffle(pool)
    chosen = list(areas)
    rng.shuffle(chosen)
    return {"orders": dict(zip(chosen, pool, strict=False))}


def random_march(rng: random.Random, p: Prompt) -> dict[str, Any]:
    origin = rng.choice(sorted(p.choices))
    opts = p.choices[origin]
    moves: dict[str, list[str]] = {}
    for unit, count in opts["units"].items():
        for _ in range(count):
            dests = opts["destinations"][unit]
            if dests and rng.random() < 0.7:
                moves.setdefault(rng.choice(dests), []).append(unit)
    leave = bool(opts["can_leave_power"]) and rng.random() < 0.5
    return {"from": origin, "moves": [{"to": d, "units": u} for d, u in moves.items()], "leave_power": leave}


def random_answer(rng: random.Random, p: Prompt) -> Any:
    kind, choices = p.kind, p.choices
    if kind == "orders":
        return random_orders(rng, p)
    if kind == "raven":
        options: list[Any] = [{"action": "none"}]
        if choices["peek"]:
            options.append({"action": "peek"})
        for area, tokens in choices["swap"].items():
            options.append({"action": "swap", "area": area, "token": rng.choice(tokens)})
        return rng.choice(options)
    if kind == "raid":
        origin = rng.choice(sorted(choices))
        return {"from": origin, "target": rng.choice([None, *choices[origin]])}
    if kind == "march":
        return random_march(rng, p)
    if kind == "casualties":
        pool = [t for t, n in choices["units"].items() for _ in range(n)]
        return rng.sample(pool, choices["count"])
    if kind == "blade":
        return rng.random() < 0.5
    if isinstance(choices, list) and choices:
        return rng.choice(choices)
    return p.default


def check_invariants(g: Game) -> None:
    s = g.s
    board = data.board()
    limits = data.houses()
    counts: Counter[tuple[str, str]] = Counter()
    for area, units in s.units.items():
        assert units, f"empty unit list kept for {area}"
        assert len({u.house for u in units}) == 1, f"two houses in {area}"
        kind = board.areas[area].kind
        for u in units:
            counts[(u.house, u.type)] += 1
            assert (u.type == "ship") == (kind != "land"), f"{u.type} in {kind} {area}"
        if board.areas[area].is_port:
            assert len(units) <= data.setups()["port_capacity"]
    for (house, unit_type), n in counts.items():
        assert n <= limits[house].unit_limits[unit_type], f"{house} has {n} {unit_type}"
    fighting = any(f["type"] == "combat" for f in s.stack)
    for house in s.players:
        assert s.houses[house].power >= 0
        assert rules.power_in_pool(s, house) >= 0, f"{house} uses more than 20 power tokens"
        # During a combat the attackers still stand in their origin (their march was validated with them in the
        # embattled area), so supply is checked between combats only.
        assert fighting or rules.supply_ok(s, house), f"{house} breaks its supply limits"
    for area, house in s.power_tokens.items():
        assert board.areas[area].is_land and rules.occupant(s, area) in (None, house), f"token under enemies in {area}"
    if not fighting:
        for area, order in s.orders.items():
            assert any(u.house == order.house for u in s.units.get(area, [])), f"orphaned order in {area}"
    assert Game.from_json(g.to_json()) == g
    assert Game.from_json(g.to_json()).to_json() == g.to_json()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0, 2**32 - 1), play=st.integers(0, 2**32 - 1))
def test_random_round_one_keeps_the_invariants(players: int, seed: int, play: int) -> None:
    g = new_game(players, seed=seed, options={"tides_of_battle": bool(play % 2)})
    rng = random.Random(play)
    check_invariants(g)
    for _ in range(400):
        if g.finished or g.s.round > 1:
            break
        p = next(p for p in g.prompts() if not p.answered)
        for _attempt in range(6):
            answer = random_answer(rng, p)
            before = g.to_json()
            try:
                g.act(p.house, answer)
                break
            except RuleError:
                assert g.to_json() == before
        else:
            g.act(p.house, p.default)  # the default must always be legal
        check_invariants(g)
    assert g.s.round > 1 or g.finished


def random_position(rng: random.Random, players: int) -> dict[str, Any]:
    """A crowded random position at the start of the Action phase (many combats, retreats, captured ports).

    The position is one a game can reach: units within each house's figures and its supply, ships in a port only of
    the house holding its land, orders within each house's tokens and King's Court stars, garrisons only in homes
    their houses control, no power token under a neutral force or beside a garrison."""
    board = data.board()
    setup = data.setups()["player_counts"][str(players)]
    houses = list(setup["houses"])
    lands = sorted(a.id for a in board.areas.values() if a.is_land)
    seas = sorted(a.id for a in board.areas.values() if a.is_sea)
    units: dict[str, list[str]] = {}
    left = {h: dict(data.houses()[h].unit_limits) for h in houses}
    for area in rng.sample(lands, rng.randint(8, 20)) + rng.sample(seas, rng.randint(3, 8)):
        house = rng.choice(houses)
        kinds = ["ship"] if area in seas else ["footman", "footman", "knight", "siege-engine"]
        picked = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(kinds)
            if left[house][kind] > 0:
                left[house][kind] -= 1
                picked.append(("routed-" if rng.random() < 0.1 else "") + kind)
        if picked:
            units[area] = [house, *picked]
    supply = 6
    for house in houses:  # the largest armies shrink to the flags of the house's supply level
        armies = sorted((a for a, spec in units.items() if spec[0] == house), key=lambda a: -len(units[a]))
        caps = data.supply_limits(supply)
        for i, area in enumerate(armies):
            cap = caps[i] if i < len(caps) else 1
            del units[area][1 + cap :]
    for land, spec in list(units.items()):
        port = board.areas[land].port
        if port and rng.random() < 0.5:
            house = spec[0]
            if left[house]["ship"] > 0:
                left[house]["ship"] -= 1
                units[port] = [house, "ship"]  # a lone ship: no army
    court = setup["tracks"]["kings_court"]
    stars_left = {h: data.stars_allowed(court.index(h), players) for h in houses}
    used: dict[str, Counter[str]] = {h: Counter() for h in houses}
    orders: dict[str, str] = {}
    for area, spec in units.items():
        house = spec[0]
        free = [
            t
            for t, tok in ORDER_TOKENS.items()
            if used[house][t] < tok.copies and (not tok.star or stars_left[house] > 0)
        ]
        if not free:
            continue  # a house with more areas than its 15 tokens leaves some without orders (B-PLAN-07)
        token = rng.choice(free)
        used[house][token] += 1
        stars_left[house] -= ORDER_TOKENS[token].star
        orders[area] = token
    empty_lands = [a for a in lands if a not in units]
    tokens = {a: rng.choice(houses) for a in rng.sample(empty_lands, rng.randint(0, 5))}
    neutral = {a: v for a, v in setup["neutral_forces"].items() if a not in units}
    garrisons = {
        data.houses()[h].home: 2
        for h in houses
        if rng.random() < 0.5 and units.get(data.houses()[h].home, [h])[0] == h  # Its house holds the home
    }
    return {
        "players": players,
        "units": {area: " ".join(spec) for area, spec in units.items()},
        "orders": orders,
        "power_tokens": {a: h for a, h in tokens.items() if a not in neutral and a not in garrisons},
        "neutral": neutral,
        "garrisons": garrisons,
        "supply": dict.fromkeys(houses, supply),
        "power": {h: rng.randint(0, 8) for h in houses},
        "start": "action",
        "round": 10,
        "options": {"tides_of_battle": rng.random() < 0.5},
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0, 2**32 - 1))
def test_random_crowded_action_phase_keeps_the_invariants(players: int, seed: int) -> None:
    rng = random.Random(seed)
    spec = random_position(rng, players)
    g = Game.from_scenario(spec)  # refuses any position the rules forbid
    assert all(rules.supply_ok(g.s, h) for h in g.s.players)
    check_invariants(g)
    for _ in range(400):
        if g.finished:
            break
        p = next(p for p in g.prompts() if not p.answered)
        for _attempt in range(6):
            before = g.to_json()
            try:
                g.act(p.house, random_answer(rng, p))
                break
            except RuleError:
                assert g.to_json() == before
        else:
            g.act(p.house, p.default)
        check_invariants(g)
    assert g.finished
