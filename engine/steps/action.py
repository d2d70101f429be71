"""The Action phase: raids, marches, consolidate power, clean-up (B-ACT-*, B-RAID-*, B-MARCH-*, B-CP-*, B-CLEAN-*)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.board_ops import (
    destroy_units,
    enforce_ports,
    place_units,
    remove_orphaned_orders,
    remove_power_token,
    take_units,
)
from engine.combat.strength import potential_support
from engine.errors import RuleError
from engine.flow import Ask, Frame, Question, Step, expect_choice, expect_dict, prompt_id, register
from engine.orders import acts_as, token
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, Unit
from engine.steps.combat import start_combat
from engine.steps.iron_bank import resolve_iron_bank_order
from engine.steps.mustering import points as muster_points

if TYPE_CHECKING:
    from engine.game import Game

STAGES = ("raid", "march", "consolidate", "cleanup")


def orders_of(s: GameState, house: str, order_type: str | tuple[str, ...], skip: list[str] | None = None) -> list[str]:
    """The house's areas holding an order that works as ``order_type`` (or as one of several, listed in that
    order), but those in ``skip``."""
    types = (order_type,) if isinstance(order_type, str) else order_type
    return [
        a
        for t in types
        for a in sorted(
            a
            for a, o in s.orders.items()
            if o.house == house and acts_as(o.token, t) and (skip is None or a not in skip)
        )
    ]


def next_house(
    s: GameState, order_type: str | tuple[str, ...], last: str | None, skip: list[str] | None = None
) -> str | None:
    """In turn order, the next house after ``last`` that still has an order of this type (B-RAID-01, B-MARCH-01)."""
    order = rules.turn_order(s)
    start = (order.index(last) + 1) if last in order else 0
    for i in range(len(order)):
        house = order[(start + i) % len(order)]
        if orders_of(s, house, order_type, skip):
            return house
    return None


def stays_as_support(s: GameState, area: str) -> bool:
    """A vassal's Raid/Support token: its liege may leave it as a Support order instead of raiding (M-VASSAL-14)."""
    return "support" in token(s.orders[area].token).also


# ----- raids -----


def raid_targets(s: GameState, house: str, origin: str) -> list[str]:
    """Adjacent enemy orders this raid may remove (B-RAID-02..13, B-PORT-08)."""
    board = rules.board(s)
    here = board.areas[origin]
    special = token(s.orders[origin].token).star
    out = []
    for n in sorted(board.neighbours[origin]):
        order = s.orders.get(n)
        if order is None or order.house == house:
            continue
        there = board.areas[n]
        if here.is_land and not there.is_land:
            continue  # a land raid never reaches a sea or a port (B-RAID-04)
        if here.is_port and not there.is_sea:
            continue  # ships in a port raid only their sea (B-RAID-10)
        if there.is_port and there.port_sea != origin:
            continue  # a port is raided only from its own sea
        kind = token(order.token).type
        if kind in ("support", "raid", "consolidate", "iron-bank") or (kind == "defense" and special):
            out.append(n)  # M-SEAORD-04: the Iron Bank order may be raided (it is no pillage)
    return out


