"""Card data the Westeros phase relies on (B-DATA-06/07, B-WILD-13, B-INFL-01)."""

from __future__ import annotations

from engine import data, new_game, rules
from engine.steps.westeros import CHOICE_CARDS, RESTRICTION_OF_CARD, WINTER_IS_COMING, icons
from engine.steps.wildlings import EFFECTS

OTHER_WESTEROS = {"last-days-of-summer", "supply", "mustering", "game-of-thrones", "clash-of-kings", "wildlings-attack"}


def test_B_DATA_06_three_decks_of_ten_with_3_3_5_icons() -> None:
    """B-DATA-06: decks I-III hold 10 cards each; wildling icons 3, 3 and 5 (reference README)."""
    g = new_game(6, seed=1)
    assert [len(d) for d in g.s.westeros_decks] == [10, 10, 10]
    assert [sum(icons(i, c) for c in deck) for i, deck in enumerate(g.s.westeros_decks)] == [3, 3, 5]


def test_B_WILD_13_every_card_has_an_effect() -> None:
    """B-WILD-13, B-DATA-07: all nine wildling cards are implemented; every Westeros card id is handled."""
    assert set(EFFECTS) == set(data.wildling_cards()) and len(EFFECTS) == 9
    handled = OTHER_WESTEROS | set(RESTRICTION_OF_CARD) | set(CHOICE_CARDS) | {WINTER_IS_COMING}
    assert {c["id"] for c in data.westeros_cards().values()} == handled


def test_B_INFL_01_dominance_tokens_belong_to_position_one() -> None:
    """B-INFL-01: the Iron Throne, the Blade and the Raven go with position 1 of their tracks."""
    g = new_game(4, seed=2)
    dominance = g.view(None)["dominance"]
    assert dominance["iron_throne"]["house"] == rules.holder(g.s, "iron_throne") == g.s.tracks["iron_throne"][0]
    assert dominance["valyrian_steel_blade"]["house"] == g.s.tracks["fiefdoms"][0]
    assert dominance["messenger_raven"]["house"] == g.s.tracks["kings_court"][0]
