"""Persistence: games, seats, an append-only answer log and state snapshots, on SQLite or PostgreSQL
(``app.database``); the schema is Alembic's (``app.migrate``), brought up to date as the store opens.

Every accepted answer is written in one statement (so one transaction) together with the new state, guarded by
a compare-and-set on the game's version, so two racing writers can never both succeed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from app import migrate
from app.database import (
    POOL_SIZE,
    Database,
    IntegrityError,
    Listener,
    PostgresDatabase,
    Session,
    connect,
    is_postgres,
)
from app.lru import Bounded


@dataclass(frozen=True)
class Write:
    """One statement of a change, to run in the transaction that records the command (``Store.apply``);
    ``after`` brings the store's caches in step once it has committed."""

    sql: str
    params: tuple[Any, ...]
    after: Callable[[], None] | None = None


@dataclass(frozen=True)
class Notice:
    """A channel line no version implies, as stored in the outbox (``notices``)."""

    id: int
    game_id: int
    after_version: int
    payload: dict[str, Any]


GAME_COLUMNS = (
    "id, guild_id, channel_id, name, created_by, status, settings, state, version, status_message_id, log_thread_id"
)
DEADLINE_COLUMNS = "game_id, step_key, category, opened_at, due_at, paused_remaining"

SET_SEAT = (
    "INSERT INTO seats (game_id, house, user_id) VALUES (?, ?, ?)"
    " ON CONFLICT (game_id, house) DO UPDATE SET user_id = excluded.user_id"
)


CACHED_GAMES = 1024  # rows of the games most recently read or written (ended games leave at once)
CACHED_USERS = 4096  # DM status of the users most recently seen

CHANGED = "westeros_changed"  # the database's announcements of changed rows (revision 0012)
VERSION_CONFLICT = "version-conflict"  # the message of the answer_commits trigger when the version has moved
OUTBOX_STEP = (
    "INSERT INTO outbox (game_id, version, kind, created_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (game_id, version, kind) DO UPDATE SET sent = '', created_at = excluded.created_at"
)
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


ACTIVE = (GameStatus.RUNNING, GameStatus.PAUSED)  # a started game that has not ended


class Source(StrEnum):
    """Who a change came from: logged with each entry (player, deadline, auto, moderator), or only published (a
    start, an undo's reset)."""

    PLAYER = "player"
    DEADLINE = "deadline"
    AUTO = "auto"  # a decision with a single legal answer
    MODERATOR = "moderator"
    START = "start"
    RESET = "reset"  # an undo brought the game back to a version: every open decision is sent afresh


class VersionConflict(Exception):
    """The game changed since it was read: another answer won the race."""


class DuplicateCommand(Exception):
    """A command with this idempotency key is already applied (a confirmation pressed twice)."""


class HouseTaken(Exception):
    """Another player of the lobby has chosen this house (``lobby_picks`` holds each house once per game)."""


class NotInLobby(Exception):
    """A house is chosen only by a player in the lobby (a pick belongs to a lobby seat)."""


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


@dataclass(frozen=True)
class AnswerRow:
    version: int
    house: str
    user_id: int | None
    prompt_id: str
    answer: Any
    source: Source
    at: float


