"""Issue X, fault 12: ``/game new`` carries its interaction's id as the lobby's key, so the same interaction applied
twice (two gateways by mistake, each with its own store and its own channel lock; or a retry) makes one game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.queries import GameSettings
from app.service import GameService
from app.store import Store


async def test_a_second_create_with_the_same_key_gets_the_first_game(database: Path | str) -> None:
    store = await Store.open(database)
    try:
        service = GameService(store)

        async def create(key: str | None) -> int:
            return await service.create(
                guild_id=1, channel_id=10, creator=1, name="g", settings=GameSettings(players=3), key=key
            )

        first = await create("interaction:1")
        # Before any rule check: the channel now holds that game, and the repeat is not refused as "channel-busy".
        assert await create("interaction:1") == first
        assert [g.id for g in await store.games_in_channel(10)] == [first]
    finally:
        await store.close()


@pytest.mark.several_processes
async def test_two_processes_racing_with_one_key_make_one_game(database: Path | str) -> None:
    """Each process passed its own checks (its lock is its own): the store's insert itself keeps the key once."""
    stores = [await Store.open(database, shared=True) for _ in range(2)]
    try:

        async def insert(store: Store, channel: int) -> int:
            return await store.create_game(
                guild_id=1, channel_id=channel, name="g", created_by=1, settings={}, create_key="interaction:7"
            )

        made = await asyncio.gather(*(insert(store, 20 + n) for n, store in enumerate(stores)))
        assert made[0] == made[1]
        assert await insert(stores[0], 30) == made[0]  # and once more, after both committed
        assert len(await stores[0].games_in_channel(20)) + len(await stores[0].games_in_channel(21)) == 1
    finally:
        for store in stores:
            await store.close()
