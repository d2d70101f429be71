"""The decision DMs: each open decision's notice with its form, a deadline's reminders, and the DMs the bot sends a
player unasked. A player whose DMs are closed is pinged in the game channel with a **Decide** button instead."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

import discord

from app.deadlines import Reminder
from app.decisions import Form, only_answer
from app.labels import house_mark
from app.queries import handed_over
from app.service import Applied, GameService
from app.store import ACTIVE, Source
from cogs.channels import Channels
from cogs.forms import TEXT_LIMIT, DecideButton, FormController, form_of
from cogs.text import NAME_LIMIT, shown
from engine import Game, Prompt
from i18n import t

DM_CLOSED = 50007


def deadline_stamp(due_at: float) -> str:
    """A deadline as Discord timestamps: the date and time, and how far off (``in 11 hours``)."""
    when = datetime.fromtimestamp(due_at, UTC)
    return f"{discord.utils.format_dt(when, 'f')} ({discord.utils.format_dt(when, 'R')})"


async def deadline_text(service: GameService, game_id: int, lang: str) -> str:
    """The game's next deadline as Discord timestamps, or the words for none."""
    row = await service.deadline(game_id)
    return deadline_stamp(row.due_at) if row else t("dm.no_deadline", lang)


def ask_line(form: Form) -> str:
    """What is asked, once: a card's question opens with the card's name, which the header already shows as the
    decision's title ("**Viserys Targaryen**: Viserys Targaryen: discard…" would say it twice)."""
    return form.ask.removeprefix(f"{form.title}: ")


def link_text(escaped: str) -> str:
    """An escaped name as a masked link's text: a "]" in it would end the text early (``escape_markdown`` leaves
    it), so it is escaped too."""
    return escaped.replace("]", "\\]")


def channel_link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def decision_house(game: Game, house: str, lang: str) -> str:
    """The house a decision is for, as its DM and reminder name it: a vassal with the liege who commands it."""
    liege = game.liege_of(house)
    if liege is None:
        return house_mark(house, lang)
    return t("dm.for_vassal", lang, vassal=house_mark(house, lang), liege=house_mark(liege, lang))


def decision_nonce(publication: str, prompt_id: str, user_id: int) -> str:
    """The nonce of a decision's notice sent by one publication (the version's outbox row, written anew when an undo
    commits the version again: its notices are then new DMs); 24 characters, Discord takes up to 25."""
    key = f"dm:{publication}:{prompt_id}:{user_id}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


