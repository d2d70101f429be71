"""The scenario format refuses every position the rules forbid (docs/scenario-format.md, "Validation").

A moderator's repair goes through ``Game.from_scenario``, so a bad spec must fail with ``RuleError("scenario")``
and a message that names what is wrong, never with another exception and never with a half-built game.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, RuleError

# A legal 3-player Action-phase position every test below breaks in exactly one way.
BASE: dict[str, Any] = {
    "players": 3,
    "round": 4,
    "units": {
        "winterfell": "stark knight footman",
        "white-harbor": "stark footman",
        "the-shivering-sea": "stark ship",
        "lannisport": "lannister knight footman",
        "the-golden-sound": "lannister ship",
    },
    "orders": {"winterfell": "march1*", "white-harbor": "defense1", "lannisport": "support0"},
    "power": {"stark": 3},
    "start": "action",
}


def spec(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def refused(scenario: Any, *words: str) -> RuleError:
    """The spec raises RuleError("scenario") whose message contains every word given."""
    with pytest.raises(RuleError) as info:
        Game.from_scenario(scenario)
    err = info.value
    assert err.code == "scenario", err
    for word in words:
        assert word in err.message, f"{word!r} not in {err.message!r}"
    return err


def test_the_base_position_is_legal() -> None:
    g = Game.from_scenario(spec())
    assert g.prompts()[0].kind == "march"


# ----- shape -----


@pytest.mark.parametrize("value", [None, [], "players: 3", 3, [{"players": 3}]])
def test_a_spec_is_an_object(value: Any) -> None:
    refused(value, "JSON object")


def test_unknown_top_level_keys_are_refused() -> None:
    err = refused(spec(turn=3), "unknown scenario key", "'turn'")
    assert err.params["key"] == "turn"


@pytest.mark.parametrize(
    "key",
    ["units", "orders", "power_tokens", "power", "supply", "tracks", "hands", "discards", "garrisons", "neutral"],
)
@pytest.mark.parametrize("value", [[], "x", 1, None, {1: "stark"}])
def test_mappings_must_be_objects(key: str, value: Any) -> None:
    refused({**spec(), key: value}, key, "object")


@pytest.mark.parametrize("key", ["wildling_deck", "westeros_decks", "restrictions", "tides_deck"])
def test_lists_must_be_lists(key: str) -> None:
    refused({**spec(options={"tides_of_battle": True}), key: "x"}, key, "list")


@pytest.mark.parametrize(
    "key, value",
    [
        ("round", 0),
        ("round", 11),
        ("round", True),
        ("round", 3.0),
        ("round", 1e300),
        ("round", "3"),
        ("seed", -1),
        ("seed", 2**64),
        ("seed", 1.5),
        ("wildling_threat", 14),
        ("wildling_threat", -2),
        ("wildling_threat", False),
        ("players", 2),
        ("players", 7),
        ("players", True),
    ],
)
def test_numbers_are_whole_and_in_range(key: str, value: Any) -> None:
    refused(spec(**{key: value}), key)


def test_the_threat_moves_in_steps_of_two_and_never_rests_on_twelve() -> None:
    refused(spec(wildling_threat=5), "steps of 2")
    refused(spec(wildling_threat=12), "0 to 10")
    assert Game.from_scenario(spec(wildling_threat=10)).s.wildling_threat == 10


@pytest.mark.parametrize("value", [-1, 7, True, 2.0, "3"])
def test_supply_is_0_to_6(value: Any) -> None:
    refused(spec(supply={"stark": value}), "supply.stark")


@pytest.mark.parametrize("value", [-1, 21, True, 1.0, "5"])
def test_power_is_0_to_20(value: Any) -> None:
    refused(spec(power={"stark": value}), "power.stark")


def test_power_counts_the_tokens_on_the_board() -> None:
    tokens = {"moat-cailin": "stark", "castle-black": "stark"}
    refused(spec(power={"stark": 19}, power_tokens=tokens), "power.stark", "0 to 18")
    assert Game.from_scenario(spec(power={"stark": 18}, power_tokens=tokens)).s.houses["stark"].power == 18


def test_players_given_as_houses_must_be_the_houses_of_that_count() -> None:
    refused(spec(players=["stark", "lannister", "martell"]), "houses are")
    refused(spec(players=["stark", "lannister"]), "3 to 6")
    refused(spec(players=["stark", 1, "baratheon"]), "houses are")
    g = Game.from_scenario(spec(players=["lannister", "baratheon", "stark"]))
    assert sorted(g.s.players) == ["baratheon", "lannister", "stark"]


def test_options_are_known_with_the_right_types() -> None:
    refused(spec(options={"fog_of_war": True}), "unknown option", "fog_of_war")
    refused(spec(options={"tides_of_battle": 1}), "tides_of_battle")
    refused(spec(options={"tie_breakers": "coin"}), "tie_breakers")
    refused(spec(options={"tie_breakers": True}), "tie_breakers")
    assert Game.from_scenario(spec(options={"tie_breakers": "faq"})).s.options["tie_breakers"] == "faq"


@pytest.mark.parametrize("start", ["setup", 1, ["action"], {"westeros": 2, "when": "now"}])
def test_start_is_a_known_value(start: Any) -> None:
    refused(spec(start=start), "start")


@pytest.mark.parametrize("flag", ["blade_used", "raven_used"])
def test_flags_are_booleans(flag: str) -> None:
    refused(spec(**{flag: 1}), flag, "true or false")


# ----- areas, houses and units -----


def test_areas_exist() -> None:
    refused(spec(units={**BASE["units"], "atlantis": "stark footman"}), "unknown area", "atlantis")
    refused(spec(units={"atlantis": ""}), "unknown area")
    refused(spec(power_tokens={"atlantis": "stark"}), "unknown area")
    refused(spec(orders={"atlantis": "raid"}), "unknown area")
    refused(spec(garrisons={"atlantis": 2}), "unknown area")
    refused(spec(neutral={"atlantis": 3}), "unknown area")


def test_houses_belong_to_this_game() -> None:
    refused(spec(units={**BASE["units"], "sunspear": "martell footman"}), "not a house of this game", "martell")
    refused(spec(power={"greyjoy": 3}), "greyjoy")
    refused(spec(power_tokens={"moat-cailin": "tyrell"}), "tyrell")
    refused(spec(hands={"martell": ["doran-martell"]}), "martell")
    refused(spec(supply={"nobody": 2}), "nobody")


def test_unit_types_are_known() -> None:
    refused(spec(units={"winterfell": "stark dragon"}), "unknown unit", "dragon")
    refused(spec(units={"winterfell": "stark"}), "no unit listed")
    refused(spec(units={"winterfell": 3}), "units in winterfell")
    refused(spec(units={"winterfell": ["stark", 3]}), "units in winterfell")


def test_ships_at_sea_land_units_on_land() -> None:
    refused(spec(units={"winterfell": "stark ship"}), "seas and ports")
    refused(spec(units={"the-shivering-sea": "stark footman"}), "land areas")
    refused(spec(units={"port-of-winterfell": "stark knight"}), "land areas")


def test_unit_limits() -> None:
    """B-COMP-01: 10 footmen, 5 knights, 6 ships, 2 siege engines per house."""
    refused(
        spec(units={"winterfell": "stark siege-engine", "the-twins": "stark siege-engine", "moat-cailin": "stark "
                    "siege-engine"}, orders={}),
        "3 siege-engine", "owns only 2",
    )  # fmt: skip
    seas = ["the-shivering-sea", "bay-of-ice", "the-narrow-sea", "blackwater-bay", "shipbreaker-bay",
            "the-golden-sound", "ironmans-bay"]  # fmt: skip
    refused(spec(units={sea: "stark ship" for sea in seas}, orders={}), "7 ship", "owns only 6")


def test_port_capacity_and_owner() -> None:
    """B-PORT-02: at most three ships; B-PORT-01/10: only ships of the house that controls the land."""
    four = {"winterfell": "stark footman", "port-of-winterfell": "stark ship ship ship ship"}
    refused(spec(units=four, orders={}, supply={"stark": 6}), "at most 3 ships")
    refused(spec(units={"port-of-winterfell": "lannister ship"}, orders={}), "port", "controls winterfell")
    assert Game.from_scenario(spec(units={"port-of-winterfell": "stark ship"}, orders={}))  # Stark's crest


def test_one_house_per_area() -> None:
    refused(spec(units={"winterfell": "stark footman lannister footman"}), "one house only")


def test_supply_limits() -> None:
    """B-SUPPLY-09: no house stands above its supply limits."""
    units = {"winterfell": "stark knight footman footman footman", "white-harbor": "stark footman"}
    refused(spec(units=units, orders={}, supply={"stark": 1}), "exceed its supply level 1")
    assert Game.from_scenario(spec(units=units, orders={}, supply={"stark": 5}))


def test_routed_units_only_in_the_action_phase() -> None:
    units = {"winterfell": "stark routed-footman"}
    refused(spec(units=units, orders={}, start="planning"), "rally")
    assert Game.from_scenario(spec(units=units, orders={"winterfell": "defense1"}, start="march"))


# ----- tokens on the board -----


def test_power_tokens_on_land_not_under_enemy_units() -> None:
    refused(spec(power_tokens={"bay-of-ice": "stark"}), "only on land")
    refused(spec(power_tokens={"lannisport": "stark"}), "under lannister's units")


def test_garrisons_in_home_areas_of_houses_in_play_with_their_value() -> None:
    refused(spec(garrisons={"the-twins": 2}), "not the home area")
    refused(spec(garrisons={"pyke": 2}), "not the home area")  # Greyjoy does not play with 3 players
    refused(spec(garrisons={"winterfell": 3}), "garrisons.winterfell", "from 2 to 2")
    refused(spec(units={**BASE["units"], "winterfell": "lannister knight"}, garrisons={"winterfell": 2}, orders={}),
            "garrison")  # fmt: skip


def test_neutral_forces() -> None:
    refused(spec(neutral={"bay-of-ice": 3}), "only on land")
    refused(spec(neutral={"winterfell": 3}), "home area of stark")
    refused(spec(neutral={"the-twins": 7}), "neutral.the-twins", "1 to 6")
    refused(spec(neutral={"the-twins": 0}), "neutral.the-twins")
    refused(spec(neutral={"the-twins": "strong"}), "neutral.the-twins")
    refused(spec(neutral={"white-harbor": 3}), "white-harbor", "neutral force and units")
    refused(spec(neutral={"white-harbor": "impassable"}), "white-harbor", "impassable")
    refused(spec(neutral={"moat-cailin": 3}, power_tokens={"moat-cailin": "stark"}), "neutral force")
    g = Game.from_scenario(spec(neutral={"the-twins": "impassable", "kings-landing": 4}))
    assert g.s.neutral == {"the-twins": None, "kings-landing": 4}


# ----- orders -----


def test_orders_only_where_the_house_has_units() -> None:
    refused(spec(orders={"the-twins": "raid"}), "only where its house has units")
    refused(spec(orders={"winterfell": "lannister:raid"}), "stark's, not lannister's")
    assert Game.from_scenario(spec(orders={"winterfell": "stark:raid"})).s.orders["winterfell"].house == "stark"


def test_orders_are_real_tokens() -> None:
    refused(spec(orders={"winterfell": "march2"}), "unknown order token")
    refused(spec(orders={"winterfell": 3}), "orders.winterfell")


def test_no_token_more_often_than_the_house_owns_it() -> None:
    """B-COMP-05: one March +0, two Defense +1..."""
    units = {"winterfell": "stark footman", "white-harbor": "stark footman", "moat-cailin": "stark footman"}
    refused(spec(units=units, orders={"winterfell": "march0", "white-harbor": "march0"}), "only 1 march0")
    orders = {"winterfell": "defense1", "white-harbor": "defense1", "moat-cailin": "defense1"}
    refused(spec(units=units, orders=orders), "only 2 defense1")


def test_special_orders_within_the_kings_court_allowance() -> None:
    """B-INFL-13: 3 players: 3, 2, 1 stars on the King's Court track (data: 3-4 players 3, 2, 1, 0)."""
    units = {"winterfell": "stark footman", "white-harbor": "stark footman", "moat-cailin": "stark footman"}
    stars = {"winterfell": "march1*", "white-harbor": "defense2*", "moat-cailin": "raid*"}
    last = {"kings_court": ["lannister", "baratheon", "stark"]}
    refused(spec(units=units, orders=stars, tracks=last), "3 special orders", "allows 1")
    two = {"winterfell": "march1*", "white-harbor": "defense2*"}
    refused(spec(units=units, orders=two, tracks=last), "2 special orders", "allows 1")
    assert Game.from_scenario(spec(units=units, orders={"winterfell": "march1*"}, tracks=last))
    first = {"kings_court": ["stark", "baratheon", "lannister"]}
    assert Game.from_scenario(spec(units=units, orders=stars, tracks=first))


