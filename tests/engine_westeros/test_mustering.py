"""Mustering (B-MUSTER-01..13, B-SUPPLY-09; known edge case "mustering including the siege-engine limit")."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, rules
from tests.engine_westeros.helpers import answer, in_planning, kinds, prompt, units, westeros

MUSTER_CARDS = ("mustering", "game-of-thrones", "web-of-lies")

# The rulebook's mustering example (RU 002:923-953, BG 001:486-493): Lannister at supply 3 musters first.
BOOK: dict[str, Any] = {
    "players": 4,
    "supply": {"lannister": 3},
    "tracks": {"iron_throne": ["lannister", "baratheon", "stark", "greyjoy"]},
    "units": {
        "lannisport": "lannister footman",
        "harrenhal": "lannister footman footman",
        "riverrun": "lannister knight knight knight",
        "stoney-sept": "lannister footman",
        "ironmans-bay": "greyjoy ship",
        "pyke": "greyjoy footman",
        "winterfell": "stark footman",
        "dragonstone": "baratheon footman",
    },
}
BOOK_PLAN = {
    "lannisport": [{"recruit": "footman"}, {"recruit": "ship", "to": "the-golden-sound"}],
    "harrenhal": [{"upgrade": "knight"}],
    "riverrun": [{"recruit": "ship", "to": "the-golden-sound"}],
}


def book(**changes: Any) -> Game:
    spec = {**BOOK, **changes}
    return westeros(spec, MUSTER_CARDS)


def test_B_MUSTER_rulebook_example() -> None:
    """B-MUSTER-02, B-MUSTER-03, B-MUSTER-05, B-MUSTER-06, B-MUSTER-08, B-MUSTER-13:
    the book's example, step by step, with the book's numbers."""
    g = book()
    p = prompt(g, "lannister", "muster")
    areas = p.choices["areas"]
    assert sorted(areas) == ["harrenhal", "lannisport", "riverrun"]  # not Stoney Sept (B-MUSTER-13)
    assert areas["lannisport"]["points"] == 2 and areas["harrenhal"]["points"] == 1
    assert areas["harrenhal"]["recruit"] == []  # a third unit there would break supply 3
    assert areas["harrenhal"]["upgrade"] == ["knight", "siege-engine"]
    assert areas["riverrun"] == {"points": 2, "recruit": ["ship"], "ship_to": ["the-golden-sound"], "upgrade": []}
    g.act("lannister", BOOK_PLAN)
    assert units(g, "lannisport") == ["footman", "footman"]
    assert units(g, "harrenhal") == ["footman", "knight"]
    assert units(g, "the-golden-sound") == ["ship", "ship"]
    assert rules.army_sizes(g.s, "lannister") == [3, 2, 2, 2]


@pytest.mark.parametrize(
    "extra",
    [
        {"riverrun": [{"recruit": "ship", "to": "the-golden-sound"}, {"recruit": "ship", "to": "the-golden-sound"}]},
        {"riverrun": [{"recruit": "ship", "to": "the-golden-sound"}, {"recruit": "footman"}]},
    ],
)
def test_B_MUSTER_06_rulebook_example_last_riverrun_point_cannot_be_spent(extra: dict[str, Any]) -> None:
    """B-MUSTER-06, B-SUPPLY-09: Riverrun's second point would make a fourth army of 3 (or an army of 4)."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {**BOOK_PLAN, **extra})
    assert err.value.code == "supply-exceeded"
    assert units(g, "lannisport") == ["footman"]  # nothing of the refused plan stayed


def test_B_MUSTER_01_turn_order_and_only_controlled_castles() -> None:
    """B-MUSTER-01, B-MUSTER-12: houses muster one after the other in turn order; each finishes first."""
    g = book(tracks={"iron_throne": ["baratheon", "lannister", "stark", "greyjoy"]})
    order = []
    while not in_planning(g):
        assert len(kinds(g)) == 1
        p = prompt(g, kind="muster")
        order.append(p.house)
        assert all(rules.controller(g.s, a) == p.house for a in p.choices["areas"])
        g.act(p.house, p.default)
    assert order == ["baratheon", "lannister", "stark", "greyjoy"]


