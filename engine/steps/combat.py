"""Combat as explicit steps (B-COMBAT-*, B-SUPPORT-*, B-CAS-*, B-RETREAT-*, B-GARR-*, B-NEUTRAL-*).

Stages, in order: support -> (neutral: resolve) -> cards -> reveal -> tides -> blade -> resolve -> victor ->
casualties -> retreat -> cleanup -> (port) -> after. Each stage is a state of one ``combat`` frame; house-card
abilities hook into the stages through ``engine.abilities`` and may push frames of their own (``engine.cards``):

* ``reveal``: the cards' "cancel" abilities, then their "immediately" abilities, in turn order (B-HCARD-04/05);
* ``tides``: with Tides of Battle, each combatant draws a card (the deck was reshuffled before ``cards``);
* ``blade``: the Valyrian Steel Blade's holder, if fighting: +1, or (Tides) a redraw, or nothing (B-TIDES-03/04);
* ``victor``: after the victor is known, the "if you win / lose" abilities in turn order;
* ``after``: once both cards are discarded, the "after combat" abilities (Patchface, Roose Bolton).

The attacking units stay in the area they marched from until the combat is decided, so an area never
holds two houses' units: a winning attacker moves in at clean-up, a losing one is routed where it stands.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

from engine import abilities, data, rules
from engine.board_ops import (
    WEAKEST_FIRST,
    destroy_units,
    enforce_ports,
    pick_weakest,
    place_units,
    remove_power_token,
    take_units,
)
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, prompt_id, register
from engine.orders import token
from engine.prompts import Prompt
from engine.state import GameState, PlacedOrder, Unit

if TYPE_CHECKING:
    from engine.game import Game

SIDES = ("attacker", "defender")


def start_combat(g: Game, house: str, origin: str, area: str, units: list[str], march_token: str) -> None:
    s = g.s
    if area in s.neutral:
        defender = "neutral"
    else:
        defender = rules.occupant(s, area) or rules.controller(s, area) or "neutral"
    g.emit("combat-started", attacker=house, defender=defender, area=area, origin=origin, units=units)
    g.push(
        "combat",
        area=area,
        origin=origin,
        attacker=house,
        defender=defender,
        units=list(units),
        march=march_token,
        stage="support",
        supports={},
        asked=[],
        cards={"attacker": None, "defender": None},
        chosen={},
        blade=None,
        tides={"attacker": None, "defender": None},
        winner=None,
        resolved=[],
        cancelled=[],
    )


# ----- who may support -----


def support_areas(s: GameState, area: str, *, exclude_house: str | None = None) -> dict[str, str]:
    """Areas next to ``area`` whose Support order can help there: area -> owner (B-SUPPORT-01, -09, -13, -16, -17)."""
    board = data.board()
    embattled = board.areas[area]
    out: dict[str, str] = {}
    for n in sorted(board.neighbours[area]):
        order = s.orders.get(n)
        if order is None or token(order.token).type != "support" or order.house == exclude_house:
            continue
        here = board.areas[n]
        if embattled.is_sea and here.is_land:
            continue  # land units never support a sea combat
        if here.is_port and n != embattled.port and embattled.id != here.port_sea:
            continue  # ships in a port support only in their own sea
        if here.is_port and embattled.is_land:
            continue
        if not any(not u.routed for u in s.units.get(n, [])):
            continue
        out[n] = order.house
    return out


def offered_support(s: GameState, f: Frame) -> dict[str, dict[str, Any]]:
    """Support declared for a combatant by other houses, which that combatant may refuse (B-SUPPORT-08)."""
    owners = support_areas(s, f["area"])
    out: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        house = f[side]
        if house == "neutral":
            continue
        areas = sorted(
            a for a, chosen in f["supports"].items() if chosen == side and owners.get(a) not in (None, house)
        )
        if areas:
            out[house] = {"side": side, "areas": areas, "supporters": {a: owners[a] for a in areas}}
    return out


def support_strength(s: GameState, area: str, embattled: str, *, for_attacker: bool) -> int:
    castle = data.board().areas[embattled].fortification > 0
    units = s.units.get(area, [])
    total = sum(rules.unit_strength(u, attacking_castle=castle and for_attacker) for u in units)
    return total + token(s.orders[area].token).bonus


def potential_support(s: GameState, house: str, area: str) -> int:
    """The most support an attack on a neutral force could receive (every adjacent Support order helping)."""
    return sum(support_strength(s, a, area, for_attacker=True) for a in support_areas(s, area))


def support_sides(f: Frame, house: str) -> list[str]:
    """No house supports an opponent against itself; nobody supports a neutral force (B-SUPPORT-12, B-NEUTRAL-06)."""
    if house == f["attacker"]:
        return ["attacker", "none"]
    if house == f["defender"]:
        return ["defender", "none"]
    if f["defender"] == "neutral":
        return ["attacker", "none"]
    return ["attacker", "defender", "none"]


# ----- strength -----


def side_house(f: Frame, side: str) -> str:
    house: str = f[side]
    return house


def combat_units(s: GameState, f: Frame, side: str) -> list[Unit]:
    """The units fighting for a side in the embattled area (attackers still stand in their origin)."""
    if side == "attacker":
        pool = list(s.units.get(f["origin"], []))
        chosen: list[Unit] = []
        for t in f["units"]:
            for u in pool:
                if u.type == t and u.house == f["attacker"] and not u.routed and all(u is not c for c in chosen):
                    chosen.append(u)
                    break
        return chosen
    if f["defender"] == "neutral":
        return []
    return [u for u in s.units.get(f["area"], []) if u.house == f["defender"]]


def supporting_areas(s: GameState, f: Frame, side: str) -> list[str]:
    """The areas whose Support order still helps ``side`` (declared, not refused, and not removed since)."""
    out = []
    for a, chosen in sorted(f["supports"].items()):
        order = s.orders.get(a)
        if chosen == side and order is not None and token(order.token).type == "support":
            out.append(a)
    return out


def base_strength(s: GameState, f: Frame, side: str) -> dict[str, int]:
    """Initial strength by source (B-COMBAT-06); card, blade and tides come later.

    Every unit's strength, fighting or supporting, passes through the card abilities (Kevan, Victarion, Salladhor).
    """
    area = f["area"]
    castle = data.board().areas[area].fortification > 0
    attacking_castle = castle and side == "attacker"
    parts: dict[str, int] = {}
    units = combat_units(s, f, side)
    parts["units"] = sum(
        abilities.unit_strength(
            s, f, side, u, rules.unit_strength(u, attacking_castle=attacking_castle), supporting=False
        )
        for u in units
    )
    support = 0
    for a in supporting_areas(s, f, side):
        for u in s.units.get(a, []):
            value = rules.unit_strength(u, attacking_castle=attacking_castle)
            support += abilities.unit_strength(s, f, side, u, value, supporting=True)
        support += token(s.orders[a].token).bonus
    parts["support"] = support
    if side == "attacker":
        parts["march"] = token(f["march"]).bonus
    else:
        order = s.orders.get(area)
        if order is not None and order.house == f["defender"] and token(order.token).type == "defense":
            parts["defense"] = abilities.defense_bonus(s, f, token(order.token).bonus)
        if area in s.garrisons and f["defender"] != "neutral":
            parts["garrison"] = s.garrisons[area]
        if f["defender"] == "neutral":
            parts["neutral"] = s.neutral[area] or 0
    return parts


def card_of(f: Frame, side: str) -> data.HouseCard | None:
    card_id = f["cards"][side]
    return data.house_cards()[card_id] if card_id else None


def total_strength(s: GameState, f: Frame, side: str, *, hide_tides: bool = False) -> dict[str, int]:
    """Final strength by source (B-COMBAT-10). ``hide_tides``: leave out Tides cards not yet revealed."""
    parts = base_strength(s, f, side)
    card = card_of(f, side)
    if card is not None:
        parts["card"] = abilities.card_strength(s, f, side, card)
    if f["blade"] == side_house(f, side):
        parts["blade"] = 1
    tides = f["tides"][side]
    if tides and not (hide_tides and f.get("tides_secret")):
        parts["tides"] = data.tides_cards()[tides]["value"]
    parts["total"] = sum(parts.values())
    return parts


def icons(s: GameState, f: Frame, side: str) -> tuple[int, int, int]:
    """Swords, fortifications and skulls on a side's card(s) (B-HCARD-08/09, B-TIDES-06/07)."""
    card = card_of(f, side)
    swords, forts = abilities.card_icons(s, f, side, card) if card else (0, 0)
    skulls = 0
    tides = f["tides"][side]
    if tides:
        t = data.tides_cards()[tides]
        swords += t["swords"]
        forts += t["fortifications"]
        skulls += t["skulls"]
    return swords, forts, skulls


