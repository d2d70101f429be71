"""Supply levels and reconciliation (B-SUPPLY-01..11, B-OPEN-07; known edge cases "Supply and limits")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, data, rules, scenario
from engine.setup import initial_state
from engine.state import Unit
from engine.steps.supply import check_reconcile, minimal_removal
from tests.engine_westeros.helpers import (
    answer,
    decks,
    events_of,
    in_planning,
    kinds,
    prompt,
    setup_events,
    units,
    westeros,
)

SUPPLY_CARDS = ("supply", "game-of-thrones", "web-of-lies")

# The rulebook's supply example (RU 002:784-800, BG 001:429-437): Greyjoy has just taken Seagard and Riverrun
# (one barrel each) from Lannister; Supply drops Lannister from 5 to 3. Lannister's armies: 4 (The Twins),
# 3 (Harrenhal), 2 and 2; single units elsewhere. It destroys a footman in The Twins and one in Harrenhal.
BOOK = {
    "players": 4,
    "supply": {"lannister": 5, "greyjoy": 2, "stark": 1, "baratheon": 2},
    "units": {
        "the-twins": "lannister footman footman knight knight",
        "harrenhal": "lannister footman footman knight",
        "lannisport": "lannister knight footman",
        "stoney-sept": "lannister footman footman",
        "searoad-marches": "lannister footman",
        "seagard": "greyjoy footman",
        "riverrun": "greyjoy footman",
        "pyke": "greyjoy knight",
        "winterfell": "stark footman",
        "dragonstone": "baratheon footman",
    },
}


def book() -> Game:
    return westeros(BOOK, SUPPLY_CARDS)


def test_B_SUPPLY_05_rulebook_example_lannister_drops_from_5_to_3() -> None:
    """B-SUPPLY-05, B-SUPPLY-03: the book's example; the default removal is exactly the book's choice."""
    g = book()
    assert g.s.houses["lannister"].supply == 3
    assert g.s.houses["greyjoy"].supply == 3
    p = prompt(g, kind="reconcile")
    assert p.house == "lannister"
    assert p.choices["limits"] == [3, 2, 2, 2]
    assert p.choices["armies"] == {
        "harrenhal": ["footman", "footman", "knight"],
        "lannisport": ["footman", "knight"],
        "stoney-sept": ["footman", "footman"],
        "the-twins": ["footman", "footman", "knight", "knight"],
    }
    assert p.default == {"destroy": {"harrenhal": ["footman"], "the-twins": ["footman"]}}
    g.act("lannister", {"destroy": {"the-twins": ["footman"], "harrenhal": ["footman"]}})
    assert units(g, "the-twins") == ["footman", "knight", "knight"]
    assert units(g, "harrenhal") == ["footman", "knight"]
    assert rules.supply_ok(g.s, "lannister")
    assert in_planning(g)


def test_B_SUPPLY_01_levels_set_in_turn_order_to_barrel_count() -> None:
    """B-SUPPLY-01: each house in turn order moves to the barrels of the areas it controls (capped at 6)."""
    g = book()
    adjusted = events_of(setup_events(g), "supply-adjusted")
    assert [e["house"] for e in adjusted] == rules.turn_order(g.s)
    assert {e["house"]: (e["old"], e["new"]) for e in adjusted}["lannister"] == (5, 3)


def test_B_SUPPLY_01_supply_never_above_6() -> None:
    """Known edge case "supply level could go above max": 7+ barrels still mean level 6."""
    spread = {a: "stark footman" for a in ("winterfell", "the-stony-shore", "widows-watch", "karhold")}
    spread |= {a: "stark footman" for a in ("greywater-watch", "the-mountains-of-the-moon", "the-fingers", "riverrun")}
    g = westeros({"units": spread, "supply": {"stark": 1}}, SUPPLY_CARDS)
    assert sum(data.board().areas[a].supply for a in rules.controlled_lands(g.s, "stark")) > 6
    assert g.s.houses["stark"].supply == 6


def test_B_SUPPLY_02_03_supply_table_matches_the_books() -> None:
    """B-SUPPLY-02, B-SUPPLY-03: level 3 allows four armies (3, 2, 2, 2); level 2 three armies (3, 2, 2)."""
    assert data.supply_limits(3) == [3, 2, 2, 2]
    assert data.supply_limits(2) == [3, 2, 2]
    assert rules.fits_supply([3, 2, 2, 2], 3)
    assert not rules.fits_supply([3, 3, 2, 2], 3)
    assert not rules.fits_supply([2, 2, 2, 2, 2], 3)


def test_B_SUPPLY_04_single_units_are_not_armies() -> None:
    """B-SUPPLY-04: any number of single units never needs reconciling."""
    spread = {a: "stark footman" for a in ("winterfell", "the-stony-shore", "widows-watch", "karhold", "moat-cailin")}
    spread["the-shivering-sea"] = "stark ship"
    g = westeros({"units": spread, "supply": {"stark": 6}}, SUPPLY_CARDS)
    assert g.s.houses["stark"].supply == 3
    assert in_planning(g)
    assert sum(len(us) for us in g.s.units.values()) == 6


def test_B_SUPPLY_06_fewer_and_smaller_armies_are_fine() -> None:
    """B-SUPPLY-06: a house inside its limits is not asked anything."""
    g = westeros({"units": {"winterfell": "stark footman footman"}, "supply": {"stark": 6}}, SUPPLY_CARDS)
    assert in_planning(g)
    assert units(g, "winterfell") == ["footman", "footman"]


def test_B_SUPPLY_07_knights_and_siege_engines_count_as_one_unit() -> None:
    """B-SUPPLY-07: an army of knight + siege engine + footman is an army of 3."""
    g = westeros(
        {"units": {"winterfell": "stark knight siege-engine footman", "white-harbor": "stark knight knight"}},
        SUPPLY_CARDS,
    )
    assert g.s.houses["stark"].supply == 1  # flags (3, 2)
    assert in_planning(g)


def test_B_SUPPLY_08_barrels_matter_only_when_the_token_moves() -> None:
    """B-SUPPLY-08: controlling barrels changes nothing until a Supply effect moves the token."""
    g = westeros({"supply": {"stark": 0}}, ("mustering", "game-of-thrones", "web-of-lies"))
    assert rules.barrels(g.s, "stark") == 1
    assert g.s.houses["stark"].supply == 0


def test_B_SUPPLY_10_ships_in_seas_and_ports_are_armies() -> None:
    """B-SUPPLY-10: ships in one sea or one port form armies: 3 + 2 ships fit level 1 (flags 3, 2); 3 footmen and
    2 + 2 ships (a house owns only 6 ships) are three armies, one too many; one ship goes."""
    ships = {"bay-of-ice": "stark ship ship ship", "port-of-winterfell": "stark ship ship"}
    g = westeros({"units": ships, "supply": {"stark": 6}}, SUPPLY_CARDS)
    assert g.s.houses["stark"].supply == 1
    assert in_planning(g)  # (3, 2) fits level 1
    fleets = {
        "winterfell": "stark footman footman footman",
        "port-of-winterfell": "stark ship ship",
        "the-shivering-sea": "stark ship ship",
    }
    g = westeros({"units": fleets, "supply": {"stark": 6}}, SUPPLY_CARDS)
    p = prompt(g, "stark", "reconcile")
    assert p.choices["limits"] == [3, 2]
    assert p.default == {"destroy": {"port-of-winterfell": ["ship"]}}
    g.act("stark", {"destroy": {"the-shivering-sea": ["ship"]}})
    assert rules.army_sizes(g.s, "stark") == [3, 2]


def test_B_SUPPLY_11_routed_units_count_for_supply() -> None:
    """B-SUPPLY-11: routed units are still units of their army.

    Routed units rally at the end of the Action phase, so no game (and no scenario) has them in the Westeros phase.
    What is tested is how the engine counts them, so the state is built from a legal spec (Stark's army of 3 at
    level 1) and two of its units are routed and Stark dropped to level 0 before the phase runs."""
    spec = {
        "players": 3,
        "round": 2,
        "start": "westeros",
        "wildling_threat": 0,
        "westeros_decks": decks(*SUPPLY_CARDS),
        "units": {"winterfell": "stark footman footman knight"},
        "supply": {"stark": 1},
    }
    state, start = scenario.build_state(spec)
    state.units["winterfell"] = [
        Unit("stark", "footman"),
        *(Unit("stark", t, routed=True) for t in ("footman", "knight")),
    ]
    state.houses["stark"].supply = 0
    g = Game(state)
    scenario.push_start(g, start)
    g.run()
    assert rules.army_sizes(g.s, "stark") == [3]
    assert in_planning(g)  # Stark is at 1 now: (3, 2)
    g.s.houses["stark"].supply = 0
    assert not rules.supply_ok(g.s, "stark")


def test_B_OPEN_07_all_levels_move_then_houses_reconcile_in_turn_order() -> None:
    """B-OPEN-07: every house moves its token first; then the houses over their limits reconcile in turn order."""
    spec: dict[str, Any] = {
        "supply": {"stark": 6, "lannister": 6, "baratheon": 6},
        "units": {
            "winterfell": "stark footman footman",
            "white-harbor": "stark footman footman",
            "moat-cailin": "stark footman footman",
            "lannisport": "lannister footman footman",
            "stoney-sept": "lannister footman footman",
            "searoad-marches": "lannister footman footman",
            "riverrun": "lannister footman footman",
            "dragonstone": "baratheon footman",
        },
    }
    g = westeros(spec, SUPPLY_CARDS)
    types = [e["type"] for e in setup_events(g)]
    assert types.count("supply-adjusted") == 3
    assert {h: g.s.houses[h].supply for h in g.s.players} == {"stark": 1, "lannister": 4, "baratheon": 1}
    # Turn order baratheon, lannister, stark: Lannister (4 armies at level 4: fine) is not asked; Stark is.
    assert kinds(g) == [("stark", "reconcile")]
    spec["units"] = {**spec["units"], "the-twins": "lannister footman footman"}  # now 5 armies at level 4
    g = westeros(spec, SUPPLY_CARDS)
    assert kinds(g) == [("lannister", "reconcile")]
    g.act("lannister", prompt(g).default)
    assert kinds(g) == [("stark", "reconcile")]


# ----- "must not remove more than needed; a whole army may go" (known edge case, PR #285) -----


@pytest.mark.parametrize(
    ("destroy", "code"),
    [
        ({"the-twins": ["footman"]}, "supply-still-exceeded"),
        ({"the-twins": ["footman", "footman", "knight"]}, "too-many-removed"),
        ({"the-twins": ["footman"], "harrenhal": ["footman"], "searoad-marches": ["footman"]}, "too-many-removed"),
        ({"the-twins": ["footman"], "harrenhal": ["footman"], "stoney-sept": ["footman"]}, "too-many-removed"),
        ({"the-twins": ["footman"], "harrenhal": ["siege-engine"]}, "units-missing"),
        ({"the-twins": ["footman"], "riverrun": ["footman"]}, "units-missing"),
    ],
)
def test_B_SUPPLY_05_reconcile_refuses_too_few_too_many_or_foreign_units(
    destroy: dict[str, list[str]], code: str
) -> None:
    """B-SUPPLY-05: the answer must bring the house within its limits and remove no more than needed."""
    g = book()
    with pytest.raises(RuleError) as err:
        g.act("lannister", {"destroy": destroy})
    assert err.value.code == code
    assert kinds(g) == [("lannister", "reconcile")]  # the state is unchanged


@pytest.mark.parametrize(
    "destroy",
    [
        {"the-twins": ["footman", "footman"]},  # 2, 3, 2, 2
        {"the-twins": ["footman", "footman", "knight", "knight"]},  # a whole army goes: 3, 2, 2
        {"the-twins": ["knight"], "harrenhal": ["knight"]},  # the player picks which units
        {"harrenhal": ["footman", "footman", "knight"], "the-twins": ["footman"]},  # whole Harrenhal army
    ],
)
def test_B_SUPPLY_05_reconcile_accepts_any_minimal_choice_or_a_whole_army(destroy: dict[str, list[str]]) -> None:
    """B-SUPPLY-05, known edge case: any choice is accepted if no area gives up more than needed; an army that had
    to shrink may go entirely."""
    g = book()
    g.act("lannister", {"destroy": destroy})
    assert rules.supply_ok(g.s, "lannister")
    assert in_planning(g)


def test_B_SUPPLY_05_reconcile_that_empties_a_land_loses_its_port() -> None:
    """B-SUPPLY-05, B-PORT-10, known edge case "ships removed when a castle is left empty": the whole White Harbor army
    goes, no Power token is left there and the ship in its port is destroyed."""
    spec = {
        "supply": {"stark": 6},
        "units": {
            "winterfell": "stark footman footman",
            "white-harbor": "stark footman footman",
            "moat-cailin": "stark footman footman",
            "port-of-white-harbor": "stark ship",
        },
    }
    g = westeros(spec, SUPPLY_CARDS)
    assert g.s.houses["stark"].supply == 1
    events = answer(g, "stark", "reconcile", {"destroy": {"white-harbor": ["footman", "footman"]}})
    assert "white-harbor" not in g.s.units and "white-harbor" not in g.s.power_tokens
    assert "port-of-white-harbor" not in g.s.units
    assert [e["reason"] for e in events_of(events, "units-destroyed")] == ["supply", "port-lost"]
    assert rules.controller(g.s, "white-harbor") is None


LANDS = ("winterfell", "white-harbor", "moat-cailin", "karhold", "the-stony-shore", "widows-watch", "castle-black")


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=len(LANDS)),
    level=st.integers(min_value=0, max_value=6),
    knights=st.integers(min_value=0, max_value=5),
)
def test_B_SUPPLY_05_default_reconciliation_is_always_legal_and_minimal(
    sizes: list[int], level: int, knights: int
) -> None:
    """B-SUPPLY-05 property: for any armies and level the default removal is accepted and removes the fewest units."""
    s = initial_state(3, 0, {})
    s.units = {}
    left = knights
    for area, n in zip(LANDS, sizes, strict=False):
        s.units[area] = [Unit("stark", "knight" if (left := left - 1) >= 0 else "footman") for _ in range(n)]
    s.houses["stark"].supply = level
    picks = minimal_removal(s, "stark")
    check_reconcile(s, "stark", picks)  # raises if illegal
    removed = sum(len(ts) for ts in picks.values())
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    limits = data.supply_limits(level)
    keep = armies[: len(limits)]
    expected = sum(n - 1 for n in armies[len(limits) :]) + sum(
        max(0, n - c) for n, c in zip(keep, limits, strict=False)
    )
    assert removed == expected

    def rank(unit_type: str) -> int:
        return rules.weakness(s, unit_type)

    for area, types in picks.items():  # the weakest units of each area go
        assert sorted(types, key=rank) == sorted((u.type for u in s.units[area]), key=rank)[: len(types)]
