"""Shared helpers for the planning / action / combat verification tests (issue B).

Positions are built with ``Game.from_scenario``. ``make`` differs from a bare scenario in three ways, all to
keep a test's position exactly what the test writes down:

* garrisons and neutral forces are empty unless the spec gives them (the official setup's are otherwise kept);
* ``round`` defaults to 10, so that finishing the Action phase ends the game instead of starting a Westeros
  phase (that phase belongs to another module and is not what these tests verify);
* the player count defaults to 6.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError
from engine.prompts import Prompt


def make(spec: dict[str, Any]) -> Game:
    spec = dict(spec)
    spec.setdefault("players", 6)
    spec.setdefault("garrisons", {})
    spec.setdefault("neutral", {})
    spec.setdefault("round", 10)
    return Game.from_scenario(spec)


def prompt(g: Game, house: str) -> Prompt:
    p = g.prompt_for(house)
    assert p is not None, f"{house} is not asked anything; open prompts: {[x.to_dict() for x in g.prompts()]}"
    return p


def kinds(g: Game) -> list[tuple[str, str]]:
    return [(p.house, p.kind) for p in g.prompts()]


def rejected(g: Game, house: str, answer: Any, code: str | None = None) -> RuleError:
    """The answer raises RuleError and leaves the state exactly unchanged."""
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.act(house, answer)
    assert g.to_json() == before
    if code is not None:
        assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value.message}"
    assert info.value.message
    return info.value


def march(g: Game, house: str, origin: str, moves: dict[str, list[str]] | None = None, **extra: Any) -> Any:
    answer = {"from": origin, "moves": [{"to": d, "units": u} for d, u in (moves or {}).items()], **extra}
    return g.act(house, answer)


def march_answer(origin: str, moves: dict[str, list[str]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"from": origin, "moves": [{"to": d, "units": u} for d, u in (moves or {}).items()], **extra}


def raid(g: Game, house: str, origin: str, target: str | None) -> Any:
    return g.act(house, {"from": origin, "target": target})


def combat_frame(g: Game) -> dict[str, Any] | None:
    return next((f for f in reversed(g.s.stack) if f["type"] == "combat"), None)


def fight(
    g: Game,
    cards: dict[str, str] | None = None,
    support: dict[str, Any] | None = None,
    blade: bool = False,
    casualties: dict[str, list[str]] | None = None,
    retreat: dict[str, str] | None = None,
    refuse: dict[str, list[str]] | None = None,
    port: dict[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Answer the prompts of the current combat until it ends; return every event.

    Support defaults to "none", offered support is accepted unless ``refuse`` lists its area, the Blade follows
    ``blade``; every other decision must be
    given by the test (an unexpected prompt fails the test).
    """
    events: list[dict[str, Any]] = []
    cards, support = cards or {}, support or {}
    casualties, retreat, refuse, port = casualties or {}, retreat or {}, refuse or {}, port or {}
    for _ in range(50):
        if combat_frame(g) is None:
            return events
        open_prompts = [p for p in g.prompts() if not p.answered]
        assert open_prompts, "a combat is under way but nothing is asked"
        p = open_prompts[0]
        answer: Any
        if p.kind == "support":
            answer = support.get(p.house, "none")
        elif p.kind == "support-refusal":
            answer = "refuse" if p.info["from"] in refuse.get(p.house, []) else "accept"
        elif p.kind == "house-card":
            assert p.house in cards, f"no card given for {p.house}"
            answer = cards[p.house]
        elif p.kind == "blade":
            answer = blade
        elif p.kind == "casualties":
            assert p.house in casualties, f"no casualties given for {p.house}: {p.choices}"
            answer = casualties[p.house]
        elif p.kind == "retreat":
            assert p.house in retreat, f"no retreat given for {p.house}: {p.choices}"
            answer = retreat[p.house]
        elif p.kind == "port-capture":
            assert p.house in port, f"no port capture given for {p.house}: {p.choices}"
            answer = port[p.house]
        else:  # pragma: no cover - a test reached a prompt it did not expect
            raise AssertionError(f"unexpected prompt {p.to_dict()}")
        events += g.act(p.house, answer)
    raise AssertionError("the combat did not end")


def units(g: Game, area: str) -> list[str]:
    """``["stark footman", "stark routed-knight", ...]`` sorted, for compact assertions."""
    return sorted(f"{u.house} {'routed-' if u.routed else ''}{u.type}" for u in g.s.units.get(area, []))


def event(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [e for e in events if e["type"] == kind]
    assert found, f"no {kind} event in {[e['type'] for e in events]}"
    return found[0]


def result(events: list[dict[str, Any]]) -> dict[str, Any]:
    return event(events, "combat-result")


def strength(events: list[dict[str, Any]], side: str) -> int:
    value: int = result(events)["strength"][side]["total"]
    return value
