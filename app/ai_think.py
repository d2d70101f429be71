"""What an agent answers, worked out in a worker process of the AI's pool (``app/ai.py``): a module-level function of
plain, picklable data that imports the engine only, so the pool's workers load nothing of the bot.

The agent is handed what a player has: its house's view and the prompt (engine/agents.py's contract), never the
game's state."""

from __future__ import annotations

import time
from multiprocessing.synchronize import Event
from typing import Any

from engine.agents import Agent, HeuristicAgent
from engine.prompts import Prompt
from engine.search_agent import SearchAgent

SEARCHING = "ai"  # the searching agent (engine/search_agent.py)
SIMPLE = "simple"  # the heuristic agent (engine/agents.py)
PAUSE_AT_MOST_S = 3.0  # a decision's search pauses this long in all at most, even if the players still click

# Set while the bot's players are not clicking (``AiPlayers.players_clicking``): a search reads its clock every few
# engine steps, and waits there while it is clear. Its budget is CPU time and a work allowance, so a pause changes
# when its answer comes, never the answer.
_not_clicking: Event | None = None
_pause_left = PAUSE_AT_MOST_S  # of the decision worked out now


def clock() -> float:
    """The search's CPU clock, which first waits while the bot's players are clicking (``PAUSE_AT_MOST_S`` in all
    for one decision, so that a steady stream of clicks does not starve the AI)."""
    global _pause_left
    if _not_clicking is not None and _pause_left > 0 and not _not_clicking.is_set():
        began = time.monotonic()
        _not_clicking.wait(_pause_left)
        _pause_left -= time.monotonic() - began
    return time.process_time()


def agent(kind: str, seed: int, budget_ms: float) -> Agent:
    """The agent a game's setting names: ``ai`` searches within ``budget_ms`` of CPU time, ``simple`` does not."""
    if kind == SEARCHING:
        return SearchAgent(seed, budget_ms=budget_ms, clock=clock)
    return HeuristicAgent(seed)


def think(kind: str, prompt: Prompt, view: dict[str, Any], seed: int, budget_ms: float) -> Any:
    """The answer of the agent ``kind`` to ``prompt``, seeing ``view`` (its house's) only."""
    global _pause_left
    _pause_left = PAUSE_AT_MOST_S
    return agent(kind, seed, budget_ms).answer(prompt, view)


def warm(not_clicking: Event | None = None) -> None:
    """A worker's warm-up: the engine's tables are loaded before its first decision; ``not_clicking``: the bot's
    signal that its players are not clicking now."""
    global _not_clicking
    _not_clicking = not_clicking
    from engine import data

    data.board()
    data.house_cards()
