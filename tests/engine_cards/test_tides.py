"""Tides of Battle as a game option (B-TIDES-01..09, B-GARR-07, B-OPEN-02) with the house-card abilities."""

from __future__ import annotations

from collections import Counter

from engine import Game, data, new_game

from .helpers import battle, combat_frame, destroyed, event, events_of, march, play, prompt, result, units

TIDES = {"tides_of_battle": True}
FULL_DECK = Counter({c["id"]: c["count"] for c in data.tides_cards().values()})
REST = [c for c, n in sorted(FULL_DECK.items()) for _ in range(n)]


def deck(*top: str) -> list[str]:
    rest = list(REST)
    for c in top:
        rest.remove(c)
    return [*top, *rest]


def blade_fight(**extra: object) -> Game:
    """Lannister, holding an unused Blade, attacks a Stark footman; the Tides deck is stacked after its reshuffle."""
    g = battle(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman",
            "the-mountains-of-the-moon": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1"},
        tracks={"fiefdoms": ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]},
        options=TIDES,
        **extra,  # type: ignore[arg-type]
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    return g


def test_B_TIDES_01_off_by_default() -> None:
    assert new_game(6, seed=3).s.options["tides_of_battle"] is False
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    events = play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("stark", "house-card"): "catelyn-stark",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert not events_of(events, "tides-drawn") and "tides" not in result(events)["strength"]["attacker"]


def test_B_TIDES_02_drawn_after_the_cards_and_their_immediate_abilities() -> None:
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": "martell footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        options=TIDES,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    g.act("lannister", "the-hound")
    events = g.act("martell", "doran-martell")
    assert not events_of(events, "tides-drawn")  # Doran's question comes first
    events += play(g, {("martell", "doran-track"): "iron_throne", ("martell", "retreat"): "riverrun"})
    order = [e["type"] for e in events]
    assert order.index("house-cards-revealed") < order.index("track-moved") < order.index("tides-drawn")
    assert order.index("tides-drawn") < order.index("combat-result")


def test_B_TIDES_03_the_blade_holder_may_redraw_before_the_reveal() -> None:
    g = blade_fight()
    g.s.tides_deck = deck("zero", "three", "two")
    g.act("lannister", "the-hound")
    events = g.act("stark", "catelyn-stark")
    # Each combatant sees its own card only; the public sees neither, nor the totals they would give away.
    drawn = events_of(events, "tides-drawn")
    assert [(e["private_to"], e["card"]) for e in drawn] == [("lannister", "zero"), ("stark", "three")]
    assert g.view("lannister")["battle"]["tides"] == {"attacker": "zero", "defender": None}
    assert g.view("stark")["battle"]["tides"] == {"attacker": None, "defender": "three"}
    assert g.view(None)["battle"]["tides"] == {"attacker": None, "defender": None}
    assert g.view(None)["battle"]["strength"] is None
    p = prompt(g, "lannister")
    assert p.kind == "blade" and p.choices == [True, False, "redraw"] and p.default is False
    assert p.info["tides"] == "zero" and p.info["strength"] == {"attacker": 4, "defender": 3}
    events = g.act("lannister", "redraw")
    redraw = event(events, "tides-redrawn")
    assert redraw["house"] == "lannister"
    revealed = event(events, "tides-revealed")
    assert (revealed["attacker"], revealed["defender"]) == ("two", "three")
    r = result(events)
    # B-TIDES-04: the Blade is used for the redraw, so no +1: 2 + 2 + 2 = 6 against 1 + 2 + 0 + 3 = 6; Lannister
    # (1st on Fiefdoms) wins the tie.
    assert "blade" not in r["strength"]["attacker"] and r["strength"]["attacker"]["tides"] == 2
    assert g.s.blade_used
    events = play(g, {("stark", "retreat"): "riverrun"})
    # B-TIDES-04 / known edge #87: once per round. Lannister's next combat this round asks nothing about it.
    seen: list = []
    march(g, "lannister", "the-eyrie", {"the-mountains-of-the-moon": ["footman"]})
    play(g, {("lannister", "house-card"): "ser-jaime-lannister", ("stark", "house-card"): "eddard-stark"}, seen)
    assert "blade" not in [p.kind for p in seen]


