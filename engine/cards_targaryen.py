"""House Targaryen's house cards (Mother of Dragons; card facts in data/mother-of-dragons/house_cards_targaryen.json).

A game deals one of Targaryen's two sets of seven (``options["targaryen_cards"]``, "a" or "b"); nine of the fourteen
cards have a text, each acting in the timing windows the base game's cards use (``engine.abilities``). Rules decisions
where the texts leave room are written next to each card.

Three cards leave the game (Khal Drogo always, Viserys Targaryen when it loses, Illyrio Mopatis once its owner holds
5 Power). As with Robert Arryn, a card removed from the game is simply taken out of its owner's cards after the combat
discarded it (``remove_from_game``): it is in neither the hand nor the discard pile, so no refill of the hand
(B-HCARD-07), no Missandei and no other text can ever bring it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.abilities import AFTER, IMMEDIATELY, Ability, register
from engine.cards import ask, push_ability
from engine.combat.frame import SIDES, CombatFrame, house_of, other
from engine.combat.strength import combat_units
from engine.flow import Frame, expect_choice
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.game import Game

DRAGON = "dragon"  # the unit type of Targaryen's dragons (data/mother-of-dragons/units.json)
ILLYRIO_POWER_LIMIT = 5  # Illyrio Mopatis leaves the game once its owner holds this much available Power
MISSANDEI_MARGIN = 2  # Missandei acts when its owner loses by at most this much


# ----- helpers -----


def remove_from_game(g: Game, house: str, card: str) -> None:
    """The card leaves the game for good. After the combat it lies in the discard pile, or back in the hand when an
    opponent's "after combat" text (Patchface) emptied the hand first and the refill took it back: either way it
    goes, so later refills of the hand never find it. An opponent's Robert Arryn, acting first (Targaryen is last in
    turn order), may already have removed it as the weakest discarded card: then nothing is left to remove."""
    hs = g.s.houses[house]
    for pile in (hs.discards, hs.hand):
        if card in pile:
            pile.remove(card)
            g.emit("house-cards-removed", house=house, cards={house: [card]}, by=house)
            return


def _held(g: Game, f: CombatFrame, side: str, card: str) -> bool:
    """Whether the side's owner still has the card, in hand or discarded (not yet removed from the game)."""
    hs = g.s.houses[house_of(f, side)]
    return card in hs.discards or card in hs.hand


def _lost(f: CombatFrame, side: str) -> bool:
    return f["winner"] == other(side)


def _margin(f: CombatFrame) -> int:
    """The difference between the two final combat strengths (0 for a tie the Fiefdoms track broke)."""
    totals = f["strength"]
    assert totals is not None, "the final strengths are not known yet"
    return abs(totals["attacker"]["total"] - totals["defender"]["total"])


def _after_combat(f: CombatFrame) -> bool:
    """Whether a card acting in two windows (``Ability.later_window``) is called after the combat."""
    return f["stage"] == "after"


def _fighting(s: GameState, f: CombatFrame, side: str, unit_type: str) -> list[Unit]:
    """A side's units of one type in the embattled area (attackers stand in their origin until they move in)."""
    return [u for u in combat_units(s, f, side) if u.type == unit_type]


def _strongest(cards: list[str]) -> str:
    catalogue = data.house_cards()
    return sorted(cards, key=lambda c: (-catalogue[c].strength, -catalogue[c].swords, c))[0]


# ===== set A =====


@register
class KhalDrogo(Ability):
    """+1 strength and one sword for each of the owner's Knights fighting in the embattled area, attacking or
    defending (never supporting ones). A routed Knight adds nothing: it has no strength in the combat either. After
    every combat it is played in, won or lost, the card leaves the game."""

    card = "khal-drogo"
    window = AFTER

    def _knights(self, s: GameState, f: CombatFrame, side: str) -> int:
        return sum(1 for u in _fighting(s, f, side, "knight") if not u.routed)

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        return value + self._knights(s, f, side) if side == target_side else value

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        return (icons[0] + self._knights(s, f, side), icons[1]) if side == target_side else icons

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return _held(g, f, side, self.card)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        remove_from_game(g, house_of(f, side), self.card)


@register
class XaroXhoanDaxos(Ability):
    """With more Ships in the embattled area than the opponent, each of the owner's Ships there counts 2 instead of
    1. Every ship on a side counts towards "more", routed ones too (they are there); a routed ship still adds 0,
    and supporting ships keep their strength."""

    card = "xaro-xhoan-daxos"

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        if (
            side == target_side
            and not supporting
            and unit.house == house_of(f, side)
            and unit.type == "ship"
            and value > 0
            and len(_fighting(s, f, side, "ship")) > len(_fighting(s, f, other(side), "ship"))
        ):
            return 2
        return value


@register
class DaenerysTargaryenA(Ability):
    """+2 strength if a Dragon is in the embattled area. The text says "a Dragon", so any dragon fighting there
    counts, attacking or defending, routed or not; only Targaryen has dragons, so in play it is the owner's own. A
    dragon supporting from a neighbouring area is not in the embattled area and does not count."""

    card = "daenerys-targaryen-a"

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        if side == target_side and any(_fighting(s, f, sd, DRAGON) for sd in SIDES):
            return value + 2
        return value


