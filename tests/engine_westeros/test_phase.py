"""The Westeros phase itself: drawing, the wildling threat, resolution order, Winter Is Coming (B-WEST-*, B-WCARD-01,
B-OPEN-04)."""

from __future__ import annotations

from engine import Game, new_game
from engine.steps.westeros import icons
from tests.engine_westeros.helpers import (
    bid_all,
    decks,
    events_of,
    in_planning,
    kinds,
    prompt,
    setup_events,
    westeros,
)


def play_round_one_with_defaults(g: Game) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    while g.s.round == 1:
        p = next(p for p in g.prompts() if not p.answered)
        events = g.act(p.house, p.default)
    return events


def test_B_WEST_01_round_one_has_no_westeros_phase() -> None:
    """B-WEST-01, B-ROUND-01: round 1 starts with Planning; the first Westeros phase opens round 2."""
    g = new_game(3, seed=5)
    assert g.s.round == 1 and g.s.phase == "planning"
    assert g.s.westeros_drawn == []
    assert {p.kind for p in g.prompts()} == {"orders"}
    events = play_round_one_with_defaults(g)
    types = [e["type"] for e in events]
    assert "round-started" in types and "westeros-cards" in types
    assert types.index("round-started") < types.index("westeros-cards")  # B-ROUND-02
    assert g.s.round == 2 and len(g.s.westeros_drawn) == 3


def test_B_WEST_02_steps_in_order_marker_cards_threat_resolution() -> None:
    """B-WEST-02: round marker, then the three cards, then the threat, then card I, II and III."""
    g = westeros({"round": 4})
    types = [e["type"] for e in setup_events(g)]
    order = ["round-started", "westeros-cards", "wildling-threat", "westeros-card"]
    assert [t for t in types if t in order][:4] == order
    assert g.s.round == 4
    resolved = [e["deck"] for e in events_of(setup_events(g), "westeros-card")]
    assert resolved == [1, 2, 3]  # B-WEST-06


def test_B_WEST_03_exactly_one_card_from_each_deck() -> None:
    """B-WEST-03: the top card of each of decks I, II and III is revealed, recorded in westeros_drawn."""
    g = westeros({}, ("supply", "game-of-thrones", "web-of-lies"))
    assert g.s.westeros_drawn == ["supply", "game-of-thrones", "web-of-lies"]
    assert [len(d) for d in g.s.westeros_decks] == [6, 5, 5]
    assert g.view(None)["westeros_cards"] == ["supply", "game-of-thrones", "web-of-lies"]


def test_B_WEST_03_drawn_cards_are_cleared_each_phase() -> None:
    """B-WEST-03: westeros_drawn holds only this phase's cards (cleared at the start of every Westeros phase)."""
    g = new_game(3, seed=11)
    play_round_one_with_defaults(g)
    assert len(g.s.westeros_drawn) == 3
    drawn: list[object] = []
    while g.s.round == 2:
        p = next(p for p in g.prompts() if not p.answered)
        drawn += [e["cards"] for e in events_of(g.act(p.house, p.default), "westeros-cards")]
    assert g.s.westeros_drawn == drawn[-1]
    assert len(g.s.westeros_drawn) == 3


def test_B_WEST_04_each_icon_moves_the_threat_one_space() -> None:
    """B-WEST-04: three cards with one icon each move the threat three spaces (+2 strength per space)."""
    g = westeros({"wildling_threat": 2})
    assert sum(icons(i, c) for i, c in enumerate(g.s.westeros_drawn)) == 3
    assert g.s.wildling_threat == 8
    g = westeros({"wildling_threat": 2}, ("supply", "game-of-thrones", "put-to-the-sword"))
    assert g.s.wildling_threat == 2


def test_B_WEST_05_threat_stops_at_12_and_attacks_before_the_cards() -> None:
    """B-WEST-05, B-WILD-01: icons beyond 12 are lost; reaching 12 attacks at once, before card I is resolved."""
    g = westeros({"wildling_threat": 10}, ("a-throne-of-blades", "last-days-of-summer", "rains-of-autumn"))
    assert g.s.wildling_threat == 12
    assert {k for _, k in kinds(g)} == {"bid"}
    assert prompt(g).info == {"purpose": "wildlings", "strength": 12}
    assert g.s.restrictions == []  # card III not yet resolved
    bid_all(g, {"baratheon": 0, "lannister": 0, "stark": 0})
    assert g.s.wildling_threat == 8  # the wildlings won: two spaces back
    # Now card I is resolved: the Iron Throne holder chooses.
    while kinds(g) and kinds(g)[0][1] not in ("westeros-choice",):
        p = prompt(g)
        g.act(p.house, p.default)
    assert kinds(g) == [("baratheon", "westeros-choice")]


def test_B_WEST_05_no_attack_below_12() -> None:
    """B-WEST-05: a threat that stays under 12 triggers nothing."""
    g = westeros({"wildling_threat": 4})
    assert g.s.wildling_threat == 10
    assert in_planning(g)
    assert not events_of(setup_events(g), "wildlings-attack")


def test_B_WEST_06_cards_resolve_in_deck_order() -> None:
    """B-WEST-06: card II (Clash of Kings) is settled before card III (Put to the Sword) asks the new Blade holder."""
    g = westeros(
        {"power": {"stark": 5, "lannister": 0, "baratheon": 0}},
        ("last-days-of-summer", "clash-of-kings", "put-to-the-sword"),
    )
    # Only Stark has power: it is asked alone for each track and wins all three.
    for _ in range(3):
        assert kinds(g)[0] == ("stark", "bid")
        g.act("stark", 1)
        while kinds(g) and kinds(g)[0][1] == "tie-order":
            p = prompt(g)
            g.act(p.house, p.default)
    assert g.s.tracks["fiefdoms"][0] == "stark"
    assert kinds(g) == [("stark", "westeros-choice")]  # the new Blade holder decides card III


