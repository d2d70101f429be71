"""Lannister's house cards: Tywin, Ser Kevan, Tyrion, Cersei (B-HCARD-02..05, B-OPEN-06, B-OPEN-08)."""

from __future__ import annotations

from engine import Game

from .helpers import battle, event, events_of, march, play, prompt, result, units


def lannisport_attack(defender: str = "stark", **extra: object) -> Game:
    """Lannister (knight, March +0) attacks a footman with a Defense +1 order in Stoney Sept."""
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": f"{defender} footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    return g


# ----- Tywin Lannister -----


def test_tywin_lannister_takes_two_power_tokens_after_winning() -> None:
    """tywin-lannister, B-HCARD-04: a "if you win" ability, once the victor is known."""
    g = lannisport_attack()
    before = g.s.houses["lannister"].power
    events = play(
        g,
        {
            ("lannister", "house-card"): "tywin-lannister",
            ("stark", "house-card"): "ser-rodrick-cassel",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert result(events)["winner"] == "lannister"
    assert g.s.houses["lannister"].power == before + 2
    assert event(events, "power-gained") == {
        "type": "power-gained",
        "house": "lannister",
        "gained": 2,
        "reason": "tywin-lannister",
    }


def test_tywin_lannister_B_OPEN_06_only_what_is_left_in_the_pool() -> None:
    g = lannisport_attack(power={"lannister": 19})
    events = play(
        g,
        {
            ("lannister", "house-card"): "tywin-lannister",
            ("stark", "house-card"): "ser-rodrick-cassel",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert g.s.houses["lannister"].power == 20 and event(events, "power-gained")["gained"] == 1


def test_tywin_lannister_nothing_when_losing() -> None:
    g = battle(
        {"lannisport": "lannister footman", "stoney-sept": "stark knight knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    before = g.s.houses["lannister"].power
    events = play(g, {("lannister", "house-card"): "tywin-lannister", ("stark", "house-card"): "eddard-stark"})
    assert result(events)["winner"] == "stark"
    assert g.s.houses["lannister"].power == before and not events_of(events, "power-gained")


# ----- Ser Kevan Lannister -----


def test_ser_kevan_lannister_attacking_footmen_and_lannister_supporters_count_two() -> None:
    """ser-kevan-lannister, B-HCARD-02, B-COMBAT-05: only Lannister's own footmen taking part are doubled."""
    g = battle(
        {
            "lannisport": "lannister footman footman",
            "harrenhal": "lannister footman routed-footman",
            "riverrun": "baratheon footman",
            "stoney-sept": "stark footman",
        },
        {"lannisport": "march0", "harrenhal": "support0", "riverrun": "support0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman", "footman"]})
    events = play(
        g,
        {
            ("lannister", "support"): "attacker",
            ("baratheon", "support"): "attacker",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("stark", "house-card"): "eddard-stark",
            ("stark", "retreat"): "blackwater",
        },
    )
    r = result(events)
    # Attacking footmen 2 x 2; Harrenhal's standing footman 2 (its routed one 0); Baratheon's footman only 1.
    assert r["strength"]["attacker"] == {"units": 4, "support": 3, "march": 0, "card": 1, "total": 8}
    assert r["strength"]["defender"]["total"] == 6 and r["winner"] == "lannister"


def test_ser_kevan_lannister_no_effect_when_defending() -> None:
    g = battle(
        {"stoney-sept": "stark knight", "lannisport": "lannister footman footman"},
        {"stoney-sept": "march0", "lannisport": "defense1"},
    )
    march(g, "stark", "stoney-sept", {"lannisport": ["knight"]})
    events = play(g, {("stark", "house-card"): "eddard-stark", ("lannister", "house-card"): "ser-kevan-lannister"})
    assert result(events)["strength"]["defender"]["units"] == 2


# ----- Tyrion Lannister -----


def martell_defends() -> Game:
    return lannisport_attack(defender="martell")


def test_tyrion_lannister_B_HCARD_04_cancel_then_the_opponent_chooses_another_card() -> None:
    g = martell_defends()
    g.act("lannister", "tyrion-lannister")
    g.act("martell", "the-red-viper")
    p = prompt(g, "lannister")
    assert (p.kind, p.choices, p.default, p.info["target"]) == (
        "tyrion-cancel",
        ["cancel", "keep"],
        "keep",
        "the-red-viper",
    )
    events = g.act("lannister", "cancel")
    assert event(events, "house-card-cancelled")["card"] == "the-red-viper"
    p = prompt(g, "martell")
    # The cancelled card is back in the hand but cannot be played again in this combat.
    assert p.kind == "house-card" and "the-red-viper" not in p.choices and len(p.choices) == 6
    assert p.info["cancelled"] == "the-red-viper" and not p.secret
    assert "the-red-viper" in g.s.houses["martell"].hand
    events = play(g, {("martell", "house-card"): "areo-hotah", ("martell", "retreat"): "riverrun"})
    r = result(events)
    # Areo Hotah (3, one fortification) replaces the Red Viper (4): 2 + 1 = 3 against 1 + 1 + 3 = 5.
    assert r["strength"]["defender"]["card"] == 3 and r["winner"] == "martell"
    assert g.s.houses["martell"].discards == ["areo-hotah"]
    assert "the-red-viper" in g.s.houses["martell"].hand
    assert g.s.houses["lannister"].discards == ["tyrion-lannister"]


def test_tyrion_lannister_keep_leaves_the_card_in_play() -> None:
    g = martell_defends()
    events = play(
        g,
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("martell", "house-card"): "the-red-viper",
            ("lannister", "tyrion-cancel"): "keep",
        },
    )
    assert result(events)["strength"]["defender"]["card"] == 4
    assert event(events, "ability-declined")["card"] == "tyrion-lannister"


def test_tyrion_lannister_B_OPEN_08_no_other_card_means_no_card() -> None:
    others = ["the-red-viper", "areo-hotah", "obara-sand", "arianne-martell", "nymeria-sand", "doran-martell"]
    g = lannisport_attack(defender="martell", hands={"martell": ["darkstar"]}, discards={"martell": others})
    events = play(
        g,
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("martell", "house-card"): "darkstar",
            ("lannister", "tyrion-cancel"): "cancel",
            ("martell", "retreat"): "riverrun",
        },
    )
    assert event(events, "no-house-card")["house"] == "martell"
    r = result(events)
    assert "card" not in r["strength"]["defender"] and r["winner"] == "lannister"
    # Darkstar went back to the hand: it was never played, so nothing is discarded for Martell.
    assert g.s.houses["martell"].hand == ["darkstar"] and g.s.houses["martell"].discards == others


def test_tyrion_lannister_the_replacement_card_uses_its_own_ability() -> None:
    """A cancelled card's replacement acts normally: Doran Martell, chosen after the cancel, moves Lannister."""
    g = martell_defends()
    events = play(
        g,
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("martell", "house-card"): ("the-red-viper", "doran-martell"),
            ("lannister", "tyrion-cancel"): "cancel",
            ("martell", "doran-track"): "kings_court",
            ("martell", "retreat"): "riverrun",
        },
    )
    assert g.s.tracks["kings_court"][-1] == "lannister"
    kinds = [e["type"] for e in events]
    assert kinds.index("house-card-cancelled") < kinds.index("house-card-revealed") < kinds.index("track-moved")


def test_tyrion_lannister_a_cancelled_cards_ability_never_acts() -> None:
    """Known edge case (abilities of removed cards): cancelled Nymeria Sand gives no fortification."""
    g = lannisport_attack(defender="martell")
    events = play(
        g,
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("martell", "house-card"): ("nymeria-sand", "darkstar"),
            ("lannister", "tyrion-cancel"): "cancel",
        },
    )
    # Tyrion (1): 2 + 1 = 3 against Darkstar (2, one sword): 1 + 1 + 2 = 4. Martell wins with Darkstar's sword.
    r = result(events)
    assert r["strength"]["defender"]["card"] == 2 and r["winner"] == "martell"
    assert units(g, "lannisport") == []  # the lone knight is the one casualty


# ----- Cersei Lannister -----


def test_cersei_lannister_removes_one_of_the_losers_orders_anywhere() -> None:
    """cersei-lannister, B-HCARD-04: after the victor is known, one of the loser's orders anywhere."""
    g = battle(
        {
            "lannisport": "lannister knight knight",
            "stoney-sept": "stark footman",
            "winterfell": "stark footman",
            "white-harbor": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "winterfell": "consolidate*", "white-harbor": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    seen: list = []
    events = play(
        g,
        {
            ("lannister", "house-card"): "cersei-lannister",
            ("stark", "house-card"): "ser-rodrick-cassel",
            ("lannister", "cersei-order"): "winterfell",
            ("stark", "retreat"): "riverrun",
        },
        seen,
    )
    p = next(p for p in seen if p.kind == "cersei-order")
    # Special orders first, then Support, March, Raid, Consolidate Power, Defense.
    assert p.choices == ["winterfell", "white-harbor", "stoney-sept", None] and p.default == "winterfell"
    removed = event(events, "order-removed")
    assert (removed["area"], removed["house"], removed["reason"]) == ("winterfell", "stark", "cersei-lannister")
    assert "winterfell" not in g.s.orders and g.s.orders["white-harbor"].token == "support0"


def test_cersei_lannister_not_the_attackers_march_being_resolved_and_optional() -> None:
    g = battle(
        {"riverrun": "stark footman", "lannisport": "lannister knight knight", "winterfell": "stark footman"},
        {"riverrun": "march0", "lannisport": "defense1", "winterfell": "consolidate"},
    )
    march(g, "stark", "riverrun", {"lannisport": ["footman"]})
    seen: list = []
    play(
        g,
        {
            ("stark", "house-card"): "ser-rodrick-cassel",
            ("lannister", "house-card"): "cersei-lannister",
            ("lannister", "cersei-order"): None,
        },
        seen,
    )
    p = next(p for p in seen if p.kind == "cersei-order")
    # Stark's other March order (the Eyrie) may go, not Riverrun's, which started (and is spent by) this combat.
    assert p.choices == ["the-eyrie", "winterfell", None]
    assert g.s.orders["winterfell"].token == "consolidate"


def test_cersei_lannister_nothing_when_lannister_loses() -> None:
    g = battle(
        {"lannisport": "lannister footman", "stoney-sept": "stark knight knight", "winterfell": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "winterfell": "consolidate"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    seen: list = []
    play(g, {("lannister", "house-card"): "cersei-lannister", ("stark", "house-card"): "ser-rodrick-cassel"}, seen)
    assert "cersei-order" not in [p.kind for p in seen]
