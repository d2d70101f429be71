"""``/privacy show``: what the bot keeps about the member who asks (only he sees it, in his language); ``/privacy
forget``: removes it after a confirmation (docs/privacy.md)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.config import Config
from app.service import GameService
from app.store import MemberData
from cogs.replies import guarded, say
from cogs.text import NAME_LIMIT, shown
from i18n import t, tn

FORGET_ID = "privacy:forget"


def about_privacy(interaction: discord.Interaction[Any]) -> bool:
    """``/privacy`` and its button: a member asking what is kept about him (or to be forgotten) is not remembered
    for it (his locale)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return data.get("name") == "privacy" or str(data.get("custom_id", "")).startswith("privacy:")


def _moment(at: float) -> str:
    return f"<t:{int(at)}:f>"  # a date and time in each reader's own time zone


def kept_text(data: MemberData, lang: str, keep_days: float) -> str:
    """What is kept about a member, one line per kind, in ``lang``."""
    if data.empty:
        return t("privacy.nothing", lang)
    lines = [t("privacy.title", lang)]
    if data.seats:
        seats = "; ".join(
            t(
                "privacy.seat",
                lang,
                game=shown(s.name, NAME_LIMIT),
                house=t(f"house.{s.house}", lang),
                status=t(f"mod.delete.status.{s.status}", lang),
            )
            for s in data.seats
        )
        lines.append(t("privacy.seats", lang, seats=seats))
    if data.answers and data.first_answer_at is not None and data.last_answer_at is not None:
        lines.append(
            tn(
                "privacy.answers",
                data.answers,
                lang,
                first=_moment(data.first_answer_at),
                last=_moment(data.last_answer_at),
            )
        )
    if data.locale:
        lines.append(t("privacy.locale", lang, locale=data.locale))
    if data.dm_closed is not None:
        lines.append(t("privacy.dm.closed" if data.dm_closed else "privacy.dm.open", lang))
    if data.missed:
        missed = "; ".join(
            t("privacy.missed.item", lang, game=shown(game, NAME_LIMIT), house=t(f"house.{house}", lang), count=count)
            for game, house, count in data.missed
        )
        lines.append(t("privacy.missed", lang, items=missed))
    if data.lobby:
        lobby = "; ".join(
            shown(game, NAME_LIMIT) + (f": {t(f'house.{house}', lang)}" if house else "") for game, house in data.lobby
        )
        lines.append(t("privacy.lobby", lang, items=lobby))
    if data.vacations:
        vacations = "; ".join(
            t(
                "privacy.vacation.item",
                lang,
                game=shown(game, NAME_LIMIT),
                house=t(f"house.{house}", lang),
                days=f"{days:g}",
            )
            for game, house, days in data.vacations
        )
        lines.append(t("privacy.vacations", lang, items=vacations))
    footer = "privacy.footer" if keep_days > 0 else "privacy.footer.forever"
    lines.append(t(footer, lang, days=f"{keep_days:g}"))
    return "\n".join(lines)


class ForgetConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"privacy:forget"):
    """The confirmation of ``/privacy forget``: it forgets whoever presses it (it is shown to him alone), so it holds
    no id; pressing it twice forgets nothing more."""

    def __init__(self, label: str = "Forget me") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=FORGET_ID))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgetConfirm:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Privacy")
        assert isinstance(cog, Privacy)
        await guarded(interaction, cog.confirm_forget(interaction))


class Privacy(commands.Cog):
    privacy = app_commands.Group(name="privacy", description="What this bot keeps about you")

    def __init__(self, bot: commands.Bot, service: GameService, config: Config) -> None:
        self.bot = bot
        self.service = service
        self.keep_days = config.keep_ended_days

    @privacy.command(name="show", description="See what this bot keeps about you")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.service.member_data(interaction.user.id)
        await say(interaction, kept_text(data, str(interaction.locale), self.keep_days))

    @privacy.command(name="forget", description="Remove what this bot keeps about you (asks first)")
    async def forget(self, interaction: discord.Interaction[Any]) -> None:
        lang = str(interaction.locale)
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetConfirm(t("privacy.forget.button", lang)))
        await say(interaction, t("privacy.forget.confirm", lang), view=view)

    async def confirm_forget(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await self.service.forget_member(interaction.user.id)
        await interaction.edit_original_response(content=t("privacy.forget.done", str(interaction.locale)), view=None)
