"""Wildling attacks and all nine wildling cards (B-WILD-01..12, B-TRACK-01/02; known edge cases "Wildlings",
"Port owner checks apply in wildling attacks")."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, data, rules
from tests.engine_westeros.helpers import (
    answer,
    bid_all,
    events_of,
    in_planning,
    prompt,
    setup_events,
    units,
    westeros,
)

REST = ["crow-killers", "rattleshirts-raiders", "mammoth-riders"]


def attack(strength: int, card: str, spec: dict[str, Any] | None = None, rest: list[str] | None = None) -> Game:
    """A Wildlings Attack card (deck III) resolved at ``strength``, with ``card`` on top of the wildling deck.

    Default 3-player position: turn order Baratheon, Lannister, Stark; everyone has 5 Power; Baratheon holds the
    Iron Throne. Cards I and II carry one icon each, so the threat starts 4 lower (2 lower below strength 4).
    """
    spec = dict(spec or {})
    if strength >= 4:
        cards = ("last-days-of-summer", "last-days-of-summer", "wildlings-attack")
        spec["wildling_threat"] = strength - 4
    else:
        cards = ("supply", "last-days-of-summer", "wildlings-attack")
        spec["wildling_threat"] = strength - 2
    if rest is None:  # the game has one copy of each wildling card: a card on top is not in the rest again
        rest = [c if c != card else next(w for w in data.wildling_cards() if w not in (card, *REST)) for c in REST]
    spec["wildling_deck"] = [card, *rest]
    g = westeros(spec, cards)
    assert [e["strength"] for e in events_of(setup_events(g), "wildlings-attack")] == [strength]
    return g


def finish(g: Game, script: list[tuple[str, str, Any]] | None = None) -> list[dict[str, Any]]:
    """Answer prompts until the Planning phase: the next scripted (house, kind, answer) when it matches the first open
    prompt, else the prompt's default. Returns every event."""
    todo = list(script or [])
    events: list[dict[str, Any]] = []
    while not in_planning(g):
        p = prompt(g)
        if todo and (todo[0][0], todo[0][1]) == (p.house, p.kind):
            events += g.act(p.house, todo.pop(0)[2])
        else:
            events += g.act(p.house, p.default)
    assert not todo, f"script not used: {todo}"
    return events


def power(g: Game) -> dict[str, int]:
    return {h: g.s.houses[h].power for h in g.s.players}


# ----- the attack -----


def test_B_WILD_05_equal_strength_is_a_nights_watch_victory() -> None:
    """B-WILD-02, B-WILD-03, B-WILD-04, B-WILD-05, B-WILD-06, B-WILD-07:
    strength 6 = the threat; bids 2 + 2 + 2 = 6 hold the Wall; the threat goes to 0
    and every bid token goes to the pool."""
    g = attack(6, "silence-at-the-wall")
    ps = g.prompts()
    assert {p.house for p in ps} == {"stark", "lannister", "baratheon"}
    assert all(p.kind == "bid" and p.secret and p.info == {"purpose": "wildlings", "strength": 6} for p in ps)
    assert g.view(None)["power"] == {"stark": None, "lannister": None, "baratheon": None}  # B-HIDDEN-02
    pool = rules.power_in_pool(g.s, "stark")
    events = bid_all(g, {"stark": 2, "lannister": 2, "baratheon": 2})
    result = events_of(events, "wildlings-result")[0]
    assert result["nights_watch"] == 6 and result["winner"] == "nights-watch"
    assert g.s.wildling_threat == 0
    assert power(g) == {"stark": 3, "lannister": 3, "baratheon": 3}
    assert rules.power_in_pool(g.s, "stark") == pool + 2
    assert in_planning(g)


def test_B_WILD_06_wildling_victory_moves_the_threat_back_two_spaces() -> None:
    """B-WILD-05, B-WILD-06: 1 + 1 + 1 < 8: the wildlings win and the threat goes from 8 to 4."""
    g = attack(8, "silence-at-the-wall")
    events = bid_all(g, {"stark": 1, "lannister": 1, "baratheon": 1})
    assert events_of(events, "wildlings-result")[0]["winner"] == "wildlings"
    assert g.s.wildling_threat == 4