def test_B_MUSTER_02_points_are_spent_only_in_their_area() -> None:
    """B-MUSTER-02: Harrenhal's single point cannot pay for a third footman in Lannisport (supply is no issue)."""
    g = book(supply={"lannister": 6})
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"lannisport": [{"recruit": "footman"}, {"recruit": "footman"}, {"recruit": "footman"}]})
    assert err.value.code == "muster-points"


def test_B_MUSTER_03_costs() -> None:
    """B-MUSTER-03: a knight or siege engine costs 2, so a castle cannot recruit one but can upgrade a footman."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"harrenhal": [{"recruit": "knight"}]})
    assert err.value.code == "muster-points"
    g.act("lannister", {"lannisport": [{"recruit": "siege-engine"}], "harrenhal": [{"upgrade": "siege-engine"}]})
    assert units(g, "lannisport") == ["footman", "siege-engine"]
    assert units(g, "harrenhal") == ["footman", "siege-engine"]


def test_B_MUSTER_04_figures_come_from_the_house_supply() -> None:
    """B-MUSTER-04, B-COMP-01: with all ten footmen on the board no footman can be mustered."""
    spread = {a: "lannister footman" for a in ("searoad-marches", "the-reach", "blackwater", "kingswood", "the-twins")}
    g = book(units={**BOOK["units"], **spread, "seagard": "lannister footman"})
    assert rules.units_available(g.s, "lannister", "footman") == 0
    p = prompt(g, "lannister", "muster")
    assert "footman" not in p.choices["areas"]["lannisport"]["recruit"]
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"lannisport": [{"recruit": "footman"}]})
    assert err.value.code == "no-figures"


def test_B_MUSTER_05_upgrade_returns_the_footman_to_supply() -> None:
    """B-MUSTER-05: upgrading replaces a footman in the area; the footman can be mustered again."""
    g = book()
    before = rules.units_available(g.s, "lannister", "footman")
    g.act("lannister", {"harrenhal": [{"upgrade": "knight"}]})
    assert rules.units_available(g.s, "lannister", "footman") == before + 1
    assert units(g, "harrenhal") == ["footman", "knight"]


def test_B_MUSTER_05_upgrade_needs_a_footman_there() -> None:
    """B-MUSTER-05: Riverrun (three knights) has no footman to upgrade."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"riverrun": [{"upgrade": "siege-engine"}]})
    assert err.value.code == "no-footman"


def test_B_MUSTER_06_siege_engine_figure_limit() -> None:
    """B-MUSTER-06, known edge case #141: only two siege engines exist; neither recruiting nor upgrading a third."""
    g = book(
        units={**BOOK["units"], "searoad-marches": "lannister siege-engine", "the-reach": "lannister siege-engine"}
    )
    p = prompt(g, "lannister", "muster")
    assert "siege-engine" not in p.choices["areas"]["lannisport"]["recruit"]
    assert p.choices["areas"]["harrenhal"]["upgrade"] == ["knight"]
    for plan in ({"lannisport": [{"recruit": "siege-engine"}]}, {"harrenhal": [{"upgrade": "siege-engine"}]}):
        with pytest.raises(RuleError) as err:
            g.act("lannister", plan)
        assert err.value.code == "no-figures"


def test_B_MUSTER_06_supply_applies_to_siege_engines() -> None:
    """B-MUSTER-06, known edge case #141: a siege engine is a unit for supply like any other."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"riverrun": [{"recruit": "siege-engine"}]})
    assert err.value.code == "supply-exceeded"


def test_B_MUSTER_07_unspent_points_are_lost() -> None:
    """B-MUSTER-07: mustering nothing (the default) is legal and nothing is saved for later."""
    g = book()
    p = prompt(g, "lannister", "muster")
    assert p.default == {}
    g.act("lannister", {})
    assert units(g, "lannisport") == ["footman"]
    assert kinds(g)[0][0] != "lannister"


def test_B_MUSTER_08_ships_go_to_the_port_or_an_adjacent_sea() -> None:
    """B-MUSTER-08: Lannisport builds into its port or the Golden Sound, never into the land or a far sea."""
    g = book()
    assert prompt(g, "lannister").choices["areas"]["lannisport"]["ship_to"] == [
        "port-of-lannisport",
        "the-golden-sound",
    ]
    for to in ("lannisport", "sunset-sea", "ironmans-bay"):
        with pytest.raises(RuleError) as err:
            g.act("lannister", {"lannisport": [{"recruit": "ship", "to": to}]})
        assert err.value.code == "ship-bad-area"
    g.act("lannister", {"lannisport": [{"recruit": "ship", "to": "port-of-lannisport"}]})
    assert units(g, "port-of-lannisport") == ["ship"]


def test_B_MUSTER_09_no_ship_into_a_sea_with_enemy_ships() -> None:
    """B-MUSTER-09: Riverrun borders Ironman's Bay, but a Greyjoy ship is there; Harrenhal has no sea at all."""
    g = book()
    areas = prompt(g, "lannister").choices["areas"]
    assert "ironmans-bay" not in areas["riverrun"]["ship_to"]
    assert areas["harrenhal"]["ship_to"] == []
    g = book(units={**BOOK["units"], "the-golden-sound": "greyjoy ship"})
    areas = prompt(g, "lannister").choices["areas"]
    assert "riverrun" not in areas  # no ship anywhere and no room for a land unit: nothing to muster there
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"riverrun": [{"recruit": "ship", "to": "the-golden-sound"}]})
    assert err.value.code == "ship-bad-area"


