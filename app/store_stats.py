"""The rows a server's statistics are computed from (``app.stats``), on SQLite and PostgreSQL alike: the started games
of one server (guild), their seats, their first stored state and their logs. Nothing is written: the statistics are
derived from the games as stored, so a game's end, a deleted game or a member who asked to be forgotten shows in
the next reading. What is kept in memory of an ended game (its outcome, and whether the bot played in it) names
houses only, keyed by the game and its version; who holds each house is read afresh every time.

Once retention has removed an ended game's log (``KEEP_ENDED_DAYS``), its outcome is still read from its final state,
and whether the bot played in it from what retention noted in its final standing (``by_bot``) before the log went;
its answer times and missed deadlines go with the log.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from app import stats
from app.database import Database
from app.lru import Bounded
from app.retention import BY_BOT, FINAL_STANDING
from app.stats import GameSummary, Leaderboard, LogEntry, MemberRecord, Outcome
from app.store_privacy import PRUNED
from engine import Game

KEPT_OUTCOMES = 4096  # ended games whose outcome is kept in memory (a few hundred bytes each)
KEPT_LOGS = 512  # ended games whose answer times are kept in memory (a few kilobytes each)
STARTED = "('running', 'paused', 'ended')"


@dataclass(frozen=True)
class _Ended:
    outcome: Outcome | None
    by_bot: bool


@dataclass(frozen=True)
class _Timed:
    """What the records read of one game's log: each member's answer times, and the deadlines each missed."""

    times: list[tuple[int, float]]
    missed: Counter[int]


def _entry(row: tuple[Any, ...]) -> LogEntry:
    version, house, user_id, prompt_id, source, at, answer = row  # the drivers give ints, floats and texts
    seat: str | None = None
    autopilot = False
    if prompt_id == stats.SEAT_CHANGE and answer is not None:
        given = json.loads(answer)
        seat = given.get("seat") if isinstance(given, dict) else None
        autopilot = bool(given.get("autopilot")) if isinstance(given, dict) else False
    return LogEntry(version, house, user_id, prompt_id, source, at, seat, autopilot)


def _ended(state: str | None, first: str | None, log: list[LogEntry], agent: bool) -> _Ended:
    """An ended game's outcome and whether the bot played in it (CPU work: run in a thread)."""
    final = json.loads(state) if state is not None else None
    start = json.loads(first) if first is not None else None
    outcome = stats.outcome(Game.from_json(state)) if state is not None else None
    return _Ended(outcome, stats.played_by_bot(start, final, log, agent_deadlines=agent))


def _timed(first: str | None, log: list[LogEntry]) -> _Timed:
    seats = stats.first_seats(json.loads(first) if first is not None else None)
    return _Timed(stats.answer_times(log), stats.missed_by(seats, log))