def test_special_orders_kept_after_doran_martell_moved_their_house_down() -> None:
    """doran-martell, B-INFL-13: Doran Martell moves Lannister from 1st (3 stars) to last on King's Court during the
    March step; Lannister's special orders placed under its old position stay. That position, reached in play, is
    legal at a ``march`` start (and only for a house last on the track), never before a combat could be fought."""
    g = Game.from_scenario(
        {
            "players": 6,
            "round": 10,
            "garrisons": {},
            "neutral": {},
            "units": {
                "lannisport": "lannister knight",
                "riverrun": "lannister footman",
                "harrenhal": "lannister footman",
                "the-eyrie": "lannister footman",
                "stoney-sept": "martell footman",
            },
            "orders": {
                "lannisport": "march1*",
                "riverrun": "defense2*",
                "harrenhal": "consolidate*",
                "the-eyrie": "march-1",
                "stoney-sept": "defense1",
            },
            "tracks": {"kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"]},
            "start": "march",
        }
    )
    g.act("lannister", {"from": "lannisport", "moves": [{"to": "stoney-sept", "units": ["knight"]}]})
    script = {("lannister", "house-card"): "the-hound", ("martell", "house-card"): "doran-martell"}
    script[("martell", "doran-track")] = "kings_court"
    while any(f["type"] == "combat" for f in g.s.stack):
        p = next(p for p in g.prompts() if not p.answered)
        g.act(p.house, script.get((p.house, p.kind), p.default))
    assert g.s.tracks["kings_court"][-1] == "lannister"
    assert sorted(o.token for o in g.s.orders.values() if o.house == "lannister") == [
        "consolidate*",
        "defense2*",
        "march-1",
    ]
    s = g.s
    position = {
        "players": 6,
        "round": s.round,
        "garrisons": s.garrisons,
        "neutral": s.neutral,
        "units": {
            area: " ".join([us[0].house, *(("routed-" if u.routed else "") + u.type for u in us)])
            for area, us in s.units.items()
        },
        "orders": {area: f"{o.house}:{o.token}" for area, o in s.orders.items()},
        "power_tokens": s.power_tokens,
        "power": {h: s.houses[h].power for h in s.players},
        "hands": {h: s.houses[h].hand for h in s.players},
        "discards": {h: s.houses[h].discards for h in s.players},
        "tracks": s.tracks,
        "start": "march",
    }
    rebuilt = Game.from_scenario(position)
    assert rebuilt.s.orders == s.orders and rebuilt.s.tracks == s.tracks
    refused({**position, "start": "action"}, "2 special orders", "allows 0")
    moved_up = ["stark", "martell", "baratheon", "tyrell", "lannister", "greyjoy"]
    refused({**position, "tracks": {**s.tracks, "kings_court": moved_up}}, "2 special orders", "allows 0")


