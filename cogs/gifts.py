"""``/gift``: a player gives some of its house's Power to another house (Mother of Dragons, M-GIFT-01/02).

The command asks for a confirmation (ephemeral, for the giver only); the gift itself goes through the game
service like an answer: logged, undoable, and posted to the channel by the narration of its ``power-given`` event.
A gift the rules forbid now is refused with the engine's reason, in the player's language.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.commands import Gift
from app.service import GameService, ServiceError
from cogs.replies import guarded, say
from engine import data
from i18n import t

CONFIRM_SECONDS = 120
HOUSES = [*data.houses(), *data.houses("mother-of-dragons/houses.json")]


class GiftConfirm(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gift:(?P<game>\d+):(?P<house>[a-z]+):(?P<to>[a-z]+):(?P<amount>\d+):(?P<user>\d+):(?P<key>\d+)",
):
    """Give: everything the gift needs is in the custom id, so the button works after a restart; the /gift command's
    interaction id is the gift's idempotency key, so a second press gives nothing more."""

    def __init__(self, game_id: int, house: str, to: str, amount: int, user: int, key: int, label: str = "") -> None:
        custom_id = f"gift:{game_id}:{house}:{to}:{amount}:{user}:{key}"
        super().__init__(
            discord.ui.Button(label=label or "Give", style=discord.ButtonStyle.danger, custom_id=custom_id)
        )
        self.game_id, self.house, self.to, self.amount, self.user, self.key = game_id, house, to, amount, user, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GiftConfirm:
        return cls(int(match["game"]), match["house"], match["to"], int(match["amount"]), int(match["user"]),
                   int(match["key"]))  # fmt: skip

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await guarded(interaction, self._give(interaction))

    async def _give(self, interaction: discord.Interaction[Any]) -> None:
        lang = str(interaction.locale)
        if interaction.user.id != self.user:
            raise ServiceError("not-your-gift", "Only the member who asked for this gift may confirm it.")
        if expired(interaction):
            await interaction.edit_original_response(content=t("gift.expired", lang), view=None)
            return
        cog = interaction.client.get_cog("Gifts")
        assert isinstance(cog, Gifts)
        gift = Gift(game_id=self.game_id, by=self.user, key=str(self.key), to=self.to, amount=self.amount,
                    house=self.house)  # fmt: skip
        await cog.service.execute(gift)
        done = t("gift.done", lang, amount=self.amount, house=t(f"house.{self.to}", lang))
        await interaction.edit_original_response(content=done, view=None)


class GiftCancel(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"giftno:(?P<user>\d+):(?P<key>\d+)"):
    """Cancel: closes the question in words (also after a restart)."""

    def __init__(self, user: int, key: int, label: str = "") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or "Cancel", style=discord.ButtonStyle.secondary, custom_id=f"giftno:{user}:{key}"
        )
        super().__init__(button)
        self.user, self.key = user, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GiftCancel:
        return cls(int(match["user"]), int(match["key"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        lang = str(interaction.locale)
        if interaction.user.id != self.user:
            await interaction.response.defer()
            await guarded(interaction, refuse_stranger())
            return
        await interaction.response.edit_message(content=t("gift.cancelled", lang), view=None)


async def refuse_stranger() -> None:
    raise ServiceError("not-your-gift", "Only the member who asked for this gift may confirm it.")


def expired(interaction: discord.Interaction[Any]) -> bool:
    """Whether the question was asked more than CONFIRM_SECONDS ago (the message's own time, Discord's clock)."""
    message = interaction.message
    if message is None:
        return False
    return (discord.utils.utcnow() - message.created_at).total_seconds() > CONFIRM_SECONDS


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
        giver = await self.service.house_of(row.id, interaction.user.id)
        question = t("gift.ask", lang, amount=amount, house=t(f"house.{house}", lang))
        view = discord.ui.View(timeout=None)
        key = interaction.id
        view.add_item(
            GiftConfirm(row.id, giver, house, amount, interaction.user.id, key, t("gift.confirm-button", lang))
        )
        view.add_item(GiftCancel(interaction.user.id, key, t("gift.cancel-button", lang)))
        await say(interaction, question, view=view)
