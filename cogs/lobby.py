"""Creating and joining games: ``/game new``, ``/game status``, ``/game help``, the lobby buttons and the lobby's
house menu.

Thin: it turns Discord interactions into service calls and service results into localised messages.

The lobby is one public message in the game's language: the settings, each player with the house he chose (or that
his house is dealt at the start), and under the line that says what it is for, the menu of the houses still free;
then Join, Leave and Start. Every change edits it in place, drawn from what is stored once the change committed.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord
from discord import app_commands
from discord.ext import commands

from app.background import Background, ImagePool, PoolBusy
from app.commands import AddAi, Join, LeaveLobby, PickHouse, RemoveAi, Start, Vacation
from app.decisions import card_label
from app.labels import HOUSE_MARKS, awaited_text, house_mark, house_name
from app.lru import KeyedLocks
from app.narration import narrate_all
from app.service import GameService, GameSettings, ServiceError
from app.store import GameStatus
from cogs.area_map import area_choices, show_area
from cogs.replay import show_replay
from cogs.replies import command_key, guarded, say
from cogs.talk import TALK_CHOICES, reads_every_thread, talk_lines, thread_readers
from cogs.text import NAME_LIMIT, shown, split
from engine import Game
from i18n import has, language_of, t
from render import render_legend

log = logging.getLogger("westeros.lobby")

INTERACTION_ACKNOWLEDGED = 40060  # Discord's error code: the interaction was answered already
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
DEAL = "deal"  # the house menu's "no preference": the player's house is dealt at the start
VALUE_LIMIT = 32  # characters of a menu value read from an interaction (a house id is far shorter)
HELP_PARTS = ("help.text", "help.commands", "help.orders", "help.defaults", "help.absent", "help.status")


def is_moderator(member: discord.abc.User, creator_id: int, moderator_role: str | None) -> bool:
    """The game's creator, members with Manage Server, or members with the configured role."""
    if member.id == creator_id:
        return True
    if isinstance(member, discord.Member):
        if member.guild_permissions.manage_guild:
            return True
        if moderator_role and any(r.name == moderator_role for r in member.roles):
            return True
    return False


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lobby:(?P<game>\d+):(?P<action>join|leave|start|ai|noai)"
):
    """A lobby button that keeps working after a restart: the game and action live in its custom_id."""

    def __init__(self, game_id: int, action: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"lobby:{game_id}:{action}"))
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), match["action"], "", discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Lobby")
        assert isinstance(cog, Lobby)
        await guarded(interaction, cog.on_button(interaction, self.game_id, self.action))


class LobbyHouseSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"lobby:(?P<game>\d{1,20}):house"):
    """The lobby's menu of houses still free; keeps working after a restart (the game lives in its custom_id)."""

    def __init__(self, game_id: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select or discord.ui.Select(custom_id=f"lobby:{game_id}:house", options=[discord.SelectOption(label="-")])
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyHouseSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Lobby")
        assert isinstance(cog, Lobby)
        raw = interaction.data.get("values", []) if interaction.data else []
        values = [str(v)[:VALUE_LIMIT] for v in raw[:1]] if isinstance(raw, list) else []
        await guarded(interaction, cog.on_pick(interaction, self.game_id, values))


def house_menu(game_id: int, lang: str, free: list[str]) -> discord.ui.Select[Any]:
    """The houses still free (each with its colour mark), and "no preference" to have one dealt at the start."""
    options = [
        discord.SelectOption(
            label=house_name(h, lang),
            value=h,
            emoji=HOUSE_MARKS.get(h),
            description=t(f"lobby.option.{h}", lang) if has(f"lobby.option.{h}", lang) else None,
        )
        for h in free
    ]
    options.append(discord.SelectOption(label=t("lobby.option.deal", lang), value=DEAL, emoji="🎲"))
    return discord.ui.Select(
        custom_id=f"lobby:{game_id}:house", placeholder=t("lobby.menu", lang), options=options, min_values=1
    )


def lobby_view(game_id: int, lang: str, free: list[str] | None = None, ai_seats: int = 0) -> discord.ui.View:
    """The lobby's components: the house menu first, right under the line of text that says what it is for (the
    last line of the message), then Join, Leave, Start, Add AI and, while the AI holds a seat, Remove AI."""
    view = discord.ui.View(timeout=None)
    if free is not None:
        view.add_item(LobbyHouseSelect(game_id, house_menu(game_id, lang, free)))
    view.add_item(LobbyButton(game_id, "join", t("lobby.join", lang), discord.ButtonStyle.primary))
    view.add_item(LobbyButton(game_id, "leave", t("lobby.leave", lang), discord.ButtonStyle.secondary))
    view.add_item(LobbyButton(game_id, "start", t("lobby.start", lang), discord.ButtonStyle.success))
    view.add_item(LobbyButton(game_id, "ai", t("lobby.add_ai", lang), discord.ButtonStyle.secondary))
    if ai_seats:
        view.add_item(LobbyButton(game_id, "noai", t("lobby.remove_ai", lang), discord.ButtonStyle.secondary))
    return view


def seat_text(user: int | None, lang: str) -> str:
    """Who holds a seat, as the table reads it: the member's mention, or "🤖 AI" for a seat the agent plays."""
    return f"<@{user}>" if user is not None else t("ai.seat", lang)


class Lobby(commands.Cog):
    game = app_commands.Group(name="game", description="Play A Game of Thrones: The Board Game")

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        moderator_role: str | None = None,
        *,
        renderer: Any = None,
        images: Background | ImagePool | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.moderator_role = moderator_role
        self.renderer = renderer  # None: the renderer is missing, /game map says so
        self.images: Background | ImagePool = images or Background()  # where maps are drawn, off the event loop
        # One lobby message drawn at a time per game, each from what is stored once its change committed: the last
        # edit Discord gets shows every change before it.
        self._drawing = KeyedLocks()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LobbyHouseSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LobbyHouseSelect)

    async def lobby_message(self, game_id: int, lang: str) -> tuple[str, discord.ui.View]:
        """The lobby's text and components in ``lang`` (the game's language: the message is the whole table's)."""
        row = await self.service.row(game_id)
        settings = GameSettings.from_dict(row.settings)
        players = await self.service.lobby_players(game_id)
        picks = await self.service.lobby_picks(game_id)
        lines = [
            f"**{t('lobby.title', lang, name=shown(row.name, NAME_LIMIT))}**",
            t(
                "lobby.settings",
                lang,
                ruleset=t(f"ruleset.{settings.ruleset}", lang),
                players=settings.players,
                tides=t("yes" if settings.tides_of_battle else "no", lang),
                language=LANGUAGE_NAMES.get(settings.language, settings.language),
            ),
        ]
        targaryen = settings.targaryen_may_play()
        if targaryen:
            lines.append(t("lobby.targaryen_cards", lang, set=settings.targaryen_cards.upper()))
        if len(settings.choosable_houses()) > settings.players:  # Mother of Dragons: some houses go unplayed
            lines.append(t("lobby.vassals.targaryen" if targaryen else "lobby.vassals", lang))
        lines.extend(talk_lines(settings, lang, await thread_readers(self.bot, row.channel_id, players)))
        lines.append(t("lobby.seats", lang, taken=len(players) + settings.ai_seats, players=settings.players))
        for user in players:
            key = "lobby.seat.chosen" if user in picks else "lobby.seat.dealt"
            lines.append(t(key, lang, player=f"<@{user}>", house=house_mark(picks.get(user), lang)))
        for _ in range(settings.ai_seats):  # the agent's seats are dealt a house nobody chose at the start
            lines.append(t("lobby.seat.dealt", lang, player=t("ai.seat", lang), house=house_mark(None, lang)))
        if not players:
            lines.append(t("lobby.no_one", lang))
        lines.append(t(f"lobby.choose.{settings.assignment}", lang))
        free = [h for h in settings.choosable_houses() if h not in picks.values()]
        return "\n".join(lines), lobby_view(game_id, lang, free, settings.ai_seats)

    async def redraw(self, interaction: discord.Interaction[Any], game_id: int, lang: str) -> None:
        """Edit the lobby message (the one the interaction came from) to what is stored now; once the game has
        started the message is the start's announcement, and stays so."""
        async with self._drawing.hold(game_id):
            if (await self.service.row(game_id)).status != GameStatus.LOBBY:
                return
            content, view = await self.lobby_message(game_id, lang)
            await interaction.edit_original_response(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
            )

    @game.command(name="new", description="Create a game in this channel")
    @app_commands.describe(
        players="Number of players: 3-6 for the base game, 3-8 with Mother of Dragons",
        tides="Use the Tides of Battle cards",
        ruleset="The base game, or the Mother of Dragons expansion (3-8 players, Targaryen from 4)",
        assignment="How the houses nobody chooses in the lobby are dealt at the start",
        language="Language of the channel posts",
        name="A name for the game (up to 64 characters)",
        orders_hours="Hours to give orders (default 24)",
        bids_hours="Hours to bid (default 12)",
        battle_hours="Hours for battle choices (default 12)",
        other_hours="Hours for any other choice (default 12)",
        autopilot="When a deadline passes: the AI plays (default), the simple agent, or default answers",
        ai_seats="Seats the AI fills (the lobby's Add AI button fills more)",
        daily_at="Optional: every deadline falls at this time of day, e.g. 20:00",
        timezone="Time zone for daily deadlines, e.g. Europe/Moscow (default UTC)",
        targaryen_cards="Mother of Dragons: Targaryen's house cards, set A or B (when Targaryen plays)",
        talk="Talks between houses: private threads, in the channel only, or none",
        talks_at_end="At the end, every player reads every private talk (default: yes)",
    )
    @app_commands.choices(
        assignment=[
            app_commands.Choice(name="random", value="random"),
            app_commands.Choice(name="join order", value="join-order"),
        ],
        language=[app_commands.Choice(name="English", value="en"), app_commands.Choice(name="Русский", value="ru")],
        ruleset=[
            app_commands.Choice(name="base game", value="base"),
            app_commands.Choice(name="Mother of Dragons", value="mother-of-dragons"),
        ],
        autopilot=[
            app_commands.Choice(name="the AI", value="ai"),
            app_commands.Choice(name="the simple agent", value="simple"),
            app_commands.Choice(name="default answers", value="defaults"),
        ],
        targaryen_cards=[app_commands.Choice(name="set A", value="a"), app_commands.Choice(name="set B", value="b")],
        talk=TALK_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 3, 8],
        tides: bool = False,
        ruleset: str = "base",
        assignment: str = "random",
        language: str = "en",
        name: str | None = None,
        orders_hours: app_commands.Range[float, 0.02, 168.0] = 24,
        bids_hours: app_commands.Range[float, 0.02, 168.0] = 12,
        battle_hours: app_commands.Range[float, 0.02, 168.0] = 12,
        other_hours: app_commands.Range[float, 0.02, 168.0] = 12,
        autopilot: str = "ai",
        daily_at: str | None = None,
        timezone: str = "UTC",
        targaryen_cards: str = "a",
        talk: str = "private",
        talks_at_end: bool = True,
        ai_seats: app_commands.Range[int, 0, 7] = 0,
    ) -> None:
        # Checked from the interaction alone, before anything is stored; a refusal is the reply.
        if interaction.guild_id is None:
            raise ServiceError("game-in-dm", "Games are played in a server channel.")
        if name is not None:
            name = " ".join(name.split())
            if len(name) > NAME_LIMIT:
                raise ServiceError("name-too-long", "The name is too long.", limit=NAME_LIMIT, length=len(name))
        if daily_at is not None and not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", daily_at.strip()):
            raise ServiceError("bad-daily-at", "Not a time of day.", value=daily_at)
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ServiceError("bad-timezone", "Not a time zone.", value=timezone) from None
        hours = {"orders": orders_hours, "bids": bids_hours, "battle": battle_hours, "other": other_hours}
        settings = GameSettings(
            players=players,
            tides_of_battle=tides,
            ruleset=ruleset,
            assignment=assignment,
            language=language,
            deadlines={kind: int(h * 3600) for kind, h in hours.items()},
            autopilot=autopilot,
            daily_at=daily_at.strip() if daily_at else None,
            timezone=timezone,
            targaryen_cards=targaryen_cards,
            talk=talk,
            talks_open_at_end=talks_at_end,
            ai_seats=ai_seats,
        )
        # The lobby is the reply, and its buttons carry the new game's id: one cached read and one local insert
        # come first (milliseconds), then the reply acknowledges the command.
        game_id = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            creator=interaction.user.id,
            name=name or f"#{interaction.channel_id}",
            settings=settings,
            key=command_key(interaction),  # the same interaction delivered twice makes one lobby
        )
        content, view = await self.lobby_message(game_id, language)
        try:
            await interaction.response.send_message(content, view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            if error.code != INTERACTION_ACKNOWLEDGED:
                raise
            # Another gateway (or an earlier delivery) received this interaction too and has answered it with the
            # same lobby: nothing more to say, and no second lobby message.
            log.warning("/game new %s was answered elsewhere (game %s)", interaction.id, game_id)

    @game.command(name="status", description="Where the games in this channel stand")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = str(interaction.locale)
        row = await self.service.game_in(interaction.channel_id or 0)
        if row is None:
            raise ServiceError("no-game-here", "There is no game in this channel.")
        if row.status == GameStatus.LOBBY:
            taken = len(await self.service.lobby_players(row.id)) + int(row.settings.get("ai_seats", 0))
            line = t(
                "status.lobby", lang, name=shown(row.name, NAME_LIMIT), taken=taken, players=row.settings["players"]
            )
        else:
            view = (await self.service.load(row.id)).view(None)
            awaiting = awaited_text(view, lang, marks=False)
            phase = t(f"phase.{view['phase']}", lang)
            line = t(
                "status.line",
                lang,
                name=shown(row.name, NAME_LIMIT),
                round=view["round"],
                phase=phase,
                awaiting=awaiting,
            )
        await say(interaction, line)

    async def _my_game(self, interaction: discord.Interaction[Any]) -> tuple[int, str | None]:
        """The running game of this channel and the house the user plays in it now (None if the user does not play:
        a member whose house was given to another or became a vassal holds none)."""
        row = await self.service.started_game_in(interaction.channel_id or 0)
        if row is None:
            raise ServiceError("no-game-here", "There is no game in this channel.")
        houses = await self.service.houses_of(row.id, interaction.user.id)
        return row.id, houses[0] if houses else None

    @game.command(name="map", description="The current map (yours shows your own orders before the reveal)")
    @app_commands.describe(area="An area: the board around it and its neighbours, as everyone sees it")
    @app_commands.autocomplete(area=area_choices)
    async def map(self, interaction: discord.Interaction[Any], area: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if area is not None:  # the board around one area, public (cogs/area_map.py)
            await show_area(interaction, self.service, self.images, area)
            return
        game_id, house = await self._my_game(interaction)
        renderer = self.renderer
        if renderer is None:
            await say(interaction, t("map.unavailable", str(interaction.locale)))
            return
        background = self.images
        game = await self.service.load(game_id)
        lang = (await self.service.row(game_id)).settings.get("language", "en")
        try:
            if house is not None:  # a player's own copy, sent only to them
                from render import render_private_board

                png = await background.run(render_private_board, game.view(house), lang)
            else:
                png = await background.run(renderer, game.view(None), lang)
        except PoolBusy as busy:
            raise ServiceError("images-busy", "Too many images are being drawn; try again in a minute.") from busy
        await interaction.followup.send(file=discord.File(io.BytesIO(png), filename="map.png"), ephemeral=True)

    @game.command(name="hand", description="Your house cards in hand and discarded")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id, house = await self._my_game(interaction)
        lang = str(interaction.locale)
        if house is None:
            raise ServiceError("not-seated-here", "You do not play in this channel's game.")
        view = (await self.service.load(game_id)).view(house)
        mine = view["houses"][house]
        hand = ", ".join(card_label(c, lang) for c in mine["hand"]) or "—"
        discards = ", ".join(card_label(c, lang) for c in mine["discards"]) or "—"
        await say(interaction, t("hand.text", lang, hand=hand, discards=discards))

    @game.command(name="log", description="What happened recently in this game")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id, _ = await self._my_game(interaction)
        lang = str(interaction.locale)
        lines = narrate_all(await self.service.public_events(game_id, limit=60), lang)
        text = "\n".join(lines[-25:]) or t("log.empty", lang)
        await say(interaction, text[-1900:])

    @game.command(
        name="replay", description="The board at the end of any phase of this channel's game, with what happened in it"
    )
    @app_commands.rename(round_="round")
    @app_commands.describe(
        round_="The round (default: the last one played)", phase="The phase (default: the round's last)"
    )
    @app_commands.choices(
        phase=[app_commands.Choice(name=f"{p.capitalize()} phase", value=p) for p in ("westeros", "planning", "action")]
    )
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        round_: app_commands.Range[int, 1, 99] | None = None,
        phase: str | None = None,
    ) -> None:
        await show_replay(interaction, round_, phase)  # the Replay cog's work (cogs/replay.py)

    @game.command(name="vacation", description="Take vacation days: deadlines that wait for you wait longer")
    @app_commands.describe(days="How many days (the game sets how many each player may take)")
    async def vacation(self, interaction: discord.Interaction[Any], days: app_commands.Range[int, 1, 14]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = str(interaction.locale)
        game_id, house = await self._my_game(interaction)
        if house is None:
            raise ServiceError("not-seated-here", "You do not play in this channel's game.")
        # The channel is told through the outbox, in the transaction that takes the days.
        done = await self.service.execute(
            Vacation(game_id=game_id, by=interaction.user.id, key=command_key(interaction), days=days)
        )
        await say(interaction, t("vacation.taken", lang, until=f"<t:{int(done.until or 0)}:f>"))

    @game.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        lang = str(interaction.locale)
        parts = [t(key, lang) for key in HELP_PARTS]
        # The reply itself (nothing to wait for), then the rest as followups: each part under Discord's limit.
        messages = split(parts)
        await interaction.response.send_message(messages[0], ephemeral=True)
        for message in messages[1:]:
            await interaction.followup.send(message, ephemeral=True)
        # The legend left the posted maps: it lives here (issue K), drawn off the event loop like every image.
        legend = await self.images.run(render_legend, language_of(lang))
        picture = discord.File(io.BytesIO(legend), filename="legend.png")
        await interaction.followup.send(t("help.legend", lang), file=picture, ephemeral=True)

    async def on_button(self, interaction: discord.Interaction[Any], game_id: int, action: str) -> None:
        """Join, Leave, Start. The click is acknowledged first, then the lobby message is edited in place; Start
        shows the seats before any player's DM goes out."""
        await interaction.response.defer()
        lang = str(interaction.locale)
        row = await self.service.row(game_id)
        game_lang = row.settings.get("language", "en")
        settings = GameSettings.from_dict(row.settings)
        if action == "start":
            if not is_moderator(interaction.user, row.created_by, self.moderator_role):
                raise ServiceError("start-refused", "Only the game's creator or a moderator can start the game.")

            ruleset = t(f"ruleset.{row.settings.get('ruleset', 'base')}", game_lang)

            async def announce(game: Game, seats: dict[str, int | None]) -> None:
                houses = ", ".join(
                    f"{house_mark(h, game_lang)} {seat_text(user, game_lang)}" for h, user in seats.items()
                )
                lines = [t("lobby.started", game_lang, ruleset=ruleset, seats=houses)]
                vassals = [h for h in game.houses if h not in seats]
                if vassals:
                    marks = ", ".join(house_mark(h, game_lang) for h in vassals)
                    lines.append(t("lobby.started.vassals", game_lang, houses=marks))
                members = [user for user in seats.values() if user is not None]
                readers = await thread_readers(self.bot, row.channel_id, members)
                lines.extend(talk_lines(settings, game_lang, readers, key="lobby.started.readers")[1:])
                async with self._drawing.hold(game_id):  # after any lobby drawn from before the start
                    await interaction.edit_original_response(content="\n".join(lines), view=None)

            await self.service.execute(Start(game_id=game_id, by=interaction.user.id, announce=announce))
            return
        if action in ("ai", "noai"):
            if not is_moderator(interaction.user, row.created_by, self.moderator_role):
                raise ServiceError("add-ai-refused", "Only the game's creator or a moderator can seat the AI.")
            seat = AddAi if action == "ai" else RemoveAi
            await self.service.execute(seat(game_id=game_id, by=interaction.user.id, key=command_key(interaction)))
            note = t("lobby.ai_added" if action == "ai" else "lobby.ai_removed", lang, name=shown(row.name, NAME_LIMIT))
        elif action == "join":
            await self.service.execute(Join(game_id=game_id, by=interaction.user.id))
            note = t("lobby.joined", lang, name=shown(row.name, NAME_LIMIT))
            if settings.talk == "private" and reads_every_thread(interaction.permissions):  # the fair-play note
                note += "\n" + t("lobby.joined.reader", lang)
        else:
            await self.service.execute(LeaveLobby(game_id=game_id, by=interaction.user.id))
            note = t("lobby.left", lang, name=shown(row.name, NAME_LIMIT))
        await self.redraw(interaction, game_id, game_lang)  # a player who leaves frees the house he chose
        await say(interaction, note)

    async def on_pick(self, interaction: discord.Interaction[Any], game_id: int, values: list[str]) -> None:
        """A house chosen in the lobby's menu (or "no preference"). Acknowledged first; then the lobby is drawn
        again, also after a refusal, so that the menu never keeps a choice that was not made."""
        await interaction.response.defer()
        lang = str(interaction.locale)
        row = await self.service.row(game_id)
        game_lang = row.settings.get("language", "en")
        value = values[0] if values else ""
        house = None if value == DEAL else value
        try:
            picks = await self.service.execute(PickHouse(game_id=game_id, by=interaction.user.id, house=house))
        except ServiceError:
            await self.redraw(interaction, game_id, game_lang)
            raise
        await self.redraw(interaction, game_id, game_lang)
        name = shown(row.name, NAME_LIMIT)
        mine = picks.get(interaction.user.id)
        if mine is None:
            await say(interaction, t("lobby.picked.deal", lang, name=name))
        else:
            await say(interaction, t("lobby.picked", lang, name=name, house=house_mark(mine, lang)))
