"""What a combat costs: casualties, retreats, captured ports and discarded cards (B-CAS-*, B-RETREAT-*, B-PORT-11,
B-HCARD-06/07)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import data, rules
from engine.board_ops import destroy_units, pick_weakest, place_units
from engine.combat.frame import CasualtyChoice, CombatFrame, Side, house_of
from engine.combat.strength import combat_units
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.game import Game


def destroy_fighting(g: Game, f: CombatFrame, side: str, victims: list[Unit], reason: str = "casualties") -> None:
    """Destroy some of a side's fighting units (attackers stand in their origin until the combat is decided)."""
    if not victims:
        return
    area = f["origin"] if side == "attacker" else f["area"]
    if side == "attacker":
        for v in victims:
            f["units"].remove(v.type)
    destroy_units(g, area, victims, reason)


def eligible_casualties(s: GameState, f: CombatFrame, side: str) -> list[Unit]:
    """Units that can be taken as casualties: standing, and of a type that can be (no siege engine, B-CAS-07)."""
    return [u for u in combat_units(s, f, side) if not u.routed and rules.unit_type(s, u.type).casualty]


def take_losses(g: Game, f: CombatFrame, side: Side, count: int) -> CasualtyChoice | None:
    """Destroy ``count`` of a side's fighting units, or return the choice its owner must make (B-CAS-03)."""
    eligible = eligible_casualties(g.s, f, side)
    if count >= len(eligible):
        destroy_fighting(g, f, side, eligible)  # B-OPEN-10: the excess is ignored
        return None
    if count <= 0:
        return None
    kinds = sorted({u.type for u in eligible})
    if len(kinds) == 1:
        destroy_fighting(g, f, side, eligible[:count])
        return None
    return {
        "house": house_of(f, side),
        "side": side,
        "units": {k: sum(1 for u in eligible if u.type == k) for k in kinds},
        "count": count,
        "default": [u.type for u in pick_weakest(g.s, eligible, count)],
    }


def retreat_options(s: GameState, f: CombatFrame, loser: str, units: list[Unit]) -> list[str]:
    """Legal retreat areas, those that keep supply first (B-RETREAT-03..10, B-OPEN-09)."""
    board = rules.board(s)
    area = f["area"]
    ships = rules.unit_type(s, units[0].type).at_sea
    candidates: set[str] = set()
    if ships:
        for n in board.neighbours[area]:
            na = board.areas[n]
            if na.is_sea or (na.is_port and rules.controller(s, n) == loser):
                candidates.add(n)
    else:
        candidates = {n for n in board.neighbours[area] if board.areas[n].is_land}
        candidates |= rules.transport_lands(s, loser, area)
    legal = []
    for n in sorted(candidates):
        if n == f["origin"] or n == area or not rules.is_passable(s, n) or n in s.neutral:
            continue
        occ = rules.occupant(s, n)
        if occ not in (None, loser):
            continue
        ctrl = rules.controller(s, n)
        if board.areas[n].is_land and ctrl not in (None, loser):
            continue  # an enemy power token or an empty enemy home (B-RETREAT-12)
        if board.areas[n].is_port and len(s.units.get(n, [])) + len(units) > data.setups()["port_capacity"]:
            continue
        legal.append(n)
    fitting = [n for n in legal if rules.supply_ok(s, loser, {n: len(s.units.get(n, [])) + len(units), area: 0})]
    if fitting:
        return fitting
    # Only areas that break supply: the loser keeps as many units as fit (B-RETREAT-06); prefer the fewest losses.
    best = max((len(fit_supply(s, loser, n, units, origin=area)) for n in legal), default=0)
    return [n for n in legal if len(fit_supply(s, loser, n, units, origin=area)) == best]


def fit_supply(
    s: GameState, house: str, dest: str, units: list[Unit], origin: str | None = None, staying: int | None = None
) -> list[Unit]:
    """The largest strongest-first subset of ``units`` that can enter ``dest`` within supply.

    ``staying``: how many units are in ``dest`` besides ``units`` (default: all the units there now).
    """
    ranked = sorted(units, key=lambda u: rules.weakness(s, u.type), reverse=True)
    present = len(s.units.get(dest, [])) if staying is None else staying
    for keep in range(len(ranked), -1, -1):
        overrides = {dest: present + keep}
        if origin is not None:
            overrides[origin] = 0
        if keep <= 1 and present + keep <= 1:
            return ranked[:keep]
        if rules.supply_ok(s, house, overrides):
            return ranked[:keep]
    return []


def port_capture_limit(s: GameState, winner: str, land: str) -> int | None:
    """How many enemy ships in ``land``'s port the winner could replace (None: no enemy ships there)."""
    port = rules.board(s).areas[land].port
    if port is None or not s.units.get(port) or s.units[port][0].house == winner:
        return None
    for n in range(len(s.units[port]), 0, -1):
        if rules.units_available(s, winner, "ship") >= n and rules.supply_ok(s, winner, {port: n}):
            return n
    return 0


def capture_port_ships(g: Game, winner: str, land: str, count: int | None = None) -> None:
    """B-PORT-11: the conqueror replaces ``count`` enemy ships in the land's port (default: as many as it can);
    the rest are destroyed."""
    s = g.s
    most = port_capture_limit(s, winner, land)
    if most is None:
        return
    port = rules.board(s).areas[land].port
    assert port is not None
    replace = most if count is None else max(0, min(count, most))
    destroy_units(g, port, list(s.units[port]), "port-taken")
    if replace:
        place_units(s, port, [Unit(winner, "ship") for _ in range(replace)])
        g.emit("port-captured", house=winner, area=port, ships=replace)


def discard_played_card(g: Game, house: str, card: str) -> None:
    """A card goes to its owner's discard pile; discarding the last card of the hand takes the others back
    (B-HCARD-07): the card just discarded stays as the new discard pile."""
    hs = g.s.houses[house]
    hs.discards.append(card)
    if not hs.hand:
        hs.hand = [c for c in hs.discards if c != card]
        hs.discards = [card]
        g.emit("hand-returned", house=house)
