"""What an agent answers, worked out in a worker process of the AI's pool (``app/ai.py``): a module-level function of
plain, picklable data that imports the engine only, so the pool's workers load nothing of the bot.

The agent is handed what a player has: its house's view and the prompt (engine/agents.py's contract), never the
game's state."""

from __future__ import annotations

from typing import Any

from engine.agents import Agent, HeuristicAgent
from engine.prompts import Prompt
from engine.search_agent import SearchAgent

SEARCHING = "ai"  # the searching agent (engine/search_agent.py)
SIMPLE = "simple"  # the heuristic agent (engine/agents.py)


def agent(kind: str, seed: int, budget_ms: float) -> Agent:
    """The agent a game's setting names: ``ai`` searches within ``budget_ms`` of CPU time, ``simple`` does not."""
    if kind == SEARCHING:
        return SearchAgent(seed, budget_ms=budget_ms)
    return HeuristicAgent(seed)


def think(kind: str, prompt: Prompt, view: dict[str, Any], seed: int, budget_ms: float) -> Any:
    """The answer of the agent ``kind`` to ``prompt``, seeing ``view`` (its house's) only."""
    return agent(kind, seed, budget_ms).answer(prompt, view)


def warm() -> None:
    """A worker's warm-up: the engine's tables are loaded before its first decision."""
    from engine import data

    data.board()
    data.house_cards()
