"""``/stats player [member]``: a member's record on this server (games played, finished and won, by house, his median
time to answer, deadlines missed, his rating); ``/stats leaderboard``: the server's members by their OpenSkill rating
(issue W). Thin: ``app.store_stats`` reads the games, ``app.stats`` works the figures out; both answers are ephemeral,
in the reader's language. Everything shown is public (who held which house, how the games ended, when answers were
committed, the deadlines the channel was told of), so a member may read another's record.

Discord does not let a command group be invoked by itself, so ``/stats`` has two subcommands.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app.labels import house_mark
from app.service import GameService, ServiceError
from app.stats import LEADERBOARD_SHOWN, MIN_GAMES_RANKED, Leaderboard, MemberRecord
from app.store_stats import StatsStore
from cogs.replies import say
from i18n import t, tn


def duration_text(seconds: float, lang: str) -> str:
    """A span of time, shortly: ``2 d 4 h``, ``3 h 20 min``, ``12 min``, ``< 1 min``."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return t("stats.time.seconds", lang)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return t("stats.time.days", lang, days=days, hours=hours)
    if hours:
        return t("stats.time.hours", lang, hours=hours, minutes=minutes)
    return t("stats.time.minutes", lang, minutes=minutes)


def rating_text(value: float) -> str:
    return f"{value:.1f}"


def record_text(record: MemberRecord, member: str, lang: str, *, ranked: int) -> str:
    """A member's record, one line per figure; ``member`` as shown (a mention)."""
    if record.empty:
        return t("stats.never", lang, member=member)
    lines = [t("stats.title", lang, member=member)]
    rate = round(100 * record.won / record.finished) if record.finished else 0
    key = "stats.games" if record.finished else "stats.games.none-finished"
    lines.append(t(key, lang, played=record.played, finished=record.finished, won=record.won, rate=rate))
    for house, by in sorted(record.by_house.items(), key=lambda item: (-item[1].played, item[0])):
        house_rate = round(100 * by.won / by.finished) if by.finished else 0
        key = "stats.house" if by.finished else "stats.house.none-finished"
        lines.append(
            t(
                key,
                lang,
                house=house_mark(house, lang),
                played=by.played,
                finished=by.finished,
                won=by.won,
                rate=house_rate,
            )
        )
    if record.median_answer_s is not None:
        lines.append(
            tn("stats.answer-time", record.answers_timed, lang, time=duration_text(record.median_answer_s, lang))
        )
    lines.append(t("stats.missed", lang, missed=record.missed))
    rating = record.rating
    if rating is not None and rating.place is not None:
        lines.append(t("stats.rating", lang, rating=rating_text(rating.ordinal), place=rating.place, ranked=ranked))
    elif rating is not None:
        lines.append(tn("stats.rating.unranked", MIN_GAMES_RANKED, lang, games=rating.games))
    else:
        lines.append(tn("stats.rating.none", MIN_GAMES_RANKED, lang))
    if record.by_bot:
        lines.append(tn("stats.by-bot", record.by_bot, lang))
    return "\n".join(lines)


def leaderboard_text(board: Leaderboard, lang: str) -> str:
    lines = [t("stats.board.title", lang)]
    if not board.ranked:
        lines.append(tn("stats.board.empty", MIN_GAMES_RANKED, lang))
    for member, rated in board.ranked[:LEADERBOARD_SHOWN]:
        lines.append(
            tn(
                "stats.board.line",
                rated.games,
                lang,
                place=rated.place,
                member=f"<@{member}>",
                rating=rating_text(rated.ordinal),
            )
        )
    if board.unranked:
        lines.append(tn("stats.board.unranked", board.unranked, lang, min=MIN_GAMES_RANKED))
    lines.append(t("stats.board.footer", lang, rated=board.rated_games, bot=board.by_bot, min=MIN_GAMES_RANKED))
    return "\n".join(lines)


class Stats(commands.Cog):
    stats = app_commands.Group(name="stats", description="Who plays well on this server", guild_only=True)

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.store = StatsStore(service.store.db)

    @staticmethod
    def _guild(interaction: discord.Interaction[Any]) -> int:
        if interaction.guild_id is None:
            raise ServiceError("stats-in-dm", "Statistics are a server's.")
        return interaction.guild_id

    @stats.command(name="player", description="A member's games, wins, answer time and rating on this server")
    @app_commands.describe(member="Whose record (default: yours)")
    async def player(self, interaction: discord.Interaction[Any], member: discord.User | None = None) -> None:
        guild_id = self._guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        whom = member or interaction.user
        record, board = await self.store.member(guild_id, whom.id)
        text = record_text(record, f"<@{whom.id}>", str(interaction.locale), ranked=len(board.ranked))
        await say(interaction, text)

    @stats.command(name="leaderboard", description="This server's players by their rating")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = self._guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await say(interaction, leaderboard_text(await self.store.leaderboard(guild_id), str(interaction.locale)))
