"""A tiny but real discord.py bot exercising what the game bot will use, for driving through the fake."""

from __future__ import annotations

import io
import re
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


def tiny_png() -> bytes:
    """A valid 1x1 PNG, built by hand."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


class NoteModal(discord.ui.Modal, title="Write a note"):
    note: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Note", custom_id="note", max_length=100)
    mood: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Mood", custom_id="mood", required=False)

    def __init__(self) -> None:
        super().__init__(custom_id="note_modal", timeout=None)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"note={self.note.value} mood={self.mood.value or '-'}")


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"vote:(?P<choice>\d+)"):
    def __init__(self, choice: int) -> None:
        super().__init__(discord.ui.Button(label=f"Vote {choice}", custom_id=f"vote:{choice}"))
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VoteButton:
        return cls(int(match["choice"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} voted {self.choice}")


class BoardView(discord.ui.View):
    """Persistent: fixed custom_ids and no timeout, registered with ``bot.add_view`` at startup."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(VoteButton(1))

    @discord.ui.button(label="Refresh", custom_id="board:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"refreshed by {interaction.user.name}", view=self)

    @discord.ui.button(label="Note", custom_id="board:note")
    async def note(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(NoteModal())

    @discord.ui.button(label="Later", custom_id="board:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # type 6: deferred update of this message
        await interaction.edit_original_response(content=f"updated later by {interaction.user.name}")

    @discord.ui.select(
        custom_id="board:pick",
        max_values=2,
        options=[discord.SelectOption(label=x.upper(), value=x) for x in ("a", "b", "c")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, *, sync_on_start: bool = True, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix="!",
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.sync_on_start = sync_on_start
        self.errors: list[BaseException] = []
        self.seen_messages: list[str] = []
        self.tree.add_command(build_game_group())
        add_misc_commands(self.tree)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py sleeps 5s before every non-initial IDENTIFY; not needed against the fake

    async def setup_hook(self) -> None:
        self.add_view(BoardView())
        self.add_dynamic_items(VoteButton)
        if self.sync_on_start:
            await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.seen_messages.append(message.content)


def build_game_group() -> app_commands.Group:
    game = app_commands.Group(name="game", description="Game commands")
    admin = app_commands.Group(name="admin", description="Admin commands", parent=game)

    @game.command(name="new", description="Start a new game")
    async def new(interaction: discord.Interaction, players: int, tides: bool = False, name: str = "game") -> None:
        await interaction.response.send_message(
            f"new {name}: players={players} tides={tides} locale={interaction.locale.value} "
            f"guild_locale={interaction.guild_locale.value if interaction.guild_locale else None}"
        )

    @admin.command(name="seat", description="Seat a player")
    async def seat(
        interaction: discord.Interaction, player: discord.Member, channel: discord.TextChannel, house: str
    ) -> None:
        await interaction.response.send_message(f"seated {player.name} as {house} in #{channel.name}", ephemeral=True)

    @game.command(name="board", description="Post the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("board", view=BoardView())

    return game


def add_misc_commands(tree: app_commands.CommandTree[Any]) -> None:
    @tree.command(name="slow", description="Deferred ephemeral answer")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("slow done", ephemeral=True)

    @tree.command(name="chain", description="Followups, edits and deletes")
    async def chain(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        second = await interaction.followup.send("second", wait=True)
        third = await interaction.followup.send("third", ephemeral=True, wait=True)
        await interaction.edit_original_response(content="first edited")
        await interaction.followup.edit_message(second.id, content="second edited")
        await interaction.followup.delete_message(third.id)

    @tree.command(name="dm_me", description="DM me a picture")
    async def dm_me(interaction: discord.Interaction) -> None:
        try:
            file = discord.File(io.BytesIO(tiny_png()), filename="board.png")
            await interaction.user.send("your board", file=file)
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"dm failed: status={exc.status} code={exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @tree.command(name="never", description="Never answers")
    async def never(interaction: discord.Interaction) -> None:
        return None

    @tree.command(name="announce", description="Send, pin and thread a message")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer()
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send(text, embed=discord.Embed(title="News", description=text))
        await message.pin()
        thread = await message.create_thread(name="discussion")
        await thread.send("thread opened")
        await interaction.edit_original_response(content=f"announced in {thread.name}")

    @tree.command(name="map", description="Answer with a picture, then replace it")
    async def map_(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("map v1", file=discord.File(io.BytesIO(tiny_png()), "map.png"))
        new = discord.File(io.BytesIO(tiny_png() + b"v2"), "map2.png")
        await interaction.edit_original_response(content="map v2", attachments=[new])

    houses = ["Stark", "Lannister", "Baratheon", "Greyjoy", "Tyrell", "Martell"]

    async def house_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=h, value=h) for h in houses if h.lower().startswith(current.lower())]

    @tree.command(name="note", description="Open the note modal")
    @app_commands.guild_only()
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @tree.command(name="reset", description="Managers only")
    @app_commands.default_permissions(manage_guild=True)
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"reset by {interaction.user.name}")

    @tree.command(name="house", description="Pick a house")
    @app_commands.autocomplete(name=house_names)
    async def house(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"house {name}")
