"""Raids (checklist section 16, B-RAID-*; B-ACT-*; known edge case #109: raids on (starred) Consolidate Power)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import make, prompt, raid, rejected

TRACKS_5 = {
    # The rulebook example's turn order: Greyjoy, Stark, Lannister, Baratheon, Tyrell.
    "iron_throne": ["greyjoy", "stark", "lannister", "baratheon", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "baratheon", "tyrell", "greyjoy"],
}


def action(units: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    return make({"units": units, "orders": orders, "start": "action", **extra})


def test_rulebook_raid_example() -> None:
    """Russian rulebook p.14 (002:1640-1700), Bulgarian 001:786-802: five raids, turn order G, S, L, B, T."""
    units = {
        "the-reach": "lannister footman",
        "sunset-sea": "lannister ship",
        "lannisport": "lannister footman knight",
        "west-summer-sea": "greyjoy ship",
        "dornish-marches": "tyrell footman",
        "highgarden": "tyrell footman knight",
        "stoney-sept": "baratheon footman",
        "winterfell": "stark footman",
    }
    orders = {
        "the-reach": "raid",
        "sunset-sea": "raid",
        "lannisport": "defense1",
        "west-summer-sea": "raid",
        "dornish-marches": "raid",
        "highgarden": "consolidate",
        "stoney-sept": "raid*",
        "winterfell": "defense1",
    }
    g = action(units, orders, players=5, tracks=TRACKS_5, neutral={})
    # 1. Greyjoy raids Tyrell's Consolidate Power in Highgarden and pillages it.
    assert "highgarden" in prompt(g, "greyjoy").choices["west-summer-sea"]
    events = raid(g, "greyjoy", "west-summer-sea", "highgarden")
    assert g.s.houses["greyjoy"].power == 6 and g.s.houses["tyrell"].power == 4
    assert any(e["type"] == "pillage" for e in events)
    assert "highgarden" not in g.s.orders and "west-summer-sea" not in g.s.orders
    # 2. Stark has no raid: Lannister plays next and, from The Reach, removes Tyrell's raid in Dornish Marches.
    assert prompt(g, "lannister").choices == {"sunset-sea": [], "the-reach": ["dornish-marches"]}
    raid(g, "lannister", "the-reach", "dornish-marches")
    # 3. Baratheon's special raid in Stoney Sept removes Lannister's Defense order in Lannisport.
    assert prompt(g, "baratheon").choices == {"stoney-sept": ["lannisport"]}
    raid(g, "baratheon", "stoney-sept", "lannisport")
    assert "lannisport" not in g.s.orders
    # 4. Tyrell's only raid is gone: the round comes back to Lannister (Greyjoy and Stark have none).
    # 5. The raid in the Sunset Sea has no target and is removed without effect.
    assert prompt(g, "lannister").choices == {"sunset-sea": []}
    raid(g, "lannister", "sunset-sea", None)
    assert g.finished  # no march, no consolidate: clean-up, and round 10 ends the game
    assert g.s.houses["lannister"].power == 5


def test_rulebook_port_example_raid_from_a_port() -> None:
    """002:3180-3196 (port example): Martell's raid in the port of Sunspear removes Tyrell's Support in the
    East Summer Sea."""
    units = {
        "sunspear": "martell footman knight",
        "port-of-sunspear": "martell ship",
        "east-summer-sea": "tyrell ship",
        "yronwood": "tyrell footman",
    }
    orders = {"sunspear": "defense1", "port-of-sunspear": "raid", "east-summer-sea": "support0", "yronwood": "support0"}
    g = action(units, orders)
    # The port's raid reaches only its own sea, never the land next to it (not Yronwood's support).
    assert prompt(g, "martell").choices == {"port-of-sunspear": ["east-summer-sea"]}
    raid(g, "martell", "port-of-sunspear", "east-summer-sea")
    assert "east-summer-sea" not in g.s.orders


def test_B_RAID_01_raids_alternate_in_turn_order_until_none_is_left() -> None:
    units = {
        "lannisport": "lannister footman",
        "stoney-sept": "lannister footman",
        "riverrun": "stark footman",
        "harrenhal": "stark footman",
        "seagard": "greyjoy footman",
    }
    orders = {
        "lannisport": "raid",
        "stoney-sept": "raid",
        "riverrun": "raid",
        "harrenhal": "raid*",
        "seagard": "defense1",
    }
    g = action(units, orders)  # turn order: baratheon, lannister, stark, martell, greyjoy, tyrell
    seen = []
    while g.prompts():
        p = g.prompts()[0]
        assert p.kind == "raid"
        seen.append(p.house)
        origin = sorted(p.choices)[0]
        raid(g, p.house, origin, None)
    assert seen == ["lannister", "stark", "lannister", "stark"]


def test_B_RAID_02_removes_an_adjacent_enemy_order_and_the_raid() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman", "riverrun": "lannister footman"}
    orders = {"lannisport": "raid", "stoney-sept": "support0", "riverrun": "support0"}
    g = action(units, orders)
    # Lannister's own Support order in Riverrun is not a target.
    assert prompt(g, "lannister").choices == {"lannisport": ["stoney-sept"]}
    rejected(g, "lannister", {"from": "lannisport", "target": "riverrun"}, "illegal-choice")
    events = raid(g, "lannister", "lannisport", "stoney-sept")
    assert "stoney-sept" not in g.s.orders and "lannisport" not in g.s.orders
    assert events[0] == {
        "type": "raid",
        "house": "lannister",
        "area": "lannisport",
        "target": "stoney-sept",
        "victim": "stark",
        "order": "support0",
    }


def test_B_RAID_02_only_adjacent_orders() -> None:
    units = {"lannisport": "lannister footman", "harrenhal": "stark footman", "winterfell": "stark footman"}
    orders = {"lannisport": "raid", "harrenhal": "support0", "winterfell": "consolidate"}
    g = action(units, orders)
    assert prompt(g, "lannister").choices == {"lannisport": []}
    rejected(g, "lannister", {"from": "lannisport", "target": "harrenhal"}, "illegal-choice")


def test_B_RAID_03_pillage_consolidate_power() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman"}
    g = action(units, {"lannisport": "raid", "stoney-sept": "consolidate"}, power={"lannister": 3, "stark": 4})
    events = raid(g, "lannister", "lannisport", "stoney-sept")
    assert g.s.houses["lannister"].power == 4 and g.s.houses["stark"].power == 3
    assert {k: v for k, v in events[1].items()} == {
        "type": "pillage",
        "house": "lannister",
        "victim": "stark",
        "gained": 1,
        "lost": 1,
    }


def test_B_RAID_03_raider_gains_even_if_the_victim_has_nothing() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman"}
    g = action(units, {"lannisport": "raid", "stoney-sept": "consolidate"}, power={"lannister": 3, "stark": 0})
    raid(g, "lannister", "lannisport", "stoney-sept")
    assert g.s.houses["lannister"].power == 4 and g.s.houses["stark"].power == 0


def test_B_RAID_03_pillage_gain_is_limited_by_the_power_pool() -> None:
    """B-OPEN-06: a House with all 20 tokens in use gains nothing."""
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman"}
    g = action(units, {"lannisport": "raid", "stoney-sept": "consolidate"}, power={"lannister": 20, "stark": 2})
    raid(g, "lannister", "lannisport", "stoney-sept")
    assert g.s.houses["lannister"].power == 20 and g.s.houses["stark"].power == 1


def test_B_RAID_04_a_land_raid_never_targets_a_sea_but_a_sea_raid_reaches_seas_and_lands() -> None:
    units = {
        "lannisport": "lannister footman",
        "the-golden-sound": "lannister ship",
        "riverrun": "stark footman",
        "ironmans-bay": "greyjoy ship",
        "sunset-sea": "greyjoy ship",
    }
    orders = {
        "lannisport": "raid",
        "the-golden-sound": "raid",
        "riverrun": "support0",
        "ironmans-bay": "support0",
        "sunset-sea": "consolidate",
    }
    g = action(units, orders)
    choices = prompt(g, "lannister").choices
    # Lannisport borders the Golden Sound and Riverrun, but only lands can be raided from land.
    assert choices["lannisport"] == ["riverrun"]
    assert choices["the-golden-sound"] == ["ironmans-bay", "riverrun", "sunset-sea"]
    rejected(g, "lannister", {"from": "lannisport", "target": "ironmans-bay"}, "illegal-choice")


def test_B_RAID_05_special_orders_can_be_raided() -> None:
    units = {
        "lannisport": "lannister footman",
        "stoney-sept": "stark footman",
        "riverrun": "stark footman",
        "searoad-marches": "stark footman",
    }
    orders = {"lannisport": "raid", "stoney-sept": "support1*", "riverrun": "raid*", "searoad-marches": "consolidate*"}
    g = action(units, orders)
    assert prompt(g, "lannister").choices == {"lannisport": ["riverrun", "searoad-marches", "stoney-sept"]}


def test_known_edge_109_raid_on_starred_consolidate_pillages() -> None:
    units = {"lannisport": "lannister footman", "searoad-marches": "tyrell footman"}
    court = ["lannister", "stark", "tyrell", "martell", "baratheon", "greyjoy"]  # Tyrell 3rd: one special order
    g = action(units, {"lannisport": "raid", "searoad-marches": "consolidate*"}, tracks={"kings_court": court})
    events = raid(g, "lannister", "lannisport", "searoad-marches")
    assert any(e["type"] == "pillage" for e in events)
    assert g.s.houses["lannister"].power == 6 and g.s.houses["tyrell"].power == 4


def test_B_RAID_06_special_raid_removes_a_defense_order() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman", "riverrun": "stark footman"}
    units["winterfell"] = "stark footman"
    orders = {"lannisport": "raid*", "stoney-sept": "defense1", "riverrun": "defense2*", "winterfell": "march0"}
    g = action(units, orders)
    assert prompt(g, "lannister").choices == {"lannisport": ["riverrun", "stoney-sept"]}
    raid(g, "lannister", "lannisport", "riverrun")
    assert "riverrun" not in g.s.orders and g.s.orders["stoney-sept"].token == "defense1"


def test_B_RAID_13_normal_raid_never_targets_march_or_defense() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman", "riverrun": "stark footman"}
    orders = {"lannisport": "raid", "stoney-sept": "defense2*", "riverrun": "march0"}
    g = action(units, orders)
    assert prompt(g, "lannister").choices == {"lannisport": []}
    rejected(g, "lannister", {"from": "lannisport", "target": "stoney-sept"}, "illegal-choice")
    rejected(g, "lannister", {"from": "lannisport", "target": "riverrun"}, "illegal-choice")


def test_B_RAID_13_even_a_special_raid_never_targets_a_march() -> None:
    units = {"lannisport": "lannister footman", "riverrun": "stark footman"}
    g = action(units, {"lannisport": "raid*", "riverrun": "march1*"})
    assert prompt(g, "lannister").choices == {"lannisport": []}


def test_B_RAID_07_a_raid_without_target_is_removed_without_effect() -> None:
    units = {"lannisport": "lannister footman", "winterfell": "stark footman"}
    g = action(units, {"lannisport": "raid", "winterfell": "march0"})
    power = {h: hs.power for h, hs in g.s.houses.items()}
    raid(g, "lannister", "lannisport", None)
    assert "lannisport" not in g.s.orders
    assert {h: hs.power for h, hs in g.s.houses.items()} == power
    assert prompt(g, "stark").kind == "march"  # the raid step is over


def test_B_RAID_08_a_raid_may_be_removed_without_raiding() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman"}
    g = action(units, {"lannisport": "raid", "stoney-sept": "consolidate"})
    raid(g, "lannister", "lannisport", None)
    assert "lannisport" not in g.s.orders and g.s.orders.get("stoney-sept") is None  # consolidated since
    assert g.s.houses["stark"].power == 7  # its Consolidate Power order resolved normally (+1, +1 crown)


def test_B_RAID_09_a_raided_raid_order_is_never_resolved() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman", "harrenhal": "baratheon footman"}
    units["winterfell"] = "stark footman"
    orders = {"lannisport": "raid", "stoney-sept": "raid", "harrenhal": "support0", "winterfell": "march0"}
    g = action(units, orders)
    assert prompt(g, "lannister").kind == "raid"  # turn order: Baratheon (no raid), Lannister, Stark
    raid(g, "lannister", "lannisport", "stoney-sept")
    # Stark's raid (which could have hit Baratheon's support) is gone: Stark is asked to march, not to raid.
    assert [(p.house, p.kind) for p in g.prompts()] == [("stark", "march")]
    assert g.s.orders["harrenhal"].token == "support0"


def test_B_RAID_10_ships_in_a_port_raid_only_their_sea() -> None:
    units = {
        "port-of-lannisport": "lannister ship",
        "lannisport": "lannister footman",
        "the-golden-sound": "greyjoy ship",
        "riverrun": "stark footman",
    }
    orders = {
        "port-of-lannisport": "raid*",
        "lannisport": "defense1",
        "the-golden-sound": "support0",
        "riverrun": "support0",
    }
    g = action(units, orders)
    assert prompt(g, "lannister").choices == {"port-of-lannisport": ["the-golden-sound"]}


def test_B_RAID_10_a_port_is_raided_only_from_its_sea() -> None:
    units = {
        "port-of-lannisport": "lannister ship",
        "lannisport": "lannister footman",
        "the-golden-sound": "greyjoy ship",
        "stoney-sept": "stark footman",
        "riverrun": "baratheon footman",
    }
    orders = {
        "port-of-lannisport": "consolidate",
        "lannisport": "defense1",
        "the-golden-sound": "raid",
        "stoney-sept": "raid",
        "riverrun": "defense1",
    }
    g = action(units, orders)
    # Turn order: baratheon, lannister, stark, martell, greyjoy: Stark's land raid cannot reach the port.
    assert prompt(g, "stark").choices == {"stoney-sept": []}
    raid(g, "stark", "stoney-sept", None)
    assert prompt(g, "greyjoy").choices == {"the-golden-sound": ["port-of-lannisport"]}
    raid(g, "greyjoy", "the-golden-sound", "port-of-lannisport")
    assert g.s.houses["greyjoy"].power == 6 and g.s.houses["lannister"].power == 4  # B-PORT-09 port pillaged


def test_B_RAID_11_sea_transport_never_makes_areas_adjacent_for_raids() -> None:
    units = {
        "lannisport": "lannister footman",
        "the-golden-sound": "lannister ship",
        "ironmans-bay": "lannister ship",
        "seagard": "stark footman",
        "greywater-watch": "stark footman",
    }
    orders = {"lannisport": "raid", "the-golden-sound": "support0", "ironmans-bay": "support0"}
    orders |= {"seagard": "consolidate", "greywater-watch": "support0"}
    g = action(units, orders)
    # Lannisport reaches Seagard by ships for a march, never for a raid.
    assert prompt(g, "lannister").choices == {"lannisport": []}
    rejected(g, "lannister", {"from": "lannisport", "target": "seagard"}, "illegal-choice")


def test_B_RAID_12_consolidate_power_in_a_sea_can_be_raided_and_pillaged() -> None:
    units = {"the-golden-sound": "lannister ship", "sunset-sea": "greyjoy ship"}
    g = action(units, {"the-golden-sound": "raid", "sunset-sea": "consolidate"})
    events = raid(g, "lannister", "the-golden-sound", "sunset-sea")
    assert any(e["type"] == "pillage" for e in events)
    assert g.s.houses["lannister"].power == 6 and g.s.houses["greyjoy"].power == 4


def test_B_OPEN_03_routed_units_may_carry_out_a_raid() -> None:
    units = {"lannisport": "lannister routed-footman", "stoney-sept": "stark footman"}
    g = action(units, {"lannisport": "raid", "stoney-sept": "support0"})
    assert prompt(g, "lannister").choices == {"lannisport": ["stoney-sept"]}
    raid(g, "lannister", "lannisport", "stoney-sept")
    assert "stoney-sept" not in g.s.orders


def test_B_ACT_01_raids_then_marches_then_consolidate_then_cleanup() -> None:
    units = {
        "lannisport": "lannister footman",
        "stoney-sept": "lannister footman",
        "riverrun": "lannister footman",
        "winterfell": "stark footman",
    }
    orders = {"lannisport": "consolidate", "stoney-sept": "march0", "riverrun": "raid", "winterfell": "defense1"}
    g = action(units, orders)
    assert prompt(g, "lannister").kind == "raid"
    raid(g, "lannister", "riverrun", None)
    assert prompt(g, "lannister").kind == "march"
    events = g.act("lannister", {"from": "stoney-sept", "moves": [{"to": "harrenhal", "units": ["footman"]}]})
    kinds = [e["type"] for e in events]
    assert kinds.index("march") < kinds.index("consolidate") < kinds.index("action-cleanup")
    assert g.s.orders == {}  # B-CLEAN-01: the Defense order left over is removed


def test_B_ACT_02_removed_orders_go_back_to_their_owner() -> None:
    """Orders removed in the Action phase are simply off the board: all fifteen are usable at the next Planning."""
    g = make({"units": {"winterfell": "stark footman"}, "start": "planning"})
    assert sum(prompt(g, "stark").choices["tokens"].values()) == 15


def test_raid_illegal_answers_leave_the_state_unchanged() -> None:
    units = {"lannisport": "lannister footman", "stoney-sept": "stark footman"}
    g = action(units, {"lannisport": "raid", "stoney-sept": "support0"})
    rejected(g, "stark", {"from": "stoney-sept", "target": None}, "not-your-turn")
    rejected(g, "lannister", {"from": "stoney-sept", "target": None}, "illegal-choice")
    rejected(g, "lannister", {"from": "lannisport"}, "bad-answer")
    rejected(g, "lannister", {"from": "lannisport", "target": ["stoney-sept"]}, "illegal-choice")
    rejected(g, "lannister", "lannisport", "bad-answer")