def test_orders_only_in_the_action_phase() -> None:
    refused(spec(start="planning"), "only in the Action phase")
    refused(spec(start="westeros"), "only in the Action phase")
    assert Game.from_scenario(spec(start="planning", orders={})).prompts()[0].kind == "orders"


def test_dominance_tokens_face_down_only_in_the_action_phase() -> None:
    """B-CLEAN-02: the Blade and the Raven are turned face up at the end of the Action phase."""
    refused(spec(start="planning", orders={}, raven_used=True), "raven_used")
    refused(spec(start="westeros", orders={}, blade_used=True), "blade_used")
    assert Game.from_scenario(spec(blade_used=True, raven_used=True)).s.blade_used


def test_restrictions() -> None:
    refused(spec(start="planning", orders={}, restrictions=["march"]), "restrictions")
    refused(spec(start="planning", orders={}, restrictions=["raid", "raid"]), "twice")
    refused(spec(restrictions=["raid"]), "only the Planning phase")
    refused(spec(start="planning", orders={}, round=1, restrictions=["raid"]), "round 2 or later")
    assert Game.from_scenario(spec(start="planning", orders={}, restrictions=["raid"])).s.restrictions == ["raid"]


# ----- tracks, cards and decks -----


def test_tracks_are_permutations_of_the_houses() -> None:
    refused(spec(tracks={"iron_throne": ["stark", "lannister"]}), "every house in play once")
    refused(spec(tracks={"iron_throne": ["stark", "stark", "lannister"]}), "every house in play once")
    refused(spec(tracks={"iron_throne": ["stark", "lannister", "martell"]}), "every house in play once")
    refused(spec(tracks={"victory": ["stark", "lannister", "baratheon"]}), "tracks")
    refused(spec(tracks={"iron_throne": "stark lannister baratheon"}), "tracks.iron_throne")


