"""Consolidate Power (checklist section 25, B-CP-*; B-SPECIAL-06; B-OPEN-03)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import event, make, prompt, rejected

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


def gains(events: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    return [(e["house"], e["area"], e["gained"]) for e in events if e["type"] == "consolidate"]


def resolve(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> tuple[Game, list[dict[str, Any]]]:
    """Tyrell's raid (the only one) opens the Action phase; its answer runs the Consolidate Power step (no march),
    whose events are returned."""
    unit_spec = unit_spec | {"the-eyrie": "tyrell footman"}
    orders = orders | {"the-eyrie": "raid"}
    g = make({"units": unit_spec, "orders": orders, "start": "action", "tracks": TRACKS, **extra})
    events = g.act("tyrell", {"from": "the-eyrie", "target": None})
    return g, events


def test_rulebook_consolidate_power_example() -> None:
    """002:1937-1951, 001:880: a lone Baratheon footman on Dragonstone consolidates: 1 + 1 crown = 2 Power."""
    g, events = resolve({"dragonstone": "baratheon footman"}, {"dragonstone": "consolidate"}, power={"baratheon": 5})
    assert gains(events) == [("baratheon", "dragonstone", 2)]
    assert g.s.houses["baratheon"].power == 7


def test_B_CP_01_one_order_per_house_in_turn_order() -> None:
    _g, events = resolve(
        {
            "lannisport": "lannister footman",
            "stoney-sept": "lannister footman",
            "winterfell": "stark footman",
            "dragonstone": "baratheon footman",
        },
        {
            "lannisport": "consolidate",
            "stoney-sept": "consolidate",
            "winterfell": "consolidate",
            "dragonstone": "consolidate",
        },
    )
    assert [h for h, _, _ in gains(events)] == ["baratheon", "lannister", "stark", "lannister"]


def test_B_CP_02_one_power_plus_one_per_crown() -> None:
    g, events = resolve(
        {"lannisport": "lannister footman", "stoney-sept": "stark footman", "kings-landing": "baratheon footman"},
        {"lannisport": "consolidate", "stoney-sept": "consolidate", "kings-landing": "consolidate"},
    )
    assert sorted(gains(events)) == [
        ("baratheon", "kings-landing", 3),  # two crowns
        ("lannister", "lannisport", 1),  # no crown
        ("stark", "stoney-sept", 2),  # one crown
    ]
    assert g.s.orders == {}


def test_B_CP_03_B_PLAN_09_nothing_in_a_sea() -> None:
    g, events = resolve({"the-golden-sound": "lannister ship"}, {"the-golden-sound": "consolidate"})
    assert gains(events) == [("lannister", "the-golden-sound", 0)]
    assert g.s.houses["lannister"].power == 5


def test_B_CP_04_B_CONTROL_08_power_tokens_are_not_crowns() -> None:
    _g, events = resolve(
        {"lannisport": "lannister footman"}, {"lannisport": "consolidate"}, power_tokens={"lannisport": "lannister"}
    )
    assert gains(events) == [("lannister", "lannisport", 1)]


def test_B_CP_05_B_PORT_09_a_port_gives_one_unless_an_enemy_ship_is_in_its_sea() -> None:
    g, events = resolve(
        {"lannisport": "lannister footman", "port-of-lannisport": "lannister ship"},
        {"lannisport": "defense1", "port-of-lannisport": "consolidate"},
    )
    assert gains(events) == [("lannister", "port-of-lannisport", 1)]
    g, events = resolve(
        {"lannisport": "lannister footman", "port-of-lannisport": "lannister ship", "the-golden-sound": "greyjoy ship"},
        {"lannisport": "defense1", "port-of-lannisport": "consolidate*", "the-golden-sound": "defense1"},
    )
    assert gains(events) == [("lannister", "port-of-lannisport", 0)]
    assert "port-of-lannisport" not in g.s.orders


def test_B_CP_06_B_SPECIAL_06_special_order_in_a_castle_gains_power_or_musters() -> None:
    g, events = resolve({"lannisport": "lannister footman"}, {"lannisport": "consolidate*"})
    p = prompt(g, "lannister")
    assert p.kind == "consolidate" and p.choices == ["power", "muster"] and p.info["power"] == 1
    rejected(g, "lannister", "both", "illegal-choice")
    events = g.act("lannister", "power")
    assert gains(events) == [("lannister", "lannisport", 1)]


def test_B_CP_06_the_muster_option_musters_in_that_area() -> None:
    g, _ = resolve({"lannisport": "lannister footman"}, {"lannisport": "consolidate*"})
    events = g.act("lannister", "muster")
    assert event(events, "consolidate-muster")["area"] == "lannisport"
    p = prompt(g, "lannister")
    assert p.kind == "muster" and list(p.choices["areas"]) == ["lannisport"]
    g.act("lannister", p.default)
    assert g.s.houses["lannister"].power == 5  # no Power: the order was used to muster


def test_B_CP_06_no_muster_without_a_castle() -> None:
    _g, events = resolve({"stoney-sept": "lannister footman"}, {"stoney-sept": "consolidate*"})
    assert gains(events) == [("lannister", "stoney-sept", 2)]  # no question: Power only


def test_B_CP_07_special_order_in_a_port_only_gains_power() -> None:
    _g, events = resolve(
        {"lannisport": "lannister footman", "port-of-lannisport": "lannister ship"},
        {"lannisport": "defense1", "port-of-lannisport": "consolidate*"},
    )
    assert gains(events) == [("lannister", "port-of-lannisport", 1)]


def test_B_OPEN_03_routed_units_may_consolidate_power() -> None:
    _g, events = resolve({"stoney-sept": "stark routed-footman"}, {"stoney-sept": "consolidate"})
    assert gains(events) == [("stark", "stoney-sept", 2)]


def test_B_OPEN_06_gains_are_limited_by_the_power_pool() -> None:
    g, events = resolve(
        {"kings-landing": "baratheon footman"}, {"kings-landing": "consolidate"}, power={"baratheon": 19}
    )
    assert gains(events) == [("baratheon", "kings-landing", 1)]
    assert g.s.houses["baratheon"].power == 20


def test_B_CP_01_the_step_goes_on_after_a_house_is_asked() -> None:
    """A special order in a castle asks its house (power or muster); the houses after it in turn order still
    consolidate once it is answered (before, the step ended with the answer and Stark's order was swept away)."""
    g, events = resolve(
        {"lannisport": "lannister footman", "winterfell": "stark footman"},
        {"lannisport": "consolidate*", "winterfell": "consolidate"},
    )
    assert gains(events) == []
    events = g.act("lannister", "power")
    assert gains(events) == [("lannister", "lannisport", 1), ("stark", "winterfell", 2)]
