"""The text abilities of the base game's house cards (B-HCARD-02..05, card facts in data/house_cards.json).

24 of the 42 cards have a text; the others only add strength and icons, which the combat counts itself. Each
ability is an ``engine.abilities.Ability`` registered under its card id. Passive abilities change values while the
card is in play; triggered ones act in their window (``cancel``, ``immediately``, ``victor``, ``after``) and, when
their owner has a decision, push a ``card-ability`` frame whose prompts ask it (see docs/engine.md).

Rules decisions (where the card texts leave room) are written next to each card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.abilities import ABILITIES, AFTER, CANCEL, IMMEDIATELY, VICTOR, Ability, protected, register
from engine.combat.frame import CombatFrame, combat, house_of, other, won
from engine.combat.losses import destroy_fighting, discard_played_card
from engine.combat.strength import combat_units, supporting_areas
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, prompt_id
from engine.flow import register as register_step
from engine.orders import token
from engine.prompts import Prompt, PromptKind
from engine.state import GameState, Unit
from engine.steps.combat import house_card_prompt

if TYPE_CHECKING:
    from engine.game import Game


# ----- the frame through which a card asks its owner -----


def combat_of(g: Game, af: Frame) -> CombatFrame:
    for f in reversed(g.s.stack):
        if f["type"] == "combat" and f["id"] == af["combat"]:
            return combat(f)
    raise RuntimeError("a card ability outlived its combat")  # pragma: no cover - frames are pushed on top


def push_ability(g: Game, cf: CombatFrame, side: str, card: str, **fields: Any) -> Frame:
    return g.push("card-ability", card=card, combat=cf["id"], side=side, house=house_of(cf, side), done=False, **fields)


@register_step
class CardAbilityStep(Step):
    """A decision a house card's ability asks for; the frame is popped once the ability is done."""

    type = "card-ability"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if f["done"]:
            return []
        return ABILITIES[f["card"]].prompts(g, f, combat_of(g, f))

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        ABILITIES[f["card"]].answer(g, f, combat_of(g, f), house, answer)

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)

    def view(self, g: Game, f: Frame, viewer: str | None) -> dict[str, Any] | None:
        return {"card": f["card"], "house": f["house"]}


def ask(af: Frame, kind: PromptKind, house: str, choices: list[Any], default: Any, **info: Any) -> list[Prompt]:
    return [
        Prompt(
            id=prompt_id(af, kind, house),
            house=house,
            kind=kind,
            choices=choices,
            default=default,
            info={"card": af["card"], **info},
        )
    ]


# ----- helpers -----


def _higher(s: GameState, track: str, a: str, b: str) -> bool:
    """Whether ``a`` stands higher (closer to position 1) than ``b`` on ``track``."""
    order = s.tracks[track]
    return order.index(a) < order.index(b)


def _lost(f: CombatFrame, side: str) -> bool:
    return f["winner"] == other(side)


def _strongest(cards: list[str]) -> str:
    catalogue = data.house_cards()
    return sorted(cards, key=lambda c: (-catalogue[c].strength, -catalogue[c].swords, c))[0]


ORDER_PRIORITY = {"support": 0, "march": 1, "raid": 2, "consolidate": 3, "defense": 4}


def _order_preference(s: GameState, areas: list[str]) -> list[str]:
    """Orders worth removing first: specials, then Support, March, Raid, Consolidate Power, Defense."""

    def key(a: str) -> tuple[int, int, str]:
        t = token(s.orders[a].token)
        return (0 if t.star else 1, ORDER_PRIORITY.get(t.type, 9), a)

    return sorted(areas, key=key)


# ===== Baratheon =====


@register
class StannisBaratheon(Ability):
    """+1 strength if the opponent stands higher on the Iron Throne track (read when strength is computed, so
    after a Doran Martell)."""

    card = "stannis-baratheon"

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        if side == target_side and _higher(s, "iron_throne", house_of(f, other(side)), house_of(f, side)):
            return value + 1
        return value


