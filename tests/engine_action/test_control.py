"""Control of areas and Power tokens on the board (checklist section 30, B-CONTROL-*)."""

from __future__ import annotations

from typing import Any

from engine import Game, rules

from .helpers import event, fight, make, march, march_answer, prompt, rejected, result, units

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}
KEEP = {"the-eyrie": "tyrell footman"}
KEEP_ORDER = {"the-eyrie": "march0"}


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("tracks", TRACKS)
    return make({"units": unit_spec | KEEP, "orders": orders | KEEP_ORDER, "start": "action", **extra})


def test_B_CONTROL_01_a_land_unit_or_a_power_token_controls_a_land() -> None:
    g = action({"riverrun": "lannister footman"}, {"riverrun": "defense1"}, power_tokens={"seagard": "stark"})
    assert rules.controller(g.s, "riverrun") == "lannister"
    assert rules.controller(g.s, "seagard") == "stark"
    assert rules.controller(g.s, "harrenhal") is None


def test_B_CONTROL_02_B_CONTROL_03_leaving_a_power_token_keeps_control() -> None:
    g = action({"riverrun": "lannister footman"}, {"riverrun": "march0"}, power={"lannister": 3})
    assert prompt(g, "lannister").choices["riverrun"]["can_leave_power"] is True
    events = march(g, "lannister", "riverrun", {"seagard": ["footman"]}, leave_power=True)
    assert {"type": "power-token-placed", "house": "lannister", "area": "riverrun"} in events
    assert g.s.power_tokens["riverrun"] == "lannister" and g.s.houses["lannister"].power == 2
    assert rules.controller(g.s, "riverrun") == "lannister"


def test_B_CONTROL_04_no_power_token_in_a_sea() -> None:
    g = action({"the-golden-sound": "lannister ship"}, {"the-golden-sound": "march0"})
    assert prompt(g, "lannister").choices["the-golden-sound"]["can_leave_power"] is False
    rejected(
        g,
        "lannister",
        march_answer("the-golden-sound", {"sunset-sea": ["ship"]}, leave_power=True),
        "cannot-leave-power",
    )


def test_B_CONTROL_05_the_token_stays_under_friendly_units_and_after_they_leave() -> None:
    g = action(
        {"seagard": "lannister footman"},
        {"seagard": "march0"},
        power_tokens={"riverrun": "lannister"},
    )
    march(g, "lannister", "seagard", {"riverrun": ["footman"]})
    assert g.s.power_tokens["riverrun"] == "lannister" and units(g, "riverrun") == ["lannister footman"]
    g2 = action({"riverrun": "lannister footman"}, {"riverrun": "march0"}, power_tokens={"riverrun": "lannister"})
    march(g2, "lannister", "riverrun", {"stoney-sept": ["footman"]})
    assert g2.s.power_tokens["riverrun"] == "lannister" and rules.controller(g2.s, "riverrun") == "lannister"


def test_B_CONTROL_06_decided_before_the_combat() -> None:
    g = action(
        {"riverrun": "lannister knight knight", "seagard": "stark footman"},
        {"riverrun": "march0", "seagard": "defense1"},
    )
    events = march(g, "lannister", "riverrun", {"seagard": ["knight", "knight"]}, leave_power=True)
    kinds = [e["type"] for e in events]
    assert kinds.index("power-token-placed") < kinds.index("combat-started")
    # The token lies in Riverrun while the battle is fought, and stays whatever its outcome.
    assert g.s.power_tokens["riverrun"] == "lannister"
    fight(g, cards={"lannister": "the-hound", "stark": "eddard-stark"})
    assert g.s.power_tokens["riverrun"] == "lannister"
    # 6 against 6, Stark wins on Fiefdoms; the Hound's fortifications cancel Eddard's swords.
    assert units(g, "riverrun") == ["lannister routed-knight", "lannister routed-knight"]


def test_B_CONTROL_07_a_token_returns_to_the_pool_only_when_an_enemy_takes_the_area() -> None:
    g = action({"stoney-sept": "lannister footman"}, {"stoney-sept": "march0"}, power_tokens={"riverrun": "stark"})
    pool = rules.power_in_pool(g.s, "stark")
    events = march(g, "lannister", "stoney-sept", {"riverrun": ["footman"]})
    assert not any(e["type"] == "combat-started" for e in events)
    assert "riverrun" not in g.s.power_tokens and rules.power_in_pool(g.s, "stark") == pool + 1