def test_B_WILD_06_threat_never_below_zero() -> None:
    """B-WILD-06: at strength 2 a lost attack leaves the threat at 0, not -2."""
    g = attack(2, "silence-at-the-wall")
    bid_all(g, {"stark": 0, "lannister": 0, "baratheon": 1})
    assert g.s.wildling_threat == 0


def test_B_WILD_08_11_top_card_drawn_then_put_at_the_bottom() -> None:
    """B-WILD-08, B-WILD-11: the top wildling card is resolved and goes to the bottom of the deck."""
    g = attack(6, "silence-at-the-wall")
    events = bid_all(g, {"stark": 2, "lannister": 2, "baratheon": 2})
    assert events_of(events, "wildling-card")[0]["card"] == "silence-at-the-wall"
    assert g.s.wildling_deck == [*REST, "silence-at-the-wall"]


def test_B_WILD_09_only_the_highest_bidder_gets_the_reward() -> None:
    """B-WILD-09, Skinchanger Scout reward: the highest bidder's bid comes back; nobody else gains anything."""
    g = attack(6, "skinchanger-scout")
    bid_all(g, {"stark": 3, "lannister": 2, "baratheon": 1})
    assert power(g) == {"stark": 5, "lannister": 3, "baratheon": 4}


def test_B_WILD_10_lowest_bidder_first_then_everyone_else_in_turn_order() -> None:
    """B-WILD-10, Skinchanger Scout penalties: the lowest bidder discards all its Power, then Baratheon and
    Lannister (turn order) discard 2 each."""
    g = attack(8, "skinchanger-scout")
    events = bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    effects = [(e["house"], e["role"], e["power"]) for e in events_of(events, "wildling-effect")]
    assert effects == [("stark", "lowest", 5), ("baratheon", "everyone", 2), ("lannister", "everyone", 2)]
    assert power(g) == {"stark": 0, "lannister": 2, "baratheon": 1}


def test_B_WILD_12_rulebook_example_two_houses_bid_the_lowest_2() -> None:
    """B-WILD-12, B-INFL-10: Stark and Lannister both bid 2, the lowest: Baratheon (Iron Throne) picks the one who
    counts as lowest bidder."""
    g = attack(8, "skinchanger-scout")
    bid_all(g, {"stark": 2, "lannister": 2, "baratheon": 3})
    p = prompt(g, kind="wildling-tie")
    assert p.house == "baratheon"
    assert p.choices == ["lannister", "stark"] and p.info["role"] == "lowest"
    assert p.default == "stark"
    events = g.act("baratheon", "lannister")
    assert events_of(events, "tie-broken")[0]["chosen"] == "lannister"
    assert power(g) == {"stark": 1, "lannister": 0, "baratheon": 0}


def test_B_WILD_12_tie_for_highest_bidder() -> None:
    """B-WILD-12: a tie for the highest bid on a win is also settled by the Iron Throne holder."""
    g = attack(4, "skinchanger-scout")
    bid_all(g, {"stark": 2, "lannister": 2, "baratheon": 0})
    p = prompt(g, "baratheon", "wildling-tie")
    assert p.info["role"] == "highest" and p.default == "lannister"
    g.act("baratheon", "stark")
    assert power(g) == {"stark": 5, "lannister": 3, "baratheon": 5}


def test_B_WILD_03_houses_without_power_bid_zero_unasked() -> None:
    """B-WILD-03: zero is a legal bid; a house with no Power is not asked."""
    g = attack(6, "silence-at-the-wall", {"power": {"stark": 0, "lannister": 5, "baratheon": 5}})
    assert {p.house for p in g.prompts()} == {"lannister", "baratheon"}


# ----- Silence at the Wall -----


@pytest.mark.parametrize(
    "bids", [{"stark": 2, "lannister": 2, "baratheon": 2}, {"stark": 0, "lannister": 0, "baratheon": 1}]
)
def test_silence_at_the_wall_nothing_happens(bids: dict[str, int]) -> None:
    """B-WILD-13 (Silence at the Wall): nothing happens on either outcome."""
    g = attack(6, "silence-at-the-wall")
    before = {a: units(g, a) for a in g.s.units}
    bid_all(g, bids)
    assert in_planning(g)
    assert {a: units(g, a) for a in g.s.units} == before


