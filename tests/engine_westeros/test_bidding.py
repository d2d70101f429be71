"""Clash of Kings and secret bids (B-INFL-01..10, B-HIDDEN-02/03, B-DIPLO-04; known edge cases "Bidding and
tracks")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Game, RuleError, rules
from tests.engine_westeros.helpers import bid_all, events_of, in_planning, kinds, prompt, westeros

CLASH = ("last-days-of-summer", "clash-of-kings", "rains-of-autumn")

# The rulebook's bidding example (RU 002:1056-1092, BG 001:533-545), five players. Greyjoy has won the Iron Throne
# bid; for the Fiefdoms Lannister bids 4, Baratheon 3, Stark 3, Tyrell 2, Greyjoy 0. Greyjoy, now on the Iron
# Throne, puts Baratheon second and Stark third; Lannister takes the Valyrian Steel Blade.
BOOK_POWER = {"greyjoy": 6, "lannister": 4, "baratheon": 3, "stark": 3, "tyrell": 2}


def book() -> Game:
    return westeros({"players": 5, "power": BOOK_POWER}, CLASH)


def iron_throne_to_greyjoy(g: Game) -> list[dict[str, Any]]:
    bid_all(g, {"greyjoy": 6, "lannister": 0, "baratheon": 0, "stark": 0, "tyrell": 0})
    # Four houses tied at 0: the *previous* holder, Baratheon, orders them (B-INFL-08).
    p = prompt(g, kind="tie-order")
    assert p.house == "baratheon"
    assert p.choices["tied"] == [["baratheon", "lannister", "stark", "tyrell"]]
    return g.act("baratheon", ["greyjoy", "baratheon", "lannister", "stark", "tyrell"])


def test_B_INFL_05_rulebook_example_fiefdoms() -> None:
    """B-INFL-04, B-INFL-05, B-INFL-07, B-INFL-08:
    the book's Fiefdoms bid, with Greyjoy (new Iron Throne holder) ordering the tie."""
    g = book()
    iron_throne_to_greyjoy(g)
    assert g.s.tracks["iron_throne"][0] == "greyjoy"
    assert g.view(None)["dominance"]["iron_throne"]["house"] == "greyjoy"
    bid_all(g, {"lannister": 4, "baratheon": 3, "stark": 3, "tyrell": 2})
    p = prompt(g, kind="tie-order")
    assert p.house == "greyjoy"
    assert set(g.view(None)["power"].values()) == {None}  # B-HIDDEN-03: the Clash is one bidding round
    assert p.choices["tied"] == [["stark", "baratheon"]]
    assert p.default == ["lannister", "stark", "baratheon", "tyrell", "greyjoy"]  # their Fiefdoms order before
    events = g.act("greyjoy", ["lannister", "baratheon", "stark", "tyrell", "greyjoy"])
    assert g.s.tracks["fiefdoms"] == ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    assert g.view(None)["dominance"]["valyrian_steel_blade"]["house"] == "lannister"
    track_set = events_of(events, "track-set")[0]
    assert track_set["tie_broken_by"] == "greyjoy"  # known edge case #774: the log says who broke the tie
    assert track_set["bids"] == {"baratheon": 3, "lannister": 4, "stark": 3, "tyrell": 2, "greyjoy": 0}


def test_B_INFL_02_tracks_bid_in_order_iron_throne_fiefdoms_kings_court() -> None:
    """B-INFL-02, B-INFL-07, B-INFL-09: three bids in order; the Raven goes to the King's Court winner; then the
    Westeros phase goes on."""
    g = westeros({"power": {"stark": 5, "lannister": 5, "baratheon": 5}}, CLASH)
    seen = []
    for track, bids in (
        ("iron_throne", {"baratheon": 0, "lannister": 1, "stark": 2}),
        ("fiefdoms", {"baratheon": 2, "lannister": 1, "stark": 0}),
        ("kings_court", {"baratheon": 1, "lannister": 3, "stark": 2}),
    ):
        assert {p.info["track"] for p in g.prompts()} == {track}
        seen.append(track)
        bid_all(g, bids)
    assert seen == ["iron_throne", "fiefdoms", "kings_court"]
    assert g.s.tracks == {
        "iron_throne": ["stark", "lannister", "baratheon"],
        "fiefdoms": ["baratheon", "lannister", "stark"],
        "kings_court": ["lannister", "stark", "baratheon"],
    }
    assert {h: g.s.houses[h].power for h in g.s.players} == {"stark": 1, "lannister": 0, "baratheon": 2}
    assert rules.turn_order(g.s) == ["stark", "lannister", "baratheon"]
    assert in_planning(g)


