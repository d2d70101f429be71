"""Small operations that change the board: moving, destroying and routing units, and port upkeep."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import rules
from engine.errors import RuleError
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.game import Game


def take_units(s: GameState, area: str, house: str, types: list[str], *, routed: bool | None = False) -> list[Unit]:
    """Remove units of the given types from ``area`` (``routed=None`` takes either state)."""
    pool = s.units.get(area, [])
    taken: list[Unit] = []
    for t in types:
        for i, u in enumerate(pool):
            if u.house == house and u.type == t and (routed is None or u.routed == routed):
                taken.append(pool.pop(i))
                break
        else:
            for u in taken:  # put back what was taken before failing
                pool.append(u)
            raise RuleError("units-missing", f"There is no {t} of yours to use in {area}.", area=area, unit=t)
    if not pool:
        s.units.pop(area, None)
    return taken


def place_units(s: GameState, area: str, units: list[Unit]) -> None:
    if units:
        s.units.setdefault(area, []).extend(units)


def destroy_units(g: Game, area: str, units: list[Unit], reason: str) -> None:
    """Destroyed units go back to their owner's supply (B-TERM-08)."""
    s = g.s
    pool = s.units.get(area, [])
    for u in units:
        pool.remove(u)
    if not pool:
        s.units.pop(area, None)
    if units:
        g.emit(
            "units-destroyed",
            area=area,
            house=units[0].house,
            units=[u.type for u in units],
            reason=reason,
        )


def pick_weakest(s: GameState, units: list[Unit], n: int) -> list[Unit]:
    """Casualty and default-destruction preference: routed units, then the weakest types (``rules.weakness``)."""
    ranked = sorted(units, key=lambda u: (not u.routed, rules.weakness(s, u.type)))
    return ranked[:n]


def enforce_ports(g: Game) -> None:
    """Ships in a port whose land their house no longer controls are destroyed (B-PORT-10)."""
    s = g.s
    for area in list(s.units):
        a = rules.board(s).areas[area]
        if a.is_port and s.units.get(area):
            ships = s.units[area]
            if rules.controller(s, area) != ships[0].house:
                destroy_units(g, area, list(ships), "port-lost")
    remove_orphaned_orders(g)


def remove_orphaned_orders(g: Game) -> None:
    """An order stays only while its house still has units in its area.

    Ships destroyed or replaced in a port (B-PORT-10, B-PORT-11) take their order with them, so a Consolidate
    Power order in an emptied port pays nobody. Marches never leave such orders (the vacated area's March order
    is removed), so this only ever removes orders of units that are gone.
    """
    s = g.s
    for area, order in sorted(s.orders.items()):
        if not any(u.house == order.house for u in s.units.get(area, [])):
            del s.orders[area]
            g.emit("order-removed", area=area, house=order.house, token=order.token, reason="no-units")


def remove_power_token(g: Game, area: str, reason: str) -> None:
    house = g.s.power_tokens.pop(area, None)
    if house is not None:
        g.emit("power-token-removed", area=area, house=house, reason=reason)