def test_B_TIDES_04_the_blade_used_for_plus_one_cannot_also_redraw() -> None:
    g = blade_fight()
    g.s.tides_deck = deck("zero", "three")
    g.act("lannister", "the-hound")
    g.act("stark", "catelyn-stark")
    events = g.act("lannister", True)
    r = result(events)
    assert r["strength"]["attacker"]["blade"] == 1 and r["strength"]["attacker"]["tides"] == 0
    assert event(events, "tides-revealed")["attacker"] == "zero" and not events_of(events, "tides-redrawn")


def test_B_TIDES_05_shown_at_once_when_nobody_can_redraw() -> None:
    g = blade_fight(blade_used=True)
    g.s.tides_deck = deck("sword", "fortification")
    g.act("lannister", "the-hound")
    events = g.act("stark", "catelyn-stark")
    drawn = event(events, "tides-drawn")
    assert (drawn["attacker"], drawn["defender"]) == ("sword", "fortification") and "private_to" not in drawn


def test_B_TIDES_06_tides_towers_cancel_swords() -> None:
    g = blade_fight(blade_used=True)
    g.s.tides_deck = deck("two", "fortification")
    events = play(
        g,
        {
            ("lannister", "house-card"): "ser-jaime-lannister",
            ("stark", "house-card"): "catelyn-stark",
            ("stark", "retreat"): "riverrun",
        },
    )
    # 2 + 2 + 2 = 6 against 1 + 2 + 0 + 1 = 4: Jaime's sword is cancelled by the Tides card's tower.
    assert result(events)["winner"] == "lannister" and destroyed(events) == []
    assert units(g, "riverrun") == ["stark routed-footman"]


def test_B_TIDES_07_skulls_hit_both_sides_but_not_the_blackfish() -> None:
    g = blade_fight(blade_used=True)
    g.s.tides_deck = deck("skull", "skull")
    events = play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("stark", "house-card"): "the-blackfish",
            ("stark", "retreat"): "riverrun",
        },
    )
    # 2 + 2 against 1 + 1 + 1: Lannister wins; its skull would cost Stark one more unit, but not with the Blackfish;
    # Stark's skull still costs the winner its knight, so nobody moves in.
    assert result(events)["winner"] == "lannister"
    assert destroyed(events) == [("lannister", "lannisport", "knight", "casualties")]
    assert units(g, "riverrun") == ["stark routed-footman"] and units(g, "stoney-sept") == []


def test_B_TIDES_08_B_GARR_07_skulls_take_units_never_the_garrison() -> None:
    g = battle(
        {"moat-cailin": "greyjoy knight knight", "winterfell": "stark footman footman"},
        {"moat-cailin": "march0", "winterfell": "defense1"},
        garrisons={"winterfell": 2},
        options=TIDES,
        blade_used=True,
    )
    march(g, "greyjoy", "moat-cailin", {"winterfell": ["knight", "knight"]})
    g.s.tides_deck = deck("skull", "zero")
    events = play(
        g,
        {
            ("greyjoy", "house-card"): "dagmar-cleftjaw",
            ("stark", "house-card"): "eddard-stark",
            ("stark", "casualties"): ["footman"],
        },
    )
    assert result(events)["winner"] == "stark"
    assert ("stark", "winterfell", "footman", "casualties") in destroyed(events)
    assert g.s.garrisons == {"winterfell": 2} and units(g, "winterfell") == ["stark footman"]


def test_B_TIDES_09_reshuffled_before_every_combats_card_step_and_returned_after() -> None:
    g = blade_fight(blade_used=True)
    frame = combat_frame(g)
    assert frame is not None and frame["stage"] == "cards"
    assert Counter(g.s.tides_deck) == FULL_DECK
    g.s.tides_deck = deck("three", "three")
    play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("stark", "house-card"): "catelyn-stark",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert Counter(g.s.tides_deck) == FULL_DECK  # the drawn cards went back
    g.s.tides_deck = deck("skull", "skull")  # a stacked deck does not survive the next reshuffle
    march(g, "lannister", "the-eyrie", {"the-mountains-of-the-moon": ["footman"]})
    assert Counter(g.s.tides_deck) == FULL_DECK and g.s.tides_deck[:2] != ["skull", "skull"]


def test_B_OPEN_02_B_TIDES_02_no_tides_against_a_neutral_force() -> None:
    g = battle(
        {"the-reach": "tyrell knight knight"}, {"the-reach": "march0"}, neutral={"kings-landing": 4}, options=TIDES
    )
    before = list(g.s.tides_deck)
    events = march(g, "tyrell", "the-reach", {"kings-landing": ["knight", "knight"]})
    assert not events_of(events, "tides-drawn") and g.s.tides_deck == before
