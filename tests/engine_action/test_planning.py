"""Planning phase: assigning and revealing orders (checklist section 13, B-PLAN-*)."""

from __future__ import annotations

from typing import Any

from engine.orders import ORDER_TOKENS

from .helpers import make, prompt, rejected

TRACKS_6 = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    # King's Court (5-6 players): 3, 3, 2, 1, 0, 0 stars.
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


def planning(units: dict[str, str], **extra: Any) -> Any:
    return make({"units": units, "tracks": TRACKS_6, "start": "planning", **extra})


SMALL = {
    "winterfell": "stark footman knight",
    "white-harbor": "stark footman",
    "the-shivering-sea": "stark ship",
    "lannisport": "lannister footman knight",
    "stoney-sept": "lannister footman",
}


def test_B_PLAN_01_planning_has_assign_reveal_raven_steps() -> None:
    g = planning(SMALL)
    assert {p.kind for p in g.prompts()} == {"orders"}
    g.act("stark", {"orders": {"winterfell": "defense1", "white-harbor": "support0", "the-shivering-sea": "raid"}})
    events = g.act("lannister", {"orders": {"lannisport": "defense1", "stoney-sept": "consolidate"}})
    assert [e["type"] for e in events][-2:] == ["orders-submitted", "orders-revealed"]
    # Step 3: the Messenger Raven, asked of the King's Court holder, after the reveal.
    assert [(p.house, p.kind) for p in g.prompts()] == [("lannister", "raven")]
    assert g.s.phase == "planning"
    g.act("lannister", {"action": "none"})
    assert g.s.phase == "action"


def test_B_PLAN_02_one_order_in_every_area_with_units_simultaneously() -> None:
    g = planning(SMALL)
    # Both houses are asked at once (simultaneous), each for exactly its areas holding units.
    assert sorted(p.house for p in g.prompts()) == ["lannister", "stark"]
    assert prompt(g, "stark").choices["areas"] == ["the-shivering-sea", "white-harbor", "winterfell"]
    assert prompt(g, "lannister").choices["areas"] == ["lannisport", "stoney-sept"]
    assert prompt(g, "stark").secret
    # Lannister can answer before Stark: nobody waits for anyone.
    g.act("lannister", {"orders": {"lannisport": "defense1", "stoney-sept": "consolidate"}})
    assert g.awaiting() == ["stark"]


def test_B_PLAN_03_an_area_holds_at_most_one_order() -> None:
    g = planning(SMALL)
    rejected(g, "stark", {"orders": {"winterfell": ["defense1", "march0"], "white-harbor": "raid"}}, "bad-answer")
    # The answer is a map area -> one token: an area can never receive two.
    g.act("stark", {"orders": {"winterfell": "defense1", "white-harbor": "support0", "the-shivering-sea": "raid"}})
    g.act("lannister", {"orders": {"lannisport": "defense1", "stoney-sept": "consolidate"}})
    assert {a: o.token for a, o in g.s.orders.items() if o.house == "stark"} == {
        "winterfell": "defense1",
        "white-harbor": "support0",
        "the-shivering-sea": "raid",
    }


def test_B_PLAN_05_all_ten_normal_orders_but_stars_limited_by_kings_court() -> None:
    # Baratheon is 4th on King's Court (1 star); it holds ten areas and may use all ten normal orders.
    areas = [
        "dragonstone",
        "kingswood",
        "storms-end",
        "the-boneway",
        "blackwater",
        "crackclaw-point",
        "harrenhal",
        "kings-landing",
        "the-reach",
        "shipbreaker-bay",
    ]
    units = {a: "baratheon ship" if a == "shipbreaker-bay" else "baratheon footman" for a in areas}
    g = planning(units)
    normal = [t for t, tok in ORDER_TOKENS.items() if not tok.star for _ in range(tok.copies)]
    assert len(normal) == 10
    assert prompt(g, "baratheon").choices["stars"] == 1
    two_stars = dict(zip(areas, normal, strict=True))
    two_stars["dragonstone"], two_stars["kingswood"] = "march1*", "defense2*"
    rejected(g, "baratheon", {"orders": two_stars}, "too-many-stars")
    overused = dict(zip(areas, normal, strict=True))
    overused["dragonstone"] = overused["kingswood"] = overused["storms-end"] = "raid"
    rejected(g, "baratheon", {"orders": overused}, "order-overused")
    one_star = dict(zip(areas, normal, strict=True))
    one_star["dragonstone"] = "march1*"
    g.act("baratheon", {"orders": one_star})
    assert sum(1 for o in g.s.orders.values() if ORDER_TOKENS[o.token].star) == 1


def test_B_PLAN_05_house_with_no_star_cannot_place_any() -> None:
    g = planning({"highgarden": "tyrell footman"})  # Tyrell is 5th on King's Court: no star
    rejected(g, "tyrell", {"orders": {"highgarden": "consolidate*"}}, "too-many-stars")


def test_B_PLAN_06_every_area_with_units_must_get_an_order() -> None:
    g = planning(SMALL)
    err = rejected(g, "stark", {"orders": {"winterfell": "defense1", "white-harbor": "raid"}}, "orders-missing")
    assert err.params["areas"] == ["the-shivering-sea"]


def short_realm() -> dict[str, str]:
    # Eleven Tyrell areas: Tyrell (no stars) owns only ten usable tokens.
    lands = ["highgarden", "oldtown", "the-reach", "dornish-marches", "three-towers", "searoad-marches"]
    seas = ["redwyne-straights", "west-summer-sea", "sunset-sea", "east-summer-sea", "sea-of-dorne"]
    units = {a: "tyrell footman" for a in lands} | {a: "tyrell ship" for a in seas}
    units["winterfell"] = "stark footman"
    units["lannisport"] = "lannister footman"
    return units


