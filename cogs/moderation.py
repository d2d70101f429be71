"""Moderator tools: ``/mod`` commands, refused to everyone else, each posted as an audit line in the channel."""

from __future__ import annotations

import io
import json
import re
import time
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.commands import (
    Delete,
    End,
    Export,
    Extend,
    Force,
    Import,
    Pause,
    Resume,
    SetDeadlines,
    SetSeat,
    Undo,
    Vassalize,
)
from app.decisions import answer_text, prompt_title
from app.labels import awaited_text
from app.queries import MAX_SCENARIO_BYTES, GameAtAGlance, GuildGames
from app.service import GIFT, REPAIR, SEAT_CHANGE, VASSALIZE, GameService, ServiceError, parse_scenario
from app.store import GameRow, GameStatus
from cogs.dms import DecisionDMs, deadline_stamp
from cogs.lobby import is_moderator
from cogs.replies import command_key, confirmation_key, guarded, say
from cogs.text import MESSAGE_LIMIT, NAME_LIMIT, shown
from i18n import t, tn

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn"]


def may_see_server_games(member: discord.abc.User, moderator_role: str | None) -> bool:
    """Members with Manage Server, or with the configured moderator role: they moderate every game of the server
    (a game's creator moderates only his own, so he is not shown the others)."""
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    return bool(moderator_role) and any(r.name == moderator_role for r in member.roles)


def _relative(at: float) -> str:
    """A moment as Discord shows it to each reader, in his language: ``3 hours ago``."""
    return discord.utils.format_dt(datetime.fromtimestamp(at, UTC), "R")


def game_line(game: GameAtAGlance, lang: str) -> str:
    """One unfinished game of the overview: what its public status says, and its deadline."""
    row = game.row
    name, channel = shown(row.name, NAME_LIMIT), f"<#{row.channel_id}>"
    if row.status == GameStatus.LOBBY:
        players = row.settings.get("players", 0)
        return t("mod.games.lobby", lang, name=name, channel=channel, taken=game.lobby_taken, players=players,
                 since=_relative(game.since))  # fmt: skip
    view = game.public_view
    if view is None:
        return t("mod.games.broken", lang, name=name, channel=channel)
    deadline = game.deadline
    if deadline is None:
        due = t("dm.no_deadline", lang)
    elif deadline.paused_remaining is not None:
        due = t("mod.games.left", lang, hours=f"{deadline.paused_remaining / 3600:.1f}")
    else:
        due = deadline_stamp(deadline.due_at)
    key = "mod.games.paused" if row.status == GameStatus.PAUSED else "mod.games.running"
    return t(
        key,
        lang,
        name=name,
        channel=channel,
        round=view["round"],
        phase=t(f"phase.{view['phase']}", lang),
        awaiting=awaited_text(view, lang),
        since=_relative(game.since),
        deadline=due,
    )


def games_text(games: GuildGames, lang: str, limit: int = MESSAGE_LIMIT) -> str:
    """A server's games in one message within Discord's limit. What does not fit goes whole lines at a time: the
    ended games' names first (their count stays), then the last unfinished games, counted in a last line ("… and 4
    more games")."""
    if not games.unfinished and not games.ended:
        return t("mod.games.none", lang)
    title = t("mod.games.title", lang, count=len(games.unfinished))
    unfinished = [game_line(game, lang) for game in games.unfinished]
    ended = [tn("mod.games.ended", games.ended, lang)] if games.ended else []
    named = [
        t("mod.games.ended_line", lang, name=shown(g.name, NAME_LIMIT), channel=f"<#{g.channel_id}>",
          when=_relative(g.ended_at))
        for g in games.last_ended
    ]  # fmt: skip
    text = "\n".join([title, *unfinished, *ended, *named])
    if len(text) <= limit:
        return text
    for kept in range(len(unfinished), -1, -1):
        more = [tn("mod.games.more", len(unfinished) - kept, lang)] if kept < len(unfinished) else []
        text = "\n".join([title, *unfinished[:kept], *more, *ended])
        if len(text) <= limit:
            return text
    return title


class UndoConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"modundo:(?P<game>\d+):(?P<version>\d+)"):
    """The confirmation of an undo; carries the version it undoes, so a stale confirmation does nothing."""

    def __init__(self, game_id: int, version: int, label: str = "Undo") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=f"modundo:{game_id}:{version}")
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoConfirm:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Moderation")
        assert isinstance(cog, Moderation)
        await guarded(interaction, cog.confirm_undo(interaction, self.game_id, self.version))


class HandoverConsent(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"handover:(?P<game>\d+):(?P<house>[a-z]+):(?P<member>\d+):(?P<moderator>\d+)",
):
    """A player's agreement to a seated moderator's change of his house: given to ``member`` (0: the house becomes a
    vassal). Its state is in its custom id, so it works after a restart."""

    def __init__(self, game_id: int, house: str, member: int, moderator: int, label: str = "Agree") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.danger, custom_id=f"handover:{game_id}:{house}:{member}:{moderator}"
        )
        super().__init__(button)
        self.game_id, self.house, self.member, self.moderator = game_id, house, member, moderator

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandoverConsent:
        return cls(int(match["game"]), match["house"], int(match["member"]), int(match["moderator"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Moderation")
        assert isinstance(cog, Moderation)
        await interaction.response.defer()
        await guarded(interaction, cog.consent(interaction, self))


class DeleteConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"moddelete:(?P<game>\d+)"):
    """The confirmation of ``/mod delete``: the game is in its custom id, so it works after a restart, and the
    message asking it is the command's key."""

    def __init__(self, game_id: int, label: str = "Delete") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=f"moddelete:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeleteConfirm:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Moderation")
        assert isinstance(cog, Moderation)
        await guarded(interaction, cog.confirm_delete(interaction, self.game_id))


class Moderation(commands.Cog):
    mod = app_commands.Group(name="mod", description="Moderator tools for the game in this channel")

    def __init__(
        self, bot: commands.Bot, service: GameService, role: str | None, dms: DecisionDMs | None = None
    ) -> None:
        self.bot = bot
        self.service = service
        self.role = role
        self.dms = dms  # sends a house's player the request to agree to a handover

    async def _game(self, interaction: discord.Interaction[Any]) -> GameRow:
        """Acknowledge (only the moderator sees the answer), then the running game of this channel, if the user
        may moderate it; otherwise a refusal."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.service.started_game_in(interaction.channel_id or 0)
        if row is None:
            raise ServiceError("no-game-here", "There is no game in this channel.")
        if not is_moderator(interaction.user, row.created_by, self.role):
            raise ServiceError("not-moderator", "Only moderators can do that.")
        return row

    async def _done(self, interaction: discord.Interaction[Any]) -> None:
        await say(interaction, t("mod.done", str(interaction.locale)))

    @mod.command(name="games", description="Every game on this server: channel, step, whom it waits for, deadline")
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is None:
            raise ServiceError("server-only", "This command works in a server.")
        if not may_see_server_games(interaction.user, self.role):
            raise ServiceError("not-server-moderator", "Only members with Manage Server can see the server's games.")
        games = await self.service.games_of_guild(interaction.guild_id)
        text = games_text(games, str(interaction.locale))
        await say(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @mod.command(name="extend", description="Move the current deadline (negative hours shorten it)")
    @app_commands.describe(hours="Hours to add (negative to shorten)")
    async def extend(self, interaction: discord.Interaction[Any], hours: float) -> None:
        row = await self._game(interaction)
        await self.service.execute(
            Extend(game_id=row.id, by=interaction.user.id, key=command_key(interaction), seconds=hours * 3600)
        )
        await self._done(interaction)

    @mod.command(name="deadlines", description="Change how long each kind of decision may take (from the next step)")
    @app_commands.describe(
        orders_hours="Hours to give orders",
        bids_hours="Hours to bid",
        battle_hours="Hours for battle choices",
        other_hours="Hours for any other choice",
    )
    async def deadlines_(
        self,
        interaction: discord.Interaction[Any],
        orders_hours: app_commands.Range[float, 0.02, 168.0] | None = None,
        bids_hours: app_commands.Range[float, 0.02, 168.0] | None = None,
        battle_hours: app_commands.Range[float, 0.02, 168.0] | None = None,
        other_hours: app_commands.Range[float, 0.02, 168.0] | None = None,
    ) -> None:
        row = await self._game(interaction)
        given = {"orders": orders_hours, "bids": bids_hours, "battle": battle_hours, "other": other_hours}
        durations = {kind: int(hours * 3600) for kind, hours in given.items() if hours is not None}
        await self.service.execute(
            SetDeadlines(game_id=row.id, by=interaction.user.id, key=command_key(interaction), durations=durations)
        )
        await self._done(interaction)

    @mod.command(name="force", description="Apply the deadline now: defaults (or autopilot) for everyone awaited")
    async def force(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._game(interaction)
        await self.service.execute(Force(game_id=row.id, by=interaction.user.id, key=command_key(interaction)))
        await self._done(interaction)

    @mod.command(name="pause", description="Pause the game: no answers, no deadlines")
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._game(interaction)
        await self.service.execute(Pause(game_id=row.id, by=interaction.user.id, key=command_key(interaction)))
        await self._done(interaction)

    @mod.command(name="resume", description="Resume a paused game; the deadline keeps its remaining time")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._game(interaction)
        await self.service.execute(Resume(game_id=row.id, by=interaction.user.id, key=command_key(interaction)))
        await self._done(interaction)

    @mod.command(name="replace", description="Give a house to another member, or to the AI")
    @app_commands.describe(
        house="The house to hand over",
        member="Who plays it from now on",
        ai="The AI plays it from now on (a later replace gives it to a member)",
    )
    @app_commands.choices(house=[app_commands.Choice(name=h.title(), value=h) for h in HOUSES])
    async def replace(
        self, interaction: discord.Interaction[Any], house: str, member: discord.Member | None = None, ai: bool = False
    ) -> None:
        row = await self._game(interaction)
        if (member is None) == (not ai):  # one of them: a member, or the AI
            raise ServiceError("replace-whom", "Name a member, or ai:true, not both.")
        command = SetSeat(
            game_id=row.id,
            by=interaction.user.id,
            key=command_key(interaction),
            house=house,
            user_id=member.id if member is not None else None,
            autopilot=member is None,  # an AI seat: no member, the agent plays (app/ai.py)
            new=True,
        )
        try:
            await self.service.execute(command)
        except ServiceError as err:
            # A seated moderator's handover to the AI waits for no agreement: it needs the two missed deadlines.
            if err.code != "seated-handover" or member is None:
                raise
            if not await self._ask_consent(interaction, row, house, member.id):
                raise
            return
        await self._done(interaction)

    @mod.command(name="vassalize", description="A player leaves: the house becomes a vassal as the next round starts")
    @app_commands.describe(house="The house whose player leaves (Mother of Dragons)")
    @app_commands.choices(house=[app_commands.Choice(name=h.title(), value=h) for h in HOUSES])
    async def vassalize(self, interaction: discord.Interaction[Any], house: str) -> None:
        row = await self._game(interaction)
        try:
            await self.service.execute(
                Vassalize(game_id=row.id, by=interaction.user.id, key=command_key(interaction), house=house)
            )
        except ServiceError as err:
            if err.code != "seated-handover" or not await self._ask_consent(interaction, row, house, 0):
                raise
            return
        await self._done(interaction)

    async def _ask_consent(self, interaction: discord.Interaction[Any], row: GameRow, house: str, member: int) -> bool:
        """A seated moderator's change of another house waits for its player's agreement: he is asked in a DM with
        an Agree button, and the moderator is told so. False when nobody holds the house to ask."""
        player = await self.service.seat_of(row.id, house)
        if player is None or self.dms is None:
            return False
        lang = await self.service.language_for(player, row.id)
        house_text = t(f"house.{house}", lang)
        name = shown(interaction.user.display_name, 64)
        game = shown(row.name, 64)
        if member:
            ask = t("handover.ask.replace", lang, moderator=name, house=house_text, game=game, member=f"<@{member}>")
        else:
            ask = t("handover.ask.vassalize", lang, moderator=name, house=house_text, game=game)
        view = discord.ui.View(timeout=None)
        view.add_item(HandoverConsent(row.id, house, member, interaction.user.id, t("handover.button", lang)))
        await self.dms.direct_message(player, ask, view)
        moderator_lang = str(interaction.locale)
        await say(interaction, t("mod.handover.asked", moderator_lang, house=t(f"house.{house}", moderator_lang)))
        return True

    async def consent(self, interaction: discord.Interaction[Any], asked: HandoverConsent) -> None:
        """The house's player agrees: the change is made (if he still holds the house) and audited."""
        await self.service.ensure_decider(asked.game_id, asked.house, interaction.user.id)
        game_id, house, key, agreed = asked.game_id, asked.house, confirmation_key(interaction), interaction.user.id
        if asked.member:
            await self.service.execute(
                SetSeat(game_id=game_id, by=asked.moderator, key=key, house=house, consented_by=agreed,
                        user_id=asked.member, new=True)
            )  # fmt: skip
        else:
            await self.service.execute(
                Vassalize(game_id=game_id, by=asked.moderator, key=key, house=house, consented_by=agreed)
            )
        await interaction.edit_original_response(content=t("handover.done", str(interaction.locale)), view=None)

    @mod.command(name="autopilot", description="Let the bot's agent play a house (or stop it)")
    @app_commands.describe(house="The house", on="On or off")
    @app_commands.choices(house=[app_commands.Choice(name=h.title(), value=h) for h in HOUSES])
    async def autopilot(self, interaction: discord.Interaction[Any], house: str, on: bool) -> None:
        row = await self._game(interaction)
        seat = await self.service.seat_of(row.id, house)
        await self.service.execute(
            SetSeat(
                game_id=row.id,
                by=interaction.user.id,
                key=command_key(interaction),
                house=house,
                user_id=seat,
                autopilot=on,
            )
        )
        await self._done(interaction)

    @mod.command(name="undo", description="Undo the last accepted answer (asks for confirmation)")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._game(interaction)
        lang = str(interaction.locale)
        preview = await self.service.undo_preview(row.id, by=interaction.user.id)
        if preview.refused:
            raise ServiceError("undo-past-reveal", "A seated player may not undo past a reveal.")
        last = preview.last
        if preview.answer_hidden:
            what = t("mod.undo.hidden", lang)
        elif last.prompt_id in (SEAT_CHANGE, REPAIR):
            what = t(f"mod.undo.{last.prompt_id}", lang)
        elif last.prompt_id == GIFT:
            giver, receiver = t(f"house.{last.house}", lang), t(f"house.{last.answer['to']}", lang)
            what = tn("mod.undo.gift", int(last.answer["amount"]), lang, giver=giver, receiver=receiver)
        elif last.prompt_id == VASSALIZE:
            what = t("mod.undo.vassalize", lang, house=t(f"house.{last.house}", lang))
        else:
            what = shown(answer_text(preview.kind, last.answer, lang), 600)
        text = t(
            "mod.undo.confirm",
            lang,
            house=t(f"house.{last.house}", lang) if last.house else "—",
            decision=prompt_title(preview.kind, lang),
            answer=what,
            source=last.source,
            at=f"<t:{int(last.at)}:R>",
        )
        view = discord.ui.View(timeout=None)
        view.add_item(UndoConfirm(row.id, preview.version, t("mod.undo.button", lang)))
        await say(interaction, text, view=view)

    async def confirm_undo(self, interaction: discord.Interaction[Any], game_id: int, version: int) -> None:
        await interaction.response.defer()
        lang = str(interaction.locale)
        row = await self.service.row(game_id)
        if not is_moderator(interaction.user, row.created_by, self.role):
            raise ServiceError("not-moderator", "Only moderators can do that.")
        await self.service.execute(
            Undo(game_id=game_id, by=interaction.user.id, key=confirmation_key(interaction), expected_version=version)
        )
        await interaction.edit_original_response(content=t("mod.done", lang), view=None)

    @mod.command(name="export", description="Download the game (state, seats and the whole answer log) as JSON")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._game(interaction)
        exported = await self.service.export(row.id, by=interaction.user.id)
        payload = json.dumps(exported, ensure_ascii=False, indent=1).encode()
        public = bool(exported["game"].get("public"))
        name = f"game-{row.id}-v{row.version}{'-public' if public else ''}-{int(time.time())}.json"
        note = t("mod.export.public", str(interaction.locale)) if public else ""
        await interaction.followup.send(note, file=discord.File(io.BytesIO(payload), filename=name), ephemeral=True)
        await self.service.execute(Export(game_id=row.id, by=interaction.user.id, key=command_key(interaction)))

    @mod.command(name="import", description="Repair the game: replace the position with a scenario (JSON file)")
    @app_commands.describe(scenario="A scenario JSON file (see docs/scenario-format.md)")
    async def import_(self, interaction: discord.Interaction[Any], scenario: discord.Attachment) -> None:
        row = await self._game(interaction)
        if scenario.size > MAX_SCENARIO_BYTES:  # refused before it is downloaded
            raise ServiceError("scenario-too-big", "The file is too big.", limit=MAX_SCENARIO_BYTES // 1024)
        spec = parse_scenario(await scenario.read())
        await self.service.execute(
            Import(game_id=row.id, by=interaction.user.id, key=command_key(interaction), spec=spec)
        )
        await self._done(interaction)

    @mod.command(name="end", description="End the game now")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._game(interaction)
        await self.service.execute(End(game_id=row.id, by=interaction.user.id, key=command_key(interaction)))
        await self._done(interaction)

    @mod.command(name="delete", description="Delete this channel's game and all that is kept of it (asks first)")
    async def delete(self, interaction: discord.Interaction[Any]) -> None:
        """The channel's newest game, whatever its status (an ended one too); a seated moderator may delete it only
        once it has ended (docs/bot.md), so he is refused before he is asked."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        games = await self.service.store.games_in_channel(interaction.channel_id or 0, active_only=False)
        if not games:
            raise ServiceError("no-game-here", "There is no game in this channel.")
        row = games[-1]
        if not is_moderator(interaction.user, row.created_by, self.role):
            raise ServiceError("not-moderator", "Only moderators can do that.")
        if row.status in ("running", "paused") and await self.service.seated(row.id, interaction.user.id):
            raise ServiceError("delete-seated", "You hold a house in this game: delete it once it has ended.")
        lang = str(interaction.locale)
        text = t("mod.delete.confirm", lang, game=shown(row.name), status=t(f"mod.delete.status.{row.status}", lang))
        view = discord.ui.View(timeout=None)
        view.add_item(DeleteConfirm(row.id, t("mod.delete.button", lang)))
        await say(interaction, text, view=view)

    async def confirm_delete(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        await interaction.response.defer()
        try:
            row = await self.service.row(game_id)
        except ServiceError as err:
            if err.code == "no-game":  # deleted by this confirmation already (or another moderator's)
                raise ServiceError("already-done", "That was already done.") from err
            raise
        if not is_moderator(interaction.user, row.created_by, self.role):
            raise ServiceError("not-moderator", "Only moderators can do that.")
        await self.service.execute(Delete(game_id=game_id, by=interaction.user.id, key=confirmation_key(interaction)))
        text = t("mod.delete.done", str(interaction.locale), game=shown(row.name))
        await interaction.edit_original_response(content=text, view=None)
