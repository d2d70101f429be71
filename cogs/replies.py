"""Answering interactions: one way to reply, and one handler for every failure.

Every slash command and every button or menu acknowledges first (``interaction.response.defer()``, or the reply
itself when it needs nothing but the interaction), then works, then answers with followups or by editing the
original response. Whatever goes wrong after that, a refusal (``ServiceError``, ``RuleError``, ``FormError``) or a
bug, reaches ``answer_failure``: the user gets one sentence in their language, ephemerally, and the log gets the
details. Slash commands reach it through the command tree's error handler; buttons and menus through
``guarded``, since discord.py only logs what a dynamic item's callback raises.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands

from app import metrics
from app.database import is_database_error
from app.decisions import FormError
from app.messages import error_text
from app.queue import CommandFailed, OutcomeUnknown
from app.service import ServiceError
from cogs.text import fit, shown
from engine import RuleError
from i18n import t

log = logging.getLogger("westeros.errors")

REFUSALS = (ServiceError, RuleError, FormError)


async def say(interaction: discord.Interaction[Any], content: str, **options: Any) -> None:
    """An ephemeral answer: the response if nothing was sent yet, else a followup (which fills a "thinking"
    response)."""
    content = fit(content)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **options)
    else:
        await interaction.response.send_message(content, ephemeral=True, **options)


def failure_text(error: BaseException, lang: str) -> str:
    if isinstance(error, REFUSALS):
        return error_text(error, lang, literal=lambda text: shown(text, 300))
    # A gateway that could not reach the database for long: the answer may be recorded, so it is never said it was not.
    if isinstance(error, OutcomeUnknown):
        return t("error.outcome-unknown", lang)
    # The database refused or failed (the transaction was rolled back), or the record says no worker applied it.
    if is_database_error(error) or isinstance(error, CommandFailed):
        return t("error.not-recorded", lang)
    return t("error.unexpected", lang)


async def answer_failure(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one error handler: a localised sentence for the user, the details for the log."""
    original = error
    while isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError):
        if original.__cause__ is None:
            break
        original = original.__cause__
    data: dict[str, Any] = dict(interaction.data or {})
    what = interaction.command.qualified_name if interaction.command else data.get("custom_id")
    if isinstance(original, REFUSALS):
        log.info("refused %s for %s: %s", what, interaction.user.id, original)
        metrics.refused(original.code)
    else:
        log.error("failed %s for %s", what, interaction.user.id, exc_info=original)
        metrics.failed(original)
    try:
        await say(interaction, failure_text(original, str(interaction.locale)))
    except discord.HTTPException:
        log.exception("could not tell %s that %s failed", interaction.user.id, what)


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a button's or menu's work; whatever it raises is answered by ``answer_failure``."""
    try:
        await work
    except Exception as error:
        await answer_failure(interaction, error)


def command_key(interaction: discord.Interaction[Any]) -> str:
    """The idempotency key of the command an interaction gives: Discord delivers a retried interaction with the same
    id, so it is applied once."""
    return f"interaction:{interaction.id}"


def confirmation_key(interaction: discord.Interaction[Any]) -> str:
    """The idempotency key of a confirmation: the message that asks it, so pressing its button twice, however fast,
    acts once (each press is an interaction of its own)."""
    if interaction.message is None:
        return command_key(interaction)
    return f"message:{interaction.message.id}"
