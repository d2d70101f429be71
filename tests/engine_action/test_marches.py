"""Marches (checklist section 17, B-MARCH-*; B-OPEN-11; known edge case #140: supply on split marches)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import combat_frame, kinds, make, march, march_answer, prompt, rejected, units


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    return make({"units": unit_spec, "orders": orders, "start": "action", **extra})


def test_rulebook_march_example() -> None:
    """002:1817-1835, 001:829-835: three footmen leave Lannisport: one to Stoney Sept, one joins the footman in
    Searoad Marches (an army of two), one stays; no combat, the order is removed."""
    g = action(
        {
            "lannisport": "lannister footman footman footman",
            "searoad-marches": "lannister footman",
            "winterfell": "stark footman",
        },
        {"lannisport": "march0", "searoad-marches": "defense1", "winterfell": "march0"},
    )
    events = march(g, "lannister", "lannisport", {"stoney-sept": ["footman"], "searoad-marches": ["footman"]})
    assert units(g, "lannisport") == ["lannister footman"]
    assert units(g, "stoney-sept") == ["lannister footman"]
    assert units(g, "searoad-marches") == ["lannister footman", "lannister footman"]
    assert "lannisport" not in g.s.orders
    assert not any(e["type"] == "combat-started" for e in events)


def test_B_MARCH_01_marches_alternate_in_turn_order() -> None:
    g = action(
        {
            "lannisport": "lannister footman",
            "stoney-sept": "lannister footman",
            "winterfell": "stark footman",
            "pyke": "greyjoy footman",
        },
        {"lannisport": "march0", "stoney-sept": "march-1", "winterfell": "march0", "pyke": "defense1"},
    )
    seen = []
    while g.prompts():
        p = g.prompts()[0]
        assert p.kind == "march"
        seen.append(p.house)
        march(g, p.house, sorted(p.choices)[0])
    assert seen == ["lannister", "stark", "lannister"]


def test_B_MARCH_02_move_all_some_or_none() -> None:
    spec = {"lannisport": "lannister footman knight", "winterfell": "stark footman"}
    orders = {"lannisport": "march0", "winterfell": "march0"}
    g = action(spec, orders)
    march(g, "lannister", "lannisport")  # none
    assert units(g, "lannisport") == ["lannister footman", "lannister knight"]
    assert "lannisport" not in g.s.orders
    g = action(spec, orders)
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})  # some
    assert units(g, "lannisport") == ["lannister footman"]
    g = action(spec, orders)
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "footman"]})  # all
    assert "lannisport" not in g.s.units


def test_B_MARCH_03_split_between_several_areas() -> None:
    g = action(
        {"lannisport": "lannister footman footman knight", "winterfell": "stark footman"},
        {"lannisport": "march0", "winterfell": "march0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"], "riverrun": ["knight"]})
    assert units(g, "stoney-sept") == ["lannister footman"]
    assert units(g, "riverrun") == ["lannister knight"]
    assert units(g, "lannisport") == ["lannister footman"]


def test_B_MARCH_04_only_into_adjacent_areas() -> None:
    g = action(
        {"lannisport": "lannister footman", "winterfell": "stark footman"},
        {"lannisport": "march0", "winterfell": "march0"},
    )
    assert prompt(g, "lannister").choices["lannisport"]["destinations"]["footman"] == [
        "riverrun",
        "searoad-marches",
        "stoney-sept",
    ]
    rejected(g, "lannister", march_answer("lannisport", {"harrenhal": ["footman"]}), "not-adjacent")


def test_B_MARCH_05_land_units_never_enter_seas_or_ports() -> None:
    g = action(
        {"lannisport": "lannister footman", "winterfell": "stark footman"},
        {"lannisport": "march0", "winterfell": "march0"},
    )
    rejected(g, "lannister", march_answer("lannisport", {"the-golden-sound": ["footman"]}), "not-adjacent")
    rejected(g, "lannister", march_answer("lannisport", {"port-of-lannisport": ["footman"]}), "not-adjacent")


def test_B_MARCH_05_ships_move_to_adjacent_seas_or_a_friendly_port_never_onto_land() -> None:
    g = action(
        {"the-golden-sound": "lannister ship", "lannisport": "lannister footman", "winterfell": "stark footman"},
        {"the-golden-sound": "march0", "lannisport": "defense1", "winterfell": "march0"},
    )
    assert prompt(g, "lannister").choices["the-golden-sound"]["destinations"]["ship"] == [
        "ironmans-bay",
        "port-of-lannisport",
        "sunset-sea",
    ]
    rejected(g, "lannister", march_answer("the-golden-sound", {"riverrun": ["ship"]}), "not-adjacent")
    march(g, "lannister", "the-golden-sound", {"port-of-lannisport": ["ship"]})
    assert units(g, "port-of-lannisport") == ["lannister ship"]


def test_B_MARCH_06_one_march_starts_at_most_one_combat() -> None:
    g = action(
        {
            "lannisport": "lannister footman knight",
            "stoney-sept": "stark footman",
            "riverrun": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "riverrun": "defense1"},
    )
    err = rejected(
        g, "lannister", march_answer("lannisport", {"stoney-sept": ["footman"], "riverrun": ["knight"]}), "two-combats"
    )
    assert err.params["areas"] == ["stoney-sept", "riverrun"]


def test_B_MARCH_07_entering_enemy_units_starts_a_combat_as_attacker() -> None:
    g = action(
        {"lannisport": "lannister footman knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    events = march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    started = events[-1]
    assert started["type"] == "combat-started"
    assert (started["attacker"], started["defender"], started["area"]) == ("lannister", "stark", "stoney-sept")
    f = combat_frame(g)
    assert f is not None and f["attacker"] == "lannister" and f["defender"] == "stark"


def test_B_MARCH_08_other_moves_complete_before_the_combat() -> None:
    g = action(
        {"lannisport": "lannister footman knight footman", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(
        g,
        "lannister",
        "lannisport",
        {"stoney-sept": ["knight"], "riverrun": ["footman"], "searoad-marches": ["footman"]},
    )
    assert combat_frame(g) is not None
    # The peaceful moves are done while the combat is still being fought.
    assert units(g, "riverrun") == ["lannister footman"] and units(g, "searoad-marches") == ["lannister footman"]
    assert kinds(g) == [("lannister", "house-card"), ("stark", "house-card")]


def test_B_MARCH_10_vacating_a_land_loses_its_control() -> None:
    g = action(
        {"riverrun": "lannister footman", "winterfell": "stark footman"},
        {"riverrun": "march0", "winterfell": "march0"},
    )
    assert g.view(None)["areas"]["riverrun"]["controller"] == "lannister"
    march(g, "lannister", "riverrun", {"seagard": ["footman"]})
    assert g.view(None)["areas"]["riverrun"]["controller"] is None
    assert g.view(None)["areas"]["seagard"]["controller"] == "lannister"


def test_B_MARCH_11_chained_marches() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "lannister footman", "winterfell": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "march-1", "winterfell": "march0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    march(g, "stark", "winterfell")
    # The knight arrived in Stoney Sept and moves on with that area's March order.
    assert prompt(g, "lannister").choices["stoney-sept"]["units"] == {"footman": 1, "knight": 1}
    march(g, "lannister", "stoney-sept", {"harrenhal": ["knight", "footman"]})
    assert units(g, "harrenhal") == ["lannister footman", "lannister knight"]


def test_B_MARCH_12_the_order_is_removed_with_or_without_combat() -> None:
    g = action(
        {"lannisport": "lannister knight", "riverrun": "lannister footman", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "riverrun": "march-1", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "riverrun", {"seagard": ["footman"]})
    assert "riverrun" not in g.s.orders
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    from .helpers import fight

    fight(g, cards={"lannister": "the-hound", "stark": "eddard-stark"})
    assert "lannisport" not in g.s.orders


def test_B_MARCH_13_enemy_power_token_alone_causes_no_combat() -> None:
    g = action(
        {"lannisport": "lannister footman", "winterfell": "stark footman"},
        {"lannisport": "march0", "winterfell": "march0"},
        power_tokens={"stoney-sept": "stark"},
    )
    assert g.view(None)["areas"]["stoney-sept"]["controller"] == "stark"
    events = march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    assert not any(e["type"] == "combat-started" for e in events)
    assert {"type": "power-token-removed", "area": "stoney-sept", "house": "stark", "reason": "taken"} in events
    assert "stoney-sept" not in g.s.power_tokens
    assert g.view(None)["areas"]["stoney-sept"]["controller"] == "lannister"


def test_B_MARCH_14_ships_never_enter_an_enemy_port() -> None:
    g = action(
        {
            "the-golden-sound": "greyjoy ship",
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship",
        },
        {"the-golden-sound": "march0", "lannisport": "defense1", "port-of-lannisport": "defense1"},
    )
    assert "port-of-lannisport" not in prompt(g, "greyjoy").choices["the-golden-sound"]["destinations"]["ship"]
    rejected(g, "greyjoy", march_answer("the-golden-sound", {"port-of-lannisport": ["ship"]}), "not-adjacent")


def test_B_MARCH_15_routed_units_cannot_move() -> None:
    g = action(
        {"lannisport": "lannister footman routed-knight", "winterfell": "stark footman"},
        {"lannisport": "march0", "winterfell": "march0"},
    )
    assert prompt(g, "lannister").choices["lannisport"]["units"] == {"footman": 1}
    rejected(g, "lannister", march_answer("lannisport", {"stoney-sept": ["knight"]}), "units-missing")


def test_B_MARCH_16_a_march_breaking_supply_is_illegal() -> None:
    # Supply 1: armies of at most 3 and 2. Two footmen joining the army of 2 make 4.
    g = action(
        {
            "lannisport": "lannister footman footman footman",
            "stoney-sept": "lannister footman footman",
            "winterfell": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "winterfell": "march0"},
        supply={"lannister": 1},
    )
    rejected(g, "lannister", march_answer("lannisport", {"stoney-sept": ["footman", "footman"]}), "supply-exceeded")
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})  # 2 and 3: within the limits


def test_B_OPEN_11_known_edge_140_a_split_march_is_checked_on_its_final_position() -> None:
    # Supply 0: two armies of two. Lannisport (2) sends one footman each to Riverrun and Stoney Sept (1 each):
    # each move alone is legal, together they make three armies of two.
    spec = {
        "lannisport": "lannister footman footman",
        "riverrun": "lannister footman",
        "stoney-sept": "lannister footman",
        "seagard": "lannister footman footman",
        "winterfell": "stark footman",
    }
    orders = {"lannisport": "march0", "riverrun": "defense1", "stoney-sept": "defense1", "seagard": "defense2*"}
    orders["winterfell"] = "march0"
    g = action(spec, orders, supply={"lannister": 0})
    rejected(
        g,
        "lannister",
        march_answer("lannisport", {"riverrun": ["footman"], "stoney-sept": ["footman"]}),
        "supply-exceeded",
    )
    march(g, "lannister", "lannisport", {"riverrun": ["footman"]})


def test_B_OPEN_11_only_the_final_position_counts() -> None:
    # Supply 1 (armies 3 and 2). Lannisport 3, Riverrun 2, Stoney Sept 1. One footman to Stoney Sept and one to
    # Riverrun: done in that order the position passes through three armies (2, 2, 2), but the final position
    # (1, 3, 2) is legal, so the whole march is legal.
    spec = {
        "lannisport": "lannister footman footman footman",
        "riverrun": "lannister footman footman",
        "stoney-sept": "lannister footman",
        "winterfell": "stark footman",
    }
    orders = {"lannisport": "march0", "riverrun": "defense1", "stoney-sept": "defense1", "winterfell": "march0"}
    g = action(spec, orders, supply={"lannister": 1})
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"], "riverrun": ["footman"]})
    assert len(g.s.units["riverrun"]) == 3 and len(g.s.units["stoney-sept"]) == 2


def test_B_MARCH_17_an_enemy_home_with_only_its_garrison_means_combat() -> None:
    g = action(
        {"white-harbor": "greyjoy footman knight", "karhold": "stark footman"},
        {"white-harbor": "march0", "karhold": "defense1"},
        garrisons={"winterfell": 2},
    )
    events = march(g, "greyjoy", "white-harbor", {"winterfell": ["knight", "footman"]})
    assert events[-1]["type"] == "combat-started" and events[-1]["defender"] == "stark"


def test_B_MARCH_19_a_port_holds_at_most_three_ships() -> None:
    g = action(
        {
            "the-golden-sound": "lannister ship ship",
            "port-of-lannisport": "lannister ship ship",
            "lannisport": "lannister footman",
            "winterfell": "stark footman",
        },
        {
            "the-golden-sound": "march0",
            "port-of-lannisport": "defense1",
            "lannisport": "defense1",
            "winterfell": "march0",
        },
        supply={"lannister": 6},
    )
    rejected(g, "lannister", march_answer("the-golden-sound", {"port-of-lannisport": ["ship", "ship"]}), "port-full")
    march(g, "lannister", "the-golden-sound", {"port-of-lannisport": ["ship"]})
    assert len(g.s.units["port-of-lannisport"]) == 3


def test_march_illegal_answers_leave_the_state_unchanged() -> None:
    g = action(
        {"lannisport": "lannister footman knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "march0"},
    )
    rejected(g, "stark", march_answer("stoney-sept"), "not-your-turn")
    rejected(g, "lannister", march_answer("stoney-sept"), "illegal-choice")
    rejected(g, "lannister", march_answer("lannisport", {"riverrun": ["footman", "footman"]}), "units-missing")
    rejected(g, "lannister", march_answer("lannisport", {"riverrun": ["dragon"]}), "units-missing")
    rejected(g, "lannister", march_answer("lannisport", {"lannisport": ["footman"]}), "march-same-area")
    rejected(g, "lannister", march_answer("lannisport", {"winterfell": ["footman"]}), "not-adjacent")
    rejected(
        g, "lannister", {"from": "lannisport", "moves": [{"to": ["riverrun"], "units": ["footman"]}]}, "bad-answer"
    )
    rejected(g, "lannister", {"from": "lannisport", "moves": [{"to": "riverrun", "units": "footman"}]}, "bad-answer")
    rejected(g, "lannister", {"from": "lannisport", "moves": {"riverrun": ["footman"]}}, "bad-answer")
    rejected(g, "lannister", {"from": "lannisport"}, "bad-answer")
    # A power token can only be left in a land that is emptied.
    rejected(
        g, "lannister", march_answer("lannisport", {"riverrun": ["footman"]}, leave_power=True), "cannot-leave-power"
    )