@register
class ViserysTargaryen(Ability):
    """Once the cards are revealed, in the "immediately" window (in turn order, so after the opponent's Doran,
    Aeron or Queen of Thorns, as Aeron Damphair's swap), the owner may discard one card of his hand: its printed
    strength is added to his final strength (a Balon Greyjoy zeroes Viserys's own printed 1, not what the discarded
    card adds). The discarded card goes to the discard pile at once; the hand is refilled only by the end of the
    combat (B-HCARD-07), when Viserys itself is discarded. If the owner loses, after the combat Viserys leaves the
    game."""

    card = "viserys-targaryen"
    window = IMMEDIATELY
    later_window = AFTER

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        discarded = f["discarded_for_strength"].get(side)
        if side == target_side and discarded is not None:
            return value + data.house_cards()[discarded].strength
        return value

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        if _after_combat(f):
            return _lost(f, side) and _held(g, f, side, self.card)
        return bool(g.s.houses[house_of(f, side)].hand)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        if _after_combat(f):
            remove_from_game(g, house_of(f, side), self.card)
            return
        push_ability(g, f, side, self.card)

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        hand = sorted(g.s.houses[af["house"]].hand)
        return ask(af, PromptKind.VISERYS_DISCARD, af["house"], [*hand, None], None, area=cf["area"])

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        hs = g.s.houses[house]
        expect_choice(answer, [*hs.hand, None], "card to discard for Viserys Targaryen")
        af["done"] = True
        if answer is None:
            g.emit("ability-declined", house=house, card=self.card)
            return
        hs.hand.remove(answer)
        hs.discards.append(answer)
        cf["discarded_for_strength"][af["side"]] = answer
        g.emit("house-card-discarded", house=house, card=answer, by=house, reason=self.card)


@register
class IllyrioMopatis(Ability):
    """After the combat, won or lost: the owner takes as much Power as the two final strengths differ by, as many
    tokens as its pool holds (B-OPEN-06, as Tywin Lannister's); a tie gives none. Then, if the owner holds 5 or more
    available Power, Illyrio leaves the game."""

    card = "illyrio-mopatis"
    window = AFTER

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        s = g.s
        house = house_of(f, side)
        difference = _margin(f)
        if difference:
            gained = rules.gain_power(s, house, difference)
            g.emit("power-gained", house=house, gained=gained, reason=self.card)
        if s.houses[house].power >= ILLYRIO_POWER_LIMIT:
            remove_from_game(g, house, self.card)


# ===== set B =====


@register
class DaenerysTargaryenB(Ability):
    """After the combat, won or lost: the opponent discards as much available Power as the two final strengths
    differ by, to the Power Pool; all he has if he has less. A vassal has no Power: nothing happens."""

    card = "daenerys-targaryen-b"
    window = AFTER

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return _margin(f) > 0 and g.s.houses[house_of(f, other(side))].power > 0

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        opponent = house_of(f, other(side))
        lost = rules.lose_power(g.s, opponent, _margin(f))
        g.emit("power-lost", house=opponent, lost=lost, reason=self.card, by=house_of(f, side))


@register
class CaptainGroleo(Ability):
    """Attacking a land with units that reached it by sea transport: +1 strength for each Targaryen Ship in the
    areas next to the embattled area (seas and ports, whatever their orders).

    The engine knows where the attack came from, not the route, so a march is taken to use ships only when it must,
    as every march does: when the origin is not next to the embattled land (a river between them counts as not
    next), and at least one attacking unit cannot fly. A march across a land border is a land march even where
    ships could have carried it, and dragons alone are taken to have flown."""

    card = "captain-groleo"

    def _by_sea(self, s: GameState, f: CombatFrame, side: str) -> bool:
        board = rules.board(s)
        if side != "attacker" or not board.areas[f["area"]].is_land or board.adjacent(f["origin"], f["area"]):
            return False
        return any(not rules.unit_type(s, u.type).flies for u in combat_units(s, f, side))

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        if side != target_side or not self._by_sea(s, f, side):
            return value
        owner = house_of(f, side)
        near = rules.board(s).neighbours[f["area"]]
        return value + sum(1 for a in near for u in s.units.get(a, []) if u.house == owner and u.type == "ship")


@register
class Rakharo(Ability):
    """In a land area without a castle or stronghold, each of the owner's Knights fighting there counts 4 instead of
    2; supporting Knights keep 2 and routed ones still add nothing."""

    card = "rakharo"

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        area = rules.board(s).areas[f["area"]]
        if (
            side == target_side
            and not supporting
            and unit.house == house_of(f, side)
            and unit.type == "knight"
            and value > 0
            and area.is_land
            and area.fortification == 0
        ):
            return 4
        return value


@register
class Missandei(Ability):
    """Losing by 2 or less (a tie the Fiefdoms track broke is a loss by 0): after the combat the owner may take one
    other card of his discard pile back into his hand. "Any other house card" means Missandei lies in the discard
    pile when it acts, so, as Roose Bolton's return, it acts after the combat, once the cards are discarded. Played
    as the last card of the hand, the refill (B-HCARD-07) has already taken every other card back: nothing is left
    to choose."""

    card = "missandei"
    window = AFTER

    def _options(self, g: Game, f: CombatFrame, side: str) -> list[str]:
        return sorted(c for c in g.s.houses[house_of(f, side)].discards if c != self.card)

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return _lost(f, side) and _margin(f) <= MISSANDEI_MARGIN and bool(self._options(g, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, options=self._options(g, f, side))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        options: list[str] = af["options"]
        return ask(
            af, PromptKind.MISSANDEI_RETURN, af["house"], [*options, None], _strongest(options), margin=_margin(cf)
        )

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, [*af["options"], None], "card to take back into your hand")
        af["done"] = True
        if answer is None:
            g.emit("ability-declined", house=house, card=self.card)
            return
        hs = g.s.houses[house]
        hs.discards.remove(answer)
        hs.hand.append(answer)
        g.emit("hand-returned", house=house, cards=[answer], reason=self.card)