def test_B_INFL_03_bids_are_secret_simultaneous_and_replaceable() -> None:
    """B-INFL-03, B-DIPLO-04, known edge case "simultaneous PBEM bids": every house is asked at once; a bid may be
    replaced until the last one is in; nobody's bid or power shows meanwhile (B-HIDDEN-02)."""
    g = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    ps = {p.house: p for p in g.prompts()}
    assert set(ps) == {"stark", "lannister", "baratheon"}
    assert all(p.secret and p.kind == "bid" and p.default == 0 for p in ps.values())
    assert ps["stark"].choices == {"min": 0, "max": 5}
    events = g.act("stark", 5)
    assert events == [
        {"type": "bid-submitted", "house": "stark"},
        {"type": "bid-recorded", "house": "stark", "bid": 5, "private_to": "stark"},
    ]
    g.act("stark", 2)  # replaced
    assert g.prompt_for("stark").answered  # type: ignore[union-attr]
    public = g.view(None)
    assert public["power"] == {"stark": None, "lannister": None, "baratheon": None}
    assert g.view("lannister")["power"] == {"stark": None, "lannister": 4, "baratheon": None}
    assert '"bids"' not in json.dumps(g.view("lannister"))  # no trace of Stark's bid anywhere
    g.act("lannister", 1)
    events = g.act("baratheon", 0)
    assert events_of(events, "bids-revealed")[0]["bids"] == {"baratheon": 0, "lannister": 1, "stark": 2}
    assert g.s.tracks["iron_throne"] == ["stark", "lannister", "baratheon"]


def test_B_HIDDEN_03_power_public_again_after_the_bids() -> None:
    """B-HIDDEN-03, B-INFL-09: once the Clash is over, available power is visible to all again."""
    g = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    for bids in ({"stark": 2, "lannister": 1, "baratheon": 0}, {"stark": 0, "lannister": 1, "baratheon": 2}):
        bid_all(g, bids)
        assert g.view(None)["power"] == {"stark": None, "lannister": None, "baratheon": None}
    bid_all(g, {"stark": 3, "lannister": 0, "baratheon": 1})
    assert in_planning(g)
    assert g.view(None)["power"] == {"stark": 0, "lannister": 2, "baratheon": 0}


def test_B_INFL_06_bids_go_to_the_pool_and_cannot_be_reused() -> None:
    """B-INFL-06: tokens bid on the Iron Throne are gone (to the pool) for the Fiefdoms bid."""
    g = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    pool_before = rules.power_in_pool(g.s, "stark")
    bid_all(g, {"stark": 5, "lannister": 4, "baratheon": 3})
    assert rules.power_in_pool(g.s, "stark") == pool_before + 5
    assert g.s.houses["stark"].power == 0
    # Nobody has power left: nobody is asked to bid on the Fiefdoms, all bid 0 (B-INFL-03: zero is allowed) and
    # the new Iron Throne holder orders the tie.
    assert kinds(g) == [("stark", "tie-order")]


@pytest.mark.parametrize("bad", [-1, 6, "3", 2.5, True, None])
def test_B_INFL_03_a_bid_is_a_whole_number_up_to_available_power(bad: Any) -> None:
    """B-INFL-03: bids are 0..available power; anything else is refused and changes nothing."""
    g = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    before = g.to_json()
    with pytest.raises(RuleError) as err:
        g.act("stark", bad)
    assert err.value.code == "bad-bid"
    assert g.to_json() == before


def test_B_INFL_05_tie_order_must_respect_the_bids() -> None:
    """B-INFL-05: the Iron Throne holder orders only the tied houses; the others stand by their bids."""
    g = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    bid_all(g, {"stark": 2, "lannister": 2, "baratheon": 3})
    p = prompt(g, kind="tie-order")
    assert p.house == "baratheon" and p.choices["tied"] == [["lannister", "stark"]]
    for bad in (["stark", "baratheon", "lannister"], ["baratheon", "stark"], ["baratheon", "stark", "stark"]):
        with pytest.raises(RuleError):
            g.act("baratheon", bad)
    g.act("baratheon", ["baratheon", "stark", "lannister"])
    assert g.s.tracks["iron_throne"] == ["baratheon", "stark", "lannister"]


