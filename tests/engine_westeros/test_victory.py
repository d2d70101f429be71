"""The end of the game after round 10 and its tie-breaks (B-ROUND-04/05, B-VICTORY-02..04)."""

from __future__ import annotations

from typing import Any

from engine import Game
from tests.engine_westeros.helpers import setup_events

# Three players; Iron Throne order Baratheon, Lannister, Stark. Each test gives Stark and Lannister the same
# number of castle areas and lets one tie-break decide.
BASE_UNITS = {"dragonstone": "baratheon footman"}


def end_of_round_10(**spec: Any) -> Game:
    """Round 10's Action phase with no orders left: it ends at once and so does the game."""
    full: dict[str, Any] = {"players": 3, "round": 10, "start": "action", "garrisons": {}, **spec}
    full["units"] = {**BASE_UNITS, **spec.get("units", {})}
    return Game.from_scenario(full)


def test_B_ROUND_05_game_ends_after_round_10_action_phase() -> None:
    """B-ROUND-04, B-ROUND-05, B-VICTORY-01: after round 10 there is no eleventh Westeros phase; a winner is named."""
    g = end_of_round_10(units={"winterfell": "stark footman", "white-harbor": "stark footman"})
    assert g.finished and g.s.round == 10
    assert g.s.ended_reason == "round-limit"
    assert g.prompts() == []
    types = [e["type"] for e in setup_events(g)]
    assert "westeros-cards" not in types and types[-1] == "game-over"


def test_B_VICTORY_02_most_castle_areas_wins() -> None:
    """B-VICTORY-02: Stark's three castle areas beat everything else (Lannister has more power and supply)."""
    g = end_of_round_10(
        units={"winterfell": "stark footman", "white-harbor": "stark footman", "moat-cailin": "stark footman"},
        power={"lannister": 15, "stark": 0},
        supply={"lannister": 6, "stark": 0},
    )
    assert g.s.winner == "stark"


def test_B_VICTORY_03_tie_broken_by_strongholds() -> None:
    """B-VICTORY-03 (1): two castle areas each; Lannister's are both strongholds, Stark's only one."""
    g = end_of_round_10(
        units={"white-harbor": "stark footman", "riverrun": "lannister footman"},
        supply={"stark": 6, "lannister": 0},
        power={"stark": 15, "lannister": 0},
    )
    assert g.s.winner == "lannister"


def test_B_VICTORY_03_then_by_supply() -> None:
    """B-VICTORY-03 (2): same castles and strongholds; Stark's higher supply level wins."""
    g = end_of_round_10(
        units={"white-harbor": "stark footman", "harrenhal": "lannister footman"},
        supply={"stark": 4, "lannister": 3},
        power={"stark": 0, "lannister": 15},
    )
    assert g.s.winner == "stark"


def test_B_VICTORY_03_then_by_available_power() -> None:
    """B-VICTORY-03 (3): same castles, strongholds and supply; more available Power wins."""
    g = end_of_round_10(
        units={"white-harbor": "stark footman", "harrenhal": "lannister footman"},
        supply={"stark": 3, "lannister": 3},
        power={"stark": 7, "lannister": 6},
    )
    assert g.s.winner == "stark"


def test_B_VICTORY_03_then_by_iron_throne_position() -> None:
    """B-VICTORY-03 (4): everything equal; Lannister stands above Stark on the Iron Throne track."""
    g = end_of_round_10(
        units={"white-harbor": "stark footman", "harrenhal": "lannister footman"},
        supply={"stark": 3, "lannister": 3},
        power={"stark": 6, "lannister": 6},
    )
    assert g.s.tracks["iron_throne"].index("lannister") < g.s.tracks["iron_throne"].index("stark")
    assert g.s.winner == "lannister"


def test_B_VICTORY_04_iron_throne_holder_does_not_decide_the_winner() -> None:
    """B-VICTORY-04: Baratheon holds the Iron Throne and ties Stark on castles, strongholds and supply, but has
    less Power: Stark wins, and nobody is asked anything."""
    g = end_of_round_10(
        units={"winterfell": "stark footman", "dragonstone": "baratheon footman"},
        supply={"stark": 2, "baratheon": 2, "lannister": 0},
        power={"stark": 5, "baratheon": 4, "lannister": 0},
        power_tokens={"stoney-sept": "lannister"},
        tracks={"iron_throne": ["baratheon", "stark", "lannister"]},
    )
    # Lannister keeps Lannisport (its home) too: three houses with one stronghold each.
    assert g.s.winner == "stark"
    assert not [e for e in setup_events(g) if e["type"] == "tie-broken"]


def test_B_VICTORY_03_faq_option_uses_land_areas() -> None:
    """Documented option tie_breakers="faq" (FFG FAQ v2.0): land areas, then supply, then Iron Throne."""
    spec: dict[str, Any] = {
        "units": {"white-harbor": "stark footman", "riverrun": "lannister footman", "stoney-sept": "lannister footman"},
        "supply": {"stark": 6, "lannister": 0},
    }
    assert end_of_round_10(**spec).s.winner == "lannister"  # rulebook: Lannister has two strongholds
    spec["units"] = {
        "white-harbor": "stark footman",
        "the-stony-shore": "stark footman",
        "widows-watch": "stark footman",
        "riverrun": "lannister footman",
    }
    assert end_of_round_10(**spec).s.winner == "lannister"
    assert end_of_round_10(options={"tie_breakers": "faq"}, **spec).s.winner == "stark"
