"""The queue of commands between a gateway and its workers, on PostgreSQL (``command_queue``, revision 0011).

A gateway enqueues a player's answer and waits for its outcome; any number of workers claim commands with
``FOR UPDATE SKIP LOCKED`` and apply them with the game service. A game's commands are applied in the order they were
enqueued (a command is claimed only when no earlier command of its game is pending) and different games' in parallel.
The claim is a transaction held while the command is applied: a worker that dies lets go of it and another applies it,
and the command's idempotency key makes that second application harmless (the answer is recorded once). The outcome
is written in the claim's transaction and announced with ``NOTIFY``; a gateway that missed the notification reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any

from app.commands import Answer
from app.database import Listener, PostgresDatabase, notify_sql
from app.lru import Bounded
from app.queries import ServiceError
from app.service import GameService
from app.store import Source, Store
from engine import RuleError

log = logging.getLogger("westeros.queue")

# NOTIFY channels, each the base name of the deployment's own (``channel_in`` its schema; ``notify_sql`` sends on it)
QUEUED = "westeros_queue"  # a command was enqueued
OUTBOX = "westeros_outbox"  # a process committed something to publish
DONE = "westeros_done"  # a command's outcome, as JSON {"id": ..., "outcome": ..., "schema": ...}
POLL_S = 0.5  # how often a waiting side looks at the table itself, in case a notification was missed
OUTCOME_TIMEOUT_S = 600.0  # how long a gateway waits for a command's outcome (Discord's token lasts 15 minutes)
KEEP_OUTCOMES_S = 3600.0  # a command done this long ago leaves the table (its gateway read the outcome long before)
PRUNE_EVERY_S = 300.0

CLAIM = (
    "SELECT id, game_id, payload FROM command_queue q WHERE done_at IS NULL AND NOT EXISTS ("
    "SELECT 1 FROM command_queue p WHERE p.game_id = q.game_id AND p.done_at IS NULL AND p.id < q.id)"
    " ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED"
)


class CommandFailed(Exception):
    """A worker could not apply the command (its database failed, or a bug): nothing was recorded."""


def payload_of(command: Answer) -> str:
    return json.dumps({"type": "answer", **asdict(command)})


def command_of(payload: str) -> Answer:
    fields = json.loads(payload)
    if fields.pop("type") != "answer":
        raise ValueError("the queue holds answers only")
    fields["source"] = Source(fields["source"])
    return Answer(**fields)


def outcome_of(error: BaseException | None) -> dict[str, Any]:
    """What the gateway is told: done, or the refusal to raise there in the player's language."""
    if error is None:
        return {"ok": True}
    if isinstance(error, ServiceError | RuleError):
        kind = "service" if isinstance(error, ServiceError) else "rule"
        return {"refused": kind, "code": error.code, "message": error.message, "params": error.params}
    return {"failed": type(error).__name__}


def raise_outcome(outcome: dict[str, Any]) -> None:
    if outcome.get("ok"):
        return
    refused = outcome.get("refused")
    if refused == "service":
        raise ServiceError(outcome["code"], outcome["message"], **outcome["params"])
    if refused == "rule":
        raise RuleError(outcome["code"], outcome["message"], **outcome["params"])
    raise CommandFailed(f"a worker could not apply the command ({outcome.get('failed')})")


class CommandQueue:
    def __init__(self, db: PostgresDatabase) -> None:
        self.db = db

    async def enqueue(self, command: Answer) -> int:
        row = await self.db.fetchone(
            "WITH queued AS (INSERT INTO command_queue (game_id, payload, enqueued_at) VALUES (?, ?, ?) RETURNING id)"
            f" SELECT id, {notify_sql()} FROM queued",
            (command.game_id, payload_of(command), time.time(), QUEUED),
        )
        assert row is not None
        return int(row[0])

    async def outcome(self, queue_id: int) -> dict[str, Any] | None:
        row = await self.db.fetchone(
            "SELECT outcome FROM command_queue WHERE id = ? AND done_at IS NOT NULL", (queue_id,)
        )
        return json.loads(row[0]) if row is not None else None

    async def apply_next(self, apply: Callable[[Answer], Awaitable[None]]) -> bool:
        """Claim the next command whose game has no earlier one pending, apply it, record its outcome and announce
        it, all in the claim's transaction; False when none is waiting."""
        async with self.db.transaction() as session:
            row = await session.fetchone(CLAIM)
            if row is None:
                return False
            queue_id, payload = int(row[0]), str(row[2])
            error: BaseException | None = None
            try:
                await apply(command_of(payload))
            except ServiceError as err:
                # The same command applied before (its worker died before recording the outcome): it is recorded.
                error = None if err.code == "already-done" else err
            except (RuleError, ValueError, TypeError, KeyError) as err:
                error = err
            except Exception as err:  # the database, a bug: nothing was recorded, and the gateway says so
                log.exception("command %s of game %s failed", queue_id, row[1])
                error = err
            outcome = outcome_of(error)
            await session.execute(
                "UPDATE command_queue SET done_at = ?, outcome = ? WHERE id = ?",
                (time.time(), json.dumps(outcome), queue_id),
            )
            # The schema names whose command it is: one database may hold several deployments' schemas (the tests'
            # do), and a channel is the database's, so a gateway must not take another schema's outcome for its own.
            await session.execute(
                "SELECT "
                + notify_sql(
                    "json_build_object('id', ?::bigint, 'outcome', ?::json, 'schema', current_schema())::text"
                ),
                (DONE, queue_id, json.dumps(outcome)),
            )
        return True

    async def schema(self) -> str:
        """The schema the queue lives in (the connection's ``search_path``)."""
        row = await self.db.fetchone("SELECT current_schema()")
        return str(row[0]) if row is not None else ""

    async def abandon(self, queue_id: int) -> dict[str, Any] | None:
        """Give up a command no worker has applied: it will never be (None). If a worker is applying it, this waits
        for that worker's transaction, and returns the outcome it recorded."""
        gave_up = await self.db.execute(
            "UPDATE command_queue SET done_at = ?, outcome = ? WHERE id = ? AND done_at IS NULL",
            (time.time(), json.dumps({"failed": "abandoned"}), queue_id),
        )
        return None if gave_up == 1 else await self.outcome(queue_id)

    async def prune(self, older_than: float) -> int:
        """Forget the outcomes of commands done before ``older_than`` (their gateways have long had them)."""
        return await self.db.execute(
            "DELETE FROM command_queue WHERE done_at IS NOT NULL AND done_at < ?", (older_than,)
        )