def test_house_cards_belong_to_their_house_once() -> None:
    refused(spec(hands={"stark": ["tywin-lannister"]}), "not a house card of stark")
    refused(spec(hands={"stark": ["eddard-stark", "eddard-stark"]}), "twice")
    refused(spec(discards={"stark": ["robb-stark"]}), "both in its hand and discarded")
    refused(spec(hands={"stark": "eddard-stark"}), "hands.stark")
    g = Game.from_scenario(spec(hands={"stark": ["eddard-stark"]}, discards={"stark": ["robb-stark"]}))
    assert g.s.houses["stark"].hand == ["eddard-stark"]


def test_decks_hold_real_cards() -> None:
    refused(spec(westeros_decks=[["supply"], ["supply"], ["web-of-lies"]]), "westeros_decks[1]", "unknown card")
    refused(spec(westeros_decks=[["supply"], ["clash-of-kings"]]), "three lists")
    refused(spec(westeros_decks=[["supply"] * 4, ["clash-of-kings"], ["web-of-lies"]]), "only 3 of supply")
    refused(spec(westeros_decks=[["winter-is-coming"], ["clash-of-kings"], ["web-of-lies"]]), "other than Winter")
    refused(spec(wildling_deck=["crow-killers", "crow-killers"]), "only 1 of crow-killers")
    refused(spec(wildling_deck=["white-walkers"]), "unknown card")
    refused(spec(tides_deck=["zero"]), "tides_of_battle")
    refused(spec(options={"tides_of_battle": True}, tides_deck=["three", "three", "three"]), "only 2 of three")
    g = Game.from_scenario(spec(wildling_deck=["crow-killers"], westeros_decks=[["supply"], ["clash-of-kings"],
                                                                                ["web-of-lies"]]))  # fmt: skip
    assert g.s.wildling_deck == ["crow-killers"]