class Store:
    """The bot's tables on one ``Database`` (SQLite or PostgreSQL).

    The rows read on every interaction (a game, its seats, its deadline, a user's DM status) are cached in
    memory and replaced by every write that changes them, after it commits. That is exact when this store is
    its database's only writer: one bot process owns it (other connections may read). A ``shared`` store (one of
    several processes on one PostgreSQL database) also drops what it kept of a game or a user when the database
    announces a change to it (``watch``, revision 0012); a row read while a change was announced is not kept. A
    decision taken on a row another process changed a moment before is caught by the version's compare-and-set,
    since every change of a game's state or seats moves its version (``GameService.execute`` applies it again).
    Every cache is bounded (the most recently used games and users), and an ended game leaves them.
    """

    def __init__(self, db: Database, *, shared: bool = False) -> None:
        self.db = db
        self.shared = shared
        # How many changes were announced per game and per user: a read kept only if none came while it ran.
        self.changes: Bounded[int, int] = Bounded(CACHED_GAMES * 4)
        self.user_changes: Bounded[int, int] = Bounded(CACHED_USERS * 4)
        self.listener: Listener | None = None
        self._games: Bounded[int, GameRow] = Bounded(CACHED_GAMES)
        self._seats: Bounded[int, dict[str, int | None]] = Bounded(CACHED_GAMES)
        self._dm_closed: Bounded[int, bool] = Bounded(CACHED_USERS)
        self._locales: Bounded[int, str | None] = Bounded(CACHED_USERS)
        self.deadline_cache: Bounded[int, DeadlineRow | None] = Bounded(CACHED_GAMES)
        # Houses of a game with a run of missed deadlines: most answers end none, and need no DELETE.
        self._missed: Bounded[int, set[str]] = Bounded(CACHED_GAMES)

    def cached_games(self) -> int:
        """How many games have something cached here (for tests and the benchmark)."""
        return len(set(self._games) | set(self._seats) | set(self.deadline_cache) | set(self._missed))

    def changed(self, payload: str) -> None:
        """A change another process (or this one) made, as the database announced it: ``g:<game>`` or ``u:<user>``."""
        kind, _, raw = payload.partition(":")
        key = int(raw)
        if kind == "g":
            self.changes[key] = self.changes.get(key, 0) + 1
            self.forget(key)
        else:
            self.user_changes[key] = self.user_changes.get(key, 0) + 1
            self._dm_closed.pop(key, None)
            self._locales.pop(key, None)

    def lost_track(self) -> None:
        """The announcements were interrupted (the listening connection dropped): nothing kept can be trusted."""
        for cache in (self._games, self._seats, self.deadline_cache, self._missed, self._dm_closed, self._locales):
            cache.clear()
        for key in list(self.changes):
            self.changes[key] += 1
        for key in list(self.user_changes):
            self.user_changes[key] += 1

    def watch(self) -> None:
        """Listen to the database's announcements of changes (PostgreSQL; several processes): a shared store's caches
        follow them."""
        assert isinstance(self.db, PostgresDatabase)
        self.listener = Listener(self.db.url, CHANGED, self.changed, self.lost_track)
        self.listener.start()

    def forget(self, game_id: int) -> None:
        """Drop what is cached of a game (after a write whose outcome is not known here)."""
        self._games.pop(game_id, None)
        self._seats.pop(game_id, None)
        self.deadline_cache.pop(game_id, None)
        self._missed.pop(game_id, None)

    async def missed_in_a_row(self, game_id: int, house: str) -> int:
        """How many deadlines in a row the house's player has missed (0 once he answers)."""
        row = await self.db.fetchone(
            "SELECT in_a_row FROM missed_deadlines WHERE game_id = ? AND house = ?", (game_id, house)
        )
        return int(row[0]) if row else 0

    async def missed_houses(self, game_id: int) -> set[str]:
        """The houses of a game whose player has a run of missed deadlines, cached and kept up to date by the store
        (a missed deadline adds its house, the player's own answer removes it)."""
        cached = self._missed.get(game_id)
        if cached is None:
            seen = self.changes.get(game_id, 0)
            rows = await self.db.fetchall("SELECT house FROM missed_deadlines WHERE game_id = ?", (game_id,))
            cached = {str(r[0]) for r in rows}
            if self.changes.get(game_id, 0) == seen:
                self._missed[game_id] = cached
        return cached

    def transaction(self) -> Any:
        """``async with store.transaction() as session``: statements that commit together or not at all."""
        return self.db.transaction()

    async def write(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """One statement on its own (autocommit), never inside another coroutine's transaction; returns rowcount."""
        return await self.db.execute(sql, params)

    @staticmethod
    async def open(target: Path | str, *, shared: bool = False, connections: int = POOL_SIZE[1]) -> Store:
        """The store of a SQLite file (a path or ``sqlite:///``) or a PostgreSQL database (``postgresql://``),
        migrated to the newest schema first. ``shared``: other processes write the same database (PostgreSQL): the
        store follows the changes the database announces."""
        if shared and not is_postgres(target):
            raise ValueError("several processes share a PostgreSQL database only; SQLite has one process")
        await asyncio.to_thread(migrate.upgrade, target)
        store = Store(await connect(target, connections=connections), shared=shared)
        if shared:
            store.watch()
        return store

    async def close(self) -> None:
        if self.listener is not None:
            await self.listener.stop()
        await self.db.close()

    async def schema_revision(self) -> str | None:
        """The Alembic revision the database stands at."""
        row = await self.db.fetchone("SELECT version_num FROM alembic_version")
        return str(row[0]) if row else None

    # ----- games -----

    async def create_game(
        self, *, guild_id: int, channel_id: int, name: str, created_by: int, settings: dict[str, Any]
    ) -> int:
        now = time.time()
        async with self.transaction() as db:
            row = await db.fetchone(
                "INSERT INTO games (guild_id, channel_id, name, created_by, created_at, status, settings, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
                (guild_id, channel_id, name, created_by, now, json.dumps(settings), now),
            )
        assert row is not None
        return int(row[0])

    async def game(self, game_id: int) -> GameRow | None:
        cached = self._games.get(game_id)
        if cached is not None:
            return cached
        seen = self.changes.get(game_id, 0)
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
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('running', 'paused') ORDER BY id"
        )
        return [_game_row(r) for r in rows]

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

    # ----- commands and notices -----

    async def apply(
        self,
        writes: list[Write],
        *,
        game_id: int | None = None,
        key: str | None = None,
        name: str = "",
        by: int | None = None,
        notices: list[dict[str, Any]] | None = None,
    ) -> None:
        """Run a change's statements in one transaction with the command's key (``DuplicateCommand`` if it was
        applied already: nothing is stored) and the notices it implies, posted after the game's version as the change
        leaves it."""
        if len(writes) == 1 and key is None and not notices:  # one statement commits on its own (deadlines, status)
            await self.write(writes[0].sql, writes[0].params)
            if writes[0].after is not None:
                writes[0].after()
            return
        try:
            async with self.transaction() as db:
                if key is not None and game_id is not None:
                    await db.execute(
                        "INSERT INTO commands (game_id, key, name, by_user, at) VALUES (?, ?, ?, ?, ?)",
                        (game_id, key, name, by, time.time()),
                    )
                for write in writes:
                    await db.execute(write.sql, write.params)
                if notices and game_id is not None:
                    await self._add_notices(db, game_id, notices)
        except IntegrityError as err:
            if "commands" in str(err):
                raise DuplicateCommand(f"game {game_id} already applied the command {key}") from err
            raise
        for write in writes:
            if write.after is not None:
                write.after()

    @staticmethod
    async def _add_notices(db: Session, game_id: int, notices: list[dict[str, Any]]) -> None:
        now = time.time()
        await db.executemany(
            "INSERT INTO notices (game_id, after_version, payload, created_at)"
            " SELECT ?, version, ?, ? FROM games WHERE id = ?",
            [(game_id, json.dumps(n), now, game_id) for n in notices],
        )

    async def add_notices(self, game_id: int, notices: list[dict[str, Any]]) -> None:
        """Notices no change of the game goes with (a deadline's news)."""
        async with self.transaction() as db:
            await self._add_notices(db, game_id, notices)

    async def notices(self, game_id: int | None = None) -> list[Notice]:
        """The notices still to post, of one game or of all, each game's in the order they were written."""
        sql = "SELECT id, game_id, after_version, payload FROM notices"
        params: tuple[Any, ...] = ()
        if game_id is not None:
            sql += " WHERE game_id = ?"
            params = (game_id,)
        rows = await self.db.fetchall(sql + " ORDER BY game_id, id", params)
        return [Notice(int(r[0]), int(r[1]), int(r[2]), json.loads(r[3])) for r in rows]

    async def notice_posted(self, notice_id: int) -> None:
        await self.write("DELETE FROM notices WHERE id = ?", (notice_id,))

    async def status_message(self, game_id: int) -> int | None:
        row = await self.game(game_id)
        return row.status_message_id if row is not None else None

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self.write("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))
        self._changed_game(game_id, status_message_id=message_id)

    async def set_log_thread(self, game_id: int, thread_id: int) -> None:
        await self.write("UPDATE games SET log_thread_id = ? WHERE id = ?", (thread_id, game_id))
        self._changed_game(game_id, log_thread_id=thread_id)

    # ----- lobby and seats -----

    async def join_lobby(self, game_id: int, user_id: int) -> bool:
        changed = await self.write(
            "INSERT INTO lobby (game_id, user_id, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, user_id, time.time()),
        )
        return changed == 1

    async def leave_lobby(self, game_id: int, user_id: int) -> bool:
        return await self.write("DELETE FROM lobby WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby(self, game_id: int) -> list[int]:
        rows = await self.db.fetchall(
            "SELECT user_id FROM lobby WHERE game_id = ? ORDER BY joined_at, user_id", (game_id,)
        )
        return [int(r[0]) for r in rows]

    async def pick_house(self, game_id: int, user_id: int, house: str) -> None:
        """The house a lobby player chooses, replacing his earlier pick (``HouseTaken``: another player holds it;
        ``NotInLobby``: the player is not in the lobby). One statement: the table's keys decide, not a read before."""
        try:
            await self.write(
                "INSERT INTO lobby_picks (game_id, user_id, house, picked_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET house = excluded.house, picked_at = excluded.picked_at",
                (game_id, user_id, house, time.time()),
            )
        except IntegrityError as err:
            # SQLite names the columns of the broken key (a file from before Alembic names no constraint);
            # PostgreSQL names the constraint.
            if "lobby_picks.house" in str(err) or "lobby_picks_house_taken" in str(err):
                raise HouseTaken(f"game {game_id}: {house} is taken") from err
            if "FOREIGN KEY" in str(err) or "lobby_picks_seat" in str(err):
                raise NotInLobby(f"game {game_id}: {user_id} is not in the lobby") from err
            raise

    async def unpick_house(self, game_id: int, user_id: int) -> bool:
        """The player leaves his house to be dealt at the start; False if he had chosen none."""
        return await self.write("DELETE FROM lobby_picks WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby_picks(self, game_id: int) -> dict[int, str]:
        """user -> the house he chose in the lobby, in the order the picks were made (a player who left the lobby
        has none: his pick left with him)."""
        rows = await self.db.fetchall(
            "SELECT user_id, house FROM lobby_picks WHERE game_id = ? ORDER BY picked_at, user_id", (game_id,)
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def seats(self, game_id: int) -> dict[str, int | None]:
        """house -> user (a copy: callers may change it)."""
        cached = self._seats.get(game_id)
        if cached is None:
            seen = self.changes.get(game_id, 0)
            rows = await self.db.fetchall("SELECT house, user_id FROM seats WHERE game_id = ?", (game_id,))
            cached = {str(r[0]): (int(r[1]) if r[1] is not None else None) for r in rows}
            if self.changes.get(game_id, 0) == seen:
                self._seats[game_id] = cached
        return dict(cached)

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

    async def start_game(self, game_id: int, state: str, version: int, seats: dict[str, int | None]) -> None:
        """Store the initial state, the seats and a snapshot in one transaction."""
        async with self.transaction() as db:
            for house, user in seats.items():
                await db.execute(SET_SEAT, (game_id, house, user))
            await db.execute(
                "UPDATE games SET state = ?, version = ?, status = 'running', updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (state, version, time.time(), game_id),
            )
            await db.execute(SET_SNAPSHOT, (game_id, version, state))
            await db.execute(OUTBOX_STEP, (game_id, version, "step", time.time()))
        self.forget(game_id)

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
    ) -> None:
        """Append the answer and store the new state, only if the game is still at ``expected_version``.

        A player's own answer also ends their run of missed deadlines, in the same transaction (``player``: the
        house whose player answered, when it is not ``house``, as a liege answering for his vassal). ``seats``: the
        seats the new state holds (a change of player), written in the same transaction. ``key``: the command's
        idempotency key (the confirmation it answers): a second commit with the same key raises ``DuplicateCommand``
        and stores nothing. ``notices``: channel lines to post after this version (a moderator's audit line).
        """
        ends_a_run = source == Source.PLAYER and (player or house) in await self.missed_houses(game_id)
        try:
            # One statement, so one atomic transaction: the trigger of answer_commits (migration 7) checks the
            # version, stores the state, appends the answer, and writes the snapshot, ends the run of missed
            # deadlines and prunes an ended game's snapshots when asked; any failure leaves none of it.
            commit = (
                "INSERT INTO answer_commits (game_id, expected_version, new_version, state, status, house, user_id,"
                " prompt_id, answer, source, at, events, snapshot, ends_run_of, command_key) VALUES (?, ?, ?, ?, ?,"
                " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            )
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
                time.time(),
                json.dumps([e for e in events or [] if "private_to" not in e]),
                snapshot,
                (player or house) if ends_a_run else None,
                key,
            )
            if seats is None and not notices:
                await self.write(commit, values)
            else:
                async with self.transaction() as db:
                    await db.execute(commit, values)
                    await db.executemany(SET_SEAT, [(game_id, h, u) for h, u in (seats or {}).items()])
                    await self._add_notices(db, game_id, notices or [])
                self._seats.pop(game_id, None)
        except BaseException as err:
            self._seats.pop(game_id, None)
            self.forget(game_id)  # after a conflict or a failure, the cached row may not be the stored one
            if isinstance(err, IntegrityError) and str(err).startswith(VERSION_CONFLICT):
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}") from err
            if isinstance(err, IntegrityError) and "command_key" in str(err):
                raise DuplicateCommand(f"game {game_id} already applied the command {key}") from err
            raise
        if status == GameStatus.ENDED:
            self.forget(game_id)
            return
        if ends_a_run:
            self._missed.get(game_id, set()).discard(player or house)
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

    # ----- the outbox -----

    async def unpublished(self) -> list[tuple[int, int, str, frozenset[str]]]:
        """(game, version, kind, parts already sent) of every version whose consequences are not all published,
        each game's in the order they were committed."""
        rows = await self.db.fetchall(
            "SELECT game_id, version, kind, sent FROM outbox ORDER BY game_id, created_at, version"
        )
        return [(int(r[0]), int(r[1]), str(r[2]), frozenset(p for p in str(r[3]).split(",") if p)) for r in rows]

    async def published_part(self, game_id: int, version: int, part: str, kind: str = "step") -> None:
        """Note that one part of a version's consequences is out (a restart must not send it again)."""
        await self.write(
            "UPDATE outbox SET sent = sent || ',' || ? WHERE game_id = ? AND version = ? AND kind = ?",
            (part, game_id, version, kind),
        )

    async def published(self, game_id: int, version: int, kind: str = "step") -> None:
        """Everything a version implies is out, and so is everything of the game's earlier versions (published in
        order) but what failed and waits for a retry."""
        await self.write(
            "DELETE FROM outbox WHERE game_id = ? AND (version < ? OR (version = ? AND kind = ?))"
            " AND sent NOT LIKE '%retry%'",
            (game_id, version, version, kind),
        )

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
    ) -> None:
        """Undo: drop answers and snapshots after ``version`` and restore that state and the seats it holds, in one
        transaction with the command's key and notices (``apply``); the restored version is published as a reset."""
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
            Write(OUTBOX_STEP, (game_id, version, "reset", now)),
        ]
        try:
            await self.apply(writes, game_id=game_id, key=key, name="undo", by=by, notices=notices)
        finally:
            self._seats.pop(game_id, None)

    # ----- DMs -----

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self.write(
            "INSERT INTO dm_status (user_id, closed, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET closed = excluded.closed, updated_at = excluded.updated_at",
            (user_id, int(closed), time.time()),
        )
        self._dm_closed[user_id] = closed

    async def dm_closed(self, user_id: int) -> bool:
        if user_id not in self._dm_closed:
            seen = self.user_changes.get(user_id, 0)
            row = await self.db.fetchone("SELECT closed FROM dm_status WHERE user_id = ?", (user_id,))
            closed = bool(row[0]) if row else False
            if self.user_changes.get(user_id, 0) == seen:
                self._dm_closed[user_id] = closed
            return closed
        return self._dm_closed[user_id]

    # ----- locales -----

    async def set_locale(self, user_id: int, locale: str) -> None:
        """Remember a user's Discord locale; written only when it changed."""
        if await self.locale(user_id) == locale:
            return
        await self.write(
            "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
            (user_id, locale, time.time()),
        )
        self._locales[user_id] = locale

    async def locale(self, user_id: int) -> str | None:
        """The user's Discord locale at their last interaction, or None if they never used the bot."""
        if user_id not in self._locales:
            seen = self.user_changes.get(user_id, 0)
            row = await self.db.fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
            locale = str(row[0]) if row else None
            if self.user_changes.get(user_id, 0) == seen:
                self._locales[user_id] = locale
            return locale
        return self._locales[user_id]