def destroy_fighting(g: Game, f: Frame, side: str, victims: list[Unit], reason: str = "casualties") -> None:
    """Destroy some of a side's fighting units (attackers stand in their origin until the combat is decided)."""
    if not victims:
        return
    area = f["origin"] if side == "attacker" else f["area"]
    if side == "attacker":
        for v in victims:
            f["units"].remove(v.type)
    destroy_units(g, area, victims, reason)


def blade_holder(s: GameState, f: Frame) -> str | None:
    """The house asked about the Valyrian Steel Blade now: its holder at this step, if fighting and the Blade is
    unused (B-COMBAT-09, known edge cases #87 and #1161)."""
    holder = rules.holder(s, "fiefdoms")
    if f.get("blade_asked") or s.blade_used or holder not in (f["attacker"], f["defender"]):
        return None
    return holder


def can_redraw(f: Frame) -> bool:
    """B-TIDES-03: the Tides cards are drawn but not yet revealed, so the Blade may buy a redraw."""
    return bool(f.get("tides_secret")) and all(f["tides"][side] for side in SIDES)


def stable_pick(s: GameState, f: Frame, house: str, options: list[str]) -> str:
    """A seeded, replayable 'random' choice that does not consume the game's RNG (used for defaults)."""
    digest = zlib.crc32(f"{s.seed}:{f['id']}:{house}".encode())
    return options[digest % len(options)]


