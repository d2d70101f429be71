"""The agent at the table (issue 42): a house the agent plays answers its open decisions by itself, without waiting
for a deadline.

A house is *played by the agent* when its ``HouseState.autopilot`` is set (a vassal's decisions: when its liege's is):
an **AI seat** (a house with no member, filled by the lobby's Add AI or ``/game new ai_seats``), a house handed to the
agent (``/mod replace ai:true``), or a member's house under ``/mod autopilot``. After every committed version of a
running game (``GameService.subscribe``), when notices of a game are written (a resume, say), and at start-up for every
running game, each of its open decisions that such a house owes, unanswered and with a real choice, is worked out
**off the event loop** in a pool of worker processes of its own (bounded: ``AI_WORKERS`` processes at a lower CPU
priority, a bounded queue), within the game's budget (``ai_budget_ms``, 2 s of CPU by default), and submitted on the
one path every answer takes (``GameService.execute(Answer(...))``, source ``ai``) with the idempotency key
``ai:<prompt id>``. The commit refuses a second command with that key, and an answer for a decision already answered
(``only_if_unanswered``), so a retry, two processes noticing the same version, or a restart after a crash at any point
answers each decision once; and since every committed version and every start-up looks again, none is skipped.

The agent is handed its house's view and the prompt only, as engine/agents.py's agents are (``app/ai_think.py``).

A scenario import (a repair) numbers the engine's frames afresh, so a prompt id may come again after one: the key then
carries the version of the game's last repair (``ai:r<version>:<prompt id>``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from app.ai_think import SEARCHING, SIMPLE, think, warm
from app.background import ImagePool, PoolBusy
from app.commands import Answer
from app.decisions import only_answer
from app.queries import REPAIR, GameSettings, ServiceError
from app.service import Applied, GameService
from app.store import GameStatus, Source
from engine import Game, RuleError, rules
from engine.prompts import Prompt
from engine.state import GameState

log = logging.getLogger("westeros.ai")

QUEUE = 64  # decisions waiting for a worker at most; beyond, the next commit or start-up (or the deadline) answers
TASKS_PER_WORKER = 200  # a worker is replaced after this many decisions, so its memory stays bounded
RETRY_S = 10.0  # a decision the AI could not answer (its queue full, an error) is looked at again this much later

# (agent kind, game, prompt, budget ms) -> the agent's answer, worked out off the event loop (the deadlines' autopilot)
Think = Callable[[str, Game, Prompt, float], Awaitable[Any]]


def played_by_agent(state: GameState, house: str) -> bool:
    """Whether the agent answers ``house``'s decisions (a vassal's: its liege's house)."""
    held = state.houses.get(rules.commander(state, house))
    return held is not None and held.autopilot


def ai_seat(state: GameState, house: str) -> bool:
    """An AI seat: a house the agent plays with no member behind it."""
    held = state.houses.get(house)
    return held is not None and held.autopilot and held.seat is None


def decision_key(prompt_id: str, repaired_at: int | None) -> str:
    return f"ai:{prompt_id}" if not repaired_at else f"ai:r{repaired_at}:{prompt_id}"