def test_B_CONTROL_08_power_tokens_give_no_combat_strength() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        power_tokens={"stoney-sept": "stark"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"}))
    assert r["strength"]["defender"] == {"units": 1, "support": 0, "defense": 1, "card": 2, "total": 4}


def test_B_CONTROL_09_at_most_one_power_token_per_area() -> None:
    g = action({"riverrun": "lannister footman"}, {"riverrun": "march0"}, power_tokens={"riverrun": "lannister"})
    assert prompt(g, "lannister").choices["riverrun"]["can_leave_power"] is False
    before = g.s.houses["lannister"].power
    rejected(g, "lannister", march_answer("riverrun", {"seagard": ["footman"]}, leave_power=True), "cannot-leave-power")
    march(g, "lannister", "riverrun", {"seagard": ["footman"]})
    assert g.s.houses["lannister"].power == before


def test_B_CONTROL_10_no_available_power_no_token() -> None:
    g = action({"riverrun": "lannister footman"}, {"riverrun": "march0"}, power={"lannister": 0})
    assert prompt(g, "lannister").choices["riverrun"]["can_leave_power"] is False
    rejected(g, "lannister", march_answer("riverrun", {"seagard": ["footman"]}, leave_power=True), "cannot-leave-power")


def test_B_CONTROL_11_an_area_emptied_otherwise_than_by_a_march_gets_no_token() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    events = fight(g, cards={"lannister": "ser-gregor-clegane", "stark": "greatjon-umber"})
    # Stark's footman died in Stoney Sept: no question about a Power token was asked, none was placed.
    assert not any(e["type"] == "power-token-placed" for e in events)
    assert "stark" not in g.s.power_tokens.values()


def test_B_CONTROL_12_a_house_controls_its_empty_home() -> None:
    g = action({}, {})
    assert rules.controller(g.s, "winterfell") == "stark"
    assert rules.controller(g.s, "sunspear") == "martell"


def test_B_CONTROL_13_B_CONTROL_14_an_enemy_home_by_unit_or_token_else_it_reverts() -> None:
    g = action(
        {"lannisport": "stark knight", "riverrun": "stark footman"},
        {"lannisport": "march0", "riverrun": "march-1"},
    )
    assert rules.controller(g.s, "lannisport") == "stark"  # by a unit
    march(g, "stark", "lannisport", {"searoad-marches": ["knight"]}, leave_power=True)
    assert rules.controller(g.s, "lannisport") == "stark"  # by its token on Lannister's crest
    g = action(
        {"lannisport": "stark knight", "riverrun": "stark footman"},
        {"lannisport": "march0", "riverrun": "march-1"},
    )
    march(g, "stark", "lannisport", {"searoad-marches": ["knight"]})
    assert rules.controller(g.s, "lannisport") == "lannister"  # left without a token: back to Lannister


def test_B_CONTROL_15_the_victory_track_follows_castles_and_strongholds() -> None:
    g = action(
        {"lannisport": "lannister footman", "stoney-sept": "lannister knight knight", "harrenhal": "stark footman"},
        {"lannisport": "defense1", "stoney-sept": "march0", "harrenhal": "defense1"},
    )
    # Lannisport (stronghold); Winterfell (Stark's empty home) still counts for Stark.
    assert g.view(None)["victory"]["lannister"] == 1 and g.view(None)["victory"]["stark"] == 2
    march(g, "lannister", "stoney-sept", {"harrenhal": ["knight", "knight"]})
    fight(g, cards={"lannister": "ser-gregor-clegane", "stark": "greatjon-umber"})
    assert g.view(None)["victory"] == {**g.view(None)["victory"], "lannister": 2, "stark": 1}


def test_B_CONTROL_16_seas_belong_to_the_ships_there_and_never_count_for_victory() -> None:
    g = action(
        {
            "the-golden-sound": "lannister ship",
            "port-of-lannisport": "lannister ship",
            "lannisport": "lannister footman",
        },
        {"the-golden-sound": "defense2*", "port-of-lannisport": "defense1", "lannisport": "defense1"},
    )
    assert rules.controller(g.s, "the-golden-sound") == "lannister"
    assert rules.controller(g.s, "sunset-sea") is None
    assert rules.castles_controlled(g.s, "lannister") == 1
    assert "the-golden-sound" not in rules.controlled_lands(g.s, "lannister")
    assert "port-of-lannisport" not in rules.controlled_lands(g.s, "lannister")


def test_B_CONTROL_06_token_left_then_combat_lost_units_come_home_to_it() -> None:
    g = action(
        {"riverrun": "lannister footman", "seagard": "stark knight knight"},
        {"riverrun": "march0", "seagard": "defense1"},
    )
    march(g, "lannister", "riverrun", {"seagard": ["footman"]}, leave_power=True)
    events = fight(g, cards={"lannister": "the-hound", "stark": "ser-rodrick-cassel"})
    assert event(events, "retreat")["to"] == "riverrun"
    assert units(g, "riverrun") == ["lannister routed-footman"] and g.s.power_tokens["riverrun"] == "lannister"


def test_B_CONTROL_03_leave_power_must_be_a_boolean() -> None:
    g = action({"riverrun": "lannister footman"}, {"riverrun": "march0"})
    rejected(g, "lannister", march_answer("riverrun", {"seagard": ["footman"]}, leave_power="no"), "bad-answer")
    rejected(g, "lannister", march_answer("riverrun", {"seagard": ["footman"]}, leave_power=1), "bad-answer")
    march(g, "lannister", "riverrun", {"seagard": ["footman"]}, leave_power=False)
    assert "riverrun" not in g.s.power_tokens
