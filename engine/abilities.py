"""Hooks through which house-card abilities (and Tides of Battle) change a combat.

The combat (``engine.steps.combat``) calls these at fixed points. Two kinds of ability exist:

* **passive** abilities change a value while the card is in play: a unit's strength (fighting or supporting), the
  Defense order's bonus, a card's strength and icons, how many casualties a side takes, who chooses the retreat.
  They are asked every time the value is computed, so they always see the current position (a support order the
  Queen of Thorns removed, a footman Mace Tyrell destroyed, a track Doran Martell changed);
* **triggered** abilities act once, in a *window* of the combat. The windows follow the rulebook (B-HCARD-03..05):
  ``cancel`` (Tyrion Lannister), then ``immediately`` (Doran, Aeron, Mace, Queen of Thorns), both right after the
  cards are revealed; ``victor`` ("if you win / lose", after the victor is known); ``after`` (after combat, once
  both cards are discarded). Within a window the cards act in turn order (the Iron Throne track, read when the
  next card acts) and one card's ability is resolved completely before the next (B-HCARD-05). A triggered ability
  either acts at once or pushes a ``card-ability`` frame (``engine.cards``) that asks its owner.

House-card abilities register themselves in ``ABILITIES`` (``engine.cards``), keyed by the card's ability id.
No ability resolves twice in one combat: each (window, card) pair is recorded in the combat frame's ``resolved``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from engine import data, rules
from engine.combat.frame import SIDES, CombatFrame, house_of
from engine.errors import RuleError
from engine.setup import tides_deck
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.flow import Frame
    from engine.game import Game
    from engine.prompts import Prompt

CANCEL = "cancel"
IMMEDIATELY = "immediately"
VICTOR = "victor"
AFTER = "after"
REVEAL_WINDOWS = (CANCEL, IMMEDIATELY)


class Ability:
    """Base class: every hook leaves the combat unchanged. ``side`` is the side that played the card.

    ``target_side`` is the side whose value is being computed; ``victim_side`` the side that would lose units.
    """

    card: ClassVar[str] = ""
    window: ClassVar[str | None] = None  # the window of a triggered ability
    # A second, later window for a card whose text acts twice (Viserys Targaryen: its choice once the cards are
    # revealed, its removal after the combat); ``applies`` and ``trigger`` tell the two apart by the combat's stage.
    later_window: ClassVar[str | None] = None
    order: ClassVar[int] = 0  # passive modifiers run from low to high ("counts as 0" effects last)

    # ----- passive -----

    def unit_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, unit: Unit, value: int, supporting: bool
    ) -> int:
        return value

    def defense_bonus(self, s: GameState, f: CombatFrame, side: str, value: int) -> int:
        return value

    def card_strength(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, card: data.HouseCard, value: int
    ) -> int:
        return value

    def card_icons(
        self, s: GameState, f: CombatFrame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        return icons

    def casualty_count(self, s: GameState, f: CombatFrame, side: str, victim_side: str, count: int) -> int:
        return count

    def skull_count(self, s: GameState, f: CombatFrame, side: str, victim_side: str, count: int) -> int:
        return count

    def protects(self, s: GameState, f: CombatFrame, side: str, victim_side: str) -> bool:
        """Whether this card keeps ``victim_side``'s units from being destroyed by card text (the Blackfish)."""
        return False

    def retreat_chooser(self, s: GameState, f: CombatFrame, side: str, loser: str) -> str | None:
        return None

    # ----- triggered -----

    def applies(self, g: Game, f: CombatFrame, side: str) -> bool:
        """Whether the triggered ability does anything now (checked once, when its turn in the window comes)."""
        return True

    def trigger(self, g: Game, f: CombatFrame, side: str) -> None:
        """Act at once, or push a ``card-ability`` frame that asks the owner."""
        return None

    # ----- the ability's own frame (engine.cards.CardAbilityStep) -----

    def prompts(self, g: Game, af: Frame, cf: CombatFrame) -> list[Prompt]:
        return []

    def answer(self, g: Game, af: Frame, cf: CombatFrame, house: str, answer: Any) -> None:
        raise RuleError("nothing-to-answer", "This card's ability takes no answer now.")


ABILITIES: dict[str, Ability] = {}


def register(cls: type[Ability]) -> type[Ability]:
    if cls.card in ABILITIES:
        raise ValueError(f"ability {cls.card!r} registered twice")
    ABILITIES[cls.card] = cls()
    return cls


def ability_of(card_id: str | None) -> Ability | None:
    if card_id is None:
        return None
    ability_id = data.house_cards()[card_id].ability
    return ABILITIES.get(ability_id) if ability_id else None


def _played(f: CombatFrame) -> list[tuple[str, Ability]]:
    """The abilities of the cards in play (a cancelled or swapped card is no longer in ``f["cards"]``)."""
    out: list[tuple[str, Ability]] = []
    for side in SIDES:
        ab = ability_of(f["cards"][side])
        if ab is not None:
            out.append((side, ab))
    out.sort(key=lambda pair: pair[1].order)
    return out


# ----- passive hooks -----


def unit_strength(s: GameState, f: CombatFrame, target_side: str, unit: Unit, value: int, *, supporting: bool) -> int:
    for side, ab in _played(f):
        value = ab.unit_strength(s, f, side, target_side, unit, value, supporting)
    return value


