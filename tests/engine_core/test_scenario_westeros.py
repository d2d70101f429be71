"""Scenario starts inside the Westeros phase, and what ``round: N`` means (docs/scenario-format.md)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError

DECKS = [
    ["mustering", "supply", "last-days-of-summer"],
    ["clash-of-kings", "game-of-thrones", "dark-wings-dark-words"],
    ["put-to-the-sword", "sea-of-storms", "web-of-lies"],
]
TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark"],
    "fiefdoms": ["stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "baratheon"],
}


def make(start: Any, **extra: Any) -> Game:
    spec: dict[str, Any] = {
        "players": 3,
        "round": 4,
        "wildling_threat": 2,
        "westeros_decks": [list(d) for d in DECKS],
        "tracks": TRACKS,
        "start": start,
        **extra,
    }
    return Game.from_scenario(spec)


def open_kinds(g: Game) -> list[tuple[str, str]]:
    return [(p.house, p.kind) for p in g.prompts() if not p.answered]


def frames(g: Game) -> list[str]:
    return [f["type"] for f in g.s.stack]


def bid(g: Game, bids: dict[str, int]) -> None:
    for house, amount in bids.items():
        g.act(house, amount)


def test_start_at_a_westeros_card_asks_what_that_card_asks() -> None:
    """Deck I's Mustering is next: every house musters in turn order (B-WCARD-03); then deck II and III."""
    g = make({"westeros": 1, "card": "mustering"}, units={"winterfell": "stark footman"})
    assert g.s.phase == "westeros" and g.s.round == 4
    assert g.s.westeros_drawn == ["mustering", "clash-of-kings", "put-to-the-sword"]
    assert frames(g)[:2] == ["game", "westeros"]
    assert open_kinds(g)[0][1] == "muster"
    assert g.s.wildling_threat == 2  # the drawn cards' icons are already counted in the spec's threat


def test_start_at_the_third_card_leaves_the_first_two_resolved() -> None:
    """Decks I and II resolved (their cards at the bottom, B-WEST-07); Put to the Sword asks the Fiefdoms holder."""
    g = make({"westeros": 3, "card": "put-to-the-sword"})
    p = g.prompts()[0]
    assert (p.house, p.kind, p.info) == ("stark", "westeros-choice", {"card": "put-to-the-sword"})
    assert g.s.westeros_decks[0] == ["supply", "last-days-of-summer", "mustering"]
    assert g.s.westeros_decks[1] == ["game-of-thrones", "dark-wings-dark-words", "clash-of-kings"]
    g.act("stark", "defense")
    assert g.s.phase == "planning" and g.s.round == 4 and g.s.restrictions == ["defense"]
    assert open_kinds(g) and all(kind == "orders" for _, kind in open_kinds(g))
    assert g.s.westeros_decks[2] == ["sea-of-storms", "web-of-lies", "put-to-the-sword"]


def test_the_card_is_taken_from_anywhere_in_its_deck() -> None:
    g = make({"westeros": 2, "card": "dark-wings-dark-words"})
    assert g.s.westeros_drawn == ["mustering", "dark-wings-dark-words", "put-to-the-sword"]
    assert (g.prompts()[0].house, g.prompts()[0].kind) == ("lannister", "westeros-choice")  # King's Court holder
    # The drawn card left its deck; it went to the bottom as its resolution began (B-WEST-07).
    assert g.s.westeros_decks[1] == ["clash-of-kings", "game-of-thrones", "dark-wings-dark-words"]


def test_without_a_card_the_top_card_is_next() -> None:
    g = make({"westeros": 3})
    assert g.s.westeros_drawn[2] == "put-to-the-sword" and g.prompts()[0].kind == "westeros-choice"


def test_winter_is_coming_resolved_in_its_turn() -> None:
    """B-WCARD-01: at deck III... deck I's Winter Is Coming is shuffled back and another card drawn instead."""
    decks = [["winter-is-coming", "supply"], DECKS[1], DECKS[2]]
    g = make({"westeros": 1, "card": "winter-is-coming"}, westeros_decks=decks, units={"winterfell": "stark footman"})
    assert g.s.westeros_drawn[0] == "supply"
    # A resolved deck never shows Winter Is Coming: it went back and the deck's next card was resolved.
    g = make({"westeros": 2}, westeros_decks=decks)
    assert g.s.westeros_drawn[0] == "supply"
    assert g.s.westeros_decks[0] == ["winter-is-coming", "supply"]


