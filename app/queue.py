"""The queue of commands between a gateway and its workers, on PostgreSQL (``command_queue``, revision 0011).

A gateway enqueues a player's answer and waits for its outcome; any number of workers claim commands with
``FOR UPDATE SKIP LOCKED`` and apply them with the game service. A game's commands are applied in the order they were
enqueued (a command is claimed only when no earlier command of its game is pending) and different games' in parallel.
The claim is a transaction held while its commands (every one waiting, up to the worker's free slots, one per game) are
applied: a worker that dies lets go of it and another applies them, and each command's idempotency key makes that
second application harmless (the answer is recorded once). The outcomes are written in the claim's transaction and
announced with ``NOTIFY``; a gateway that missed the notification reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, fields
from typing import Any, TypeVar

from app.batched import Batched
from app.commands import Answer
from app.database import PostgresDatabase, is_connection_lost, notify_sql
from app.leases import process_holder
from app.listen import Listener
from app.lru import Bounded
from app.queries import ServiceError
from app.service import GameService
from app.store import Source, Store
from engine import RuleError

log = logging.getLogger("westeros.queue")

# NOTIFY channels, each the base name of the deployment's own (``channel_in`` its schema; ``notify_sql`` sends on it)
QUEUED = "westeros_queue"  # a command was enqueued
OUTBOX = "westeros_outbox"  # a process committed something to publish (revision 0019's trigger on the outbox)
DONE = "westeros_done"  # a command's outcome, as JSON {"id": ..., "outcome": ..., "schema": ...}
POLL_S = 0.5  # how often a waiting side looks at the table itself, in case a notification was missed
# A worker looks every POLL_S only while commands flow (while it applies some, and for ACTIVE_S after it last wrote
# their outcomes or heard of a command): the case those looks are for belongs to a burst (a command queued behind its
# game's earlier one while that one's outcome was written: the two statements crossed, and nobody was woken). An idle
# worker looks every IDLE_POLL_S, the net under a listening connection dead without a word (each reconnection wakes
# it): two idle workers made 16 round trips a second, forever.
ACTIVE_S = 2.0
IDLE_POLL_S = 5.0
# How often a gateway waiting for an outcome reads it from the table unasked: its listener announces every outcome, and
# each of its reconnections makes every waiter read its own once (what was announced meanwhile is lost); this is the
# net under both, for a listening connection that died without a word.
OUTCOME_POLL_S = 10.0
OUTCOME_TIMEOUT_S = 600.0  # how long a gateway waits for a command's outcome (Discord's token lasts 15 minutes)
KEEP_OUTCOMES_S = 3600.0  # a command done this long ago leaves the table (its gateway read the outcome long before)
PRUNE_EVERY_S = 300.0
KEEP_UNTOLD_S = 7 * 86400.0  # an outcome its gateway never told (it was down) waits this long for it to come back
RETRY_FIRST_S, RETRY_MAX_S = 0.2, 5.0  # a waiting side's backoff while its database connection is down
APPLY_TRIES = 3  # a worker applies a command this often while its database connections drop under it
TOKEN_LIFE_S = 14 * 60.0  # an interaction's token lasts 15 minutes: a minute's margin for the edit itself
UNTOLD_SWEEP_S = 30.0  # how often a running gateway looks for outcomes recorded after it stopped waiting for them
TOLD_BATCH_S = 0.05  # players told within this much of each other are marked told in one statement
CLAIMED_KEYS = 16384  # the commands a gateway remembers telling (or waiting for), so that its sweep leaves them alone

GATHER_S = 0.01  # a busy worker's wait after a wake-up, so that a burst's commands arriving meanwhile share its claim
HANDOFF_S = 1.0  # a command meant for one worker (``for_worker``) that it has not claimed by then is anyone's
HANDOFF_MARGIN_S = 0.05  # a worker that heard of another's command looks this long after HANDOFF_S
# Claims a worker keeps open at once. Each holds a pooled connection until its commands are applied, and applying them
# needs connections of the same pool: the cap, not the pool's size, is what keeps the claims from taking them all.
CLAIMS_AT_ONCE = 2
# The next commands whose games have no earlier one pending (so at most one of each game); one meant for another worker
# only once it waited HANDOFF_S, and one meant for none at once only by a leading worker (``Workers.leads``).
CLAIM = (
    "SELECT id, game_id, payload FROM command_queue q WHERE done_at IS NULL"
    " AND ((for_worker IS NULL AND ?) OR for_worker = ? OR enqueued_at < ?) AND NOT EXISTS ("
    "SELECT 1 FROM command_queue p WHERE p.game_id = q.game_id AND p.done_at IS NULL AND p.id < q.id)"
    " ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED"
)


class CommandFailed(Exception):
    """A worker could not apply the command (its database failed, or a bug): nothing was recorded."""


class OutcomeUnknown(Exception):
    """The gateway lost its database for longer than it waits: whether the command was recorded is not known (the
    player is told to look, never that it was not recorded)."""


T = TypeVar("T")


async def persist(what: str, attempt: Callable[[], Awaitable[T]], *, until: float) -> T:
    """``attempt()`` again, with a growing pause, while the database connection is lost and ``time.monotonic()`` is
    before ``until``; any other failure (or the last one) is raised."""
    pause = RETRY_FIRST_S
    while True:
        try:
            return await attempt()
        except Exception as error:
            if not is_connection_lost(error) or time.monotonic() > until:
                raise
            log.warning("%s: lost the database connection (%s); trying again", what, str(error).strip()[:200])
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX_S)


@dataclass(frozen=True)
class ReplyTo:
    """How the gateway reaches the player who gave a command, stored with it (``command_queue.reply``) so that a
    gateway restarted meanwhile can tell him: the interaction's webhook while its token lives, a DM after."""

    application_id: int
    token: str
    expires_at: float  # the token's end (epoch seconds)
    user_id: int
    locale: str
    message_id: int | None = None  # the form the receipt replaces (None: the receipt is the interaction's followup)
    receipt: str = ""  # what he is told once the command is recorded
    changeable: bool = False  # the receipt carries a Change button (a secret answer)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def of_json(text: str) -> ReplyTo:
        return ReplyTo(**json.loads(text))


