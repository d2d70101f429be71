"""Bounded in-memory structures: every cache the bot keeps has a size limit, so idle games leave it.

``Bounded`` is a dict that forgets its oldest entries beyond ``limit`` (least recently *written*: reads stay
as cheap as a dict's). ``KeyedLocks`` hands out one asyncio lock per key and forgets a key as soon as nobody
holds or awaits its lock.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Bounded(OrderedDict[K, V]):
    """A dict of at most ``limit`` entries; writing an entry makes it the newest, the oldest go first."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a bounded cache holds at least one entry")
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


class KeyedLocks:
    """One lock per key, alive only while someone holds or awaits it (an idle game costs nothing here)."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._locks
