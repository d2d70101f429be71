"""Rulesets: the base game and its expansion, chosen by name in ``options["ruleset"]``.

A ruleset supplies what the two games do differently: the board, the houses and how many play, the setup, the
order tokens a house owns, the King's Court stars, who may hold a dominance token, and the few moments where the
expansion adds a rule (sea orders lying on land are removed after the Raven). Shared code asks the game's ruleset
through these hooks and never tests a ruleset's name, as python-chess's variants override a few hooks of one
board class.
"""

from __future__ import annotations

from typing import Any

from engine import data
from engine.errors import RuleError
from engine.rulesets.base import BaseGame, Ruleset
from engine.rulesets.mother_of_dragons import MotherOfDragons
from engine.state import GameState

RULESETS: dict[str, Ruleset] = {r.name: r for r in (BaseGame(), MotherOfDragons())}
DEFAULT = BaseGame.name


def named(name: str) -> Ruleset:
    return RULESETS[name]


# Every board any ruleset plays on, by name (a view names its game's board: ``view["options"]["board"]``).
BOARD_FILES: dict[str, str] = {name: file for r in RULESETS.values() for name, file in r.boards.items()}


def board_named(name: str) -> data.Board:
    """A board by the name a view gives it."""
    return data.board(BOARD_FILES[name])


def ruleset(s: GameState) -> Ruleset:
    """The game's ruleset; a game whose options name none is a base game (every game before the expansion)."""
    return RULESETS[s.options.get("ruleset", DEFAULT)]


def setup_state(players: int | list[str], *, seed: int, options: dict[str, Any]) -> GameState:
    """The official setup of the ruleset ``options["ruleset"]`` names (the base game by default) for a player count
    or its list of houses; ``Game`` starts play from it."""
    name = options.get("ruleset", DEFAULT)
    if name not in RULESETS:
        raise RuleError("unknown-ruleset", f"There is no ruleset {name!r}.", ruleset=name, known=sorted(RULESETS))
    rs = RULESETS[name]
    count = players if isinstance(players, int) else len(players)
    expected = rs.houses_for(count)
    if not isinstance(players, int) and not rs.accepts_houses(players):
        raise RuleError(
            "bad-houses",
            f"With {count} players the houses are {', '.join(expected)}.",
            expected=expected,
        )
    return rs.initial_state(expected if isinstance(players, int) else list(players), seed, options)


__all__ = ["BOARD_FILES", "RULESETS", "Ruleset", "board_named", "named", "ruleset", "setup_state"]
