"""Mother of Dragons for seven players without Targaryen: the board, House Arryn and the setup (issue M1).

Facts checked against the expansion's reference (data/mother-of-dragons/, written by
tools/import_mother_of_dragons.py): the rulebook (003) has no map, so board counts are the reference's.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Game, RuleError, data, new_game, rules, rulesets
from engine.orders import ORDER_TOKENS

MOD = {"ruleset": "mother-of-dragons"}
WESTEROS_HOUSES = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]


def game(seed: int = 1, **options: object) -> Game:
    return new_game(7, seed=seed, options={**MOD, **options})


def castle_areas(board: data.Board) -> int:
    return sum(1 for a in board.areas.values() if a.is_land and a.fortification > 0)


def pairs(board: data.Board) -> int:
    return sum(len(n) for n in board.neighbours.values()) // 2


def test_M_SETUP_06_the_board_has_the_eyrie_and_bite_overlays() -> None:
    """M-SETUP-06, M-ARRYN-01: the base board plus the Eyrie and Bite overlays: 61 areas, 152 adjacent pairs,
    21 castle areas; the Eyrie is Arryn's home, a stronghold with a port; the Bite takes the Narrow Sea's coast
    from White Harbor to the Twins. Essos (for Targaryen) stays in the data: 75 areas, 188 pairs."""
    board = rulesets.board_named("mother-of-dragons")
    assert (len(board.areas), pairs(board), castle_areas(board)) == (61, 152, 21)
    essos = data.board("mother-of-dragons/board-essos.json")
    assert (len(essos.areas), pairs(essos)) == (75, 188)
    base = data.board()
    assert (len(base.areas), pairs(base), castle_areas(base)) == (58, 143, 20)
    eyrie = board.areas["the-eyrie"]
    assert (eyrie.fortification, eyrie.home_of, eyrie.port) == (2, "arryn", "port-of-the-eyrie")
    assert board.areas["port-of-white-harbor"].port_sea == "the-bite"
    assert board.adjacent("white-harbor", "the-bite") and not board.adjacent("white-harbor", "the-narrow-sea")
    assert board.adjacent("the-vale-of-arryn", "the-eyrie") and board.areas["the-vale-of-arryn"].fortification == 1


def test_M_SETUP_01_M_SETUP_02_seven_players_take_the_seven_houses_of_westeros() -> None:
    """M-SETUP-01, M-SETUP-02, M-PLAYERS-04 (7 without Targaryen: no vassal): the expansion's own setup, with Arryn;
    3-6 players leave the other houses to vassals (tests/engine_mod/test_vassals.py); 8 play Targaryen too
    (tests/engine_mod/test_targaryen.py)."""
    g = game()
    assert sorted(g.s.players) == sorted(WESTEROS_HOUSES)
    assert g.s.vassals == {}
    for count in (2, 9):
        with pytest.raises(RuleError) as info:
            new_game(count, options=MOD)
        assert info.value.code == "mod-player-count"
    assert rulesets.ruleset(g.s).name == "mother-of-dragons"
    with pytest.raises(RuleError) as unknown:
        new_game(6, options={"ruleset": "a-dance-with-dragons"})
    assert unknown.value.code == "unknown-ruleset"


def test_M_SETUP_04_M_SEAORD_01_every_house_has_seven_cards_and_its_orders() -> None:
    """M-SETUP-04, M-ARRYN-02, M-SEAORD-01, M-SEAORD-05: 7 house cards each (Arryn's seven from the expansion),
    the 15 orders and the sea orders; the Iron Bank order waits for the Iron Bank and is not offered."""
    g = game()
    for house in g.s.players:
        hand = g.s.houses[house].hand
        assert len(hand) == 7 and all(data.house_cards()[c].house == house for c in hand)
    arryn = Counter(data.house_cards()[c].strength for c in g.s.houses["arryn"].hand)
    assert arryn == {4: 1, 3: 1, 2: 2, 1: 2, 0: 1}
    tokens = g.prompt_for("arryn").choices["tokens"]  # type: ignore[union-attr]
    assert sum(tokens.values()) == 17
    assert {t: n for t, n in tokens.items() if t not in ORDER_TOKENS} == {"sea-march-minus-1": 1, "sea-support": 1}


def test_M_SETUP_12_M_SETUP_14_the_fixed_influence_layout_and_its_dominance_tokens() -> None:
    """M-SETUP-12, M-SETUP-14, M-SETUP-23: the expansion's fixed layout whatever the count (the reference's, without
    Targaryen), dominance tokens to the first house of each track, and the 8-space King's Court stars (no 3-4 player
    overlay)."""
    g = game()
    assert g.s.tracks == {
        "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"],
        "fiefdoms": ["greyjoy", "tyrell", "martell", "arryn", "stark", "baratheon", "lannister"],
        "kings_court": ["lannister", "stark", "martell", "tyrell", "arryn", "baratheon", "greyjoy"],
    }
    dominance = g.view(None)["dominance"]
    assert [dominance[t]["house"] for t in dominance] == ["baratheon", "greyjoy", "lannister"]
    assert [rules.stars_allowed(g.s, h) for h in g.s.tracks["kings_court"]] == [3, 3, 2, 1, 0, 0, 0]


def test_M_SETUP_17_M_SETUP_18_M_SETUP_19_units_garrisons_and_only_kings_landings_neutral_force() -> None:
    """M-SETUP-17, M-SETUP-18, M-SETUP-19, M-ARRYN-02: starting units as on the screens (Arryn: two knights in the
    Eyrie, a ship in its port, a knight in the Vale), a garrison in every home (the Eyrie's is 4), and only King's
    Landing's neutral force (5): the Eyrie's 6 and the 3-5 player tokens stay in the box."""
    g = game()
    assert sorted(f"{u.house} {u.type}" for u in g.s.units["the-eyrie"]) == ["arryn knight", "arryn knight"]
    assert [u.type for u in g.s.units["port-of-the-eyrie"]] == ["ship"]
    assert [u.type for u in g.s.units["the-vale-of-arryn"]] == ["knight"]
    for house in g.s.players:
        info = rulesets.ruleset(g.s).houses()[house]
        assert g.s.garrisons[info.home] == info.garrison
        start = {a: sorted(t) for a, t in info.starting_units.items()}
        assert start == {a: sorted(u.type for u in g.s.units[a] if u.house == house) for a in start}
    assert g.s.garrisons["the-eyrie"] == 4
    assert g.s.neutral == {"kings-landing": 5}
    assert rules.castle_counts(g.s)["arryn"] == 2  # the Eyrie and the Vale (victory 2)


def test_M_SETUP_08_M_SETUP_09_M_SETUP_22_threat_decks_and_seven_power() -> None:
    """M-SETUP-08, M-SETUP-09, M-SETUP-22: the threat on 2 and the wildling deck shuffled; decks I-III (no deck IV
    without Targaryen); every player takes 7 Power."""
    g, other = game(seed=1), game(seed=2)
    assert g.s.wildling_threat == 2 and sorted(g.s.wildling_deck) == sorted(data.wildling_cards())
    assert g.s.wildling_deck != other.s.wildling_deck
    assert len(g.s.westeros_decks) == 3 and [len(d) for d in g.s.westeros_decks] == [10, 10, 10]
    assert {h: g.s.houses[h].power for h in g.s.players} == dict.fromkeys(g.s.players, 7)
    assert {h: g.s.houses[h].supply for h in g.s.players} == {
        "baratheon": 2,
        "lannister": 2,
        "stark": 1,
        "martell": 2,
        "greyjoy": 2,
        "tyrell": 2,
        "arryn": 1,
    }


def test_M_SCOPE_01_M_SCOPE_02_the_expansion_is_one_ruleset_not_a_set_of_options() -> None:
    """M-SCOPE-01, M-SCOPE-02: choosing the expansion brings all of its parts at once (board, Arryn, setup, sea
    orders); the base game is untouched by it (its stored games name no ruleset and play as before)."""
    base = new_game(6, seed=1)
    assert "ruleset" not in base.s.options and rulesets.ruleset(base.s).name == "base"
    assert "arryn" not in base.s.players and "port-of-the-eyrie" not in rules.board(base.s).areas
    assert set(base.prompt_for("stark").choices["tokens"]) == set(ORDER_TOKENS)  # type: ignore[union-attr]
    mod = game()
    assert mod.s.options["ruleset"] == "mother-of-dragons" and "arryn" in mod.s.players


def test_a_scenario_can_be_built_on_the_expansion_board() -> None:
    g = Game.from_scenario(
        {
            "players": 7,
            "options": MOD,
            "units": {"the-vale-of-arryn": "arryn knight", "the-bite": "stark ship"},
            "round": 10,
        }
    )
    assert rules.board(g.s).areas["the-bite"].is_sea and rules.occupant(g.s, "the-bite") == "stark"
    with pytest.raises(RuleError) as info:
        Game.from_scenario({"players": 6, "units": {"the-bite": "stark ship"}})
    assert info.value.code == "scenario"  # the base board has no Bite


def test_M_ARRYN_02_arryns_cards_read_in_english_and_russian() -> None:
    """M-ARRYN-02: Arryn's seven cards with their names, and the five texts paraphrased in English and Russian."""
    cards = [c for c in data.house_cards().values() if c.house == "arryn"]
    assert len(cards) == 7 and sum(1 for c in cards if c.ability) == 5
    for card in cards:
        assert card.names["ru"] != card.names["en"] and any("а" <= ch <= "я" for ch in card.names["ru"].lower())
        if card.ability:
            english, russian = card.text("en"), card.text("ru")
            assert english and russian and russian != english
            assert any("а" <= ch <= "я" for ch in russian)


def test_M_COMP_03_the_expansion_brings_21_house_cards_in_three_sets() -> None:
    """M-COMP-03: 7 Arryn cards, Targaryen's sets A and B (a game option chooses one); every set has the strengths
    4, 3, 2, 2, 1, 1, 0, like the base sets."""
    arryn = [c.strength for c in data.house_cards().values() if c.house == "arryn"]
    targaryen = data.read("mother-of-dragons/house_cards_targaryen.json")["cards"]
    sets = {
        s: sorted((c["strength"] for c in targaryen if c["set"] == s), reverse=True)
        for s in {c["set"] for c in targaryen}
    }
    assert len(arryn) + len(targaryen) == 21 and len(sets) == 2
    for strengths in [sorted(arryn, reverse=True), *sets.values()]:
        assert strengths == [4, 3, 2, 2, 1, 1, 0]


@pytest.mark.parametrize("options", [{}, MOD])
def test_every_house_commands_itself_until_vassals_exist(options: dict[str, str]) -> None:
    """Houses in play, the houses players hold, and each house's commander (whose player answers its prompts) are
    kept apart, so that vassals (a later issue) only change ``commander``: today every house commands itself, and
    every prompt names the house it is for."""
    g = new_game(7 if options else 6, seed=4, options=options)
    assert rules.player_houses(g.s) == rules.turn_order(g.s)
    assert g.view(None)["commanders"] == {h: h for h in g.s.players}
    assert {p.house for p in g.prompts()} == set(g.s.players)