class AiPlayers:
    """Answers the decisions of the houses the agent plays; ``workers`` processes think (started on first use)."""

    def __init__(self, service: GameService, *, workers: int = 1, pool: ImagePool | None = None) -> None:
        self.service = service
        # No fork-server preload: it is one per process, the image pool's (``render``); each worker imports the engine.
        self.pool = pool or ImagePool(workers, queue=QUEUE, initializer=warm, tasks_per_worker=TASKS_PER_WORKER)
        self._thinking: set[tuple[int, str]] = set()  # (game, prompt id) worked out now in this process
        self._tasks: set[asyncio.Task[None]] = set()
        self.answered = 0  # decisions this process answered (tests and benches)
        self.retry_s = RETRY_S
        self.closed = False
        service.subscribe(self.on_applied)
        service.subscribe_notices(self.on_notices)

    # ----- when to look -----

    async def on_applied(self, applied: Applied) -> None:
        self.consider(applied.game_id, applied.game)

    def on_notices(self, game_id: int) -> None:
        self._spawn(self.look(game_id))

    async def look(self, game_id: int, *, after: float = 0.0) -> None:
        """Look at a game as it stands now (a resume, a start-up), or ``after`` seconds from now."""
        if after:
            await asyncio.sleep(after)
        try:
            row = await self.service.row(game_id)
            if row.status == GameStatus.RUNNING and row.broken_reason is None:
                self.consider(game_id, await self.service.load(game_id))
        except ServiceError as err:
            log.info("game %s was not looked at: %s", game_id, err.message)

    async def restore(self) -> None:
        """At start-up: every running game's decisions the agent owes (a crash may have left them unanswered)."""
        for row in await self.service.store.active_games():
            await self.look(row.id)

    def consider(self, game_id: int, game: Game) -> None:
        """Start working out each open decision of ``game`` the agent owes (once per decision in this process)."""
        if self.closed or game.finished:
            return
        for prompt in game.prompts():
            if prompt.answered or not played_by_agent(game.state, prompt.house) or only_answer(prompt) is not None:
                continue  # a single answer is given by the service itself (``answer_forced``)
            tag = (game_id, prompt.id)
            if tag not in self._thinking:
                self._thinking.add(tag)
                self._spawn(self._play(game_id, game, prompt, tag))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self.closed:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- thinking and answering -----

    async def think(self, kind: str, game: Game, prompt: Prompt, budget_ms: float) -> Any:
        """The answer of the agent ``kind`` (``ai`` or ``simple``) to ``prompt``, seeing its house's view only,
        worked out in the pool (``PoolBusy`` when its queue is full)."""
        seed = game.state.seed + game.version
        return await self.pool.run(think, kind, prompt, game.view(prompt.house), seed, budget_ms)

    async def _play(self, game_id: int, game: Game, prompt: Prompt, tag: tuple[int, str]) -> None:
        again: float | None = None  # look at the game again, this many seconds from now
        try:
            row = await self.service.row(game_id)
            if row.status != GameStatus.RUNNING:
                return  # paused: the resume's notice looks again
            repaired_at = await self._repaired_at(game_id)
            key = decision_key(prompt.id, repaired_at)
            if await self.service.store.command_recorded(game_id, key):
                return
            budget = GameSettings.from_dict(row.settings).ai_budget_ms
            answer = await self.think(SEARCHING, game, prompt, budget)
            if await self._repaired_at(game_id) != repaired_at:
                again = 0.0  # a repair replaced the position it thought about (its prompt ids may come again)
            elif await self.submit(game_id, prompt, answer, key):
                self.answered += 1
        except PoolBusy:
            log.warning("game %s: the AI's queue is full; %s is looked at again later", game_id, prompt.id)
            again = self.retry_s
        except Exception:
            log.exception("game %s: the AI could not answer %s; it is looked at again later", game_id, prompt.id)
            again = self.retry_s
        finally:
            self._thinking.discard(tag)
        if again is not None:  # a repair replaced the position (at once), or the work failed (after a while)
            await self.look(game_id, after=again)

    async def submit(self, game_id: int, prompt: Prompt, answer: Any, key: str) -> bool:
        """The agent's answer on the one path (its default if the rules refuse it); False if it was not needed."""

        def command(given: Any) -> Answer:
            return Answer(game_id=game_id, house=prompt.house, answer=given, prompt_id=prompt.id, source=Source.AI,
                          only_if_unanswered=True, key=key)  # fmt: skip

        try:
            try:
                await self.service.execute(command(answer))
            except RuleError:
                if answer == prompt.default:
                    raise
                await self.service.execute(command(prompt.default))
        except (ServiceError, RuleError) as err:
            # Answered already (a retry, another process), the step moved on, or the game paused or ended.
            log.info("game %s: the AI's answer to %s was not needed: %s", game_id, prompt.id, err)
            return False
        return True

    async def _repaired_at(self, game_id: int) -> int | None:
        row = await self.service.store.db.fetchone(
            "SELECT MAX(version) FROM answers WHERE game_id = ? AND prompt_id = ?", (game_id, REPAIR)
        )
        return int(row[0]) if row is not None and row[0] is not None else None

    # ----- the deadlines' autopilot -----

    async def autopilot(self, kind: str, game: Game, prompt: Prompt, budget_ms: float) -> Any:
        """The deadline's answer for an absent player (``Deadlines.think``)."""
        return await self.think(SEARCHING if kind == SEARCHING else SIMPLE, game, prompt, budget_ms)

    async def settled(self) -> None:
        """Wait until nothing is being worked out (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close(self) -> None:
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        self.pool.close()