# ----- Preemptive Raid -----


def test_preemptive_raid_victory_second_attack_without_the_highest_bidder() -> None:
    """Known edge case PR #1584: on a win the wildlings attack again at strength 6; the highest bidder neither bids
    nor suffers; a new card is drawn for the second attack."""
    g = attack(6, "preemptive-raid", rest=["skinchanger-scout", "silence-at-the-wall"])
    events = bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    second = events_of(events, "wildlings-attack")
    assert [(e["strength"], e["houses"], e["reason"]) for e in second] == [
        (6, ["baratheon", "lannister"], "preemptive-raid")
    ]
    assert {p.house for p in g.prompts()} == {"baratheon", "lannister"}
    bid_all(g, {"baratheon": 0, "lannister": 0})
    # Lost: Skinchanger Scout; the lowest bid is tied (0, 0) and Baratheon picks Lannister (default).
    g.act("baratheon", prompt(g, "baratheon", "wildling-tie").default)
    assert power(g) == {"stark": 1, "lannister": 0, "baratheon": 2}
    assert g.s.wildling_threat == 0
    assert g.s.wildling_deck == ["silence-at-the-wall", "preemptive-raid", "skinchanger-scout"]
    assert in_planning(g)


def test_preemptive_raid_lowest_bidder_destroys_two_units() -> None:
    """Preemptive Raid penalty (a): the lowest bidder picks two of its units; emptied areas get no Power token."""
    g = attack(8, "preemptive-raid")
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 1})
    p = prompt(g, "stark", "preemptive-raid")
    assert p.choices == ["units", "influence"] and p.default == "influence"
    g.act("stark", "units")
    p = prompt(g, "stark", "wildling-destroy")
    assert p.choices["count"] == 2
    assert p.default == {"destroy": {"winterfell": ["footman"], "the-shivering-sea": ["ship"]}}
    with pytest.raises(RuleError):
        g.act("stark", {"destroy": {"winterfell": ["footman"]}})
    g.act("stark", {"destroy": {"white-harbor": ["footman"], "winterfell": ["knight"]}})
    assert units(g, "winterfell") == ["footman"] and "white-harbor" not in g.s.units
    assert "white-harbor" not in g.s.power_tokens and rules.controller(g.s, "white-harbor") is None
    assert in_planning(g)  # "everyone else": nothing


def test_preemptive_raid_lowest_bidder_drops_two_on_its_best_track() -> None:
    """Preemptive Raid penalty (b): Stark is first on the Fiefdoms (its best track) and drops to third; the Blade
    passes to the new first (B-TRACK-01, B-TRACK-02)."""
    g = attack(8, "preemptive-raid")
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 1})
    finish(g, [("stark", "preemptive-raid", "influence")])
    assert g.s.tracks["fiefdoms"] == ["baratheon", "lannister", "stark"]
    assert g.view(None)["dominance"]["valyrian_steel_blade"]["house"] == "baratheon"


def test_preemptive_raid_track_tie_chosen_by_the_iron_throne_holder() -> None:
    """Preemptive Raid penalty (b): Stark is first on two tracks; Baratheon (Iron Throne) picks which one drops."""
    g = attack(8, "preemptive-raid", {"tracks": {"kings_court": ["stark", "lannister", "baratheon"]}})
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 1})
    g.act("stark", "influence")
    p = prompt(g, "baratheon", "track")
    assert p.choices == ["fiefdoms", "kings_court"] and p.default == "fiefdoms"
    g.act("baratheon", "kings_court")
    assert g.s.tracks["kings_court"] == ["lannister", "baratheon", "stark"]
    assert g.s.tracks["fiefdoms"][0] == "stark"


# ----- Crow Killers -----


