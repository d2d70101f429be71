"""A message's nonce, as Discord gives it back: in the answer to the send and in MESSAGE_CREATE, never from history
or a fetch (Discord does not store it). A bot that looks for a message it sent before a crash must match it by what it
says: the fake must not let it match by a nonce that Discord would not return."""

from __future__ import annotations

import discord

from .conftest import Table
from .tiny_bot import TinyBot


async def test_a_nonce_comes_back_from_the_send_only(table: Table) -> None:
    async with table.fake.run_bot(TinyBot()) as bot:
        channel = bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("the reveal", nonce="g1v7post0")
        assert sent.nonce == "g1v7post0"
        fetched = await channel.fetch_message(sent.id)
        read_back = [m async for m in channel.history(limit=5)]
        assert fetched.content == "the reveal" and fetched.nonce is None
        assert [m.id for m in read_back] == [sent.id] and read_back[0].nonce is None
