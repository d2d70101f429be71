"""Views of Mother of Dragons games with Targaryen (the board with Essos), from the engine: the setup and positions
of a game played by the engine's heuristic agents, for the renderer's tests and bench/render.py (which also asks
other rulesets and player counts)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from engine import new_game
from engine.sim import play_game

View = dict[str, Any]


def setup_view(players: int | list[str] = 8, seed: int = 1, ruleset: str = "mother-of-dragons") -> View:
    """The public view at the start of a game (Targaryen plays with 8 houses, or when named)."""
    view: View = new_game(players, seed=seed, options={"ruleset": ruleset}).view(None)
    return view


@cache
def _played(players: int, seed: int, ruleset: str) -> dict[str, View]:
    found: dict[str, View] = {}

    def keep(g: Any, prompt: Any, events: Any) -> None:
        s = g.state
        if s.round < 3:
            return
        if "midgame" not in found and s.phase == "action":
            view = g.view(None)
            if any(st.get("order") and not st["order"].get("hidden") for st in view["areas"].values() if st):
                found["midgame"] = view
        if "battle" not in found:
            view = g.view(None)
            battle = view.get("battle")
            if battle and battle.get("winner") is None and (battle.get("cards") or {}).get("attacker"):
                found["battle"] = view

    play_game(players, seed, "heuristic", options={"ruleset": ruleset}, check_invariants=False, on_step=keep)
    return found


def midgame_view(players: int = 8, seed: int = 5, ruleset: str = "mother-of-dragons") -> View:
    """A position of round 3 or later in the Action phase, its orders revealed."""
    return copy.deepcopy(_played(players, seed, ruleset)["midgame"])


def battle_view(players: int = 8, seed: int = 5, ruleset: str = "mother-of-dragons") -> View:
    """A battle under way, both house cards revealed."""
    return copy.deepcopy(_played(players, seed, ruleset)["battle"])