@dataclass(frozen=True)
class Untold:
    """A command a gateway enqueued whose player it never told the outcome (it died first)."""

    queue_id: int
    command: Answer
    reply: ReplyTo
    enqueued_at: float
    outcome: dict[str, Any] | None  # None: not applied yet


def payload_of(command: Answer) -> str:
    # Its fields as they are (``asdict`` deep-copies the answer's orders first, for nothing: json.dumps only reads).
    return json.dumps({"type": "answer", **{field.name: getattr(command, field.name) for field in fields(command)}})


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


@dataclass(frozen=True)
class Claimed:
    """The commands one claim took and applied (one of each game at most)."""

    queue_ids: tuple[int, ...]
    game_waits: bool  # a later command of one of their games waits: it could not be claimed while they were applied


ENQUEUE_MOST = 100  # commands one enqueueing statement carries at most

# Several commands queued in one statement, each woken for as its single enqueue was (see ``CommandQueue.enqueue``).
# The rows are inserted in the order given, so a game's commands keep the order they came in; each comes back with its
# payload, which names it (its key), to find whose id it is. The rows come as one JSON document, which Python's
# encoder writes at once: as arrays of text, psycopg escaped each quote of each payload by a regular expression's
# substitution, most of a gateway's enqueueing CPU.
ENQUEUE_ROWS = (
    "WITH queued AS (INSERT INTO command_queue (game_id, payload, enqueued_at, gateway, reply, for_worker)"
    " SELECT game_id, payload, enqueued_at, gateway, reply, for_worker FROM json_to_recordset(?::json)"
    " AS given(n integer, game_id bigint, payload text, enqueued_at double precision, gateway text, reply text,"
    " for_worker text) ORDER BY n"
    " RETURNING id, game_id, payload, for_worker) SELECT id, payload, CASE WHEN EXISTS (SELECT 1 FROM"
    " command_queue p WHERE p.game_id = queued.game_id AND p.done_at IS NULL AND p.id < queued.id)"
    f" THEN NULL ELSE {notify_sql('coalesce(queued.for_worker, ?)')}::text END FROM queued"
)


@dataclass(frozen=True)
class _ToEnqueue:
    """A command's row, waiting for the next enqueueing statement."""

    game_id: int
    payload: str
    enqueued_at: float
    gateway: str | None
    reply: str | None
    for_worker: str | None


