"""Stark's house cards: Robb Stark, Roose Bolton, the Blackfish, Catelyn Stark (B-HCARD-04/07, B-CAS-*, B-RETREAT-*)."""

from __future__ import annotations

from engine import Game

from .helpers import battle, destroyed, event, events_of, march, play, result, units

STARK = [
    "eddard-stark",
    "robb-stark",
    "roose-bolton",
    "greatjon-umber",
    "ser-rodrick-cassel",
    "the-blackfish",
    "catelyn-stark",
]


# ----- Robb Stark -----


def robb_attack(**extra: object) -> Game:
    g = battle(
        {
            "riverrun": "stark knight knight",
            "stoney-sept": "lannister footman",
            "lannisport": "lannister footman footman",
            "harrenhal": "lannister footman footman",
        },
        {"riverrun": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["knight", "knight"]})
    return g


def test_robb_stark_the_winner_chooses_the_losers_retreat_among_those_losing_fewest_units() -> None:
    """robb-stark, B-HCARD-04, B-RETREAT-03, B-RETREAT-06."""
    # Lannister at supply 0 (two armies of 2): retreating into Lannisport or Harrenhal would break supply, so only
    # Blackwater and Searoad Marches (no loss) are offered, and Stark, not Lannister, chooses (B-RETREAT-06).
    g = robb_attack(supply={"lannister": 0, "stark": 6})
    seen: list = []
    events = play(
        g,
        {
            ("stark", "house-card"): "robb-stark",
            ("lannister", "house-card"): "the-hound",
            ("stark", "retreat"): "searoad-marches",
        },
        seen,
    )
    p = next(p for p in seen if p.kind == "retreat")
    assert p.house == "stark" and p.info["loser"] == "lannister"
    assert p.choices == ["blackwater", "searoad-marches"]
    assert event(events, "retreat")["to"] == "searoad-marches"
    assert units(g, "searoad-marches") == ["lannister routed-footman"]


def test_robb_stark_without_a_win_the_loser_chooses() -> None:
    g = battle(
        {"riverrun": "stark footman", "stoney-sept": "lannister knight knight"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["footman"]})
    events = play(g, {("stark", "house-card"): "robb-stark", ("lannister", "house-card"): "the-hound"})
    assert result(events)["winner"] == "lannister"
    assert units(g, "riverrun") == ["stark routed-footman"]  # a beaten attacker always goes back home


def test_robb_stark_defending_cannot_send_the_attacker_elsewhere() -> None:
    """robb-stark, B-RETREAT-02: a beaten attacker always goes back to the area it marched from."""
    g = battle(
        {"lannisport": "lannister footman", "stoney-sept": "stark knight knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    seen: list = []
    events = play(g, {("lannister", "house-card"): "the-hound", ("stark", "house-card"): "robb-stark"}, seen)
    assert result(events)["winner"] == "stark" and "retreat" not in [p.kind for p in seen]
    assert units(g, "lannisport") == ["lannister routed-footman"]


def test_robb_stark_no_legal_retreat_destroys_the_loser() -> None:
    """Abilities when the loser has no legal retreat: nothing to choose, the units are destroyed (B-RETREAT-07)."""
    g = battle(
        {
            "riverrun": "stark knight knight",
            "stoney-sept": "lannister footman",
            "blackwater": "baratheon footman",
            "harrenhal": "baratheon footman",
            "searoad-marches": "tyrell footman",
            "lannisport": "greyjoy footman",
        },
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["knight", "knight"]})
    seen: list = []
    events = play(g, {("stark", "house-card"): "robb-stark", ("lannister", "house-card"): "the-hound"}, seen)
    assert "retreat" not in [p.kind for p in seen]
    assert destroyed(events) == [("lannister", "stoney-sept", "footman", "no-retreat")]


# ----- Roose Bolton -----


def test_roose_bolton_B_HCARD_06_losing_takes_the_whole_discard_pile_back() -> None:
    g = battle(
        {"riverrun": "stark footman", "stoney-sept": "lannister knight knight"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
        hands={"stark": [c for c in STARK if c not in ("eddard-stark", "greatjon-umber")]},
        discards={"stark": ["eddard-stark", "greatjon-umber"]},
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["footman"]})
    events = play(g, {("stark", "house-card"): "roose-bolton", ("lannister", "house-card"): "the-hound"})
    assert result(events)["winner"] == "lannister"
    assert sorted(g.s.houses["stark"].hand) == sorted(STARK)  # Roose Bolton included
    assert g.s.houses["stark"].discards == []
    returned = [e for e in events_of(events, "hand-returned") if e.get("reason") == "roose-bolton"]
    assert returned and sorted(returned[0]["cards"]) == ["eddard-stark", "greatjon-umber", "roose-bolton"]


def test_roose_bolton_winning_is_an_ordinary_discard() -> None:
    g = robb_attack()
    play(
        g,
        {
            ("stark", "house-card"): "roose-bolton",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "retreat"): "blackwater",
        },
    )
    assert g.s.houses["stark"].discards == ["roose-bolton"]


