"""Async rendering off the event loop, and the result cache."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from render import (
    PrivateViewError,
    RenderCache,
    render_battle_async,
    render_board,
    render_board_async,
    render_private_board_async,
)
from tests.render import viewkit


async def test_async_render_matches_sync_and_is_cached() -> None:
    view = viewkit.midgame_view()
    cache = RenderCache(size=4)
    first = await render_board_async(view, "en", cache=cache)
    assert first == render_board(view, "en")
    again = await render_board_async(view, "en", cache=cache)
    assert again is first
    assert (cache.hits, cache.misses) == (1, 1)
    await render_board_async(view, "ru", cache=cache)
    assert cache.misses == 2


async def test_concurrent_requests_draw_once() -> None:
    view = viewkit.starting_view(4)
    cache = RenderCache()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = await asyncio.gather(*(render_board_async(view, "en", executor=pool, cache=cache) for _ in range(5)))
    assert len(set(results)) == 1
    assert cache.misses == 1


async def test_same_version_different_content_is_not_confused() -> None:
    cache = RenderCache()
    a = viewkit.starting_view(6)
    b = viewkit.starting_view(6)
    b["areas"]["karhold"]["controller"] = "stark"
    assert a["version"] == b["version"]
    assert await render_board_async(a, cache=cache) != await render_board_async(b, cache=cache)


async def test_async_paths_keep_private_views_private() -> None:
    private = viewkit.hide_orders(viewkit.midgame_view(), "stark")
    cache = RenderCache()
    with pytest.raises(PrivateViewError):
        await render_board_async(private, cache=cache)
    png = await render_private_board_async(private, cache=cache)
    assert png[:4] == b"\x89PNG"
    public = viewkit.hide_orders(viewkit.midgame_view())
    assert await render_board_async(public, cache=cache) != png
    with pytest.raises(PrivateViewError):
        await render_battle_async(viewkit.hide_orders(viewkit.battle_view(), "stark"), cache=cache)


async def test_cache_is_bounded() -> None:
    cache = RenderCache(size=2)
    for players in (3, 4, 5):
        await render_board_async(viewkit.starting_view(players), cache=cache)
    assert len(cache) == 2
