"""Terms and components the rest of the rules rely on (B-TERM-*, B-COMP-02, B-SETUP-05, B-INFL-13, B-DATA-08)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Game, RuleError, data, new_game, rules
from engine.board_ops import destroy_units
from engine.orders import ORDER_TOKENS
from engine.steps.planning import order_areas


def scenario(**spec: object) -> Game:
    return Game.from_scenario({"players": 3, "garrisons": {}, **spec})


def test_B_COMP_02_each_house_owns_its_components() -> None:
    """B-COMP-02: 7 house cards, 15 order tokens, 20 power tokens per house."""
    g = new_game(6, seed=1)
    for house in g.state.players:
        assert len(g.state.houses[house].hand) == 7
        assert g.state.houses[house].power + rules.power_in_pool(g.state, house) == 20
    assert sum(t.copies for t in ORDER_TOKENS.values()) == 15


def test_B_TERM_01_only_figures_are_units() -> None:
    """B-TERM-01: garrisons, neutral forces and power tokens are not units: they take no order and no supply."""
    g = scenario(
        units={"winterfell": "stark footman"}, garrisons={"lannisport": 2}, power_tokens={"moat-cailin": "stark"}
    )
    assert order_areas(g.state, "stark") == ["winterfell"]
    assert order_areas(g.state, "lannister") == []  # a garrison alone needs no order
    assert rules.army_sizes(g.state, "stark") == []
    assert not g.state.units.get("kings-landing")  # the neutral force is no unit


def test_B_TERM_03_home_areas_carry_the_crest() -> None:
    """B-TERM-03: each house's home area is the land printed with its crest."""
    board = data.board()
    for house in data.houses().values():
        assert board.areas[house.home].home_of == house.id and board.areas[house.home].is_land


def test_B_TERM_04_turn_order_is_the_iron_throne_track() -> None:
    """B-TERM-04: 'in turn order' means Iron Throne position 1 first."""
    g = scenario(tracks={"iron_throne": ["stark", "baratheon", "lannister"]})
    assert rules.turn_order(g.state) == ["stark", "baratheon", "lannister"]


def test_B_TERM_05_enemy_and_friendly_areas() -> None:
    """B-TERM-05: an area is friendly when the house controls it, enemy when another house does."""
    g = scenario(units={"winterfell": "stark footman", "riverrun": "lannister knight"})
    assert rules.controller(g.state, "winterfell") == "stark"
    assert rules.controller(g.state, "riverrun") == "lannister"
    assert rules.controller(g.state, "the-twins") is None


def test_B_TERM_06_single_units_are_not_armies() -> None:
    """B-TERM-06: an army is 2+ units in one area; singles never count against supply."""
    g = scenario(
        units={
            "winterfell": "stark footman knight",
            "moat-cailin": "stark footman",
            "the-shivering-sea": "stark ship ship",
        }
    )
    assert sorted(rules.army_sizes(g.state, "stark")) == [2, 2]
    assert rules.fits_supply([1] * 10, 0)


def test_B_TERM_07_available_power_and_the_pool() -> None:
    """B-TERM-07: gaining takes own tokens from the pool (never beyond 20), discarding returns them."""
    g = scenario(power={"stark": 18})
    assert rules.gain_power(g.state, "stark", 5) == 2 and g.state.houses["stark"].power == 20
    assert rules.lose_power(g.state, "stark", 3) == 3 and rules.power_in_pool(g.state, "stark") == 3


def test_B_TERM_08_destroyed_units_return_to_supply() -> None:
    """B-TERM-08, B-COMP-04: a destroyed unit leaves the board and can be mustered again."""
    # All five of Stark's knights, in armies of 3 and 2 (its supply level 1 allows no bigger army).
    g = scenario(units={"winterfell": "stark knight knight knight", "white-harbor": "stark knight knight"})
    assert rules.units_available(g.state, "stark", "knight") == 0
    destroy_units(g, "winterfell", g.state.units["winterfell"][:2], "test")
    assert rules.units_available(g.state, "stark", "knight") == 2


def test_B_TERM_09_the_embattled_area_is_where_the_combat_is() -> None:
    """B-TERM-09: the battle view names the embattled area (the march's target)."""
    g = scenario(
        units={"lannisport": "lannister knight footman", "riverrun": "stark footman"},
        orders={"lannisport": "march0", "riverrun": "defense1"},
        start="march",
    )
    g.act("lannister", {"from": "lannisport", "moves": [{"to": "riverrun", "units": ["knight", "footman"]}]})
    battle = g.view(None)["battle"]
    assert battle["area"] == "riverrun" and battle["from"] == "lannisport"


def test_B_SETUP_05_houses_chosen_or_random() -> None:
    """B-SETUP-05: players may pick their houses (any order of the right set) — the application assigns seats
    at random or in join order; the engine accepts the set of houses for the player count."""
    g = new_game(["stark", "baratheon", "lannister"], seed=2)
    assert sorted(g.state.players) == ["baratheon", "lannister", "stark"]
    with pytest.raises(RuleError):
        new_game(["stark", "baratheon", "tyrell"], seed=2)


def test_B_INFL_13_kings_court_limits_special_orders() -> None:
    """B-INFL-13: special orders per planning phase = stars on the King's Court position (5-6 players: 3,3,2,1,0,0)."""
    g = new_game(6, seed=1)
    court = g.state.tracks["kings_court"]
    assert [rules.stars_allowed(g.state, h) for h in court] == [3, 3, 2, 1, 0, 0]
    last = court[-1]
    prompt = g.prompt_for(last)
    assert prompt is not None and prompt.choices["stars"] == 0
    areas = prompt.choices["areas"]
    before = g.to_json()
    with pytest.raises(RuleError) as err:
        g.act(last, {"orders": {**prompt.default["orders"], areas[0]: "raid*"}})
    assert err.value.code == "too-many-stars" and g.to_json() == before


def test_B_DATA_08_tides_of_battle_composition() -> None:
    """B-DATA-08, B-TIDES-10: 24 cards — 8×0, 4×1 sword, 4×1 fortification, 4×2, 2×3, 2 skulls."""
    deck = Counter({c["id"]: c["count"] for c in data.tides_cards().values()})
    assert sum(deck.values()) == 24
    assert deck == {"zero": 8, "sword": 4, "fortification": 4, "two": 4, "three": 2, "skull": 2}
    assert sum(c["value"] * c["count"] for c in data.tides_cards().values()) == 22
