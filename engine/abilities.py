"""Hooks through which house-card abilities (and Tides of Battle) change a combat.

The combat (``engine.steps.combat``) calls these at fixed points; each returns the unmodified value
when no played card has an ability for that point. House-card abilities register themselves in
``ABILITIES`` (see ``engine.cards``) keyed by the card's ability id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.flow import Frame
    from engine.game import Game


class Ability:
    """Base class: every hook leaves the combat unchanged. ``side`` is the side that played the card."""

    def unit_strength(self, s: GameState, f: Frame, side: str, target_side: str, unit: Unit, value: int) -> int:
        return value

    def support_strength(self, s: GameState, f: Frame, side: str, target_side: str, area: str, value: int) -> int:
        return value

    def defense_bonus(self, s: GameState, f: Frame, side: str, value: int) -> int:
        return value

    def card_strength(self, s: GameState, f: Frame, side: str, target_side: str, value: int) -> int:
        return value

    def card_icons(
        self, s: GameState, f: Frame, side: str, target_side: str, icons: tuple[int, int]
    ) -> tuple[int, int]:
        return icons

    def casualty_count(self, s: GameState, f: Frame, side: str, loser_side: str, count: int) -> int:
        return count

    def retreat_chooser(self, s: GameState, f: Frame, side: str, loser: str) -> str | None:
        return None

    def on_reveal(self, g: Game, f: Frame, side: str) -> None:
        return None

    def after_victor(self, g: Game, f: Frame, side: str) -> None:
        return None

    def after_combat(self, g: Game, f: Frame, side: str) -> None:
        return None


ABILITIES: dict[str, Ability] = {}


def _played(f: Frame) -> list[tuple[str, Ability]]:
    out = []
    for side in ("attacker", "defender"):
        card_id = f["cards"].get(side)
        if card_id and card_id not in f.get("cancelled", []):
            ability_id = data.house_cards()[card_id].ability
            if ability_id and ability_id in ABILITIES:
                out.append((side, ABILITIES[ability_id]))
    return out


def unit_strength(s: GameState, f: Frame, target_side: str, unit: Unit, value: int) -> int:
    for side, ab in _played(f):
        value = ab.unit_strength(s, f, side, target_side, unit, value)
    return value


def support_strength(s: GameState, f: Frame, target_side: str, area: str, value: int) -> int:
    for side, ab in _played(f):
        value = ab.support_strength(s, f, side, target_side, area, value)
    return value


def defense_bonus(s: GameState, f: Frame, value: int) -> int:
    for side, ab in _played(f):
        value = ab.defense_bonus(s, f, side, value)
    return value


def card_strength(s: GameState, f: Frame, target_side: str, card: data.HouseCard) -> int:
    value = card.strength
    for side, ab in _played(f):
        value = ab.card_strength(s, f, side, target_side, value)
    return value


def card_icons(s: GameState, f: Frame, target_side: str, card: data.HouseCard) -> tuple[int, int]:
    result = (card.swords, card.fortifications)
    for side, ab in _played(f):
        result = ab.card_icons(s, f, side, target_side, result)
    return result


def casualty_count(s: GameState, f: Frame, loser_side: str, count: int) -> int:
    for side, ab in _played(f):
        count = ab.casualty_count(s, f, side, loser_side, count)
    return count


def skull_count(s: GameState, f: Frame, loser_side: str, skulls: int) -> int:
    """Tides of Battle skulls add casualties whoever won (B-TIDES-07); the winner's skulls hit the loser here."""
    return skulls


def retreat_chooser(s: GameState, f: Frame, loser: str) -> str:
    for side, ab in _played(f):
        chooser = ab.retreat_chooser(s, f, side, loser)
        if chooser:
            return chooser
    return loser


def on_reveal(g: Game, f: Frame) -> None:
    for side, ab in _played(f):
        ab.on_reveal(g, f, side)


def after_victor(g: Game, f: Frame) -> None:
    for side, ab in _played(f):
        ab.after_victor(g, f, side)


def after_combat(g: Game, f: Frame) -> None:
    for side, ab in _played(f):
        ab.after_combat(g, f, side)


def draw_tides(g: Game, f: Frame) -> None:
    """B-TIDES-02/05/09: the whole deck is reshuffled, then attacker and defender each draw one card."""
    s = g.s
    deck = [c["id"] for c in data.tides_cards().values() for _ in range(c["count"])]
    g.rng.shuffle(deck)
    f["tides"] = {"attacker": deck[0], "defender": deck[1]}
    s.tides_deck = deck[2:]
    g.emit("tides-drawn", area=f["area"], attacker=deck[0], defender=deck[1])


def describe(f: Frame) -> dict[str, Any]:
    return {"cancelled": list(f.get("cancelled", []))}
