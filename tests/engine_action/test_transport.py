"""Sea transport (checklist section 28, B-TRANSPORT-*; B-BOARD-03)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import fight, make, march, march_answer, prompt, rejected, units


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    return make({"units": unit_spec, "orders": orders, "start": "action", **extra})


TYRELL_FLEET = {
    "highgarden": "tyrell footman knight",
    "redwyne-straights": "tyrell ship",
    "west-summer-sea": "tyrell ship",
    "east-summer-sea": "tyrell ship",
}
FLEET_ORDERS = {
    "highgarden": "march0",
    "redwyne-straights": "defense1",
    "west-summer-sea": "raid",
    "east-summer-sea": "consolidate",
}


def test_rulebook_transport_example() -> None:
    """002:2878-2888, 001:1245-1249: ships in Redwyne Straits, West and East Summer Sea carry Highgarden's army to
    Sunspear (or any land next to those seas) with one March order."""
    g = action(TYRELL_FLEET, FLEET_ORDERS)
    raid_choice = prompt(g, "tyrell")
    g.act("tyrell", {"from": "west-summer-sea", "target": None})  # the raid step first
    assert raid_choice.kind == "raid"
    dests = set(prompt(g, "tyrell").choices["highgarden"]["destinations"]["knight"])
    assert {"sunspear", "salt-shore", "starfall", "storms-end", "the-arbor", "three-towers", "oldtown"} <= dests
    march(g, "tyrell", "highgarden", {"sunspear": ["knight", "footman"]})
    assert units(g, "sunspear") == ["tyrell footman", "tyrell knight"]


def test_B_TRANSPORT_01_the_chain_must_be_unbroken() -> None:
    fleet = dict(TYRELL_FLEET)
    del fleet["west-summer-sea"]
    orders = {a: o for a, o in FLEET_ORDERS.items() if a != "west-summer-sea"}
    g = action(fleet, orders)
    dests = prompt(g, "tyrell").choices["highgarden"]["destinations"]["footman"]
    assert "sunspear" not in dests and "the-arbor" in dests  # The Arbor: through Redwyne Straits only
    rejected(g, "tyrell", march_answer("highgarden", {"sunspear": ["footman"]}), "not-adjacent")


def test_B_TRANSPORT_02_the_same_ships_carry_several_groups_in_one_march() -> None:
    g = action(TYRELL_FLEET, FLEET_ORDERS | {"west-summer-sea": "support0"})
    march(g, "tyrell", "highgarden", {"sunspear": ["knight"], "the-arbor": ["footman"]})
    assert units(g, "sunspear") == ["tyrell knight"] and units(g, "the-arbor") == ["tyrell footman"]


def test_B_TRANSPORT_03_only_the_marching_houses_own_ships() -> None:
    fleet = dict(TYRELL_FLEET)
    fleet["west-summer-sea"] = "greyjoy ship"  # an ally's ship does not count
    g = action(fleet, FLEET_ORDERS | {"west-summer-sea": "support0"})
    assert "sunspear" not in prompt(g, "tyrell").choices["highgarden"]["destinations"]["footman"]


def test_B_TRANSPORT_04_ships_transport_whatever_their_order() -> None:
    # Seas hold a Defense, a March and a Consolidate Power order; the ships still carry.
    orders = FLEET_ORDERS | {"west-summer-sea": "march-1"}
    g = action(TYRELL_FLEET, orders)
    assert "sunspear" in prompt(g, "tyrell").choices["highgarden"]["destinations"]["footman"]


def test_B_TRANSPORT_05_B_RETREAT_16_routed_ships_still_transport() -> None:
    fleet = dict(TYRELL_FLEET)
    fleet["west-summer-sea"] = "tyrell routed-ship"
    g = action(fleet, FLEET_ORDERS | {"west-summer-sea": "support0"})
    assert "sunspear" in prompt(g, "tyrell").choices["highgarden"]["destinations"]["footman"]


def test_B_TRANSPORT_06_transported_units_may_attack_once() -> None:
    fleet = TYRELL_FLEET | {"sunspear": "martell footman", "starfall": "martell footman"}
    orders = FLEET_ORDERS | {"west-summer-sea": "support0", "sunspear": "defense1", "starfall": "defense1"}
    g = action(fleet, orders)
    rejected(g, "tyrell", march_answer("highgarden", {"sunspear": ["knight"], "starfall": ["footman"]}), "two-combats")
    events = march(g, "tyrell", "highgarden", {"sunspear": ["knight", "footman"]})
    assert events[-1]["type"] == "combat-started" and events[-1]["origin"] == "highgarden"
    fight(g, cards={"tyrell": "randyll-tarly", "martell": "darkstar"})
    assert units(g, "sunspear") == ["tyrell footman", "tyrell knight"]


def test_B_TRANSPORT_07_ships_are_never_carried() -> None:
    g = action(
        {"redwyne-straights": "tyrell ship", "west-summer-sea": "tyrell ship", "highgarden": "tyrell footman"},
        {"redwyne-straights": "march0", "west-summer-sea": "defense1", "highgarden": "defense1"},
    )
    dests = prompt(g, "tyrell").choices["redwyne-straights"]["destinations"]["ship"]
    assert dests == ["west-summer-sea"]  # never beyond the adjacent sea, never onto land
    rejected(g, "tyrell", march_answer("redwyne-straights", {"east-summer-sea": ["ship"]}), "not-adjacent")


def test_B_TRANSPORT_08_no_support_through_a_chain_of_ships() -> None:
    g = action(
        {
            "lannisport": "lannister footman knight",
            "the-golden-sound": "lannister ship",
            "ironmans-bay": "lannister ship",
            "riverrun": "lannister footman",
            "seagard": "stark footman",
        },
        {
            "lannisport": "support0",
            "the-golden-sound": "defense1",
            "ironmans-bay": "defense1",
            "riverrun": "march0",
            "seagard": "defense1",
        },
    )
    march(g, "lannister", "riverrun", {"seagard": ["footman"]})
    # Lannisport's Support reaches Seagard only by ships: not offered, straight to the house cards.
    assert all(p.kind == "house-card" for p in g.prompts())


def test_B_TRANSPORT_09_B_BOARD_03_islands_are_entered_and_left_only_by_sea() -> None:
    g = action(
        {"pyke": "greyjoy footman knight", "winterfell": "stark footman"},
        {"pyke": "march0", "winterfell": "defense1"},
    )
    assert prompt(g, "greyjoy").choices["pyke"]["destinations"] == {"footman": [], "knight": []}
    g = action(
        {"pyke": "greyjoy footman knight", "ironmans-bay": "greyjoy ship", "winterfell": "stark footman"},
        {"pyke": "march0", "ironmans-bay": "defense1", "winterfell": "defense1"},
    )
    assert prompt(g, "greyjoy").choices["pyke"]["destinations"]["knight"] == [
        "flints-finger",
        "greywater-watch",
        "riverrun",
        "seagard",
    ]


def test_B_TRANSPORT_10_ships_in_a_port_are_no_link_of_a_chain() -> None:
    g = action(
        {"pyke": "greyjoy footman", "port-of-pyke": "greyjoy ship ship", "winterfell": "stark footman"},
        {"pyke": "march0", "port-of-pyke": "defense1", "winterfell": "defense1"},
    )
    assert prompt(g, "greyjoy").choices["pyke"]["destinations"] == {"footman": []}
