"""The store's core (``app.store.Store`` is built on it): the database, the caches of the rows read on every
interaction and how they follow changes, and the one-statement and transactional writes every table's code uses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from app.database import Database, PostgresDatabase
from app.listen import Listener
from app.lru import Bounded

if TYPE_CHECKING:
    from app.store_deadlines import DeadlineRow
    from app.store_games import GameRow


@dataclass(frozen=True)
class Write:
    """One statement of a change, to run in the transaction that records the command (``Store.apply``);
    ``after`` brings the store's caches in step once it has committed."""

    sql: str
    params: tuple[Any, ...]
    after: Callable[[], None] | None = None


def committed(writes: list[Write] | None) -> None:
    """The writes' transaction committed: each brings the caches in step."""
    for write in writes or []:
        if write.after is not None:
            write.after()


T = TypeVar("T")

CACHED_GAMES = 1024  # rows of the games most recently read or written (ended games leave at once)
CACHED_USERS = 4096  # DM status of the users most recently seen

CHANGED = "westeros_changed"  # the database's announcements of changed rows (revision 0012)


class StoreBase:
    """The database and the caches of ``Store`` (whose docstring says how they are kept exact)."""

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
        # Reads of a game's row and of its seats under way, with the count of its changes when each began.
        self._game_reads: dict[int, tuple[int, asyncio.Future[Any]]] = {}
        self._seat_reads: dict[int, tuple[int, asyncio.Future[Any]]] = {}

    async def read_once(
        self,
        flights: dict[int, tuple[int, asyncio.Future[Any]]],
        game_id: int,
        read: Callable[[int], Awaitable[T]],
    ) -> T:
        """``read(seen)`` of one game's rows, shared by the callers that ask while it runs: a step's players pressing
        Submit at once, with nothing cached, made one read each of the same rows (a gateway read a game's row and its
        seats six times at a burst's start). A read begun before a change announced since is not joined: it may hold
        the rows as they were. ``seen``: the game's count of changes when the read began (the read keeps what it read
        only if none came meanwhile)."""
        seen = self.changes.get(game_id, 0)
        flight = flights.get(game_id)
        if flight is None or flight[0] != seen:
            future: asyncio.Future[T] = asyncio.ensure_future(read(seen))
            flight = flights[game_id] = (seen, future)

            def landed(done: asyncio.Future[T], mine: tuple[int, asyncio.Future[Any]] = flight) -> None:
                if flights.get(game_id) is mine:
                    del flights[game_id]
                if not done.cancelled():
                    done.exception()  # retrieved: each caller that waited was given it

            future.add_done_callback(landed)
        result: T = await asyncio.shield(flight[1])
        return result

    def cached_games(self) -> int:
        """How many games have something cached here (for tests and the benchmark)."""
        return len(set(self._games) | set(self._seats) | set(self.deadline_cache) | set(self._missed))

    def holds_row(self, game_id: int) -> bool:
        """Whether the game's row is cached here (for tests)."""
        return game_id in self._games

    def changed(self, payload: str, *, own: bool = False) -> None:
        """A change the database announced: ``g:<game>:<table>`` (revision 0020; ``g:<game>`` before it) or
        ``u:<user>``. Another process's drops what is cached of it: of that table only, so that an answer (its game's
        row) leaves the game's seats, deadline and missed deadlines cached. This process's own (``own``) leaves it: the
        write that made it replaced it after its commit, as it does for a store that is its database's only writer
        (dropping it made every process read a game again after each of its own answers: two rows in five a worker
        read in a burst). Either way a read of the game under way is not kept."""
        kind, _, rest = payload.partition(":")
        raw, _, table = rest.partition(":")
        key = int(raw)
        if kind == "g":
            self.changes[key] = self.changes.get(key, 0) + 1
            if not own:
                self.forget(key, table or None)
        else:
            self.user_changes[key] = self.user_changes.get(key, 0) + 1
            if not own:
                self._dm_closed.pop(key, None)
                self._locales.pop(key, None)

    def changed_here(self, payload: str) -> None:
        """A change this process made, as the database announced it (``changed`` with ``own``)."""
        self.changed(payload, own=True)

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
        self.listener = Listener(
            self.db.url,
            CHANGED,
            self.changed,
            self.lost_track,
            on_own_notify=self.changed_here,
            is_own=self.db.is_own_backend,
        )
        self.listener.start()

    def wrote(self, game_id: int) -> None:
        """This process changed a game's rows (and its caches after the commit): a read of them under way since
        before is not kept (it may hold the rows as they were)."""
        self.changes[game_id] = self.changes.get(game_id, 0) + 1

    def forget(self, game_id: int, table: str | None = None) -> None:
        """Drop what is cached of a game (after a write whose outcome is not known here), or of one of its tables
        (``games``, ``seats``, ``deadlines``, ``missed_deadlines``: another process changed it)."""
        self.wrote(game_id)
        caches: dict[str, Bounded[int, Any]] = {
            "games": self._games,
            "seats": self._seats,
            "deadlines": self.deadline_cache,
            "missed_deadlines": self._missed,
        }
        for name, cache in caches.items():
            if table is None or table == name or table not in caches:
                cache.pop(game_id, None)

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
