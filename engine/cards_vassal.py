"""The vassal deck's six texts (Mother of Dragons, M-VASSAL-22/24; card facts in
data/mother-of-dragons/vassal_cards.json; Janos Slynt has none).

Only a vassal ever plays these cards (it draws three from the deck for each of its combats), so "this vassal" is the
house that played the card. Each text acts in the timing windows of the base game's cards (``engine.abilities``);
a decision goes to the house whose decision it is (a vassal's prompts name the vassal, and its liege answers them).
Rules decisions where the texts leave room are written next to each card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.abilities import AFTER, CANCEL, IMMEDIATELY, Ability, register
from engine.board_ops import destroy_units, place_units
from engine.cards import KnightInAnArea, ask, push_ability
from engine.combat.frame import CombatFrame, house_of, other, won
from engine.combat.strength import combat_units
from engine.errors import RuleError
from engine.flow import Frame, expect_choice
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, Unit
from engine.steps.wildlings import move_on_track

if TYPE_CHECKING:
    from engine.game import Game


@register
class Varys(Ability):
    """After combat, won or lost: the vassal moves to space 1 of the Fiefdoms track and every house that stood
    ahead of it moves down one. The Blade follows space 1 as dominance does, but a vassal never holds it: the
    highest player on the track does (``rules.holder``), in the Blade's current face-up/down state."""

    card = "vassal-varys"
    window = AFTER

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return rules.position(g.s, "fiefdoms", house_of(f, side)) > 0

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        move_on_track(g, "fiefdoms", house_of(f, side), 0, self.card)


@register
class SyrioForel(Ability):
    """While the vassal defends, every footman of a house that is no vassal counts 0 in this combat, on both sides,
    fighting or supporting (the liege's footmen supporting the vassal too). Applied after every other unit modifier
    (Ser Kevan's footmen of 2 count 0 as well)."""

    card = "vassal-syrio-forel"
    order = 10

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        if side == "defender" and unit.type == "footman" and not rules.is_vassal(s, unit.house):
            return 0
        return value


@register
class JaqenHGhar(Ability):
    """Cancel: the opponent's card goes back to its hand, then one card of that hand, drawn at random with the
    game's seeded generator (the cancelled card among them), is revealed as the opponent's card and acts normally.
    Against a vassal the draw is from its three-card hand. A text that already acted (a Tyrion who acted first and
    is drawn again) does not act twice."""

    card = "vassal-jaqen-h-ghar"
    window = CANCEL

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return f["cards"][other(side)] is not None

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        s = g.s
        opp_side = other(side)
        opponent = house_of(f, opp_side)
        cancelled = f["cards"][opp_side]
        assert cancelled is not None
        hs = s.houses[opponent]
        hs.hand.append(cancelled)
        f["cards"][opp_side] = None
        f["cancelled"].append(cancelled)
        g.emit("house-card-cancelled", house=opponent, card=cancelled, by=house_of(f, side))
        drawn = g.rng.choice(sorted(hs.hand))
        hs.hand.remove(drawn)
        f["cards"][opp_side] = drawn
        g.emit("house-card-revealed", area=f["area"], house=opponent, side=opp_side, card=drawn)


