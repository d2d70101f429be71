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
from render.changes import COMPARED, changed_areas
from render.data import board_of
from render.step import WHOLE_BOARD_AFTER
from render.views import View, require_private, require_public

CacheKey = tuple[Any, Any, str, str, str]

# The steps :func:`render.step.images_for_step` always posts an image for (a battle, or the whole board).
ALWAYS_DRAWN = frozenset({"combat-result", "neutral-attack", *WHOLE_BOARD_AFTER})
# Events that only say a house has answered a simultaneous secret step: nothing they name is drawn.
ANSWERED_ONLY = frozenset({"orders-submitted", "bid-submitted", "house-card-chosen"})


def step_may_show_something(events: list[dict[str, Any]]) -> bool:
    """False when a step's public events only say that houses answered a secret step (an order, a bid, a house
    card, most answers of a round): then :func:`step_shows_something` is False too, and the step's views need not
    even be worked out. Never False where it is True (tests/render/test_step_shortcut.py, over random games)."""
    public = [e for e in events if isinstance(e, dict) and not e.get("private_to")]
    return not public or any(e.get("type") not in ANSWERED_ONLY for e in public)


def step_shows_something(view_before: View | None, view_after: View, events: list[dict[str, Any]]) -> bool:
    """Whether :func:`render.step.images_for_step` would return any image for this step, worked out without
    drawing (dict comparisons), so that the bot sends a step to its image workers only when it must: most
    answers (an order recorded, a bid) change nothing visible. Never False where images_for_step draws."""
    after = require_public(view_after)
    if view_before is None:
        return True
    public = [e for e in events if isinstance(e, dict) and not e.get("private_to")]
    if any(e.get("type") in ALWAYS_DRAWN for e in public):
        return True
    if changed_areas(board_of(after), public, None, after).areas:  # the areas the events name
        return True
    old, new = view_before.get("areas") or {}, after.get("areas") or {}
    return any(_differs_beyond_order(old.get(a) or {}, state or {}) for a, state in new.items() if old.get(a) != state)


def _differs_beyond_order(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """As render.changes compares an area: anything but its order differs (lists in any order)."""
    for key in COMPARED:
        x, y = a.get(key), b.get(key)
        if key == "order" or x == y:
            continue
        if not (isinstance(x, list) and isinstance(y, list) and sorted(map(repr, x)) == sorted(map(repr, y))):
            return True
    return False


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
