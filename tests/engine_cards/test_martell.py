"""Martell's house cards: Arianne Martell, Nymeria Sand, Doran Martell (B-HCARD-04, B-COMBAT-12, B-TRACK-*)."""

from __future__ import annotations

from engine import Game

from .helpers import battle, destroyed, event, march, play, prompt, result, units


def attack_martell(martell: str = "martell footman", attacker: str = "lannister knight", **extra: object) -> Game:
    g = battle(
        {"lannisport": attacker, "stoney-sept": martell},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "lannister", "lannisport", {"stoney-sept": attacker.split()[1:]})
    return g


# ----- Arianne Martell -----


def test_arianne_martell_a_beaten_defender_keeps_the_attacker_out() -> None:
    """arianne-martell, B-HCARD-04, B-COMBAT-13: the attacker wins but does not move in."""
    g = attack_martell()
    events = play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("martell", "house-card"): "arianne-martell",
            ("martell", "retreat"): "riverrun",
        },
    )
    # 2 + 2 = 4 against 1 + 1 + 1 = 3: Lannister wins, but does not move in.
    assert result(events)["winner"] == "lannister"
    assert event(events, "attack-held")["origin"] == "lannisport"
    assert units(g, "lannisport") == ["lannister knight"]  # back where it marched from, not routed
    assert units(g, "riverrun") == ["martell routed-footman"]  # Martell still retreats
    assert units(g, "stoney-sept") == []
    assert "stoney-sept" not in g.s.orders and "lannisport" not in g.s.orders  # the March order is spent


def test_arianne_martell_cannot_force_a_victorious_defender_to_retreat() -> None:
    """Known edge case: Arianne only acts when Martell defends and loses."""
    g = attack_martell(martell="martell footman knight")
    events = play(g, {("lannister", "house-card"): "the-hound", ("martell", "house-card"): "arianne-martell"})
    assert result(events)["winner"] == "martell"
    assert units(g, "stoney-sept") == ["martell footman", "martell knight"]
    assert units(g, "lannisport") == ["lannister routed-knight"]
    # Attacking with Arianne and losing: the attacker goes home routed as usual.
    g = battle(
        {"stoney-sept": "martell footman", "lannisport": "lannister knight knight"},
        {"stoney-sept": "march0", "lannisport": "defense1"},
    )
    march(g, "martell", "stoney-sept", {"lannisport": ["footman"]})
    events = play(g, {("martell", "house-card"): "arianne-martell", ("lannister", "house-card"): "the-hound"})
    assert result(events)["winner"] == "lannister" and units(g, "stoney-sept") == ["martell routed-footman"]


# ----- Nymeria Sand -----


def test_nymeria_sand_defending_gains_a_fortification() -> None:
    """nymeria-sand, B-HCARD-02, B-HCARD-09."""
    g = attack_martell()
    events = play(
        g,
        {
            ("lannister", "house-card"): "ser-jaime-lannister",
            ("martell", "house-card"): "nymeria-sand",
            ("martell", "retreat"): "riverrun",
        },
    )
    # 2 + 2 = 4 against 3: Jaime's sword is cancelled by Nymeria's fortification.
    assert result(events)["winner"] == "lannister" and destroyed(events) == []


def test_nymeria_sand_attacking_gains_a_sword() -> None:
    """nymeria-sand, B-HCARD-08."""
    g = battle(
        {"stoney-sept": "martell knight knight", "lannisport": "lannister footman footman"},
        {"stoney-sept": "march0", "lannisport": "defense1"},
    )
    march(g, "martell", "stoney-sept", {"lannisport": ["knight", "knight"]})
    events = play(
        g,
        {
            ("martell", "house-card"): "nymeria-sand",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "casualties"): ["footman"],
            ("lannister", "retreat"): "riverrun",
        },
    )
    assert result(events)["winner"] == "martell"
    assert destroyed(events) == [("lannister", "lannisport", "footman", "casualties")]


# ----- Doran Martell -----


def test_doran_martell_moves_the_opponent_to_the_bottom_of_a_track() -> None:
    """doran-martell, B-HCARD-03, B-HCARD-13, B-TRACK-01: the others behind move up one place."""
    g = attack_martell()
    g.act("lannister", "the-hound")
    g.act("martell", "doran-martell")
    p = prompt(g, "martell")
    assert p.kind == "doran-track" and p.choices == ["iron_throne", "fiefdoms", "kings_court"]
    # Lannister is 1st on King's Court: the default hurts most.
    assert p.default == "kings_court" and p.info["positions"] == {"iron_throne": 2, "fiefdoms": 6, "kings_court": 1}
    events = g.act("martell", "iron_throne")
    assert g.s.tracks["iron_throne"] == ["baratheon", "stark", "martell", "greyjoy", "tyrell", "lannister"]
    moved = event(events, "track-moved")
    assert (moved["track"], moved["house"], moved["before"], moved["after"]) == ("iron_throne", "lannister", 2, 6)


def test_doran_martell_dominance_tokens_change_hands() -> None:
    """doran-martell, B-TRACK-02: the Raven and the Blade follow their tracks; a used Blade stays face down."""
    g = attack_martell(
        tracks={"fiefdoms": ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]}, blade_used=True
    )
    play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("martell", "house-card"): "doran-martell",
            ("martell", "doran-track"): "fiefdoms",
            ("martell", "retreat"): "riverrun",
        },
    )
    v = g.view(None)
    assert v["dominance"]["valyrian_steel_blade"] == {"house": "greyjoy", "used": True}
    g = attack_martell()
    play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("martell", "house-card"): "doran-martell",
            ("martell", "doran-track"): "kings_court",
            ("martell", "retreat"): "riverrun",
        },
    )
    assert g.view(None)["dominance"]["messenger_raven"]["house"] == "stark"


def test_doran_martell_known_edge_1161_the_blade_goes_to_its_new_holder_before_its_step() -> None:
    """doran-martell, B-INFL-11, B-INFL-12, B-COMBAT-12: the Blade and the tie follow the changed Fiefdoms track."""
    g = attack_martell(tracks={"fiefdoms": ["lannister", "martell", "greyjoy", "tyrell", "stark", "baratheon"]})
    seen: list = []
    events = play(
        g,
        {
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("martell", "house-card"): "doran-martell",
            ("martell", "doran-track"): "fiefdoms",
            ("martell", "blade"): True,
        },
        seen,
    )
    # Lannister held the Blade when the cards were revealed; Martell holds it at the Blade's step.
    assert [p.house for p in seen if p.kind == "blade"] == ["martell"]
    r = result(events)
    # 2 + 1 = 3 against 1 + 1 + 0 + blade 1 = 3: a tie, broken on the Fiefdoms track Doran just changed.
    assert r["strength"]["defender"]["blade"] == 1 and r["tie_broken_by_fiefdoms"]
    assert r["winner"] == "martell"


def test_doran_martell_B_TRACK_03_special_orders_already_placed_stay() -> None:
    """doran-martell: Lannister drops from 1st to last on King's Court; its special order elsewhere stays."""
    g = battle(
        {"lannisport": "lannister knight", "stoney-sept": "martell footman", "harrenhal": "lannister footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "consolidate*"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    play(
        g,
        {
            ("lannister", "house-card"): "the-hound",
            ("martell", "house-card"): "doran-martell",
            ("martell", "doran-track"): "kings_court",
            ("martell", "retreat"): "riverrun",
        },
    )
    assert g.s.tracks["kings_court"][-1] == "lannister"
    assert g.s.orders["harrenhal"].token == "consolidate*"