class KnightInAnArea(Ability):
    """A card whose owner, having won (or lost), may get one Knight in one of some areas, if a Knight is left in its
    supply: ``options`` names the areas, ``kind`` the prompt, ``place`` what the answer does."""

    kind: PromptKind
    on_win: bool = True

    def options(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        raise NotImplementedError

    def prompt_info(self, g: Game, af: Frame, cf: CombatFrame) -> dict[str, Any]:
        return {}

    def place(self, g: Game, af: Frame, cf: CombatFrame, house: str, area: str) -> None:
        raise NotImplementedError

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        s = g.s
        outcome = won(f, side) if self.on_win else _lost(f, side)
        return outcome and rules.units_available(s, house_of(f, side), "knight") > 0 and bool(self.options(s, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, areas=self.options(g.s, f, side))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        areas = af["areas"]
        info = self.prompt_info(g, af, cf)
        return ask(af, self.kind, af["house"], [*areas, None], areas[0], area=cf["area"], **info)

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, [*af["areas"], None], "area for the Knight")
        af["done"] = True
        if answer is None:
            g.emit("ability-declined", house=house, card=self.card)
            return
        self.place(g, af, cf, house, answer)


@register
class RenlyBaratheon(KnightInAnArea):
    """If you win: one Footman that took part becomes a Knight (optional; needs a Knight in the supply).

    "Took part": the footmen fighting for the winner (the attackers in their origin, or the defenders in the
    embattled area) and, as the card text says, Baratheon footmen in an area whose Support order still supports
    Baratheon in this combat. Footmen that merely stand next to the combat (a Support order that supported nobody,
    was refused or removed, or units left behind by the March) never qualify.
    """

    card = "renly-baratheon"
    window = VICTOR
    kind = PromptKind.RENLY_KNIGHT

    def options(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        house = house_of(f, side)
        out = []
        fighting = [u for u in combat_units(s, f, side) if u.type == "footman"]
        if fighting:
            out.append(f["origin"] if side == "attacker" else f["area"])
        for a in supporting_areas(s, f, side):
            if s.orders[a].house == house and any(
                u.house == house and u.type == "footman" and not u.routed for u in s.units.get(a, [])
            ):
                out.append(a)
        return out

    def prompt_info(self, g: Game, af: Frame, cf: CombatFrame) -> dict[str, Any]:
        return {"fighting": af["areas"][0]}

    def place(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: str) -> None:
        s = g.s
        side = af["side"]
        if side == "attacker" and answer == cf["origin"]:
            victim = next(u for u in combat_units(s, cf, side) if u.type == "footman")
            cf["units"][cf["units"].index("footman")] = "knight"
        else:
            here = [u for u in s.units[answer] if u.house == house and u.type == "footman"]
            if answer != cf["area"]:
                here = [u for u in here if not u.routed]  # routed units never support
            victim = sorted(here, key=lambda u: u.routed)[0]
        pool = s.units[answer]
        pool[next(i for i, u in enumerate(pool) if u is victim)] = Unit(house, "knight", victim.routed)
        g.emit("unit-upgraded", house=house, area=answer, unit="footman", to="knight", card=self.card)


@register
class SerDavosSeaworth(Ability):
    """+1 strength and a sword if Stannis Baratheon is in his owner's discard pile."""

    card = "ser-davos-seaworth"

    def _active(self, s: GameState, f: CombatFrame, side: str) -> bool:
        return "stannis-baratheon" in s.houses[house_of(f, side)].discards

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        return value + 1 if side == target_side and self._active(s, f, side) else value

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        if side == target_side and self._active(s, f, side):
            return icons[0] + 1, icons[1]
        return icons


@register
class SalladhorSaan(Ability):
    """While Baratheon receives support (from anyone, by an order still on the board), every non-Baratheon ship
    counts 0, on both sides, fighting or supporting. Applied after every other unit modifier (Victarion)."""

    card = "salladhor-saan"
    order = 10

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        if unit.type == "ship" and unit.house != house_of(f, side) and supporting_areas(s, f, side):
            return 0
        return value


@register
class Patchface(Ability):
    """After combat (cards discarded), Baratheon may name a card of the opponent's hand; it is discarded. If that
    was the opponent's last card, B-HCARD-07 applies: the others come back to the hand."""

    card = "patchface"
    window = AFTER

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return bool(g.s.houses[house_of(f, other(side))].hand)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, opponent=house_of(f, other(side)))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        hand = sorted(g.s.houses[af["opponent"]].hand)
        return ask(
            af, PromptKind.PATCHFACE_DISCARD, af["house"], [*hand, None], _strongest(hand), opponent=af["opponent"]
        )

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        hs = g.s.houses[af["opponent"]]
        expect_choice(answer, [*hs.hand, None], "card to discard")
        af["done"] = True
        if answer is None:
            g.emit("ability-declined", house=house, card=self.card)
            return
        hs.hand.remove(answer)
        g.emit("house-card-discarded", house=af["opponent"], card=answer, by=house, reason=self.card)
        discard_played_card(g, af["opponent"], answer)


# ===== Lannister =====


@register
class TywinLannister(Ability):
    """If you win: two Power tokens from the pool (as many as are left there, B-OPEN-06)."""

    card = "tywin-lannister"
    window = VICTOR

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return won(f, side)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        gained = rules.gain_power(g.s, house_of(f, side), 2)
        g.emit("power-gained", house=house_of(f, side), gained=gained, reason=self.card)


@register
class SerKevanLannister(Ability):
    """Attacking: each Lannister footman fighting or supporting Lannister counts 2 (routed ones still 0)."""

    card = "ser-kevan-lannister"

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        if (
            side == target_side == "attacker"
            and unit.house == house_of(f, side)
            and unit.type == "footman"
            and value > 0
        ):
            return 2
        return value


@register
class TyrionLannister(Ability):
    """Cancel (first of all abilities): Lannister may send the opponent's card back to his hand; the opponent
    then plays another card of his hand (not the cancelled one), which acts normally; with no other card he fights
    without one (B-OPEN-08). Tyrion acts once: the replacement cannot be cancelled again."""

    card = "tyrion-lannister"
    window = CANCEL

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return f["cards"][other(side)] is not None

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, stage="decide", target=f["cards"][other(side)])

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        opp_side = other(af["side"])
        opponent = house_of(cf, opp_side)
        if af["stage"] == "decide":
            return ask(
                af,
                PromptKind.TYRION_CANCEL,
                af["house"],
                ["cancel", "keep"],
                "keep",
                target=af["target"],
                opponent=opponent,
            )
        info = {
            "area": cf["area"],
            "side": opp_side,
            "opponent": af["house"],
            "cancelled": af["target"],
            "card": self.card,
        }
        return [house_card_prompt(g.s, af, opponent, af["options"], info)]

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        s = g.s
        opp_side = other(af["side"])
        opponent = house_of(cf, opp_side)
        hs = s.houses[opponent]
        if af["stage"] == "decide":
            expect_choice(answer, ["cancel", "keep"], "answer to Tyrion Lannister")
            if answer == "keep":
                af["done"] = True
                g.emit("ability-declined", house=house, card=self.card)
                return
            cancelled = af["target"]
            hs.hand.append(cancelled)
            cf["cards"][opp_side] = None
            cf["cancelled"].append(cancelled)
            g.emit("house-card-cancelled", house=opponent, card=cancelled, by=house)
            options = sorted(c for c in hs.hand if c != cancelled)
            if options:
                af["stage"] = "rechoose"
                af["options"] = options
            else:
                af["done"] = True
                g.emit("no-house-card", house=opponent, area=cf["area"])
            return
        expect_choice(answer, af["options"], "house card")
        hs.hand.remove(answer)
        cf["cards"][opp_side] = answer
        af["done"] = True
        g.emit("house-card-revealed", area=cf["area"], house=opponent, side=opp_side, card=answer)