class StatsStore:
    """A server's statistics read from one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._ended: Bounded[tuple[int, int], _Ended] = Bounded(KEPT_OUTCOMES)
        # An ended game's times, by game and version. Kept in memory only, and reached only through the rows naming
        # a member, so a member forgotten since is never found in them.
        self._timed: Bounded[tuple[int, int], _Timed] = Bounded(KEPT_LOGS)

    async def games(self, guild_id: int) -> list[GameSummary]:
        """Every started game of the server (running, paused or ended), each with its current seats."""
        rows = await self.db.fetchall(
            f"SELECT id, status, version, updated_at, settings FROM games WHERE guild_id = ? AND status IN {STARTED}"
            " ORDER BY id",
            (guild_id,),
        )
        seats: dict[int, dict[str, int | None]] = {}
        for game_id, house, user_id in await self.db.fetchall(
            f"SELECT s.game_id, s.house, s.user_id FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE g.guild_id = ? AND g.status IN {STARTED}",
            (guild_id,),
        ):
            seats.setdefault(int(game_id), {})[str(house)] = int(user_id) if user_id is not None else None
        summaries = []
        for game_id, status, version, updated_at, settings in rows:
            ended = None
            if status == "ended":
                ended = await self._ended_game(int(game_id), int(version), json.loads(settings))
            summaries.append(
                GameSummary(
                    game_id=int(game_id),
                    ended_at=float(updated_at) if status == "ended" else None,  # an ended game's last change: its end
                    outcome=ended.outcome if ended is not None else None,
                    by_bot=ended.by_bot if ended is not None else False,
                    seats=seats.get(int(game_id), {}),
                    version=int(version),
                )
            )
        return summaries

    async def _ended_game(self, game_id: int, version: int, settings: dict[str, Any]) -> _Ended:
        kept = self._ended.get((game_id, version))
        if kept is not None:
            return kept
        row = await self.db.fetchone("SELECT state FROM games WHERE id = ?", (game_id,))
        first, log = await self._bot_evidence(game_id)
        agent = settings.get("autopilot") in stats.AGENT_AUTOPILOTS
        ended = await asyncio.to_thread(_ended, row[0] if row else None, first, log, agent)
        noted = settings.get(FINAL_STANDING, {}).get(BY_BOT) if PRUNED in settings else None
        if noted is not None:  # its log is gone: what was noted of it before
            ended = _Ended(ended.outcome, bool(noted))
        self._ended[(game_id, version)] = ended
        return ended

    async def _bot_evidence(self, game_id: int) -> tuple[str | None, list[LogEntry]]:
        """A game's first stored state and the entries of its log that may show the bot playing."""
        first = await self._first_state(game_id)
        log = [
            _entry(r)
            for r in await self.db.fetchall(
                "SELECT version, house, user_id, prompt_id, source, at, answer FROM answers"
                " WHERE game_id = ? AND (prompt_id = ? OR source IN ('deadline', ?)) ORDER BY version",
                (game_id, stats.SEAT_CHANGE, stats.AI),
            )
        ]
        return first, log

    async def played_by_bot(self, game_id: int, state: str | None, settings: dict[str, Any]) -> bool:
        """Whether the bot played in an ended game, from its log: noted in its final standing before retention removes
        the log (``app.retention``), so that the game is rated, or not, for good."""
        first, log = await self._bot_evidence(game_id)
        agent = settings.get("autopilot") in stats.AGENT_AUTOPILOTS
        final = json.loads(state) if state is not None else None
        start = json.loads(first) if first is not None else None
        return await asyncio.to_thread(stats.played_by_bot, start, final, log, agent_deadlines=agent)

    async def _first_state(self, game_id: int) -> str | None:
        row = await self.db.fetchone(
            "SELECT state FROM snapshots WHERE game_id = ? ORDER BY version LIMIT 1", (game_id,)
        )
        return str(row[0]) if row else None

    async def _timed_game(self, game: GameSummary) -> _Timed:
        key = (game.game_id, game.version)
        kept = self._timed.get(key)
        if kept is not None:
            return kept
        log = [
            _entry(r)
            for r in await self.db.fetchall(
                "SELECT version, house, user_id, prompt_id, source, at,"
                " CASE WHEN prompt_id = ? THEN answer END FROM answers WHERE game_id = ? ORDER BY version",
                (stats.SEAT_CHANGE, game.game_id),
            )
        ]
        first = await self._first_state(game.game_id)
        timed = await asyncio.to_thread(_timed, first, log)
        if game.ended_at is not None:  # a running game's log grows
            self._timed[key] = timed
        return timed

    async def leaderboard(self, guild_id: int, *, min_games: int = stats.MIN_GAMES_RANKED) -> Leaderboard:
        return stats.leaderboard(await self.games(guild_id), min_games=min_games)

    async def member(self, guild_id: int, user_id: int) -> tuple[MemberRecord, Leaderboard]:
        """A member's record on the server: his games (from the seats he holds), the rating, and from the logs of the
        games he answered in or held a house of, his answer times and deadlines missed; with the server's
        leaderboard."""
        games = await self.games(guild_id)
        board = stats.leaderboard(games)
        his = await self.db.fetchall(
            f"SELECT DISTINCT a.game_id FROM answers a JOIN games g ON g.id = a.game_id"
            f" WHERE g.guild_id = ? AND g.status IN {STARTED}"
            " AND (a.user_id = ? OR (a.prompt_id = ? AND a.answer LIKE ?))",
            (guild_id, user_id, stats.SEAT_CHANGE, f"%{json.dumps(str(user_id))}%"),
        )
        game_ids = {int(r[0]) for r in his} | {g.game_id for g in games if user_id in g.seats.values()}
        times: list[tuple[int, float]] = []
        missed: Counter[int] = Counter()
        for game in games:
            if game.game_id in game_ids:
                timed = await self._timed_game(game)
                times.extend(t for t in timed.times if t[0] == user_id)
                missed[user_id] += timed.missed[user_id]
        return stats.member_record(user_id, games, times, missed, board), board
