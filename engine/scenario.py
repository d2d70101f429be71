"""Build any position from a compact JSON scenario (docs/scenario-format.md).

Used by tests and by moderators' repairs. Anything the spec leaves out keeps its value from the
official setup for that player count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data
from engine.errors import RuleError
from engine.orders import ORDER_TOKENS
from engine.setup import houses_for, initial_state
from engine.state import PlacedOrder, Unit

if TYPE_CHECKING:
    from engine.game import Game

STARTS = ("planning", "westeros", "action", "raid", "march", "consolidate")


def _units(area: str, spec: Any) -> list[Unit]:
    """``"stark footman knight routed-footman"`` or ``["stark", "footman", ...]``."""
    words = spec.split() if isinstance(spec, str) else list(spec)
    if not words:
        return []
    house, *types = words
    if house not in data.houses():
        raise RuleError("scenario", f"{area}: unknown house {house!r}")
    out = []
    for t in types:
        routed = t.startswith("routed-")
        kind = t.removeprefix("routed-")
        if kind not in data.UNIT_TYPES:
            raise RuleError("scenario", f"{area}: unknown unit {t!r}")
        out.append(Unit(house, kind, routed))
    return out


def build_scenario(spec: dict[str, Any]) -> Game:
    from engine.game import Game

    players = spec.get("players", 6)
    count = players if isinstance(players, int) else len(players)
    houses_for(count)
    state = initial_state(count, int(spec.get("seed", 0)), dict(spec.get("options", {})))
    board = data.board()
    for area in [*spec.get("units", {}), *spec.get("orders", {}), *spec.get("power_tokens", {})]:
        if area not in board.areas:
            raise RuleError("scenario", f"unknown area {area!r}")
    if "units" in spec:
        state.units = {}
        for area, units in spec["units"].items():
            parsed = _units(area, units)
            if parsed:
                state.units[area] = parsed
    if "garrisons" in spec:
        state.garrisons = dict(spec["garrisons"])
    if "neutral" in spec:
        state.neutral = {a: (None if v in (None, "~", "impassable") else int(v)) for a, v in spec["neutral"].items()}
    state.power_tokens = dict(spec.get("power_tokens", {}))
    for key, field in (("power", "power"), ("supply", "supply")):
        for house, value in spec.get(key, {}).items():
            setattr(state.houses[house], field, int(value))
    for house, hand in spec.get("hands", {}).items():
        state.houses[house].hand = list(hand)
    for house, discards in spec.get("discards", {}).items():
        state.houses[house].discards = list(discards)
    for track, order in spec.get("tracks", {}).items():
        if sorted(order) != sorted(state.players):
            raise RuleError("scenario", f"track {track} must list every house in play")
        state.tracks[track] = list(order)
    state.blade_used = bool(spec.get("blade_used", False))
    state.raven_used = bool(spec.get("raven_used", False))
    state.round = int(spec.get("round", 1))
    state.wildling_threat = int(spec.get("wildling_threat", state.wildling_threat))
    if "wildling_deck" in spec:
        state.wildling_deck = list(spec["wildling_deck"])
    if "westeros_decks" in spec:
        state.westeros_decks = [list(d) for d in spec["westeros_decks"]]
    state.restrictions = list(spec.get("restrictions", []))
    if "tides_deck" in spec:
        state.tides_deck = list(spec["tides_deck"])
    for area, raw in spec.get("orders", {}).items():
        house, _, token_id = raw.rpartition(":")
        if not house:
            occupants = state.units.get(area)
            if not occupants:
                raise RuleError("scenario", f"order in {area} needs a house (no units there)")
            house = occupants[0].house
        if token_id not in ORDER_TOKENS:
            raise RuleError("scenario", f"{area}: unknown order token {token_id!r}")
        state.orders[area] = PlacedOrder(house, token_id)
    start = spec.get("start", "planning")
    if start not in STARTS:
        raise RuleError("scenario", f"start must be one of {', '.join(STARTS)}")
    game = Game(state)
    if start == "planning":
        state.orders = {}
        state.phase = "planning"
        game.push("game", next="planning")
    elif start == "westeros":
        state.phase = "westeros"
        state.round = max(1, state.round - 1)
        game.push("game", next="westeros")
    else:
        state.phase = "action"
        state.orders_revealed = True
        game.push("game", next="westeros")
        game.push("action", stage="raid" if start == "action" else start, last=None)
    game.run()
    return game