@register
class CerseiLannister(Ability):
    """If you win: Lannister may remove one of the loser's orders anywhere on the board (not the March order being
    resolved, which is spent anyway)."""

    card = "cersei-lannister"
    window = VICTOR

    def options(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        loser = house_of(f, other(side))
        spent = f["origin"] if loser == f["attacker"] else None
        areas = [a for a, o in s.orders.items() if o.house == loser and a != spent]
        return _order_preference(s, areas)

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return won(f, side) and bool(self.options(g.s, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, areas=self.options(g.s, f, side))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        areas = af["areas"]
        orders = {a: g.s.orders[a].token for a in areas}
        loser = house_of(cf, other(af["side"]))
        return ask(af, PromptKind.CERSEI_ORDER, af["house"], [*areas, None], areas[0], loser=loser, orders=orders)

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, [*af["areas"], None], "order to remove")
        af["done"] = True
        if answer is None:
            g.emit("ability-declined", house=house, card=self.card)
            return
        order = g.s.orders.pop(answer)
        g.emit("order-removed", area=answer, house=order.house, token=order.token, reason=self.card)


# ===== Stark =====


@register
class RobbStark(Ability):
    """If you win, you choose where the loser retreats, among the legal areas that cost him the fewest units (the
    engine's retreat options are exactly those). A beaten attacker always goes back where it came from."""

    card = "robb-stark"

    def retreat_chooser(self, s: GameState, f: CombatFrame, side: str, loser: str) -> str | None:
        return house_of(f, side) if won(f, side) else None


@register
class RooseBolton(Ability):
    """If you lose: after combat (Roose discarded), the whole discard pile, Roose included, returns to the hand."""

    card = "roose-bolton"
    window = AFTER

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return _lost(f, side) and bool(g.s.houses[house_of(f, side)].discards)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        hs = g.s.houses[house_of(f, side)]
        returned = list(hs.discards)
        hs.hand.extend(returned)
        hs.discards = []
        g.emit("hand-returned", house=house_of(f, side), cards=returned, reason=self.card)


@register
class TheBlackfish(Ability):
    """Stark takes no casualties from swords, Tides skulls or card texts (Mace Tyrell). Units still die when they
    cannot retreat, when a retreat breaks supply, or as siege engines that cannot retreat: those are no casualties."""

    card = "the-blackfish"

    def casualty_count(self, s: GameState, f: CombatFrame, side: str, victim_side: str, count: int) -> int:
        return 0 if victim_side == side else count

    def skull_count(self, s: GameState, f: CombatFrame, side: str, victim_side: str, count: int) -> int:
        return 0 if victim_side == side else count

    def protects(self, s: GameState, f: CombatFrame, side: str, victim_side: str) -> bool:
        return victim_side == side


@register
class CatelynStark(Ability):
    """Stark's own Defense order in the embattled area counts double (only ever the defender's order)."""

    card = "catelyn-stark"

    def defense_bonus(self, s: GameState, f: CombatFrame, side: str, value: int) -> int:
        return value * 2 if side == "defender" else value


# ===== Martell =====


@register
class ArianneMartell(Ability):
    """Defending and losing: the attacker does not move in; its units stay where they marched from (not routed).
    Martell still retreats. A victorious Martell is never forced out (the card does nothing then)."""

    card = "arianne-martell"
    window = VICTOR

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return side == "defender" and _lost(f, side)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        f["attacker_stays"] = True
        g.emit("attack-held", area=f["area"], attacker=f["attacker"], origin=f["origin"], by=house_of(f, side))


@register
class NymeriaSand(Ability):
    """Defending: one more fortification; attacking: one more sword."""

    card = "nymeria-sand"

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        if side != target_side:
            return icons
        return (icons[0], icons[1] + 1) if side == "defender" else (icons[0] + 1, icons[1])


@register
class DoranMartell(Ability):
    """Immediately: the opponent goes to the last place of a track of Martell's choice; the others behind move up.
    Dominance tokens follow the tracks (they are derived from them), in their current face-up/down state."""

    card = "doran-martell"
    window = IMMEDIATELY

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card, opponent=house_of(f, other(side)))

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        s = g.s
        opponent = af["opponent"]
        positions = {t: s.tracks[t].index(opponent) + 1 for t in data.TRACKS}
        best = min(data.TRACKS, key=lambda t: (positions[t], data.TRACKS.index(t)))
        return ask(
            af, PromptKind.DORAN_TRACK, af["house"], list(data.TRACKS), best, opponent=opponent, positions=positions
        )

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, list(data.TRACKS), "influence track")
        s = g.s
        opponent = af["opponent"]
        before, after = rules.move_on_track(s, answer, opponent, len(s.tracks[answer]))
        af["done"] = True
        g.emit("track-moved", track=answer, house=opponent, before=before, after=after, by=house)


