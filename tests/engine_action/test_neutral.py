"""Neutral forces (checklist section 24, B-NEUTRAL-*; B-OPEN-01, B-OPEN-02; known edge cases: March +1 counts (#101),
support counts (#423), capitals held by neutral forces have no garrison (PR #1900))."""

from __future__ import annotations

from typing import Any

from engine import Game, data, new_game, rules

from .helpers import combat_frame, event, kinds, make, march, march_answer, prompt, rejected, units

TRACKS_5 = {
    "iron_throne": ["tyrell", "lannister", "stark", "greyjoy", "baratheon"],
    "fiefdoms": ["tyrell", "greyjoy", "stark", "baratheon", "lannister"],  # Tyrell holds the Blade
    "kings_court": ["lannister", "stark", "baratheon", "tyrell", "greyjoy"],
}


def five(unit_spec: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    extra.setdefault("neutral", {"sunspear": 5})
    return make({"players": 5, "tracks": TRACKS_5, "units": unit_spec, "orders": orders, "start": "action", **extra})


BOOK = {"yronwood": "tyrell knight footman", "sea-of-dorne": "tyrell ship"}
BOOK_ORDERS = {"yronwood": "march1*", "sea-of-dorne": "support0"}


def test_rulebook_neutral_force_example() -> None:
    """002:3321-3343, 001:1394-1402: Tyrell marches (+1) a knight and a footman from Yronwood on Sunspear (5): 4 is
    not enough; its ship in the Sea of Dorne supports for +1: 5 = 5, the token is removed and the army moves in."""
    g = five(BOOK, BOOK_ORDERS)
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "footman"]})
    assert kinds(g) == [("tyrell", "support")]
    events = g.act("tyrell", "attacker")
    attack = event(events, "neutral-attack")
    assert (attack["strength"], attack["needed"], attack["won"]) == (5, 5, True)
    assert "sunspear" not in g.s.neutral
    assert units(g, "sunspear") == ["tyrell footman", "tyrell knight"]
    assert "yronwood" not in g.s.orders


def test_B_NEUTRAL_01_neutral_areas_are_uncontrolled_until_conquered() -> None:
    g = new_game(5)
    assert g.s.neutral["sunspear"] == 5
    assert rules.controller(g.s, "sunspear") is None  # Martell's printed crest does not count in a 5-player game
    assert g.view(None)["areas"]["sunspear"]["neutral"] == 5


def test_B_NEUTRAL_02_a_march_needs_enough_strength_to_win() -> None:
    g = five({"yronwood": "tyrell knight footman"}, {"yronwood": "march1*"})
    err = rejected(g, "tyrell", march_answer("yronwood", {"sunspear": ["knight", "footman"]}), "neutral-too-strong")
    assert (err.params["needed"], err.params["best"]) == (5, 4)


def test_B_NEUTRAL_03_equal_strength_is_enough_one_less_is_not() -> None:
    g = five({"yronwood": "tyrell knight knight footman"}, {"yronwood": "march0"})
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "knight", "footman"]})
    assert units(g, "sunspear") == ["tyrell footman", "tyrell knight", "tyrell knight"]
    g = five({"yronwood": "tyrell knight knight"}, {"yronwood": "march0"})
    rejected(g, "tyrell", march_answer("yronwood", {"sunspear": ["knight", "knight"]}), "neutral-too-strong")


def test_B_NEUTRAL_04_known_edge_101_march_modifier_and_siege_engines_count() -> None:
    # Sunspear is a stronghold: the siege engine counts 4; +1 from the special March: 4 + 1 + 1 = 6 >= 5.
    g = five({"yronwood": "tyrell siege-engine footman"}, {"yronwood": "march1*"})
    events = march(g, "tyrell", "yronwood", {"sunspear": ["siege-engine", "footman"]})
    assert event(events, "neutral-attack")["strength"] == 6
    # Salt Shore (3, no castle): the engine is worth nothing; footman + March -1 = 0.
    g = five({"yronwood": "tyrell siege-engine footman"}, {"yronwood": "march-1"}, neutral={"salt-shore": 3})
    err = rejected(
        g, "tyrell", march_answer("yronwood", {"salt-shore": ["siege-engine", "footman"]}), "neutral-too-strong"
    )
    assert err.params["best"] == 0