def test_clash_start_opens_the_bid_for_that_track() -> None:
    """B-INFL-02: the Iron Throne track is settled; every house with power bids for Fiefdoms."""
    g = make({"clash": "fiefdoms"}, power={"stark": 3, "lannister": 2, "baratheon": 0})
    assert frames(g) == ["game", "westeros", "clash", "bidding"]
    prompts = g.prompts()
    assert sorted(p.house for p in prompts) == ["lannister", "stark"]  # no power, no prompt
    assert all(p.kind == "bid" and p.info == {"purpose": "clash-of-kings", "track": "fiefdoms"} for p in prompts)
    assert prompts[0].choices["max"] in (2, 3)
    bid(g, {"stark": 1, "lannister": 1})
    # A tie on Fiefdoms: the Iron Throne holder of the spec (Baratheon) orders it (B-INFL-05, B-INFL-08).
    p = g.prompts()[0]
    assert (p.house, p.kind, p.choices["track"]) == ("baratheon", "tie-order", "fiefdoms")
    g.act("baratheon", ["lannister", "stark", "baratheon"])
    assert g.s.tracks["fiefdoms"] == ["lannister", "stark", "baratheon"]
    assert g.s.tracks["iron_throne"] == TRACKS["iron_throne"]  # settled before the start, not bid again
    assert g.prompts()[0].info["track"] == "kings_court"
    bid(g, {"stark": 2, "lannister": 1})
    assert g.s.tracks["kings_court"] == ["stark", "lannister", "baratheon"]
    # Deck III's Put to the Sword follows, asked of the new Fiefdoms holder.
    assert (g.prompts()[0].house, g.prompts()[0].kind) == ("lannister", "westeros-choice")


def test_clash_start_at_kings_court_after_dark_wings_dark_words() -> None:
    g = make({"westeros": 2, "card": "dark-wings-dark-words", "clash": "kings_court"}, power={"baratheon": 4})
    assert {p.info["track"] for p in g.prompts()} == {"kings_court"}
    assert g.s.westeros_decks[1] == ["clash-of-kings", "game-of-thrones", "dark-wings-dark-words"]  # resolved
    bid(g, {"stark": 0, "lannister": 0, "baratheon": 4})
    p = g.prompts()[0]
    assert (p.house, p.kind, p.choices["tied"]) == ("baratheon", "tie-order", [["lannister", "stark"]])
    g.act("baratheon", p.default)
    assert g.s.tracks["kings_court"][0] == "baratheon" and g.s.houses["baratheon"].power == 0
    assert g.s.tracks["fiefdoms"] == TRACKS["fiefdoms"]


def test_clash_start_at_the_iron_throne() -> None:
    g = make({"clash": "iron_throne"})
    assert {p.info["track"] for p in g.prompts()} == {"iron_throne"}
    assert g.s.westeros_drawn[1] == "clash-of-kings"


def test_westeros_starts_are_checked() -> None:
    def refused(start: Any, word: str, **extra: Any) -> None:
        with pytest.raises(RuleError) as info:
            make(start, **extra)
        assert info.value.code == "scenario" and word in info.value.message, info.value.message

    refused({"westeros": 4}, "start.westeros")
    refused({"westeros": "II"}, "start.westeros")
    refused({"card": "supply"}, "start.westeros")
    refused({"westeros": 1, "card": "clash-of-kings"}, "deck I")
    refused({"westeros": 2, "card": "supply"}, "deck II")
    refused({"westeros": 2, "card": "winter-is-coming"}, "not in Westeros deck II")
    refused({"westeros": 2, "card": "game-of-thrones", "clash": "fiefdoms"}, "Clash of Kings comes from")
    refused({"clash": "victory"}, "start.clash")
    refused({"westeros": 2, "round": 3}, "unknown key")
    refused({"westeros": 2}, "round 1 has no Westeros phase", round=1)
    refused("westeros", "round 1 has no Westeros phase", round=1)


# ----- what round: N means -----


def test_round_n_westeros_start_is_round_n_westeros_phase() -> None:
    """B-ROUND-01: `round: N` with `start: "westeros"` is the Westeros phase of round N, then round N's Planning."""
    g = make("westeros", westeros_decks=[["last-days-of-summer"], ["last-days-of-summer"], ["sea-of-storms"]])
    assert g.s.round == 4 and g.s.phase == "planning" and g.s.restrictions == ["raid"]


def test_round_n_planning_and_action_belong_to_round_n() -> None:
    g = Game.from_scenario({"players": 3, "round": 7, "start": "planning"})
    assert g.s.round == 7 and g.s.phase == "planning"
    units, orders = {"winterfell": "stark footman"}, {"winterfell": "march0"}
    g = Game.from_scenario({"players": 3, "round": 7, "start": "march", "units": units, "orders": orders})
    assert g.s.round == 7 and g.s.phase == "action" and g.prompts()[0].kind == "march"


def test_after_round_n_action_phase_round_n_plus_1_westeros_begins() -> None:
    """B-ROUND-02: the Action phase of round 9 ends; round 10 begins with its Westeros phase."""
    spec = {
        "players": 3,
        "round": 9,
        "start": "action",
        "units": {"winterfell": "stark footman"},
        "orders": {"winterfell": "raid"},
        "westeros_decks": [["last-days-of-summer"], ["last-days-of-summer"], ["sea-of-storms"]],
        "wildling_threat": 0,
    }
    g = Game.from_scenario(spec)
    events = g.act("stark", {"from": "winterfell", "target": None})
    assert {"type": "round-started", "round": 10} in events
    assert g.s.round == 10 and g.s.phase == "planning"


def test_after_round_10_action_phase_the_game_ends() -> None:
    """B-ROUND-04/05."""
    spec = {
        "players": 3,
        "round": 10,
        "start": "action",
        "units": {"winterfell": "stark footman"},
        "orders": {"winterfell": "raid"},
    }
    g = Game.from_scenario(spec)
    g.act("stark", {"from": "winterfell", "target": None})
    assert g.finished and g.s.ended_reason == "round-limit" and g.s.round == 10