def test_B_INFL_05_default_tie_order_keeps_the_previous_track_order() -> None:
    """B-INFL-05 default: tied houses keep the order they had on that track before the bid."""
    g = westeros({"power": {"stark": 0, "lannister": 0, "baratheon": 0}}, CLASH)
    before = {t: list(o) for t, o in g.s.tracks.items()}
    while not in_planning(g):
        p = prompt(g, kind="tie-order")
        g.act(p.house, p.default)
    assert g.s.tracks == before


def test_B_INFL_08_previous_holder_breaks_iron_throne_ties_new_holder_the_rest() -> None:
    """B-INFL-08, B-INFL-10: Baratheon (old holder) orders the Iron Throne tie even though it loses the throne;
    Stark (new holder) orders the Fiefdoms tie."""
    g = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    bid_all(g, {"stark": 3, "lannister": 0, "baratheon": 0})
    p = prompt(g, kind="tie-order")
    assert p.house == "baratheon"
    g.act("baratheon", ["stark", "lannister", "baratheon"])
    bid_all(g, {"stark": 1, "lannister": 1, "baratheon": 1})
    assert prompt(g, kind="tie-order").house == "stark"


def test_B_INFL_08_B_INFL_10_the_iron_throne_holder_orders_ties_on_tracks_it_does_not_lead() -> None:
    """B-INFL-08, B-INFL-10: every tie on the Fiefdoms and King's Court tracks is ordered by the house holding the
    Iron Throne at that moment, also when it stands last on the track being bid. Lannister takes the throne while
    last on both other tracks; Stark leads the Fiefdoms and Baratheon the King's Court, and neither is asked."""
    tracks = {"fiefdoms": ["stark", "baratheon", "lannister"], "kings_court": ["baratheon", "stark", "lannister"]}
    g = westeros({"power": {"stark": 2, "lannister": 5, "baratheon": 2}, "tracks": tracks}, CLASH)
    bid_all(g, {"stark": 0, "lannister": 3, "baratheon": 0})
    p = prompt(g, kind="tie-order")
    assert p.house == "baratheon"  # the holder before this bid orders the Iron Throne tie
    g.act("baratheon", ["lannister", "baratheon", "stark"])
    assert rules.holder(g.s, "iron_throne") == "lannister"
    bid_all(g, {"stark": 1, "lannister": 0, "baratheon": 1})
    p = prompt(g, kind="tie-order")
    assert p.house == "lannister" and p.choices["tied"] == [["stark", "baratheon"]]
    events = g.act("lannister", ["baratheon", "stark", "lannister"])
    assert events_of(events, "track-set")[0]["tie_broken_by"] == "lannister"
    assert g.s.tracks["fiefdoms"] == ["baratheon", "stark", "lannister"]
    bid_all(g, {"stark": 1, "lannister": 0, "baratheon": 1})
    p = prompt(g, kind="tie-order")
    assert p.house == "lannister" and p.choices["tied"] == [["baratheon", "stark"]]
    g.act("lannister", ["stark", "baratheon", "lannister"])
    assert g.s.tracks["kings_court"] == ["stark", "baratheon", "lannister"]


def test_B_TRACK_02_blade_keeps_its_face_down_state_when_it_changes_hands() -> None:
    """B-INFL-07, B-TRACK-02: dominance tokens are derived from position 1; their used state stays.

    The Blade is turned face up at the end of every Action phase, so no game reaches a Clash of Kings with it face
    down and a scenario refuses ``blade_used`` here. The engine must still keep the flag when the holder changes, so
    the flag is set on the saved state of a legal position (the Blade changing hands face down in real play, by
    Doran Martell in combat, is test_doran_martell_dominance_tokens_change_hands)."""
    legal = westeros({"power": {"stark": 5, "lannister": 4, "baratheon": 3}}, CLASH)
    g = Game.from_json({**legal.to_dict(), "blade_used": True})
    bid_all(g, {"stark": 1, "lannister": 0, "baratheon": 3})
    bid_all(g, {"stark": 0, "lannister": 4, "baratheon": 0})
    p = prompt(g, kind="tie-order")
    g.act(p.house, p.default)
    assert g.s.tracks["fiefdoms"][0] == "lannister"
    assert g.view(None)["dominance"]["valyrian_steel_blade"] == {"house": "lannister", "used": True}
