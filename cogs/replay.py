"""``/game replay [round] [phase]``: the public board at the end of a phase of the channel's game, with the phase's
lines, ◀ ▶ to step phase by phase and a menu to jump to the end of a round (issue W).

Thin: ``app.replay`` rebuilds the moment from the start position and the command log; here it is asked for in the
image pool (the rebuild and the drawing both run off the event loop) and shown. A replay is ephemeral, in the
reader's language; once the game has ended a player may post the phase shown to the channel, in the game's language.
Every button and the menu carry the game and the position they lead to in their custom ids, so they work after a
restart. Drawn frames are kept in a bounded cache.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord.ext import commands

from app.background import Background, ImagePool, PoolBusy
from app.lru import Bounded
from app.replay import PHASES, Frame, GameLog, Refusal, frame_in_pool, latest_game_in, read_log, replay_row
from app.service import GameService, ServiceError
from app.store import GameStatus
from cogs.replies import guarded
from cogs.text import NAME_LIMIT, clip, shown
from i18n import language_of, t, tn

FRAMES_KEPT = 48  # drawn replay frames kept in memory (each about 0.3 MB of PNG)
LOGS_KEPT = 8  # games' logs kept, by the version they were read at
TEXT_LIMIT = 3400  # characters of the phase's lines: the layout's text stays under Discord's 4,000
PICTURE = "replay.png"
PHASE_CODES = {phase: phase[0] for phase in PHASES}  # "w", "p", "a" in custom ids
CODE_PHASES = {code: phase for phase, code in PHASE_CODES.items()}
VALUE_LIMIT = 4  # characters of a round read from the menu


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"replay:(?P<game>\d{1,20}):(?P<round>\d{1,3}):(?P<phase>[wpa]):(?P<action>back|next|post)",
):
    """◀, ▶ (the position each leads to is in its id) and Post to channel (the position shown)."""

    def __init__(self, game_id: int, round_: int, phase: str, action: str, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.game_id, self.round, self.phase, self.action = game_id, round_, phase, action

    @staticmethod
    def id_for(game_id: int, round_: int, phase: str, action: str) -> str:
        return f"replay:{game_id}:{round_}:{PHASE_CODES[phase]}:{action}"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["game"]), int(match["round"]), CODE_PHASES[match["phase"]], match["action"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Replay")
        assert isinstance(cog, Replay)
        if self.action == "post":
            await guarded(interaction, cog.post(interaction, self.game_id, self.round, self.phase))
        else:
            await guarded(interaction, cog.step(interaction, self.game_id, self.round, self.phase))


class ReplayRounds(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"replay:(?P<game>\d{1,20}):rounds"):
    """The menu of rounds: the end of the round picked."""

    def __init__(self, game_id: int, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayRounds:
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Replay")
        assert isinstance(cog, Replay)
        raw = interaction.data.get("values", []) if interaction.data else []
        picked = str(raw[0])[:VALUE_LIMIT] if isinstance(raw, list) and raw else ""
        round_ = int(picked) if picked.isdigit() else 0  # anything else is a round no game has: refused as such
        await guarded(interaction, cog.step(interaction, self.game_id, round_, None))


def phase_lines(shown_frame: Frame, lang: str) -> str:
    """The phase's header, where it stands among the phases, and its lines (cut to fit, saying how many are left)."""
    end = shown_frame.shown
    where = "replay.position" if end.done else "replay.position.now"
    head = [shown_frame.header, t(where, lang, index=shown_frame.index + 1, total=len(shown_frame.phases))]
    lines = list(shown_frame.lines) or [t("replay.quiet", lang)]
    body: list[str] = []
    used = 0
    for number, line in enumerate(lines):
        line = clip(line, 500)
        if used + len(line) + 1 > TEXT_LIMIT:
            body.append(tn("replay.more", len(lines) - number, lang))
            break
        body.append(line)
        used += len(line) + 1
    return "\n".join([*head, *body])


def replay_layout(
    name: str, shown_frame: Frame, lang: str, *, ended: bool, controls: bool = True
) -> discord.ui.LayoutView:
    """The replay as a components-v2 message: the title and the phase's lines, the board, then ◀ ▶ (and Post to
    channel once the game has ended) and, under the words saying what it is for, the menu of rounds."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(t("replay.title", lang, name=shown(name, NAME_LIMIT))))
    layout.add_item(discord.ui.TextDisplay(phase_lines(shown_frame, lang)))
    if shown_frame.picture:
        layout.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{PICTURE}")))
    else:
        layout.add_item(discord.ui.TextDisplay(t("replay.no-picture", lang)))
    if not controls:
        return layout
    game_id, phases, index = shown_frame.game_id, shown_frame.phases, shown_frame.index
    back, forth = phases[max(0, index - 1)], phases[min(len(phases) - 1, index + 1)]
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    for end, action, label, last in (
        (back, "back", "replay.back", index == 0),
        (forth, "next", "replay.next", index == len(phases) - 1),
    ):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=t(label, lang),
            style=discord.ButtonStyle.secondary,
            custom_id=ReplayButton.id_for(game_id, end.round, end.phase, action),
            disabled=last,
        )
        row.add_item(ReplayButton(game_id, end.round, end.phase, action, button))
    if ended:
        here = shown_frame.shown
        post: discord.ui.Button[Any] = discord.ui.Button(
            label=t("replay.post", lang),
            style=discord.ButtonStyle.primary,
            custom_id=ReplayButton.id_for(game_id, here.round, here.phase, "post"),
        )
        row.add_item(ReplayButton(game_id, here.round, here.phase, "post", post))
    layout.add_item(row)
    rounds = sorted({p.round for p in phases})[-25:]  # a game has ten; Discord's menus hold 25
    if len(rounds) > 1:
        layout.add_item(discord.ui.TextDisplay(t("replay.rounds", lang)))
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"replay:{game_id}:rounds",
            options=[
                discord.SelectOption(
                    label=t("replay.round", lang, round=r), value=str(r), default=r == shown_frame.shown.round
                )
                for r in rounds
            ],
        )
        menu_row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        menu_row.add_item(ReplayRounds(game_id, menu))
        layout.add_item(menu_row)
    return layout


async def show_replay(interaction: discord.Interaction[Any], round_: int | None, phase: str | None) -> None:
    """``/game replay``, declared with the /game group in cogs/lobby.py: the work is this cog's."""
    cog = interaction.client.get_cog("Replay")
    assert isinstance(cog, Replay)
    await cog.show(interaction, round_, phase)