def test_crow_killers_victory_up_to_two_footmen_become_knights() -> None:
    """Crow Killers reward: the highest bidder may replace up to 2 footmen with knights (fewer is allowed)."""
    g = attack(6, "crow-killers")
    bid_all(g, {"stark": 6 - 1, "lannister": 1, "baratheon": 0})
    p = prompt(g, "stark", "wildling-upgrade")
    assert p.choices == {"footmen": {"white-harbor": 1, "winterfell": 1}, "max": 2}
    assert p.default == {"areas": ["white-harbor", "winterfell"]}
    with pytest.raises(RuleError):
        g.act("stark", {"areas": ["winterfell", "winterfell"]})
    g.act("stark", {"areas": ["winterfell"]})
    assert units(g, "winterfell") == ["knight", "knight"] and units(g, "white-harbor") == ["footman"]


def test_crow_killers_victory_limited_by_knights_in_supply() -> None:
    """Crow Killers reward: only as many knights as the house still has in its supply (here none: no prompt)."""
    spec = {
        "units": {"winterfell": "stark knight knight footman", "white-harbor": "stark knight knight knight footman"}
    }
    g = attack(6, "crow-killers", {**spec, "supply": {"stark": 6}})
    bid_all(g, {"stark": 5, "lannister": 1, "baratheon": 0})
    assert in_planning(g)
    assert units(g, "winterfell") == ["footman", "knight", "knight"]


def test_crow_killers_defeat_knights_become_footmen() -> None:
    """Crow Killers penalties: the lowest bidder replaces all its knights, the others two each (here one each)."""
    g = attack(8, "crow-killers")
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    assert in_planning(g)  # every choice was forced
    assert units(g, "winterfell") == ["footman", "footman"]
    assert units(g, "lannisport") == ["footman", "footman"]
    assert units(g, "dragonstone") == ["footman", "footman"]


def test_crow_killers_knight_without_a_footman_to_replace_it_is_destroyed() -> None:
    """Crow Killers penalty: with one footman left in supply, only one of Stark's three knights is replaced; the
    player orders them (the first is replaced, the rest destroyed)."""
    singles = (
        "castle-black",
        "karhold",
        "the-stony-shore",
        "widows-watch",
        "moat-cailin",
        "greywater-watch",
        "the-fingers",
    )
    spec = {
        "units": {
            "winterfell": "stark knight knight footman",
            "white-harbor": "stark knight footman",
            **{a: "stark footman" for a in singles},
            "dragonstone": "baratheon footman",
            "lannisport": "lannister footman",
        },
    }
    g = attack(8, "crow-killers", spec)
    assert rules.units_available(g.s, "stark", "footman") == 1
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    p = prompt(g, "stark", "wildling-downgrade")
    assert p.choices == {"knights": {"white-harbor": 1, "winterfell": 2}, "count": 3, "footmen_available": 1}
    assert p.default == {"areas": ["white-harbor", "winterfell", "winterfell"]}
    g.act("stark", {"areas": ["winterfell", "white-harbor", "winterfell"]})
    assert units(g, "winterfell") == ["footman", "footman"]
    assert units(g, "white-harbor") == ["footman"]


def test_crow_killers_everyone_else_chooses_two_of_its_knights() -> None:
    """Crow Killers "everyone else": Lannister has three knights and picks which two become footmen."""
    spec = {
        "units": {
            "lannisport": "lannister knight knight footman",
            "stoney-sept": "lannister knight",
            "dragonstone": "baratheon footman",
        }
    }
    g = attack(8, "crow-killers", spec)
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    p = prompt(g, "lannister", "wildling-downgrade")
    assert p.choices["count"] == 2
    g.act("lannister", {"areas": ["stoney-sept", "lannisport"]})
    assert units(g, "lannisport") == ["footman", "footman", "knight"]
    assert units(g, "stoney-sept") == ["footman"]


# ----- Rattleshirt's Raiders -----


def test_rattleshirts_raiders_victory_supply_up_one_never_above_six() -> None:
    """Rattleshirt's Raiders reward: +1 on the Supply track, at most 6."""
    g = attack(6, "rattleshirts-raiders")
    bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    assert g.s.houses["stark"].supply == 2
    g = attack(6, "rattleshirts-raiders", {"supply": {"stark": 6}})
    bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    assert g.s.houses["stark"].supply == 6