def test_roose_bolton_B_HCARD_07_as_the_last_card() -> None:
    """Discards when the hand empties: losing with the last card, Roose brings back all seven."""
    g = battle(
        {"riverrun": "stark footman", "stoney-sept": "lannister knight knight"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
        hands={"stark": ["roose-bolton"]},
        discards={"stark": [c for c in STARK if c != "roose-bolton"]},
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["footman"]})
    play(g, {("stark", "house-card"): "roose-bolton", ("lannister", "house-card"): "the-hound"})
    assert sorted(g.s.houses["stark"].hand) == sorted(STARK) and g.s.houses["stark"].discards == []
    # Winning with the last card: the usual B-HCARD-07 return, Roose stays as the new discard pile.
    g = battle(
        {"riverrun": "stark knight knight", "stoney-sept": "lannister footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
        hands={"stark": ["roose-bolton"]},
        discards={"stark": [c for c in STARK if c != "roose-bolton"]},
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["knight", "knight"]})
    events = play(
        g,
        {
            ("stark", "house-card"): "roose-bolton",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "retreat"): "blackwater",
        },
    )
    assert event(events, "hand-returned")["house"] == "stark"
    assert g.s.houses["stark"].discards == ["roose-bolton"] and len(g.s.houses["stark"].hand) == 6


# ----- The Blackfish -----


def blackfish_defends(defenders: str, **extra: object) -> Game:
    g = battle(
        {"lannisport": "lannister knight knight", "stoney-sept": defenders, **extra.pop("more", {})},  # type: ignore[dict-item]
        {"lannisport": "march0", "stoney-sept": "defense1"},
        **extra,  # type: ignore[arg-type]
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    return g


def test_the_blackfish_B_CAS_02_no_sword_casualties_even_with_more_swords_than_units() -> None:
    """Known edge case: casualty prevention combined with more swords than units present must not crash."""
    g = blackfish_defends("stark footman knight")
    events = play(
        g,
        {
            ("lannister", "house-card"): "ser-gregor-clegane",
            ("stark", "house-card"): "the-blackfish",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert result(events)["winner"] == "lannister"
    assert destroyed(events) == []  # three swords, no fortification, no loss
    assert units(g, "riverrun") == ["stark routed-footman", "stark routed-knight"]
    g = blackfish_defends("stark footman")
    events = play(
        g,
        {
            ("lannister", "house-card"): "ser-gregor-clegane",
            ("stark", "house-card"): "the-blackfish",
            ("stark", "retreat"): "riverrun",
        },
    )
    assert destroyed(events) == [] and units(g, "riverrun") == ["stark routed-footman"]


def test_the_blackfish_still_loses_units_that_cannot_retreat() -> None:
    g = blackfish_defends(
        "stark footman siege-engine",
        more={
            "blackwater": "baratheon footman",
            "harrenhal": "baratheon footman",
            "riverrun": "greyjoy footman",
            "searoad-marches": "tyrell footman",
        },
    )
    events = play(g, {("lannister", "house-card"): "ser-gregor-clegane", ("stark", "house-card"): "the-blackfish"})
    assert destroyed(events) == [
        ("stark", "stoney-sept", "siege-engine", "siege-cannot-retreat"),
        ("stark", "stoney-sept", "footman", "no-retreat"),
    ]


def test_the_blackfish_on_the_winning_side_changes_nothing() -> None:
    g = battle(
        {"lannisport": "lannister footman", "stoney-sept": "stark knight knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    events = play(g, {("lannister", "house-card"): "ser-jaime-lannister", ("stark", "house-card"): "the-blackfish"})
    assert result(events)["winner"] == "stark"
    assert units(g, "lannisport") == ["lannister routed-footman"]


# ----- Catelyn Stark -----


def test_catelyn_stark_doubles_her_own_defense_order() -> None:
    """catelyn-stark, B-HCARD-02, B-COMBAT-06: her own Defense order's bonus counts twice."""
    for order, bonus in (("defense1", 2), ("defense2*", 4)):
        g = battle(
            {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
            {"lannisport": "march0", "stoney-sept": order},
        )
        march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
        events = play(g, {("lannister", "house-card"): "ser-kevan-lannister", ("stark", "house-card"): "catelyn-stark"})
        assert result(events)["strength"]["defender"]["defense"] == bonus


def test_catelyn_stark_never_doubles_the_enemys_defense_order() -> None:
    """Known edge case: Catelyn attacking leaves the defender's Defense bonus as it is."""
    g = battle(
        {"riverrun": "stark knight knight", "stoney-sept": "lannister footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "stark", "riverrun", {"stoney-sept": ["knight", "knight"]})
    events = play(
        g,
        {
            ("stark", "house-card"): "catelyn-stark",
            ("lannister", "house-card"): "ser-kevan-lannister",
            ("lannister", "retreat"): "blackwater",
        },
    )
    r = result(events)
    assert r["strength"]["defender"]["defense"] == 1
    assert "defense" not in r["strength"]["attacker"]
