"""Tyrell's house cards: Mace Tyrell, Ser Loras Tyrell, Queen of Thorns (B-HCARD-04, B-HCARD-12, B-MARCH-*)."""

from __future__ import annotations

from engine import Game, rules

from .helpers import battle, destroyed, event, events_of, march, play, prompt, result, units

# ----- Mace Tyrell -----


def test_mace_tyrell_B_HCARD_12_destroys_a_defending_footman_before_strength_is_counted() -> None:
    g = battle(
        {"searoad-marches": "tyrell knight", "stoney-sept": "lannister footman knight"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight"]})
    events = play(
        g,
        {
            ("tyrell", "house-card"): "mace-tyrell",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert destroyed(events)[0] == ("lannister", "stoney-sept", "footman", "mace-tyrell")
    r = result(events)
    assert r["strength"]["defender"] == {"units": 2, "support": 0, "defense": 1, "card": 1, "total": 4}
    assert r["winner"] == "tyrell"
    assert units(g, "lannisport") == ["lannister routed-knight"]


def test_mace_tyrell_destroys_an_attacking_footman_in_its_origin() -> None:
    g = battle(
        {"lannisport": "lannister footman knight", "stoney-sept": "tyrell footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman", "knight"]})
    events = play(g, {("lannister", "house-card"): "the-hound", ("tyrell", "house-card"): "mace-tyrell"})
    assert destroyed(events) == [("lannister", "lannisport", "footman", "mace-tyrell")]
    r = result(events)
    assert r["strength"]["attacker"]["units"] == 2 and r["winner"] == "tyrell"
    assert units(g, "lannisport") == ["lannister routed-knight"]


def test_mace_tyrell_asks_only_between_a_standing_and_a_routed_footman() -> None:
    g = battle(
        {"searoad-marches": "tyrell knight", "stoney-sept": "lannister footman routed-footman"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight"]})
    g.act("tyrell", "mace-tyrell")
    g.act("lannister", "the-hound")
    p = prompt(g, "tyrell")
    assert (p.kind, p.choices, p.default) == ("mace-footman", ["footman", "routed-footman"], "footman")
    events = g.act("tyrell", "routed-footman")
    assert destroyed(events) == [("lannister", "stoney-sept", "footman", "mace-tyrell")]
    assert units(g, "stoney-sept") == ["lannister footman"]


def test_mace_tyrell_nothing_without_footmen() -> None:
    g = battle(
        {"searoad-marches": "tyrell knight knight", "stoney-sept": "lannister knight"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight", "knight"]})
    events = play(
        g,
        {
            ("tyrell", "house-card"): "mace-tyrell",
            ("lannister", "house-card"): "the-hound",
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert not events_of(events, "house-card-ability") and destroyed(events) == []


def test_mace_tyrell_the_blackfish_prevents_it() -> None:
    g = battle(
        {"searoad-marches": "tyrell knight", "stoney-sept": "stark footman"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight"]})
    events = play(
        g,
        {
            ("tyrell", "house-card"): "mace-tyrell",
            ("stark", "house-card"): "the-blackfish",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert event(events, "ability-prevented")["card"] == "mace-tyrell"
    assert result(events)["strength"]["defender"]["units"] == 1
    assert units(g, "riverrun") == ["stark routed-footman"]


# ----- Ser Loras Tyrell -----


def loras_attack(defender: str = "lannister footman", **extra: object) -> Game:
    g = battle(
        {"searoad-marches": "tyrell knight knight", "stoney-sept": defender},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight", "knight"]})
    return g


def test_ser_loras_tyrell_the_march_order_follows_into_the_conquered_area_and_acts_again() -> None:
    """ser-loras-tyrell, B-HCARD-04, B-COMBAT-13: the March order is not removed but moved."""
    g = loras_attack()
    events = play(
        g,
        {
            ("tyrell", "house-card"): "ser-loras-tyrell",
            ("lannister", "house-card"): "the-hound",
            ("lannister", "retreat"): "lannisport",
        },
    )
    moved = event(events, "order-moved")
    assert (moved["origin"], moved["area"], moved["token"]) == ("searoad-marches", "stoney-sept", "march0")
    assert g.s.orders["stoney-sept"].house == "tyrell" and g.s.orders["stoney-sept"].token == "march0"
    assert "searoad-marches" not in g.s.orders
    # Later in the same Action phase Tyrell resolves it again, from Stoney Sept.
    p = prompt(g, "tyrell")
    assert p.kind == "march" and "stoney-sept" in p.choices
    march(g, "tyrell", "stoney-sept", {"blackwater": ["knight", "knight"]})
    assert units(g, "blackwater") == ["tyrell knight", "tyrell knight"]
    assert "stoney-sept" not in g.s.orders


def test_ser_loras_tyrell_spent_as_usual_when_losing() -> None:
    g = loras_attack(defender="lannister knight knight footman")
    events = play(g, {("tyrell", "house-card"): "ser-loras-tyrell", ("lannister", "house-card"): "tywin-lannister"})
    assert result(events)["winner"] == "lannister" and not events_of(events, "order-moved")
    assert "searoad-marches" not in g.s.orders


def test_ser_loras_tyrell_arianne_keeps_him_out_and_the_order_is_spent() -> None:
    g = loras_attack(defender="martell footman")
    events = play(
        g,
        {
            ("tyrell", "house-card"): "ser-loras-tyrell",
            ("martell", "house-card"): "arianne-martell",
            ("martell", "retreat"): "riverrun",
        },
    )
    assert result(events)["winner"] == "tyrell" and event(events, "attack-held")
    assert not events_of(events, "order-moved")
    assert units(g, "searoad-marches") == ["tyrell knight", "tyrell knight"]
    assert "searoad-marches" not in g.s.orders and "stoney-sept" not in g.s.orders


# ----- Queen of Thorns -----


def test_queen_of_thorns_removes_an_adjacent_order_of_the_opponent() -> None:
    """queen-of-thorns, B-HCARD-03, B-COMBAT-06: an "immediately" ability; the removed Support no longer counts."""
    g = battle(
        {
            "searoad-marches": "tyrell knight knight",
            "stoney-sept": "lannister footman",
            "harrenhal": "lannister footman",
            "blackwater": "lannister footman",
            "lannisport": "lannister footman",
            "riverrun": "stark footman",
        },
        {
            "searoad-marches": "march0",
            "stoney-sept": "defense1",
            "harrenhal": "support0",
            "blackwater": "consolidate",
            "lannisport": "defense1",
            "riverrun": "support0",
        },
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight", "knight"]})
    seen: list = []
    events = play(
        g,
        {
            ("lannister", "support"): "defender",
            ("stark", "support"): "defender",
            ("tyrell", "house-card"): "queen-of-thorns",
            ("lannister", "house-card"): "ser-jaime-lannister",
            ("lannister", "support-refusal"): "accept",
            ("tyrell", "queen-of-thorns"): "harrenhal",
        },
        seen,
    )
    p = next(p for p in seen if p.kind == "queen-of-thorns")
    # Only Lannister's orders next to Stoney Sept (not Stark's, not the embattled area's own Defense order);
    # the Support order helping Lannister first.
    assert p.choices == ["harrenhal", "blackwater", "lannisport"] and p.default == "harrenhal"
    assert p.info["orders"] == {"harrenhal": "support0", "blackwater": "consolidate", "lannisport": "defense1"}
    removed = event(events, "order-removed")
    assert (removed["area"], removed["reason"]) == ("harrenhal", "queen-of-thorns")
    r = result(events)
    # Harrenhal's support is gone; Stark's still counts. 4 + 0 = 4 against 1 + 1 (Stark) + 1 + 2 = 5.
    assert r["strength"]["defender"]["support"] == 1 and r["winner"] == "lannister"


def test_queen_of_thorns_never_the_march_that_started_the_combat() -> None:
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": "tyrell footman", "harrenhal": "lannister footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "consolidate"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    seen: list = []
    events = play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("tyrell", "house-card"): "queen-of-thorns",
            ("tyrell", "retreat"): "blackwater",
        },
        seen,
    )
    # Lannisport's March is excluded, so Harrenhal is the only candidate: removed without a question.
    assert "queen-of-thorns" not in [p.kind for p in seen]
    assert event(events, "order-removed")["area"] == "harrenhal"
    assert "harrenhal" not in g.s.orders


def test_queen_of_thorns_nothing_to_remove() -> None:
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": "tyrell footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    events = play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("tyrell", "house-card"): "queen-of-thorns",
            ("tyrell", "retreat"): "blackwater",
        },
    )
    assert not events_of(events, "order-removed") and result(events)["strength"]["defender"]["card"] == 0


def test_mace_tyrell_killing_the_last_attacker_leaves_nothing_to_move_in() -> None:
    """B-COMBAT-13: the attacker still wins on its card and support; with no unit left nothing moves in, but the
    victory still removes the loser's order and power token from the area: "Если бой выиграл атакующий, он снимает
    с оспариваемой области жетон приказа и жетоны власти проигравшего Дома (если они там есть)" (002:2538-2542).
    Until issue R the power token stayed, which that text does not allow."""
    g = battle(
        {"lannisport": "lannister footman", "harrenhal": "lannister knight knight", "stoney-sept": "tyrell footman"},
        {"lannisport": "march0", "harrenhal": "support0", "stoney-sept": "defense1"},
        power_tokens={"stoney-sept": "tyrell"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    events = play(
        g,
        {
            ("lannister", "support"): "attacker",
            ("lannister", "house-card"): "ser-gregor-clegane",
            ("tyrell", "house-card"): "mace-tyrell",
        },
    )
    r = result(events)
    # 0 + 4 + 3 = 7 against 1 + 1 + 4 = 6.
    assert r["strength"]["attacker"]["units"] == 0 and r["winner"] == "lannister"
    assert destroyed(events) == [
        ("lannister", "lannisport", "footman", "mace-tyrell"),
        ("tyrell", "stoney-sept", "footman", "casualties"),
    ]
    assert units(g, "stoney-sept") == [] and "stoney-sept" not in g.s.power_tokens and "stoney-sept" not in g.s.orders
    assert {"type": "power-token-removed", "area": "stoney-sept", "house": "tyrell", "reason": "taken"} in events
    assert rules.controller(g.s, "stoney-sept") is None
