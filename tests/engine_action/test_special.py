"""Special (starred) orders (checklist section 27, B-SPECIAL-*; B-COMBAT-09 March modifiers)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine import Game
from engine.orders import ORDER_TOKENS, ORDER_TYPES

from .helpers import fight, make, march, prompt, raid, result

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    unit_spec = unit_spec | {"the-eyrie": "tyrell footman"}
    orders = orders | {"the-eyrie": "march0"}
    return make({"units": unit_spec, "orders": orders, "start": "action", "tracks": TRACKS, **extra})


def test_B_SPECIAL_01_ten_normal_orders_and_one_special_of_each_type() -> None:
    normal = sum(t.copies for t in ORDER_TOKENS.values() if not t.star)
    special = Counter(t.type for t in ORDER_TOKENS.values() if t.star for _ in range(t.copies))
    assert normal == 10
    assert special == {kind: 1 for kind in ORDER_TYPES}
    # How many specials a house may place follows its King's Court position (5-6 players: 3, 3, 2, 1, 0, 0).
    g = make({"units": {"winterfell": "stark footman"}, "tracks": TRACKS, "start": "planning"})
    assert {h: g.view(None)["houses"][h]["stars_allowed"] for h in TRACKS["kings_court"]} == {
        "lannister": 3,
        "stark": 3,
        "martell": 2,
        "baratheon": 1,
        "tyrell": 0,
        "greyjoy": 0,
    }


def duel(march_token: str, defense_token: str) -> dict[str, Any]:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": march_token, "stoney-sept": defense_token},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    return result(
        fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"})
    )


def test_B_SPECIAL_02_special_defense_gives_two() -> None:
    assert duel("march0", "defense2*")["strength"]["defender"]["defense"] == 2
    assert duel("march0", "defense1")["strength"]["defender"]["defense"] == 1


def test_B_SPECIAL_03_B_MARCH_09_march_modifiers_belong_to_the_attacker() -> None:
    for token, bonus in (("march-1", -1), ("march0", 0), ("march1*", 1)):
        r = duel(token, "support0")
        assert r["strength"]["attacker"]["march"] == bonus
        assert r["strength"]["attacker"]["total"] == 2 + 2 + bonus
        assert "march" not in r["strength"]["defender"]


def test_B_SPECIAL_04_special_support_adds_one_to_its_area() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman", "harrenhal": "lannister footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support1*"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    events = fight(
        g,
        cards={"lannister": "the-hound", "stark": "greatjon-umber"},
        support={"lannister": "attacker"},
        retreat={"stark": "blackwater"},
    )
    assert result(events)["strength"]["attacker"]["support"] == 2


def test_B_SPECIAL_05_special_raid_acts_as_a_raid_or_removes_a_defense() -> None:
    g = action(
        {"lannisport": "lannister footman", "stoney-sept": "stark footman", "riverrun": "stark footman"},
        {"lannisport": "raid*", "stoney-sept": "consolidate", "riverrun": "defense2*"},
    )
    assert prompt(g, "lannister").choices == {"lannisport": ["riverrun", "stoney-sept"]}
    events = raid(g, "lannister", "lannisport", "stoney-sept")
    assert any(e["type"] == "pillage" for e in events)  # as a normal raid, pillage included
