"""Wire the bot together: store, service, cogs, and (optionally) a different API base for tests."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from app.config import Config
from app.service import GameService
from app.store import Store

log = logging.getLogger("westeros.bot")


class WesterosBot(commands.Bot):
    def __init__(self, config: Config, service: GameService) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.config = config
        self.service = service

    async def setup_hook(self) -> None:
        from cogs.lobby import Lobby, LobbyButton

        await self.add_cog(Lobby(self, self.service, self.config.moderator_role))
        self.add_dynamic_items(LobbyButton)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s games running)", self.user, len(await self.service.store.active_games()))


def point_at(api_base: str) -> None:
    """Send every REST call to ``api_base`` (used by tests with the local fake Discord)."""
    discord.http.Route.BASE = api_base.rstrip("/")


async def start(config: Config, *, sync_commands: bool = False) -> int:
    if config.api_base:
        point_at(config.api_base)
    store = await Store.open(config.database)
    bot = WesterosBot(config, GameService(store))
    try:
        if sync_commands:
            await bot.login(config.token or "")
            await bot.setup_hook()
            synced = await bot.tree.sync()
            print(f"registered {len(synced)} slash commands")
            return 0
        await bot.start(config.token or "")
        return 0
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN): check it in the developer portal")
        return 2
    finally:
        await bot.close()
        await store.close()


def run_bot(config: Config, *, sync_commands: bool = False) -> Any:
    return asyncio.run(start(config, sync_commands=sync_commands))
