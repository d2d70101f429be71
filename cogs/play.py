"""Playing a game: the slash commands /decide and /orders, and the wiring of what plays behind them.

Thin by design: prompts become forms through ``app.decisions``, answers go through the game service. The work is
three components, each with one job, built and wired here:

- ``cogs/forms.py``, the form controller: each house's live form (its draft), its buttons and menus, the submit
  and its receipt;
- ``cogs/dms.py``, the decision DMs: each open decision's notice carrying its form, the deadline reminders;
- ``cogs/publisher.py``, the publisher: what a committed version implies (the channel's post and images, the DMs
  of the decisions it opened, the forms it changed, the pinned status) and the outbox's notices, in order.

The publisher calls the DMs and the form controller, the DMs the form controller; none calls back.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.decisions import area_label, prompt_title, typed_orders
from app.labels import house_mark, house_name
from app.order_text import parse_orders
from app.service import GameService, ServiceError
from cogs.acks import AckFirst
from cogs.channels import Channels
from cogs.dms import DecisionDMs
from cogs.forms import DecideButton, FormController
from cogs.privacy import about_privacy
from cogs.publisher import Publisher
from cogs.replies import say
from cogs.text import NAME_LIMIT, clip, fit, shown
from i18n import t, tn

log = logging.getLogger("westeros.play")

WORK_SLOTS = 4  # clicks whose work runs at once in one process (cogs/acks.py)
GATEWAY_WORK_SLOTS = 64  # a gateway's: each waits for a worker's outcome, and the workers bound the load
MAX_DECIDE_BUTTONS = 20  # a message holds 25 components; a member owes rarely more than a few decisions


class Play(commands.Cog):
    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        renderer: Any = None,
        *,
        publishing: bool = True,
        work_slots: int = WORK_SLOTS,
    ) -> None:
        """``publishing``: this process publishes each version as it commits it (one process); a gateway or a worker
        of several leaves it to the worker that holds the publish lock (``cogs/pump.py``). ``work_slots``: how many
        clicks' work runs at once after their acknowledgements (a gateway's work is mostly waiting for a worker)."""
        self.bot = bot
        self.service = service
        self.order = AckFirst(slots=work_slots)  # acknowledgements of a burst of clicks go before the work behind them
        self.channels = Channels(bot)
        self.forms = FormController(service, self.order, self.channels)
        self.dms = DecisionDMs(service, self.channels, self.forms)
        # Images are drawn in the bot's image pool (worker processes); a bare cog falls back to threads.
        self.publisher = Publisher(
            service,
            self.order,
            self.channels,
            self.dms,
            self.forms,
            renderer=renderer,
            background=getattr(bot, "background", None),
        )
        if not publishing:  # what failed is no business of this process's: the publishing worker drains it
            self.publisher.retry_after = None
            service.subscribe(self.publisher.committed_here)  # kept only while it holds the publish lock
        if publishing:
            service.subscribe(self.publisher.on_applied)
            service.subscribe_end(self.publisher.forget_game)
            service.subscribe_notices(self.publisher.on_notices)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a form's menu or button goes to the form controller by its custom id (cogs/forms.py), which
        acknowledges it first; then the user's locale is remembered. One listener, so one task per interaction: a
        burst's acknowledgements wait behind no second task per click."""
        try:
            await self.forms.on_click(interaction)
        finally:
            await self.remember_locale(interaction)

    async def remember_locale(self, interaction: discord.Interaction[Any]) -> None:
        """Remember the locale of the user's last interaction: DMs the bot sends unasked are written in it (not
        from /privacy: a member who asks to be forgotten is not remembered by asking)."""
        if about_privacy(interaction):
            return
        try:
            await self.service.remember_locale(interaction.user.id, str(interaction.locale))
        except Exception:  # never let bookkeeping fail an interaction
            log.exception("could not remember the locale of user %s", interaction.user.id)

    @app_commands.command(name="decide", description="Open the decisions you still owe")
    async def decide(self, interaction: discord.Interaction[Any]) -> None:
        await self.forms.acknowledge(interaction, thinking=True)
        lang = str(interaction.locale)
        owed = []
        for game_id, house in await self.service.decisions_of_user(interaction.user.id):
            prompt = (await self.service.load(game_id)).prompt_for(house)
            if prompt is not None:
                owed.append((game_id, house, prompt))
        if len(owed) == 1:
            await self.forms.open_decision(interaction, owed[0][0], owed[0][1])
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
            label = clip(t("decision.several.button", lang, house=house_name(house, lang), title=title), 80)
            view.add_item(DecideButton(game_id, house, label))
        await interaction.followup.send(fit("\n".join(lines)), view=view, ephemeral=True)

    @app_commands.command(name="orders", description="Type your orders, e.g. Winterfell march+1, White Harbor defense")
    @app_commands.describe(text="Area and order, separated by commas")
    async def orders(self, interaction: discord.Interaction[Any], text: str) -> None:
        await self.forms.acknowledge(interaction, thinking=True)
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
        await self.forms.submit(interaction, game_id, house, prompt, {"orders": parsed.orders}, None)
