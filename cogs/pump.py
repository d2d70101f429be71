"""A worker's publishing, when several processes share one PostgreSQL database: whichever worker holds the publish
lock (a PostgreSQL advisory lock on a connection of its own) publishes everything the outbox holds, each game in
order, whoever committed it. Channel posts and DMs thus leave one process at a time, within Discord's global limit;
if that worker dies, its connection closes, the lock is free, and another worker takes over within a second.

What the lock holder keeps in memory (the phase each channel saw last, its open text message, the status text, the
games it published last) is safe to lose: a new holder starts without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from app.database import Listener
from app.lru import Bounded
from app.queue import OUTBOX
from app.service import GameService
from cogs.forms import MEMORY_GAMES
from cogs.publisher import RETRY, Publisher
from engine import Game

log = logging.getLogger("westeros.pump")

PUBLISH_LOCK = 0x57E57E06  # the advisory lock of the one publishing worker
POLL_S = 1.0  # how often the holder looks at the outbox unasked (commits announce themselves: ``tell_publisher``)
TAKE_OVER_S = 1.0  # how often a worker without the lock tries to take it


class OutboxPump:
    def __init__(self, publisher: Publisher, service: GameService, url: str) -> None:
        self.wake = asyncio.Event()
        self.listener = Listener(url, OUTBOX, lambda _: self.wake.set())
        self.publisher = publisher
        self.service = service
        self.url = url
        self.in_flight: set[tuple[int, int, str]] = set()
        # Versions published that stay in the outbox: a quiet one (nothing to tell) leaves with its game's next.
        self.quiet: Bounded[tuple[int, int, str], bool] = Bounded(MEMORY_GAMES * 4)
        self.noticing: set[int] = set()  # games whose notices are being posted
        self.last_game: Bounded[int, Game] = Bounded(MEMORY_GAMES)  # each game as its latest publication left it
        self.holding = False
        self.task: asyncio.Task[None] | None = None
        self.published = 0

    def start(self) -> None:
        self.listener.start()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await self.listener.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as lock:
                    while not await self._take(lock):
                        await asyncio.sleep(TAKE_OVER_S)
                    self.holding = True
                    log.info("this worker publishes the outbox")
                    while True:
                        self.wake.clear()
                        await self.pump()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.wake.wait(), timeout=POLL_S)
                        await lock.execute("SELECT 1")  # the lock lives as long as this connection
            except psycopg.Error:
                log.warning("lost the publish lock's connection; trying again")
            finally:
                self.holding = False
            await asyncio.sleep(TAKE_OVER_S)

    @staticmethod
    async def _take(lock: Any) -> bool:
        row = await (await lock.execute("SELECT pg_try_advisory_lock(%s)", (PUBLISH_LOCK,))).fetchone()
        return bool(row and row[0])

    async def pump(self) -> None:
        """Start publishing what the outbox holds and is not under way yet, then the games' notices."""
        for game_id, version, kind, sent in await self.service.store.unpublished():
            key = (game_id, version, kind)
            if key in self.in_flight or key in self.quiet:
                continue
            applied = await self.service.rebuilt(game_id, version, kind, self._known)
            if applied is None:
                continue
            self.in_flight.add(key)
            self.publisher.dms.position_changed(applied)
            self.publisher.forms.position_changed(applied)
            self.last_game[game_id] = applied.game
            work = functools.partial(self._publish, key, applied, sent)
            self.publisher.after_answer(game_id, work)
        for notice in await self.service.pending_notices():
            if notice.game_id not in self.noticing:
                self.noticing.add(notice.game_id)
                self.publisher.after_answer(notice.game_id, functools.partial(self._notices, notice.game_id))

    def _known(self, game_id: int, version: int) -> Game | None:
        game = self.last_game.get(game_id)
        return game if game is not None and game.version == version else None

    async def _publish(self, key: tuple[int, int, str], applied: Any, sent: frozenset[str]) -> None:
        try:
            # A publication that failed once (its row notes a retry) is tried once more, and then it goes.
            if await self.publisher.publish(applied, sent, last_try=RETRY in sent):
                self.quiet[key] = True
                self.published += 1
        finally:
            self.in_flight.discard(key)

    async def _notices(self, game_id: int) -> None:
        try:
            await self.publisher.post_notices(game_id)
        finally:
            self.noticing.discard(game_id)
