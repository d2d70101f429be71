"""``/gift``: a player gives some of its house's Power to another house (Mother of Dragons, M-GIFT-01/02).

The command asks for a confirmation (ephemeral, for the giver only); the gift itself goes through the game
service like an answer: logged, undoable, and posted to the channel by the narration of its ``power-given`` event.
A gift the rules forbid now is refused with the engine's reason, in the player's language.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.i18n import t
from app.service import GameService, ServiceError
from cogs.replies import guarded, say
from engine import data

CONFIRM_SECONDS = 120
HOUSES = [*data.houses(), *data.houses("mother-of-dragons/houses.json")]


class GiftConfirmation(discord.ui.View):
    """Confirm or cancel one gift; only the member who asked may press either button."""

    def __init__(
        self,
        service: GameService,
        game_id: int,
        giver: int,
        to: str,
        amount: int,
        lang: str,
        asked: discord.Interaction[Any],
    ) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.asked = asked  # the /gift command, whose reply says so when the question expires
        self.service, self.game_id, self.giver, self.to, self.amount, self.lang = (
            service,
            game_id,
            giver,
            to,
            amount,
            lang,
        )
        self.confirm.label = t("gift.confirm-button", lang)
        self.cancel.label = t("gift.cancel-button", lang)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return interaction.user.id == self.giver

    async def on_timeout(self) -> None:
        """An unanswered question is closed in words, so that a late click never meets a dead button."""
        with contextlib.suppress(discord.HTTPException):
            await self.asked.edit_original_response(content=t("gift.expired", self.lang), view=None)

    @discord.ui.button(style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        self.stop()
        await guarded(interaction, self._give(interaction))

    async def _give(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.gift(self.game_id, user_id=self.giver, to=self.to, amount=self.amount)
        done = t("gift.done", self.lang, amount=self.amount, house=t(f"house.{self.to}", self.lang))
        await interaction.edit_original_response(content=done, view=None)

    @discord.ui.button(style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content=t("gift.cancelled", self.lang), view=None)


class Gifts(commands.Cog):
    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service

    @app_commands.command(name="gift", description="Give some of your Power to another house (Mother of Dragons)")
    @app_commands.describe(house="The house that receives the Power", amount="How many Power tokens")
    @app_commands.choices(house=[app_commands.Choice(name=h.capitalize(), value=h) for h in HOUSES])
    async def gift(
        self, interaction: discord.Interaction[Any], house: str, amount: app_commands.Range[int, 1, 20]
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        lang = str(interaction.locale)
        row = await self.service.started_game_in(interaction.channel_id or 0)
        if row is None:
            raise ServiceError("not-seated-here", "You do not play in a game in this channel.")
        # A member who plays no house here, or a gift the rules forbid now, is refused before any question.
        await self.service.check_gift(row.id, user_id=interaction.user.id, to=house, amount=amount)
        question = t("gift.ask", lang, amount=amount, house=t(f"house.{house}", lang))
        view = GiftConfirmation(self.service, row.id, interaction.user.id, house, amount, lang, interaction)
        await say(interaction, question, view=view)