class CommandQueue:
    def __init__(self, db: PostgresDatabase) -> None:
        self.db = db
        self.enqueued = Batched(self._insert, most=ENQUEUE_MOST, shared=is_connection_lost, what="enqueueing commands")

    async def enqueue(
        self,
        command: Answer,
        *,
        gateway: str | None = None,
        reply: ReplyTo | None = None,
        for_worker: str | None = None,
    ) -> int:
        """Queue the command; ``gateway`` (who enqueued it) and ``reply`` (how to reach its player) let a gateway that
        restarts find the players it left waiting. ``for_worker``: the leading worker that applied the game's last
        command, which holds its game cached; the notification wakes that worker only, and any other takes the command
        once it waited ``HANDOFF_S`` (that worker is busy or gone). None: the leading worker's at once, anyone's after
        that.

        A command given while another enqueueing statement is under way waits for it, and every command gathered
        meanwhile goes in the next statement (its own commit): a burst's answers share a few statements and commits
        where each took its own, and a lone answer waits for nobody. Should that statement fail, each is raised the
        failure (a lost connection: each caller looks for its own by its key, as after its own enqueue's), or, for any
        other failure, enqueued on its own, so that one bad command refuses no other."""
        return await self.enqueued(
            _ToEnqueue(
                command.game_id,
                payload_of(command),
                time.time(),
                gateway,
                reply.to_json() if reply is not None else None,
                for_worker,
            )
        )

    async def _insert(self, batch: list[_ToEnqueue]) -> list[int]:
        """Queue the batch's commands in one statement, their ids in its order."""
        # No worker is woken for a command behind an earlier one of its game: none could claim it before that one is
        # done, and the worker that finishes that one claims again (``Claimed.game_waits``). Should the two statements
        # cross (each seeing the other uncommitted), the poll of the worker that wrote the outcome, a moment ago and so
        # still every ``POLL_S`` (``ACTIVE_S``), takes it within ``POLL_S``.
        given = [
            {
                "n": n,
                "game_id": entry.game_id,
                "payload": entry.payload,
                "enqueued_at": entry.enqueued_at,
                "gateway": entry.gateway,
                "reply": entry.reply,
                "for_worker": entry.for_worker,
            }
            for n, entry in enumerate(batch)
        ]
        rows = await self.db.fetchall(ENQUEUE_ROWS, (json.dumps(given), QUEUED, ""))
        ids: dict[str, list[int]] = {}
        for queue_id, payload in sorted((int(row[0]), str(row[1])) for row in rows):
            ids.setdefault(payload, []).append(queue_id)  # the same command given twice: in the order given
        return [ids[entry.payload].pop(0) for entry in batch]

    async def find(self, command: Answer) -> int | None:
        """The command already queued with this one's key (an enqueue whose connection dropped may have committed).
        Asked only after such a drop, so it may read the game's rows (a few, pruned hourly) without an index."""
        row = await self.db.fetchone(
            "SELECT min(id) FROM command_queue WHERE game_id = ? AND payload::json->>'key' = ?",
            (command.game_id, command.key),
        )
        return int(row[0]) if row is not None and row[0] is not None else None

    async def mark_told(self, *queue_ids: int) -> None:
        marks = ", ".join("?" * len(queue_ids))
        await self.db.execute(
            f"UPDATE command_queue SET told_at = ? WHERE id IN ({marks}) AND told_at IS NULL", (time.time(), *queue_ids)
        )

    async def untold(self, gateway: str) -> list[Untold]:
        """The commands ``gateway`` enqueued whose players it has not told, oldest first."""
        rows = await self.db.fetchall(
            "SELECT id, payload, reply, enqueued_at, CASE WHEN done_at IS NULL THEN NULL ELSE outcome END"
            " FROM command_queue WHERE gateway = ? AND told_at IS NULL AND reply IS NOT NULL ORDER BY id",
            (gateway,),
        )
        return [
            Untold(
                int(r[0]),
                command_of(str(r[1])),
                ReplyTo.of_json(str(r[2])),
                float(r[3]),
                json.loads(r[4]) if r[4] is not None else None,
            )
            for r in rows
        ]

    async def outcome(self, queue_id: int) -> dict[str, Any] | None:
        row = await self.db.fetchone(
            "SELECT outcome FROM command_queue WHERE id = ? AND done_at IS NOT NULL", (queue_id,)
        )
        return json.loads(row[0]) if row is not None else None

    async def apply_next(
        self,
        apply: Callable[[Answer], Awaitable[None]],
        *,
        worker: str = "",
        most: int = 1,
        on_claimed: Callable[[int], None] | None = None,
        leading: bool = True,
    ) -> Claimed | None:
        """Claim the next commands whose games have no earlier one pending (meant for ``worker``, for none, or waiting
        longer than ``HANDOFF_S``), at most ``most`` of them and one of each game; apply them side by side, record
        their outcomes and announce each with the worker's name, all in the claim's transaction; None when none is
        waiting. A burst's commands thus share one claim's statements (its transaction, its read and its write of
        the outcomes), where each took its own. ``on_claimed(n)``: called once the claim took its ``n`` commands
        (n > 0), before they are applied. A worker not ``leading`` (``Workers.leads``) takes a command meant for none
        only once it waited ``HANDOFF_S``, and announces no name: its game's next command is meant for none again."""
        async with self.db.transaction() as session:
            rows = await session.fetchall(CLAIM, (leading, worker, time.time() - HANDOFF_S, max(1, most)))
            if not rows:
                return None
            queue_ids = [int(row[0]) for row in rows]
            if on_claimed is not None:
                on_claimed(len(rows))

            async def outcome(row: Any) -> str:
                error = await self._applied(apply, command_of(str(row[2])), f"command {row[0]} of game {row[1]}")
                return json.dumps(outcome_of(error))

            # Each is applied to the end, whatever happens to the others. One that could not be (its connection kept
            # dropping) rolls the claim back once the rest are recorded, and the next claim applies them all again:
            # their keys find those recorded, which are told as recorded.
            results = await asyncio.gather(*(outcome(row) for row in rows), return_exceptions=True)
            raised = [result for result in results if isinstance(result, BaseException)]
            if raised:
                raise raised[0]
            outcomes = [str(result) for result in results]
            # Recorded and announced in one statement, which also says whether a later command of their games waits
            # (it could not be claimed before they were done). The schema names whose command it is: one database
            # may hold several deployments' schemas (the tests' do), and a channel is the database's, so a gateway
            # must not take another schema's outcome for its own.
            recorded = await session.fetchall(
                "WITH done AS (UPDATE command_queue q SET done_at = ?, outcome = o.outcome"
                " FROM unnest(?::bigint[], ?::text[]) AS o(id, outcome) WHERE q.id = o.id"
                " RETURNING q.id, q.game_id, q.outcome) SELECT "
                + notify_sql(
                    "json_build_object('id', done.id, 'game', done.game_id, 'worker', ?::text,"
                    " 'outcome', done.outcome::json, 'schema', current_schema())::text"
                )
                + ", EXISTS (SELECT 1 FROM command_queue p WHERE p.game_id = done.game_id AND p.done_at IS NULL"
                " AND p.id > done.id) FROM done",
                (time.time(), queue_ids, outcomes, DONE, worker if leading else ""),
            )
        return Claimed(tuple(queue_ids), game_waits=any(bool(row[1]) for row in recorded))

    @staticmethod
    async def _applied(apply: Callable[[Answer], Awaitable[None]], command: Answer, name: str) -> BaseException | None:
        """Apply the command: None once it is recorded, or the refusal or failure to tell its player. A connection
        lost under it says nothing of whether its commit went through, so it is applied again (its key finds it
        recorded if it was) and never told "not recorded"; still lost after ``APPLY_TRIES``, it is raised, and the
        claim rolls back: the command waits for the next claim."""
        for attempt in range(1, APPLY_TRIES + 1):
            try:
                await apply(command)
                return None
            except ServiceError as err:
                # The same command applied before (its worker died before recording the outcome): it is recorded.
                return None if err.code == "already-done" else err
            except (RuleError, ValueError, TypeError, KeyError) as err:
                return err
            except Exception as err:
                if is_connection_lost(err):
                    if attempt == APPLY_TRIES:
                        raise
                    log.warning("%s: lost the database connection (%s); applying it again", name, str(err)[:200])
                    await asyncio.sleep(RETRY_FIRST_S * attempt)
                    continue
                log.exception("%s failed", name)  # a bug: nothing was recorded, and the gateway says so
                return err
        raise AssertionError("unreachable")

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
        """Forget the outcomes of commands done before ``older_than`` (their gateways have long had them); one whose
        player was never told waits ``KEEP_UNTOLD_S`` more for its gateway to come back and tell him."""
        return await self.db.execute(
            "DELETE FROM command_queue WHERE done_at IS NOT NULL AND done_at < ?"
            " AND (told_at IS NOT NULL OR reply IS NULL OR done_at < ?)",
            (older_than, older_than - KEEP_UNTOLD_S),
        )


