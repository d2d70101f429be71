"""The decision DMs: each open decision's notice with its form, a deadline's reminders, and the DMs the bot sends a
player unasked. A player whose DMs are closed is pinged in the game channel with a **Decide** button instead."""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

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

log = logging.getLogger("westeros.play")

DM_CLOSED = 50007
# A publication whose outbox row is older than this is a retry past Discord's nonce window (a few minutes; a first
# try runs within moments of its commit): before sending one of its decision DMs not marked out, the bot looks for it
# in the channel's history (a crash between Discord's acceptance and the mark). Shorter than the window, so that the
# nonce covers what the lookup does not.
LOOKUP_AFTER_S = 120.0
LOOKUP_LIMIT = 500  # messages read back at most per lookup (the game channel may have talk since)
STAMP = re.compile(r"<t:\d+(?::[a-zA-Z])?>")  # a Discord timestamp (the deadline): moved, the notice is the same


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


class Deliveries(Protocol):
    """A publication's record of the messages Discord accepted (``cogs.publisher.Sends``, table ``outbox_sends``)."""

    async def recorded(self, part: str) -> tuple[bool, int | None]: ...

    async def written_at(self) -> float | None: ...

    async def mark(self, part: str, message_id: int | None) -> None: ...


@dataclass(frozen=True)
class Delivery:
    """One decision's notice as a publication sends it: its message's mark in ``sends``, under ``part`` (the DM;
    ``part`` + ``:ping`` for the channel's ping when the DMs are closed)."""

    sends: Deliveries
    part: str


def notice_part(prompt_id: str, user_id: int) -> str:
    """A decision DM's place in its publication (``outbox_sends.part``): the decision and the member told."""
    return f"dm:{prompt_id}:{user_id}"


def same_words(text: str) -> str:
    """A notice's words without its Discord timestamps: a deadline moved meanwhile leaves it the notice it was."""
    return STAMP.sub("<t>", text).strip()


def message_words(message: discord.Message) -> tuple[list[str], list[str]]:
    """What a message says (its content and each text display of its layout) and its components' custom ids."""
    texts = [message.content] if message.content else []
    ids: list[str] = []
    stack: list[Any] = list(message.components)
    while stack:
        item = stack.pop()
        if isinstance(item, discord.TextDisplay):
            texts.append(item.content)
        elif isinstance(item, discord.Button | discord.SelectMenu):
            if item.custom_id:
                ids.append(item.custom_id)
        elif isinstance(item, discord.ActionRow | discord.Container):
            stack.extend(item.children)
        elif isinstance(item, discord.SectionComponent):
            stack.extend([*item.children, item.accessory])
    return texts, ids