class Outcomes:
    """The gateway's side: the outcome of each command it enqueued, from ``NOTIFY`` or, if that was missed, from the
    table."""

    def __init__(self, queue: CommandQueue) -> None:
        self.queue = queue
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.schema: str | None = None  # this gateway's schema, learnt before its first command is enqueued
        self.early: Bounded[int, dict[str, Any]] = Bounded(4096)  # outcomes announced before their waiter arrived
        self.listener = Listener(queue.db.url, DONE, self._announced)

    def start(self) -> None:
        self.listener.start()

    async def stop(self) -> None:
        await self.listener.stop()

    def _announced(self, payload: str) -> None:
        message = json.loads(payload)
        if message.get("schema") != self.schema:
            return  # another schema's command (or none of ours is under way yet)
        future = self.waiting.pop(int(message["id"]), None)
        if future is None:
            self.early[int(message["id"])] = message["outcome"]
        elif not future.done():
            future.set_result(message["outcome"])

    async def submit(self, command: Answer, *, timeout: float = OUTCOME_TIMEOUT_S) -> None:
        """Enqueue the command and wait for a worker to apply it; raises its refusal, or ``CommandFailed``."""
        if self.schema is None:
            self.schema = await self.queue.schema()
        queue_id = await self.queue.enqueue(command)
        outcome = self.early.pop(queue_id, None)
        if outcome is None:
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting[queue_id] = future
            outcome = await self._wait(queue_id, future, timeout)
        raise_outcome(outcome)

    async def _wait(self, queue_id: int, future: asyncio.Future[dict[str, Any]], timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(future), timeout=POLL_S * 4)
                except TimeoutError:
                    stored = await self.queue.outcome(queue_id)
                    if stored is not None:
                        return stored
                    if time.monotonic() > deadline:
                        # Never applied later behind the player's back: he is told it was not recorded.
                        applied_meanwhile = await self.queue.abandon(queue_id)
                        if applied_meanwhile is not None:
                            return applied_meanwhile
                        raise CommandFailed(f"no worker applied command {queue_id} in time") from None
        finally:
            self.waiting.pop(queue_id, None)


async def tell_publisher(db: PostgresDatabase) -> None:
    """Wake the worker that publishes: something was committed to the outbox (delivered once the caller's commit is)."""
    await db.execute(f"SELECT {notify_sql()}", (OUTBOX,))


class Workers:
    """A worker's side: ``slots`` loops applying commands, woken by ``NOTIFY``; one of them also looks every ``POLL_S``
    in case a notification was missed (an idle worker asks the database twice a second, not once per slot)."""

    def __init__(self, queue: CommandQueue, apply: Callable[[Answer], Awaitable[None]], *, slots: int = 4) -> None:
        self.queue = queue
        self.apply = apply
        self.slots = slots
        # One wake-up per command enqueued, taken by one idle slot (waking them all would make every slot ask).
        self.wakes: asyncio.Queue[None] = asyncio.Queue(maxsize=slots)
        self.listener = Listener(queue.db.url, QUEUED, lambda _: self._wake_one())
        self.tasks: list[asyncio.Task[None]] = []
        self.applied = 0
        self.pruned_at = time.monotonic()

    def start(self) -> None:
        self.listener.start()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._run(polling=slot == 0)) for slot in range(self.slots)]

    def _wake_one(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):  # every slot has a wake-up waiting already
            self.wakes.put_nowait(None)

    async def _run(self, *, polling: bool) -> None:
        while True:
            try:
                while await self.queue.apply_next(self.apply):
                    self.applied += 1
            except Exception:
                log.exception("the command queue failed; trying again")
                await asyncio.sleep(POLL_S)
            if polling:
                await self._prune_now_and_then()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wakes.get(), timeout=POLL_S)
            else:
                await self.wakes.get()

    async def _prune_now_and_then(self) -> None:
        if time.monotonic() - self.pruned_at < PRUNE_EVERY_S:
            return
        self.pruned_at = time.monotonic()
        try:
            await self.queue.prune(time.time() - KEEP_OUTCOMES_S)
        except Exception:
            log.exception("could not prune the command queue")

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.listener.stop()


class GatewayService(GameService):
    """The game service of a gateway process: a player's answer (the load of a busy server) is handed to the
    workers through the queue, and the gateway waits for its outcome before it answers the player; every other command
    (lobbies, moderators, deadlines: few) is applied here. Whatever it applies, a worker publishes from the outbox."""

    def __init__(self, store: Store, outcomes: Outcomes) -> None:
        super().__init__(store)
        self.outcomes = outcomes

    async def answer(self, command: Answer) -> None:
        await self.outcomes.submit(command)