Tell = Callable[[Untold, dict[str, Any]], Awaitable[None]]  # tells a player an outcome (cogs/receipts.py)


def claim_of(row: Untold) -> str:
    """What claims a row: its command's key, as a live Submit claims it before enqueueing."""
    return row.command.key if row.command.key is not None else f"queue:{row.queue_id}"


class Outcomes:
    """The gateway's side: the outcome of each command it enqueued, from ``NOTIFY`` or, if that was missed, from the
    table; and the players it has not told yet, told once the record says what happened (``keep_telling``)."""

    def __init__(self, queue: CommandQueue, *, gateway: str = "gateway", timeout: float = OUTCOME_TIMEOUT_S) -> None:
        self.queue = queue
        self.gateway = gateway  # the name its commands carry (``command_queue.gateway``): the same after a restart
        self.timeout = timeout  # how long a player's answer is waited for (OUTCOME_TIMEOUT_S)
        self.to_tell: Bounded[str, int] = Bounded(4096)  # command key -> its queue id, until its player was told
        # The keys of the commands someone here tells or told: a live Submit's from before its enqueue, a recovered or
        # swept one's from when it was picked. The sweep takes only unclaimed ones, so no player is told twice; a key
        # stays claimed once told, since a sweep's read may have begun before his told_at was written.
        self.claimed: Bounded[str, None] = Bounded(CLAIMED_KEYS)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.schema: str | None = None  # this gateway's schema, learnt before its first command is enqueued
        self.early: Bounded[int, dict[str, Any]] = Bounded(4096)  # outcomes announced before their waiter arrived
        # The leading worker that applied each game's last command: the next is meant for it (its caches hold the
        # game). A worker that does not lead names nobody, and the game's next command is meant for none.
        self.applied_by: Bounded[int, str] = Bounded(4096)
        self.listener = Listener(queue.db.url, DONE, self._announced, self._listening)
        self.listened = asyncio.Event()  # set at each (re)connection of the listener: every waiter reads its outcome
        # The players told in the last TOLD_BATCH_S, marked together, and the future their callers wait on.
        self.told_batch: tuple[list[int], asyncio.Future[None]] | None = None
        self.marking: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self.listener.start()

    async def stop(self) -> None:
        self._mark_told_batch()  # a clean stop leaves nobody to tell again
        if self.marking:
            await asyncio.wait(self.marking)
        await self.listener.stop()

    def _listening(self) -> None:
        """The listener (re)connected: outcomes announced while it was away were lost, and each waiter reads its own."""
        self.listened.set()
        self.listened = asyncio.Event()

    def _announced(self, payload: str) -> None:
        message = json.loads(payload)
        if message.get("schema") != self.schema:
            return  # another schema's command (or none of ours is under way yet)
        if message.get("game") is not None:
            if message.get("worker"):
                self.applied_by[int(message["game"])] = str(message["worker"])
            else:  # a worker that does not lead: the game's next command is meant for none, so for the leading one
                self.applied_by.pop(int(message["game"]), None)
        future = self.waiting.pop(int(message["id"]), None)
        if future is None:
            self.early[int(message["id"])] = message["outcome"]
        elif not future.done():
            future.set_result(message["outcome"])

    async def submit(self, command: Answer, *, timeout: float | None = None, reply: ReplyTo | None = None) -> None:
        """Enqueue the command and wait for a worker to apply it; raises its refusal, ``CommandFailed`` (the record says
        nothing was applied) or ``OutcomeUnknown`` (the database stayed out of reach: the sweep tells the player once
        it can read the outcome). A dropped connection is tried again meanwhile, and an enqueue whose connection
        dropped looks its command up by key before enqueueing it again. With ``reply``, ``told(command.key)`` marks
        the player told once he was."""
        until = time.monotonic() + (self.timeout if timeout is None else timeout)
        key = command.key if reply is not None else None
        if key is not None:
            self.claimed[key] = None
        try:
            if self.schema is None:
                self.schema = await persist("the queue's schema", self.queue.schema, until=until)
            queue_id = await self._enqueue(command, reply, until)
            if key is not None:
                self.to_tell[key] = queue_id
            outcome = await self.outcome(queue_id, until)
        except Exception as error:
            if not (is_connection_lost(error) or isinstance(error, OutcomeUnknown)):
                raise
            if (
                key is not None
            ):  # he is told the outcome is unknown; the sweep tells him what it was, once it can read it
                self.claimed.pop(key, None)
                self.to_tell.pop(key, None)
            if isinstance(error, OutcomeUnknown):
                raise
            raise OutcomeUnknown(f"the database stayed out of reach while {command.key} was submitted") from error
        raise_outcome(outcome)

    async def _enqueue(self, command: Answer, reply: ReplyTo | None, until: float) -> int:
        dropped = False

        async def attempt() -> int:
            nonlocal dropped
            if dropped:  # the INSERT before may have committed: the command is enqueued once
                found = await self.queue.find(command)
                if found is not None:
                    return found
            dropped = True  # until this attempt returns
            queue_id = await self.queue.enqueue(
                command,
                gateway=self.gateway if reply else None,
                reply=reply,
                for_worker=self.applied_by.get(command.game_id),
            )
            dropped = False
            return queue_id

        return await persist(f"enqueueing {command.key}", attempt, until=until)

    async def outcome(self, queue_id: int, until: float) -> dict[str, Any]:
        """The command's outcome once a worker recorded it; past ``until`` (monotonic), the command is given up and
        never applied later, unless a worker is applying it, whose outcome is then awaited. ``OutcomeUnknown`` if the
        database is out of reach when the time is up."""
        outcome = self.early.pop(queue_id, None)
        if outcome is not None:
            return outcome
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[queue_id] = future
        try:
            return await self._wait(queue_id, future, until)
        finally:
            self.waiting.pop(queue_id, None)

    async def _wait(self, queue_id: int, future: asyncio.Future[dict[str, Any]], until: float) -> dict[str, Any]:
        while True:
            listened = asyncio.ensure_future(self.listened.wait())
            # Until the next look at the table: the net's period, or the end of the wait (then the command is given up).
            pause = min(OUTCOME_POLL_S, max(until - time.monotonic(), 0.0) + POLL_S)
            try:
                await asyncio.wait((future, listened), timeout=pause, return_when=asyncio.FIRST_COMPLETED)
            finally:
                listened.cancel()
            if future.done():
                return future.result()
            try:
                # Bounded by the time left: a pool waiting for a server that is away would outlast the wait.
                left = max(until - time.monotonic(), POLL_S * 4)
                stored = await asyncio.wait_for(self.queue.outcome(queue_id), timeout=left)
            except Exception as error:
                if not (is_connection_lost(error) or isinstance(error, TimeoutError)):
                    raise
                if time.monotonic() > until:
                    raise OutcomeUnknown(f"the database stayed out of reach: command {queue_id}") from error
                # The outcome is in the table whatever happened to this connection: read it again.
                log.warning("reading command %s's outcome: lost the database connection; trying again", queue_id)
                continue
            if stored is not None:
                return stored
            if time.monotonic() > until:
                # Never applied later behind the player's back: he is told it was not recorded.
                abandon = lambda: self.queue.abandon(queue_id)  # noqa: E731
                applied_meanwhile = await persist(f"giving up command {queue_id}", abandon, until=until + 60)
                return applied_meanwhile or {"failed": "abandoned"}

    async def told(self, key: str | None) -> None:
        """The player of the command with ``key`` was told its outcome: a restarted gateway will not tell him again.
        The players told within ``TOLD_BATCH_S`` of each other are marked in one statement (a burst's answers: one
        UPDATE for many, where it was one each); each caller returns once his is written."""
        queue_id = self.to_tell.pop(key, None) if key is not None else None
        if queue_id is None:
            return
        if self.told_batch is None:
            self.told_batch = ([], asyncio.get_running_loop().create_future())
            asyncio.get_running_loop().call_later(TOLD_BATCH_S, self._mark_told_batch)
        batch, written = self.told_batch
        batch.append(queue_id)
        await asyncio.shield(written)

    def _mark_told_batch(self) -> None:
        if self.told_batch is None:
            return
        batch, written = self.told_batch
        self.told_batch = None

        async def mark() -> None:
            try:
                await persist("marking players told", lambda: self.queue.mark_told(*batch), until=time.monotonic() + 30)
            except Exception:  # each would be told once more after a restart of this gateway: the receipt edited again
                log.exception("could not mark commands %s told", batch)
            finally:
                written.set_result(None)

        task = asyncio.get_running_loop().create_task(mark())
        self.marking.add(task)
        task.add_done_callback(self.marking.discard)

    async def keep_telling(self, tell: Tell, *, every: float = UNTOLD_SWEEP_S) -> None:
        """Runs as long as the gateway: the players it left waiting before a restart are told (``recover``), and every
        ``every`` seconds those whose outcome it could not read while they waited (``sweep``)."""
        recovering = asyncio.ensure_future(self._recover_and_say(tell))
        try:
            while True:
                await asyncio.sleep(every)
                try:
                    told = await self.sweep(tell)
                except Exception as error:
                    if not is_connection_lost(error):
                        log.exception("could not look for the players this gateway has not told")
                    continue
                if told:
                    log.info("told %s players the outcomes recorded after this gateway stopped waiting", told)
        finally:
            recovering.cancel()

    async def _recover_and_say(self, tell: Tell) -> None:
        try:
            told = await self.recover(tell)
        except Exception:
            log.exception("could not tell the players this gateway left waiting before its restart")
            return
        if told:
            log.info("told %s players the outcomes of answers queued before this gateway restarted", told)

    async def recover(self, tell: Tell) -> int:
        """After this gateway's restart: each command it enqueued and never told its player, its outcome awaited (a
        command still waiting when its time runs out is given up, as for a living gateway), then ``tell(command,
        outcome)`` and marked told. Returns how many players were told."""
        if self.schema is None:
            self.schema = await persist("the queue's schema", self.queue.schema, until=time.monotonic() + 600)
        rows = await persist("reading the untold commands", lambda: self.queue.untold(self.gateway),
                             until=time.monotonic() + 600)  # fmt: skip
        rows = self._claim([row for row in rows if claim_of(row) not in self.claimed])
        if rows:
            log.info("%s commands were enqueued before this gateway restarted: telling their players", len(rows))
        return await self._tell_each(rows, tell)

    async def sweep(self, tell: Tell) -> int:
        """One look, while the gateway runs, for its commands whose players nobody here is telling: those recorded
        after their Submit stopped waiting (the database was out of reach), and those still waiting past their time
        (given up, as a living gateway does); each told once. Returns how many players were told."""
        if self.schema is None:
            self.schema = await self.queue.schema()
        overdue = time.time() - self.timeout
        rows = await self.queue.untold(self.gateway)
        return await self._tell_each(
            self._claim(
                [
                    row
                    for row in rows
                    if claim_of(row) not in self.claimed and (row.outcome is not None or row.enqueued_at < overdue)
                ]
            ),
            tell,
        )

    def _claim(self, rows: list[Untold]) -> list[Untold]:
        # No await between a caller's filter and this: no other task of this gateway claims a row in between.
        for row in rows:
            self.claimed[claim_of(row)] = None
        return rows

    async def _tell_each(self, rows: list[Untold], tell: Tell, *, at_once: int = 16) -> int:
        """Each claimed row's outcome (awaited, or given up past its time), told and marked told; a row whose outcome
        or telling failed is let go, for the next sweep."""
        slots = asyncio.Semaphore(at_once)

        async def one(row: Untold) -> bool:
            left = row.enqueued_at + self.timeout - time.time()
            try:
                outcome = row.outcome or await self.outcome(row.queue_id, time.monotonic() + max(left, 0.0))
            except Exception as error:
                if not (is_connection_lost(error) or isinstance(error, OutcomeUnknown)):
                    log.exception("could not read the outcome of command %s", row.queue_id)
                self.claimed.pop(claim_of(row), None)
                return False
            async with slots:
                try:
                    await tell(row, outcome)
                except Exception:
                    log.exception("could not tell the player of command %s its outcome", row.queue_id)
                    self.claimed.pop(claim_of(row), None)
                    return False
            try:
                await persist(f"marking {row.queue_id} told", lambda: self.queue.mark_told(row.queue_id),
                              until=time.monotonic() + 60)  # fmt: skip
            except Exception:  # still claimed: not told again by this gateway (after its restart, the receipt again)
                log.exception("could not mark command %s told", row.queue_id)
            return True

        return sum(await asyncio.gather(*(one(row) for row in rows)))


