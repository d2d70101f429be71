"""``/game talk house:<house>`` (issue 40): a private thread under the game's channel between the caller's house and
another, opened on demand or brought back; and the talks following the seats and the end (``cogs/talk_threads.py``).

Thin: who may talk to whom is ``app.talks``; which thread is a pair's, ``app.store_talks``. The command joins the
``/game`` group of the Lobby cog (``cogs/lobby.py``), so it is one more subcommand of ``/game``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.labels import house_name
from app.notices import TalkRefused
from app.service import GameService, GameSettings, ServiceError
from app.talks import CHANNEL_ONLY, HOUSE_VALUE_LIMIT, NONE, PRIVATE, ask_talk
from cogs.publisher import Publisher
from cogs.replies import say
from cogs.talk_threads import TalkThreads
from engine import data
from i18n import t

log = logging.getLogger("westeros.talk")

MODERATORS_FIX = frozenset({"talk-cannot-create", "talk-cannot-add", "talk-thread-limit"})  # a permission, a limit
HOUSES = list(dict.fromkeys([*data.houses(), *data.houses("mother-of-dragons/houses.json")]))
# ``/game new``'s talk option (cogs/lobby.py): how the table talks.
TALK_CHOICES = [
    app_commands.Choice(name="private threads", value=PRIVATE),
    app_commands.Choice(name="in the channel only", value=CHANNEL_ONLY),
    app_commands.Choice(name="no talks", value=NONE),
]


def reads_every_thread(permissions: discord.Permissions) -> bool:
    """Discord lets a member with Manage Threads (or an administrator) read every private thread of a channel."""
    return permissions.manage_threads or permissions.administrator


async def thread_readers(client: discord.Client, channel_id: int, user_ids: list[int]) -> list[int]:
    """The members of ``user_ids`` who can read every private thread under the channel (the fair-play note)."""
    channel = client.get_channel(channel_id)
    if not isinstance(channel, discord.TextChannel):
        return []
    readers = []
    for user_id in user_ids:
        member = channel.guild.get_member(user_id)
        if member is None:
            try:
                member = await channel.guild.fetch_member(user_id)
            except discord.HTTPException:
                continue  # gone from the server: nothing to read
        if reads_every_thread(channel.permissions_for(member)):
            readers.append(user_id)
    return readers


def talk_lines(settings: GameSettings, lang: str, readers: list[int], *, key: str = "lobby.talk.readers") -> list[str]:
    """The lobby's lines about talks: how the table talks, and who can read every private talk (``key``: the
    lobby's or the start's wording)."""
    if settings.talk == PRIVATE:
        lines = [t("lobby.talk.private" if settings.talks_open_at_end else "lobby.talk.private.closed", lang)]
        if readers:
            lines.append(t(key, lang, players=", ".join(f"<@{user}>" for user in readers)))
        return lines
    return [t(f"lobby.talk.{settings.talk}", lang)]


async def talk(interaction: discord.Interaction[Any], house: app_commands.Range[str, 1, HOUSE_VALUE_LIMIT]) -> None:
    cog = interaction.client.get_cog("Talk")
    assert isinstance(cog, Talk)
    await cog.on_talk(interaction, house)


def talk_command() -> app_commands.Command[Any, ..., None]:
    """A fresh ``talk`` subcommand for one bot's ``/game`` group (a group takes its commands as its own)."""
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="talk", description="Open or go back to a private talk between your house and another", callback=talk
    )
    app_commands.describe(house="The house to talk with")(command)
    choices = [app_commands.Choice(name=house_name(h, "en"), value=h) for h in HOUSES]
    app_commands.choices(house=choices)(command)
    return command


class Talk(commands.Cog):
    def __init__(self, bot: commands.Bot, service: GameService, publisher: Publisher | None = None) -> None:
        self.bot = bot
        self.publisher = publisher
        self.service = service
        self.threads = TalkThreads(bot, service)
        self.command = talk_command()
        self._ending: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        lobby = self.bot.get_cog("Lobby")
        group = getattr(lobby, "game", None)
        assert isinstance(group, app_commands.Group), "the Lobby cog (and its /game group) is added first"
        group.add_command(self.command, override=True)
        self.service.subscribe_end(self._ended)
        if self.publisher is not None:  # the process that publishes makes the threads follow each version
            self.publisher.followers.append(self.threads.on_applied)

    async def cog_unload(self) -> None:
        lobby = self.bot.get_cog("Lobby")
        group = getattr(lobby, "game", None)
        if isinstance(group, app_commands.Group):
            group.remove_command("talk")
        if self.publisher is not None and self.threads.on_applied in self.publisher.followers:
            self.publisher.followers.remove(self.threads.on_applied)

    def _ended(self, game_id: int) -> None:
        task = asyncio.get_running_loop().create_task(self.threads.on_ended(game_id))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def on_talk(self, interaction: discord.Interaction[Any], house: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = str(interaction.locale)
        row = await self.service.started_game_in(interaction.channel_id or 0)
        if row is None:
            raise ServiceError("no-game-here", "There is no game in this channel.")
        asked = await ask_talk(self.service, row, interaction.user.id, house)
        try:
            thread = await self.threads.open(row, asked)
        except ServiceError as refused:
            if refused.code in MODERATORS_FIX:  # the channel is told too, for its moderators (no house named)
                await self.service.notice(row.id, [TalkRefused(reason=refused.code)])
            raise
        await say(
            interaction, t("talk.link", lang, thread=thread.mention), allowed_mentions=discord.AllowedMentions.none()
        )
