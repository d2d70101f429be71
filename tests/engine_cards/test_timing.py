"""When abilities act (B-HCARD-03/04/05) and how they combine (known edge cases, "Combat and house cards")."""

from __future__ import annotations

from .helpers import battle, destroyed, event, events_of, march, play, prompt, result, units


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def test_B_HCARD_04_cancel_comes_before_immediately_whatever_the_turn_order() -> None:
    """Tyrion (cancel) acts before Aeron Damphair (immediately) although Greyjoy is first in turn order: the
    cancelled Aeron never offers its swap and goes back to the hand."""
    g = battle(
        {"riverrun": "greyjoy knight", "stoney-sept": "lannister footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
        tracks={"iron_throne": ["greyjoy", "lannister", "baratheon", "stark", "martell", "tyrell"]},
    )
    march(g, "greyjoy", "riverrun", {"stoney-sept": ["knight"]})
    g.act("greyjoy", "aeron-damphair")
    g.act("lannister", "tyrion-lannister")
    assert prompt(g, "lannister").kind == "tyrion-cancel" and g.prompt_for("greyjoy") is None
    g.act("lannister", "cancel")
    seen: list = []
    play(g, {("greyjoy", "house-card"): "euron-crows-eye", ("lannister", "retreat"): "lannisport"}, seen)
    assert "aeron-swap" not in [p.kind for p in seen]
    assert "aeron-damphair" in g.s.houses["greyjoy"].hand and g.s.houses["greyjoy"].power == 5


def immediate_pair(iron_throne: list[str]) -> list[dict]:
    g = battle(
        {
            "searoad-marches": "tyrell knight knight",
            "stoney-sept": "martell footman",
            "blackwater": "martell footman",
        },
        {"searoad-marches": "march0", "stoney-sept": "defense1", "blackwater": "consolidate"},
        tracks={"iron_throne": iron_throne},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight", "knight"]})
    return play(
        g,
        {
            ("tyrell", "house-card"): "queen-of-thorns",
            ("martell", "house-card"): "doran-martell",
            ("martell", "doran-track"): "fiefdoms",
            ("martell", "retreat"): "harrenhal",
        },
    )


def test_B_HCARD_04_immediately_abilities_act_in_turn_order() -> None:
    events = immediate_pair(["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"])
    order = kinds(events)
    assert order.index("track-moved") < order.index("order-removed")  # Martell before Tyrell
    events = immediate_pair(["tyrell", "baratheon", "lannister", "stark", "martell", "greyjoy"])
    order = kinds(events)
    assert order.index("order-removed") < order.index("track-moved")  # Tyrell before Martell


def test_B_HCARD_05_one_card_is_resolved_completely_before_the_next() -> None:
    """Doran's question is answered before Mace Tyrell (next in turn order) destroys anything."""
    g = battle(
        {"searoad-marches": "tyrell knight", "stoney-sept": "martell footman knight"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight"]})
    g.act("tyrell", "mace-tyrell")
    events = g.act("martell", "doran-martell")
    assert prompt(g, "martell").kind == "doran-track" and not destroyed(events)
    events = g.act("martell", "iron_throne")
    assert kinds(events).index("track-moved") < kinds(events).index("units-destroyed")
    assert destroyed(events) == [("martell", "stoney-sept", "footman", "mace-tyrell")]


def test_B_HCARD_04_win_and_lose_abilities_after_the_victor_in_turn_order() -> None:
    def run(iron_throne: list[str]) -> list[str]:
        g = battle(
            {"lannisport": "lannister knight knight", "stoney-sept": "martell footman"},
            {"lannisport": "march0", "stoney-sept": "defense1"},
            tracks={"iron_throne": iron_throne},
        )
        march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
        events = play(
            g,
            {
                ("lannister", "house-card"): "tywin-lannister",
                ("martell", "house-card"): "arianne-martell",
                ("martell", "retreat"): "riverrun",
            },
        )
        order = kinds(events)
        assert order.index("combat-result") < min(order.index("power-gained"), order.index("attack-held"))
        return [k for k in order if k in ("power-gained", "attack-held")]

    assert run(["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]) == ["power-gained", "attack-held"]
    assert run(["martell", "baratheon", "lannister", "stark", "greyjoy", "tyrell"]) == ["attack-held", "power-gained"]


def test_B_HCARD_03_abilities_of_cards_of_strength_zero_work_like_any_other() -> None:
    """Balon Greyjoy against Doran Martell: the printed 0 stays 0 and Doran still moves Greyjoy."""
    g = battle(
        {"riverrun": "greyjoy knight", "stoney-sept": "martell footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "greyjoy", "riverrun", {"stoney-sept": ["knight"]})
    events = play(
        g,
        {
            ("greyjoy", "house-card"): "balon-greyjoy",
            ("martell", "house-card"): "doran-martell",
            ("martell", "doran-track"): "fiefdoms",
            ("martell", "retreat"): "harrenhal",
        },
    )
    assert result(events)["strength"]["defender"]["card"] == 0
    assert g.s.tracks["fiefdoms"][-1] == "greyjoy"
    # Greyjoy lost the Blade's track lead; 2 + 2 = 4 against 1 + 1 = 2: Greyjoy still wins.
    assert result(events)["winner"] == "greyjoy"


# ----- removed support orders: Asha, Salladhor (known edge case) -----


def test_queen_of_thorns_removing_the_only_support_turns_asha_on() -> None:
    g = battle(
        {
            "searoad-marches": "tyrell knight",
            "stoney-sept": "greyjoy footman",
            "harrenhal": "greyjoy footman",
            "blackwater": "greyjoy footman",
        },
        {"searoad-marches": "march0", "stoney-sept": "defense1", "harrenhal": "support0", "blackwater": "consolidate"},
    )
    march(g, "tyrell", "searoad-marches", {"stoney-sept": ["knight"]})
    events = play(
        g,
        {
            ("greyjoy", "support"): "defender",
            ("tyrell", "house-card"): "queen-of-thorns",
            ("greyjoy", "house-card"): "asha-greyjoy",
            ("tyrell", "queen-of-thorns"): "harrenhal",
        },
    )
    r = result(events)
    assert r["strength"]["defender"]["support"] == 0
    # 2 + 0 = 2 against 1 + 1 + 1 = 3: Greyjoy wins, and unsupported Asha has two swords: the knight dies.
    assert r["winner"] == "greyjoy"
    assert destroyed(events) == [("tyrell", "searoad-marches", "knight", "casualties")]


def test_queen_of_thorns_removing_baratheons_support_turns_salladhor_off() -> None:
    g = battle(
        {
            "blackwater-bay": "tyrell ship ship",
            "shipbreaker-bay": "baratheon ship",
            "the-narrow-sea": "baratheon ship",
            "east-summer-sea": "baratheon ship",
        },
        {
            "blackwater-bay": "march0",
            "shipbreaker-bay": "defense1",
            "the-narrow-sea": "support0",
            "east-summer-sea": "consolidate",
        },
    )
    march(g, "tyrell", "blackwater-bay", {"shipbreaker-bay": ["ship", "ship"]})
    events = play(
        g,
        {
            ("baratheon", "support"): "defender",
            ("tyrell", "house-card"): "queen-of-thorns",
            ("baratheon", "house-card"): "salladhor-saan",
            ("tyrell", "queen-of-thorns"): "the-narrow-sea",
            ("baratheon", "retreat"): "east-summer-sea",
        },
    )
    r = result(events)
    # Without support, Salladhor leaves Tyrell's ships alone: 2 against 1 + 1 + 1 = 3.
    assert r["strength"]["attacker"]["units"] == 2 and r["strength"]["defender"]["support"] == 0


# ----- garrisons and neutral forces -----


def test_B_GARR_04_house_cards_against_a_garrison_and_the_blackfish_does_not_save_it() -> None:
    g = battle(
        {"moat-cailin": "tyrell knight knight", "winterfell": "stark footman"},
        {"moat-cailin": "march0", "winterfell": "defense1"},
        garrisons={"winterfell": 2},
    )
    march(g, "tyrell", "moat-cailin", {"winterfell": ["knight", "knight"]})
    events = play(
        g,
        {
            ("tyrell", "house-card"): "mace-tyrell",
            ("stark", "house-card"): "the-blackfish",
            ("stark", "retreat"): "karhold",
        },
    )
    assert event(events, "ability-prevented")["card"] == "mace-tyrell"
    r = result(events)
    # 4 + 4 = 8 against 1 + 1 + 2 (garrison) + 1 = 5.
    assert r["strength"]["defender"]["garrison"] == 2 and r["winner"] == "tyrell"
    assert g.s.garrisons == {}  # B-GARR-05: a beaten garrison goes, whatever the casualties
    assert units(g, "karhold") == ["stark routed-footman"]


def test_B_GARR_04_mace_against_a_garrison_alone_finds_no_footman() -> None:
    g = battle({"moat-cailin": "tyrell knight"}, {"moat-cailin": "march0"}, garrisons={"winterfell": 2})
    march(g, "tyrell", "moat-cailin", {"winterfell": ["knight"]})
    events = play(g, {("tyrell", "house-card"): "mace-tyrell", ("stark", "house-card"): "catelyn-stark"})
    assert not events_of(events, "house-card-ability") and result(events)["winner"] == "tyrell"
    assert g.s.garrisons == {} and units(g, "winterfell") == ["tyrell knight"]


def test_B_NEUTRAL_05_no_house_cards_so_no_abilities_against_a_neutral_force() -> None:
    g = battle({"the-reach": "tyrell knight knight"}, {"the-reach": "march0"}, neutral={"kings-landing": 4})
    hand = list(g.s.houses["tyrell"].hand)
    events = march(g, "tyrell", "the-reach", {"kings-landing": ["knight", "knight"]})
    assert event(events, "neutral-attack")["won"]
    assert not any(e["type"].startswith("house-card") for e in events)
    assert g.s.houses["tyrell"].hand == hand and g.s.houses["tyrell"].discards == []
    assert units(g, "kings-landing") == ["tyrell knight", "tyrell knight"]