def test_rattleshirts_raiders_defeat_supply_down_then_reconcile() -> None:
    """Rattleshirt's Raiders penalties: lowest -2 (not below 0) and reconciles at once; others -1 and reconcile."""
    spec = {
        "units": {  # Stark's armies of 2 and 3 fit supply 1 (3, 2) but not supply 0 (2, 2)
            "winterfell": "stark footman footman",
            "moat-cailin": "stark footman footman footman",
            "lannisport": "lannister footman",
            "dragonstone": "baratheon footman",
        },
        "supply": {"stark": 1, "lannister": 0, "baratheon": 2},
    }
    g = attack(8, "rattleshirts-raiders", spec)
    events = bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    assert g.s.houses["stark"].supply == 0
    assert [e["house"] for e in events_of(events, "supply-adjusted")] == ["stark"]  # the others wait their turn
    p = prompt(g, "stark", "reconcile")
    assert p.choices["limits"] == [2, 2]
    events = g.act("stark", {"destroy": {"moat-cailin": ["footman"]}})
    assert [(e["house"], e["new"]) for e in events_of(events, "supply-adjusted")] == [
        ("baratheon", 1),
        ("lannister", 0),
    ]
    assert in_planning(g)


# ----- Massing on the Milkwater -----


def test_massing_on_the_milkwater_victory_all_discards_back_to_hand() -> None:
    """Massing on the Milkwater reward: the highest bidder takes its whole discard pile back."""
    g = attack(
        6,
        "massing-on-the-milkwater",
        {"discards": {"stark": ["eddard-stark", "robb-stark"]}, "hands": {"stark": ["catelyn-stark"]}},
    )
    bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    assert sorted(g.s.houses["stark"].hand) == ["catelyn-stark", "eddard-stark", "robb-stark"]
    assert g.s.houses["stark"].discards == []


def test_massing_on_the_milkwater_defeat() -> None:
    """Massing on the Milkwater penalties: the lowest bidder discards its strongest card(s); every other house with
    more than one card discards one of its choice; a house with one card keeps it."""
    hands = {
        "stark": ["eddard-stark", "robb-stark", "catelyn-stark"],
        "lannister": ["tywin-lannister", "cersei-lannister", "the-hound"],
        "baratheon": ["patchface"],
    }
    g = attack(8, "massing-on-the-milkwater", {"hands": hands})
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    assert g.s.houses["stark"].discards == ["eddard-stark"]
    p = prompt(g, "lannister", "discard-house-card")
    assert p.choices == ["cersei-lannister", "the-hound", "tywin-lannister"] and p.default == "cersei-lannister"
    g.act("lannister", "the-hound")
    assert sorted(g.s.houses["lannister"].hand) == ["cersei-lannister", "tywin-lannister"]
    assert g.s.houses["baratheon"].hand == ["patchface"]
    assert in_planning(g)


def test_massing_on_the_milkwater_lowest_with_equal_cards_keeps_them() -> None:
    """Massing on the Milkwater (documented decision): when every card in hand shares the highest strength, none is
    discarded (the hand would otherwise be emptied)."""
    g = attack(
        8,
        "massing-on-the-milkwater",
        {
            "hands": {
                "stark": ["roose-bolton", "greatjon-umber"],
                "lannister": ["cersei-lannister"],
                "baratheon": ["patchface"],
            }
        },
    )
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    assert sorted(g.s.houses["stark"].hand) == ["greatjon-umber", "roose-bolton"]


# ----- A King Beyond the Wall -----


def test_a_king_beyond_the_wall_victory_top_of_any_track() -> None:
    """A King Beyond the Wall reward (known edge case #311, the track choice): Stark takes the Iron Throne."""
    g = attack(6, "a-king-beyond-the-wall")
    bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    p = prompt(g, "stark", "track")
    assert p.choices == ["iron_throne", "fiefdoms", "kings_court"]
    g.act("stark", "iron_throne")
    assert rules.turn_order(g.s) == ["stark", "baratheon", "lannister"]
    assert g.view(None)["dominance"]["iron_throne"]["house"] == "stark"


