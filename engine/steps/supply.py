"""Supply: houses move their Supply tokens, then reconcile armies over the new limits (B-SUPPLY-*, B-OPEN-07).

The ``reconcile`` frame is reused by every effect that lowers a supply level (the Supply card, A Throne of Blades,
Rattleshirt's Raiders). It asks, in the order given, each house whose armies break its limits which units to
destroy. A legal answer never removes more than needed: in every area it touches, giving back one of the removed
units would break the limits again — except that a whole army may be removed, provided touching that area at all
was needed (B-SUPPLY-05, known edge case "reconcile: a whole army may go").
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.board_ops import destroy_units, enforce_ports, pick_weakest
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_dict, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.game import Game


# ----- shared unit helpers (also used by the wildling cards) -----


def area_counts(s: GameState, house: str) -> dict[str, int]:
    """Areas holding the house's units -> how many."""
    return {a: len(us) for a, us in sorted(s.units.items()) if us and us[0].house == house}


def units_by_area(s: GameState, house: str, areas: list[str] | None = None) -> dict[str, list[str]]:
    """The house's units per area as sorted type lists (a JSON-able description for prompts)."""
    out: dict[str, list[str]] = {}
    for area, units in sorted(s.units.items()):
        if units and units[0].house == house and (areas is None or area in areas):
            out[area] = sorted(u.type for u in units)
    return out


def parse_picks(s: GameState, house: str, raw: Any, what: str = "destroy") -> dict[str, list[str]]:
    """Validate ``{area: [unit types]}`` naming units the house has there."""
    if not isinstance(raw, dict) or not all(
        isinstance(a, str) and isinstance(ts, list) and all(isinstance(t, str) for t in ts) for a, ts in raw.items()
    ):
        raise RuleError("bad-answer", f"{what} must map area ids to lists of unit types.")
    out: dict[str, list[str]] = {}
    for area, types in raw.items():
        if not types:
            continue
        units = s.units.get(area, [])
        if not units or units[0].house != house:
            raise RuleError("units-missing", f"You have no units in {area}.", area=area)
        for t in set(types):
            have = sum(1 for u in units if u.type == t)
            if types.count(t) > have:
                raise RuleError("units-missing", f"You have only {have} {t} in {area}.", area=area, unit=t)
        out[area] = list(types)
    return out


def select_units(s: GameState, area: str, house: str, types: list[str]) -> list[Unit]:
    """The unit objects for ``types`` in ``area`` (routed ones first: they are worth least this round)."""
    pool = sorted((u for u in s.units.get(area, []) if u.house == house), key=lambda u: not u.routed)
    chosen: list[Unit] = []
    for t in types:
        unit = next((u for u in pool if u.type == t and all(u is not c for c in chosen)), None)
        if unit is None:
            raise RuleError("units-missing", f"There is no {t} of yours in {area}.", area=area, unit=t)
        chosen.append(unit)
    return chosen


def settle(g: Game) -> bool:
    """After units leave the board: ships in ports whose land is lost go (B-PORT-10); a seventh castle wins.

    Units removed by the Westeros phase never leave a Power token behind (only a March does, B-MARCH-*).
    Returns True when the game has ended.
    """
    enforce_ports(g)
    return g.check_instant_win()


def destroy_picks(g: Game, house: str, picks: dict[str, list[str]], reason: str) -> bool:
    """Destroy the picked units (already validated); returns True when the game has ended."""
    s = g.s
    for area, types in picks.items():
        if not types:
            continue
        victims = select_units(s, area, house, types)
        destroy_units(g, area, victims, reason)
        if area not in s.units:
            s.orders.pop(area, None)  # an order cannot stay in an area its house has left
    return settle(g)


def default_destroy(s: GameState, house: str, count: int, areas: list[str] | None = None) -> dict[str, list[str]]:
    """``count`` units, taken one by one from the area holding most of the house's units, weakest first.

    Taking from the biggest stacks keeps single units (and the areas they hold) on the board.
    """
    pools: dict[str, list[Unit]] = {
        a: list(us)
        for a, us in sorted(s.units.items())
        if us and us[0].house == house and (areas is None or a in areas)
    }
    out: dict[str, list[str]] = {}
    for _ in range(count):
        live = [a for a, us in pools.items() if us]
        if not live:
            break
        area = min(live, key=lambda a: (-len(pools[a]), a))
        victim = pick_weakest(s, pools[area], 1)[0]
        pools[area].remove(victim)
        out.setdefault(area, []).append(victim.type)
    return out


