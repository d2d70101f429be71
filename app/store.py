"""Persistence: games, seats, an append-only answer log and state snapshots, on SQLite or PostgreSQL
(``app.database``); the schema is Alembic's (``app.migrate``), brought up to date as the store opens.

Every accepted answer is written in one statement (so one transaction) together with the new state, guarded by
a compare-and-set on the game's version, so two racing writers can never both succeed.

``Store`` is composed of one part per what it stores, each in its own module: the caches and writes they share
(``app.store_base``), commands and the outbox (``app.store_outbox``), games, seats and their state
(``app.store_games``), the lobby and users (``app.store_lobby``), deadlines (``app.store_deadlines``), retention,
deletion and a member's own data (``app.store_privacy``), a server's games at a glance (``app.store_guilds``), and
the threads of the houses' private talks (``app.store_talks``).
Import everything from here.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from app import migrate
from app.database import POOL_SIZE, connect, is_postgres
from app.store_base import CACHED_GAMES, CACHED_USERS, CHANGED, Write
from app.store_deadlines import DEADLINE_COLUMNS, DeadlineRow, DeadlineStore
from app.store_games import (
    ACTIVE,
    GAME_COLUMNS,
    SET_SEAT,
    SET_SNAPSHOT,
    VERSION_CONFLICT,
    AnswerRow,
    GameRow,
    GameStatus,
    GameStore,
    Source,
    VersionConflict,
)
from app.store_guilds import EndedGame, GuildStore, UnfinishedGame
from app.store_lobby import HouseTaken, LobbyStore, NotInLobby, UserStore
from app.store_outbox import OUTBOX_STEP, DuplicateCommand, Notice, Sent
from app.store_privacy import MemberData, PrivacyStore
from app.store_talks import Talk, TalkStore

__all__ = [
    "ACTIVE",
    "CACHED_GAMES",
    "CACHED_USERS",
    "CHANGED",
    "DEADLINE_COLUMNS",
    "GAME_COLUMNS",
    "OUTBOX_STEP",
    "SET_SEAT",
    "SET_SNAPSHOT",
    "VERSION_CONFLICT",
    "AnswerRow",
    "DeadlineRow",
    "DeadlineStore",
    "DuplicateCommand",
    "EndedGame",
    "GameRow",
    "GameStatus",
    "HouseTaken",
    "MemberData",
    "NotInLobby",
    "Notice",
    "Sent",
    "Source",
    "Store",
    "Talk",
    "UnfinishedGame",
    "VersionConflict",
    "Write",
]


class Store(GameStore, LobbyStore, UserStore, GuildStore, PrivacyStore, TalkStore):
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
