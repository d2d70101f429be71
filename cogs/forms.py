"""The decision form: the drafts of open forms, their buttons and menus, and the answer they submit.

A form is an ephemeral message (``/decide``, **Decide**, **Change**) or the decision DM itself; one per house is live
(its draft). Its components carry the game, the house and the version of the game the form was built from, so a
click is matched to what it was shown: a click on a form built from another version than the live draft's, or on a
form an undo, a repair or a newer form made void, is refused with a fresh form, never applied to the new position.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from app import metrics
from app.commands import Answer
from app.decisions import (
    Field,
    Form,
    FormError,
    answer_text,
    build_form,
    live_lines,
    menu_choices,
    menu_picks,
    refusal,
    repick,
    repicks,
    settled,
    to_answer,
)
from app.labels import house_mark
from app.lru import Bounded
from app.queries import handed_over
from app.queue import GatewayService
from app.service import Applied, GameService, ServiceError, SharedGame
from app.store import Source
from cogs.acks import AckFirst
from cogs.channels import Channels
from cogs.receipts import receipt_layout, reply_to
from cogs.replies import answer_failure, command_key, failure_text, guarded, say
from cogs.text import clip, fit
from engine import Game, Prompt, RuleError
from i18n import t

MEMORY_GAMES = 1024  # games whose drafts, notices and status text are kept (ended games leave at once)
# A form is a components-v2 message (discord.py's LayoutView): its text is text displays, at most 4,000 characters
# in all, and every edit of it (a pick, a page, the receipt) is a layout too, since a message keeps the flag.
TEXT_LIMIT = 4000

# A form component's custom id starts with the game, the house and the version its form was built from. A form
# posted before its id carried a version matches too: it has none, so it is out of date.
FORM_ID = r"dec:(?P<game>\d+):(?P<house>[a-z]+)(?::v(?P<version>\d+))?"
SELECT_ID = re.compile(FORM_ID + r":s:(?P<field>\d+)")
BUTTON_ID = re.compile(FORM_ID + r":(?P<action>prev|next|submit|details)")


def form_id(game_id: int, house: str, version: int | None, part: str) -> str:
    """A form component's custom id (under Discord's 100 characters): ``dec:<game>:<house>:v<version>:<part>``,
    ``part`` being ``s:<field index>`` for a menu or ``prev``/``next``/``submit`` for a button."""
    head = f"dec:{game_id}:{house}" if version is None else f"dec:{game_id}:{house}:v{version}"
    return f"{head}:{part}"


def _version(match: re.Match[str]) -> int | None:
    return None if match["version"] is None else int(match["version"])


@dataclass
class Draft:
    prompt_id: str
    form: Form
    user_id: int  # the player it was opened for: only they may change or submit it
    version: int  # the game's version the form was built from: its components carry it
    picks: dict[str, list[str]] = field(default_factory=dict)
    page: int = 0
    head: str = ""  # shown instead of the form's title and question (a decision DM's notice)
    details: bool = False  # the lines the form gives on request are shown (a house card's full texts)
    # The messages showing this form: if the position is reset under it (an undo, a repair), they are void.
    messages: set[int] = field(default_factory=set)


def _forms(interaction: discord.Interaction[Any]) -> FormController:
    forms = getattr(interaction.client.get_cog("Play"), "forms", None)
    assert isinstance(forms, FormController)
    return forms


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
        await guarded(interaction, _forms(interaction).open_decision(interaction, self.game_id, self.house))


class FormSelect(discord.ui.Select[Any]):
    """A form's menu. Its custom id names the game, the house, the form's version and the field, and a click on it
    reaches the controller by that id (``FormController.on_click``)."""

    def __init__(self, game_id: int, house: str, version: int | None, index: int, **menu: Any) -> None:
        menu.setdefault("options", [discord.SelectOption(label="-")])
        super().__init__(custom_id=form_id(game_id, house, version, f"s:{index}"), **menu)


class FormButton(discord.ui.Button[Any]):
    """◀ ▶, Submit, or the button showing or hiding the lines a form gives on request (``details``); a click reaches
    the controller by its custom id (``FormController.on_click``)."""

    def __init__(
        self, game_id: int, house: str, version: int | None, action: str, label: str = "", *, disabled: bool = False
    ) -> None:
        style = discord.ButtonStyle.success if action == "submit" else discord.ButtonStyle.secondary
        custom_id = form_id(game_id, house, version, action)
        super().__init__(label=label or action, style=style, custom_id=custom_id, disabled=disabled)


def form_of(game: Game, prompt: Prompt, lang: str) -> Form:
    """The form of one of ``game``'s prompts, the caller's own copy: a stored version builds it once for every
    message that shows it (``SharedGame.form``); any other position (a repair's) builds it here."""
    if isinstance(game, SharedGame):
        return game.form(prompt, lang)
    return build_form(prompt, game.view(prompt.house), lang)


def menu_label(form: Form, f: Field) -> str:
    """The words above a menu: its field's label; a form of one menu asking the form's own question says its title
    there, the question being just above."""
    if f.label == form.ask[: len(f.label)] and len(form.fields) == 1:
        return f"**{form.title}**"
    return f"**{f.label[:1].upper()}{f.label[1:]}**"  # a label can open with a unit's name ("корабль 1 …")


def settled_line(form: Form, f: Field, picks: dict[str, list[str]]) -> str:
    """A field that leaves nothing to choose, as the line standing for its menu: what it is for, and its pick."""
    label = menu_label(form, f)
    return f"{label}{' ' if label.rstrip('*')[-1:] in '?:' else ': '}{picked_labels(f, picks)}"


def picked_labels(f: Field, picks: dict[str, list[str]]) -> str:
    """What a menu holds, in words ("—" for nothing)."""
    chosen = picks.get(f.key, [])
    return ", ".join(o.label for o in f.options if o.value in chosen) or "—"


class FormController:
    """The live form of each house: opening it, drawing it, a pick, a page, the submit and its receipt; and
    drawing open DM forms again when their decision changed under them."""

    def __init__(self, service: GameService, order: AckFirst, channels: Channels) -> None:
        self.service = service
        self.order = order
        self.channels = channels
        self.drafts: dict[tuple[int, str], Draft] = Bounded(MEMORY_GAMES * 7)
        self.prompts_seen: dict[tuple[int, str], Prompt] = Bounded(MEMORY_GAMES * 7)
        self.void_forms: dict[int, set[int]] = Bounded(MEMORY_GAMES)  # per game, form messages an undo made void
        # Games at the versions forms were drawn at, for drawing a form again (a step's DMs share one version).
        # One read of the log each: a step's players press Submit at once, and each asked for the same version.
        self.games_then: dict[tuple[int, int], asyncio.Future[Game]] = Bounded(MEMORY_GAMES)

    async def acknowledge(self, interaction: discord.Interaction[Any], *, thinking: bool) -> None:
        """Acknowledge a click or command once, before any work: ``thinking`` shows "thinking…" for an answer
        to come as an ephemeral followup; otherwise a click's message is edited later. Nothing if already done.
        While any acknowledgement is on its way, work waits (see cogs/acks.py)."""
        if not interaction.response.is_done():
            async with self.order.acknowledging():
                await interaction.response.defer(ephemeral=True, thinking=thinking)

    def position_changed(self, applied: Applied) -> None:
        """A version was committed: after a repair or an undo every form of the earlier position is void, even one
        for a prompt with the same id as a decision open now; a house handed to a new player (with the vassals it
        commands) leaves its old player's forms."""
        game_id = applied.game_id
        if applied.before is None and applied.source != Source.START:
            void = self.void_forms.setdefault(game_id, set())
            for key in [k for k in self.drafts if k[0] == game_id]:
                void |= self.drafts.pop(key).messages
        for house in handed_over(applied):
            self.drafts.pop((game_id, house), None)
        if applied.source == Source.PLAYER and self._answered_by(applied):
            # The player answered: the form he answered from is his receipt now (edited by the process that took the
            # answer, which dropped its own draft), not a form to draw again when its decision changes. A publishing
            # worker that sent it kept a draft of it, and worked out that house's prompt at every version after.
            del self.drafts[(game_id, applied.house)]

    def _answered_by(self, applied: Applied) -> bool:
        """Whether the version answered the decision of the form its house has open here (not a gift or another
        command of that player's: his decision is still open, unanswered)."""
        draft = self.drafts.get((applied.game_id, applied.house))
        if draft is None or applied.before is None:
            return False
        asked = applied.before.prompt_for(applied.house)
        if asked is None or asked.id != draft.prompt_id or asked.answered:
            return False
        now = applied.game.prompt_for(applied.house)
        return now is None or now.id != asked.id or now.answered

    def forget_game(self, game_id: int) -> None:
        for key in [k for k in self.drafts if k[0] == game_id]:
            del self.drafts[key]
        for key in [k for k in self.prompts_seen if k[0] == game_id]:
            del self.prompts_seen[key]
        self.void_forms.pop(game_id, None)

    async def open_decision(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, note: str = ""
    ) -> None:
        """Acknowledge at once (Discord allows 3 s; a click already acknowledged stays so), then load the game
        and send the form as an ephemeral followup."""
        if not interaction.response.is_done():
            await self.acknowledge(interaction, thinking=True)
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
        draft = self.new_draft(game_id, game, prompt, form_of(game, prompt, lang), interaction.user.id)
        view = self.render_form(game_id, house, draft, lang, game, note)
        draft.messages.add((await interaction.followup.send(view=view, ephemeral=True, wait=True)).id)

    def new_draft(self, game_id: int, game: Game, prompt: Prompt, form: Form, user_id: int, *, head: str = "") -> Draft:
        """A fresh draft of the house's form (built from ``game``'s version) for the member, replacing any earlier one
        (one form is live: the messages of the one it replaces are void, since their picks are no longer the
        draft's)."""
        self.prompts_seen[(game_id, prompt.house)] = prompt
        earlier = self.drafts.get((game_id, prompt.house))
        if earlier is not None and earlier.messages:
            self.void_forms.setdefault(game_id, set()).update(earlier.messages)
        picks = {f.key: list(f.selected) for f in form.fields}
        draft = Draft(prompt.id, form, user_id, game.version, picks, head=head)
        self.drafts[(game_id, prompt.house)] = draft
        return draft

    def form_top(self, house: str, draft: Draft, lang: str, head: str = "") -> str:
        """The words above the menus: a decision DM's notice (``head``, else the draft's), which names the game, the
        house and what is asked, or the form's title and question; then what is at stake, and the lines the form
        gives on request while they are shown."""
        head = head or draft.head
        top = [head] if head else [f"**{draft.form.title}** · {house_mark(house, lang)}", draft.form.ask]
        return "\n".join([*top, *draft.form.lines, *(draft.form.details if draft.details else [])])

    def form_status(
        self, game_id: int, house: str, draft: Draft, lang: str, refused: Exception | None, note: str = ""
    ) -> str:
        """The words under the menus: what the picks so far leave (an orders form's tokens), the picks on the pages
        not shown, why Submit is off, the page, and a note."""
        lines: list[str] = []
        prompt = self.prompts_seen.get((game_id, house))
        if prompt is not None and prompt.id == draft.prompt_id:
            lines += live_lines(draft.form, prompt, draft.picks, lang)  # options still legal first (orders: tokens)
        pages = draft.form.pages()
        if len(pages) > 1:
            shown = pages[min(draft.page, len(pages) - 1)]
            elsewhere = [f"{f.label}: {picked_labels(f, draft.picks)}" for f in draft.form.fields if f not in shown]
            lines.append(clip(t("form.elsewhere", lang, picks="; ".join(elsewhere)), 600))
        if refused is not None:
            lines.append(t("form.refused", lang, reason=failure_text(refused, lang)))
        if len(pages) > 1:
            lines.append(t("decision.page", lang, page=draft.page + 1, pages=len(pages)))
        if note:
            lines.append(note)
        return "\n".join(lines)

    def render_form(
        self,
        game_id: int,
        house: str,
        draft: Draft,
        lang: str,
        game: Game,
        note: str = "",
        *,
        head: str = "",
        cut: bool = True,
    ) -> discord.ui.LayoutView:
        """The form as a message: its words, then each menu of the page under the words saying what it is for (a
        placeholder says it only while nothing is picked, so a form of pre-filled menus would read "Defense +1" four
        times), then what the picks leave and the buttons. Submit is off while ``game`` (the position the answer
        would meet) would refuse the picks, the reason shown. The words above the menus are cut to fit the message
        unless ``cut`` is False (a decision DM's form is never cut: the caller checks ``content_length``)."""
        pages = draft.form.pages()
        draft.page = min(draft.page, len(pages) - 1)
        page = pages[draft.page]
        refused = self.refused(game, house, draft)
        status = self.form_status(game_id, house, draft, lang, refused, note)
        labels = [menu_label(draft.form, f) for f in page]
        top = self.form_top(house, draft, lang, head)
        if cut:
            top = fit(top, max(200, TEXT_LIMIT - len(status) - sum(len(label) for label in labels)))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay(top))
        for f, label in zip(page, labels, strict=True):
            if settled(f):  # nothing to choose: a line says the pick, where a menu of one option would stand
                view.add_item(discord.ui.TextDisplay(settled_line(draft.form, f, draft.picks)))
                continue
            index = draft.form.fields.index(f)
            view.add_item(discord.ui.TextDisplay(label))
            view.add_item(discord.ui.ActionRow(self.menu(game_id, house, draft, index, f, lang)))
        if status:
            view.add_item(discord.ui.TextDisplay(status))
        buttons: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        if len(pages) > 1:
            buttons.add_item(FormButton(game_id, house, draft.version, "prev", t("button.prev", lang)))
            buttons.add_item(FormButton(game_id, house, draft.version, "next", t("button.next", lang)))
        if draft.form.details:
            show, hide = draft.form.details_labels
            buttons.add_item(FormButton(game_id, house, draft.version, "details", hide if draft.details else show))
        submit = FormButton(
            game_id, house, draft.version, "submit", t("button.submit", lang), disabled=refused is not None
        )
        buttons.add_item(submit)
        view.add_item(buttons)
        return view

    @staticmethod
    def menu(game_id: int, house: str, draft: Draft, index: int, f: Field, lang: str) -> FormSelect:
        """The field's menu: its options, and beside a single optional one "nothing" (picked while it is not), so
        that the menu is a choice between two and one of them is always shown picked."""
        chosen = set(draft.picks.get(f.key, []))
        options = menu_choices(f, lang)
        either = len(options) > len(f.options)
        return FormSelect(
            game_id,
            house,
            draft.version,
            index,
            placeholder=clip(f.label, 150),
            min_values=1 if either else f.min_values,
            max_values=1 if either else min(f.max_values, len(options)),
            options=[
                discord.SelectOption(
                    label=clip(o.label, 100),
                    value=o.value,
                    description=clip(o.description, 100) if o.description else None,
                    default=o.value in chosen or (either and o is options[-1] and not chosen),
                )
                for o in options
            ],
        )

    def refused(self, game: Game, house: str, draft: Draft) -> FormError | RuleError | None:
        """Why Submit would be refused now (None: it would be recorded, or the form is out of date, which a click
        finds out)."""
        prompt = game.prompt_for(house)
        if prompt is None or prompt.id != draft.prompt_id:
            return None
        return refusal(game, prompt, draft.picks)

    def _void(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """Whether the form clicked is void: an undo or a repair made it so, or it was drawn before forms were layouts
        (components v2), and editing it into one could keep its old text."""
        message = interaction.message
        return message is not None and (
            message.id in self.void_forms.get(game_id, ()) or not message.flags.components_v2
        )

    async def _owned_draft(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, version: int | None
    ) -> Draft | None:
        """After the click is acknowledged: refuse anyone but the member seated for the house now; then the
        draft behind this form, or None once a fresh form was sent instead (the draft expired, e.g. after a
        restart, or the step moved on; or the form clicked is not the draft's: built from another version, or
        made void)."""
        await self.service.ensure_decider(game_id, house, interaction.user.id)
        draft = self.drafts.get((game_id, house))
        prompt = (await self.service.load(game_id)).prompt_for(house)
        void = self._void(interaction, game_id)
        if draft is None and not void and prompt is not None and version is not None:
            draft = await self._drawn_again(interaction, game_id, house, version, prompt)
        if (
            draft is None
            or void
            or version != draft.version  # a form without a version (posted before they had one) is out of date
            or draft.user_id != interaction.user.id
            or prompt is None
            or prompt.id != draft.prompt_id
        ):
            await self.open_decision(interaction, game_id, house, t("decision.expired", str(interaction.locale)))
            return None
        return draft

    async def _drawn_again(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, version: int, prompt: Prompt
    ) -> Draft | None:
        """The draft of a form this process never drew: a decision DM another process sent (a worker of several), or
        one sent before a restart. A form never edited shows what it was sent with, the defaults of the form drawn at
        its version: that draft is drawn again when the decision asked then is the one asked now. Else None (the form
        is out of date): an edited form may show picks that no process remembers, and nothing is guessed."""
        sent = await self._sent_asking(interaction, game_id, house, version, prompt)
        if sent is None or interaction.message is None:
            return None
        then, asked = sent
        lang = await self.service.language_for(interaction.user.id, game_id)
        draft = self.new_draft(game_id, then, asked, build_form(asked, then.view(house), lang), interaction.user.id)
        draft.messages.add(interaction.message.id)
        return draft

    async def _sent_asking(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, version: int, prompt: Prompt
    ) -> tuple[Game, Prompt] | None:
        """The game at the version of the form clicked and the prompt it asked then, when that form was never edited
        (it shows what it was sent with) and the decision asked then is ``prompt``'s, the one asked now; else None."""
        if interaction.message is None or interaction.message.edited_at is not None:
            return None
        rebuilt = self.games_then.get((game_id, version))
        if rebuilt is None:
            rebuilt = asyncio.ensure_future(self.service.game_then(game_id, version))
            self.games_then[(game_id, version)] = rebuilt
        try:
            then = await asyncio.shield(rebuilt)
        except Exception as error:  # the next press tries again
            if self.games_then.get((game_id, version)) is rebuilt:
                del self.games_then[(game_id, version)]
            if isinstance(error, ServiceError):
                return None
            raise
        asked = then.prompt_for(house)
        if asked is None or (asked.id, asked.choices, asked.default, asked.info) != (
            prompt.id,
            prompt.choices,
            prompt.default,
            prompt.info,
        ):
            return None
        return then, asked

    async def _submitted_as_sent(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, version: int | None
    ) -> bool:
        """Submit pressed on a form this process holds no draft of and that was never edited (a decision DM another
        process sent, or one sent before a restart): the form shows the picks it was drawn with at its version, and
        every form opens on its prompt's default (tests/app/test_forms_open_on_default.py). So when the decision
        asked then is the one asked now, the answer is that default, submitted here without drawing the form again
        (the gateway of several processes did so for every Submit). False, having done nothing, for any other form:
        the caller goes the draft's way (a form out of date is then sent fresh)."""
        if version is None or (game_id, house) in self.drafts or self._void(interaction, game_id):
            return False
        await self.service.ensure_decider(game_id, house, interaction.user.id)
        prompt = (await self.service.load(game_id)).prompt_for(house)
        if prompt is None or await self._sent_asking(interaction, game_id, house, version, prompt) is None:
            return False
        await self.submit(interaction, game_id, house, prompt, prompt.default, None, edits_form=True)
        return True

    async def on_click(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a form's menu or button (any other interaction is not the form's), found by its custom id.

        Not a dynamic item of discord.py: for each click on one, the library builds the whole message again as a view
        to find the item clicked, before its callback can acknowledge the click; a form's id says all it needs."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if (menu := SELECT_ID.fullmatch(custom_id)) is not None:
            raw = interaction.data.get("values", [])
            values = [str(v) for v in raw] if isinstance(raw, list) else []
            game_id, house, field = int(menu["game"]), menu["house"], int(menu["field"])
            await guarded(interaction, self.on_pick(interaction, game_id, house, _version(menu), field, values))
        elif (button := BUTTON_ID.fullmatch(custom_id)) is not None:
            game_id, house, action = int(button["game"]), button["house"], button["action"]
            await guarded(interaction, self.on_form_button(interaction, game_id, house, _version(button), action))

    async def on_pick(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        house: str,
        version: int | None,
        index: int,
        values: list[str],
    ) -> None:
        await self.acknowledge(interaction, thinking=False)  # the form is then edited in place
        async with self.order.working():  # after the burst's acknowledgements, as everything a click implies
            lang = str(interaction.locale)
            draft = await self._owned_draft(interaction, game_id, house, version)
            if draft is None:
                return
            if index >= len(draft.form.fields):
                await self.open_decision(interaction, game_id, house, t("decision.expired", lang))
                return
            key = draft.form.fields[index].key
            values = menu_picks(values)  # "nothing" picked in a menu of one optional choice is no pick
            draft.picks[key] = values
            game = await self.service.load(game_id)
            if repicks(draft.form, key, values):  # e.g. a march's units are those of the area picked to march from
                prompt = game.prompt_for(house)
                assert prompt is not None
                draft.picks = repick(draft.form, prompt, draft.picks, key, values, lang)
                draft.page = 0
            await interaction.edit_original_response(view=self.render_form(game_id, house, draft, lang, game))

    async def on_form_button(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, version: int | None, action: str
    ) -> None:
        metrics.click_arrived()  # a Submit's receipt latency counts from here
        # Acknowledge at once; the answer is then checked, committed and confirmed by editing the form. Even the
        # check of who clicked and which draft it is waits for the burst's acknowledgements (cogs/acks.py): it works
        # out the house's decision, and done as each acknowledgement came back it delayed the acknowledgements still
        # waiting for a connection.
        await self.acknowledge(interaction, thinking=False)
        async with self.order.working():
            await self._pressed(interaction, game_id, house, version, action)

    async def _pressed(
        self, interaction: discord.Interaction[Any], game_id: int, house: str, version: int | None, action: str
    ) -> None:
        if action == "submit" and await self._submitted_as_sent(interaction, game_id, house, version):
            return
        draft = await self._owned_draft(interaction, game_id, house, version)
        if draft is None:
            return
        if action in ("prev", "next", "details"):
            if action == "details":  # the lines given on request (a house card's full texts), shown or hidden
                draft.details = not draft.details
            else:
                pages = len(draft.form.pages())
                draft.page = (draft.page + (1 if action == "next" else -1)) % pages
            game = await self.service.load(game_id)
            view = self.render_form(game_id, house, draft, str(interaction.locale), game)
            await interaction.edit_original_response(view=view)
            return
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
        *,
        edits_form: bool = False,
    ) -> None:
        """Record the answer, then its receipt: the form edited (a ``draft``'s, or ``edits_form``: a form submitted
        as it was sent) or a followup (typed orders)."""
        edits_form = edits_form or draft is not None
        await self.acknowledge(interaction, thinking=False)
        lang = str(interaction.locale)
        # A refusal, or a storage failure (the transaction is rolled back: the handler says plainly that
        # nothing was recorded), propagates to the error handler.
        summary = answer_text(prompt.kind, answer, lang, limit=1800, prompt=prompt)
        lines = [t("decision.recorded", lang, summary=summary)]
        if prompt.secret:  # a secret answer can change until everyone has answered: the receipt reopens the form
            lines.append(t("decision.changeable", lang))
        command = Answer(game_id=game_id, by=interaction.user.id, key=command_key(interaction), house=house,
                         answer=answer, prompt_id=prompt.id)  # fmt: skip
        async with self.order.working():
            if isinstance(self.service, GatewayService):  # its receipt is kept with the command, for after a restart
                receipt = "\n".join(lines)
                reply = reply_to(interaction, receipt=receipt, changeable=prompt.secret, edits_form=edits_form)
                try:
                    await self.service.answer(command, reply=reply)
                except Exception as error:  # told here, so that the gateway knows he was told
                    await answer_failure(interaction, error)
                    await self.service.told(command)
                    return
            else:
                await self.service.answer(command)
        change = DecideButton(game_id, house, t("button.change", lang)) if prompt.secret else None
        if edits_form:
            self.drafts.pop((game_id, house), None)
            await interaction.edit_original_response(view=receipt_layout("\n".join(lines), change))
            metrics.receipt_sent()
        else:
            view: discord.ui.View = discord.utils.MISSING
            if change is not None:
                view = discord.ui.View(timeout=None).add_item(change)
            await interaction.followup.send(fit("\n".join(lines)), view=view, ephemeral=True)
        if isinstance(self.service, GatewayService):
            await self.service.told(command)

    async def refresh_forms(self, game_id: int, game: Game) -> None:
        """Open DM forms whose decision changed under them (the same prompt with other choices: a gift changes what a
        bid may reach) are drawn again from the new position, saying so, their components carrying its version; their
        picks start again from the default. Asked after every version, whatever changed the prompt."""
        for house in game.houses:
            draft = self.drafts.get((game_id, house))
            seen = self.prompts_seen.get((game_id, house))
            if draft is None or seen is None:  # no open form: its prompt is not worked out (every answer asks this)
                continue
            prompt = game.prompt_for(house)
            if prompt is None or prompt.id != draft.prompt_id:
                continue
            if (prompt.choices, prompt.default, prompt.info) == (seen.choices, seen.default, seen.info):
                continue
            dm = self.channels.known_dm(draft.user_id)
            lang = await self.service.language_for(draft.user_id, game_id)
            del self.drafts[(game_id, house)]  # its messages are drawn again below, or made void
            form = form_of(game, prompt, lang)
            fresh = self.new_draft(game_id, game, prompt, form, draft.user_id, head=draft.head)
            if dm is not None:
                view = self.render_form(game_id, house, fresh, lang, game, t("decision.updated", lang))
                for message_id in sorted(draft.messages):
                    with contextlib.suppress(discord.HTTPException):  # an ephemeral /decide form is not in the DMs
                        await dm.get_partial_message(message_id).edit(view=view)
                        fresh.messages.add(message_id)
            # A form that could not be drawn again still shows the old choices: pressing it brings the current one.
            self.void_forms.setdefault(game_id, set()).update(draft.messages - fresh.messages)
