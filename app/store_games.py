"""The store's games and seats: a game's row and status, its seats, and its state with the append-only answer log
and snapshots (every accepted answer one statement guarded by a compare-and-set on the game's version)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from app.batched import Batched
from app.database import Database, IntegrityError, PostgresDatabase, is_connection_lost
from app.store_base import Write, committed
from app.store_outbox import ADD_NOTICE, OUTBOX_STEP, DuplicateCommand, OutboxStore, notice_rows

GAME_COLUMNS = (
    "id, guild_id, channel_id, name, created_by, status, settings, state, version, status_message_id, log_thread_id,"
    " broken_reason"
)

SET_SEAT = (
    "INSERT INTO seats (game_id, house, user_id) VALUES (?, ?, ?)"
    " ON CONFLICT (game_id, house) DO UPDATE SET user_id = excluded.user_id"
)

VERSION_CONFLICT = "version-conflict"  # the message of the answer_commits trigger when the version has moved
SET_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)"
    " ON CONFLICT (game_id, version) DO UPDATE SET state = excluded.state"
)


class GameStatus(StrEnum):
    """Where a game stands: its lobby, running, paused by a moderator, or ended."""

    LOBBY = "lobby"
    RUNNING = "running"
    PAUSED = "paused"
    ENDED = "ended"


ENTRIES_PER_READ = 400  # (game, version) pairs one read of the log asks for: SQLite takes at most 32,766 parameters
ACTIVE = (GameStatus.RUNNING, GameStatus.PAUSED)  # a started game that has not ended


class Source(StrEnum):
    """Who a change came from: logged with each entry (player, deadline, auto, moderator), or only published (a
    start, an undo's reset)."""

    PLAYER = "player"
    DEADLINE = "deadline"
    AUTO = "auto"  # a decision with a single legal answer
    AI = "ai"  # the agent playing a house (app/ai.py)
    MODERATOR = "moderator"
    START = "start"
    RESET = "reset"  # an undo brought the game back to a version: every open decision is sent afresh


class VersionConflict(Exception):
    """The game changed since it was read: another answer won the race."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    created_by: int
    status: GameStatus
    settings: dict[str, Any]
    state: str | None
    version: int
    status_message_id: int | None = None
    log_thread_id: int | None = None  # the thread under the channel holding the step-by-step log
    broken_reason: str | None = None  # why its state no longer loads: quarantined until a repaired one is imported


@dataclass(frozen=True)
class AnswerRow:
    version: int
    house: str
    user_id: int | None
    prompt_id: str
    answer: Any
    source: Source
    at: float


COMMIT_ANSWER = (
    "INSERT INTO answer_commits (game_id, expected_version, new_version, state, status, house, user_id, prompt_id,"
    " answer, source, at, events, snapshot, ends_run_of, command_key) VALUES "
)
COMMIT_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
COMMITS_MOST = 32  # answers one committing statement carries at most


class GameStore(OutboxStore):
    """Games, seats, state, answers and snapshots; their writes go through ``apply`` when a command records them."""

    def __init__(self, db: Database, *, shared: bool = False) -> None:
        super().__init__(db, shared=shared)
        # On PostgreSQL, the answers a worker applies side by side that reach their commit while another's is under
        # way go together in the next statement: one commit where each took its own. The trigger
        # checks each row as it checked each statement; should one row fail, each is committed on its own, so that
        # each is told its own outcome (a version that moved on, a command already recorded).
        self.answer_commits = Batched(
            self._commit_answers, most=COMMITS_MOST, shared=is_connection_lost, what="committing answers"
        )

    async def _commit_answers(self, rows: list[tuple[Any, ...]]) -> list[None]:
        # In the order of their games, as every batch: two processes' batches lock the games' rows in one order, and
        # never wait for each other in a circle. (A row's first value is its game.)
        ordered = sorted(rows, key=lambda row: int(row[0]))
        sql = COMMIT_ANSWER + ", ".join([COMMIT_VALUES] * len(ordered))
        await self.db.execute(sql, tuple(value for row in ordered for value in row))
        return [None] * len(rows)

    # ----- games -----

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        created_by: int,
        settings: dict[str, Any],
        create_key: str | None = None,
    ) -> int:
        """A new lobby's id; with ``create_key`` (the interaction's id) a second create of the same key, even racing
        from another process, gets the first one's game instead of another."""
        now = time.time()
        async with self.transaction() as db:
            row = await db.fetchone(
                "INSERT INTO games (guild_id, channel_id, name, created_by, created_at, status, settings, updated_at,"
                " create_key) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?)"
                " ON CONFLICT (create_key) WHERE create_key IS NOT NULL DO NOTHING RETURNING id",
                (guild_id, channel_id, name, created_by, now, json.dumps(settings), now, create_key),
            )
            if row is None:
                row = await db.fetchone("SELECT id FROM games WHERE create_key = ?", (create_key,))
        assert row is not None
        return int(row[0])

    async def game_created_by(self, create_key: str) -> int | None:
        """The game that ``/game new`` with this key (its interaction's id) made, if any."""
        row = await self.db.fetchone("SELECT id FROM games WHERE create_key = ?", (create_key,))
        return int(row[0]) if row is not None else None

    async def game(self, game_id: int) -> GameRow | None:
        cached = self._games.get(game_id)
        if cached is not None:
            return cached
        return await self.read_once(self._game_reads, game_id, lambda seen: self._read_game(game_id, seen))

    async def _read_game(self, game_id: int, seen: int) -> GameRow | None:
        row = await self.db.fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            return None
        game = _game_row(row)
        # An ended game is read rarely: it does not take a place in memory.
        if game.status != GameStatus.ENDED and self.changes.get(game_id, 0) == seen:
            self._games[game_id] = game
        return game

    def _changed_game(self, game_id: int, **fields: Any) -> None:
        """Apply a committed change to the cached row (if cached; otherwise the next read loads it)."""
        self.wrote(game_id)
        cached = self._games.get(game_id)
        if cached is not None:
            self._games[game_id] = replace(cached, **fields)

    async def games_in_channel(self, channel_id: int, *, active_only: bool = True) -> list[GameRow]:
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?"
        if active_only:
            sql += " AND status != 'ended'"
        return [_game_row(r) for r in await self.db.fetchall(sql + " ORDER BY id", (channel_id,))]

    async def count_active(self) -> int:
        """Games running or paused, counted by the database (no state is read)."""
        row = await self.db.fetchone("SELECT COUNT(*) FROM games WHERE status IN ('running', 'paused')")
        return int(row[0]) if row else 0

    async def active_games(self) -> list[GameRow]:
        """Games running or paused, but those quarantined (nothing is done with them until they are repaired)."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('running', 'paused') AND broken_reason IS NULL"
            " ORDER BY id"
        )
        return [_game_row(r) for r in rows]

    async def quarantine(self, game_id: int, reason: str, notice: dict[str, Any]) -> bool:
        """Mark a game whose state no longer loads, park its deadline and write its moderators' notice, in one
        transaction, once: whether this call marked it (False: it was already)."""
        async with self.transaction() as db:
            marked = await db.execute(
                "UPDATE games SET broken_reason = ?, broken_at = ? WHERE id = ? AND broken_reason IS NULL",
                (reason, time.time(), game_id),
            )
            if marked:
                await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
                await self._add_notices(db, game_id, [notice])
        self.forget(game_id)
        return bool(marked)

    def repaired_write(self, game_id: int) -> Write:
        """The quarantine ends: a repaired state was imported (in the import's own commit)."""
        return Write(
            "UPDATE games SET broken_reason = NULL, broken_at = NULL WHERE id = ?",
            (game_id,),
            lambda: self._changed_game(game_id, broken_reason=None),
        )

    def missed_write(self, game_id: int, house: str) -> Write:
        """A missed deadline of ``house``'s player, in the commit of the answer the deadline gave."""

        def after() -> None:
            self.wrote(game_id)
            self._missed.pop(game_id, None)

        return Write(
            "INSERT INTO missed_deadlines (game_id, house, in_a_row) VALUES (?, ?, 1)"
            " ON CONFLICT (game_id, house) DO UPDATE SET in_a_row = missed_deadlines.in_a_row + 1",
            (game_id, house),
            after,
        )

    async def command_recorded(self, game_id: int, key: str) -> bool:
        """Whether a command with this idempotency key was committed to the game (an entry of its log, or a change
        of its table)."""
        row = await self.db.fetchone(
            "SELECT 1 FROM answers WHERE game_id = ? AND command_key = ?"
            " UNION ALL SELECT 1 FROM commands WHERE game_id = ? AND key = ?",
            (game_id, key, game_id, key),
        )
        return row is not None

    async def keyed_houses(self, game_id: int, prefix: str) -> list[str]:
        """The houses of the log's entries whose command key starts with ``prefix`` (a deadline's answers)."""
        rows = await self.db.fetchall(
            "SELECT house FROM answers WHERE game_id = ? AND substr(command_key, 1, ?) = ?",
            (game_id, len(prefix), prefix),
        )
        return sorted({str(r[0]) for r in rows})

    def status_write(self, game_id: int, status: GameStatus) -> Write:
        """A game that ends drops its intermediate snapshots in the same statement (a trigger, migration 7)."""

        def after() -> None:
            if status == GameStatus.ENDED:
                self.forget(game_id)
            else:
                self._changed_game(game_id, status=status)

        return Write("UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, time.time(), game_id), after)

    async def set_status(self, game_id: int, status: GameStatus) -> None:
        await self.apply([self.status_write(game_id, status)])

    def settings_write(self, game_id: int, settings: dict[str, Any]) -> Write:
        text = json.dumps(settings)
        return Write(
            "UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
            (text, time.time(), game_id),
            lambda: self._changed_game(game_id, settings=json.loads(text)),
        )

    async def update_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self.apply([self.settings_write(game_id, settings)])

    async def status_message(self, game_id: int) -> int | None:
        row = await self.game(game_id)
        return row.status_message_id if row is not None else None

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self.write("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))
        self._changed_game(game_id, status_message_id=message_id)

    async def set_log_thread(self, game_id: int, thread_id: int) -> None:
        await self.write("UPDATE games SET log_thread_id = ? WHERE id = ?", (thread_id, game_id))
        self._changed_game(game_id, log_thread_id=thread_id)

    # ----- seats -----

    async def seats(self, game_id: int) -> dict[str, int | None]:
        """house -> user (a copy: callers may change it)."""
        cached = self._seats.get(game_id)
        if cached is None:
            cached = await self.read_once(self._seat_reads, game_id, lambda seen: self._read_seats(game_id, seen))
        return dict(cached)

    async def _read_seats(self, game_id: int, seen: int) -> dict[str, int | None]:
        rows = await self.db.fetchall("SELECT house, user_id FROM seats WHERE game_id = ?", (game_id,))
        seats = {str(r[0]): (int(r[1]) if r[1] is not None else None) for r in rows}
        if self.changes.get(game_id, 0) == seen:
            self._seats[game_id] = seats
        return seats

    async def games_of_user(self, user_id: int, *, channel_id: int | None = None) -> list[tuple[int, str]]:
        """(game, house) for every unfinished game the user sits in, optionally only in one channel."""
        sql = (
            "SELECT s.game_id, s.house FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status != 'ended'"
        )
        params: tuple[Any, ...] = (user_id,)
        if channel_id is not None:
            sql += " AND g.channel_id = ?"
            params = (user_id, channel_id)
        return [(int(r[0]), str(r[1])) for r in await self.db.fetchall(sql + " ORDER BY s.game_id", params)]

    # ----- state, answers, snapshots -----

    async def start_game(
        self,
        game_id: int,
        state: str,
        version: int,
        seats: dict[str, int | None],
        writes: list[Write] | None = None,
        *,
        at: float | None = None,
    ) -> None:
        """Store the initial state, the seats, a snapshot and ``writes`` (the first deadline) in one transaction.
        ``at``: the start's time (now by default), which its outbox row carries."""
        at = time.time() if at is None else at
        async with self.transaction() as db:
            for write in writes or []:
                await db.execute(write.sql, write.params)
            for house, user in seats.items():
                await db.execute(SET_SEAT, (game_id, house, user))
            await db.execute(
                "UPDATE games SET state = ?, version = ?, status = 'running', updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (state, version, at, game_id),
            )
            await db.execute(SET_SNAPSHOT, (game_id, version, state))
            await db.execute(OUTBOX_STEP, (game_id, version, "step", at))
        self.forget(game_id)
        # The seats as committed: the start's first clicks (every seat's, here or in the gateway) read them at once.
        self._seats[game_id] = dict(seats)
        committed(writes)

    async def commit_answer(
        self,
        game_id: int,
        *,
        expected_version: int,
        new_version: int,
        new_state: str,
        house: str,
        user_id: int | None,
        prompt_id: str,
        answer: Any,
        source: Source,
        snapshot: bool = False,
        status: GameStatus | None = None,
        events: list[dict[str, Any]] | None = None,
        player: str | None = None,
        seats: dict[str, int | None] | None = None,
        key: str | None = None,
        notices: list[dict[str, Any]] | None = None,
        writes: list[Write] | None = None,
        at: float | None = None,
    ) -> None:
        """Append the answer and store the new state, only if the game is still at ``expected_version``. ``at``: the
        commit's time (now by default), which its answer and its outbox row carry.

        A player's own answer also ends their run of missed deadlines, in the same transaction (``player``: the
        house whose player answered, when it is not ``house``, as a liege answering for his vassal). ``seats``: the
        seats the new state holds (a change of player), written in the same transaction. ``key``: the command's
        idempotency key (the confirmation it answers): a second commit with the same key raises ``DuplicateCommand``
        and stores nothing. ``notices``: channel lines to post after this version (a moderator's audit line).
        ``writes``: what else the commit implies (the new step's deadline, a missed deadline), in its transaction.
        """
        # A player's own answer ends his run of missed deadlines, if he has one: the trigger deletes it, which costs
        # less than asking first (a read at each answer wherever the cache was dropped, as after another process's).
        answerer = (player or house) if source == Source.PLAYER else None
        try:
            # One statement, so one atomic transaction: the trigger of answer_commits (migration 7) checks the
            # version, stores the state, appends the answer, and writes the snapshot, ends the run of missed
            # deadlines and prunes an ended game's snapshots when asked; any failure leaves none of it.
            commit = COMMIT_ANSWER + COMMIT_VALUES
            values = (
                game_id,
                expected_version,
                new_version,
                new_state,
                status,
                house,
                user_id,
                prompt_id,
                json.dumps(answer),
                source,
                at if at is not None else time.time(),
                json.dumps([e for e in events or [] if "private_to" not in e]),
                snapshot,
                answerer,
                key,
            )
            implied = [
                *((SET_SEAT, (game_id, h, u)) for h, u in (seats or {}).items()),
                *((ADD_NOTICE, row) for row in notice_rows(game_id, notices or [])),
                *((write.sql, write.params) for write in writes or []),
            ]
            if isinstance(self.db, PostgresDatabase):
                # One round trip either way: alone, with the answers committed beside it (``answer_commits``); with
                # what it implies (the next step's deadline, a change of seat, a moderator's line), its statements
                # sent together, where a transaction took one for BEGIN, one per statement and one for COMMIT.
                if implied:
                    await self.db.execute_together([(commit, values), *implied])
                else:
                    await self.answer_commits(values)
            elif implied:
                async with self.transaction() as db:
                    for sql, params in [(commit, values), *implied]:
                        await db.execute(sql, params)
            else:
                await self.write(commit, values)
            if seats is not None:
                self.wrote(game_id)
                self._seats.pop(game_id, None)
        except BaseException as err:
            self._seats.pop(game_id, None)
            self.forget(game_id)  # after a conflict or a failure, the cached row may not be the stored one
            if isinstance(err, IntegrityError) and str(err).startswith(VERSION_CONFLICT):
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}") from err
            if isinstance(err, IntegrityError) and "command_key" in str(err):
                raise DuplicateCommand(f"game {game_id} already applied the command {key}") from err
            raise
        committed(writes)
        if status == GameStatus.ENDED:
            self.forget(game_id)
            return
        if answerer is not None and (missed := self._missed.get(game_id)) is not None:
            missed.discard(answerer)  # wrote() below keeps a read of them under way from being cached
        changed: dict[str, Any] = {"state": new_state, "version": new_version}
        if status is not None:
            changed["status"] = status
        self._changed_game(game_id, **changed)

    async def answers(self, game_id: int, *, after_version: int = 0) -> list[AnswerRow]:
        rows = await self.db.fetchall(
            "SELECT version, house, user_id, prompt_id, answer, source, at FROM answers"
            " WHERE game_id = ? AND version > ? ORDER BY version",
            (game_id, after_version),
        )
        return [
            AnswerRow(int(r[0]), str(r[1]), r[2], str(r[3]), json.loads(r[4]), Source(r[5]), float(r[6])) for r in rows
        ]

    async def entries_with_events(
        self, game_id: int, *, after_version: int, up_to: int
    ) -> list[tuple[AnswerRow, list[dict[str, Any]]]]:
        """The log's entries after ``after_version`` up to ``up_to``, each with the public events it caused, in order
        (a publisher rolling a game it holds forward to a version it publishes: one read for both)."""
        rows = await self.db.fetchall(
            "SELECT version, house, user_id, prompt_id, answer, source, at, events FROM answers"
            " WHERE game_id = ? AND version > ? AND version <= ? ORDER BY version",
            (game_id, after_version, up_to),
        )
        return [
            (
                AnswerRow(int(r[0]), str(r[1]), r[2], str(r[3]), json.loads(r[4]), Source(r[5]), float(r[6])),
                json.loads(r[7]),
            )
            for r in rows
        ]

    async def entries_at(
        self, versions: list[tuple[int, int]]
    ) -> dict[tuple[int, int], tuple[AnswerRow, list[dict[str, Any]]]]:
        """The log's entries that made these (game, version) pairs, each with the public events it caused, read at once
        (a publisher draining several games' versions); a version no entry made (a start) is absent."""
        found: dict[tuple[int, int], tuple[AnswerRow, list[dict[str, Any]]]] = {}
        for start in range(0, len(versions), ENTRIES_PER_READ):
            chunk = versions[start : start + ENTRIES_PER_READ]
            pairs = ", ".join(["(?, ?)"] * len(chunk))
            rows = await self.db.fetchall(
                "SELECT game_id, version, house, user_id, prompt_id, answer, source, at, events FROM answers"
                f" WHERE (game_id, version) IN (VALUES {pairs})",
                tuple(number for pair in chunk for number in pair),
            )
            for r in rows:
                row = AnswerRow(int(r[1]), str(r[2]), r[3], str(r[4]), json.loads(r[5]), Source(r[6]), float(r[7]))
                found[(int(r[0]), int(r[1]))] = (row, json.loads(r[8]))
        return found

    async def answer_at(self, game_id: int, version: int) -> tuple[AnswerRow, list[dict[str, Any]]] | None:
        """The entry that made ``version`` and the public events it caused (None: no entry made it, as a start)."""
        r = await self.db.fetchone(
            "SELECT version, house, user_id, prompt_id, answer, source, at, events FROM answers"
            " WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        if r is None:
            return None
        row = AnswerRow(int(r[0]), str(r[1]), r[2], str(r[3]), json.loads(r[4]), Source(r[5]), float(r[6]))
        return row, json.loads(r[7])

    async def public_events(self, game_id: int, *, limit: int = 200) -> list[dict[str, Any]]:
        """The most recent public events of a game, oldest first."""
        rows = await self.db.fetchall(
            "SELECT events FROM answers WHERE game_id = ? ORDER BY version DESC LIMIT ?", (game_id, limit)
        )
        out: list[dict[str, Any]] = []
        for row in reversed(rows):
            out.extend(json.loads(row[0]))
        return out

    async def events_by_version(self, game_id: int) -> dict[int, list[dict[str, Any]]]:
        """The public events of every logged entry of a game, by version."""
        rows = await self.db.fetchall(
            "SELECT version, events FROM answers WHERE game_id = ? ORDER BY version", (game_id,)
        )
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def snapshot_versions(self, game_id: int) -> list[int]:
        rows = await self.db.fetchall("SELECT version FROM snapshots WHERE game_id = ? ORDER BY version", (game_id,))
        return [int(r[0]) for r in rows]

    async def latest_snapshot(self, game_id: int, *, at_most: int) -> tuple[int, str] | None:
        row = await self.db.fetchone(
            "SELECT version, state FROM snapshots WHERE game_id = ? AND version <= ? ORDER BY version DESC LIMIT 1",
            (game_id, at_most),
        )
        return (int(row[0]), str(row[1])) if row else None

    async def truncate_after(
        self,
        game_id: int,
        version: int,
        state: str,
        seats: dict[str, int | None] | None = None,
        *,
        key: str | None = None,
        by: int | None = None,
        notices: list[dict[str, Any]] | None = None,
    ) -> float:
        """Undo: drop answers and snapshots after ``version`` and restore that state and the seats it holds, in one
        transaction with the command's key and notices (``apply``); the restored version is published as a reset,
        whose outbox row's time of writing is returned."""
        now = time.time()
        writes = [
            Write("DELETE FROM answers WHERE game_id = ? AND version > ?", (game_id, version)),
            Write("DELETE FROM snapshots WHERE game_id = ? AND version > ?", (game_id, version)),
            Write(
                "UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ?",
                (state, version, now, game_id),
                lambda: self._changed_game(game_id, state=state, version=version),
            ),
            *(Write(SET_SEAT, (game_id, h, u)) for h, u in (seats or {}).items()),
            Write("DELETE FROM outbox WHERE game_id = ? AND version > ?", (game_id, version)),
            # The marks of the undone versions' publications go too: the versions committed again after it publish
            # afresh, and would otherwise take those marks for their own (a message skipped as sent).
            Write("DELETE FROM outbox_sends WHERE game_id = ? AND version > ?", (game_id, version)),
            Write(OUTBOX_STEP, (game_id, version, "reset", now)),
        ]
        try:
            await self.apply(writes, game_id=game_id, key=key, name="undo", by=by, notices=notices)
        finally:
            self.wrote(game_id)
            self._seats.pop(game_id, None)
        return now


def _game_row(row: tuple[Any, ...]) -> GameRow:
    """A row of ``GAME_COLUMNS``."""
    (
        game_id,
        guild_id,
        channel_id,
        name,
        created_by,
        status,
        settings,
        state,
        version,
        status_message_id,
        thread,
        broken,
    ) = row
    return GameRow(
        id=int(game_id),
        guild_id=int(guild_id),
        channel_id=int(channel_id),
        name=str(name),
        created_by=int(created_by),
        status=GameStatus(status),
        settings=json.loads(settings),
        state=state,
        version=int(version),
        status_message_id=int(status_message_id) if status_message_id is not None else None,
        log_thread_id=int(thread) if thread is not None else None,
        broken_reason=str(broken) if broken is not None else None,
    )
