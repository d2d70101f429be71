"""A running bot against the local fake Discord, with a real database: a SQLite file, or PostgreSQL under
``WESTEROS_TEST_STORE=postgres`` (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.config import Config
from app.service import GameService
from app.store import Store
from testing.fake_discord import FakeDiscord
from testing.quick_bot import QuickBot


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every test here starts the real bot, its image workers and the fake Discord (a second or more each): all are
    slow, so ``make check`` skips this folder and ``make test`` runs it. Only this folder's tests reach this hook."""
    item.add_marker(pytest.mark.slow)


@dataclass
class Table:
    fake: FakeDiscord
    bot: QuickBot
    service: GameService
    guild: object
    channel: object
    players: list[object]
    moderator: object


async def make_bot(fake: FakeDiscord, db: Path | str) -> tuple[QuickBot, Store]:
    store = await Store.open(db)
    config = Config(token=fake.token, database=db)
    return QuickBot(config, GameService(store), guild_ready_timeout=0.05), store


@pytest.fixture
async def table(database: Path | str) -> AsyncIterator[Table]:
    async with FakeDiscord.start() as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        players = [fake.add_member(guild, f"p{i}") for i in range(6)]
        bot, store = await make_bot(fake, database)
        async with fake.run_bot(bot):
            await fake.wait_for_commands("game")
            yield Table(fake, bot, bot.service, guild, channel, players, moderator)
        await store.close()