def defense_bonus(s: GameState, f: CombatFrame, value: int) -> int:
    for side, ab in _played(f):
        value = ab.defense_bonus(s, f, side, value)
    return value


def card_strength(s: GameState, f: CombatFrame, target_side: str, card: data.HouseCard) -> int:
    value = card.strength
    for side, ab in _played(f):
        value = ab.card_strength(s, f, side, target_side, card, value)
    return value


def card_icons(s: GameState, f: CombatFrame, target_side: str, card: data.HouseCard) -> tuple[int, int]:
    result = (card.swords, card.fortifications)
    for side, ab in _played(f):
        result = ab.card_icons(s, f, side, target_side, result)
    return result


def casualty_count(s: GameState, f: CombatFrame, victim_side: str, count: int) -> int:
    for side, ab in _played(f):
        count = ab.casualty_count(s, f, side, victim_side, count)
    return max(0, count)


def skull_count(s: GameState, f: CombatFrame, victim_side: str, skulls: int) -> int:
    """Tides of Battle skulls cost units whoever won (B-TIDES-07); ``victim_side`` is the side losing them."""
    for side, ab in _played(f):
        skulls = ab.skull_count(s, f, side, victim_side, skulls)
    return max(0, skulls)


def protected(s: GameState, f: CombatFrame, victim_side: str) -> bool:
    return any(ab.protects(s, f, side, victim_side) for side, ab in _played(f))


def retreat_chooser(s: GameState, f: CombatFrame, loser: str) -> str:
    for side, ab in _played(f):
        chooser = ab.retreat_chooser(s, f, side, loser)
        if chooser:
            return chooser
    return loser


# ----- triggered abilities -----


def next_trigger(g: Game, f: CombatFrame, windows: tuple[str, ...]) -> bool:
    """Fire the next triggered ability of ``windows`` not yet resolved; return whether one was considered.

    Windows are taken in the given order and, within one, the cards in turn order (B-HCARD-04). The scan starts
    again from the first window after every ability, so a card that enters play meanwhile (Tyrion's opponent's new
    card, Aeron's replacement) takes its turn in the right window.
    """
    resolved = f["resolved"]
    order = rules.turn_order(g.s)
    for window in windows:
        sides = sorted(SIDES, key=lambda sd: order.index(house_of(f, sd)) if house_of(f, sd) in order else len(order))
        for side in sides:
            card = f["cards"][side]
            ab = ability_of(card)
            if ab is None or window not in (ab.window, ab.later_window):
                continue
            key = f"{window}:{card}"
            if key in resolved:
                continue
            resolved.append(key)
            if ab.applies(g, f, side):
                g.emit("house-card-ability", house=house_of(f, side), card=card, window=window)
                ab.trigger(g, f, side)
            return True
    return False


# ----- Tides of Battle -----


def reshuffle_tides(g: Game) -> None:
    """B-TIDES-09: the whole deck is reshuffled right before the house cards are chosen."""
    g.s.tides_deck = tides_deck(g.rng)


def draw_tides(g: Game, f: CombatFrame, *, secret: bool = False) -> None:
    """B-TIDES-02: attacker and defender each draw one card. ``secret``: the Blade holder may still redraw
    (B-TIDES-03), so each combatant sees only its own card until the Blade's step."""
    s = g.s
    if len(s.tides_deck) < 2:
        reshuffle_tides(g)
    attacker_card, defender_card = s.tides_deck.pop(0), s.tides_deck.pop(0)
    drawn = {"attacker": attacker_card, "defender": defender_card}
    f["tides"] = {"attacker": attacker_card, "defender": defender_card}
    f["tides_used"] = [attacker_card, defender_card]
    if secret:
        f["tides_secret"] = True
        for side in SIDES:
            g.emit("tides-drawn", area=f["area"], side=side, card=drawn[side], private_to=house_of(f, side))
    else:
        g.emit("tides-drawn", area=f["area"], attacker=drawn["attacker"], defender=drawn["defender"])


def redraw_tides(g: Game, f: CombatFrame, side: str) -> None:
    """B-TIDES-03: the Blade holder discards his Tides card and draws another, which he must keep."""
    s = g.s
    if not s.tides_deck:
        reshuffle_tides(g)
        for used in f["tides_used"]:
            s.tides_deck.remove(used)
    old = f["tides"][side]
    new = s.tides_deck.pop(0)
    f["tides"][side] = new
    f["tides_used"].append(new)
    g.emit("tides-redrawn", area=f["area"], house=house_of(f, side), side=side)
    g.emit("tides-drawn", area=f["area"], side=side, card=new, discarded=old, private_to=house_of(f, side))


def reveal_tides(g: Game, f: CombatFrame) -> None:
    if f["tides_secret"]:
        f["tides_secret"] = False
        g.emit("tides-revealed", area=f["area"], attacker=f["tides"]["attacker"], defender=f["tides"]["defender"])


def return_tides(g: Game, f: CombatFrame) -> None:
    """After the combat the drawn Tides cards go back into the deck (B-TIDES-09)."""
    g.s.tides_deck.extend(f["tides_used"])
    f["tides_used"] = []