class Replay(commands.Cog):
    """The replay's work behind ``/game replay`` (declared in the /game group, cogs/lobby.py) and its controls (their
    dynamic items are registered with the others in cogs/client.py)."""

    def __init__(
        self, bot: commands.Bot, service: GameService, *, renderer: Any, images: Background | ImagePool
    ) -> None:
        self.bot = bot
        self.service = service
        self.renderer = renderer  # render.render_board, or None: the replay shows its lines without a picture
        self.images = images
        self._frames: Bounded[tuple[int, int, int | None, str | None, str], Frame] = Bounded(FRAMES_KEPT)
        self._logs: Bounded[tuple[int, int], GameLog] = Bounded(LOGS_KEPT)

    async def frame(
        self, game_id: int, channel_id: int, round_: int | None, phase: str | None, lang: str
    ) -> tuple[Frame, bool, str]:
        """The frame asked for (drawn in the image pool unless kept), whether the game has ended, and its name."""
        row = await replay_row(self.service, game_id, channel_id)
        key = (game_id, row.version, round_, phase, lang)
        kept = self._frames.get(key)
        ended = row.status == GameStatus.ENDED
        if kept is not None:
            return kept, ended, row.name
        log = self._logs.get((game_id, row.version))
        if log is None:
            log = self._logs[(game_id, row.version)] = await read_log(self.service, game_id, channel_id)
        try:
            drawn = await self.images.run(frame_in_pool, log, round_, phase, lang, self.renderer)
        except PoolBusy as busy:
            raise ServiceError("images-busy", "Too many images are being drawn; try again in a minute.") from busy
        if isinstance(drawn, Refusal):
            raise drawn.error()
        self._frames[key] = drawn
        return drawn, ended, row.name

    async def show(self, interaction: discord.Interaction[Any], round_: int | None, phase: str | None) -> None:
        """``/game replay``: the channel's latest started game, ephemerally, in the reader's language."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = language_of(str(interaction.locale))
        channel_id = interaction.channel_id or 0
        row = await latest_game_in(self.service, channel_id)
        drawn, ended, name = await self.frame(row.id, channel_id, round_, phase, lang)
        await interaction.followup.send(
            view=replay_layout(name, drawn, lang, ended=ended),
            files=self._files(drawn),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def step(self, interaction: discord.Interaction[Any], game_id: int, round_: int, phase: str | None) -> None:
        """◀, ▶ or a round picked: the message the control sits on shows that position instead."""
        await interaction.response.defer()
        lang = language_of(str(interaction.locale))
        drawn, ended, name = await self.frame(game_id, interaction.channel_id or 0, round_, phase, lang)
        await interaction.edit_original_response(
            view=replay_layout(name, drawn, lang, ended=ended), attachments=self._files(drawn)
        )

    async def post(self, interaction: discord.Interaction[Any], game_id: int, round_: int, phase: str) -> None:
        """Post to channel: an ended game's phase for the whole table, in the game's language, by one of its players."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = language_of(str(interaction.locale))
        row = await replay_row(self.service, game_id, interaction.channel_id or 0)
        if row.status != GameStatus.ENDED:
            raise ServiceError("replay-post-running", "Only an ended game's replay may be posted.")
        if interaction.user.id not in (await self.service.seats(game_id)).values():
            raise ServiceError("replay-post-not-player", "Only the game's players may post its replay.")
        game_lang = language_of(str(row.settings.get("language", "en")))
        drawn, _, name = await self.frame(game_id, row.channel_id, round_, phase, game_lang)
        layout = replay_layout(name, drawn, game_lang, ended=True, controls=False)
        layout.add_item(discord.ui.TextDisplay(t("replay.posted-by", game_lang, member=interaction.user.mention)))
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            raise ServiceError("no-game-here", "There is no game in this channel.")
        await channel.send(view=layout, files=self._files(drawn), allowed_mentions=discord.AllowedMentions.none())
        await interaction.followup.send(t("replay.posted", lang), ephemeral=True)

    @staticmethod
    def _files(drawn: Frame) -> list[discord.File]:
        return [discord.File(io.BytesIO(drawn.picture), filename=PICTURE)] if drawn.picture else []