def test_a_king_beyond_the_wall_defeat() -> None:
    """A King Beyond the Wall penalties: the lowest bidder goes last on all three tracks; the others, in turn order,
    go last on the Fiefdoms or the King's Court (never the Iron Throne)."""
    g = attack(8, "a-king-beyond-the-wall")
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    assert all(order[-1] == "stark" for order in g.s.tracks.values())
    p = prompt(g, "baratheon", "track")
    assert p.choices == ["fiefdoms", "kings_court"]
    with pytest.raises(RuleError):
        g.act("baratheon", "iron_throne")
    g.act("baratheon", "fiefdoms")
    answer(g, "lannister", "track", "kings_court")
    assert g.s.tracks == {
        "iron_throne": ["baratheon", "lannister", "stark"],
        "fiefdoms": ["lannister", "stark", "baratheon"],
        "kings_court": ["baratheon", "stark", "lannister"],
    }
    assert in_planning(g)


# ----- Mammoth Riders -----


def test_mammoth_riders_victory_one_card_back() -> None:
    """Mammoth Riders reward: the highest bidder may take one discarded house card back (or none)."""
    g = attack(
        6,
        "mammoth-riders",
        {"discards": {"stark": ["eddard-stark", "robb-stark"]}, "hands": {"stark": ["catelyn-stark"]}},
    )
    bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    p = prompt(g, "stark", "return-house-card")
    assert p.choices == ["eddard-stark", "robb-stark", None] and p.default == "eddard-stark"
    g.act("stark", "robb-stark")
    assert sorted(g.s.houses["stark"].hand) == ["catelyn-stark", "robb-stark"]
    assert g.s.houses["stark"].discards == ["eddard-stark"]


def test_mammoth_riders_defeat_three_units_then_two_each() -> None:
    """Mammoth Riders penalties: lowest bidder destroys 3 of its units, the others 2 each."""
    g = attack(8, "mammoth-riders")
    count = {h: sum(1 for us in g.s.units.values() for u in us if u.house == h) for h in g.s.players}
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    assert prompt(g).choices["count"] == 3
    finish(g)
    after = {h: sum(1 for us in g.s.units.values() for u in us if u.house == h) for h in g.s.players}
    assert {h: count[h] - after[h] for h in count} == {"stark": 3, "lannister": 2, "baratheon": 2}


# ----- The Horde Descends -----


def test_the_horde_descends_victory_muster_in_one_area() -> None:
    """The Horde Descends reward: the highest bidder musters as for Mustering, in one castle/stronghold area."""
    g = attack(6, "the-horde-descends")
    bid_all(g, {"stark": 4, "lannister": 1, "baratheon": 1})
    p = prompt(g, "stark", "muster")
    assert sorted(p.choices["areas"]) == ["white-harbor", "winterfell"] and p.choices["max_areas"] == 1
    with pytest.raises(RuleError) as err:
        g.act("stark", {"winterfell": [{"recruit": "footman"}], "white-harbor": [{"recruit": "footman"}]})
    assert err.value.code == "muster-one-area"
    g.act("stark", {"winterfell": [{"recruit": "footman"}, {"recruit": "ship", "to": "port-of-winterfell"}]})
    assert units(g, "winterfell") == ["footman", "footman", "knight"]
    assert in_planning(g)


def test_the_horde_descends_defeat_lowest_two_units_in_one_castle_area() -> None:
    """The Horde Descends penalty: the lowest bidder destroys 2 units in one castle/stronghold area it controls."""
    spec = {
        "units": {
            "winterfell": "stark knight footman footman",
            "white-harbor": "stark footman",
            "moat-cailin": "stark footman footman",
            "lannisport": "lannister footman",
            "dragonstone": "baratheon footman",
        }
    }
    g = attack(8, "the-horde-descends", spec)
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    p = prompt(g, "stark", "wildling-destroy")
    assert p.choices["one_area"] is True
    assert list(p.choices["units"]) == ["moat-cailin", "winterfell"]
    assert p.default == {"destroy": {"winterfell": ["footman", "footman"]}}
    for bad in ({"winterfell": ["footman"], "moat-cailin": ["footman"]}, {"white-harbor": ["footman", "footman"]}):
        with pytest.raises(RuleError):
            g.act("stark", {"destroy": bad})
    g.act("stark", {"destroy": {"moat-cailin": ["footman", "footman"]}})
    assert "moat-cailin" not in g.s.units
    finish(g)
    assert "lannisport" not in g.s.units and "dragonstone" not in g.s.units  # everyone else: 1 unit each


