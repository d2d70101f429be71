"""Playing a game: decisions by DM (or in the channel when DMs are closed), receipts, channel posts.

Thin by design: prompts become forms through ``app.decisions``, answers go through the game service,
and what the channel sees is built only from the public view and public events.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import io
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.background import Background, ImagePool, PoolBusy
from app.commands import Answer
from app.deadlines import Reminder
from app.decisions import (
    Form,
    answer_text,
    area_label,
    build_form,
    live_lines,
    prompt_title,
    repick,
    repicks,
    to_answer,
    typed_orders,
)
from app.labels import awaited_text, house_mark, house_name
from app.lru import Bounded
from app.narration import last_phase, narrate_all, phase_header
from app.notices import from_payload, notice_text
from app.order_text import parse_orders
from app.service import Applied, GameService, ServiceError, SharedGame, opened_by
from app.store import ACTIVE, Source
from cogs.acks import AckFirst
from cogs.replies import command_key, guarded, say
from cogs.text import MESSAGE_LIMIT, NAME_LIMIT, fit, shown, split
from engine import Game, Prompt
from i18n import t, tn

log = logging.getLogger("westeros.play")

DM_CLOSED = 50007
FILES_PER_MESSAGE = 10  # Discord's limit
MAX_DECIDE_BUTTONS = 20  # a message holds 25 components; a member owes rarely more than a few decisions
MEMORY_GAMES = 1024  # games whose drafts, notices and status text are kept (ended games leave at once)
MEMORY_DM_CHANNELS = 4096  # users whose DM channel id is kept (discord.py keeps only its latest 128 channels)


@dataclass
class Draft:
    prompt_id: str
    form: Form
    user_id: int  # the player it was opened for: only they may change or submit it
    picks: dict[str, list[str]] = field(default_factory=dict)
    page: int = 0
    head: str = ""  # shown instead of the form's title and question (a decision DM's notice)
    # The messages showing this form: if the position is reset under it (an undo, a repair), they are void.
    messages: set[int] = field(default_factory=set)


class DecideButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"decide:(?P<game>\d+):(?P<house>[a-z]+)"):
    """Opens the house's current decision as an ephemeral form. Lives in channel pings, reminders, /decide and
    the receipt of a changeable answer; survives restarts."""

    def __init__(self, game_id: int, house: str, label: str = "Decide") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"decide:{game_id}:{house}")
        )
        self.game_id = game_id
        self.house = house

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DecideButton:
        return cls(int(match["game"]), match["house"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, _play(interaction).open_decision(interaction, self.game_id, self.house))


class FormSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"dec:(?P<game>\d+):(?P<house>[a-z]+):s:(?P<field>\d+)"
):
    def __init__(self, game_id: int, house: str, index: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"dec:{game_id}:{house}:s:{index}", options=[discord.SelectOption(label="-")]
            )
        )
        self.game_id, self.house, self.index = game_id, house, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["game"]), match["house"], int(match["field"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        raw = interaction.data.get("values", []) if interaction.data else []
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        await guarded(
            interaction, _play(interaction).on_pick(interaction, self.game_id, self.house, self.index, values)
        )


class FormButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dec:(?P<game>\d+):(?P<house>[a-z]+):(?P<action>prev|next|submit)",
):
    def __init__(self, game_id: int, house: str, action: str, label: str = "") -> None:
        style = discord.ButtonStyle.success if action == "submit" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=label or action, style=style, custom_id=f"dec:{game_id}:{house}:{action}")
        )
        self.game_id, self.house, self.action = game_id, house, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormButton:
        return cls(int(match["game"]), match["house"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(
            interaction, _play(interaction).on_form_button(interaction, self.game_id, self.house, self.action)
        )


def deadline_stamp(due_at: float) -> str:
    """A deadline as Discord timestamps: the date and time, and how far off (``in 11 hours``)."""
    when = datetime.fromtimestamp(due_at, UTC)
    return f"{discord.utils.format_dt(when, 'f')} ({discord.utils.format_dt(when, 'R')})"


def _channel_link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def form_of(game: Game, prompt: Prompt, lang: str) -> Form:
    """The form of one of ``game``'s prompts, the caller's own copy: a stored version builds it once for every
    message that shows it (``SharedGame.form``); any other position (a repair's) builds it here."""
    if isinstance(game, SharedGame):
        return game.form(prompt, lang)
    return build_form(prompt, game.view(prompt.house), lang)


def decision_house(game: Game, house: str, lang: str) -> str:
    """The house a decision is for, as its DM and reminder name it: a vassal with the liege who commands it."""
    liege = game.liege_of(house)
    if liege is None:
        return house_mark(house, lang)
    return t("dm.for_vassal", lang, vassal=house_mark(house, lang), liege=house_mark(liege, lang))


RETRY = "retry"  # an outbox part: this version's publication failed; the next start-up tries it again


def _play(interaction: discord.Interaction[Any]) -> Play:
    cog = interaction.client.get_cog("Play")
    assert isinstance(cog, Play)
    return cog


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot, service: GameService, renderer: Any = None) -> None:
        self.bot = bot
        self.service = service
        self.renderer = renderer
        # Images are drawn in the bot's image pool (worker processes); a bare cog falls back to threads.
        self.background: Background | ImagePool = getattr(bot, "background", None) or Background()
        self.drafts: dict[tuple[int, str], Draft] = Bounded(MEMORY_GAMES * 7)
        self.prompts_seen: dict[tuple[int, str], Prompt] = Bounded(MEMORY_GAMES * 7)
        # Per game, the (house, prompt id, user) whose decision DM went out; pruned to the game's open prompts.
        self.notified: dict[int, set[tuple[str, str, int | None]]] = {}
        self.status_text: dict[int, str] = Bounded(MEMORY_GAMES)
        self.void_forms: dict[int, set[int]] = Bounded(MEMORY_GAMES)  # per game, form messages an undo made void
        self.phase_shown: dict[int, str] = Bounded(MEMORY_GAMES)  # the phase whose header the channel saw last
        self.dm_channels: dict[int, int] = Bounded(MEMORY_DM_CHANNELS)  # user id -> their DM channel's id
        self.posting: dict[int, asyncio.Task[None]] = {}  # each game's latest channel post, run in order
        self.status_pending: set[int] = set()
        self.status_delay = 2.0  # seconds during which answers share one status edit
        self.status_tasks: set[asyncio.Task[None]] = set()
        self.order = AckFirst()  # acknowledgements of a burst of clicks go before the work behind them
        service.subscribe(self.on_applied)
        service.subscribe_end(self.forget_game)
        service.subscribe_notices(self.on_notices)

    async def _acknowledge(self, interaction: discord.Interaction[Any], *, thinking: bool) -> None:
        """Acknowledge a click or command once, before any work: ``thinking`` shows "thinking…" for an answer
        to come as an ephemeral followup; otherwise a click's message is edited later. Nothing if already done.
        While any acknowledgement is on its way, work waits (see cogs/acks.py)."""
        if not interaction.response.is_done():
            async with self.order.acknowledging():
                await interaction.response.defer(ephemeral=True, thinking=thinking)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Remember the locale of the user's last interaction: DMs the bot sends unasked are written in it."""
        try:
            await self.service.remember_locale(interaction.user.id, str(interaction.locale))
        except Exception:  # never let bookkeeping fail an interaction
            log.exception("could not remember the locale of user %s", interaction.user.id)

    # ----- after every accepted answer -----

    async def on_applied(self, applied: Applied) -> None:
        if applied.before is None and applied.source != Source.START:  # a repair or an undo: every form of the earlier
            # position is void, even one for a prompt with the same id as a decision open now
            self.notified.pop(applied.game_id, None)
            void = self.void_forms.setdefault(applied.game_id, set())
            for key in [k for k in self.drafts if k[0] == applied.game_id]:
                void |= self.drafts.pop(key).messages
        for e in applied.events:
            if e["type"] == "seat-changed":  # a new player must hear of the decision already open
                marks = self.notified.get(applied.game_id, set())
                self.notified[applied.game_id] = {k for k in marks if k[0] != e["house"]}
                self.drafts.pop((applied.game_id, e["house"]), None)  # the old player's form is no longer theirs
        # The answer is committed: its player's receipt must not wait for the channel post, the images or the
        # next decisions' DMs. They run after it, one step after another for each game.
        self.after_answer(applied.game_id, lambda: self.publish(applied))

    def after_answer(self, game_id: int, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work()`` once the game's earlier posts are done (posts of one game keep their order)."""
        previous = self.posting.get(game_id)

        async def in_turn() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            await work()

        # A fresh context: the work takes its own slot (cogs/acks.py) instead of the answering click's.
        task = asyncio.get_running_loop().create_task(in_turn(), context=contextvars.Context())
        self.posting[game_id] = task

        def finished(done: asyncio.Task[None]) -> None:
            if self.posting.get(game_id) is done:
                del self.posting[game_id]

        task.add_done_callback(finished)

    async def settled(self) -> None:
        """Wait until every post that answers have started is done (tests, shutdown)."""
        while self.posting:
            await asyncio.wait(list(self.posting.values()))

    async def drain(self) -> list[int]:
        """At start-up: publish, each game in order, what versions committed before a crash implied and never sent
        (the outbox); returns the games concerned (their deadlines are re-armed by the caller)."""
        pending = await self.service.unpublished()
        for applied, sent in pending:
            self.after_answer(applied.game_id, functools.partial(self.publish, applied, sent, last_try=True))
        noticed = {notice.game_id for notice in await self.service.pending_notices()}
        for game_id in sorted(noticed):
            self.on_notices(game_id)
        return sorted({applied.game_id for applied, _ in pending})

    async def publish(self, applied: Applied, sent: frozenset[str] = frozenset(), *, last_try: bool = False) -> None:
        """Send what a committed version implies: the channel's lines and images, the DMs of the decisions it opened,
        the status. Each part sent (the channel post, each house's DM) is noted in the outbox. A version that sent
        something takes its game's published rows out with its own; a quiet one (most answers: a secret step, nothing
        to tell) costs no write and goes with the next, since publishing it again sends nothing. A failure keeps its
        row for the next start-up (``last_try``: that was it, the row goes anyway)."""
        game_id, version = applied.game_id, applied.game.version
        told = False
        try:
            images = await self.step_images(applied) if "channel" not in sent else []
            async with self.order.working():
                if "channel" not in sent and await self.post_to_channel(game_id, applied.game, applied.events, images):
                    await self.service.published_part(applied, "channel")
                    told = True
                dm_sent = {part.removeprefix("dm:") for part in sent if part.startswith("dm:")}
                houses = opened_by(applied)
                if houses is None:
                    houses = {p.house for p in applied.game.prompts()}
                for house in sorted(houses - dm_sent):
                    if await self.notify_prompts(game_id, applied.game, {house}):
                        await self.service.published_part(applied, f"dm:{house}")
                        told = True
                await self.refresh_forms(game_id, applied.game)
            self.schedule_status(game_id)
        except Exception as err:
            what = "post" if isinstance(err, discord.HTTPException) else "publish"
            log.exception("could not %s the result of version %s of game %s", what, version, game_id)
            if not last_try:
                await self.service.published_part(applied, RETRY)
                return
        if told or last_try or applied.game.finished:
            await self.service.published(applied)

    async def step_images(self, applied: Applied) -> list[tuple[str, bytes, str]]:
        """What the channel sees of a step (``render.images_for_step``), drawn in the image pool: battle images
        first, then a crop of what changed or the whole board; [] when nothing visible changed."""
        if self.renderer is None:
            return []
        from render import images_for_step
        from render.aio import step_may_show_something, step_shows_something

        game_id = applied.game_id
        public = [e for e in applied.events if "private_to" not in e]
        if not step_may_show_something(public):
            return []  # houses answered a secret step: nothing to draw, and no view to work out
        view_before, view_after = applied.views()
        if not step_shows_something(view_before, view_after, public):
            return []  # most answers change nothing visible: the workers are not asked at all
        lang = (await self.service.row(game_id)).settings.get("language", "en")
        try:
            return await self.background.run(images_for_step, view_before, view_after, public, lang)
        except PoolBusy:
            log.warning("the image queue is full: game %s's step is posted without its images", game_id)
        except Exception:
            log.exception("could not draw the images of game %s's step", game_id)
        return []

    async def post_to_channel(
        self,
        game_id: int,
        game: Game,
        events: list[dict[str, Any]],
        images: list[tuple[str, bytes, str]] | None = None,
    ) -> bool:
        """The step's narration, with its images attached to the last of its messages (in their order); whether
        anything was posted."""
        row = await self.service.row(game_id)
        lang = row.settings.get("language", "en")
        channel = await self._channel(row.channel_id)
        chunks = split(self.narration(game_id, game, events, lang))
        files = [discord.File(io.BytesIO(png), filename=name) for name, png, _ in images or []]
        if files and not chunks:
            view = game.view(None)
            name = shown(row.name, NAME_LIMIT)
            chunks = [t("map.caption", lang, game=name, round=view["round"], phase=t(f"phase.{view['phase']}", lang))]
        for i, chunk in enumerate(chunks):
            if i < len(chunks) - 1 or not files:
                await channel.send(chunk)
                continue
            for start in range(0, len(files), FILES_PER_MESSAGE):
                batch = files[start : start + FILES_PER_MESSAGE]
                await channel.send(chunk if start == 0 else None, files=batch)
        return bool(chunks)

    def narration(self, game_id: int, game: Game, events: list[dict[str, Any]], lang: str) -> list[str]:
        """The step's lines, a header opening each new phase: the events say when a phase begins, and the
        game's phase afterwards opens the one that starts without an event (planning after Westeros)."""
        round_ = game.round - (1 if any(e["type"] == "round-started" for e in events) else 0)
        seen = self.phase_shown.get(game_id)
        lines = narrate_all(events, lang, round_=round_, phase=seen)
        seen = last_phase(events, seen)
        if not game.finished and lines and seen is not None:  # most answers narrate nothing: no view then
            now = game.view(None)["phase"]
            if now != seen:
                lines.append(phase_header(game.round, now, lang))
                seen = now
        if seen is not None:
            self.phase_shown[game_id] = seen
        return lines

    def forget_game(self, game_id: int) -> None:
        """An ended game leaves every in-memory table (its last posts still go out, in order)."""
        self.notified.pop(game_id, None)
        for key in [k for k in self.drafts if k[0] == game_id]:
            del self.drafts[key]
        for key in [k for k in self.prompts_seen if k[0] == game_id]:
            del self.prompts_seen[key]
        self.status_text.pop(game_id, None)
        self.phase_shown.pop(game_id, None)
        self.void_forms.pop(game_id, None)

    def schedule_status(self, game_id: int) -> None:
        """Coalesce status edits: Discord allows few edits per channel, and a burst of answers needs one."""
        if game_id in self.status_pending:
            return
        self.status_pending.add(game_id)

        async def flush() -> None:
            await asyncio.sleep(self.status_delay)
            self.status_pending.discard(game_id)
            try:
                await self.update_status(game_id, await self.service.load(game_id))
            except (discord.HTTPException, ServiceError):
                log.exception("could not update the status message of game %s", game_id)

        task = asyncio.get_running_loop().create_task(flush())
        self.status_tasks.add(task)
        task.add_done_callback(self.status_tasks.discard)

    async def update_status(self, game_id: int, game: Game) -> None:
        """One pinned message per game, edited in place: round, phase, who is awaited, the next deadline."""
        row = await self.service.row(game_id)
        lang = row.settings.get("language", "en")
        view = game.view(None)
        if game.finished:
            text = t(
                "status.pinned.over",
                lang,
                name=shown(row.name, NAME_LIMIT),
                winner=house_mark(game.winner, lang),
            )
        else:
            awaiting = awaited_text(view, lang)
            text = t(
                "status.pinned",
                lang,
                name=shown(row.name, NAME_LIMIT),
                round=view["round"],
                phase=t(f"phase.{view['phase']}", lang),
                awaiting=awaiting,
                deadline=await self._deadline_text(game_id, lang),
            )
        if self.status_text.get(game_id) == text:
            return  # nothing changed: spare Discord an edit
        self.status_text[game_id] = text
        channel = await self._channel(row.channel_id)
        message_id = await self.service.status_message(game_id)
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(content=text)  # type: ignore[attr-defined]
                return
            except discord.NotFound:
                pass  # someone deleted it: post a new one
        message = await channel.send(text)
        await self.service.set_status_message(game_id, message.id)
        try:
            await message.pin()
        except discord.HTTPException:
            log.info("could not pin the status message of game %s (missing permission?)", game_id)

    async def notify_prompts(self, game_id: int, game: Game, houses: set[str] | None = None) -> int:
        """The decision DMs of the open prompts (only ``houses``' when given); how many went out."""
        sent = 0
        row = await self.service.row(game_id)
        prompts = game.prompts()
        current = {p.id for p in prompts}  # marks of this game's closed prompts go (the set stays bounded)
        marks = {k for k in self.notified.get(game_id, ()) if k[1] in current}
        self.notified[game_id] = marks
        for prompt in prompts:
            if prompt.answered or (houses is not None and prompt.house not in houses):
                continue
            # The seat is read for each notice: a /mod replace may land while earlier notices are being sent.
            user_id = await self.service.seat_of(game_id, prompt.house)
            key = (prompt.house, prompt.id, user_id)
            if key in marks or user_id is None:
                continue
            marks.add(key)
            await self.send_decision_notice(row.id, shown(row.name, NAME_LIMIT), row.channel_id, user_id, game, prompt)
            sent += 1
        return sent

    async def decision_text(self, game_id: int, name: str, game: Game, prompt: Prompt, form: Form, lang: str) -> str:
        """The decision DM: the game, the house (name and colour mark), round and phase, what is asked in one
        line, the deadline as Discord timestamps (each reader sees their own time zone), the game channel."""
        row = await self.service.row(game_id)
        return t(
            "dm.decision",
            lang,
            game=name,
            house=decision_house(game, prompt.house, lang),
            round=game.round,
            phase=t(f"phase.{game.view(None)['phase']}", lang),
            title=form.title,
            ask=form.ask,
            deadline=await self._deadline_text(game_id, lang),
            channel=_channel_link(row.guild_id, row.channel_id),
        )

    async def send_decision_notice(
        self, game_id: int, name: str, channel_id: int, user_id: int, game: Game, prompt: Prompt
    ) -> None:
        """The decision's DM carries its form: the player answers there, with no click to open it first. A
        player whose DMs are closed is pinged in the channel with a Decide button (its form is ephemeral)."""
        lang = await self.service.language_for(user_id, game_id)
        form = form_of(game, prompt, lang)
        text = await self.decision_text(game_id, name, game, prompt, form, lang)
        decide = discord.ui.View(timeout=None)
        decide.add_item(DecideButton(game_id, prompt.house, t("button.decide", lang)))
        if not await self.service.dm_closed(user_id):
            try:
                dm = await self._dm(user_id)
                # Answered meanwhile (or the game ended): no form to keep in memory; Decide opens what is asked now.
                if not await self._still_asked(game_id, prompt):
                    await dm.send(text, view=decide)
                    return
                # A form the player already opened for this decision (from /decide, say) keeps its picks.
                draft = self.drafts.get((game_id, prompt.house))
                opened = draft is not None and draft.prompt_id == prompt.id and draft.user_id == user_id
                if draft is None or not opened:
                    draft = self._new_draft(game_id, prompt, form, user_id, head=text)
                whole = self.form_text(game_id, prompt.house, draft, lang, head=text)
                if len(whole) > MESSAGE_LIMIT:
                    if not opened:  # the notice and the whole form exceed a message: Decide opens the form alone
                        self.drafts.pop((game_id, prompt.house), None)
                    await dm.send(text, view=decide)
                    return
                content, form_view = self.render_form(game_id, prompt.house, draft, lang, text=whole)
                draft.messages.add((await dm.send(content, view=form_view)).id)
                return
            except discord.Forbidden as err:
                if err.code != DM_CLOSED:
                    raise
                # Remember it: retrying closed DMs counts toward Discord's invalid-request limit.
                await self.service.set_dm_closed(user_id, True)
        channel = await self._channel(channel_id)
        ping = t(
            "channel.dm_closed", lang, user=f"<@{user_id}>", title=form.title, house=house_mark(prompt.house, lang)
        )
        await channel.send(ping, view=decide, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))

    async def _still_asked(self, game_id: int, prompt: Prompt) -> bool:
        """Whether the game still runs and ``prompt`` is still what its house is asked (DMs go out after the
        answer that opened them, so another answer, a deadline or /mod end may have come first)."""
        if (await self.service.row(game_id)).status not in ACTIVE:
            return False
        current = (await self.service.load(game_id)).prompt_for(prompt.house)
        return current is not None and current.id == prompt.id

    async def _deadline_text(self, game_id: int, lang: str) -> str:
        row = await self.service.deadline(game_id)
        return deadline_stamp(row.due_at) if row else t("dm.no_deadline", lang)

    async def refresh_forms(self, game_id: int, game: Game) -> None:
        """Open DM forms whose decision changed under them (the same prompt with other choices: a gift changes what a
        bid may reach) are drawn again from the new position, saying so; their picks start again from the default.
        Asked after every version, whatever changed the prompt."""
        for house in game.houses:
            draft = self.drafts.get((game_id, house))
            seen = self.prompts_seen.get((game_id, house))
            prompt = game.prompt_for(house)
            if draft is None or seen is None or prompt is None or prompt.id != draft.prompt_id:
                continue
            if (prompt.choices, prompt.default, prompt.info) == (seen.choices, seen.default, seen.info):
                continue
            channel_id = self.dm_channels.get(draft.user_id)
            lang = await self.service.language_for(draft.user_id, game_id)
            del self.drafts[(game_id, house)]  # its messages are drawn again below, or made void
            fresh = self._new_draft(game_id, prompt, form_of(game, prompt, lang), draft.user_id, head=draft.head)
            if channel_id is not None:
                content, view = self.render_form(game_id, house, fresh, lang, t("decision.updated", lang))
                dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
                for message_id in sorted(draft.messages):
                    with contextlib.suppress(discord.HTTPException):  # an ephemeral /decide form is not in the DMs
                        await dm.get_partial_message(message_id).edit(content=content, view=view)
                        fresh.messages.add(message_id)
            # A form that could not be drawn again still shows the old choices: pressing it brings the current one.
            self.void_forms.setdefault(game_id, set()).update(draft.messages - fresh.messages)

    async def direct_message(self, user_id: int, content: str, view: discord.ui.View) -> None:
        """A DM the bot sends a player unasked (a request to agree to a moderator's change)."""
        await (await self._dm(user_id)).send(content, view=view)

    async def _dm(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel. Its id never changes, and discord.py forgets all but its latest 128 channels:
        with more players than that, every DM would first open the channel again, one more request each."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is not None:
            return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        dm = await self.bot.create_dm(discord.Object(user_id))
        self.dm_channels[user_id] = dm.id
        return dm

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    def on_notices(self, game_id: int) -> None:
        """Notices were written to the outbox: they are posted after the game's posts already under way."""
        self.after_answer(game_id, functools.partial(self.post_notices, game_id))

    async def post_notices(self, game_id: int) -> None:
        """Post the game's notices still in the outbox, in order, each deleted once it is out (a failure keeps it and
        those after it for the next start-up)."""
        pending = await self.service.pending_notices(game_id)
        if not pending:
            return
        row = await self.service.row(game_id)
        lang = row.settings.get("language", "en")
        channel = await self._channel(row.channel_id)
        for notice in pending:
            try:
                text = notice_text(from_payload(notice.payload), lang)
            except (KeyError, TypeError, ValueError):  # a notice no words fit is dropped, not left to block the rest
                log.exception("notice %s of game %s cannot be worded; it is dropped", notice.id, game_id)
                await self.service.notice_posted(notice.id)
                continue
            try:
                await channel.send(text)
            except discord.HTTPException:
                log.exception("could not post a notice of game %s", game_id)
                return
            await self.service.notice_posted(notice.id)

    async def on_reminder(self, notice: Reminder) -> None:
        """A deadline's reminder by DM to each house still awaited (a vassal's liege is reminded)."""
        game_id = notice.game_id
        row = await self.service.row(game_id)
        game = await self.service.load(game_id)
        for house in notice.houses:
            user_id = await self.service.seat_of(game_id, house)
            prompt = game.prompt_for(house)
            if user_id is None or prompt is None or await self.service.dm_closed(user_id):
                continue
            user_lang = await self.service.language_for(user_id, game_id)
            view = discord.ui.View(timeout=None)
            view.add_item(DecideButton(game_id, house, t("button.decide", user_lang)))
            text = t(
                "deadline.reminder",
                user_lang,
                game=shown(row.name, NAME_LIMIT),
                house=decision_house(game, house, user_lang),
                ask=form_of(game, prompt, user_lang).ask,
                deadline=deadline_stamp(notice.due_at),
                channel=_channel_link(row.guild_id, row.channel_id),
            )
            try:
                dm = await self._dm(user_id)
                await dm.send(text, view=view)
            except discord.Forbidden:
                await self.service.set_dm_closed(user_id, True)

    # ----- the decision form -----

    async def open_decision(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, note: str = ""
    ) -> None:
        """Acknowledge at once (Discord allows 3 s; a click already acknowledged stays so), then load the game
        and send the form as an ephemeral followup."""
        if not interaction.response.is_done():
            await self._acknowledge(interaction, thinking=True)
        async with self.order.working():
            await self._send_form(interaction, game_id, house, str(interaction.locale), note)

    async def _send_form(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, lang: str, note: str
    ) -> None:
        mine = await self.service.houses_of(game_id, interaction.user.id)  # its own house and its vassals
        if not mine:
            raise ServiceError("not-seated", "You do not play a house in this game.")
        if house not in mine:
            raise ServiceError("not-your-house", "Only the player seated for this house may answer for it.")
        game = await self.service.load(game_id)
        prompt = game.prompt_for(house)
        if prompt is None:
            await say(interaction, t("decision.nothing", lang))
            return
        draft = self._new_draft(game_id, prompt, form_of(game, prompt, lang), interaction.user.id)
        content, view = self.render_form(game_id, house, draft, lang, note)
        draft.messages.add((await interaction.followup.send(content, view=view, ephemeral=True, wait=True)).id)

    def _new_draft(self, game_id: int, prompt: Prompt, form: Form, user_id: int, *, head: str = "") -> Draft:
        """A fresh draft of the house's form for the member, replacing any earlier one (one form is live: the
        messages of the one it replaces are void, since their picks are no longer the draft's)."""
        self.prompts_seen[(game_id, prompt.house)] = prompt
        earlier = self.drafts.get((game_id, prompt.house))
        if earlier is not None and earlier.messages:
            self.void_forms.setdefault(game_id, set()).update(earlier.messages)
        draft = Draft(prompt.id, form, user_id, {f.key: list(f.selected) for f in form.fields}, head=head)
        self.drafts[(game_id, prompt.house)] = draft
        return draft

    def form_text(self, game_id: int, house: str, draft: Draft, lang: str, note: str = "", *, head: str = "") -> str:
        """The form's text, uncut. A ``head`` (by default the draft's) shows instead of the title line and the
        question: a decision DM's notice already names the game, the house and what is asked."""
        pages = draft.form.pages()
        head = head or draft.head
        top = [head] if head else [f"**{draft.form.title}** · {house_mark(house, lang)}", draft.form.ask]
        lines = [*top, *draft.form.lines]
        prompt = self.prompts_seen.get((game_id, house))
        if prompt is not None and prompt.id == draft.prompt_id:
            lines += live_lines(draft.form, prompt, draft.picks, lang)  # options still legal first (orders: tokens)
        if len(pages) > 1:
            lines.append(t("decision.page", lang, page=draft.page + 1, pages=len(pages)))
        if note:
            lines.append(note)
        return "\n".join(lines)

    def render_form(
        self, game_id: int, house: str, draft: Draft, lang: str, note: str = "", *, text: str | None = None
    ) -> tuple[str, discord.ui.View]:
        """The form's text (``text`` when the caller has it already, else ``form_text``), cut to a message, and its
        components."""
        pages = draft.form.pages()
        page = pages[min(draft.page, len(pages) - 1)]
        if text is None:
            text = self.form_text(game_id, house, draft, lang, note)
        view = discord.ui.View(timeout=None)
        for f in page:
            index = draft.form.fields.index(f)
            chosen = set(draft.picks.get(f.key, []))
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=f"dec:{game_id}:{house}:s:{index}",
                placeholder=f.label[:150],
                min_values=f.min_values,
                max_values=min(f.max_values, len(f.options)),
                options=[
                    discord.SelectOption(
                        label=o.label[:100],
                        value=o.value,
                        description=(o.description or None) and o.description[:100],
                        default=o.value in chosen,
                    )
                    for o in f.options
                ],
            )
            view.add_item(FormSelect(game_id, house, index, select))
        if len(pages) > 1:
            view.add_item(FormButton(game_id, house, "prev", t("button.prev", lang)))
            view.add_item(FormButton(game_id, house, "next", t("button.next", lang)))
        view.add_item(FormButton(game_id, house, "submit", t("button.submit", lang)))
        return fit(text), view

    async def _owned_draft(self, interaction: discord.Interaction[Any], game_id: int, house: str) -> Draft | None:
        """After the click is acknowledged: refuse anyone but the member seated for the house now; then the
        draft behind this form, or None once a fresh form was sent instead (the draft expired, e.g. after a
        restart, or the step moved on)."""
        if await self.service.seat_of(game_id, house) != interaction.user.id:
            raise ServiceError("not-your-house", "Only the player seated for this house may answer for it.")
        draft = self.drafts.get((game_id, house))
        prompt = (await self.service.load(game_id)).prompt_for(house)
        void = interaction.message is not None and interaction.message.id in self.void_forms.get(game_id, ())
        if (
            draft is None
            or void
            or draft.user_id != interaction.user.id
            or prompt is None
            or prompt.id != draft.prompt_id
        ):
            await self.open_decision(interaction, game_id, house, t("decision.expired", str(interaction.locale)))
            return None
        return draft

    async def on_pick(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, index: int, values: list[str]
    ) -> None:
        await self._acknowledge(interaction, thinking=False)  # the form is then edited in place
        lang = str(interaction.locale)
        draft = await self._owned_draft(interaction, game_id, house)
        if draft is None:
            return
        if index >= len(draft.form.fields):
            await self.open_decision(interaction, game_id, house, t("decision.expired", lang))
            return
        key = draft.form.fields[index].key
        draft.picks[key] = values
        if repicks(draft.form, key, values):  # e.g. a march's units are those of the area picked to march from
            prompt = (await self.service.load(game_id)).prompt_for(house)
            assert prompt is not None
            draft.picks = repick(draft.form, prompt, draft.picks, key, values, lang)
            draft.page = 0
        content, view = self.render_form(game_id, house, draft, lang)
        await interaction.edit_original_response(content=content, view=view)

    async def on_form_button(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, action: str
    ) -> None:
        # Acknowledge at once; the answer is then checked, committed and confirmed by editing the form.
        await self._acknowledge(interaction, thinking=False)
        draft = await self._owned_draft(interaction, game_id, house)
        if draft is None:
            return
        if action in ("prev", "next"):
            pages = len(draft.form.pages())
            draft.page = (draft.page + (1 if action == "next" else -1)) % pages
            content, view = self.render_form(game_id, house, draft, str(interaction.locale))
            await interaction.edit_original_response(content=content, view=view)
            return
        async with self.order.working():
            await self._submit_draft(interaction, game_id, house, draft, dict(draft.picks))

    async def _submit_draft(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        house: str,
        draft: Draft,
        answer_picks: dict[str, list[str]],
    ) -> None:
        lang = str(interaction.locale)
        game = await self.service.load(game_id)
        prompt = game.prompt_for(house)
        if prompt is None or prompt.id != draft.prompt_id:
            self.drafts.pop((game_id, house), None)
            await say(interaction, t("error.stale-prompt", lang))
            return
        answer = to_answer(prompt, answer_picks)  # a FormError is answered by the error handler
        await self.submit(interaction, game_id, house, prompt, answer, draft)

    async def submit(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        house: str,
        prompt: Prompt,
        answer: Any,
        draft: Draft | None,
    ) -> None:
        await self._acknowledge(interaction, thinking=False)
        lang = str(interaction.locale)
        # A refusal, or a storage failure (the transaction is rolled back: the handler says plainly that
        # nothing was recorded), propagates to the error handler.
        async with self.order.working():
            command = Answer(game_id=game_id, by=interaction.user.id, key=command_key(interaction), house=house,
                             answer=answer, prompt_id=prompt.id)  # fmt: skip
            await self.service.execute(command)
        summary = answer_text(prompt.kind, answer, lang, limit=1800, prompt=prompt)
        lines = [t("decision.recorded", lang, summary=summary)]
        change: discord.ui.View | None = None
        if prompt.secret:  # a secret answer can change until everyone has answered: the receipt reopens the form
            lines.append(t("decision.changeable", lang))
            change = discord.ui.View(timeout=None)
            change.add_item(DecideButton(game_id, house, t("button.change", lang)))
        if draft is not None:
            self.drafts.pop((game_id, house), None)
            await interaction.edit_original_response(content=fit("\n".join(lines)), view=change)
        else:
            await interaction.followup.send(fit("\n".join(lines)), view=change or discord.utils.MISSING, ephemeral=True)

    # ----- slash commands -----

    @app_commands.command(name="decide", description="Open the decisions you still owe")
    async def decide(self, interaction: discord.Interaction[Any]) -> None:
        await self._acknowledge(interaction, thinking=True)
        lang = str(interaction.locale)
        owed = []
        for game_id, house in await self.service.decisions_of_user(interaction.user.id):
            prompt = (await self.service.load(game_id)).prompt_for(house)
            if prompt is not None:
                owed.append((game_id, house, prompt))
        if len(owed) == 1:
            await self.open_decision(interaction, owed[0][0], owed[0][1])
            return
        if not owed:
            await say(interaction, t("decision.none_open", lang))
            return
        # Several houses wait (a liege's own and his vassals', or several games): one button each.
        view = discord.ui.View(timeout=None)
        lines = [tn("decision.several", len(owed), lang)]
        for game_id, house, prompt in owed[:MAX_DECIDE_BUTTONS]:
            name = shown((await self.service.row(game_id)).name, NAME_LIMIT)
            title = prompt_title(prompt.kind, lang)
            lines.append(t("decision.several.line", lang, game=name, house=house_mark(house, lang), title=title))
            label = t("decision.several.button", lang, house=house_name(house, lang), title=title)[:80]
            view.add_item(DecideButton(game_id, house, label))
        await interaction.followup.send(fit("\n".join(lines)), view=view, ephemeral=True)

    @app_commands.command(name="orders", description="Type your orders, e.g. Winterfell march+1, White Harbor defense")
    @app_commands.describe(text="Area and order, separated by commas")
    async def orders(self, interaction: discord.Interaction[Any], text: str) -> None:
        await self._acknowledge(interaction, thinking=True)
        lang = str(interaction.locale)
        channel = None if interaction.guild_id is None else interaction.channel_id  # in a DM: any of the user's games
        here = await self.service.games_of_user(interaction.user.id, channel_id=channel)
        if not here:
            raise ServiceError("not-seated-here", "You do not play a house in a game here.")
        game_id = here[0][0]
        house = await self.service.house_of(game_id, interaction.user.id)  # typed orders are the player's own
        prompt = (await self.service.load(game_id)).prompt_for(house)
        if prompt is None or not typed_orders(prompt):
            raise ServiceError("not-planning", "Orders are not being given now.")
        parsed = parse_orders(text)
        problems = [t(f"orders.problem.{p['code']}", lang, **{**p, "text": shown(p["text"])}) for p in parsed.problems]
        missing = [a for a in prompt.choices["areas"] if a not in parsed.orders]
        if missing:
            problems.append(t("orders.parsed_missing", lang, areas=", ".join(area_label(a, lang) for a in missing)))
        if problems:
            await say(interaction, "\n".join(problems))  # cut to Discord's limit
            return
        await self.submit(interaction, game_id, house, prompt, {"orders": parsed.orders}, None)
