"""The official setup for every player count (B-SETUP-*, B-PLAYERS-*)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import RuleError, data, new_game, rules
from engine.state import GameState


def state(players: int, seed: int = 7) -> GameState:
    return new_game(players, seed=seed).state


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_B_SETUP_01_wildlings_start_at_two_with_a_shuffled_deck(players: int) -> None:
    """B-SETUP-01: nine wildling cards, threat marker on 2."""
    s = state(players)
    assert s.wildling_threat == 2
    assert sorted(s.wildling_deck) == sorted(data.wildling_cards())


def test_B_SETUP_02_westeros_decks_are_split_and_shuffled() -> None:
    """B-SETUP-02: decks I, II, III hold their own ten cards each, shuffled by the seed."""
    a, b = state(6, seed=1), state(6, seed=2)
    for i in range(3):
        assert len(a.westeros_decks[i]) == 10
        assert {c for c in a.westeros_decks[i]} == {
            c["id"] for c in data.westeros_cards().values() if c["deck"] == i + 1
        }
    assert a.westeros_decks != b.westeros_decks
    assert state(6, seed=1).westeros_decks == a.westeros_decks  # deterministic


@pytest.mark.parametrize(
    ("players", "houses", "neutral_count"),
    [
        (6, {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"}, 2),
        (5, {"stark", "lannister", "baratheon", "greyjoy", "tyrell"}, 9),
        (4, {"stark", "lannister", "baratheon", "greyjoy"}, 12),
        (3, {"stark", "lannister", "baratheon"}, 14),
    ],
)
def test_B_PLAYERS_02_to_05_houses_and_neutral_forces(players: int, houses: set[str], neutral_count: int) -> None:
    """B-PLAYERS-02, B-PLAYERS-03, B-PLAYERS-04, B-PLAYERS-05, B-SETUP-03, B-DATA-05: the houses that play and
    the neutral force tokens (count, areas, strengths) for each player count."""
    s = state(players)
    assert set(s.players) == houses
    assert len(s.neutral) == neutral_count
    assert s.neutral["kings-landing"] == 5 and s.neutral["the-eyrie"] == 6


def test_B_PLAYERS_06_three_player_impassable_areas() -> None:
    """B-PLAYERS-06, B-NEUTRAL-10: twelve '~' areas cannot be entered all game."""
    s = state(3)
    impassable = {a for a, v in s.neutral.items() if v is None}
    assert len(impassable) == 12
    assert {"pyke", "highgarden", "sunspear", "storms-end"} <= impassable
    for area in impassable:
        assert not rules.is_passable(s, area)


def test_B_PLAYERS_03_sunspear_neutral_in_five_players() -> None:
    """B-PLAYERS-03: without Martell, Sunspear holds a neutral force of 5 and nobody controls it."""
    s = state(5)
    assert s.neutral["sunspear"] == 5
    assert rules.controller(s, "sunspear") is None


def test_B_PLAYERS_04_highgarden_empty_in_four_players() -> None:
    """B-PLAYERS-04: without Tyrell, Highgarden starts empty and uncontrolled (no token)."""
    s = state(4)
    assert "highgarden" not in s.neutral and not s.units.get("highgarden")
    assert rules.controller(s, "highgarden") is None


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_B_SETUP_06_to_12_each_house_starts_complete(players: int) -> None:
    """B-SETUP-06, B-SETUP-10, B-SETUP-11, B-SETUP-12, B-DATA-02, B-HCARD-01, B-GARR-01, B-CONTROL-12: hands of 7,
    the starting units printed on each screen, the garrison at home, 5 power (15 in the pool), home controlled."""
    s = state(players)
    info = data.houses()
    for house in s.players:
        hs = s.houses[house]
        assert len(hs.hand) == 7 and not hs.discards
        assert {data.house_cards()[c].house for c in hs.hand} == {house}
        assert hs.power == 5
        assert rules.power_in_pool(s, house) == 15
        home = info[house].home
        assert s.garrisons[home] == 2
        assert rules.controller(s, home) == house
        expected = Counter((a, t) for a, ts in info[house].starting_units.items() for t in ts)
        actual = Counter((a, u.type) for a, us in s.units.items() for u in us if u.house == house)
        assert actual == expected
    # Absent houses place nothing and have no garrison.
    absent = set(info) - set(s.players)
    assert not any(u.house in absent for us in s.units.values() for u in us)
    assert not any(info[h].home in s.garrisons for h in absent)


def test_B_SETUP_07_starting_tracks_six_players() -> None:
    """B-SETUP-07, B-SETUP-09, B-INFL-01: printed track positions, supply and victory; dominance tokens to space 1."""
    s = state(6)
    assert s.tracks["iron_throne"] == ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]
    assert s.tracks["fiefdoms"] == ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"]
    assert s.tracks["kings_court"] == ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"]
    assert rules.holder(s, "iron_throne") == "baratheon"
    assert rules.holder(s, "fiefdoms") == "greyjoy"
    assert rules.holder(s, "kings_court") == "lannister"
    assert s.houses["stark"].supply == 1 and s.houses["lannister"].supply == 2
    assert rules.castles_controlled(s, "stark") == 2
    assert all(rules.castles_controlled(s, h) == 1 for h in s.players if h != "stark")


def test_B_SETUP_08_tracks_are_contiguous_with_fewer_players() -> None:
    """B-SETUP-08: with fewer houses the occupied spaces start at space 1 without gaps."""
    s = state(3)
    assert s.tracks["iron_throne"] == ["baratheon", "lannister", "stark"]
    assert s.tracks["fiefdoms"] == ["stark", "baratheon", "lannister"]
    assert s.tracks["kings_court"] == ["lannister", "stark", "baratheon"]
    assert rules.holder(s, "fiefdoms") == "stark"


def test_B_PLAYERS_04_overlay_stars_in_four_players() -> None:
    """B-PLAYERS-04, B-PLAYERS-07: the King's Court overlay gives 3, 2, 1, 0 stars."""
    s = state(4)
    stars = [rules.stars_allowed(s, h) for h in s.tracks["kings_court"]]
    assert stars == [3, 2, 1, 0]


def test_B_SETUP_04_round_one_starts_with_planning() -> None:
    """B-SETUP-04, B-ROUND-01, B-WEST-01: round 1 has no Westeros phase: every house is asked for orders."""
    g = new_game(6, seed=3)
    assert g.state.round == 1 and g.state.phase == "planning"
    assert {p.kind for p in g.prompts()} == {"orders"}
    assert {p.house for p in g.prompts()} == set(g.state.players)


def test_B_PLAYERS_01_player_count_limits() -> None:
    """B-PLAYERS-01: 3 to 6 players; the houses must be the ones that play at that count."""
    for bad in (2, 7):
        with pytest.raises(RuleError):
            new_game(bad)
    with pytest.raises(RuleError):
        new_game(["stark", "lannister", "martell"])
    assert new_game(["lannister", "stark", "baratheon"]).state.players


def test_B_SETUP_10_lannister_port_ship() -> None:
    """B-SETUP-10: Lannister's starting ship in the Port of Lannisport (FAQ screen correction)."""
    s = state(6)
    assert [u.type for u in s.units["port-of-lannisport"]] == ["ship"]
