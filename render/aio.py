"""Rendering off the event loop, with a small cache so one state is never drawn twice."""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from render.api import render_battle, render_board, render_private_board
from render.step import WHOLE_BOARD_AFTER
from render.views import View, require_private, require_public

CacheKey = tuple[Any, Any, str, str, str]

# The steps :func:`render.step.images_for_step` always posts an image for (a battle, or the whole board).
ALWAYS_DRAWN = frozenset({"combat-result", "neutral-attack", *WHOLE_BOARD_AFTER})


def table_shows_something(starts: bool, events: list[dict[str, Any]]) -> bool:
    """Whether ``images_for_step(..., crops=False)`` (what the game channel shows) draws anything for a step, worked
    out from its events alone: a step that starts the board (``starts``: the game's start, a repair) or decides a
    battle, reveals the orders or ends the Action phase or the game. Most steps draw nothing: their views need not
    even be worked out (tests/render/test_step_shortcut.py, over random games)."""
    return starts or any(isinstance(e, dict) and not e.get("private_to") and e.get("type") in ALWAYS_DRAWN
                         for e in events)  # fmt: skip


def view_digest(view: View) -> str:
    """A digest of the whole view: versions repeat across games, so the key also carries the content."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


class RenderCache:
    """An LRU of rendered PNGs keyed by (view version, viewer, lang, variant, content digest)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._items: OrderedDict[CacheKey, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self._inflight: dict[CacheKey, asyncio.Future[bytes]] = {}
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(view: View, lang: str, variant: str) -> CacheKey:
        return (view.get("version"), view.get("viewer"), lang, variant, view_digest(view))

    def get(self, key: CacheKey) -> bytes | None:
        with self._lock:
            got = self._items.get(key)
            if got is not None:
                self._items.move_to_end(key)
                self.hits += 1
            return got

    def put(self, key: CacheKey, png: bytes) -> None:
        with self._lock:
            self._items[key] = png
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    async def render(
        self, func: Callable[[View, str], bytes], view: View, lang: str, variant: str, executor: Executor | None
    ) -> bytes:
        key = self.key(view, lang, variant)
        got = self.get(key)
        if got is not None:
            return got
        pending = self._inflight.get(key)
        if pending is not None:  # the same picture is being drawn right now: wait for it
            self.hits += 1
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._inflight[key] = future
        self.misses += 1
        try:
            if executor is None:
                png = await asyncio.to_thread(func, view, lang)
            else:
                png = await loop.run_in_executor(executor, func, view, lang)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters (if any) re-raise it themselves
            raise
        finally:
            self._inflight.pop(key, None)
        self.put(key, png)
        future.set_result(png)
        return png


DEFAULT_CACHE = RenderCache()


async def render_board_async(
    view: View, lang: str = "en", *, executor: Executor | None = None, cache: RenderCache | None = None
) -> bytes:
    """:func:`render_board` in a worker thread (or ``executor``), cached. Refuses a private view at once."""
    require_public(view)
    return await (cache if cache is not None else DEFAULT_CACHE).render(render_board, view, lang, "board", executor)


async def render_private_board_async(
    view: View, lang: str = "en", *, executor: Executor | None = None, cache: RenderCache | None = None
) -> bytes:
    """:func:`render_private_board` in a worker thread (or ``executor``), cached under the viewer's key."""
    require_private(view)
    return await (cache if cache is not None else DEFAULT_CACHE).render(
        render_private_board, view, lang, "private", executor
    )


async def render_battle_async(
    view: View, lang: str = "en", *, executor: Executor | None = None, cache: RenderCache | None = None
) -> bytes:
    """:func:`render_battle` (public view) in a worker thread (or ``executor``), cached."""
    require_public(view)
    return await (cache if cache is not None else DEFAULT_CACHE).render(render_battle, view, lang, "battle", executor)