def test_B_WEST_07_resolved_cards_go_to_the_bottom_of_their_deck() -> None:
    """B-WEST-07: after resolution each card is the last of its own deck."""
    g = westeros({}, ("supply", "game-of-thrones", "web-of-lies"))
    assert [d[-1] for d in g.s.westeros_decks] == ["supply", "game-of-thrones", "web-of-lies"]
    assert [len(d) for d in g.s.westeros_decks] == [6, 5, 5]


def test_B_WEST_08_two_attacks_in_one_phase() -> None:
    """B-WEST-08: the threat reaches 12 (one attack) and a Wildlings Attack card is revealed (a second one)."""
    g = westeros(
        {"wildling_threat": 10, "power": {"stark": 0, "lannister": 0, "baratheon": 0}},
        ("last-days-of-summer", "game-of-thrones", "wildlings-attack"),
    )
    attacks = events_of(setup_events(g), "wildlings-attack")
    assert [a["strength"] for a in attacks] == [12]
    # Nobody has power, so both attacks resolve without bids; the first one's penalties may ask questions.
    while not in_planning(g):
        p = prompt(g)
        g.act(p.house, p.default)
    assert g.s.wildling_threat in (4, 0)


def test_B_WEST_08_any_number_of_attacks_are_allowed() -> None:
    """B-WEST-08, B-OPEN-04: threat at 12 in step 3, Winter Is Coming draws an icon that brings it back to 12,
    and a Wildlings Attack card: three attacks are possible and all are resolved."""
    spec = {
        "wildling_threat": 10,
        "power": {"stark": 0, "lannister": 0, "baratheon": 0},
        "wildling_deck": ["silence-at-the-wall"] * 1 + ["preemptive-raid", "skinchanger-scout"],
        "westeros_decks": [
            ["winter-is-coming", "last-days-of-summer", "a-throne-of-blades", "a-throne-of-blades"],
            ["winter-is-coming", "last-days-of-summer", "dark-wings-dark-words", "dark-wings-dark-words"],
            ["rains-of-autumn", "wildlings-attack"],
        ],
    }
    g = Game.from_scenario({**spec, "players": 3, "round": 2, "start": "westeros"})
    strengths: list[int] = [e["strength"] for e in events_of(setup_events(g), "wildlings-attack")]
    while not in_planning(g):
        p = prompt(g)
        strengths += [e["strength"] for e in events_of(g.act(p.house, p.default), "wildlings-attack")]
    # Step 3: 10 + 1 icon = 12 -> attack (lost, back to 8); I: Winter Is Coming -> an icon card (10);
    # II: Winter Is Coming -> an icon card (12) -> attack. Card III was Rains of Autumn, so two attacks here;
    # the point is that every attack that is triggered is resolved.
    assert strengths[:2] == [12, 12]


def test_B_WCARD_01_winter_is_coming_reshuffles_and_draws_again() -> None:
    """B-WCARD-01: Winter Is Coming goes back into its deck, the deck is shuffled and the new top card is resolved
    instead; the deck keeps all its cards."""
    deck_i = ["winter-is-coming", "supply", "supply", "supply", "mustering"]
    g = westeros({"westeros_decks": [deck_i, decks()[1], decks()[2]], "seed": 3})
    evs = events_of(setup_events(g), "winter-is-coming")
    assert evs and evs[-1]["card"] != "winter-is-coming"
    replacement = evs[-1]["card"]
    assert g.s.westeros_drawn[0] == replacement
    assert sorted(g.s.westeros_decks[0]) == sorted(deck_i)
    assert g.s.westeros_decks[0][-1] == replacement  # resolved, so at the bottom
    assert "winter-is-coming" in g.s.westeros_decks[0]


def test_B_WCARD_01_winter_is_coming_repeats_when_drawn_again() -> None:
    """B-WCARD-01: if the shuffle brings Winter Is Coming back on top, it is shuffled again."""
    for seed in range(60):
        g = westeros({"seed": seed, "westeros_decks": [["winter-is-coming", "last-days-of-summer"], *decks()[1:]]})
        evs = events_of(setup_events(g), "winter-is-coming")
        if len(evs) >= 2:
            assert [e["card"] for e in evs][:-1] == ["winter-is-coming"] * (len(evs) - 1)
            assert evs[-1]["card"] == "last-days-of-summer"
            assert g.s.westeros_drawn[0] == "last-days-of-summer"
            return
    raise AssertionError("no seed reshuffled Winter Is Coming onto the top")


def test_B_OPEN_04_icon_of_the_replacement_card_moves_the_threat_at_once() -> None:
    """B-OPEN-04: the icon of a card drawn by Winter Is Coming moves the threat immediately; at 12 the attack comes
    before the replacement card is resolved."""
    spec = {
        "wildling_threat": 10,
        "westeros_decks": [
            ["winter-is-coming", "a-throne-of-blades", "a-throne-of-blades", "last-days-of-summer"],
            ["game-of-thrones", *decks()[1][1:]],
            ["put-to-the-sword", *decks()[2][1:]],
        ],
    }
    g = westeros(spec)
    assert g.s.wildling_threat == 12
    types = [e["type"] for e in setup_events(g)]
    assert types.index("winter-is-coming") < types.index("wildlings-attack")
    assert "westeros-card" not in types  # the replacement is not resolved yet
    assert {k for _, k in kinds(g)} == {"bid"}
