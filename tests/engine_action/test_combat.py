"""Combat: sequence, strength, house cards, clean-up (checklist sections 18 and 20, B-COMBAT-*, B-HCARD-01..12).

Only house cards without a text ability are played here, so these results stay true once abilities exist.
"""

from __future__ import annotations

from typing import Any

from engine import Game, new_game
from engine.rules import unit_strength
from engine.state import Unit

from .helpers import combat_frame, event, fight, kinds, make, march, prompt, rejected, result, strength, units

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


# A March order of Martell's keeps the Action phase open after the combat under test (the game would otherwise
# clean up and, in round 10, end: routed units stand up, orders go, the Blade is turned face up).
KEEP = {"the-eyrie": "martell footman"}
KEEP_ORDER = {"the-eyrie": "march0"}


def action(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("tracks", TRACKS)
    return make({"units": unit_spec, "orders": orders, "start": "action", **extra})


def test_rulebook_battle_example_tie_broken_by_fiefdoms() -> None:
    """002:2369-2400, 001:1084-1100: Tyrell (knight + footman, March +0) from King's Landing attacks two Lannister
    footmen in Kingswood. Ser Jaime (2, one sword) against Alester Florent (1, one fortification): 4 against 4;
    Lannister, 3rd on the Fiefdoms track against Tyrell's 4th, wins. The sword is cancelled: no casualties; the
    attackers go back to King's Landing, routed."""
    tracks = dict(TRACKS, fiefdoms=["greyjoy", "martell", "lannister", "tyrell", "stark", "baratheon"])
    g = action(
        {
            "kings-landing": "tyrell footman knight",
            "kingswood": "lannister footman footman",
            "highgarden": "tyrell footman",
        },
        {
            "kings-landing": "march0",
            "kingswood": "consolidate",
            "highgarden": "march-1",
        },  # (the book's March -1 would move first)
        tracks=tracks,
    )
    march(g, "tyrell", "kings-landing", {"kingswood": ["knight", "footman"]})
    events = fight(g, cards={"tyrell": "alester-florent", "lannister": "ser-jaime-lannister"})
    r = result(events)
    assert r["strength"]["attacker"] == {"units": 3, "support": 0, "march": 0, "card": 1, "total": 4}
    assert r["strength"]["defender"] == {"units": 2, "support": 0, "card": 2, "total": 4}
    assert r["winner"] == "lannister" and r["tie_broken_by_fiefdoms"] is True
    assert not any(e["type"] == "units-destroyed" for e in events)
    assert units(g, "kings-landing") == ["tyrell routed-footman", "tyrell routed-knight"]
    assert units(g, "kingswood") == ["lannister footman", "lannister footman"]


def full_strength_game() -> Game:
    # Lannister (Blade holder) attacks Riverrun from Lannisport with March +1, supported from Stoney Sept.
    # Stark defends with Defense +2 and a special Support +1 from Seagard.
    tracks = dict(TRACKS, fiefdoms=["lannister", "tyrell", "martell", "stark", "baratheon", "greyjoy"])
    return action(
        {
            "lannisport": "lannister footman knight",
            "stoney-sept": "lannister footman",
            "riverrun": "stark footman knight",
            "seagard": "stark footman",
        },
        {"lannisport": "march1*", "stoney-sept": "support0", "riverrun": "defense2*", "seagard": "support1*"},
        tracks=tracks,
    )


def test_B_COMBAT_02_B_COMBAT_06_B_COMBAT_10_every_strength_source() -> None:
    g = full_strength_game()
    march(g, "lannister", "lannisport", {"riverrun": ["knight", "footman"]})
    events = fight(
        g,
        cards={"lannister": "ser-gregor-clegane", "stark": "eddard-stark"},
        support={"lannister": "attacker", "stark": "defender"},
        blade=True,
    )
    r = result(events)
    assert r["strength"]["attacker"] == {"units": 3, "support": 1, "march": 1, "card": 3, "blade": 1, "total": 9}
    assert r["strength"]["defender"] == {"units": 3, "support": 2, "defense": 2, "card": 4, "total": 11}
    assert r["winner"] == "stark"


def test_B_COMBAT_02_garrison_is_a_defender_source() -> None:
    g = action(
        {"white-harbor": "greyjoy footman knight", "winterfell": "stark footman"},
        {"white-harbor": "march0", "winterfell": "defense1"},
        garrisons={"winterfell": 2},
    )
    march(g, "greyjoy", "white-harbor", {"winterfell": ["knight", "footman"]})
    events = fight(g, cards={"greyjoy": "euron-crows-eye", "stark": "ser-rodrick-cassel"}, retreat={"stark": "karhold"})
    r = result(events)
    assert r["strength"]["defender"] == {"units": 1, "support": 0, "defense": 1, "garrison": 2, "card": 1, "total": 5}


def test_B_COMBAT_01_B_COMBAT_03_higher_strength_wins_roles() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman", "harrenhal": "baratheon footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    f = combat_frame(g)
    assert f is not None and (f["attacker"], f["defender"]) == ("lannister", "stark")
    # Baratheon, next door with a Support order, is neither: it is asked which side it helps.
    assert kinds(g) == [("baratheon", "support")]
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, support={"baratheon": "defender"})
    # 2 + 2 = 4 against 1 + 1 + 1 + 2 = 5.
    assert strength(events, "attacker") == 4 and strength(events, "defender") == 5
    assert result(events)["winner"] == "stark"
    assert units(g, "harrenhal") == ["baratheon footman"]


