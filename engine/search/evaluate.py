"""How good a position is for one house: what a rollout's end is scored by.

A rollout position is the agent's own guess (a determinization), so reading its state is fair: it holds nothing the
agent did not either see or invent. The score weighs what wins the game (castles and strongholds, through the
ruleset's victory points, so Targaryen's loyalty counts), what lets a house grow (supply, Power, its armies, its
places on the influence tracks) and what may be lost next (its castles beside stronger enemy armies), and compares
it with the best rival's: a point taken from the leader is worth more than one taken from the last.
"""

from __future__ import annotations

from engine import rules, rulesets
from engine.game import Game

WIN = 400.0
LOSS = -150.0
VICTORY_POINT = 10.0
SUPPLY = 1.5
POWER = 0.6
STRENGTH = 1.2
TRACK = 1.5
THREATENED_CASTLE = 2.5
RIVAL_WEIGHT = 0.5


def score(g: Game, house: str) -> float:
    """The position's value to ``house``: its own worth minus half the best other player's."""
    s = g.s
    if g.finished:
        return WIN if s.winner == house else LOSS
    control = rules.control_map(s)
    points = rules.victory_points(s, control)
    strength = _army_strength(g)
    worth = {h: _worth(g, h, points, strength, control) for h in rules.player_houses(s) if h in s.houses}
    mine = worth.get(house, _worth(g, house, points, strength, control))
    rivals = [v for h, v in worth.items() if h != house]
    return mine - RIVAL_WEIGHT * max(rivals, default=0.0)


def _army_strength(g: Game) -> dict[str, dict[str, int]]:
    """Area -> house -> the strength of that house's units there (siege engines count as 1)."""
    kinds = rulesets.ruleset(g.s).unit_types()
    out: dict[str, dict[str, int]] = {}
    for area, units in g.s.units.items():
        for u in units:
            if u.routed:
                continue
            kind = kinds.get(u.type)
            value = max(1, kind.strength) if kind is not None else 1
            out.setdefault(area, {}).setdefault(u.house, 0)
            out[area][u.house] += value
    return out


def _worth(
    g: Game,
    house: str,
    points: dict[str, int],
    strength: dict[str, dict[str, int]],
    control: dict[str, str | None],
) -> float:
    s = g.s
    hs = s.houses[house]
    board = rules.board(s)
    tracks = sum(
        (len(order) - order.index(house)) / len(order) for order in s.tracks.values() if house in order and order
    )
    armies = sum(by_house.get(house, 0) for by_house in strength.values())
    threatened = 0
    for area_id, owner in control.items():
        if owner != house or board.areas[area_id].fortification <= 0:
            continue
        here = strength.get(area_id, {}).get(house, 0) + (s.garrisons.get(area_id) or 0)
        for n in board.neighbours[area_id]:
            if not board.areas[n].is_land:
                continue  # ships take no castle
            enemy = max((v for h, v in strength.get(n, {}).items() if h != house), default=0)
            if enemy > here:
                threatened += 1
                break
    return (
        VICTORY_POINT * points.get(house, 0)
        + SUPPLY * hs.supply
        + POWER * hs.power
        + STRENGTH * armies
        + TRACK * tracks
        - THREATENED_CASTLE * threatened
    )