def worker_connections(slots: int) -> int:
    """The pool of a worker of ``slots``: a connection for each claim it keeps open (``CLAIMS_AT_ONCE``), and for its
    applying and publishing a quarter of its slots and one (each statement or transaction of theirs takes one
    connection and asks for no other while it holds it; they wait their turn for one, never for each other). Each
    server process plans and warms its caches for each statement it serves, and the pool hands out the connection idle
    longest, so a burst's statements are spread over every connection the pool holds: where a worker could hold 20,
    the server's CPU per answer was about 0.4 ms higher than at 8, and at 8 about 0.15 ms higher than at 5
    (docs/deploy.md)."""
    return CLAIMS_AT_ONCE + max(1, slots // 4) + 1


class Workers:
    """A worker's side: one loop claims commands, woken by ``NOTIFY`` (those meant for this worker, or for any while it
    leads), and applies up to ``slots`` side by side. A claim takes every command waiting, up to the slots free, in one
    transaction (``CommandQueue.apply_next``); the notifications that came meanwhile are one wake-up, since the next
    claim takes all their commands at once. The loop claims again at once when its claim filled the free slots (more
    may wait), when a later command of a game it applied waits (no claim could take it before), or when a wake-up
    came during the claim; ``HANDOFF_S`` after it heard of another worker's command (then its own too); and every
    ``POLL_S`` while commands flow (``ACTIVE_S``), every ``IDLE_POLL_S`` otherwise, in case a notification was missed.
    So a burst's answers cost a claim for several, not one or more each, and an idle worker costs next to nothing."""

    def __init__(
        self,
        queue: CommandQueue,
        apply: Callable[[Answer], Awaitable[None]],
        *,
        slots: int = 4,
        name: str | None = None,
        claims_at_once: int = CLAIMS_AT_ONCE,
        leads: Callable[[], bool] = lambda: True,
    ) -> None:
        self.queue = queue
        # Whether this worker leads now (the publishing worker, cogs/client.py): the commands meant for no worker are
        # its own at once, and it announces its name, so that each game's next command is meant for it. Another
        # worker takes those once they waited HANDOFF_S (the leading one is busy, or there is none).
        self.leads = leads
        self.apply = apply
        self.slots = slots
        self.claims_at_once = claims_at_once
        self.name = name or process_holder()  # the gateway meant a game's next command for the worker that applied it
        self.wake = asyncio.Event()  # a command was enqueued for this worker or any
        self.freed = asyncio.Event()  # a claim's commands were applied: their slots are free
        self.free = slots  # slots not applying a claim's command
        # At each (re)connection of the listening connection: what was announced while it was away is lost.
        self.listener = Listener(queue.db.url, QUEUED, self._notified, self.wake.set)
        self.tasks: list[asyncio.Task[None]] = []
        self.claiming: set[asyncio.Task[None]] = set()  # claims under way, each applying its commands
        self.applied = 0
        self.claims = 0  # claims made, those that found nothing included (the benchmark and tests)
        self.pruned_at = time.monotonic()
        self.active_at = time.monotonic()  # when this worker last claimed a command or heard of one (ACTIVE_S)
        self.handoff: asyncio.TimerHandle | None = None  # the look due once another worker's command waited HANDOFF_S

    def start(self) -> None:
        self.listener.start()
        self.tasks = [asyncio.get_running_loop().create_task(self._run())]

    def _notified(self, payload: str) -> None:
        self.active_at = time.monotonic()
        if payload == self.name or (payload == "" and self.leads()):
            self.wake.set()
        elif self.handoff is None:  # another's command (or any's, not leading) is this one's after HANDOFF_S: look then
            self.handoff = asyncio.get_running_loop().call_later(HANDOFF_S + HANDOFF_MARGIN_S, self._handoff_due)

    def _handoff_due(self) -> None:
        self.handoff = None
        self.wake.set()

    def look_every(self) -> float:
        """How long the loop waits for a wake-up before it looks at the table itself: ``POLL_S`` while a claim's
        commands are applied (their outcomes, written at its end, may cross an enqueue) and ``ACTIVE_S`` after,
        ``IDLE_POLL_S`` otherwise."""
        busy = self.free < self.slots or time.monotonic() - self.active_at < ACTIVE_S
        return POLL_S if busy else IDLE_POLL_S

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self.free == 0:  # every slot applies a command: the next claim waits for one to end
                self.freed.clear()
                await self.freed.wait()
                continue
            open_claims = [task for task in self.claiming if not task.done()]
            if len(open_claims) >= self.claims_at_once:  # the next claim waits for one of them to end
                await asyncio.wait(open_claims, return_when=asyncio.FIRST_COMPLETED)
                continue
            self.wake.clear()  # before the claim: a notification from now on is looked at by the next one
            most = self.free
            taken: asyncio.Future[int] = loop.create_future()
            task = loop.create_task(self._claim(most, taken))
            self.claiming.add(task)
            task.add_done_callback(self.claiming.discard)
            if await taken == most:  # it filled the free slots: more may wait, claimed as soon as a slot is free
                continue
            await self._prune_now_and_then()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=self.look_every())
            if self.wake.is_set() and self.free < self.slots:
                # Busy (a claim's commands are being applied): a burst is under way, and its next commands arrive a
                # few milliseconds apart; claimed together a moment later, they share one claim. An idle worker
                # claims at once: a lone answer does not wait.
                await asyncio.sleep(GATHER_S)

    async def _claim(self, most: int, taken: asyncio.Future[int]) -> None:
        """One claim of at most ``most`` commands, applied in as many slots; ``taken`` is how many it took, once its
        read is done (0: none, or the claim failed)."""
        self.claims += 1
        held = 0

        def claimed_now(count: int) -> None:
            nonlocal held
            held = count
            self.free -= count
            taken.set_result(count)

        claimed: Claimed | None = None
        try:
            claimed = await self.queue.apply_next(
                self.apply, worker=self.name, most=most, on_claimed=claimed_now, leading=self.leads()
            )
        except Exception:
            log.exception("the command queue failed; trying again")
            await asyncio.sleep(POLL_S)
        finally:
            self.free += held
            if not taken.done():
                taken.set_result(0)
        if held:
            self.active_at = time.monotonic()  # its outcomes were just written: a command may have crossed them
            self.freed.set()
        if claimed is not None:
            self.applied += len(claimed.queue_ids)
            if claimed.game_waits:  # a later command of one of its games waits: no claim could take it before
                self.wake.set()

    async def _prune_now_and_then(self) -> None:
        if time.monotonic() - self.pruned_at < PRUNE_EVERY_S:
            return
        self.pruned_at = time.monotonic()
        try:
            await self.queue.prune(time.time() - KEEP_OUTCOMES_S)
        except Exception:
            log.exception("could not prune the command queue")

    async def stop(self) -> None:
        if self.handoff is not None:
            self.handoff.cancel()
        for task in [*self.tasks, *self.claiming]:
            task.cancel()
        for task in [*self.tasks, *self.claiming]:
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

    async def answer(self, command: Answer, *, reply: ReplyTo | None = None) -> None:
        """``reply``: how to reach the player if this gateway restarts before telling him (then ``told``)."""
        await self.outcomes.submit(command, reply=reply)

    async def told(self, command: Answer) -> None:
        await self.outcomes.told(command.key)