def test_B_NEUTRAL_05_B_NEUTRAL_07_no_house_cards_and_no_blade() -> None:
    g = five({"yronwood": "tyrell knight knight footman"}, {"yronwood": "march0"})
    hand = list(g.s.houses["tyrell"].hand)
    events = march(g, "tyrell", "yronwood", {"sunspear": ["knight", "knight", "footman"]})
    # Tyrell holds the Valyrian Steel Blade (1st on Fiefdoms) but is never asked: no cards, no Blade.
    assert not any(e["type"] in ("house-cards-revealed", "blade-used") for e in events)
    assert g.s.houses["tyrell"].hand == hand and not g.s.blade_used
    assert combat_frame(g) is None


def test_B_NEUTRAL_06_known_edge_423_support_counts_for_the_attacker_never_for_the_neutral_force() -> None:
    g = five(
        {"yronwood": "tyrell knight footman", "sea-of-dorne": "greyjoy ship", "salt-shore": "stark footman"},
        {"yronwood": "march0", "sea-of-dorne": "support0", "salt-shore": "support1*"},
    )
    # 3 alone, 3 + 1 + 2 = 6 with every adjacent Support: the march is allowed.
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "footman"]})
    # Turn order: Tyrell, Lannister, Stark, Greyjoy, Baratheon.
    assert prompt(g, "stark").choices == ["attacker", "none"]
    rejected(g, "stark", "defender", "illegal-choice")
    g.act("stark", "attacker")
    assert prompt(g, "greyjoy").choices == ["attacker", "none"]
    g.act("greyjoy", "attacker")
    g.act("tyrell", "accept")  # Tyrell accepts both, one after the other
    events = g.act("tyrell", "accept")
    assert event(events, "neutral-attack")["strength"] == 6
    assert units(g, "sunspear") == ["tyrell footman", "tyrell knight"]


def test_B_OPEN_01_support_withheld_cancels_the_move_into_the_neutral_area() -> None:
    g = five(
        {"yronwood": "tyrell knight footman footman", "sea-of-dorne": "greyjoy ship ship"},
        {"yronwood": "march0", "sea-of-dorne": "support0"},
    )
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "footman"], "salt-shore": ["footman"]})
    assert units(g, "salt-shore") == ["tyrell footman"]  # the rest of the March order is carried out
    events = g.act("greyjoy", "none")  # Greyjoy promised help, then withholds it
    attack = event(events, "neutral-attack")
    assert (attack["strength"], attack["won"]) == (3, False)
    assert g.s.neutral["sunspear"] == 5 and "sunspear" not in g.s.units
    assert units(g, "yronwood") == ["tyrell footman", "tyrell knight"]  # the attackers stay (not routed)
    assert "yronwood" not in g.s.orders


def test_B_SUPPORT_08_refusing_support_against_a_neutral_force() -> None:
    g = five(
        {"yronwood": "tyrell knight footman footman", "sea-of-dorne": "greyjoy ship ship"},
        {"yronwood": "march0", "sea-of-dorne": "support0"},
    )
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "footman", "footman"]})
    g.act("greyjoy", "attacker")
    assert prompt(g, "tyrell").kind == "support-refusal"
    events = g.act("tyrell", "refuse")
    assert event(events, "neutral-attack")["strength"] == 4 and g.s.neutral["sunspear"] == 5


def test_B_OPEN_02_no_tides_of_battle_against_a_neutral_force() -> None:
    g = five({"yronwood": "tyrell knight knight footman"}, {"yronwood": "march0"}, options={"tides_of_battle": True})
    events = march(g, "tyrell", "yronwood", {"sunspear": ["knight", "knight", "footman"]})
    assert not any(e["type"] == "tides-drawn" for e in events)
    assert event(events, "neutral-attack")["strength"] == 5


