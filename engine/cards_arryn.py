"""House Arryn's seven cards (Mother of Dragons; card facts in data/mother-of-dragons/house_cards.json).

Five have a text, each acting in the timing windows the base game's cards use (``engine.abilities``). Rules
decisions where the texts leave room are written next to each card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.abilities import AFTER, VICTOR, Ability, register
from engine.cards import ask, push_ability
from engine.combat.frame import CombatFrame, house_of, other, won
from engine.combat.strength import supporting_areas
from engine.flow import Frame, expect_choice
from engine.orders import token
from engine.prompts import Prompt, PromptKind
from engine.state import GameState

if TYPE_CHECKING:
    from engine.game import Game


@register
class LysaArryn(Ability):
    """If you won defending an area that holds your Defense order, you may take Lysa back into your hand instead of
    discarding it (asked once the victor is known; the card goes back when the cards are discarded)."""

    card = "lysa-arryn-mod"
    window = VICTOR

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        order = g.s.orders.get(f["area"])
        return (
            side == "defender"
            and won(f, side)
            and order is not None
            and order.house == house_of(f, side)
            and token(order.token).type == "defense"
        )

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card)

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        return ask(af, PromptKind.LYSA_KEEP, af["house"], ["keep", "discard"], "keep", area=cf["area"])

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, ["keep", "discard"], "answer to Lysa Arryn")
        af["done"] = True
        if answer == "keep":
            cf["kept_cards"].append(self.card)
        else:
            g.emit("ability-declined", house=house, card=self.card)


def _opponent_card_strength(f: CombatFrame, side: str) -> int | None:
    card = f["cards"][other(side)]
    return data.house_cards()[card].strength if card else None


@register
class SerVardisEgen(Ability):
    """If the opponent's card has a printed strength of 2 or less: +1 strength and 2 fortifications. Against no card
    (a Tyrion-cancelled opponent with an empty hand) there is no printed strength, so nothing changes."""

    card = "ser-vardis-egen"

    def _active(self, f: CombatFrame, side: str, target_side: str) -> bool:
        printed = _opponent_card_strength(f, side)
        return side == target_side and printed is not None and printed <= 2

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        return value + 1 if self._active(f, side, target_side) else value

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        return (icons[0], icons[1] + 2) if self._active(f, side, target_side) else icons


@register
class GodricBorrell(Ability):
    """Defending a sea: +1 strength for each land area next to that sea that Arryn controls (ports are no land)."""

    card = "godric-borrell"

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        board = rules.board(s)
        if side != target_side or side != "defender" or not board.areas[f["area"]].is_sea:
            return value
        house = house_of(f, side)
        lands = [n for n in board.neighbours[f["area"]] if board.areas[n].is_land and rules.controller(s, n) == house]
        return value + len(lands)


@register
class AnyaWaynwood(Ability):
    """If you win: you and every other house whose Support order still helps you gain 3 Power each (as much as
    their pools hold, B-OPEN-06)."""

    card = "anya-waynwood"
    window = VICTOR

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return won(f, side)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        s = g.s
        owner = house_of(f, side)
        supporters = sorted({s.orders[a].house for a in supporting_areas(s, f, side)} - {owner})
        for house in [owner, *supporters]:
            gained = rules.gain_power(s, house, 3)
            g.emit("power-gained", house=house, gained=gained, reason=self.card)


@register
class RobertArryn(Ability):
    """Defending, after the combat: Arryn may remove Robert and the weakest card of the opponent's discard pile from
    the game for good (its owner picks among equally weak ones). With an empty opponent's discard pile there is
    nothing to take with it, and the card does nothing."""

    card = "robert-arryn"
    window = AFTER

    def _weakest(self, g: Game, f: CombatFrame, side: str) -> list[str]:
        discards = g.s.houses[house_of(f, other(side))].discards
        if not discards:
            return []
        catalogue = data.house_cards()
        low = min(catalogue[c].strength for c in discards)
        return sorted(c for c in discards if catalogue[c].strength == low)

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return side == "defender" and bool(self._weakest(g, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, opponent=house_of(f, other(side)), weakest=self._weakest(g, f, side))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        weakest = af["weakest"]
        return ask(af, PromptKind.ROBERT_REMOVE, af["house"], [*weakest, None], weakest[0], opponent=af["opponent"])

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, [*af["weakest"], None], "card to remove from the game")
        af["done"] = True
        if answer is None:
            g.emit("ability-declined", house=house, card=self.card)
            return
        s = g.s
        mine, theirs = s.houses[house], s.houses[af["opponent"]]
        mine.discards.remove(self.card)
        theirs.discards.remove(answer)
        g.emit("house-cards-removed", house=house, cards={house: [self.card], af["opponent"]: [answer]}, by=house)
