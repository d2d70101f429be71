"""Garrisons (checklist section 23, B-GARR-*; B-GARR-05 and B-GARR-07 also in test_casualties.py)."""

from __future__ import annotations

from typing import Any

from engine import Game, data, new_game, rules

from .helpers import event, fight, make, march, prompt, result, units

KEEP = {"the-eyrie": "tyrell footman"}
KEEP_ORDER = {"the-eyrie": "march0"}


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("garrisons", {"winterfell": 2})
    return make({"units": unit_spec | KEEP, "orders": orders | KEEP_ORDER, "start": "action", **extra})


def test_B_GARR_01_every_house_starts_with_a_garrison_at_home() -> None:
    for count in (3, 4, 5, 6):
        g = new_game(count)
        assert g.s.garrisons == {data.houses()[h].home: 2 for h in g.s.players}
        assert g.view(None)["areas"]["winterfell"]["garrison"] == 2


def test_B_GARR_02_a_garrison_is_no_unit() -> None:
    g = make({"units": {"winterfell": "stark footman"}, "garrisons": {"winterfell": 2}, "supply": {"stark": 0}})
    # Footman plus garrison is not an army, and the garrison takes no order.
    assert rules.army_sizes(g.s, "stark") == []
    assert prompt(g, "stark").choices["areas"] == ["winterfell"]
    assert g.view(None)["areas"]["winterfell"]["units"] == [{"house": "stark", "type": "footman", "routed": False}]


def test_B_GARR_03_B_GARR_04_a_lone_garrison_defends_as_a_unit_its_house_plays_a_card() -> None:
    g = action({"white-harbor": "greyjoy knight footman"}, {"white-harbor": "march0"})
    events = march(g, "greyjoy", "white-harbor", {"winterfell": ["knight", "footman"]})
    assert event(events, "combat-started")["defender"] == "stark"
    # Stark is asked for a house card though it has no unit in Winterfell.
    assert {p.house for p in g.prompts()} == {"greyjoy", "stark"}
    events = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "ser-rodrick-cassel"})
    r = result(events)
    assert r["strength"]["defender"] == {"units": 0, "support": 0, "garrison": 2, "card": 1, "total": 3}
    assert r["strength"]["attacker"]["total"] == 4 and r["winner"] == "greyjoy"
    # B-GARR-05: beaten, the garrison leaves the game and Greyjoy takes Winterfell.
    assert g.s.garrisons == {}
    assert units(g, "winterfell") == ["greyjoy footman", "greyjoy knight"]
    assert rules.controller(g.s, "winterfell") == "greyjoy"


def test_B_GARR_05_a_garrison_that_wins_stays() -> None:
    g = action({"white-harbor": "greyjoy footman"}, {"white-harbor": "march0"})
    march(g, "greyjoy", "white-harbor", {"winterfell": ["footman"]})
    events = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "ser-rodrick-cassel"})
    assert result(events)["winner"] == "stark"
    assert g.s.garrisons == {"winterfell": 2}


def test_B_GARR_06_a_garrison_never_supports() -> None:
    # Winterfell (garrison, no unit) borders the embattled White Harbor: it has no order and is never asked.
    g = action(
        {"moat-cailin": "greyjoy knight", "white-harbor": "stark footman"},
        {"moat-cailin": "march0", "white-harbor": "defense1"},
    )
    march(g, "greyjoy", "moat-cailin", {"white-harbor": ["knight"]})
    assert {p.kind for p in g.prompts()} == {"house-card"}
    r = result(
        fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "ser-rodrick-cassel"}, retreat={"stark": "winterfell"})
    )
    assert r["strength"]["defender"] == {"units": 1, "support": 0, "defense": 1, "card": 1, "total": 3}