def test_the_horde_descends_defeat_lowest_falls_back_to_any_two_units() -> None:
    """The Horde Descends penalty: without a castle area holding 2 of its units, the lowest bidder loses 2 anywhere."""
    g = attack(
        8,
        "the-horde-descends",
        {
            "units": {
                "winterfell": "stark footman",
                "white-harbor": "stark footman",
                "the-shivering-sea": "stark ship",
                "dragonstone": "baratheon footman",
                "lannisport": "lannister footman",
            }
        },
    )
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 2})
    p = prompt(g, "stark", "wildling-destroy")
    assert p.choices["one_area"] is False and p.choices["count"] == 2
    g.act("stark", {"destroy": {"the-shivering-sea": ["ship"], "white-harbor": ["footman"]}})
    assert units(g, "winterfell") == ["footman"]


def test_wildling_losses_that_empty_a_land_destroy_its_port_ships() -> None:
    """Known edge case "port owner checks apply in wildling attacks", B-PORT-10: Stark gives up its White Harbor
    footman; White Harbor is no longer Stark's, so the ships in its port are destroyed; no Power token appears."""
    spec = {
        "units": {
            "winterfell": "stark footman",
            "white-harbor": "stark footman",
            "port-of-white-harbor": "stark ship ship",
            "dragonstone": "baratheon footman",
            "lannisport": "lannister footman",
        }
    }
    g = attack(8, "the-horde-descends", spec)
    bid_all(g, {"stark": 2, "lannister": 1, "baratheon": 0})
    # Baratheon (lowest) and Lannister have one unit each: no choice. Stark picks its White Harbor footman.
    events = finish(g, [("stark", "wildling-destroy", {"destroy": {"white-harbor": ["footman"]}})])
    assert [e["reason"] for e in events_of(events, "units-destroyed") if e["house"] == "stark"] == [
        "wildlings:the-horde-descends",
        "port-lost",
    ]
    assert "white-harbor" not in g.s.units and "port-of-white-harbor" not in g.s.units
    assert "white-harbor" not in g.s.power_tokens


# ----- Skinchanger Scout -----


def test_skinchanger_scout_everyone_else_loses_two_or_all() -> None:
    """Skinchanger Scout "everyone else": 2 Power, or all of it if fewer."""
    g = attack(8, "skinchanger-scout", {"power": {"stark": 1, "lannister": 5, "baratheon": 5}})
    bid_all(g, {"stark": 0, "lannister": 1, "baratheon": 0})
    # Baratheon and Stark tie at 0; Baratheon (Iron Throne) names Stark the lowest bidder by default.
    g.act("baratheon", prompt(g, "baratheon", "wildling-tie").default)
    assert power(g) == {"stark": 0, "lannister": 2, "baratheon": 3}


def test_B_ROUND_03_wildling_losses_can_hand_a_seventh_castle_and_end_the_game() -> None:
    """B-ROUND-03, B-VICTORY-01: Lannister's only unit in Winterfell dies to Mammoth Riders; Winterfell is Stark's
    home again, Stark's seventh castle: Stark wins at once, before the other penalties."""
    castles = ("white-harbor", "moat-cailin", "seagard", "riverrun", "harrenhal", "flints-finger")
    spec = {
        "units": {
            "winterfell": "lannister footman",
            "dragonstone": "baratheon footman",
            **{a: "stark footman" for a in castles},
        },
        "garrisons": {"lannisport": 2, "dragonstone": 2},  # Lannister holds Winterfell: Stark's garrison is gone
        "supply": {"stark": 6},
    }
    g = attack(8, "mammoth-riders", spec)
    assert rules.castles_controlled(g.s, "stark") == 6
    events = bid_all(g, {"stark": 5, "lannister": 0, "baratheon": 1})
    assert g.finished and g.s.winner == "stark" and g.s.ended_reason == "seven-castles"
    assert events[-1]["type"] == "game-over"
