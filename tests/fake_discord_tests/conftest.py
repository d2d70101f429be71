from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from testing.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeMember


@dataclass
class Table:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.start() as fake:
        yield fake
        assert fake.internal_errors == [], fake.internal_errors


@pytest.fixture
def table(fake: FakeDiscord) -> Table:
    guild = fake.add_guild("Westeros", locale="en-GB")
    channel = fake.add_text_channel(guild, "game")
    alice = fake.add_member(guild, "alice", manage_guild=True)
    bob = fake.add_member(guild, "bob", locale="ru")
    return Table(fake, guild, channel, alice, bob)
