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

On PostgreSQL several processes see the same versions (the worker that committed one and the one that publishes it),
so one decision is thought about by one process at a time: before it thinks, a process claims the decision
(``ThinkClaims``: a row ``think:<game>:<key>`` of the ``leases`` table, with the time it runs out), renews the claim
while it thinks and deletes it once it submitted or failed. Another process that finds the claim held looks at the game
again when the claim would run out: by then the holder answered, or it died and its claim ran out, and the decision is
taken over. SQLite, or the one-process bot on PostgreSQL, is one process: its own set of decisions worked out is
enough.

A scenario import (a repair) numbers the engine's frames afresh, so a prompt id may come again after one: the key then
carries the version of the game's last repair (``ai:r<version>:<prompt id>``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

from app.ai_think import SEARCHING, SIMPLE, think, warm
from app.background import ImagePool, PoolBusy
from app.commands import Answer
from app.config import AI_NICENESS
from app.decisions import only_answer
from app.leases import Lease, current, process_holder, process_info, renew, take
from app.queries import REPAIR, GameSettings, ServiceError
from app.service import Applied, GameService
from app.store import GameStatus, Source
from engine import Game, RuleError, rules
from engine.prompts import Prompt
from engine.state import GameState

log = logging.getLogger("westeros.ai")

POOL_START = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"  # ImagePool's
QUEUE = 64  # decisions waiting for a worker at most; beyond, the next commit or start-up (or the deadline) answers
TASKS_PER_WORKER = 200  # a worker is replaced after this many decisions, so its memory stays bounded
RETRY_S = 10.0  # a decision the AI could not answer (its queue full, an error) is looked at again this much later
CLAIM_S = 15.0  # a process's claim on a decision runs out this long after its last renewal (a third of it, while alive)
CLAIM_PREFIX = "think:"  # the leases table's rows that are claims on decisions
CLAIM_GRACE_S = 0.5  # a process that found a decision claimed looks again this long after the claim would run out

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


class ThinkClaims:
    """Which process thinks about which decision, on PostgreSQL: rows of the ``leases`` table (app/leases.py) named
    ``think:<game>:<decision key>``, taken for ``ttl`` seconds and renewed while the holder thinks, then deleted. A
    holder that dies lets go when its claim runs out. A store no other process writes (SQLite, or the one-process bot
    on PostgreSQL) grants every claim at once: the process's own set of decisions worked out is enough there."""

    def __init__(self, service: GameService, *, ttl: float = CLAIM_S) -> None:
        self.db = service.store.db
        self.shared = service.store.shared  # several processes on one PostgreSQL database (the one-process bot: no)
        self.ttl = ttl
        self.holder = process_holder()
        self.info = process_info("ai")

    @staticmethod
    def name(game_id: int, key: str) -> str:
        return f"{CLAIM_PREFIX}{game_id}:{key}"

    async def take(self, game_id: int, key: str) -> Lease | None:
        """The claim on the decision, or None while another live process holds it."""
        name = self.name(game_id, key)
        if not self.shared:
            return Lease(name, self.holder, 1, float("inf"))
        return await take(self.db, name, self.holder, ttl=self.ttl, info=self.info)

    async def runs_out_in(self, game_id: int, key: str) -> float:
        """Seconds until another's claim on the decision runs out (0 if there is none)."""
        held = await current(self.db, self.name(game_id, key))
        return max(0.0, held.expires_at - time.time()) if held is not None else 0.0

    @contextlib.asynccontextmanager
    async def holding(self, claim: Lease) -> AsyncIterator[None]:
        """Keep ``claim`` renewed while the body runs; delete it after, whatever happened (and the stale claims of
        processes that died, which nobody took over)."""
        if not self.shared:
            yield
            return
        renewing = asyncio.get_running_loop().create_task(self._renew(claim))
        try:
            yield
        finally:
            renewing.cancel()
            await asyncio.wait([renewing])  # its end, without swallowing a cancellation of this task
            try:
                await self.db.execute(
                    "DELETE FROM leases WHERE (name = ? AND holder = ?) OR (substr(name, 1, ?) = ? AND expires_at < ?)",
                    (claim.name, self.holder, len(CLAIM_PREFIX), CLAIM_PREFIX, time.time() - self.ttl),
                )
            except Exception:  # the claim runs out by itself
                log.warning("the claim %s was not released", claim.name, exc_info=True)

    async def _renew(self, claim: Lease) -> None:
        held: Lease | None = claim
        while held is not None:
            await asyncio.sleep(self.ttl / 3)
            try:
                held = await renew(self.db, held, ttl=self.ttl)
            except Exception:  # the database away a moment: the next renewal tries again
                log.warning("the claim %s was not renewed", claim.name, exc_info=True)
                continue
            if held is None:  # another took it over (this process stalled past the claim): its answer or ours, once
                log.warning("the claim %s was taken over by another process", claim.name)


