"""An answer's receipt, and on a gateway the way back to its player if the gateway restarts before telling him.

A gateway queues an answer with a ``ReplyTo`` (the interaction's application id and token, the form it edits, the
player's id and locale, the receipt's words): after a crash, the restarted gateway finds every answer it never
told (``Outcomes.recover``), waits for its outcome, and tells the player with ``tell_late``: the interaction's
webhook edits the form into its receipt while the token lives (15 minutes), a DM in his language says it after. A
running gateway does the same every UNTOLD_SWEEP_S for the answers whose outcome it could not read while it waited
(``Outcomes.sweep``).
Only discord.py's documented API: ``Webhook.partial`` with the bot as client, ``Client.create_dm``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

from app.queue import TOKEN_LIFE_S, ReplyTo, Untold, raise_outcome
from app.service import GameService
from cogs.replies import failure_text
from cogs.text import NAME_LIMIT, fit, shown
from i18n import t

log = logging.getLogger("westeros.receipts")


def receipt_layout(text: str, change: discord.ui.Item[Any] | None) -> discord.ui.LayoutView:
    """The receipt replacing a form: a layout, since the form's message keeps its components-v2 flag."""
    receipt = discord.ui.LayoutView(timeout=None)
    receipt.add_item(discord.ui.TextDisplay(fit(text)))
    if change is not None:
        receipt.add_item(discord.ui.ActionRow(change))
    return receipt


def reply_to(interaction: discord.Interaction[Any], *, receipt: str, changeable: bool, edits_form: bool) -> ReplyTo:
    """How to tell this interaction's member later: ``edits_form``, the receipt replaces the form clicked (else it
    is the interaction's followup)."""
    message_id = interaction.message.id if edits_form and interaction.message is not None else None
    return ReplyTo(
        application_id=interaction.application_id,
        token=interaction.token,
        expires_at=interaction.created_at.timestamp() + TOKEN_LIFE_S,
        user_id=interaction.user.id,
        locale=str(interaction.locale),
        message_id=message_id,
        receipt=receipt,
        changeable=changeable,
    )


def outcome_words(outcome: dict[str, Any], reply: ReplyTo) -> tuple[str, bool]:
    """What the player is told of ``outcome`` and whether it was recorded."""
    try:
        raise_outcome(outcome)
    except Exception as error:
        return failure_text(error, reply.locale), False
    return reply.receipt, True


async def tell_late(bot: discord.Client, service: GameService, row: Untold, outcome: dict[str, Any]) -> None:
    """Tell the player of a command a gateway left untold (it restarted) its outcome, once."""
    from cogs.forms import DecideButton  # the forms import this module

    reply, command = row.reply, row.command
    text, recorded = outcome_words(outcome, reply)
    change = None
    if recorded and reply.changeable:
        change = DecideButton(command.game_id, command.house, t("button.change", reply.locale))
    if time.time() < reply.expires_at:
        webhook = discord.Webhook.partial(reply.application_id, reply.token, client=bot)
        try:
            if reply.message_id is not None:
                await webhook.edit_message(reply.message_id, view=receipt_layout(text, change))
            else:  # fills the "thinking…" placeholder the interaction was acknowledged with
                view = discord.ui.View(timeout=None).add_item(change) if change else discord.utils.MISSING
                await webhook.send(fit(text), view=view, wait=True)
            return
        except discord.HTTPException as error:  # the token ran out meanwhile, or the form is gone: a DM says it
            log.info("could not edit the receipt of command %s (%s): sending a DM", row.queue_id, error)
    game = await service.store.game(command.game_id)
    name = shown(game.name, NAME_LIMIT) if game is not None else ""
    dm = await bot.create_dm(discord.Object(id=reply.user_id))
    words = fit(t("decision.told-late", reply.locale, game=name, receipt=text))
    try:
        if change is not None:
            await dm.send(words, view=discord.ui.View(timeout=None).add_item(change))
        else:
            await dm.send(words)
    except discord.Forbidden:  # his DMs are closed: nothing can reach him, and a running gateway's sweep stops trying
        log.info("could not tell the player of command %s its outcome: his DMs are closed", row.queue_id)