# ===== Greyjoy =====


@register
class VictarionGreyjoy(Ability):
    """Attacking: each Greyjoy ship fighting or supporting Greyjoy counts 2."""

    card = "victarion-greyjoy"

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        if side == target_side == "attacker" and unit.house == house_of(f, side) and unit.type == "ship" and value > 0:
            return 2
        return value


@register
class BalonGreyjoy(Ability):
    """The opponent's card's printed strength counts 0; its icons and its text (e.g. Stannis's +1) still count."""

    card = "balon-greyjoy"

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        return value - card.strength if side != target_side else value


@register
class TheonGreyjoy(Ability):
    """Defending an area with a castle or stronghold: +1 strength and one sword."""

    card = "theon-greyjoy"

    def _active(self, s: GameState, f: CombatFrame, side: str, target_side: str) -> bool:
        return side == target_side == "defender" and rules.board(s).areas[f["area"]].fortification > 0

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        return value + 1 if self._active(s, f, side, target_side) else value

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        return (icons[0] + 1, icons[1]) if self._active(s, f, side, target_side) else icons


@register
class AshaGreyjoy(Ability):
    """Nobody supporting Greyjoy (support refused, or removed by the Queen of Thorns, does not count): two more
    swords and one more fortification."""

    card = "asha-greyjoy"

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        if side == target_side and not supporting_areas(s, f, side):
            return icons[0] + 2, icons[1] + 1
        return icons


