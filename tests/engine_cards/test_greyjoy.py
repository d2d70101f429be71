"""Greyjoy's house cards: Victarion, Balon, Theon, Asha, Aeron Damphair (B-HCARD-02..09, B-SUPPORT-08)."""

from __future__ import annotations

from engine import Game

from .helpers import battle, destroyed, event, events_of, march, play, prompt, result, units

GREYJOY = [
    "euron-crows-eye",
    "victarion-greyjoy",
    "balon-greyjoy",
    "theon-greyjoy",
    "dagmar-cleftjaw",
    "asha-greyjoy",
    "aeron-damphair",
]


# ----- Victarion Greyjoy -----


def golden_sound(supporter: str = "greyjoy ship") -> Game:
    g = battle(
        {
            "ironmans-bay": "greyjoy ship ship",
            "sunset-sea": supporter,
            "the-golden-sound": "lannister ship",
            "port-of-lannisport": "lannister ship",
            "lannisport": "lannister footman",
        },
        {
            "ironmans-bay": "march0",
            "sunset-sea": "support0",
            "the-golden-sound": "defense1",
            "port-of-lannisport": "support0",
        },
    )
    march(g, "greyjoy", "ironmans-bay", {"the-golden-sound": ["ship", "ship"]})
    return g


def test_victarion_greyjoy_attacking_greyjoy_ships_count_two() -> None:
    """victarion-greyjoy, B-HCARD-02, B-COMBAT-05: attacking and supporting Greyjoy ships count 2."""
    g = golden_sound()
    events = play(
        g,
        {
            ("greyjoy", "support"): "attacker",
            ("lannister", "support"): "defender",
            ("greyjoy", "house-card"): "victarion-greyjoy",
            ("lannister", "house-card"): "the-hound",
        },
    )
    r = result(events)
    assert r["strength"]["attacker"] == {"units": 4, "support": 2, "march": 0, "card": 3, "total": 9}
    assert r["strength"]["defender"]["units"] == 1 and r["strength"]["defender"]["support"] == 1
    assert units(g, "port-of-lannisport") == ["lannister routed-ship", "lannister ship"]


def test_victarion_greyjoy_only_greyjoy_ships() -> None:
    g = golden_sound(supporter="tyrell ship")
    events = play(
        g,
        {
            ("tyrell", "support"): "attacker",
            ("lannister", "support"): "defender",
            ("greyjoy", "house-card"): "victarion-greyjoy",
            ("lannister", "house-card"): "the-hound",
        },
    )
    assert result(events)["strength"]["attacker"]["support"] == 1  # Tyrell's ship counts 1


def test_victarion_greyjoy_no_effect_when_defending() -> None:
    g = battle(
        {"the-golden-sound": "lannister ship ship", "ironmans-bay": "greyjoy ship ship"},
        {"the-golden-sound": "march0", "ironmans-bay": "defense1"},
    )
    march(g, "lannister", "the-golden-sound", {"ironmans-bay": ["ship", "ship"]})
    events = play(g, {("lannister", "house-card"): "the-hound", ("greyjoy", "house-card"): "victarion-greyjoy"})
    assert result(events)["strength"]["defender"]["units"] == 2


# ----- Balon Greyjoy -----