@register
class Combat(Step):
    type = "combat"

    # ----- questions -----

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        s = g.s
        stage = f["stage"]
        if stage == "support":
            house = self._next_supporter(s, f)
            if house is None:
                return self._refusal_prompts(f)
            areas = [a for a, h in support_areas(s, f["area"]).items() if h == house]
            return [
                Prompt(
                    id=prompt_id(f, "support", house),
                    house=house,
                    kind="support",
                    # One side for all of the house's adjacent Support orders, or {area: side} per order (B-SUPPORT-02).
                    choices=support_sides(f, house),
                    default="none",
                    info={"area": f["area"], "from": areas, "attacker": f["attacker"], "defender": f["defender"]},
                )
            ]
        if stage == "cards":
            out = []
            for side in SIDES:
                house = side_house(f, side)
                hand = s.houses[house].hand
                if not hand:
                    continue
                out.append(
                    Prompt(
                        id=prompt_id(f, "house-card", house),
                        house=house,
                        kind="house-card",
                        choices=sorted(hand),
                        default=stable_pick(s, f, house, sorted(hand)),
                        info={"area": f["area"], "side": side, "opponent": side_house(f, _other(side))},
                        answered=side in f["chosen"],
                        secret=True,
                    )
                )
            if all(p.answered for p in out):
                return []
            return out
        if stage == "blade":
            holder = blade_holder(s, f)
            if holder is None:
                return []
            info: dict[str, Any] = {
                "strength": {side: total_strength(s, f, side, hide_tides=True)["total"] for side in SIDES}
            }
            choices: list[Any] = [True, False]
            if can_redraw(f):
                # B-TIDES-03/04: in a Tides game the Blade gives +1 or a redraw, decided before the Tides reveal.
                choices.append("redraw")
                side = "attacker" if holder == f["attacker"] else "defender"
                info["tides"] = f["tides"][side]
            return [
                Prompt(
                    id=prompt_id(f, "blade", holder),
                    house=holder,
                    kind="blade",
                    choices=choices,
                    default=False,
                    info=info,
                )
            ]
        if stage == "casualties":
            pending = f.get("casualty_choice")
            if not pending:
                return []
            return [
                Prompt(
                    id=prompt_id(f, "casualties", pending["house"]),
                    house=pending["house"],
                    kind="casualties",
                    choices={"units": pending["units"], "count": pending["count"]},
                    default=pending["default"],
                    info={"area": f["area"]},
                )
            ]
        if stage == "port":
            choice = f["port_choice"]
            if "replace" in choice:
                return []
            return [
                Prompt(
                    id=prompt_id(f, "port-capture", choice["house"]),
                    house=choice["house"],
                    kind="port-capture",
                    choices=list(range(choice["max"] + 1)),
                    default=choice["max"],
                    info={"area": f["area"], "port": choice["port"], "enemy_ships": choice["ships"]},
                )
            ]
        if stage == "retreat":
            pending = f.get("retreat_choice")
            if not pending:
                return []
            return [
                Prompt(
                    id=prompt_id(f, "retreat", pending["chooser"]),
                    house=pending["chooser"],
                    kind="retreat",
                    choices=pending["areas"],
                    default=pending["areas"][0],
                    info={"area": f["area"], "loser": pending["house"]},
                )
            ]
        return []

    def _next_supporter(self, s: GameState, f: Frame) -> str | None:
        owners = set(support_areas(s, f["area"]).values())
        for house in rules.turn_order(s):
            if house in owners and house not in f["asked"]:
                return house
        return None

    def _refusal_prompts(self, f: Frame) -> list[Prompt]:
        """B-SUPPORT-08: a combatant may refuse support another house declared for it.

        Asked per supporting area ("accept" or "refuse"), both combatants at once, once all supporters declared.
        """
        out = []
        for house, offer in sorted(f.get("refusals", {}).items()):
            area = self._next_offer(f, house)
            if area is None:
                continue
            out.append(
                Prompt(
                    id=prompt_id(f, f"support-refusal-{area}", house),
                    house=house,
                    kind="support-refusal",
                    choices=["accept", "refuse"],
                    default="accept",
                    info={
                        "area": f["area"],
                        "side": offer["side"],
                        "from": area,
                        "supporter": offer["supporters"][area],
                    },
                )
            )
        return out

    def _next_offer(self, f: Frame, house: str) -> str | None:
        decided = f["refused_by"].get(house, {})
        for area in f["refusals"][house]["areas"]:
            if area not in decided:
                return str(area)
        return None

    def _answer_support(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        s = g.s
        sides = support_sides(f, house)
        areas = [a for a, h in support_areas(s, f["area"]).items() if h == house]
        if isinstance(answer, dict):
            # B-SUPPORT-02: each Support order's owner chooses per order; areas left out support nobody.
            unknown = sorted(str(a) for a in answer if a not in areas)
            if unknown:
                raise RuleError(
                    "support-bad-area", f"You have no Support order next to {f['area']} in {', '.join(unknown)}."
                )
            chosen = {a: expect_choice(answer.get(a, "none"), sides, "side to support") for a in areas}
        else:
            side = expect_choice(answer, sides, "side to support")
            chosen = {a: side for a in areas}
        f["asked"].append(house)
        for a, side in chosen.items():
            f["supports"][a] = side
            g.emit("support-declared", house=house, side=side, area=f["area"], origin=a)

    def _answer_refusal(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        offer = f["refusals"][house]
        area = self._next_offer(f, house)
        assert area is not None
        choice = expect_choice(answer, ["accept", "refuse"], "answer to the support offered")
        f["refused_by"].setdefault(house, {})[area] = choice
        if choice == "refuse":
            f["supports"][area] = "none"
            g.emit("support-refused", house=house, area=f["area"], origin=area, supporter=offer["supporters"][area])

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        s = g.s
        stage = f["stage"]
        if stage == "support":
            if self._next_supporter(s, f) is not None:
                self._answer_support(g, f, house, answer)
            else:
                self._answer_refusal(g, f, house, answer)
        elif stage == "cards":
            side = "attacker" if house == f["attacker"] else "defender"
            expect_choice(answer, s.houses[house].hand, "house card")
            f["chosen"][side] = answer
            g.emit("house-card-chosen", house=house)
        elif stage == "blade":
            if answer == "redraw" and can_redraw(f):
                f["blade_asked"] = True
                s.blade_used = True
                g.emit("blade-used", house=house, use="redraw")
                abilities.redraw_tides(g, f, "attacker" if house == f["attacker"] else "defender")
                return
            if not isinstance(answer, bool):
                raise RuleError("bad-answer", "Answer true to use the Valyrian Steel Blade, false to keep it.")
            f["blade_asked"] = True
            if answer:
                f["blade"] = house
                s.blade_used = True
                g.emit("blade-used", house=house)
        elif stage == "casualties":
            self._answer_casualties(g, f, house, answer)
        elif stage == "port":
            choice = f["port_choice"]
            if isinstance(answer, bool) or not isinstance(answer, int):
                raise RuleError("bad-answer", "Answer with the number of enemy ships to replace with your own.")
            expect_choice(answer, list(range(choice["max"] + 1)), "number of ships to replace")
            choice["replace"] = answer
        elif stage == "retreat":
            pending = f["retreat_choice"]
            expect_choice(answer, pending["areas"], "retreat area")
            f["retreat_to"] = answer
            f["retreat_choice"] = None
        else:
            raise RuleError("nothing-to-answer", "This combat step takes no answer.")

    # ----- progress -----

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        stage = f["stage"]
        if stage == "support":
            if "refusals" not in f:
                f["refusals"] = offered_support(s, f)
                f["refused_by"] = {}
                if f["refusals"]:
                    return  # B-SUPPORT-08: the combatants may now refuse the support offered to them
            if f["defender"] == "neutral":
                self._resolve_neutral(g, f)
                return
            if s.options.get("tides_of_battle"):
                abilities.reshuffle_tides(g)  # B-TIDES-09: right before the house cards are chosen
            f["stage"] = "cards"
        elif stage == "cards":
            for side in SIDES:
                house = side_house(f, side)
                card = f["chosen"].get(side)
                if card is not None:
                    s.houses[house].hand.remove(card)
                f["cards"][side] = card
            g.emit(
                "house-cards-revealed", area=f["area"], attacker=f["cards"]["attacker"], defender=f["cards"]["defender"]
            )
            f["stage"] = "reveal"
        elif stage == "reveal":
            # B-HCARD-03/04: "cancel" abilities, then "immediately" ones, each window in turn order.
            if abilities.next_trigger(g, f, abilities.REVEAL_WINDOWS):
                return
            f["stage"] = "tides"
            if s.options.get("tides_of_battle"):
                # B-TIDES-02: after the cards are revealed and their abilities have acted.
                holder = rules.holder(s, "fiefdoms")
                secret = not s.blade_used and holder in (f["attacker"], f["defender"])
                abilities.draw_tides(g, f, secret=secret)
        elif stage == "tides":
            f["stage"] = "blade"
        elif stage == "blade":
            abilities.reveal_tides(g, f)  # B-TIDES-05
            f["stage"] = "resolve"
        elif stage == "resolve":
            self._resolve(g, f)
        elif stage == "victor":
            # B-HCARD-04: "if you win / lose" abilities, in turn order, once the victor is known.
            if abilities.next_trigger(g, f, (abilities.VICTOR,)):
                return
            f["stage"] = "casualties"
        elif stage == "casualties":
            self._casualties(g, f)
        elif stage == "retreat":
            self._retreat(g, f)
        elif stage == "cleanup":
            self._cleanup(g, f)
        elif stage == "port":
            self._discard(g, f)
        elif stage == "after":
            # "After combat" abilities, once both cards are in the discard piles.
            if abilities.next_trigger(g, f, (abilities.AFTER,)):
                return
            self._end(g, f)

    def _resolve_neutral(self, g: Game, f: Frame) -> None:
        """B-NEUTRAL-03..08 and B-OPEN-01: compare after supports; a short attack is cancelled."""
        s = g.s
        attack = base_strength(s, f, "attacker")
        strength = sum(attack.values())
        needed = s.neutral[f["area"]] or 0
        won = strength >= needed
        g.emit("neutral-attack", house=f["attacker"], area=f["area"], strength=strength, needed=needed, won=won)
        if won:
            del s.neutral[f["area"]]
            moved = take_units(s, f["origin"], f["attacker"], f["units"])
            place_units(s, f["area"], moved)
        s.orders.pop(f["origin"], None)
        g.pop(f)
        enforce_ports(g)
        g.check_instant_win()

    def _resolve(self, g: Game, f: Frame) -> None:
        s = g.s
        totals = {side: total_strength(s, f, side) for side in SIDES}
        a, d = totals["attacker"]["total"], totals["defender"]["total"]
        if a != d:
            winner = "attacker" if a > d else "defender"
            tie = False
        else:
            fief = s.tracks["fiefdoms"]
            winner = "attacker" if fief.index(f["attacker"]) < fief.index(f["defender"]) else "defender"
            tie = True
        f["winner"] = winner
        f["strength"] = totals
        g.emit(
            "combat-result",
            area=f["area"],
            attacker=f["attacker"],
            defender=f["defender"],
            strength=totals,
            winner=side_house(f, winner),
            tie_broken_by_fiefdoms=tie,
        )
        f["stage"] = "victor"

    # ----- casualties -----

    def _casualties(self, g: Game, f: Frame) -> None:
        s = g.s
        if f.get("casualties_done"):
            if not f.get("winner_skulls_done"):
                # Fix (issue B, B-TIDES-07): skulls on the loser's Tides card cost the winner units too.
                f["winner_skulls_done"] = True
                winner_side = f["winner"]
                _, _, skulls = icons(s, f, _other(winner_side))
                count = abilities.skull_count(s, f, winner_side, skulls)
                if self._take_losses(g, f, winner_side, count):
                    return
            f["stage"] = "retreat"
            return
        loser_side = _other(f["winner"])
        swords, _, _ = icons(s, f, f["winner"])
        _, forts, _ = icons(s, f, loser_side)
        count = max(0, swords - forts)
        count = abilities.casualty_count(s, f, loser_side, count)
        _, _, skulls = icons(s, f, f["winner"])
        count += abilities.skull_count(s, f, loser_side, skulls)
        if self._take_losses(g, f, loser_side, count):
            return
        f["casualties_done"] = True

    def _take_losses(self, g: Game, f: Frame, side: str, count: int) -> bool:
        """Destroy ``count`` of a side's fighting units; return True when the owner must choose which (B-CAS-03)."""
        units = combat_units(g.s, f, side)
        eligible = [u for u in units if not u.routed and u.type != "siege-engine"]
        if count >= len(eligible):
            destroy_fighting(g, f, side, eligible)  # B-OPEN-10: the excess is ignored
        elif count > 0:
            kinds = sorted({u.type for u in eligible})
            if len(kinds) == 1:
                destroy_fighting(g, f, side, eligible[:count])
            else:
                counts = {k: sum(1 for u in eligible if u.type == k) for k in kinds}
                default = [u.type for u in pick_weakest(eligible, count)]
                f["casualty_choice"] = {
                    "house": side_house(f, side),
                    "side": side,
                    "units": counts,
                    "count": count,
                    "default": default,
                }
                return True
        return False

    def _answer_casualties(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        pending = f["casualty_choice"]
        if (
            not isinstance(answer, list)
            or not all(isinstance(t, str) for t in answer)
            or len(answer) != pending["count"]
        ):
            raise RuleError("bad-casualties", f"Choose exactly {pending['count']} units.", count=pending["count"])
        for t in set(answer):
            if answer.count(t) > pending["units"].get(t, 0):
                raise RuleError("bad-casualties", f"You have only {pending['units'].get(t, 0)} {t} there.", unit=t)
        side = pending.get("side", _other(f["winner"]))
        eligible = [u for u in combat_units(g.s, f, side) if not u.routed and u.type != "siege-engine"]
        victims: list[Unit] = []
        for t in answer:
            victims.append(next(u for u in eligible if u.type == t and all(u is not v for v in victims)))
        destroy_fighting(g, f, side, victims)
        f["casualty_choice"] = None
        f["casualties_done"] = True

    # ----- retreat -----

    def _retreat(self, g: Game, f: Frame) -> None:
        s = g.s
        loser_side = _other(f["winner"])
        loser = side_house(f, loser_side)
        if loser_side == "defender" and f["area"] in s.garrisons:
            del s.garrisons[f["area"]]  # B-GARR-05
            g.emit("garrison-removed", area=f["area"], house=loser)
        units = combat_units(s, f, loser_side)
        sieges = [u for u in units if u.type == "siege-engine"]
        if sieges:  # B-CAS-07, B-RETREAT-11
            destroy_fighting(g, f, loser_side, sieges, "siege-cannot-retreat")
            units = [u for u in units if u.type != "siege-engine"]
        if loser_side == "attacker":
            # B-RETREAT-02: back to the area they marched from, where they stand; they are routed.
            # Fix (issue B, B-OPEN-05 / B-RETREAT-06): when the same March order also left units behind and formed
            # armies elsewhere, coming back may break supply; then the retreating units that do not fit are
            # destroyed first (strongest kept), as for a defender whose only retreat breaks supply.
            staying = len(s.units.get(f["origin"], [])) - len(units)
            fit = _fit_supply(s, loser, f["origin"], units, staying=staying)
            lost = [u for u in units if all(u is not k for k in fit)]
            if lost:
                destroy_fighting(g, f, loser_side, lost, "retreat-supply")
            for u in fit:
                u.routed = True
            if fit:
                g.emit("retreat", house=loser, area=f["area"], to=f["origin"], units=[u.type for u in fit])
            f["stage"] = "cleanup"
            return
        routed = [u for u in units if u.routed]
        if routed:  # B-RETREAT-15
            destroy_units(g, f["area"], routed, "routed-again")
            units = [u for u in units if not u.routed]
        if not units:
            f["stage"] = "cleanup"
            return
        if "retreat_to" not in f:
            options = retreat_options(s, f, loser, units)
            if not options:
                destroy_units(g, f["area"], units, "no-retreat")  # B-RETREAT-07
                f["stage"] = "cleanup"
                return
            chooser = abilities.retreat_chooser(s, f, loser)
            if len(options) == 1:
                f["retreat_to"] = options[0]
            else:
                f["retreat_choice"] = {"house": loser, "chooser": chooser, "areas": options}
                return
        dest = f.pop("retreat_to")
        moved = take_units(s, f["area"], loser, [u.type for u in units])
        fit = _fit_supply(s, loser, dest, moved)
        if len(fit) < len(moved):
            # Fix (issue B): ``fit`` is ranked strongest first, so ``moved[len(fit):]`` could name a unit that
            # retreats (the event reported the knight destroyed while the footman vanished).
            lost = [u for u in moved if all(u is not k for k in fit)]
            g.emit(
                "units-destroyed", area=f["area"], house=loser, units=[u.type for u in lost], reason="retreat-supply"
            )
        for u in fit:
            u.routed = True
        place_units(s, dest, fit)
        g.emit("retreat", house=loser, area=f["area"], to=dest, units=[u.type for u in fit])
        f["stage"] = "cleanup"

    # ----- clean-up -----

    def _cleanup(self, g: Game, f: Frame) -> None:
        """B-COMBAT-13/14, B-HCARD-06/07, B-PORT-11, then victory."""
        s = g.s
        area = f["area"]
        attacker, defender = f["attacker"], f["defender"]
        # An attacker with no unit left (Mace Tyrell, skulls) takes nothing; Arianne Martell keeps it out.
        if f["winner"] == "attacker" and not f.get("attacker_stays") and f["units"]:
            order = s.orders.get(area)
            if order is not None and order.house == defender:
                del s.orders[area]
            if s.power_tokens.get(area) not in (None, attacker):
                remove_power_token(g, area, "taken")
            moved = take_units(s, f["origin"], attacker, f["units"])
            place_units(s, area, moved)
            f["moved_in"] = bool(moved)
            # B-PORT-11 (fix, issue B): the conqueror now chooses how many enemy port ships to replace.
            most = port_capture_limit(s, attacker, area)
            if most is not None:
                if most > 0:
                    port = data.board().areas[area].port
                    assert port is not None
                    f["port_choice"] = {"house": attacker, "port": port, "max": most, "ships": len(s.units[port])}
                    f["stage"] = "port"
                    return
                capture_port_ships(g, attacker, area, 0)
        self._discard(g, f)

    def _discard(self, g: Game, f: Frame) -> None:
        """The March order is spent (Ser Loras moves it instead), both cards are discarded (B-HCARD-06/07)."""
        s = g.s
        area = f["area"]
        if f.get("port_choice"):
            capture_port_ships(g, f["attacker"], area, f["port_choice"]["replace"])
        if not f.get("keep_march"):
            s.orders.pop(f["origin"], None)
        if f.get("march_follows") and f.get("moved_in"):
            # Ser Loras Tyrell: the March order moves into the conquered area and may be resolved again.
            s.orders[area] = PlacedOrder(f["attacker"], f["march"])
            g.emit("order-moved", house=f["attacker"], token=f["march"], origin=f["origin"], area=area)
        for side in SIDES:
            card = f["cards"][side]
            if card is None:
                continue
            discard_played_card(g, side_house(f, side), card)
        if s.options.get("tides_of_battle"):
            abilities.return_tides(g, f)
        f["stage"] = "after"

    def _end(self, g: Game, f: Frame) -> None:
        g.emit("combat-ended", area=f["area"], winner=side_house(f, f["winner"]))
        g.pop(f)
        enforce_ports(g)
        g.check_instant_win()


def discard_played_card(g: Game, house: str, card: str) -> None:
    """A card goes to its owner's discard pile; discarding the last card of the hand takes the others back
    (B-HCARD-07): the card just discarded stays as the new discard pile."""
    hs = g.s.houses[house]
    hs.discards.append(card)
    if not hs.hand:
        hs.hand = [c for c in hs.discards if c != card]
        hs.discards = [card]
        g.emit("hand-returned", house=house)


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


def retreat_options(s: GameState, f: Frame, loser: str, units: list[Unit]) -> list[str]:
    """Legal retreat areas, those that keep supply first (B-RETREAT-03..10, B-OPEN-09)."""
    board = data.board()
    area = f["area"]
    ships = units[0].type == "ship"
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
    best = max((len(_fit_supply(s, loser, n, units, origin=area)) for n in legal), default=0)
    return [n for n in legal if len(_fit_supply(s, loser, n, units, origin=area)) == best]


def _fit_supply(
    s: GameState, house: str, dest: str, units: list[Unit], origin: str | None = None, staying: int | None = None
) -> list[Unit]:
    """The largest strongest-first subset of ``units`` that can enter ``dest`` within supply.

    ``staying``: how many units are in ``dest`` besides ``units`` (default: all the units there now).
    """
    ranked = sorted(units, key=lambda u: WEAKEST_FIRST.index(u.type), reverse=True)
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
    port = data.board().areas[land].port
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
    port = data.board().areas[land].port
    assert port is not None
    replace = most if count is None else max(0, min(count, most))
    destroy_units(g, port, list(s.units[port]), "port-taken")
    if replace:
        place_units(s, port, [Unit(winner, "ship") for _ in range(replace)])
        g.emit("port-captured", house=winner, area=port, ships=replace)
