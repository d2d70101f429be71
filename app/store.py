"""Persistence with aiosqlite: games, seats, an append-only answer log and state snapshots.

WAL mode; the schema is versioned with ``PRAGMA user_version`` and upgraded by ``MIGRATIONS`` in order.
Every accepted answer is written in one statement (so one transaction) together with the new state, guarded by
a compare-and-set on the game's version, so two racing writers can never both succeed.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import aiosqlite

from app.lru import Bounded

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        created_by INTEGER NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'paused', 'ended')),
        settings TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_by_channel ON games (channel_id, status);
    CREATE TABLE lobby (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        house TEXT NOT NULL,
        user_id INTEGER,
        PRIMARY KEY (game_id, house)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        house TEXT NOT NULL,
        user_id INTEGER,
        prompt_id TEXT NOT NULL,
        answer TEXT NOT NULL,
        source TEXT NOT NULL,
        at REAL NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TABLE dm_status (
        user_id INTEGER PRIMARY KEY,
        closed INTEGER NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    # 2: deadlines, one open deadline per game; the database is the source of truth for the scheduler
    """
    CREATE TABLE deadlines (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        step_key TEXT NOT NULL,
        category TEXT NOT NULL,
        opened_at REAL NOT NULL,
        due_at REAL NOT NULL,
        paused_remaining REAL
    );
    CREATE TABLE missed_deadlines (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        house TEXT NOT NULL,
        in_a_row INTEGER NOT NULL,
        PRIMARY KEY (game_id, house)
    );
    """,
    # 3: the public events each answer caused, for /game log (private events are never stored here)
    """
    ALTER TABLE answers ADD COLUMN events TEXT NOT NULL DEFAULT '[]';
    """,
    # 4: the pinned status message of each game, edited in place
    """
    ALTER TABLE games ADD COLUMN status_message_id INTEGER;
    """,
    # 5: per-player vacations: deadlines that await a player on vacation wait until it ends
    """
    CREATE TABLE vacations (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        house TEXT NOT NULL,
        until REAL NOT NULL,
        days_used REAL NOT NULL,
        PRIMARY KEY (game_id, house)
    );
    """,
    # 6: each user's Discord locale at their last interaction, for the DMs the bot sends them unasked
    """
    CREATE TABLE user_locales (
        user_id INTEGER PRIMARY KEY,
        locale TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    # 7: an answer is committed by one INSERT into ``answer_commits``, whose trigger does all of it: one statement is
    # one atomic transaction, and one trip to the database thread instead of four (BEGIN, UPDATE, INSERT, COMMIT).
    # A game that ends (by its last answer or by a moderator) drops the snapshots between its first and its last in
    # the same statement: the first (and any repair's) and the log replay every point, and the final state stays in
    # the games row (see docs/bot.md, "What the bot keeps").
    """
    CREATE VIEW answer_commits AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS new_version, NULL AS state, NULL AS status,
        NULL AS house, NULL AS user_id, NULL AS prompt_id, NULL AS answer, NULL AS source, NULL AS at,
        NULL AS events, NULL AS snapshot, NULL AS ends_run_of
    WHERE 0;
    CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits BEGIN
        SELECT RAISE(ABORT, 'version-conflict')
            WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events);
        INSERT OR REPLACE INTO snapshots (game_id, version, state)
            SELECT NEW.game_id, NEW.new_version, NEW.state WHERE NEW.snapshot;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
    END;
    CREATE TRIGGER games_ended_prune_snapshots AFTER UPDATE OF status ON games
    WHEN NEW.status = 'ended' BEGIN
        DELETE FROM snapshots WHERE game_id = NEW.id
            AND version > (SELECT MIN(version) FROM snapshots WHERE game_id = NEW.id)
            AND version < NEW.version
            AND version NOT IN (SELECT version FROM answers WHERE game_id = NEW.id AND prompt_id = 'repair');
    END;
    """,
    # 8: the outbox. The statement that commits a version also records that what it implies (channel lines and
    # images, decision DMs, the pinned status) is still to be published; the publisher deletes the row once all of
    # it is out and notes the parts already sent in ``sent``, and at start-up it publishes every row left, so a
    # crash after a commit loses no message and sends none twice. ``kind``: ``step`` (a version committed) or
    # ``reset`` (an undo brought the game back to this version: every decision open there is sent afresh).
    """
    CREATE TABLE outbox (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'step',
        sent TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, version, kind)
    );
    ALTER TABLE answers ADD COLUMN command_key TEXT;
    CREATE UNIQUE INDEX answers_by_command_key ON answers (game_id, command_key) WHERE command_key IS NOT NULL;
    DROP VIEW answer_commits;
    CREATE VIEW answer_commits AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS new_version, NULL AS state, NULL AS status,
        NULL AS house, NULL AS user_id, NULL AS prompt_id, NULL AS answer, NULL AS source, NULL AS at,
        NULL AS events, NULL AS snapshot, NULL AS ends_run_of, NULL AS command_key
    WHERE 0;
    CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits BEGIN
        SELECT RAISE(ABORT, 'version-conflict')
            WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events, command_key)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events, NEW.command_key);
        INSERT OR REPLACE INTO snapshots (game_id, version, state)
            SELECT NEW.game_id, NEW.new_version, NEW.state WHERE NEW.snapshot;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
        INSERT OR REPLACE INTO outbox (game_id, version, created_at) VALUES (NEW.game_id, NEW.new_version, NEW.at);
    END;
    """,
    # 9: every command is idempotent and tells the channel durably. ``commands``: the key of every command that
    # changed a game's table without logging an entry (a pause, an extension...; a logged entry keeps its key in
    # ``answers.command_key``): a second command with the same key is refused. ``notices``: channel lines that no
    # version implies (a moderator's audit line, a deadline's news, a vacation), written in the transaction of the
    # change they tell and posted after the publication of ``after_version``, then deleted.
    """
    CREATE TABLE commands (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        by_user INTEGER,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, key)
    );
    CREATE TABLE notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        after_version INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX notices_by_game ON notices (game_id, id);
    """,
    # 10: the houses players choose in a lobby, one per player and each house once (the start deals the houses nobody
    # chose). A pick belongs to a lobby seat: a player who leaves the lobby frees his house in the same statement.
    """
    CREATE TABLE lobby_picks (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        house TEXT NOT NULL,
        picked_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, house),
        FOREIGN KEY (game_id, user_id) REFERENCES lobby (game_id, user_id) ON DELETE CASCADE
    );
    """,
]


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