def test_balon_greyjoy_the_opponents_printed_strength_is_zero_its_icons_still_count() -> None:
    """balon-greyjoy, B-HCARD-02, B-HCARD-08."""
    g = battle(
        {"riverrun": "greyjoy footman", "stoney-sept": "lannister footman footman footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "greyjoy", "riverrun", {"stoney-sept": ["footman"]})
    events = play(g, {("greyjoy", "house-card"): "balon-greyjoy", ("lannister", "house-card"): "ser-gregor-clegane"})
    r = result(events)
    assert r["strength"]["defender"] == {"units": 3, "support": 0, "defense": 1, "card": 0, "total": 4}
    assert r["winner"] == "lannister"
    assert destroyed(events) == [("greyjoy", "riverrun", "footman", "casualties")]  # Gregor's swords still bite


def test_balon_greyjoy_against_stannis_only_the_printed_four_is_lost() -> None:
    g = battle(
        {"harrenhal": "baratheon knight", "riverrun": "greyjoy footman"},
        {"harrenhal": "march0", "riverrun": "defense1"},
        tracks={"iron_throne": ["greyjoy", "baratheon", "lannister", "stark", "martell", "tyrell"]},
    )
    march(g, "baratheon", "harrenhal", {"riverrun": ["knight"]})
    events = play(g, {("baratheon", "house-card"): "stannis-baratheon", ("greyjoy", "house-card"): "balon-greyjoy"})
    assert result(events)["strength"]["attacker"]["card"] == 1  # 4 printed -> 0, plus Stannis's own +1


# ----- Theon Greyjoy -----


def test_theon_greyjoy_defending_a_castle_plus_one_and_a_sword() -> None:
    """theon-greyjoy, B-HCARD-02, B-HCARD-08."""
    g = battle(
        {"stoney-sept": "lannister knight", "harrenhal": "greyjoy footman"},
        {"stoney-sept": "march0", "harrenhal": "defense1"},
    )
    march(g, "lannister", "stoney-sept", {"harrenhal": ["knight"]})
    events = play(g, {("lannister", "house-card"): "ser-kevan-lannister", ("greyjoy", "house-card"): "theon-greyjoy"})
    r = result(events)
    assert r["strength"]["defender"]["card"] == 3 and r["winner"] == "greyjoy"
    assert destroyed(events) == [("lannister", "stoney-sept", "knight", "casualties")]


def test_theon_greyjoy_plain_outside_a_castle_or_when_attacking() -> None:
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": "greyjoy footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    events = play(g, {("lannister", "house-card"): "ser-kevan-lannister", ("greyjoy", "house-card"): "theon-greyjoy"})
    assert result(events)["strength"]["defender"]["card"] == 2 and destroyed(events) == []
    g = battle(
        {"stoney-sept": "greyjoy knight", "harrenhal": "lannister footman"},
        {"stoney-sept": "march0", "harrenhal": "defense1"},
    )
    march(g, "greyjoy", "stoney-sept", {"harrenhal": ["knight"]})
    events = play(
        g,
        {
            ("greyjoy", "house-card"): "theon-greyjoy",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "retreat"): "blackwater",
        },
    )
    assert result(events)["strength"]["attacker"]["card"] == 2 and destroyed(events) == []


# ----- Asha Greyjoy -----


def asha_attack() -> Game:
    g = battle(
        {
            "riverrun": "greyjoy knight",
            "stoney-sept": "lannister footman",
            "harrenhal": "greyjoy footman",
            "blackwater": "baratheon footman",
        },
        {"riverrun": "march0", "stoney-sept": "defense1", "harrenhal": "support0", "blackwater": "support0"},
    )
    march(g, "greyjoy", "riverrun", {"stoney-sept": ["knight"]})
    return g


ASHA = {("greyjoy", "house-card"): "asha-greyjoy", ("lannister", "house-card"): "ser-kevan-lannister"}


def test_asha_greyjoy_unsupported_two_swords_and_a_fortification() -> None:
    """asha-greyjoy, B-HCARD-08, B-HCARD-09."""
    g = asha_attack()
    events = play(g, ASHA)
    # 2 + 1 = 3 against 1 + 1 + 1 = 3; Greyjoy wins on Fiefdoms; two swords destroy the lone footman.
    assert result(events)["winner"] == "greyjoy"
    assert destroyed(events) == [("lannister", "stoney-sept", "footman", "casualties")]


def test_asha_greyjoy_supported_gains_nothing() -> None:
    g = asha_attack()
    events = play(g, {**ASHA, ("greyjoy", "support"): "attacker", ("lannister", "retreat"): "lannisport"})
    assert result(events)["strength"]["attacker"]["support"] == 1 and destroyed(events) == []


def test_asha_greyjoy_refused_support_does_not_count() -> None:
    """Known edge case (Asha and removed support): Baratheon's support, refused by Greyjoy, is no support."""
    g = asha_attack()
    events = play(g, {**ASHA, ("baratheon", "support"): "attacker", ("greyjoy", "support-refusal"): "refuse"})
    assert result(events)["strength"]["attacker"]["support"] == 0
    assert destroyed(events) == [("lannister", "stoney-sept", "footman", "casualties")]


# ----- Aeron Damphair -----


def aeron_attack(**extra: object) -> Game:
    g = battle(
        {"riverrun": "greyjoy knight", "stoney-sept": "lannister footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "greyjoy", "riverrun", {"stoney-sept": ["knight"]})
    return g


def test_aeron_damphair_pays_two_power_to_swap_for_another_card() -> None:
    """aeron-damphair, B-HCARD-03: after the swap the new card's own ability works (Balon zeroes Tywin)."""
    g = aeron_attack()
    g.act("greyjoy", "aeron-damphair")
    g.act("lannister", "tywin-lannister")
    p = prompt(g, "greyjoy")
    assert p.kind == "aeron-swap" and p.default == "keep"
    assert p.choices == ["keep", *sorted(c for c in GREYJOY if c != "aeron-damphair")]
    assert p.info["power"] == 5 and p.info["cost"] == 2
    events = g.act("greyjoy", "balon-greyjoy")
    swap = event(events, "house-card-swapped")
    assert (swap["card"], swap["to"], swap["power"]) == ("aeron-damphair", "balon-greyjoy", 2)
    assert g.s.houses["greyjoy"].power == 3
    assert g.s.houses["greyjoy"].discards == ["aeron-damphair"]
    events += play(g, {("lannister", "retreat"): "lannisport"})
    r = result(events)
    assert r["strength"]["attacker"]["card"] == 2 and r["strength"]["defender"]["card"] == 0
    assert r["winner"] == "greyjoy"
    assert g.s.houses["greyjoy"].discards == ["aeron-damphair", "balon-greyjoy"]


def test_aeron_damphair_keep_or_too_poor_to_pay() -> None:
    g = aeron_attack()
    events = play(
        g,
        {
            ("greyjoy", "house-card"): "aeron-damphair",
            ("lannister", "house-card"): "the-hound",
            ("greyjoy", "aeron-swap"): "keep",
        },
    )
    assert result(events)["strength"]["attacker"]["card"] == 0 and g.s.houses["greyjoy"].power == 5
    g = aeron_attack(power={"greyjoy": 1})
    seen: list = []
    play(g, {("greyjoy", "house-card"): "aeron-damphair", ("lannister", "house-card"): "the-hound"}, seen)
    assert "aeron-swap" not in [p.kind for p in seen] and g.s.houses["greyjoy"].power == 1


def test_aeron_damphair_B_HCARD_07_swapping_for_the_last_card() -> None:
    others = [c for c in GREYJOY if c not in ("aeron-damphair", "balon-greyjoy")]
    g = aeron_attack(hands={"greyjoy": ["aeron-damphair", "balon-greyjoy"]}, discards={"greyjoy": others})
    events = play(
        g,
        {
            ("greyjoy", "house-card"): "aeron-damphair",
            ("lannister", "house-card"): "the-hound",
            ("greyjoy", "aeron-swap"): "balon-greyjoy",
            ("lannister", "retreat"): "lannisport",
        },
    )
    assert events_of(events, "hand-returned")
    assert sorted(g.s.houses["greyjoy"].hand) == sorted([*others, "aeron-damphair"])
    assert g.s.houses["greyjoy"].discards == ["balon-greyjoy"]