# ----- nothing but RuleError, whatever the input -----

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
NAMES = st.sampled_from(
    ["stark", "lannister", "baratheon", "greyjoy", "winterfell", "the-twins", "bay-of-ice", "port-of-winterfell",
     "footman", "ship", "march0", "raid*", "iron_throne", "eddard-stark", "supply", "clash-of-kings", "fiefdoms"]
)  # fmt: skip
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats() | NAMES | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NAMES | st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["players", "seed", "options", "units", "orders", "power_tokens", "power", "supply", "tracks", "hands",
     "discards", "garrisons", "neutral", "blade_used", "raven_used", "round", "wildling_threat", "wildling_deck",
     "westeros_decks", "restrictions", "tides_deck", "start"]
)  # fmt: skip


def _only_rule_errors(value: Any) -> None:
    try:
        Game.from_scenario(value)
    except RuleError as err:
        assert err.code == "scenario" and err.message


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(JSON)
def test_json_junk_only_ever_raises_rule_error(value: Any) -> None:
    _only_rule_errors(value)


@settings(
    max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.dictionaries(KEYS, VALUES, max_size=6), st.sampled_from([3, 4, 6]))
def test_plausible_junk_only_ever_raises_rule_error(spec_: dict[str, Any], players: int) -> None:
    """Real keys with values near real ones reach the deeper checks."""
    _only_rule_errors({"players": players, **spec_})


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(sorted(BASE)), VALUES)
def test_one_broken_key_of_a_legal_position_only_ever_raises_rule_error(key: str, value: Any) -> None:
    _only_rule_errors({**spec(), key: value})
