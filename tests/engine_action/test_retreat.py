"""Retreats and routed units (checklist section 22, B-RETREAT-*; B-OPEN-05, B-OPEN-09; known edge cases: attacker back
to its origin, no retreat into the attacking area or an enemy capital, supply on retreats, routed units, ships
forced into ports)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import event, fight, make, march, prompt, rejected, result, units

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}
KEEP = {"the-eyrie": "tyrell footman"}  # Tyrell (last in turn order) keeps the Action phase open
KEEP_ORDER = {"the-eyrie": "march0"}


def action(unit_spec: dict[str, str], orders: dict[str, str], keep: bool = True, **extra: Any) -> Game:
    extra.setdefault("tracks", TRACKS)
    if keep:
        unit_spec, orders = unit_spec | KEEP, orders | KEEP_ORDER
    return make({"units": unit_spec, "orders": orders, "start": "action", **extra})


def destroyed(events: list[dict[str, Any]], reason: str) -> list[tuple[str, str, str]]:
    return [
        (e["house"], e["area"], t)
        for e in events
        if e["type"] == "units-destroyed" and e["reason"] == reason
        for t in e["units"]
    ]


def test_rulebook_retreat_example() -> None:
    """002:2558-2578, 001:1136-1142: Baratheon beats Tyrell in Kingswood; Tyrell's surviving knight retreats to Storm's
    End (a Tyrell footman there) and is routed. Baratheon then attacks Storm's End from the Boneway with two knights:
    Tyrell fights with strength 1 (the routed knight adds nothing) and, beaten, loses the knight, which cannot
    retreat twice."""
    g = action(
        {
            "kings-landing": "baratheon knight knight",
            "the-boneway": "baratheon knight knight",
            "kingswood": "tyrell footman knight",
            "storms-end": "tyrell footman",
            "shipbreaker-bay": "tyrell ship",
        },
        {
            "kings-landing": "march0",
            "the-boneway": "march-1",
            "kingswood": "consolidate",
            "storms-end": "defense1",
            "shipbreaker-bay": "consolidate",
        },
        keep=False,
    )
    march(g, "baratheon", "kings-landing", {"kingswood": ["knight", "knight"]})
    g.act("baratheon", "brienne-of-tarth")  # 2, one sword, one fortification
    g.act("tyrell", "randyll-tarly")  # 2, one sword
    # 4 + 2 = 6 against 3 + 2 = 5: Baratheon wins; one sword, no fortification: one casualty.
    p = prompt(g, "tyrell")
    assert p.kind == "casualties"
    g.act("tyrell", ["footman"])
    # Retreat: not King's Landing (where the attack came from), not the Boneway (Baratheon).
    choices = prompt(g, "tyrell").choices
    assert "storms-end" in choices and "kings-landing" not in choices and "the-boneway" not in choices
    g.act("tyrell", "storms-end")
    assert units(g, "storms-end") == ["tyrell footman", "tyrell routed-knight"]
    # Later the same round Baratheon attacks Storm's End from the Boneway.
    march(g, "baratheon", "the-boneway", {"storms-end": ["knight", "knight"]})
    events = fight(g, cards={"baratheon": "melisandre", "tyrell": "alester-florent"})
    r = result(events)
    assert r["strength"]["defender"]["units"] == 1  # the footman only
    assert r["winner"] == "baratheon"
    assert destroyed(events, "routed-again") == [("tyrell", "storms-end", "knight")]
    # The footman escapes by ship (sea transport) to Crackclaw Point, the one legal area.
    assert event(events, "retreat")["to"] == "crackclaw-point"


def test_B_RETREAT_01_B_RETREAT_13_survivors_leave_together_and_are_routed_supporters_stay() -> None:
    g = action(
        {
            "lannisport": "lannister knight knight knight",
            "stoney-sept": "stark footman footman knight",
            "harrenhal": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("stark", "defender")
    fight(g, cards={"lannister": "the-hound", "stark": "ser-rodrick-cassel"}, retreat={"stark": "blackwater"})
    assert units(g, "blackwater") == ["stark routed-footman", "stark routed-footman", "stark routed-knight"]
    assert units(g, "harrenhal") == ["stark footman"]
    assert "stark" not in {u.house for u in g.s.units["stoney-sept"]}


def test_B_RETREAT_02_B_OPEN_05_known_edge_a_beaten_attacker_goes_back_to_its_origin() -> None:
    g = action(
        {"lannisport": "lannister footman footman knight", "stoney-sept": "stark knight knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman", "footman"], "searoad-marches": ["knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    assert result(events)["winner"] == "stark"
    assert event(events, "retreat") == {
        "type": "retreat",
        "house": "lannister",
        "area": "stoney-sept",
        "to": "lannisport",
        "units": ["footman", "footman"],
    }
    assert units(g, "lannisport") == ["lannister routed-footman", "lannister routed-footman"]
    assert units(g, "searoad-marches") == ["lannister knight"]  # the other move of the March order stands


def test_B_RETREAT_03_B_RETREAT_12_empty_or_friendly_areas_only() -> None:
    g = action(
        {
            "riverrun": "lannister knight knight knight",
            "stoney-sept": "stark footman",
            "harrenhal": "stark footman",
            "blackwater": "baratheon footman",
        },
        {"riverrun": "march0", "stoney-sept": "defense1", "harrenhal": "defense1", "blackwater": "defense1"},
        power_tokens={"searoad-marches": "greyjoy"},
    )
    march(g, "lannister", "riverrun", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    # Lannisport is Lannister's home (its crest counts as a Power token), Searoad Marches holds a Greyjoy token,
    # Blackwater a Baratheon unit, Riverrun is where the attack came from: only Harrenhal (friendly) is left,
    # so the retreat is automatic.
    assert units(g, "harrenhal") == ["stark footman", "stark routed-footman"]


def test_B_RETREAT_03_B_RETREAT_04_one_area_of_the_losers_choice() -> None:
    g = action(
        {"riverrun": "lannister knight knight knight", "stoney-sept": "stark footman footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "riverrun", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    p = prompt(g, "stark")
    # Empty Blackwater, Harrenhal and Searoad Marches; not Lannisport (an enemy home), not Riverrun (the origin).
    assert p.kind == "retreat" and p.choices == ["blackwater", "harrenhal", "searoad-marches"]
    rejected(g, "stark", ["blackwater", "harrenhal"], "illegal-choice")  # all go together into one area
    g.act("stark", "harrenhal")
    assert units(g, "harrenhal") == ["stark routed-footman", "stark routed-footman"]


def test_B_RETREAT_05_known_edge_913_never_into_the_attackers_origin_even_if_empty() -> None:
    g = action(
        {"searoad-marches": "lannister knight knight", "stoney-sept": "stark footman"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "searoad-marches", {"stoney-sept": ["knight", "knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    p = prompt(g, "stark")
    assert "searoad-marches" not in p.choices and "lannisport" not in p.choices  # origin; enemy capital (#189)
    rejected(g, "stark", "searoad-marches", "illegal-choice")
    rejected(g, "stark", "lannisport", "illegal-choice")


def test_B_RETREAT_06_known_edge_103_retreat_must_keep_supply_when_it_can() -> None:
    # Stark at supply 0: two armies of two. Harrenhal already holds an army of two (and Winterfell another);
    # retreating a footman there would make three: Blackwater must be used instead.
    g = action(
        {
            "riverrun": "lannister knight knight knight",
            "stoney-sept": "stark footman",
            "harrenhal": "stark footman footman",
            "winterfell": "stark footman footman",
        },
        {"riverrun": "march0", "stoney-sept": "defense1", "harrenhal": "defense1", "winterfell": "defense2*"},
        supply={"stark": 0},
    )
    march(g, "lannister", "riverrun", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    p = prompt(g, "stark")
    assert p.choices == ["blackwater", "searoad-marches"]
    rejected(g, "stark", "harrenhal", "illegal-choice")


def test_B_RETREAT_06_if_only_a_supply_breaking_area_is_left_enough_units_die_first() -> None:
    # Stark at supply 0: two armies of two (White Harbor and Karhold), plus a lone footman in Winterfell.
    g = action(
        {
            "white-harbor": "stark footman knight",
            "karhold": "stark footman footman",
            "winterfell": "stark footman",
            "moat-cailin": "greyjoy footman",
            "widows-watch": "greyjoy footman",
            "the-narrow-sea": "greyjoy ship ship",
            "the-shivering-sea": "greyjoy ship",
        },
        {
            "white-harbor": "defense1",
            "karhold": "defense2*",
            "winterfell": "defense1",
            "moat-cailin": "march0",
            "widows-watch": "defense1",
            "the-narrow-sea": "support0",
            "the-shivering-sea": "support0",
        },
        supply={"stark": 0},
    )
    march(g, "greyjoy", "moat-cailin", {"white-harbor": ["footman"]})
    g.act("greyjoy", "attacker")
    events = fight(g, cards={"greyjoy": "euron-crows-eye", "stark": "ser-rodrick-cassel"})
    # Greyjoy 1 + 3 + 4 = 8 against Stark 3 + 1 + 1 = 5; Euron's sword is cancelled by Ser Rodrick.
    assert result(events)["winner"] == "greyjoy"
    # Winterfell is the only legal area (Moat Cailin is the origin, Widow's Watch is Greyjoy's); both units there
    # would make an army of three: one is destroyed first, the other retreats (an army of two).
    assert event(events, "retreat") == {
        "type": "retreat",
        "house": "stark",
        "area": "white-harbor",
        "to": "winterfell",
        "units": ["knight"],
    }
    assert destroyed(events, "retreat-supply") == [("stark", "white-harbor", "footman")]
    assert units(g, "winterfell") == ["stark footman", "stark routed-knight"]


def test_B_RETREAT_07_no_legal_area_destroys_the_retreating_units() -> None:
    g = action(
        {
            "white-harbor": "stark footman knight",
            "moat-cailin": "greyjoy knight knight",
            "widows-watch": "greyjoy footman",
            "winterfell": "greyjoy footman",
        },
        {"white-harbor": "defense1", "moat-cailin": "march0", "widows-watch": "defense1", "winterfell": "defense1"},
    )
    march(g, "greyjoy", "moat-cailin", {"white-harbor": ["knight", "knight"]})
    events = fight(g, cards={"greyjoy": "euron-crows-eye", "stark": "ser-rodrick-cassel"})
    assert result(events)["winner"] == "greyjoy"
    assert sorted(destroyed(events, "no-retreat")) == [
        ("stark", "white-harbor", "footman"),
        ("stark", "white-harbor", "knight"),
    ]


def test_B_RETREAT_08_B_RETREAT_09_B_PORT_06_known_edge_1015_ships_forced_into_a_friendly_port() -> None:
    g = action(
        {
            "ironmans-bay": "greyjoy ship ship ship",
            "the-golden-sound": "lannister ship",
            "lannisport": "lannister footman",
            "sunset-sea": "stark ship",
        },
        {"ironmans-bay": "march0", "the-golden-sound": "defense1", "lannisport": "defense1", "sunset-sea": "defense1"},
    )
    march(g, "greyjoy", "ironmans-bay", {"the-golden-sound": ["ship", "ship", "ship"]})
    events = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "lannister": "the-hound"})
    # Dagmar's sword is cancelled by the Hound; the only retreat is Lannister's own port.
    assert event(events, "retreat")["to"] == "port-of-lannisport"
    assert units(g, "port-of-lannisport") == ["lannister routed-ship"]


def test_B_RETREAT_09_never_into_an_enemy_or_unowned_port() -> None:
    g = action(
        {
            "ironmans-bay": "greyjoy ship ship ship",
            "the-golden-sound": "stark ship",
            "lannisport": "lannister footman",
            "sunset-sea": "baratheon ship",
        },
        {"ironmans-bay": "march0", "the-golden-sound": "defense1", "lannisport": "defense1", "sunset-sea": "defense1"},
    )
    march(g, "greyjoy", "ironmans-bay", {"the-golden-sound": ["ship", "ship", "ship"]})
    events = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "ser-rodrick-cassel"})
    # Lannister's port is an enemy port for Stark: no retreat at all, the ship is destroyed.
    assert destroyed(events, "no-retreat") == [("stark", "the-golden-sound", "ship")]


def test_B_RETREAT_08_land_units_never_retreat_to_sea() -> None:
    g = action(
        {"riverrun": "lannister knight knight knight", "seagard": "stark footman", "the-twins": "greyjoy footman"},
        {"riverrun": "march0", "seagard": "defense1", "the-twins": "defense1"},
        power_tokens={"greywater-watch": "greyjoy"},
    )
    march(g, "lannister", "riverrun", {"seagard": ["knight", "knight", "knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    # Seagard borders Ironman's Bay, but land units never enter a sea: Moat Cailin is the one area left.
    assert event(events, "retreat")["to"] == "moat-cailin"


def test_B_RETREAT_10_retreat_by_sea_transport() -> None:
    g = action(
        {
            "riverrun": "lannister knight knight knight",
            "seagard": "stark footman",
            "the-twins": "greyjoy footman",
            "moat-cailin": "greyjoy footman",
            "ironmans-bay": "stark ship",
        },
        {
            "riverrun": "march0",
            "seagard": "defense1",
            "the-twins": "defense1",
            "moat-cailin": "defense1",
            "ironmans-bay": "consolidate",
        },
        power_tokens={"greywater-watch": "greyjoy"},
    )
    march(g, "lannister", "riverrun", {"seagard": ["knight", "knight", "knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    # Stark's ship in Ironman's Bay links Seagard to Flint's Finger (and to Pyke, Greyjoy's home: not allowed);
    # every neighbour of Seagard is closed, so the footman sails to Flint's Finger.
    assert event(events, "retreat")["to"] == "flints-finger"
    assert units(g, "flints-finger") == ["stark routed-footman"]


def test_B_RETREAT_11_a_beaten_attackers_siege_engine_is_destroyed() -> None:
    g = action(
        {"lannisport": "lannister footman siege-engine", "stoney-sept": "stark knight knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman", "siege-engine"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "ser-rodrick-cassel"})
    # No castle in Stoney Sept: the engine is worth 0; 1 + 2 = 3 against 4 + 1 + 1 = 6.
    assert result(events)["winner"] == "stark"
    assert destroyed(events, "siege-cannot-retreat") == [("lannister", "lannisport", "siege-engine")]
    assert units(g, "lannisport") == ["lannister routed-footman"]


def test_B_RETREAT_14_routed_units_count_for_supply_but_not_in_combat() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman routed-knight routed-knight",
            "harrenhal": "stark footman footman",
            "winterfell": "stark footman footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "defense1", "winterfell": "defense2*"},
        supply={"stark": 2},
    )
    from engine import rules

    # Supply 2 (armies 3, 2 and 2) filled by an army of three that is mostly routed: still an army of three.
    assert rules.army_sizes(g.s, "stark") == [3, 2, 2]
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    assert result(events)["strength"]["defender"]["units"] == 1


def test_B_RETREAT_15_known_edge_a_routed_unit_forced_to_retreat_again_is_destroyed() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark routed-footman routed-knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    assert sorted(destroyed(events, "routed-again")) == [
        ("stark", "stoney-sept", "footman"),
        ("stark", "stoney-sept", "knight"),
    ]
    assert units(g, "stoney-sept") == ["lannister knight", "lannister knight"]


def test_B_RETREAT_17_routed_units_stand_up_at_cleanup() -> None:
    g = action(
        {"lannisport": "lannister footman", "stoney-sept": "stark knight", "riverrun": "stark routed-footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "riverrun": "consolidate"},
        keep=False,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    assert "action-cleanup" in [e["type"] for e in events]
    assert not any(u.routed for us in g.s.units.values() for u in us)


def test_B_OPEN_09_no_retreat_into_a_neutral_force() -> None:
    g = action(
        {"the-reach": "lannister knight knight knight", "kingswood": "stark footman"},
        {"the-reach": "march0", "kingswood": "defense1"},
        neutral={"kings-landing": 5},
        power_tokens={"the-boneway": "tyrell", "storms-end": "tyrell"},
    )
    march(g, "lannister", "the-reach", {"kingswood": ["knight", "knight", "knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    # Kingswood borders King's Landing (empty but for a neutral force), the Reach (the origin), the Boneway and
    # Storm's End (Tyrell tokens) and two seas.
    assert destroyed(events, "no-retreat") == [("stark", "kingswood", "footman")]


def test_retreat_illegal_answers_leave_the_state_unchanged() -> None:
    g = action(
        {"riverrun": "lannister knight knight knight", "stoney-sept": "stark footman footman"},
        {"riverrun": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "riverrun", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    rejected(g, "lannister", "harrenhal", "not-your-turn")
    rejected(g, "stark", "lannisport", "illegal-choice")  # an enemy home
    rejected(g, "stark", "riverrun", "illegal-choice")  # the attackers' origin
    rejected(g, "stark", "the-golden-sound", "illegal-choice")
    rejected(g, "stark", {"to": "harrenhal"}, "illegal-choice")


def test_B_OPEN_05_known_edge_323_a_beaten_attacker_coming_home_must_fit_its_supply() -> None:
    # Greyjoy at supply 1 (armies 3 and 2): the Narrow Sea (3 ships) and the Golden Sound (2).
    g = action(
        {
            "the-narrow-sea": "greyjoy ship ship ship",
            "the-golden-sound": "greyjoy ship ship",
            "the-shivering-sea": "greyjoy ship",
            "shipbreaker-bay": "stark ship ship",
        },
        {
            "the-narrow-sea": "march0",
            "the-golden-sound": "defense1",
            "the-shivering-sea": "defense1",
            "shipbreaker-bay": "defense1",
        },
        supply={"greyjoy": 1},
    )
    # One ship attacks, one joins the Shivering Sea (an army of 2), one stays: armies 2 and 2, legal.
    march(g, "greyjoy", "the-narrow-sea", {"shipbreaker-bay": ["ship"], "the-shivering-sea": ["ship"]})
    events = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "greatjon-umber"})
    assert result(events)["winner"] == "stark"
    # Back home the ship would make a third army of two: it is destroyed instead (B-RETREAT-06 applied to the origin).
    assert destroyed(events, "retreat-supply") == [("greyjoy", "the-narrow-sea", "ship")]
    assert units(g, "the-narrow-sea") == ["greyjoy ship"]
    from engine import rules

    assert rules.supply_ok(g.s, "greyjoy")