@register
class JonConnington(KnightInAnArea):
    """If the vassal loses, after combat its liege may muster one Knight of the vassal in the area it retreated to or
    in its home area (optional; needs a Knight in the vassal's reserve, an area on land the vassal controls, and
    room in its supply there).

    The area retreated to: a beaten attacker's origin, if any attacker survived; the area a beaten defender retreated
    to. A vassal that lost a sea battle has no land to retreat to: only its home.
    """

    card = "vassal-jon-connington"
    window = AFTER
    kind = PromptKind.CONNINGTON_KNIGHT
    on_win = False

    def _retreat_areas(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        house = house_of(f, side)
        if side == "attacker":
            return [f["origin"]] if f["units"] else []  # the attackers left after casualties went back there
        retreated = f["retreated_to"]
        return (
            [retreated] if retreated is not None and any(u.house == house for u in s.units.get(retreated, [])) else []
        )

    def options(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        house = house_of(f, side)
        board = rules.board(s)
        out: list[str] = []
        for a in [*self._retreat_areas(s, f, side), rules.home(s, house)]:
            if a in out or not board.areas[a].is_land or rules.controller(s, a) != house:
                continue
            if rules.supply_ok(s, house, {a: len(s.units.get(a, [])) + 1}):
                out.append(a)
        return out

    def prompt_info(self, g: Game, af: Frame, cf: CombatFrame) -> dict[str, Any]:
        return {"home": rules.home(g.s, af["house"])}

    def place(self, g: Game, af: Frame, cf: CombatFrame, house: str, area: str) -> None:
        place_units(g.s, area, [Unit(house, "knight")])
        g.emit("mustered", house=house, plan={area: [{"recruit": "knight"}]})


@register
class BericDondarrion(Ability):
    """If the vassal wins, after casualties one of its own units that fought in this combat is destroyed (mandatory).

    It acts after combat, the first moment after the casualties (and Tides skulls) the windows offer; by then a
    winning attacker stands in the embattled area, and one held out (Arianne Martell) still in its origin, so the
    unit is always one that fought, never another of the vassal's units in the March order's area. The liege picks
    the type when several types are left; of that type a routed unit goes first."""

    card = "vassal-beric-dondarrion"
    window = AFTER

    def _where(self, f: CombatFrame, side: str) -> str:
        return f["origin"] if side == "attacker" and not f["moved_in"] else f["area"]

    def fighters(self, s: GameState, f: CombatFrame, side: str) -> list[Unit]:
        if side == "attacker" and not f["moved_in"]:
            return combat_units(s, f, side)
        return [u for u in s.units.get(f["area"], []) if u.house == house_of(f, side)]

    def types(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        present = {u.type for u in self.fighters(s, f, side)}
        return sorted(present, key=lambda t: (rules.weakness(s, t), t))

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return won(f, side) and bool(self.fighters(g.s, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        types = self.types(g.s, f, side)
        if len(types) == 1:
            self._destroy(g, f, side, types[0])
            return
        push_ability(g, f, side, self.card, types=types)

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        types = af["types"]
        where = self._where(cf, af["side"])
        return ask(af, PromptKind.BERIC_UNIT, af["house"], types, types[0], area=cf["area"], units_in=where)

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, af["types"], "unit to destroy")
        af["done"] = True
        self._destroy(g, cf, af["side"], answer)

    def _destroy(self, g: Game, f: CombatFrame, side: str, unit_type: str) -> None:
        s = g.s
        victim = sorted((u for u in self.fighters(s, f, side) if u.type == unit_type), key=lambda u: not u.routed)[0]
        if side == "attacker" and not f["moved_in"]:
            f["units"].remove(unit_type)
        destroy_units(g, self._where(f, side), [victim], self.card)


PAID = "paid:"  # marks in the combat's ``resolved`` list a card whose strength its opponent bought off
BRONN_COST = 2


@register
class Bronn(Ability):
    """After the reveal ("immediately"), the opponent may discard 2 of its available Power to make Bronn's strength
    0 (his printed 4; applied after every other card modifier). A vassal has no Power, and its liege cannot pay for
    it: against a vassal nothing is asked."""

    card = "vassal-bronn"
    window = IMMEDIATELY
    order = 10

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        s = g.s
        opponent = house_of(f, other(side))
        return not rules.is_vassal(s, opponent) and s.houses[opponent].power >= BRONN_COST

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, opponent=house_of(f, other(side)))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        opponent = af["opponent"]
        power = g.s.houses[opponent].power
        return ask(
            af,
            PromptKind.BRONN_PAY,
            opponent,
            ["pay", "decline"],
            "decline",
            area=cf["area"],
            owner=af["house"],
            power=power,
        )

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, ["pay", "decline"], "answer to Bronn")
        af["done"] = True
        if answer == "decline":
            g.emit("ability-declined", house=house, card=self.card)
            return
        if g.s.houses[house].power < BRONN_COST:
            raise RuleError("not-enough-power", "Bronn's strength costs two Power tokens.", cost=BRONN_COST)
        rules.lose_power(g.s, house, BRONN_COST)
        cf["resolved"].append(PAID + self.card)
        g.emit(
            "card-strength-zeroed", area=cf["area"], house=house, card=self.card, owner=af["house"], power=BRONN_COST
        )

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        if side == target_side and PAID + self.card in f["resolved"]:
            return 0
        return value