SET_SEAT = (
    "INSERT INTO seats (game_id, house, user_id) VALUES (?, ?, ?)"
    " ON CONFLICT (game_id, house) DO UPDATE SET user_id = excluded.user_id"
)


CACHED_GAMES = 1024  # rows of the games most recently read or written (ended games leave at once)
CACHED_USERS = 4096  # DM status of the users most recently seen

VERSION_CONFLICT = "version-conflict"  # the message of the answer_commits trigger when the version has moved


def statements(script: str) -> list[str]:
    """The statements of a migration script, each whole (a trigger's body holds semicolons of its own)."""
    found: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending.strip())
            pending = ""
    if pending.strip(" \n;"):
        raise ValueError(f"an incomplete statement in a migration: {pending.strip()[:80]}")
    return found


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
    """One connection for the whole bot. Writes are serialised by one lock: with a shared connection, a
    statement issued while another coroutine's transaction is open would silently join that transaction.

    The rows read on every interaction (a game, its seats, its deadline, a user's DM status) are cached in
    memory and replaced by every write that changes them, after it commits. That is exact because this
    store is the only writer of its database: one bot process owns the file (other connections may read).
    Every cache is bounded (the most recently used games and users), and an ended game leaves them.
    """

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.write_lock = asyncio.Lock()
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

    def forget(self, game_id: int) -> None:
        """Drop what is cached of a game (after a write whose outcome is not known here)."""
        self._games.pop(game_id, None)
        self._seats.pop(game_id, None)
        self.deadline_cache.pop(game_id, None)
        self._missed.pop(game_id, None)

    async def missed_in_a_row(self, game_id: int, house: str) -> int:
        """How many deadlines in a row the house's player has missed (0 once he answers)."""
        async with self.db.execute(
            "SELECT in_a_row FROM missed_deadlines WHERE game_id = ? AND house = ?", (game_id, house)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def missed_houses(self, game_id: int) -> set[str]:
        """The houses of a game whose player has a run of missed deadlines, cached and kept up to date by the store
        (a missed deadline adds its house, the player's own answer removes it)."""
        cached = self._missed.get(game_id)
        if cached is None:
            async with self.db.execute("SELECT house FROM missed_deadlines WHERE game_id = ?", (game_id,)) as cur:
                cached = self._missed[game_id] = {str(r[0]) for r in await cur.fetchall()}
        return cached

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self.write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def write(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """One statement on its own (autocommit), never inside another coroutine's transaction; returns rowcount."""
        async with self.write_lock:
            cur = await self.db.execute(sql, params)
            return cur.rowcount

    @staticmethod
    async def open(path: Path | str) -> Store:
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA busy_timeout=5000")
        store = Store(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with self.transaction() as db:
                for statement in statements(script):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number}")

    # ----- games -----

    async def create_game(
        self, *, guild_id: int, channel_id: int, name: str, created_by: int, settings: dict[str, Any]
    ) -> int:
        now = time.time()
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, name, created_by, created_at, status, settings, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, name, created_by, now, json.dumps(settings), now),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    async def game(self, game_id: int) -> GameRow | None:
        cached = self._games.get(game_id)
        if cached is not None:
            return cached
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        game = _game_row(row)
        if game.status != GameStatus.ENDED:  # an ended game is read rarely: it does not take a place in memory
            self._games[game_id] = game
        return game

    def _changed_game(self, game_id: int, **fields: Any) -> None:
        """Apply a committed change to the cached row (if cached; otherwise the next read loads it)."""
        cached = self._games.get(game_id)
        if cached is not None:
            self._games[game_id] = replace(cached, **fields)

    async def games_in_channel(self, channel_id: int, *, active_only: bool = True) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE channel_id = ?"
        if active_only:
            sql += " AND status != 'ended'"
        async with self.db.execute(sql + " ORDER BY id", (channel_id,)) as cur:
            rows = await cur.fetchall()
        return [_game_row(r) for r in rows]

    async def count_active(self) -> int:
        """Games running or paused, counted by the database (no state is read)."""
        async with self.db.execute("SELECT COUNT(*) FROM games WHERE status IN ('running', 'paused')") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def active_games(self) -> list[GameRow]:
        async with self.db.execute("SELECT * FROM games WHERE status IN ('running', 'paused') ORDER BY id") as cur:
            rows = await cur.fetchall()
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
        except sqlite3.IntegrityError as err:
            if "commands" in str(err):
                raise DuplicateCommand(f"game {game_id} already applied the command {key}") from err
            raise
        for write in writes:
            if write.after is not None:
                write.after()

    @staticmethod
    async def _add_notices(db: aiosqlite.Connection, game_id: int, notices: list[dict[str, Any]]) -> None:
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
        async with self.db.execute(sql + " ORDER BY game_id, id", params) as cur:
            rows = await cur.fetchall()
        return [Notice(int(r[0]), int(r[1]), int(r[2]), json.loads(r[3])) for r in rows]

    async def notice_posted(self, notice_id: int) -> None:
        await self.write("DELETE FROM notices WHERE id = ?", (notice_id,))

    async def status_message(self, game_id: int) -> int | None:
        row = await self.game(game_id)
        return row.status_message_id if row is not None else None

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self.write("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))
        self._changed_game(game_id, status_message_id=message_id)

    # ----- lobby and seats -----

    async def join_lobby(self, game_id: int, user_id: int) -> bool:
        changed = await self.write(
            "INSERT OR IGNORE INTO lobby (game_id, user_id, joined_at) VALUES (?, ?, ?)",
            (game_id, user_id, time.time()),
        )
        return changed == 1

    async def leave_lobby(self, game_id: int, user_id: int) -> bool:
        return await self.write("DELETE FROM lobby WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby(self, game_id: int) -> list[int]:
        async with self.db.execute(
            "SELECT user_id FROM lobby WHERE game_id = ? ORDER BY joined_at, user_id", (game_id,)
        ) as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def pick_house(self, game_id: int, user_id: int, house: str) -> None:
        """The house a lobby player chooses, replacing his earlier pick (``HouseTaken``: another player holds it;
        ``NotInLobby``: the player is not in the lobby). One statement: the table's keys decide, not a read before."""
        try:
            await self.write(
                "INSERT INTO lobby_picks (game_id, user_id, house, picked_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET house = excluded.house, picked_at = excluded.picked_at",
                (game_id, user_id, house, time.time()),
            )
        except sqlite3.IntegrityError as err:
            if "lobby_picks.house" in str(err):
                raise HouseTaken(f"game {game_id}: {house} is taken") from err
            if "FOREIGN KEY" in str(err):
                raise NotInLobby(f"game {game_id}: {user_id} is not in the lobby") from err
            raise

    async def unpick_house(self, game_id: int, user_id: int) -> bool:
        """The player leaves his house to be dealt at the start; False if he had chosen none."""
        return await self.write("DELETE FROM lobby_picks WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby_picks(self, game_id: int) -> dict[int, str]:
        """user -> the house he chose in the lobby, in the order the picks were made (a player who left the lobby
        has none: his pick left with him)."""
        async with self.db.execute(
            "SELECT user_id, house FROM lobby_picks WHERE game_id = ? ORDER BY picked_at, user_id", (game_id,)
        ) as cur:
            return {int(r[0]): str(r[1]) for r in await cur.fetchall()}

    async def seats(self, game_id: int) -> dict[str, int | None]:
        """house -> user (a copy: callers may change it)."""
        cached = self._seats.get(game_id)
        if cached is None:
            async with self.db.execute("SELECT house, user_id FROM seats WHERE game_id = ?", (game_id,)) as cur:
                rows = await cur.fetchall()
            cached = self._seats[game_id] = {str(r[0]): (int(r[1]) if r[1] is not None else None) for r in rows}
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
        async with self.db.execute(sql + " ORDER BY s.game_id", params) as cur:
            return [(int(r[0]), str(r[1])) for r in await cur.fetchall()]

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
            await db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, version, state) VALUES (?, ?, ?)", (game_id, version, state)
            )
            await db.execute(
                "INSERT OR REPLACE INTO outbox (game_id, version, created_at) VALUES (?, ?, ?)",
                (game_id, version, time.time()),
            )
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
            if isinstance(err, sqlite3.IntegrityError) and str(err) == VERSION_CONFLICT:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}") from err
            if isinstance(err, sqlite3.IntegrityError) and "command_key" in str(err):
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
        async with self.db.execute(
            "SELECT version, house, user_id, prompt_id, answer, source, at FROM answers"
            " WHERE game_id = ? AND version > ? ORDER BY version",
            (game_id, after_version),
        ) as cur:
            rows = await cur.fetchall()
        return [
            AnswerRow(int(r[0]), str(r[1]), r[2], str(r[3]), json.loads(r[4]), Source(r[5]), float(r[6])) for r in rows
        ]

    async def answer_at(self, game_id: int, version: int) -> tuple[AnswerRow, list[dict[str, Any]]] | None:
        """The entry that made ``version`` and the public events it caused (None: no entry made it, as a start)."""
        async with self.db.execute(
            "SELECT version, house, user_id, prompt_id, answer, source, at, events FROM answers"
            " WHERE game_id = ? AND version = ?",
            (game_id, version),
        ) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        row = AnswerRow(int(r[0]), str(r[1]), r[2], str(r[3]), json.loads(r[4]), Source(r[5]), float(r[6]))
        return row, json.loads(r[7])

    # ----- the outbox -----

    async def unpublished(self) -> list[tuple[int, int, str, frozenset[str]]]:
        """(game, version, kind, parts already sent) of every version whose consequences are not all published,
        each game's in the order they were committed."""
        async with self.db.execute(
            "SELECT game_id, version, kind, sent FROM outbox ORDER BY game_id, created_at, version"
        ) as cur:
            rows = await cur.fetchall()
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
        async with self.db.execute(
            "SELECT events FROM answers WHERE game_id = ? ORDER BY version DESC LIMIT ?", (game_id, limit)
        ) as cur:
            rows = await cur.fetchall()
        out: list[dict[str, Any]] = []
        for row in reversed(list(rows)):
            out.extend(json.loads(row[0]))
        return out

    async def events_by_version(self, game_id: int) -> dict[int, list[dict[str, Any]]]:
        """The public events of every logged entry of a game, by version."""
        async with self.db.execute(
            "SELECT version, events FROM answers WHERE game_id = ? ORDER BY version", (game_id,)
        ) as cur:
            rows = await cur.fetchall()
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def snapshot_versions(self, game_id: int) -> list[int]:
        async with self.db.execute(
            "SELECT version FROM snapshots WHERE game_id = ? ORDER BY version", (game_id,)
        ) as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def latest_snapshot(self, game_id: int, *, at_most: int) -> tuple[int, str] | None:
        async with self.db.execute(
            "SELECT version, state FROM snapshots WHERE game_id = ? AND version <= ? ORDER BY version DESC LIMIT 1",
            (game_id, at_most),
        ) as cur:
            row = await cur.fetchone()
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
            Write(
                "INSERT OR REPLACE INTO outbox (game_id, version, kind, created_at) VALUES (?, ?, 'reset', ?)",
                (game_id, version, now),
            ),
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
            async with self.db.execute("SELECT closed FROM dm_status WHERE user_id = ?", (user_id,)) as cur:
                row = await cur.fetchone()
            self._dm_closed[user_id] = bool(row[0]) if row else False
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
            async with self.db.execute("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,)) as cur:
                row = await cur.fetchone()
            self._locales[user_id] = str(row[0]) if row else None
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
            async with self.db.execute("SELECT * FROM deadlines WHERE game_id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            cache[game_id] = _deadline_row(row) if row else None
        return cache[game_id]

    async def all(self) -> list[DeadlineRow]:
        """Every stored deadline, read from the database (start-up); refreshes the cache."""
        async with self.db.execute("SELECT * FROM deadlines ORDER BY due_at") as cur:
            rows = [_deadline_row(r) for r in await cur.fetchall()]
        self.store.deadline_cache.clear()
        self.store.deadline_cache.update((row.game_id, row) for row in rows)
        return rows

    def put_write(self, row: DeadlineRow) -> Write:
        def after() -> None:
            self.store.deadline_cache[row.game_id] = row

        return Write(
            "INSERT OR REPLACE INTO deadlines (game_id, step_key, category, opened_at, due_at, paused_remaining)"
            " VALUES (?, ?, ?, ?, ?, ?)",
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
                " ON CONFLICT (game_id, house) DO UPDATE SET in_a_row = in_a_row + 1",
                (game_id, house),
            )
            async with db.execute(
                "SELECT in_a_row FROM missed_deadlines WHERE game_id = ? AND house = ?", (game_id, house)
            ) as cur:
                row = await cur.fetchone()
        (await self.store.missed_houses(game_id)).add(house)
        return int(row[0]) if row else 0

    async def vacations(self, game_id: int) -> dict[str, tuple[float, float]]:
        """house -> (until, days used so far in this game)."""
        async with self.db.execute(
            "SELECT house, until, days_used FROM vacations WHERE game_id = ?", (game_id,)
        ) as cur:
            return {str(r[0]): (float(r[1]), float(r[2])) for r in await cur.fetchall()}

    def vacation_write(self, game_id: int, house: str, until: float, days_used: float) -> Write:
        return Write(
            "INSERT INTO vacations (game_id, house, until, days_used) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, house) DO UPDATE SET until = excluded.until, days_used = excluded.days_used",
            (game_id, house, until, days_used),
        )


def _deadline_row(row: Any) -> DeadlineRow:
    return DeadlineRow(
        game_id=int(row["game_id"]),
        step_key=str(row["step_key"]),
        category=str(row["category"]),
        opened_at=float(row["opened_at"]),
        due_at=float(row["due_at"]),
        paused_remaining=row["paused_remaining"],
    )


def _game_row(row: Any) -> GameRow:
    return GameRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        name=str(row["name"]),
        created_by=int(row["created_by"]),
        status=GameStatus(row["status"]),
        settings=json.loads(row["settings"]),
        state=row["state"],
        version=int(row["version"]),
        status_message_id=int(row["status_message_id"]) if row["status_message_id"] is not None else None,
    )