def test_B_PLAN_07_a_short_house_makes_everybody_assign_in_turn_order() -> None:
    g = planning(short_realm())
    # Turn order: baratheon, lannister, stark, martell, greyjoy, tyrell -> one house at a time.
    assert [p.house for p in g.prompts()] == ["lannister"]
    assert prompt(g, "lannister").choices["must_cover_all"] is True
    rejected(g, "stark", {"orders": {"winterfell": "defense1"}}, "not-your-turn")
    g.act("lannister", {"orders": {"lannisport": "defense1"}})
    assert [p.house for p in g.prompts()] == ["stark"]
    g.act("stark", {"orders": {"winterfell": "defense1"}})
    p = prompt(g, "tyrell")
    assert p.choices["must_cover_all"] is False
    areas: list[str] = p.choices["areas"]
    normal = [t for t, tok in ORDER_TOKENS.items() if not tok.star for _ in range(tok.copies)]
    # Nine orders are too few: a short house must place every token it can use...
    rejected(g, "tyrell", {"orders": dict(zip(areas[:9], normal[:9], strict=True))}, "orders-missing")
    # ...and may never exceed its special-order limit (none for Tyrell here).
    with_star = dict(zip(areas[:10], normal, strict=True))
    with_star[areas[0]] = "march1*"
    rejected(g, "tyrell", {"orders": with_star}, "too-many-stars")
    # Ten orders, leaving the area of its choice without one.
    chosen = dict(zip(areas[1:], normal, strict=True))
    g.act("tyrell", {"orders": chosen})
    assert areas[0] not in g.s.orders
    assert sum(1 for o in g.s.orders.values() if o.house == "tyrell") == 10


def test_B_PLAN_08_orders_on_ships_in_ports_defense_allowed() -> None:
    g = planning({"lannisport": "lannister footman", "port-of-lannisport": "lannister ship"})
    assert "port-of-lannisport" in prompt(g, "lannister").choices["areas"]
    rejected(g, "lannister", {"orders": {"lannisport": "defense1"}}, "orders-missing")
    g.act("lannister", {"orders": {"lannisport": "raid", "port-of-lannisport": "defense1"}})
    assert g.s.orders["port-of-lannisport"].token == "defense1"


def test_B_PLAN_09_consolidate_power_may_be_placed_in_a_sea() -> None:
    g = planning({"the-golden-sound": "lannister ship", "lannisport": "lannister footman"})
    g.act("lannister", {"orders": {"the-golden-sound": "consolidate", "lannisport": "raid"}})
    assert g.s.orders["the-golden-sound"].token == "consolidate"


def test_B_PLAN_10_a_garrison_alone_takes_no_order() -> None:
    g = planning({"white-harbor": "stark footman"}, garrisons={"winterfell": 2})
    assert prompt(g, "stark").choices["areas"] == ["white-harbor"]
    err = rejected(g, "stark", {"orders": {"white-harbor": "raid", "winterfell": "defense1"}}, "order-area-empty")
    assert err.params["areas"] == ["winterfell"]


def test_B_PLAN_11_all_orders_are_revealed_at_the_same_time() -> None:
    g = planning(SMALL)
    g.act("stark", {"orders": {"winterfell": "defense1", "white-harbor": "support0", "the-shivering-sea": "raid"}})
    # Stark's orders are on record but nothing is on the board (face up) yet.
    assert g.s.orders == {}
    assert not g.s.orders_revealed
    events = g.act("lannister", {"orders": {"lannisport": "defense1", "stoney-sept": "consolidate"}})
    reveal = next(e for e in events if e["type"] == "orders-revealed")
    assert set(reveal["orders"]) == {"winterfell", "white-harbor", "the-shivering-sea", "lannisport", "stoney-sept"}
    assert g.s.orders_revealed


def test_B_PLAN_12_westeros_restrictions_bind_the_assignment() -> None:
    g = planning(SMALL, restrictions=["defense", "march-plus-one"])
    tokens = prompt(g, "stark").choices["tokens"]
    assert "defense1" not in tokens and "defense2*" not in tokens and "march1*" not in tokens
    err = rejected(
        g,
        "stark",
        {"orders": {"winterfell": "defense1", "white-harbor": "support0", "the-shivering-sea": "raid"}},
        "order-forbidden",
    )
    assert err.params["tokens"] == ["defense1"]
    rejected(
        g,
        "stark",
        {"orders": {"winterfell": "march1*", "white-harbor": "support0", "the-shivering-sea": "raid"}},
        "order-forbidden",
    )
    g.act("stark", {"orders": {"winterfell": "march0", "white-harbor": "support0", "the-shivering-sea": "raid"}})


def test_B_PLAN_unknown_token_and_bad_shapes_are_rejected() -> None:
    g = planning(SMALL)
    rejected(g, "stark", {"orders": {"winterfell": "march2"}}, "unknown-order")
    rejected(g, "stark", {"nothing": 1}, "bad-answer")
    rejected(g, "stark", "defense1", "bad-answer")
    rejected(g, "stark", {"orders": ["winterfell", "defense1"]}, "bad-answer")


def test_known_edge_sea_of_storms_and_web_of_lies_forbid_raid_and_support_starred_included() -> None:
    g = planning(SMALL, restrictions=["raid", "support"])
    tokens = prompt(g, "stark").choices["tokens"]
    assert not {"raid", "raid*", "support0", "support1*"} & set(tokens)
    for token in ("raid*", "support1*"):
        rejected(
            g,
            "stark",
            {"orders": {"winterfell": token, "white-harbor": "defense1", "the-shivering-sea": "march0"}},
            "order-forbidden",
        )
