"""What a step changed on the map, worked out from its engine events (docs/engine.md, "Events") and the views
before and after it: a pure function, so the bot, the tests and the benchmark agree on which areas a crop shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from render.crop import Move
from render.data import RenderBoard
from render.views import View, area_state, declined, developed, loyalty_tokens

# Events that change what an area shows, and the fields naming those areas.
AREA_FIELDS: dict[str, tuple[str, ...]] = {
    "march": ("origin", "to"),
    "retreat": ("area", "to"),
    "raid": ("area", "target"),
    "consolidate": ("area",),
    "consolidate-muster": ("area",),
    "vassal-muster": ("area",),
    "power-token-placed": ("area",),
    "power-token-removed": ("area",),
    "units-destroyed": ("area",),
    "garrison-removed": ("area",),
    "port-captured": ("area",),
    "order-removed": ("area",),
    "order-moved": ("origin", "area"),
    "unit-upgraded": ("area",),
    "combat-started": ("area", "origin"),
    "combat-ended": ("area",),
    "neutral-attack": ("area",),
    "attack-held": ("area", "origin"),
    "raven-swapped": ("area",),
    "loyalty-placed": ("area",),
    "loyalty-collected": ("area",),
    "loyalty-moved": ("origin", "to"),
    "loyalty-move-undone": ("origin", "to"),
}
# What the view diff compares per area.
COMPARED = ("controller", "units", "order", "power_token", "garrison", "neutral")


@dataclass
class ChangeSet:
    board: RenderBoard = field(repr=False)  # the board the areas are on
    areas: list[str] = field(default_factory=list)  # changed areas, most important first
    moves: list[Move] = field(default_factory=list)  # arrows to draw

    def add(self, area: Any) -> None:
        if isinstance(area, str) and area in self.board.areas and area not in self.areas:
            self.areas.append(area)


def changed_areas(board: RenderBoard, events: list[dict[str, Any]], before: View | None, after: View) -> ChangeSet:
    """The areas a step changed (from its events first, then any other area whose public state differs between
    the two views) and the moves to draw: marches, retreats, raids, an order moved by Ser Loras, musters' ships."""
    out = ChangeSet(board)
    for ev in events:
        if ev.get("private_to"):
            continue
        kind = str(ev.get("type", ""))
        for key in AREA_FIELDS.get(kind, ()):
            out.add(ev.get(key))
        house = ev.get("house") if isinstance(ev.get("house"), str) else None
        if kind == "march":
            out.moves.append(Move(house, "march", str(ev.get("origin")), str(ev.get("to"))))
        elif kind == "retreat":
            out.moves.append(Move(house, "retreat", str(ev.get("area")), str(ev.get("to"))))
        elif kind == "raid" and isinstance(ev.get("target"), str):
            out.moves.append(Move(house, "raid", str(ev.get("area")), str(ev.get("target"))))
        elif kind == "order-moved":
            out.moves.append(Move(house, "march", str(ev.get("origin")), str(ev.get("area"))))
        elif kind == "mustered":
            for area, actions in (ev.get("plan") or {}).items():
                out.add(area)
                for action in actions if isinstance(actions, list) else []:
                    if isinstance(action, dict) and isinstance(action.get("to"), str):
                        out.add(action["to"])
        elif kind in ("supply-reconciled", "wildling-effect"):
            for key in ("destroyed", "units"):
                got = ev.get(key)
                if isinstance(got, dict):
                    for area in got:
                        out.add(area)
            for area in ev.get("areas") or []:
                out.add(area)
    if before is not None:
        held, holds = loyalty_tokens(before), loyalty_tokens(after)  # Targaryen's loyalty tokens placed or moved
        for area_id in sorted(set(held) | set(holds)):
            if held.get(area_id) != holds.get(area_id):
                out.add(area_id)
        for was, now in ((developed(before), developed(after)), (declined(before), declined(after))):
            for area_id in sorted(set(was) | set(now)):  # the Iron Bank's development and decline tokens
                if was.get(area_id) != now.get(area_id):
                    out.add(area_id)
        for area_id in board.areas:
            a, b = area_state(before, area_id), area_state(after, area_id)
            changed = any(_norm(a.get(k)) != _norm(b.get(k)) for k in COMPARED)
            if changed and area_id not in out.areas and not _only_order_reveal(a, b):
                out.add(area_id)
    return out


def _norm(value: Any) -> Any:
    if isinstance(value, list):
        return sorted(repr(v) for v in value)
    return value


def _only_order_reveal(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Orders turned face up (or put down, or cleaned up) everywhere at once are not a local change."""
    return all(_norm(a.get(k)) == _norm(b.get(k)) for k in COMPARED if k != "order")