@dataclass(frozen=True)
class DeadlineRow:
    game_id: int
    step_key: str
    category: str
    opened_at: float
    due_at: float
    paused_remaining: float | None


class DeadlineStore:
    """The deadline table, kept apart from the game tables it refers to; writes go through the store's lock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    async def get(self, game_id: int) -> DeadlineRow | None:
        cache = self.store.deadline_cache
        if game_id not in cache:
            seen = self.store.changes.get(game_id, 0)
            row = await self.db.fetchone(f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id = ?", (game_id,))
            found = _deadline_row(row) if row else None
            if self.store.changes.get(game_id, 0) == seen:
                cache[game_id] = found
            return found
        return cache[game_id]

    async def claim(self, game_id: int, key: str, *, now: float, lease: float) -> bool:
        """Take the firing of the game's deadline for step ``key`` until ``now + lease``: False if it is paused, its
        step moved on, or another process holds it (a holder that died lets go when its lease runs out)."""
        taken = await self.store.write(
            "UPDATE deadlines SET claimed_until = ? WHERE game_id = ? AND step_key = ? AND paused_remaining IS NULL"
            " AND (claimed_until IS NULL OR claimed_until < ?)",
            (now + lease, game_id, key, now),
        )
        return taken == 1

    async def release(self, game_id: int, key: str) -> None:
        await self.store.write(
            "UPDATE deadlines SET claimed_until = NULL WHERE game_id = ? AND step_key = ?", (game_id, key)
        )

    async def overdue(self, now: float) -> list[tuple[int, str]]:
        """(game, step key) of every running deadline past its time that no process holds."""
        rows = await self.db.fetchall(
            "SELECT game_id, step_key FROM deadlines WHERE paused_remaining IS NULL AND due_at <= ?"
            " AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY due_at",
            (now, now),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def first_to_remind(self, game_id: int, key: str, which: str) -> bool:
        """Note that the reminder ``which`` of step ``key`` goes out: True for the one process that notes it first."""
        noted = await self.store.write(
            "UPDATE deadlines SET reminded = reminded || ? WHERE game_id = ? AND step_key = ? AND reminded NOT LIKE ?",
            (f",{which}", game_id, key, f"%,{which}%"),
        )
        return noted == 1

    async def all(self) -> list[DeadlineRow]:
        """Every stored deadline, read from the database (start-up); refreshes the cache."""
        rows = [
            _deadline_row(r)
            for r in await self.db.fetchall(f"SELECT {DEADLINE_COLUMNS} FROM deadlines ORDER BY due_at")
        ]
        self.store.deadline_cache.clear()
        self.store.deadline_cache.update((row.game_id, row) for row in rows)
        return rows

    def put_write(self, row: DeadlineRow) -> Write:
        def after() -> None:
            self.store.deadline_cache[row.game_id] = row

        return Write(
            "INSERT INTO deadlines (game_id, step_key, category, opened_at, due_at, paused_remaining)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET step_key = excluded.step_key,"
            " category = excluded.category, opened_at = excluded.opened_at, due_at = excluded.due_at,"
            " paused_remaining = excluded.paused_remaining, claimed_until = NULL,"
            " reminded = CASE WHEN deadlines.step_key = excluded.step_key AND deadlines.due_at = excluded.due_at"
            " THEN deadlines.reminded ELSE '' END",
            (row.game_id, row.step_key, row.category, row.opened_at, row.due_at, row.paused_remaining),
            after,
        )

    async def put(self, row: DeadlineRow) -> None:
        await self.store.apply([self.put_write(row)])

    async def clear(self, game_id: int) -> None:
        await self.store.write("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
        self.store.deadline_cache[game_id] = None

    async def record_missed(self, game_id: int, house: str) -> int:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO missed_deadlines (game_id, house, in_a_row) VALUES (?, ?, 1)"
                " ON CONFLICT (game_id, house) DO UPDATE SET in_a_row = missed_deadlines.in_a_row + 1",
                (game_id, house),
            )
            row = await db.fetchone(
                "SELECT in_a_row FROM missed_deadlines WHERE game_id = ? AND house = ?", (game_id, house)
            )
        (await self.store.missed_houses(game_id)).add(house)
        return int(row[0]) if row else 0

    async def vacations(self, game_id: int) -> dict[str, tuple[float, float]]:
        """house -> (until, days used so far in this game)."""
        rows = await self.db.fetchall("SELECT house, until, days_used FROM vacations WHERE game_id = ?", (game_id,))
        return {str(r[0]): (float(r[1]), float(r[2])) for r in rows}

    def vacation_write(self, game_id: int, house: str, until: float, days_used: float) -> Write:
        return Write(
            "INSERT INTO vacations (game_id, house, until, days_used) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, house) DO UPDATE SET until = excluded.until, days_used = excluded.days_used",
            (game_id, house, until, days_used),
        )


def _deadline_row(row: tuple[Any, ...]) -> DeadlineRow:
    """A row of ``DEADLINE_COLUMNS``."""
    game_id, step_key, category, opened_at, due_at, paused_remaining = row
    return DeadlineRow(
        game_id=int(game_id),
        step_key=str(step_key),
        category=str(category),
        opened_at=float(opened_at),
        due_at=float(due_at),
        paused_remaining=float(paused_remaining) if paused_remaining is not None else None,
    )


def _game_row(row: tuple[Any, ...]) -> GameRow:
    """A row of ``GAME_COLUMNS``."""
    game_id, guild_id, channel_id, name, created_by, status, settings, state, version, status_message_id, thread = row
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
    )