def test_B_NEUTRAL_08_the_token_goes_and_the_area_is_taken() -> None:
    g = five({"yronwood": "tyrell knight knight footman"}, {"yronwood": "march0"})
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "knight", "footman"]})
    assert "sunspear" not in g.s.neutral
    assert rules.controller(g.s, "sunspear") == "tyrell"
    assert g.view(None)["areas"]["sunspear"]["neutral"] is None


def test_B_NEUTRAL_09_B_MARCH_18_a_neutral_attack_is_the_marchs_only_combat() -> None:
    g = five(
        {"yronwood": "tyrell knight knight knight footman", "the-boneway": "baratheon footman"},
        {"yronwood": "march0", "the-boneway": "defense1"},
        neutral={"sunspear": 5, "salt-shore": 3},
        supply={"tyrell": 5},  # an army of 4
    )
    rejected(
        g,
        "tyrell",
        march_answer("yronwood", {"sunspear": ["knight", "knight", "knight"], "the-boneway": ["footman"]}),
        "two-combats",
    )
    rejected(
        g,
        "tyrell",
        march_answer("yronwood", {"sunspear": ["knight", "knight", "knight"], "salt-shore": ["footman"]}),
        "two-combats",
    )
    march(g, "tyrell", "yronwood", {"sunspear": ["knight", "knight", "knight"]})


def test_known_edge_1900_a_capital_held_by_a_neutral_force_has_no_garrison() -> None:
    g = new_game(5)
    assert "sunspear" not in g.s.garrisons and set(g.s.garrisons) == {data.houses()[h].home for h in g.s.players}
    # The setup's neutral forces and garrisons, but Tyrell has taken Yronwood (its force is gone).
    forces = {a: n for a, n in data.setups()["player_counts"]["5"]["neutral_forces"].items() if a != "yronwood"}
    g = Game.from_scenario(
        {
            "players": 5,
            "tracks": TRACKS_5,
            "neutral": forces,
            "units": {"yronwood": "tyrell knight knight footman"},
            "orders": {"yronwood": "march0"},
            "start": "action",
            "round": 10,
        }
    )
    events = march(g, "tyrell", "yronwood", {"sunspear": ["knight", "knight", "footman"]})
    assert event(events, "neutral-attack")["needed"] == 5  # the force alone, nothing added


def three_player(unit_spec: dict[str, str], orders: dict[str, str]) -> Game:
    tracks = {t: ["baratheon", "lannister", "stark"] for t in data.TRACKS}
    return Game.from_scenario(
        {
            "players": 3,
            "units": unit_spec,
            "orders": orders,
            "start": "action",
            "round": 10,
            "tracks": tracks,
            "garrisons": {},
        }
    )


def test_B_NEUTRAL_10_impassable_areas_in_a_three_player_game() -> None:
    g = three_player(
        {"searoad-marches": "lannister knight", "winterfell": "stark footman"}, {"searoad-marches": "march0"}
    )
    assert g.s.neutral["highgarden"] is None
    dests = prompt(g, "lannister").choices["searoad-marches"]["destinations"]["knight"]
    assert "highgarden" not in dests
    rejected(g, "lannister", march_answer("searoad-marches", {"highgarden": ["knight"]}), "area-impassable")
    assert g.view(None)["areas"]["highgarden"]["neutral"] == "impassable"


def test_B_NEUTRAL_10_no_retreat_into_an_impassable_area() -> None:
    g = three_player(
        {
            "blackwater": "lannister knight knight knight",
            "the-reach": "stark footman",
            "kingswood": "baratheon footman",
        },
        {"blackwater": "march0", "the-reach": "defense1", "kingswood": "defense1"},
    )
    march(g, "lannister", "blackwater", {"the-reach": ["knight", "knight", "knight"]})
    g.act("lannister", "the-hound")
    events = g.act("stark", "greatjon-umber")
    # The Reach: Blackwater (origin), King's Landing (neutral 5), Kingswood (Baratheon), Highgarden, Dornish Marches,
    # the Boneway (impassable in a 3-player game), Searoad Marches (free).
    assert event(events, "retreat")["to"] == "searoad-marches"