@register
class AeronDamphair(Ability):
    """Immediately: Greyjoy may pay 2 available Power tokens to discard Aeron and play another card of his hand
    instead; the new card acts as if just revealed (its own "immediately" ability included)."""

    card = "aeron-damphair"
    window = IMMEDIATELY

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        hs = g.s.houses[house_of(f, side)]
        return hs.power >= 2 and bool(hs.hand)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        push_ability(g, f, side, self.card)

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        hs = g.s.houses[af["house"]]
        hand = sorted(hs.hand)
        return ask(
            af, PromptKind.AERON_SWAP, af["house"], ["keep", *hand], "keep", power=hs.power, cost=2, area=cf["area"]
        )

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        s = g.s
        hs = s.houses[house]
        expect_choice(answer, ["keep", *hs.hand], "answer to Aeron Damphair")
        af["done"] = True
        if answer == "keep":
            g.emit("ability-declined", house=house, card=self.card)
            return
        if hs.power < 2:  # pragma: no cover - checked when the ability started
            raise RuleError("not-enough-power", "Aeron Damphair costs two Power tokens.")
        rules.lose_power(s, house, 2)
        hs.hand.remove(answer)
        hs.discards.append(self.card)
        cf["cards"][af["side"]] = answer
        g.emit("house-card-swapped", area=cf["area"], house=house, card=self.card, to=answer, power=2)


# ===== Tyrell =====


@register
class MaceTyrell(Ability):
    """Immediately: one of the opponent's footmen fighting in this combat (never a supporter) is destroyed. The
    Blackfish prevents it. Tyrell chooses only when the defender has both standing and routed footmen."""

    card = "mace-tyrell"
    window = IMMEDIATELY

    def footmen(self, s: GameState, f: CombatFrame, side: str) -> list[Unit]:
        return [u for u in combat_units(s, f, other(side)) if u.type == "footman"]

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return bool(self.footmen(g.s, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        s = g.s
        victim_side = other(side)
        if protected(s, f, victim_side):
            g.emit("ability-prevented", house=house_of(f, side), card=self.card, by=house_of(f, victim_side))
            return
        footmen = self.footmen(s, f, side)
        if len({u.routed for u in footmen}) > 1:
            push_ability(g, f, side, self.card)
            return
        destroy_fighting(g, f, victim_side, [footmen[0]], self.card)

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        return ask(af, PromptKind.MACE_FOOTMAN, af["house"], ["footman", "routed-footman"], "footman", area=cf["area"])

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, ["footman", "routed-footman"], "footman to destroy")
        routed = answer == "routed-footman"
        victim = next(u for u in self.footmen(g.s, cf, af["side"]) if u.routed == routed)
        af["done"] = True
        destroy_fighting(g, cf, other(af["side"]), [victim], self.card)


@register
class SerLorasTyrell(Ability):
    """Attacking and winning: the March order is not spent; it moves into the conquered area (only if Tyrell's units
    do move in) and may be resolved again this Action phase."""

    card = "ser-loras-tyrell"
    window = VICTOR

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return side == "attacker" and won(f, side)

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        f["march_follows"] = True


@register
class QueenOfThorns(Ability):
    """Immediately: remove one of the opponent's orders in an area next to the embattled area; not the March order
    that started this combat (its origin is excluded). Mandatory; with a single candidate it is removed at once."""

    card = "queen-of-thorns"
    window = IMMEDIATELY

    def options(self, s: GameState, f: CombatFrame, side: str) -> list[str]:
        opponent = house_of(f, other(side))
        near = rules.board(s).neighbours[f["area"]]
        areas = [a for a in near if a != f["origin"] and a in s.orders and s.orders[a].house == opponent]
        helping = set(supporting_areas(s, f, other(side)))
        return sorted(_order_preference(s, areas), key=lambda a: a not in helping)

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        return bool(self.options(g.s, f, side))

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        areas = self.options(g.s, f, side)
        if len(areas) == 1:
            self._remove(g, house_of(f, side), areas[0])
            return
        push_ability(g, f, side, self.card, areas=areas)

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        areas = af["areas"]
        orders = {a: g.s.orders[a].token for a in areas}
        return ask(af, PromptKind.QUEEN_OF_THORNS, af["house"], areas, areas[0], area=cf["area"], orders=orders)

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        expect_choice(answer, af["areas"], "order to remove")
        af["done"] = True
        self._remove(g, house, answer)

    def _remove(self, g: Game, house: str, area: str) -> None:
        order = g.s.orders.pop(area)
        g.emit("order-removed", area=area, house=order.house, token=order.token, reason=self.card, by=house)
