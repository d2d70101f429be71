"""The channels the bot writes to unasked: a game's channel, and each player's DM channel (its id kept)."""

from __future__ import annotations

import discord
from discord.ext import commands

from app.lru import Bounded

MEMORY_DM_CHANNELS = 4096  # users whose DM channel id is kept (discord.py keeps only its latest 128 channels)


class Channels:
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.dm_channels: dict[int, int] = Bounded(MEMORY_DM_CHANNELS)  # user id -> their DM channel's id

    async def dm(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel. Its id never changes, and discord.py forgets all but its latest 128 channels:
        with more players than that, every DM would first open the channel again, one more request each."""
        known = self.known_dm(user_id)
        if known is not None:
            return known
        dm = await self.bot.create_dm(discord.Object(user_id))
        self.dm_channels[user_id] = dm.id
        return dm

    def known_dm(self, user_id: int) -> discord.PartialMessageable | None:
        """The user's DM channel if the bot has written there already (None: it never did, since the start)."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            return None
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        """A game's channel: from the gateway's cache, or (a worker has none) a partial one, which posts without a
        request to look the channel up first."""
        channel = self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    def thread(self, thread_id: int) -> discord.PartialMessageable:
        """A thread the bot opened (a game's log): written to without looking it up."""
        return self.bot.get_partial_messageable(thread_id, type=discord.ChannelType.public_thread)

    async def text_channel(self, channel_id: int) -> discord.TextChannel:
        """A game's channel as a text channel, to open a thread in: from the gateway's cache, else (a worker) fetched.
        TypeError if it is not one (a game is made in a text channel, but a moderator may have changed it)."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise TypeError(f"channel {channel_id} is not a text channel")
        return channel