@register
class Action(Step):
    type = "action"

    def _current(self, g: Game, f: Frame) -> str | None:
        stage = f["stage"]
        if stage not in ("raid", "march"):
            return None
        return next_house(g.s, stage, f["last"], f.get("kept"))

    def prompt_for(self, g: Game, f: Frame, house: str) -> Prompt | None:
        return next(iter(self.prompts(g, f)), None) if house == self._current(g, f) else None

    def asks(self, g: Game, f: Frame) -> bool:
        return self._current(g, f) is not None

    def awaiting(self, g: Game, f: Frame) -> list[str]:
        house = self._current(g, f)
        return [house] if house is not None else []

    @staticmethod
    def _prompt_id(f: Frame, house: str) -> str:
        """The raid's or march's prompt id: each turn of the stage is a decision of its own."""
        return prompt_id(f, f"{f['stage']}{f.get('turns', 0)}", house)

    def prompt_ids(self, g: Game, f: Frame) -> list[str]:
        house = self._current(g, f)
        return [self._prompt_id(f, house)] if house is not None else []

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        s = g.s
        house = self._current(g, f)
        if house is None:
            return []
        if f["stage"] == "raid":
            areas = orders_of(s, house, "raid", f.get("kept"))
            choices = {a: raid_targets(s, house, a) for a in areas}
            first = next(iter(choices))
            return [
                Prompt(
                    id=self._prompt_id(f, house),
                    house=house,
                    kind=PromptKind.RAID,
                    choices=choices,
                    default={"from": first, "target": None},
                    info={"stays_as_support": [a for a in areas if stays_as_support(s, a)]},
                )
            ]
        choices_m = {a: march_options(s, house, a) for a in orders_of(s, house, "march")}
        first = next(iter(choices_m))
        return [
            Prompt(
                id=self._prompt_id(f, house),
                house=house,
                kind=PromptKind.MARCH,
                choices=choices_m,
                default={"from": first, "moves": [], "leave_power": False},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        f["turns"] = f.get("turns", 0) + 1
        f["last"] = house
        if f["stage"] == "raid":
            resolve_raid(g, house, answer, f.setdefault("kept", []))
        else:
            resolve_march(g, house, answer)

    def advance(self, g: Game, f: Frame) -> None:
        stage = f["stage"]
        if stage in ("raid", "march"):
            # Nobody has an order of this kind left.
            f["stage"] = STAGES[STAGES.index(stage) + 1]
            f["last"] = None
            return
        if stage == "consolidate":
            if resolve_all_consolidate(g, f):
                f["stage"] = "cleanup"
            return
        cleanup(g)
        g.pop(f)


def resolve_raid(g: Game, house: str, answer: Any, kept: list[str]) -> None:
    """One raid; a vassal's Raid/Support given no target stays on the board as a Support order (``kept``)."""
    s = g.s
    a = expect_dict(answer, "from", "target")
    origin = a["from"]
    expect_choice(origin, orders_of(s, house, "raid", kept), "raid area")
    target = a["target"]
    if target is None and stays_as_support(s, origin):
        kept.append(origin)
        g.emit("raid-kept-as-support", house=house, area=origin)
        return
    if target is not None:
        expect_choice(target, raid_targets(s, house, origin), "raid target")
        victim = s.orders[target]
        del s.orders[target]
        g.emit("raid", house=house, area=origin, target=target, victim=victim.house, order=victim.token)
        if token(victim.token).type == "consolidate":
            gained = rules.gain_power(s, house, 1)
            lost = rules.lose_power(s, victim.house, 1)
            g.emit("pillage", house=house, victim=victim.house, gained=gained, lost=lost)
    else:
        g.emit("raid", house=house, area=origin, target=None)
    del s.orders[origin]


# ----- marches -----


def movable_units(s: GameState, house: str, origin: str) -> Counter[str]:
    """Units that may leave: routed units never move (B-MARCH-15)."""
    return Counter(u.type for u in s.units.get(origin, []) if u.house == house and not u.routed)


def is_enemy_target(s: GameState, house: str, area: str) -> bool:
    """Whether entering ``area`` starts a combat: enemy units, an enemy garrison or a neutral force."""
    occ = rules.occupant(s, area)
    if occ is not None and occ != house:
        return True
    if area in s.garrisons and rules.controller(s, area) != house:
        return True
    return area in s.neutral and s.neutral[area] is not None


def march_options(s: GameState, house: str, origin: str) -> dict[str, Any]:
    units = movable_units(s, house, origin)
    return {
        "units": dict(units),
        "destinations": {t: sorted(rules.move_destinations(s, house, origin, t)) for t in units},
        "can_leave_power": can_leave_power(s, house, origin),
    }


def can_leave_power(s: GameState, house: str, origin: str) -> bool:
    a = rules.board(s).areas[origin]
    return a.is_land and s.houses[house].power > 0 and origin not in s.power_tokens and a.home_of != house


def must_mark_vacated(s: GameState, house: str, origin: str) -> bool:
    """M-VASSAL-30: a vassal leaving a land empty marks it with a Power token of its colour from the pool (its
    printed crest already keeps its home)."""
    a = rules.board(s).areas[origin]
    return (
        house in s.vassals
        and a.is_land
        and origin not in s.power_tokens
        and a.home_of != house
        and rules.power_in_pool(s, house) > 0
    )


def _parse_moves(s: GameState, house: str, origin: str, raw: Any) -> list[tuple[str, list[str]]]:
    if not isinstance(raw, list):
        raise RuleError("bad-answer", "moves must be a list of {to, units}.")
    merged: dict[str, list[str]] = {}
    for m in raw:
        m = expect_dict(m, "to", "units")
        if not isinstance(m["to"], str):
            raise RuleError("bad-answer", "Each move needs an area id in 'to'.")
        if not isinstance(m["units"], list) or not all(isinstance(t, str) for t in m["units"]):
            raise RuleError("bad-answer", "units must be a list of unit types.")
        if m["units"]:
            merged.setdefault(m["to"], []).extend(m["units"])
    requested = Counter(t for units in merged.values() for t in units)
    available = movable_units(s, house, origin)
    for t, n in requested.items():
        if n > available.get(t, 0):
            raise RuleError(
                "units-missing", f"You have only {available.get(t, 0)} {t} able to move in {origin}.", unit=t
            )
    return list(merged.items())


def validate_march(s: GameState, house: str, origin: str, moves: list[tuple[str, list[str]]]) -> str | None:
    """Check a whole March order; return the one area where it starts a combat, if any."""
    board = rules.board(s)
    combat: list[str] = []
    overrides: dict[str, int] = {origin: len(s.units.get(origin, [])) - sum(len(u) for _, u in moves)}
    for dest, units in moves:
        if dest == origin:
            raise RuleError("march-same-area", "Units that stay need no move.")
        for t in set(units):
            if dest not in rules.move_destinations(s, house, origin, t):
                if not rules.is_passable(s, dest):
                    raise RuleError("area-impassable", f"{dest} cannot be entered this game.", area=dest)
                raise RuleError("not-adjacent", f"A {t} cannot march from {origin} to {dest}.", to=dest, unit=t)
        if is_enemy_target(s, house, dest):
            combat.append(dest)
            overrides[dest] = len(units)
        else:
            overrides[dest] = len(s.units.get(dest, [])) + len(units)
        if board.areas[dest].is_port and overrides[dest] > data.setups()["port_capacity"]:
            raise RuleError("port-full", "A port holds at most three ships.", area=dest)
    if len(combat) > 1:
        raise RuleError("two-combats", "One March order can start only one combat.", areas=combat)
    if not rules.supply_ok(s, house, overrides):
        raise RuleError("supply-exceeded", "That march would break your supply limits.")
    return combat[0] if combat else None


def resolve_march(g: Game, house: str, answer: Any) -> None:
    s = g.s
    a = expect_dict(answer, "from", "moves")
    origin = a["from"]
    expect_choice(origin, orders_of(s, house, "march"), "march area")
    leave_power = a.get("leave_power", False)
    if not isinstance(leave_power, bool):  # "no" or 0 must not be read as a truth value
        raise RuleError("bad-answer", "leave_power must be true or false.")
    moves = _parse_moves(s, house, origin, a["moves"])
    combat_area = validate_march(s, house, origin, moves)
    moving = sum(len(u) for _, u in moves)
    vacated = moving == len(s.units.get(origin, []))
    if leave_power and not (vacated and can_leave_power(s, house, origin)):
        raise RuleError("cannot-leave-power", "A power token can be left only in a land you leave empty.")
    march_token = s.orders[origin].token
    for dest, units in moves:
        if dest == combat_area:
            continue
        moved = take_units(s, origin, house, units)
        place_units(s, dest, moved)
        if s.power_tokens.get(dest) not in (None, house):
            remove_power_token(g, dest, "taken")
        g.emit("march", house=house, origin=origin, to=dest, units=units)
    if leave_power:
        s.houses[house].power -= 1
        s.power_tokens[origin] = house
        g.emit("power-token-placed", house=house, area=origin)
    elif vacated and must_mark_vacated(s, house, origin):
        s.power_tokens[origin] = house
        g.emit("power-token-placed", house=house, area=origin)
    if combat_area is None:
        del s.orders[origin]
        enforce_ports(g)
        g.check_instant_win()
        return
    attackers = next(units for dest, units in moves if dest == combat_area)
    if combat_area in s.neutral:
        # The units moved elsewhere have arrived, and may support this attack (1767-1773).
        check_neutral_reachable(s, house, combat_area, attackers, march_token)
    if vacated:
        lose_port_of_emptied_land(g, house, origin)
    start_combat(g, house, origin, combat_area, attackers, march_token)


def lose_port_of_emptied_land(g: Game, house: str, land: str) -> None:
    """A land the march empties is emptied before its combat (1767-1773): unless a power token or the printed
    crest keeps it, its owner's ships in its port are lost at once, whatever the battle's outcome (B-PORT-10).
    The attacking units still stand there until the combat is decided, so this is not left to enforce_ports."""
    s = g.s
    port = rules.board(g.s).areas[land].port
    ships = s.units.get(port, []) if port is not None else []
    if port is None or not ships or ships[0].house != house or rules.controller_if_emptied(s, land) == house:
        return
    destroy_units(g, port, list(ships), "port-lost")
    remove_orphaned_orders(g)


def check_neutral_reachable(s: GameState, house: str, area: str, units: list[str], march_token: str) -> None:
    """B-NEUTRAL-02, B-OPEN-01: a march into a neutral force needs a strength that could beat it: its units, its
    bonus and every Support order next to it, counting every unit in the supporting area (1959-1961, 3286-3288)."""
    castle = rules.board(s).areas[area].fortification > 0
    own = sum(rules.unit_strength(s, Unit(house, t), attacking_castle=castle) for t in units)
    best = own + token(march_token).bonus + potential_support(s, area)
    needed = s.neutral[area]
    assert needed is not None
    if best < needed:
        raise RuleError(
            "neutral-too-strong",
            f"The neutral force in {area} has strength {needed}; your attack could reach at most {best}.",
            area=area,
            needed=needed,
            best=best,
        )


# ----- consolidate power -----


def consolidate_gain(s: GameState, house: str, area: str) -> int:
    a = rules.board(s).areas[area]
    if a.is_sea:
        return 0  # B-CP-03
    if a.is_port:
        assert a.port_sea is not None
        enemy = rules.occupant(s, a.port_sea)
        return 0 if enemy not in (None, house) else 1  # B-CP-05
    return 1 + a.crowns  # B-CP-02


def can_muster_here(s: GameState, area: str) -> bool:
    a = rules.board(s).areas[area]
    return a.is_land and a.fortification > 0  # B-CP-06, B-CP-07


# The kinds of order the Consolidate Power step resolves: Consolidate Power (a vassal's Defense/Muster too) and the
# Iron Bank order (M-SEAORD-03). Each house resolves one order per turn, and the house chooses which (B-CP-01,
# 002:1836-1846, 003:505): asked only when it holds both kinds (``consolidate-order``); its default, and the order of
# this tuple, is Consolidate Power first, so Power gained first can pay for a loan.
CONSOLIDATE_STEP = ("consolidate", "iron-bank")


def consolidate_kinds_left(s: GameState, house: str) -> list[str]:
    """The kinds of order (of ``CONSOLIDATE_STEP``) the house still holds, in that order."""
    return [order_type for order_type in CONSOLIDATE_STEP if orders_of(s, house, order_type)]


def resolve_all_consolidate(g: Game, f: Frame) -> bool:
    """Consolidate Power in turn order, one order per house per turn (B-CP-01). Returns True once every order is
    resolved, False when one asks a question: the step goes on with the next house once it is answered.

    A house holding both kinds of order is asked which it resolves now; then only the special order in a castle or
    stronghold (power or muster) and the Iron Bank order (which loan) ask; every other order has a single outcome
    and is applied without asking.
    """
    s = g.s
    while True:
        house = next_house(s, CONSOLIDATE_STEP, f["last"])
        if house is None:
            return True
        f["last"] = house
        if len(consolidate_kinds_left(s, house)) > 1:
            g.push("consolidate-order", house=house)
            return False
        if resolve_consolidate_step_order(g, house, orders_of(s, house, CONSOLIDATE_STEP)[0]):
            return False


def resolve_consolidate_step_order(g: Game, house: str, area: str) -> bool:
    """The house's order in ``area`` is resolved in the Consolidate Power step: True when it pushed a step of its own
    (a question, or mustering) that the Consolidate Power step waits for."""
    s = g.s
    if token(s.orders[area].token).type == "iron-bank":
        return resolve_iron_bank_order(g, house, area)
    if token(s.orders[area].token).type != "consolidate":
        # M-VASSAL-17, -18: a vassal's Defense/Muster musters in its area under the normal rules; the muster
        # step skips a house with nothing legal to muster there.
        del s.orders[area]
        if can_muster_here(s, area):
            g.emit("vassal-muster", house=house, area=area)
            g.push("muster", houses=[house], areas={house: [area]})
            return True
        return False
    special = s.orders[area].token == "consolidate*"
    if special and can_muster_here(s, area):
        del s.orders[area]
        g.push("consolidate-choice", house=house, area=area)
        return True
    apply_consolidate(g, house, area)
    return False


@register
class ConsolidateOrder(Question):
    """A house holding both a Consolidate Power order and an Iron Bank order chooses which kind it resolves on this
    turn (B-CP-01, M-SEAORD-03). Answer ``"consolidate"`` or ``"iron-bank"``; the default, Consolidate Power, lets
    the Power gained pay for a loan, while the loan first may take a card before the houses after it do."""

    type = "consolidate-order"
    kind = PromptKind.CONSOLIDATE_ORDER

    def ask(self, g: Game, f: Frame) -> Ask:
        s, house = g.s, f["house"]
        return Ask(
            choices=consolidate_kinds_left(s, house),
            default=CONSOLIDATE_STEP[0],
            info={
                "consolidate": orders_of(s, house, "consolidate"),
                "iron_bank": orders_of(s, house, "iron-bank"),
                "power": s.houses[house].power,
            },
        )

    def check(self, g: Game, f: Frame, answer: Any) -> str:
        return str(expect_choice(answer, consolidate_kinds_left(g.s, f["house"]), "kind of order to resolve"))

    def apply(self, g: Game, f: Frame, chosen: str) -> None:
        resolve_consolidate_step_order(g, f["house"], orders_of(g.s, f["house"], chosen)[0])


def apply_consolidate(g: Game, house: str, area: str) -> None:
    s = g.s
    s.orders.pop(area, None)
    gained = rules.gain_power(s, house, consolidate_gain(s, house, area))
    g.emit("consolidate", house=house, area=area, gained=gained)


@register
class ConsolidateChoice(Step):
    """The special Consolidate Power order in a castle or stronghold: gain power or muster (B-CP-06)."""

    type = "consolidate-choice"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if f.get("chosen"):
            return []
        return [
            Prompt(
                id=prompt_id(f, PromptKind.CONSOLIDATE, f["house"]),
                house=f["house"],
                kind=PromptKind.CONSOLIDATE,
                choices=["power", "muster"],
                default="power",
                info={
                    "area": f["area"],
                    "power": consolidate_gain(g.s, f["house"], f["area"]),
                    "points": muster_points(g.s, f["area"]),  # as the area stands developed (M-DEV-01)
                },
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        choice = expect_choice(answer, ["power", "muster"], "use of the special Consolidate Power order")
        f["chosen"] = choice

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
        if f["chosen"] == "power":
            apply_consolidate(g, f["house"], f["area"])
        else:
            g.emit("consolidate-muster", house=f["house"], area=f["area"])
            g.push("muster", houses=[f["house"]], areas={f["house"]: [f["area"]]})


# ----- clean-up -----


def cleanup(g: Game) -> None:
    """B-CLEAN-01..03: remove leftover orders, turn the Blade and Raven face up, rally routed units."""
    s = g.s
    s.orders.clear()
    s.orders_revealed = False
    s.blade_used = False
    s.raven_used = False
    for units in s.units.values():
        for u in units:
            u.routed = False
    for hs in s.houses.values():
        hs.raven_peek = None
    g.emit("action-cleanup")
