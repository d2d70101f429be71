"""Mustering (B-MUSTER-01..13): one ``muster`` frame, one prompt per house with its whole plan.

Frame: ``{"type": "muster", "houses": [house, ...], "areas": {house: [area, ...]} (optional restriction),
"max_areas": n (optional)}``. Houses muster in the order given (turn order for the Westeros card); a house
finishes before the next starts (B-MUSTER-12). A house with nothing legal to muster is skipped without a prompt.

A plan maps each mustering area to a list of actions, applied in order:
``{"recruit": "footman" | "knight" | "siege-engine"}``, ``{"recruit": "ship", "to": port or sea}``,
``{"upgrade": "knight" | "siege-engine"}`` (replaces a footman in that area).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.errors import RuleError
from engine.flow import Frame, Step, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.rulesets import ruleset
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.game import Game

UPGRADE_COST = 1


def musterable(s: GameState) -> dict[str, data.UnitType]:
    """The unit types a house may recruit, by id, in the ruleset's order (B-MUSTER-03); a type without a cost, such as
    a dragon, never is."""
    return {t: kind for t, kind in ruleset(s).unit_types().items() if kind.musterable}


def points(s: GameState, area: str) -> int:
    """A stronghold gives 2 mustering points, a castle 1, anything else none (B-MUSTER-02, B-MUSTER-13)."""
    return rules.board(s).areas[area].fortification


def muster_areas(s: GameState, house: str, only: list[str] | None = None) -> list[str]:
    """Controlled lands with a castle or stronghold (B-MUSTER-01)."""
    board = rules.board(s)
    out = []
    for area in rules.controlled_lands(s, house):
        if board.areas[area].fortification > 0 and (only is None or area in only):
            out.append(area)
    return sorted(out)


def ship_targets(s: GameState, house: str, area: str) -> list[str]:
    """Where a ship paid for by ``area`` may go: its port (max 3 ships, even if the port's sea holds enemy ships,
    B-MUSTER-10) or an adjacent sea with no enemy ship (B-MUSTER-08/09)."""
    board = rules.board(s)
    a = board.areas[area]
    out = []
    port = a.port
    capacity: int = data.setups()["port_capacity"]
    if port is not None and len(s.units.get(port, [])) < capacity and rules.occupant(s, port) in (None, house):
        out.append(port)
    for n in sorted(board.neighbours[area]):
        if board.areas[n].is_sea and rules.occupant(s, n) in (None, house):
            out.append(n)
    return out


def _count(s: GameState, area: str) -> int:
    return len(s.units.get(area, []))


def _has(s: GameState, house: str, area: str, unit_type: str) -> bool:
    return any(u.house == house and u.type == unit_type for u in s.units.get(area, []))


def area_options(s: GameState, house: str, area: str) -> dict[str, Any] | None:
    """What a single first action in ``area`` could be, or None if nothing is legal there."""
    pts = points(s, area)
    kinds = musterable(s)
    recruit = []
    for t, kind in kinds.items():
        if (
            not kind.at_sea
            and kind.cost is not None
            and kind.cost <= pts
            and rules.units_available(s, house, t) > 0
            and rules.supply_ok(s, house, {area: _count(s, area) + 1})
        ):
            recruit.append(t)
    ship_to: list[str] = []
    for t, kind in kinds.items():  # ships, listed after the land units with where they may go
        if kind.at_sea and rules.units_available(s, house, t) > 0:
            ship_to = [a for a in ship_targets(s, house, area) if rules.supply_ok(s, house, {a: _count(s, a) + 1})]
            if ship_to:
                recruit.append(t)
    upgrade = [
        t
        for t, kind in kinds.items()
        if kind.upgrades_from is not None
        and _has(s, house, area, kind.upgrades_from)
        and rules.units_available(s, house, t) > 0
    ]
    if not recruit and not upgrade:
        return None
    return {"points": pts, "recruit": recruit, "ship_to": ship_to, "upgrade": upgrade}


def muster_choices(s: GameState, house: str, only: list[str] | None = None) -> dict[str, Any]:
    areas = {}
    for area in muster_areas(s, house, only):
        opts = area_options(s, house, area)
        if opts is not None:
            areas[area] = opts
    return {
        "areas": areas,
        "available": {t: rules.units_available(s, house, t) for t in musterable(s)},
        "supply": s.houses[house].supply,
        "limits": data.supply_limits(s.houses[house].supply),
    }


def apply_plan(g: Game, house: str, plan: Any, allowed: list[str], max_areas: int | None) -> dict[str, list[Any]]:
    """Validate and carry out a whole plan; returns it normalised. Any error leaves act() to restore the state."""
    s = g.s
    if not isinstance(plan, dict):
        raise RuleError("bad-answer", "A muster plan maps areas to lists of actions.")
    used = {a: acts for a, acts in plan.items() if acts}
    if max_areas is not None and len(used) > max_areas:
        raise RuleError("muster-one-area", f"You may muster in at most {max_areas} area(s).", max=max_areas)
    done: dict[str, list[Any]] = {}
    for area, actions in used.items():
        if area not in allowed:
            raise RuleError("muster-bad-area", f"You cannot muster in {area}.", area=area)
        if not isinstance(actions, list):
            raise RuleError("bad-answer", "Each area's plan must be a list of actions.", area=area)
        left = points(s, area)
        for action in actions:
            if not isinstance(action, dict):
                raise RuleError("bad-answer", "Each action is an object with 'recruit' or 'upgrade'.", area=area)
            if "recruit" in action and "upgrade" not in action:
                left -= _recruit(s, house, area, action, left)
            elif "upgrade" in action and "recruit" not in action and set(action) == {"upgrade"}:
                left -= _upgrade(s, house, area, action["upgrade"], left)
            else:
                raise RuleError("bad-answer", "Each action is {recruit: type[, to]} or {upgrade: type}.", area=area)
        done[area] = [dict(a) for a in actions]
    return done


def _recruit(s: GameState, house: str, area: str, action: dict[str, Any], left: int) -> int:
    t = action["recruit"]
    kind = musterable(s).get(t) if isinstance(t, str) else None
    if kind is None or kind.cost is None:
        known = isinstance(t, str) and t in ruleset(s).unit_types()
        raise RuleError("bad-unit", f"A {t} is never mustered." if known else f"{t!r} is not a unit type.", unit=t)
    if set(action) - {"recruit", "to"} or (not kind.at_sea and "to" in action):
        raise RuleError("bad-answer", "Only a ship takes 'to'; land units stay in the mustering area.", area=area)
    cost = kind.cost
    if cost > left:
        raise RuleError("muster-points", f"{area} has {left} mustering point(s) left; a {t} costs {cost}.", area=area)
    if rules.units_available(s, house, t) <= 0:
        raise RuleError("no-figures", f"You have no {t} left in your supply of figures.", unit=t)
    dest: Any = area
    if kind.at_sea:
        dest = action.get("to")
        if dest not in ship_targets(s, house, area):
            raise RuleError(
                "ship-bad-area",
                f"A ship from {area} cannot be placed in {dest}.",
                area=area,
                to=dest,
                options=ship_targets(s, house, area),
            )
    if not rules.supply_ok(s, house, {dest: _count(s, dest) + 1}):
        raise RuleError("supply-exceeded", f"A {t} in {dest} would break your supply limits.", area=dest, unit=t)
    s.units.setdefault(dest, []).append(Unit(house, t))
    return cost


def _upgrade(s: GameState, house: str, area: str, t: Any, left: int) -> int:
    kind = musterable(s).get(t) if isinstance(t, str) else None
    if kind is None or kind.upgrades_from is None:
        raise RuleError("bad-unit", "A footman is upgraded to a knight or a siege engine.", unit=t)
    if left < UPGRADE_COST:
        raise RuleError("muster-points", f"{area} has no mustering point left.", area=area)
    if rules.units_available(s, house, t) <= 0:
        raise RuleError("no-figures", f"You have no {t} left in your supply of figures.", unit=t)
    units = s.units.get(area, [])
    footmen = sorted((u for u in units if u.house == house and u.type == kind.upgrades_from), key=lambda u: u.routed)
    if not footmen:
        raise RuleError("no-footman", f"There is no {kind.upgrades_from} of yours in {area} to upgrade.", area=area)
    old = footmen[0]
    units[units.index(old)] = Unit(house, t, old.routed)
    return UPGRADE_COST


@register
class Muster(Step):
    type = "muster"

    def _only(self, f: Frame, house: str) -> list[str] | None:
        areas = f.get("areas")
        if areas is None or house not in areas:
            return None
        return list(areas[house])

    def _current(self, g: Game, f: Frame) -> str | None:
        """The first house, in the frame's order, that has not mustered and could muster somewhere."""
        s = g.s
        done = f.get("done", [])
        for house in f["houses"]:
            if house in done:
                continue
            if any(area_options(s, house, a) is not None for a in muster_areas(s, house, self._only(f, house))):
                return str(house)
        return None

    def asks(self, g: Game, f: Frame) -> bool:
        return self._current(g, f) is not None

    def awaiting(self, g: Game, f: Frame) -> list[str]:
        house = self._current(g, f)
        return [house] if house is not None else []

    def prompt_for(self, g: Game, f: Frame, house: str) -> Prompt | None:
        return next(iter(self.prompts(g, f)), None) if house == self._current(g, f) else None

    def prompt_ids(self, g: Game, f: Frame) -> list[str]:
        house = self._current(g, f)
        return [prompt_id(f, PromptKind.MUSTER, house)] if house is not None else []

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        house = self._current(g, f)
        if house is None:
            return []
        choices = muster_choices(g.s, house, self._only(f, house))
        if f.get("max_areas") is not None:
            choices["max_areas"] = f["max_areas"]
        return [
            Prompt(
                id=prompt_id(f, PromptKind.MUSTER, house),
                house=house,
                kind=PromptKind.MUSTER,
                choices=choices,
                default={},
                info={"reason": f.get("reason", "mustering")},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        assert self._current(g, f) == house
        allowed = muster_areas(g.s, house, self._only(f, house))
        plan = apply_plan(g, house, answer, allowed, f.get("max_areas"))
        f.setdefault("done", []).append(house)
        g.emit("mustered", house=house, plan=plan)

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