def test_B_MUSTER_10_port_usable_even_when_its_sea_holds_enemy_ships() -> None:
    """B-MUSTER-10: with Greyjoy in the Golden Sound, Lannisport can still build into its own port."""
    g = book(units={**BOOK["units"], "the-golden-sound": "greyjoy ship"})
    assert prompt(g, "lannister").choices["areas"]["lannisport"]["ship_to"] == ["port-of-lannisport"]
    g.act("lannister", {"lannisport": [{"recruit": "ship", "to": "port-of-lannisport"}]})
    assert units(g, "port-of-lannisport") == ["ship"]


def test_B_MUSTER_08_a_port_holds_at_most_three_ships() -> None:
    """B-PORT capacity: a full port is not offered."""
    g = book(supply={"lannister": 6}, units={**BOOK["units"], "port-of-lannisport": "lannister ship ship ship"})
    assert prompt(g, "lannister").choices["areas"]["lannisport"]["ship_to"] == ["the-golden-sound"]
    with pytest.raises(RuleError):
        g.act("lannister", {"lannisport": [{"recruit": "ship", "to": "port-of-lannisport"}]})


def test_B_MUSTER_11_land_units_never_go_to_sea() -> None:
    """B-MUSTER-11: a footman cannot be mustered into a port or a sea."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"lannisport": [{"recruit": "footman", "to": "port-of-lannisport"}]})
    assert err.value.code == "bad-answer"


def test_B_MUSTER_13_no_points_without_a_castle() -> None:
    """B-MUSTER-13: Stoney Sept is Lannister's but has no castle: it cannot muster."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"stoney-sept": [{"recruit": "footman"}]})
    assert err.value.code == "muster-bad-area"


def test_B_MUSTER_01_house_with_nothing_to_muster_is_skipped() -> None:
    """B-MUSTER-01: Stark controls no castle (Winterfell is held by a Lannister Power token): no prompt for Stark."""
    g = westeros(
        {
            "units": {"dragonstone": "baratheon footman", "lannisport": "lannister footman"},
            "power_tokens": {"winterfell": "lannister"},
            "garrisons": {"lannisport": 2, "dragonstone": 2},  # Winterfell's garrison fell when Lannister took it
        },
        MUSTER_CARDS,
    )
    asked = []
    while not in_planning(g):
        p = prompt(g, kind="muster")
        asked.append(p.house)
        g.act(p.house, {})
    assert asked == ["baratheon", "lannister"]


def test_B_CP_06_special_consolidate_power_musters_in_its_area_only() -> None:
    """B-CP-06 (interface with the Action phase): the special Consolidate Power order musters in that area only."""
    g = Game.from_scenario(
        {
            "players": 3,
            "round": 10,
            "units": {
                "lannisport": "lannister footman",
                "dragonstone": "baratheon footman",
                "riverrun": "lannister footman",
            },
            "orders": {"lannisport": "consolidate*"},
            "start": "consolidate",
        }
    )
    answer(g, "lannister", "consolidate", "muster")
    p = prompt(g, "lannister", "muster")
    assert list(p.choices["areas"]) == ["lannisport"]
    with pytest.raises(RuleError):
        g.act("lannister", {"riverrun": [{"recruit": "footman"}]})
    g.act("lannister", {"lannisport": [{"recruit": "knight"}]})
    assert units(g, "lannisport") == ["footman", "knight"]