def is_notice(message: discord.Message, bot_id: int, game_id: int, house: str, words: str) -> bool:
    """Whether ``message`` is the bot's notice saying ``words`` (timestamps aside) with a control of the game's house
    (a Decide button, a form's menu or button): a DM or ping Discord took before a crash, which a retry past the nonce
    window must not send again."""
    if message.author.id != bot_id:
        return False
    texts, ids = message_words(message)
    controls = (f"decide:{game_id}:{house}", f"dec:{game_id}:{house}:")
    if not any(i == controls[0] or i.startswith(controls[1]) for i in ids):
        return False
    return any(words in same_words(text) for text in texts)


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
        self,
        game_id: int,
        game: Game,
        houses: set[str] | None = None,
        *,
        publication: str | None = None,
        sends: Deliveries | None = None,
    ) -> int:
        """The decision DMs of the open prompts (only ``houses``' when given); how many are out (sent now, or by an
        earlier try of the publication). ``publication``: the outbox's publication sending them, which each DM's nonce
        names, and ``sends`` its marks: each DM is marked once Discord took it, and a retry skips those marked (None:
        sent afresh, with a nonce of its own and no mark)."""
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
            nonce = decision_nonce(publication, prompt.id, user_id) if publication is not None else None
            delivery = Delivery(sends, notice_part(prompt.id, user_id)) if sends is not None else None
            await self.send_decision_notice(
                row.id, shown(row.name, NAME_LIMIT), row.channel_id, user_id, game, prompt, nonce=nonce,
                delivery=delivery,
            )  # fmt: skip
            marks.add(key)  # once out: a send that failed is tried again with the publication
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
        delivery: Delivery | None = None,
    ) -> None:
        """The decision's DM carries its form: the player answers there, with no click to open it first. A
        player whose DMs are closed is pinged in the channel with a Decide button (its form is ephemeral).

        The one message it sends carries ``nonce`` (its publication's, the decision's and the member's): a
        publication tried again after a crash between Discord's answer and the outbox's mark gets the message Discord
        made then (within Discord's nonce window), not a second DM (issue X). With ``delivery`` (a publication's), the
        message is marked out as soon as Discord took it, and nothing is sent when the DM or the ping is marked
        already; past the nonce window a retry looks for it in the channel first (``_out_before``)."""
        nonce = nonce or secrets.token_hex(12)  # sent afresh: a nonce of its own, which no earlier send shares
        if delivery is not None and (
            (await delivery.sends.recorded(delivery.part))[0]
            or (await delivery.sends.recorded(f"{delivery.part}:ping"))[0]
        ):
            return
        lang = await self.service.language_for(user_id, game_id)
        form = form_of(game, prompt, lang)
        text = await self.decision_text(game_id, name, game, prompt, form, lang)
        decide = discord.ui.View(timeout=None)
        decide.add_item(DecideButton(game_id, prompt.house, t("button.decide", lang)))
        forms = self.forms
        if not await self.service.dm_closed(user_id):
            try:
                dm = await self.channels.dm(user_id)
                if delivery is not None and await self._out_before(delivery, "", dm, game_id, prompt.house, text):
                    return
                # Answered meanwhile (or the game ended): no form to keep in memory; Decide opens what is asked now.
                if not await self._still_asked(game_id, prompt):
                    await self._marked(delivery, "", await dm.send(text, view=decide, nonce=nonce))
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
                    await self._marked(delivery, "", await dm.send(view=alone, nonce=nonce))
                    return
                sent = await dm.send(view=form_view, nonce=nonce)
                draft.messages.add(sent.id)
                await self._marked(delivery, "", sent)
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
        if delivery is not None and await self._out_before(delivery, ":ping", channel, game_id, prompt.house, ping):
            return
        mention = discord.AllowedMentions(users=[discord.Object(user_id)])
        await self._marked(
            delivery, ":ping", await channel.send(ping, view=decide, nonce=nonce, allowed_mentions=mention)
        )

    @staticmethod
    async def _marked(delivery: Delivery | None, place: str, message: discord.Message) -> None:
        """Discord took the notice's message (``place``: "" for the DM, ":ping" for the channel's ping): a retry of
        its publication does not send it again."""
        if delivery is not None:
            await delivery.sends.mark(f"{delivery.part}{place}", message.id)

    async def _out_before(
        self, delivery: Delivery, place: str, to: discord.abc.Messageable, game_id: int, house: str, text: str
    ) -> bool:
        """Whether an earlier try of a publication older than Discord's nonce window sent this message (the DM, or
        the ping: ``place``) and crashed before marking it: then it is marked with the message found, and True. The
        message is the bot's in ``to`` since the publication was committed, saying ``text`` (its timestamps aside:
        Discord's history does not give a message's nonce back) with a control of the house's decision. A first try
        (a publication written moments ago) reads nothing."""
        since = await delivery.sends.written_at()
        me = self.channels.bot.user
        if since is None or me is None or time.time() - since < LOOKUP_AFTER_S:
            return False
        after = datetime.fromtimestamp(since - 1, UTC)  # a second's leeway between the database's clock and Discord's
        words = same_words(text)
        try:
            async for message in to.history(limit=LOOKUP_LIMIT, after=after, oldest_first=True):
                if is_notice(message, me.id, game_id, house, words):
                    await delivery.sends.mark(f"{delivery.part}{place}", message.id)
                    return True
        except discord.HTTPException:  # no history to read (a missing permission): the nonce is all there is
            log.info("could not read back the channel of game %s's notice %s", game_id, delivery.part)
        return False

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
