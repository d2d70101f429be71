"""The AI at a deadline (issue 42), on real stores with the AI's real pool: a gateway (``ai_elsewhere``, as
cogs/client.py wires it) leaves the deadlines of games the AI answers to a worker, whose answers are the searching
agent's, each house once."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from app.ai import AiPlayers
from app.deadlines import Deadlines
from app.service import GameService
from app.store import Source, Store
from engine import Game
from engine.prompts import Prompt
from tests.app.test_deadlines import new_running_game

pytestmark = pytest.mark.slow  # the AI's pool is real worker processes

TINY_BUDGET_MS = 10


class Process:
    """What one process of the bot holds for deadlines: its store (its own connections), service, scheduler."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.service = GameService(store)
        self.scheduler = AsyncIOScheduler()
        self.scheduler.start()

    async def close(self) -> None:
        self.scheduler.shutdown(wait=False)
        await self.store.close()


@pytest.fixture
async def two(database: Path | str) -> AsyncIterator[tuple[Process, Process]]:
    first = Process(await Store.open(database, shared=True))
    second = Process(await Store.open(database, shared=True))
    yield first, second
    await first.close()
    await second.close()


class Kinds:
    """The agents the worker's deadlines asked for, then the AI's real pool's answer."""

    def __init__(self, ai: AiPlayers) -> None:
        self.ai = ai
        self.asked: list[str] = []

    async def __call__(self, kind: str, game: Game, prompt: Prompt, budget_ms: float) -> Any:
        self.asked.append(kind)
        return await self.ai.autopilot(kind, game, prompt, budget_ms)


async def overdue(process: Process, game_id: int) -> None:
    await process.store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() - 1, game_id))
    process.store.deadline_cache.clear()


@pytest.mark.several_processes
async def test_a_gateway_leaves_an_ai_games_deadline_to_a_worker_that_answers_with_the_searching_agent(
    two: tuple[Process, Process],
) -> None:
    gateway_side, worker_side = two
    gateway = Deadlines(gateway_side.service, gateway_side.scheduler, ai_elsewhere=True)
    worker = Deadlines(worker_side.service, worker_side.scheduler)
    ai = AiPlayers(worker_side.service, workers=1)
    kinds = Kinds(ai)
    worker.think = kinds
    try:
        smart = await new_running_game(gateway_side.service, autopilot="ai", ai_budget_ms=TINY_BUDGET_MS)
        simple = await new_running_game(gateway_side.service, channel=2, autopilot="simple")
        for game_id in (smart, simple):
            await overdue(gateway_side, game_id)

        # The gateway's sweep, its timer and a moderator's force there fire the simple agent's game, not the AI's.
        assert await gateway.sweep() == 1
        assert {a.source for a in await gateway_side.store.answers(simple)} == {Source.DEADLINE}
        row = await gateway.table.get(smart)
        assert row is not None
        assert await gateway.when_due(smart, row.step_key, row.due_at) == []
        assert await gateway_side.store.answers(smart) == []
        assert await gateway.sweep() == 0 and await gateway_side.store.answers(smart) == []

        # The worker's sweep fires it: every house once, each answer the searching agent's.
        assert await worker.sweep() == 1
        answers = await worker_side.store.answers(smart)
        houses = sorted((await worker_side.service.load(smart)).state.players)
        assert sorted(a.house for a in answers if a.source == Source.DEADLINE) == houses
        assert kinds.asked == ["ai"] * len(houses)
        assert await gateway.sweep() == 0 and await worker.sweep() == 0

        # The next step: a moderator's force at the gateway makes it due now, and the worker answers it.
        game = await gateway_side.service.load(smart)
        awaited = sorted(p.house for p in game.prompts() if not p.answered)
        assert awaited and not game.finished
        assert await gateway.force(smart) == awaited
        assert await gateway_side.store.answers(smart) == answers
        assert await worker.sweep() == 1
        assert len(await worker_side.store.answers(smart)) > len(answers)
        assert set(kinds.asked) == {"ai"}
    finally:
        ai.close()