class AiPlayers:
    """Answers the decisions of the houses the agent plays; ``workers`` processes think (started on first use)."""

    def __init__(
        self,
        service: GameService,
        *,
        workers: int = 1,
        pool: ImagePool | None = None,
        claim_s: float = CLAIM_S,
        niceness: int = AI_NICENESS,
    ) -> None:
        self.service = service
        self.claims = ThinkClaims(service, ttl=claim_s)
        # No fork-server preload: it is one per process, the image pool's (``render``); each worker imports the engine.
        # Set while the bot's players are not clicking: the pool's searches pause while it is clear (app/ai_think.py).
        self.not_clicking = multiprocessing.get_context(POOL_START).Event()
        self.not_clicking.set()
        self.pool = pool or ImagePool(
            workers,
            queue=QUEUE,
            initializer=functools.partial(warm, self.not_clicking),
            tasks_per_worker=TASKS_PER_WORKER,
            niceness=niceness,
        )
        self._thinking: set[tuple[int, str]] = set()  # (game, prompt id) worked out now in this process
        self._tasks: set[asyncio.Task[None]] = set()
        self.answered = 0  # decisions this process answered (tests and benches)
        self.thought = 0  # decisions this process worked out in its pool, answered or not (tests and benches)
        self.retry_s = RETRY_S
        # Waits until players' clicks are served (the bot's acknowledgement lanes, cogs/acks.py; None: never waits):
        # the AI starts thinking, and submits, after a burst of answers rather than in its midst.
        self.after_clicks: Callable[[], Awaitable[None]] | None = None
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
        # The agent plays a house (or a vassal) only for a house on autopilot: a game with none, the commonest, owes
        # it nothing, and its prompts are not worked out for it.
        if not any(held.autopilot for held in game.state.houses.values()):
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
            await self._after_clicks()
            row = await self.service.row(game_id)
            if row.status != GameStatus.RUNNING:
                return  # paused: the resume's notice looks again
            repaired_at = await self._repaired_at(game_id)
            key = decision_key(prompt.id, repaired_at)
            if await self.service.store.command_recorded(game_id, key):
                return
            claim = await self.claims.take(game_id, key)
            if claim is None:  # another process thinks about it: look again when its claim would run out
                again = await self.claims.runs_out_in(game_id, key) + CLAIM_GRACE_S
            else:
                async with self.claims.holding(claim):
                    again = await self._answer(game_id, game, prompt, key, repaired_at, row.settings)
        except PoolBusy:
            log.warning("game %s: the AI's queue is full; %s is looked at again later", game_id, prompt.id)
            again = self.retry_s
        except Exception:
            log.exception("game %s: the AI could not answer %s; it is looked at again later", game_id, prompt.id)
            again = self.retry_s
        finally:
            self._thinking.discard(tag)
        # A repair replaced the position (at once), another process holds the decision (when its claim would run out),
        # or the work failed (after a while).
        if again is not None:
            await self.look(game_id, after=again)

    async def _answer(
        self, game_id: int, game: Game, prompt: Prompt, key: str, repaired_at: int | None, settings: dict[str, Any]
    ) -> float | None:
        """Think and submit, holding the decision's claim; when to look at the game again (None: no need)."""
        if await self.service.store.command_recorded(game_id, key):
            return None  # the claim's holder before this process answered it and let go
        answer = await self.think(SEARCHING, game, prompt, GameSettings.from_dict(settings).ai_budget_ms)
        self.thought += 1
        await self._after_clicks()
        if await self._repaired_at(game_id) != repaired_at:
            return 0.0  # a repair replaced the position it thought about (its prompt ids may come again)
        if await self.submit(game_id, prompt, answer, key):
            self.answered += 1
        return None

    def players_clicking(self, clicking: bool) -> None:
        """The bot's acknowledgement lanes (cogs/acks.py) say its players started or stopped clicking: the AI's
        searches pause meanwhile, so that they do not take the CPU that acknowledges and answers them."""
        if clicking:
            self.not_clicking.clear()
        else:
            self.not_clicking.set()

    async def _after_clicks(self) -> None:
        if self.after_clicks is not None:
            await self.after_clicks()

    async def submit(self, game_id: int, prompt: Prompt, answer: Any, key: str) -> bool:
        """The agent's answer on the one path (its default if the rules refuse it); False if it was not needed."""

        command = Answer(game_id=game_id, house=prompt.house, answer=answer, prompt_id=prompt.id, source=Source.AI,
                         only_if_unanswered=True, key=key)  # fmt: skip
        try:
            await self.service.execute_or_default(command, prompt.default)
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

    @property
    def busy(self) -> int:
        """The decisions this process is working out now (tests and benches)."""
        return len(self._thinking)

    async def settled(self) -> None:
        """Wait until nothing is being worked out (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close(self) -> None:
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        self.pool.close()
