"""The AI's search pauses while the bot's players click (issue 42: the AI's thinking must not slow other games'
answers): its clock waits while the bot says its players are clicking, at most ``PAUSE_AT_MOST_S`` in all for one
decision, and its answer is the one it gives unpaused (its budget is CPU time and a work allowance)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from app.ai import AiPlayers
from app.ai_think import PAUSE_AT_MOST_S, SEARCHING
from app.service import GameService
from app.store import Store
from engine import new_game

BUDGET_MS = 400.0  # a search of a few hundred milliseconds of CPU at most


@pytest.mark.skipif(sys.platform != "linux", reason="the pool's fork server, as on the bot's host")
async def test_the_search_waits_while_players_click_and_answers_the_same(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "ai.sqlite3")
    ai = AiPlayers(GameService(store))
    try:
        game = new_game(6, seed=3)
        prompt = game.prompts()[0]
        unpaused = await ai.think(SEARCHING, game, prompt, BUDGET_MS)  # also starts and warms the worker

        ai.players_clicking(True)
        paused = asyncio.ensure_future(ai.think(SEARCHING, game, prompt, BUDGET_MS))
        await asyncio.sleep(PAUSE_AT_MOST_S / 3)
        assert not paused.done(), "the search went on while the players were clicking"
        ai.players_clicking(False)
        assert await asyncio.wait_for(paused, 60) == unpaused

        # Players who never stop clicking delay a decision by PAUSE_AT_MOST_S at most, and never starve it.
        ai.players_clicking(True)
        began = asyncio.get_running_loop().time()
        assert await asyncio.wait_for(ai.think(SEARCHING, game, prompt, BUDGET_MS), 60) == unpaused
        assert asyncio.get_running_loop().time() - began >= PAUSE_AT_MOST_S * 0.9
    finally:
        ai.close()
        await store.close()