def test_B_COMBAT_04_steps_support_cards_blade_then_resolution() -> None:
    g = full_strength_game()
    march(g, "lannister", "lannisport", {"riverrun": ["knight", "footman"]})
    seen = []
    events: list[dict[str, Any]] = []
    answers = {
        ("lannister", "support"): "attacker",
        ("stark", "support"): "defender",
        ("lannister", "house-card"): "ser-jaime-lannister",
        ("stark", "house-card"): "greatjon-umber",
        ("lannister", "blade"): False,
        ("lannister", "casualties"): ["footman"],
    }
    while combat_frame(g) is not None:
        p = next(p for p in g.prompts() if not p.answered)
        seen.append(p.kind)
        events += g.act(p.house, answers[(p.house, p.kind)])
    assert seen == ["support", "support", "house-card", "house-card", "blade", "casualties"]
    order = [e["type"] for e in events]
    assert order.index("house-cards-revealed") < order.index("combat-result")
    assert "blade-used" not in order


def test_B_COMBAT_05_unit_strengths() -> None:
    s = new_game(3, seed=0).state
    assert unit_strength(s, Unit("stark", "footman"), attacking_castle=False) == 1
    assert unit_strength(s, Unit("stark", "knight"), attacking_castle=False) == 2
    assert unit_strength(s, Unit("stark", "ship"), attacking_castle=False) == 1
    assert unit_strength(s, Unit("stark", "siege-engine"), attacking_castle=True) == 4
    assert unit_strength(s, Unit("stark", "siege-engine"), attacking_castle=False) == 0
    assert unit_strength(s, Unit("stark", "knight", routed=True), attacking_castle=True) == 0
    # In play: a siege engine attacking Harrenhal (a castle) counts 4, attacking Blackwater (no castle) 0.
    spec = {
        "stoney-sept": "lannister siege-engine footman",
        "harrenhal": "stark footman",
        "blackwater": "stark footman",
    }
    orders = {"stoney-sept": "march0", "harrenhal": "defense1", "blackwater": "defense1"}
    g = action(spec, orders)
    march(g, "lannister", "stoney-sept", {"harrenhal": ["siege-engine", "footman"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, retreat={"stark": "crackclaw-point"})
    assert result(events)["strength"]["attacker"]["units"] == 5
    g = action(spec, orders)
    march(g, "lannister", "stoney-sept", {"blackwater": ["siege-engine", "footman"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    assert result(events)["strength"]["attacker"]["units"] == 1


def test_B_COMBAT_05_ships_fight_at_sea_with_strength_one() -> None:
    g = action(
        {"the-golden-sound": "lannister ship ship", "ironmans-bay": "greyjoy ship"},
        {"the-golden-sound": "march0", "ironmans-bay": "defense1"},
    )
    march(g, "lannister", "the-golden-sound", {"ironmans-bay": ["ship", "ship"]})
    r = result(
        fight(g, cards={"lannister": "the-hound", "greyjoy": "dagmar-cleftjaw"}, retreat={"greyjoy": "sunset-sea"})
    )
    assert r["strength"]["attacker"]["units"] == 2 and r["strength"]["defender"]["units"] == 1


def test_B_COMBAT_07_a_defense_order_helps_against_every_attack_of_the_round() -> None:
    g = action(
        {
            "lannisport": "lannister footman",
            "seagard": "greyjoy footman",
            "riverrun": "stark knight",
        },
        {"lannisport": "march0", "seagard": "march0", "riverrun": "defense1"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["footman"]})
    first = fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"})
    assert result(first)["strength"]["defender"]["defense"] == 1 and result(first)["winner"] == "stark"
    assert g.s.orders["riverrun"].token == "defense1"  # it stays after a won defence
    march(g, "greyjoy", "seagard", {"riverrun": ["footman"]})
    second = fight(g, cards={"greyjoy": "dagmar-cleftjaw", "stark": "ser-rodrick-cassel"})
    assert result(second)["strength"]["defender"]["defense"] == 1


def test_B_COMBAT_08_both_choose_a_card_secretly_and_must_play_one() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    ps = g.prompts()
    assert [(p.house, p.kind, p.secret) for p in ps] == [
        ("lannister", "house-card", True),
        ("stark", "house-card", True),
    ]
    rejected(g, "lannister", None, "illegal-choice")  # no "no card": playing one is mandatory
    rejected(g, "lannister", "eddard-stark", "illegal-choice")  # only from one's own hand
    g.act("lannister", "the-hound")
    # The choice may still be changed until both have chosen; nothing is revealed yet.
    assert [p.house for p in g.prompts() if not p.answered] == ["stark"]
    g.act("lannister", "ser-jaime-lannister")
    assert combat_frame(g)["cards"] == {"attacker": None, "defender": None}  # type: ignore[index]
    events = g.act("stark", "greatjon-umber")
    revealed = event(events, "house-cards-revealed")
    assert (revealed["attacker"], revealed["defender"]) == ("ser-jaime-lannister", "greatjon-umber")


def test_B_COMBAT_09_valyrian_steel_blade_adds_one_and_turns_face_down() -> None:
    tracks = dict(TRACKS, fiefdoms=["stark", "tyrell", "martell", "greyjoy", "baratheon", "lannister"])
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"} | KEEP,
        {"lannisport": "march0", "stoney-sept": "defense1"} | KEEP_ORDER,
        tracks=tracks,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    p = prompt(g, "stark")
    assert p.kind == "blade" and p.info["strength"] == {"attacker": 4, "defender": 4}
    events = g.act("stark", True)
    r = result(events)
    assert r["strength"]["defender"]["blade"] == 1 and r["winner"] == "stark"
    assert g.s.blade_used
    assert g.view(None)["dominance"]["valyrian_steel_blade"] == {"house": "stark", "used": True}


def test_known_edge_87_blade_once_per_round_and_1161_holder_decided_at_its_step() -> None:
    tracks = dict(TRACKS, fiefdoms=["stark", "tyrell", "martell", "greyjoy", "baratheon", "lannister"])
    g = action(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman",
            "seagard": "greyjoy knight",
            "riverrun": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "seagard": "march0", "riverrun": "defense1"},
        tracks=tracks,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, blade=True)
    assert g.s.blade_used
    march(g, "greyjoy", "seagard", {"riverrun": ["knight"]})
    g.act("greyjoy", "dagmar-cleftjaw")
    g.act("stark", "ser-rodrick-cassel")
    # Stark holds the Blade but used it this round: no second question.
    assert combat_frame(g) is None


def test_known_edge_1161_blade_holder_is_whoever_holds_it_at_step_four() -> None:
    tracks = dict(TRACKS, fiefdoms=["greyjoy", "stark", "martell", "tyrell", "baratheon", "lannister"])
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        tracks=tracks,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    g.act("lannister", "the-hound")
    # As a card effect could (Doran Martell), Stark moves to the top of Fiefdoms before step 4.
    g.s.tracks["fiefdoms"] = ["stark", "greyjoy", "martell", "tyrell", "baratheon", "lannister"]
    g.act("stark", "greatjon-umber")
    assert prompt(g, "stark").kind == "blade"


def test_B_COMBAT_12_tie_goes_to_the_higher_on_fiefdoms() -> None:
    tracks = dict(TRACKS, fiefdoms=["greyjoy", "stark", "martell", "tyrell", "baratheon", "lannister"])
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        tracks=tracks,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}))
    # 2 + 2 against 1 + 1 + 2: Stark (2nd) beats Lannister (6th).
    assert r["strength"]["attacker"]["total"] == r["strength"]["defender"]["total"] == 4
    assert r["winner"] == "stark" and r["tie_broken_by_fiefdoms"]


def test_B_COMBAT_13_B_COMBAT_15_attacker_wins_removes_defender_order_and_token_and_moves_in() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "riverrun": "stark footman", "winterfell": "stark footman"},
        {"lannisport": "march0", "riverrun": "support0", "winterfell": "defense1"},
        power_tokens={"riverrun": "stark"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["knight", "knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "ser-rodrick-cassel"}, retreat={"stark": "seagard"})
    assert result(events)["winner"] == "lannister"
    assert "riverrun" not in g.s.orders and "lannisport" not in g.s.orders
    assert "riverrun" not in g.s.power_tokens
    assert {"type": "power-token-removed", "area": "riverrun", "house": "stark", "reason": "taken"} in events
    assert units(g, "riverrun") == ["lannister knight", "lannister knight"]
    assert g.view(None)["areas"]["riverrun"]["controller"] == "lannister"


def test_B_COMBAT_13_defender_wins_keeps_its_order_and_token() -> None:
    g = action(
        {"lannisport": "lannister footman", "riverrun": "stark knight", "winterfell": "stark footman"} | KEEP,
        {"lannisport": "march0", "riverrun": "defense1", "winterfell": "defense1"} | KEEP_ORDER,
        power_tokens={"riverrun": "stark"},
    )
    march(g, "lannister", "lannisport", {"riverrun": ["footman"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "ser-rodrick-cassel"})
    assert result(events)["winner"] == "stark"
    assert g.s.orders["riverrun"].token == "defense1" and g.s.power_tokens["riverrun"] == "stark"
    assert "lannisport" not in g.s.orders  # the attacker's March order is removed either way


def test_B_COMBAT_14_B_HCARD_06_both_cards_go_to_the_discard_pile_and_cannot_be_played() -> None:
    g = action(
        {
            "lannisport": "lannister knight",
            "stoney-sept": "stark footman",
            "searoad-marches": "lannister knight",
            "riverrun": "stark footman",
        },
        {"lannisport": "march0", "stoney-sept": "defense1", "searoad-marches": "march-1", "riverrun": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"})
    assert g.s.houses["lannister"].discards == ["the-hound"] and "the-hound" not in g.s.houses["lannister"].hand
    assert g.s.houses["stark"].discards == ["greatjon-umber"]
    assert len(g.s.houses["stark"].hand) == 6
    march(g, "lannister", "searoad-marches", {"stoney-sept": ["knight"]})  # joins the winners (no combat)
    g2 = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        discards={"lannister": ["the-hound"]},
        hands={"lannister": ["ser-jaime-lannister", "tyrion-lannister"]},
    )
    march(g2, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    assert prompt(g2, "lannister").choices == ["ser-jaime-lannister", "tyrion-lannister"]
    rejected(g2, "lannister", "the-hound", "illegal-choice")


def test_B_HCARD_01_every_house_starts_with_its_seven_cards() -> None:
    g = new_game(6)
    for house, hs in g.s.houses.items():
        assert len(hs.hand) == 7 and hs.discards == []
        from engine import data

        assert sorted(hs.hand) == sorted(c.id for c in data.house_cards().values() if c.house == house)


def test_B_HCARD_02_printed_strength_and_icons() -> None:
    g = action(
        {"lannisport": "lannister knight footman", "stoney-sept": "stark footman footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "footman"]})
    events = fight(
        g, cards={"lannister": "ser-gregor-clegane", "stark": "ser-rodrick-cassel"}, retreat={"stark": "blackwater"}
    )
    r = result(events)
    assert r["strength"]["attacker"]["card"] == 3 and r["strength"]["defender"]["card"] == 1
    # Three swords against two fortifications: one casualty.
    assert event(events, "units-destroyed")["units"] == ["footman"]


def test_B_HCARD_07_the_seventh_card_brings_back_the_other_six() -> None:
    cards = [
        "the-hound",
        "ser-jaime-lannister",
        "tyrion-lannister",
        "cersei-lannister",
        "ser-kevan-lannister",
        "tywin-lannister",
    ]
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        hands={"lannister": ["ser-gregor-clegane"]},
        discards={"lannister": cards},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    events = fight(
        g, cards={"lannister": "ser-gregor-clegane", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"}
    )
    assert any(e["type"] == "hand-returned" and e["house"] == "lannister" for e in events)
    assert sorted(g.s.houses["lannister"].hand) == sorted(cards)
    assert g.s.houses["lannister"].discards == ["ser-gregor-clegane"]


def test_B_HCARD_08_B_HCARD_09_B_HCARD_10_swords_of_the_winner_against_fortifications_of_the_loser() -> None:
    # The defender wins: the swords on ITS card count, the fortifications on the attacker's card cancel them.
    g = action(
        {"lannisport": "lannister footman footman footman", "stoney-sept": "stark knight knight"} | KEEP,
        {"lannisport": "march0", "stoney-sept": "defense1"} | KEEP_ORDER,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["footman", "footman", "footman"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "eddard-stark"})
    # Lannister 3 + 2 = 5, Stark 4 + 1 + 4 = 9: two swords against two fortifications, nothing destroyed.
    assert result(events)["winner"] == "stark"
    assert not any(e["type"] == "units-destroyed" for e in events)
    assert units(g, "lannisport") == ["lannister routed-footman"] * 3
    # The loser's swords and the winner's fortifications never count.
    g = action(
        {"lannisport": "lannister knight knight knight", "stoney-sept": "stark footman footman"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    events = fight(g, cards={"lannister": "the-hound", "stark": "eddard-stark"}, retreat={"stark": "blackwater"})
    assert result(events)["winner"] == "lannister"  # 6 + 2 = 8 against 2 + 1 + 4 = 7
    assert not any(e["type"] == "units-destroyed" for e in events)
    assert units(g, "lannisport") == []


def test_B_HCARD_12_units_destroyed_during_the_combat_lower_the_final_strength() -> None:
    tracks = dict(TRACKS, fiefdoms=["stark", "tyrell", "martell", "greyjoy", "baratheon", "lannister"])
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
        tracks=tracks,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    assert prompt(g, "stark").info["strength"]["defender"] == 6
    # A card effect destroys the defending footman before the final strength is computed.
    pool = g.s.units["stoney-sept"]
    pool.remove(next(u for u in pool if u.type == "footman"))
    r = result(g.act("stark", False))
    assert r["strength"]["defender"]["units"] == 2 and r["strength"]["defender"]["total"] == 5


def test_B_COMBAT_16_the_embattled_areas_own_support_order_gives_nothing() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "support1*"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    assert all(p.kind == "house-card" for p in g.prompts())
    r = result(fight(g, cards={"lannister": "the-hound", "stark": "greatjon-umber"}, retreat={"stark": "blackwater"}))
    assert r["strength"]["defender"] == {"units": 1, "support": 0, "card": 2, "total": 3}


def test_B_COMBAT_17_ships_in_a_port_never_defend_their_land() -> None:
    g = action(
        {
            "stoney-sept": "stark knight knight",
            "lannisport": "lannister footman",
            "port-of-lannisport": "lannister ship ship",
        },
        {"stoney-sept": "march0", "lannisport": "defense1", "port-of-lannisport": "support0"},
        garrisons={"lannisport": 2},
    )
    march(g, "stark", "stoney-sept", {"lannisport": ["knight", "knight"]})
    assert all(p.kind == "house-card" for p in g.prompts())  # the port's Support is not offered
    events = fight(
        g,
        cards={"stark": "greatjon-umber", "lannister": "the-hound"},
        retreat={"lannister": "searoad-marches"},
        port={"stark": 2},
    )
    r = result(events)
    assert r["strength"]["defender"] == {"units": 1, "support": 0, "defense": 1, "garrison": 2, "card": 2, "total": 6}


def test_B_COMBAT_11_resolution_order_victor_casualties_retreat_cleanup() -> None:
    g = action(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman knight"},
        {"lannisport": "march0", "stoney-sept": "defense1"},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    events = fight(
        g,
        cards={"lannister": "ser-gregor-clegane", "stark": "ser-rodrick-cassel"},
        casualties={"stark": ["footman"]},
        retreat={"stark": "blackwater"},
    )
    order = [e["type"] for e in events if e["type"] in ("combat-result", "units-destroyed", "retreat", "combat-ended")]
    assert order == ["combat-result", "units-destroyed", "retreat", "combat-ended"]


def test_combat_illegal_answers_leave_the_state_unchanged() -> None:
    tracks = dict(TRACKS, fiefdoms=["stark", "tyrell", "martell", "greyjoy", "baratheon", "lannister"])
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman", "harrenhal": "baratheon footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "harrenhal": "support0"},
        tracks=tracks,
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    rejected(g, "lannister", "attacker", "not-your-turn")  # only Baratheon is asked now
    rejected(g, "baratheon", "neutral", "illegal-choice")
    g.act("baratheon", "none")
    rejected(g, "baratheon", "the-hound", "not-your-turn")
    g.act("lannister", "the-hound")
    g.act("stark", "greatjon-umber")
    rejected(g, "stark", "yes", "bad-answer")  # the Blade wants true / false
    rejected(g, "lannister", True, "not-your-turn")


def test_B_OPEN_08_a_combatant_without_house_cards_fights_without_one() -> None:
    g = action(
        {"lannisport": "lannister knight", "stoney-sept": "stark footman"} | KEEP,
        {"lannisport": "march0", "stoney-sept": "defense1"} | KEEP_ORDER,
        hands={"stark": []},
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    assert [(p.house, p.kind) for p in g.prompts()] == [("lannister", "house-card")]
    events = fight(g, cards={"lannister": "ser-jaime-lannister"}, retreat={"stark": "blackwater"})
    r = result(events)
    assert r["strength"]["defender"] == {"units": 1, "support": 0, "defense": 1, "total": 2}
    assert event(events, "house-cards-revealed")["defender"] is None
    assert g.s.houses["stark"].hand == [] and g.s.houses["stark"].discards == []


def test_known_edge_455_orders_removed_from_a_reconquered_capital() -> None:
    g = action(
        {"white-harbor": "stark knight knight", "winterfell": "greyjoy footman"} | KEEP,
        {"white-harbor": "march0", "winterfell": "support1*"} | KEEP_ORDER,
        power_tokens={"winterfell": "greyjoy"},
        # Greyjoy 4th on the King's Court track: one special order
        tracks=dict(TRACKS, kings_court=["lannister", "stark", "martell", "greyjoy", "baratheon", "tyrell"]),
    )
    march(g, "stark", "white-harbor", {"winterfell": ["knight", "knight"]})
    events = fight(g, cards={"stark": "greatjon-umber", "greyjoy": "dagmar-cleftjaw"}, retreat={"greyjoy": "karhold"})
    assert result(events)["winner"] == "stark"
    assert "winterfell" not in g.s.orders and "winterfell" not in g.s.power_tokens
    assert "white-harbor" not in g.s.orders
    assert units(g, "winterfell") == ["stark knight", "stark knight"]
    assert g.view(None)["areas"]["winterfell"]["controller"] == "stark"


def test_known_edge_455_a_capital_held_by_a_token_only_is_retaken_without_combat() -> None:
    g = action(
        {"white-harbor": "stark knight"} | KEEP,
        {"white-harbor": "march0"} | KEEP_ORDER,
        power_tokens={"winterfell": "greyjoy"},
    )
    assert g.view(None)["areas"]["winterfell"]["controller"] == "greyjoy"
    events = march(g, "stark", "white-harbor", {"winterfell": ["knight"]})
    assert not any(e["type"] == "combat-started" for e in events)
    assert "winterfell" not in g.s.power_tokens and g.view(None)["areas"]["winterfell"]["controller"] == "stark"
