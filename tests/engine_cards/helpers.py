"""Helpers for the house-card ability tests (issue D).

``battle`` builds an Action-phase position with ``Game.from_scenario`` (round 10, no garrisons or neutral forces
unless given, every supply at 6, and a spare March order of the attacker's in the Eyrie that keeps the Action
phase open after the combat under test). ``play`` answers the prompts of the combat under way from a script
keyed by ``(house, kind)``; a tuple value is a queue of answers for a decision asked more than once. Support
defaults to "none", offered support is accepted and the Blade is kept; any other prompt the script does not name
fails the test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import Game
from engine.prompts import Prompt

from ..engine_action.helpers import combat_frame, event, make, march, prompt, result, units

__all__ = [
    "ALL_HOUSES",
    "TRACKS",
    "Game",
    "battle",
    "combat_frame",
    "destroyed",
    "event",
    "events_of",
    "march",
    "play",
    "prompt",
    "result",
    "units",
]

ALL_HOUSES = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}

KEEP = "the-eyrie"


def battle(unit_spec: dict[str, str], orders: dict[str, str], *, keep: bool = True, **extra: Any) -> Game:
    tracks = dict(TRACKS)
    tracks.update(extra.pop("tracks", {}))
    unit_spec, orders = dict(unit_spec), dict(orders)
    marching = next((a for a, o in orders.items() if o.startswith("march") and ":" not in o), None)
    if keep and marching is not None and KEEP not in unit_spec:
        unit_spec[KEEP] = unit_spec[marching].split()[0] + " footman"
        orders[KEEP] = "march-1"
    spec: dict[str, Any] = {
        "units": unit_spec,
        "orders": orders,
        "start": "action",
        "tracks": tracks,
        "supply": {h: 6 for h in ALL_HOUSES},
        **extra,
    }
    return make(spec)


def play(
    g: Game,
    answers: dict[tuple[str, str], Any] | None = None,
    seen: list[Prompt] | None = None,
    *,
    at_cards: Callable[[Game], None] | None = None,
) -> list[dict[str, Any]]:
    """Answer every prompt of the combat under way until it ends; return the events. ``at_cards`` runs once when
    the combat reaches its house cards (a test may then set what a vassal drew)."""
    script = dict(answers or {})
    events: list[dict[str, Any]] = []
    for _ in range(60):
        f = combat_frame(g)
        if f is None:
            return events
        if at_cards is not None and f["stage"] == "cards":
            at_cards(g)
            at_cards = None
        p = next(p for p in g.prompts() if not p.answered)
        if seen is not None:
            seen.append(p)
        key = (p.house, p.kind)
        if key in script:
            value = script[key]
            if isinstance(value, tuple):
                assert value, f"no answer left for {key}"
                answer, script[key] = value[0], value[1:]
            else:
                answer = value
        elif p.kind == "support":
            answer = "none"
        elif p.kind == "support-refusal":
            answer = "accept"
        elif p.kind == "blade":
            answer = False
        else:  # pragma: no cover - a test reached a decision it did not expect
            raise AssertionError(f"unexpected prompt {p.to_dict()}")
        events += g.act(p.house, answer)
    raise AssertionError("the combat did not end")


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def destroyed(events: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [
        (e["house"], e["area"], t, e["reason"]) for e in events if e["type"] == "units-destroyed" for t in e["units"]
    ]
