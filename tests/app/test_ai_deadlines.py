"""The AI with several processes (issue 42), on PostgreSQL with two stores of their own connections (two processes'
worth) and the AI's real pools: a gateway (``ai_elsewhere``, as cogs/client.py wires it) leaves the deadlines of games
the AI answers to a worker, whose answers are the searching agent's, each house once; two processes that see one
decision think about it once (its claim), and a dead holder's claim is taken over when it runs out."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from app.ai import AiPlayers, ThinkClaims, ai_seat, decision_key
from app.commands import Join, Start
from app.deadlines import Deadlines
from app.leases import take
from app.service import GameService, GameSettings
from app.store import Source, Store
from engine import Game
from engine.prompts import Prompt
from tests.app.test_deadlines import new_running_game

pytestmark = pytest.mark.slow  # the AI's pool is real worker processes

TINY_BUDGET_MS = 10
MEMBER = 100
CLAIM_S = 2.0  # the claims' life here (15 s in the bot)


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


async def ai_game(service: GameService, budget_ms: float, channel: int) -> int:
    """A game of one member (who never answers here) and two AI seats, started: the AI owes two houses' orders."""
    settings = GameSettings(players=3, seed=5, ai_seats=2, ai_budget_ms=budget_ms, autopilot="ai")
    game_id = await service.create(guild_id=1, channel_id=channel, creator=MEMBER, name="ai", settings=settings)
    await service.execute(Join(game_id=game_id, by=MEMBER))
    await service.execute(Start(game_id=game_id))
    return game_id


async def ai_orders(store: Store, game_id: int) -> list[str]:
    return sorted(a.house for a in await store.answers(game_id) if a.source == Source.AI)


@pytest.mark.several_processes
async def test_two_processes_think_about_each_decision_once_and_a_dead_holders_claim_is_taken_over(
    two: tuple[Process, Process],
) -> None:
    first, second = two
    ai_first = AiPlayers(first.service, workers=1, claim_s=CLAIM_S)
    ai_second = AiPlayers(second.service, workers=1, claim_s=CLAIM_S)
    try:
        # Both processes see the start and think at once (the commit's own and another's look, as the publishing
        # worker's): each decision is worked out by one of them, and answered once.
        game_id = await ai_game(first.service, budget_ms=300, channel=20)
        await ai_second.look(game_id)
        seats = await first.store.seats(game_id)
        ai_houses = sorted(h for h, u in seats.items() if u is None)
        await wait_until(lambda: ai_orders(first.store, game_id), ai_houses)
        await asyncio.gather(ai_first.settled(), ai_second.settled())
        assert ai_first.thought + ai_second.thought == len(ai_houses), (ai_first.thought, ai_second.thought)
        assert await ai_orders(first.store, game_id) == ai_houses
        assert not await claims_left(first.store)

        # A process that claimed a game's decisions and died (its claims stand, never renewed): the other takes each
        # decision over once the claim runs out, and answers it once.
        plain = GameService(first.store)  # a service with no AI: the game starts and nobody thinks yet
        dead = await ai_game(plain, budget_ms=10, channel=21)
        game = await plain.load(dead)
        for prompt in game.prompts():
            if ai_seat(game.state, prompt.house):
                name = ThinkClaims.name(dead, decision_key(prompt.id, None))
                assert await take(first.store.db, name, "a-dead-process", ttl=CLAIM_S) is not None
        began = time.monotonic()
        await ai_second.look(dead)
        assert await ai_orders(first.store, dead) == []  # held: nobody thinks yet
        await wait_until(lambda: ai_orders(first.store, dead), ai_houses_of(game))
        assert time.monotonic() - began >= CLAIM_S * 0.8  # taken over when the claim ran out, not before
        await ai_second.settled()
        assert await ai_orders(first.store, dead) == ai_houses_of(game)
        assert not await claims_left(first.store)

        # A holder whose decisions wait in its pool's queue (its one worker busy) longer than a claim's life renews
        # its claims: the other process still leaves the decisions alone.
        for ai in (ai_first, ai_second):
            ai.claims.ttl = 0.3
        before = (ai_first.thought, ai_second.thought)
        busy = asyncio.ensure_future(ai_first.pool.run(time.sleep, 2.0))
        slow = await ai_game(plain, budget_ms=10, channel=22)
        await ai_first.look(slow)
        await wait_until(lambda: claims_left(first.store), 2, read_as=len)  # the first holds both decisions
        await ai_second.look(slow)
        await wait_until(lambda: ai_orders(first.store, slow), ai_houses_of(await first.service.load(slow)))
        await asyncio.gather(busy, ai_first.settled(), ai_second.settled())
        assert (ai_first.thought - before[0], ai_second.thought - before[1]) == (2, 0)
        assert not await claims_left(first.store)
    finally:
        ai_first.close()
        ai_second.close()


def ai_houses_of(game: Game) -> list[str]:
    return sorted(h for h in game.state.houses if ai_seat(game.state, h))


async def claims_left(store: Store) -> list[tuple[Any, ...]]:
    return await store.db.fetchall("SELECT name, holder FROM leases WHERE name LIKE 'think:%'")


async def wait_until(
    read: Callable[[], Awaitable[Any]], wanted: Any, timeout: float = 60.0, read_as: Callable[[Any], Any] = lambda x: x
) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if read_as(await read()) == wanted:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"not reached in {timeout} s: {await read()} != {wanted}")
