"""The client of bench/ack_floor.py: discord.py alone, with nothing of the bot around it.

It posts one message shaped like an orders form (four menus of ten options and a Submit button) in the channel
``FLOOR_CHANNEL``, then acknowledges every interaction and does nothing else. Configured like the bot
(``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``), with the same intents and HTTP pool.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.client import HTTP_CONNECTIONS, point_at

MENUS, OPTIONS = 4, 10


class FloorClient(discord.Client):
    def __init__(self, channel_id: int) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            intents=intents,
            max_messages=None,
            connector=aiohttp.TCPConnector(limit=HTTP_CONNECTIONS),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.channel_id = channel_id
        self.posted = False

    async def on_ready(self) -> None:
        if self.posted:
            return
        self.posted = True
        channel = self.get_channel(self.channel_id)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View(timeout=None)
        for menu in range(MENUS):
            options = [discord.SelectOption(label=f"Order {n}", value=f"order-{n}") for n in range(OPTIONS)]
            view.add_item(discord.ui.Select(custom_id=f"floor:s:{menu}", placeholder=f"Area {menu}", options=options))
        view.add_item(discord.ui.Button(label="Submit", custom_id="floor:submit"))
        await channel.send("Orders · " + "x" * 300, view=view)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()


async def main() -> None:
    point_at(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    client = FloorClient(int(os.environ["FLOOR_CHANNEL"]))
    async with client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