# ----- supply levels -----


def adjust_supply(g: Game, reason: str = "supply") -> None:
    """B-SUPPLY-01 / B-WCARD-04: every house in turn order moves to its barrel count, then all reconcile."""
    s = g.s
    order = rules.turn_order(s)
    for house in order:
        old = s.houses[house].supply
        new = rules.barrels(s, house)
        s.houses[house].supply = new
        g.emit("supply-adjusted", house=house, old=old, new=new)
    g.push("reconcile", houses=order, reason=reason)


def over_limit(s: GameState, house: str) -> bool:
    return not rules.supply_ok(s, house)


def minimal_removal(s: GameState, house: str) -> dict[str, list[str]]:
    """The fewest units whose loss brings the house within its limits; among equals, the weakest units.

    Armies beyond the number of flags are cut to single units, the largest armies are kept and cut down to their
    flags. Returns ``{area: [unit types]}``.
    """
    counts = area_counts(s, house)
    armies = {a: n for a, n in counts.items() if n >= 2}
    limits = data.supply_limits(s.houses[house].supply)
    if rules.fits_supply(armies.values(), s.houses[house].supply):
        return {}
    keep_n = min(len(armies), len(limits))
    best: tuple[tuple[int, int, list[str]], dict[str, int]] | None = None
    for kept in combinations(sorted(armies), keep_n):
        removal: dict[str, int] = {a: armies[a] - 1 for a in armies if a not in kept}
        ranked = sorted(kept, key=lambda a: (-armies[a], a))
        for area, cap in zip(ranked, limits, strict=False):
            if armies[area] > cap:
                removal[area] = armies[area] - cap
        total = sum(removal.values())
        weakness = sum(rules.weakness(s, u.type) for a, n in removal.items() for u in pick_weakest(s, s.units[a], n))
        key = (total, weakness, sorted(removal))
        if best is None or key < best[0]:
            best = (key, removal)
    assert best is not None
    return {a: [u.type for u in pick_weakest(s, s.units[a], n)] for a, n in sorted(best[1].items()) if n > 0}


def check_reconcile(s: GameState, house: str, picks: dict[str, list[str]]) -> None:
    """Raise unless ``picks`` brings the house within its limits removing no more than needed."""
    level = s.houses[house].supply
    counts = area_counts(s, house)
    after = dict(counts)
    for area, types in picks.items():
        after[area] -= len(types)
    if not rules.fits_supply(after.values(), level):
        raise RuleError("supply-still-exceeded", "After those losses your armies still break your supply limits.")
    for area, types in picks.items():
        removed = len(types)
        if removed == 0:
            continue
        if removed < counts[area]:
            restored = {**after, area: after[area] + 1}
            if rules.fits_supply(restored.values(), level):
                raise RuleError(
                    "too-many-removed", f"You remove more units than needed in {area}.", area=area, removed=removed
                )
        else:
            restored = {**after, area: counts[area]}
            if rules.fits_supply(restored.values(), level):
                raise RuleError("too-many-removed", f"Nothing needs to be removed in {area}.", area=area)


@register
class Reconcile(Step):
    """B-SUPPLY-05: in the given order, each house over its limits destroys units of its choice."""

    type = "reconcile"

    def _current(self, g: Game, f: Frame) -> str | None:
        houses: list[str] = f["houses"]
        for house in houses:
            if over_limit(g.s, house):
                return house
        return None

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        s = g.s
        house = self._current(g, f)
        if house is None:
            return []
        level = s.houses[house].supply
        return [
            Prompt(
                id=prompt_id(f, PromptKind.RECONCILE, house),
                house=house,
                kind=PromptKind.RECONCILE,
                choices={
                    "armies": {a: ts for a, ts in units_by_area(s, house).items() if len(ts) >= 2},
                    "supply": level,
                    "limits": data.supply_limits(level),
                },
                default={"destroy": minimal_removal(s, house)},
                info={"reason": f.get("reason", "supply")},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        s = g.s
        a = expect_dict(answer, "destroy")
        picks = parse_picks(s, house, a["destroy"])
        check_reconcile(s, house, picks)
        g.emit("supply-reconciled", house=house, destroyed=picks)
        destroy_picks(g, house, picks, "supply")

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