def test_B_MARCH_08_B_NEUTRAL_06_the_marchs_other_moves_arrive_first_and_may_support_it() -> None:
    """B-MARCH-08, B-NEUTRAL-04, B-NEUTRAL-06, B-OPEN-01. The march's moves to empty areas are made before its
    combat: "До начала боя Дом должен вывести из области с приказом похода оставшиеся отряды" (002:1767-1773); a
    Support order adds "силу всех отрядов из области с приказом" (002:1959-1961); and "Атакующий может получить
    подмогу из соседних областей, как обычно" against a neutral force (002:3286-3288).

    Lannister marches (+0) its knight from The Reach on King's Landing (5) and both footmen to Blackwater, where a
    Lannister footman holds a Support order: 2 + 3 = 5 beats 5."""
    g = make(
        {
            "units": {"the-reach": "lannister knight footman footman", "blackwater": "lannister footman"},
            "orders": {"the-reach": "march0", "blackwater": "support0"},
            "neutral": {"kings-landing": 5},
            "start": "action",
        }
    )
    march(g, "lannister", "the-reach", {"kings-landing": ["knight"], "blackwater": ["footman", "footman"]})
    assert units(g, "blackwater") == ["lannister footman"] * 3
    assert kinds(g) == [("lannister", "support")]
    attack = event(g.act("lannister", "attacker"), "neutral-attack")
    assert (attack["strength"], attack["needed"], attack["won"]) == (5, 5, True)
    assert units(g, "kings-landing") == ["lannister knight"]


def test_B_OPEN_01_support_counted_for_a_neutral_march_is_only_what_could_arrive() -> None:
    """B-NEUTRAL-02, B-OPEN-01: the same march with one footman sent to Blackwater reaches only 4: refused, and the
    refusal leaves the position exactly as it was (the footman that moved first is back in The Reach)."""
    g = make(
        {
            "units": {"the-reach": "lannister knight footman footman", "blackwater": "lannister footman"},
            "orders": {"the-reach": "march0", "blackwater": "support0"},
            "neutral": {"kings-landing": 5},
            "start": "action",
        }
    )
    answer = march_answer("the-reach", {"kings-landing": ["knight"], "blackwater": ["footman"]})
    err = rejected(g, "lannister", answer, "neutral-too-strong")
    assert (err.params["needed"], err.params["best"]) == (5, 4)
    assert units(g, "the-reach") == ["lannister footman", "lannister footman", "lannister knight"]


def test_B_OPEN_01_B_OPEN_05_a_cancelled_neutral_attack_keeps_supply() -> None:
    """B-OPEN-01, B-OPEN-05: the march's other moves are made with the attackers counted in the neutral force's area;
    when the attack is cancelled they stay home, and those that would break supply there are destroyed, the
    strongest kept, as for a beaten attacker. Lannister at supply 5 (armies of 4, 3, 2, 2) sends a footman to
    Blackwater (an army of 3) and two knights on King's Landing, leaving a footman in the Reach; without its
    support the attack (4) falls short of 5, and three armies of 3 would not fit: one knight is lost."""
    g = make(
        {
            "units": {
                "the-reach": "lannister knight knight footman footman",
                "blackwater": "lannister footman footman",
                "riverrun": "lannister footman footman footman",
            },
            "orders": {"the-reach": "march0", "blackwater": "support0"},
            "neutral": {"kings-landing": 5},
            "supply": {"lannister": 5},
            "start": "action",
        }
    )
    march(g, "lannister", "the-reach", {"kings-landing": ["knight", "knight"], "blackwater": ["footman"]})
    events = g.act("lannister", "none")
    attack = event(events, "neutral-attack")
    assert (attack["strength"], attack["won"]) == (4, False)
    lost = event(events, "units-destroyed")
    assert (lost["area"], lost["units"], lost["reason"]) == ("the-reach", ["knight"], "retreat-supply")
    assert units(g, "the-reach") == ["lannister footman", "lannister knight"]
    assert rules.supply_ok(g.s, "lannister")