class DecisionDMs:
    """Who was told of which decision, and the telling: a decision's DM (carrying its form, a draft of the form
    controller), a reminder, a DM asking a player to agree to something."""

    def __init__(self, service: GameService, channels: Channels, forms: FormController) -> None:
        self.service = service
        self.channels = channels
        self.forms = forms
        # Per game, the (house, prompt id, user) whose decision DM went out; pruned to the game's open prompts.
        self.notified: dict[int, set[tuple[str, str, int | None]]] = {}

    def position_changed(self, applied: Applied) -> None:
        """A version was committed: after a repair or an undo every open decision is told again; a house handed to
        a new player is told to them."""
        game_id = applied.game_id
        if applied.before is None and applied.source != Source.START:
            self.notified.pop(game_id, None)
        # A new player must hear of the decisions already open: his house's and its vassals'.
        handed = handed_over(applied)
        if handed and game_id in self.notified:
            self.notified[game_id] = {k for k in self.notified[game_id] if k[0] not in handed}

    def forget_game(self, game_id: int) -> None:
        self.notified.pop(game_id, None)

    async def notify_prompts(
        self, game_id: int, game: Game, houses: set[str] | None = None, *, publication: str | None = None
    ) -> int:
        """The decision DMs of the open prompts (only ``houses``' when given); how many went out. ``publication``: the
        outbox's publication sending them, which each DM's nonce names (None: sent afresh, no nonce)."""
        sent = 0
        row = await self.service.row(game_id)
        prompts = game.prompts()
        current = {p.id for p in prompts}  # marks of this game's closed prompts go (the set stays bounded)
        marks = {k for k in self.notified.get(game_id, ()) if k[1] in current}
        self.notified[game_id] = marks
        for prompt in prompts:
            if prompt.answered or (houses is not None and prompt.house not in houses):
                continue
            if only_answer(prompt) is not None:  # the service answers it at once (U, fault 6): nothing to ask
                continue
            # The seat is read for each notice: a /mod replace may land while earlier notices are being sent.
            user_id = await self.service.seat_of(game_id, prompt.house)
            key = (prompt.house, prompt.id, user_id)
            if key in marks or user_id is None:
                continue
            marks.add(key)
            nonce = decision_nonce(publication, prompt.id, user_id) if publication is not None else None
            await self.send_decision_notice(
                row.id, shown(row.name, NAME_LIMIT), row.channel_id, user_id, game, prompt, nonce=nonce
            )
            sent += 1
        return sent

    async def decision_text(self, game_id: int, name: str, game: Game, prompt: Prompt, form: Form, lang: str) -> str:
        """The decision DM: the game, the house (name and colour mark), round and phase, what is asked in one
        line, the deadline as Discord timestamps (each reader sees their own time zone), the game channel."""
        row = await self.service.row(game_id)
        return t(
            "dm.decision",
            lang,
            game=link_text(name),
            house=decision_house(game, prompt.house, lang),
            round=game.round,
            phase=t(f"phase.{game.view(None)['phase']}", lang),
            title=form.title,
            ask=ask_line(form),
            deadline=await deadline_text(self.service, game_id, lang),
            channel=channel_link(row.guild_id, row.channel_id),
        )

    async def send_decision_notice(
        self,
        game_id: int,
        name: str,
        channel_id: int,
        user_id: int,
        game: Game,
        prompt: Prompt,
        *,
        nonce: str | None = None,
    ) -> None:
        """The decision's DM carries its form: the player answers there, with no click to open it first. A
        player whose DMs are closed is pinged in the channel with a Decide button (its form is ephemeral).

        The one message it sends carries ``nonce`` (its publication's, the decision's and the member's): a
        publication tried again after a crash between Discord's answer and the outbox's mark gets the message Discord
        made then (within Discord's nonce window), not a second DM (issue X)."""
        nonce = nonce or secrets.token_hex(12)  # sent afresh: a nonce of its own, which no earlier send shares
        lang = await self.service.language_for(user_id, game_id)
        form = form_of(game, prompt, lang)
        text = await self.decision_text(game_id, name, game, prompt, form, lang)
        decide = discord.ui.View(timeout=None)
        decide.add_item(DecideButton(game_id, prompt.house, t("button.decide", lang)))
        forms = self.forms
        if not await self.service.dm_closed(user_id):
            try:
                dm = await self.channels.dm(user_id)
                # Answered meanwhile (or the game ended): no form to keep in memory; Decide opens what is asked now.
                if not await self._still_asked(game_id, prompt):
                    await dm.send(text, view=decide, nonce=nonce)
                    return
                # A form the player already opened for this decision (from /decide, say) keeps its picks.
                draft = forms.drafts.get((game_id, prompt.house))
                opened = draft is not None and draft.prompt_id == prompt.id and draft.user_id == user_id
                if draft is None or not opened:
                    draft = forms.new_draft(game_id, game, prompt, form, user_id, head=text)
                now = await self.service.load(game_id)  # Submit is checked against the position as it stands
                form_view = forms.render_form(game_id, prompt.house, draft, lang, now, head=text, cut=False)
                if form_view.content_length() > TEXT_LIMIT:
                    if not opened:  # the notice and the whole form exceed a message: Decide opens the form alone
                        forms.drafts.pop((game_id, prompt.house), None)
                    alone = discord.ui.LayoutView(timeout=None)  # a notice of up to 4,000 characters, as the form's
                    alone.add_item(discord.ui.TextDisplay(text))
                    alone.add_item(discord.ui.ActionRow(DecideButton(game_id, prompt.house, t("button.decide", lang))))
                    await dm.send(view=alone, nonce=nonce)
                    return
                draft.messages.add((await dm.send(view=form_view, nonce=nonce)).id)
                return
            except discord.Forbidden as err:
                if err.code != DM_CLOSED:
                    raise
                # Remember it: retrying closed DMs counts toward Discord's invalid-request limit.
                await self.service.set_dm_closed(user_id, True)
        channel = await self.channels.channel(channel_id)
        ping = t(
            "channel.dm_closed", lang, user=f"<@{user_id}>", title=form.title, house=house_mark(prompt.house, lang)
        )
        await channel.send(
            ping, view=decide, nonce=nonce, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
        )

    async def _still_asked(self, game_id: int, prompt: Prompt) -> bool:
        """Whether the game still runs and ``prompt`` is still what its house is asked (DMs go out after the
        answer that opened them, so another answer, a deadline or /mod end may have come first)."""
        if (await self.service.row(game_id)).status not in ACTIVE:
            return False
        current = (await self.service.load(game_id)).prompt_for(prompt.house)
        return current is not None and current.id == prompt.id

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
                game=link_text(shown(row.name, NAME_LIMIT)),
                house=decision_house(game, house, user_lang),
                ask=form_of(game, prompt, user_lang).ask,
                deadline=deadline_stamp(notice.due_at),
                channel=channel_link(row.guild_id, row.channel_id),
            )
            try:
                dm = await self.channels.dm(user_id)
                await dm.send(text, view=view)
            except discord.Forbidden:
                await self.service.set_dm_closed(user_id, True)

    async def direct_message(self, user_id: int, content: str, view: discord.ui.View) -> None:
        """A DM the bot sends a player unasked (a request to agree to a moderator's change)."""
        await (await self.channels.dm(user_id)).send(content, view=view)
