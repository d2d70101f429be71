"""Ended games' command logs are kept ``KEEP_ENDED_DAYS`` after the game ended (docs/privacy.md), then removed by a
daily job: the answers, every snapshot but the final state, the outbox, notices, commands and queued commands. The
game's row stays with its final state and, in its settings, its final standing (``final_standing``: the winner, the
round and each house's castles and victory points, and whether the bot played a house of it, enough for
statistics), and so do its seats. A game that has not ended is never touched.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from app.store import Store
from app.store_privacy import PRUNED
from engine import Game, rules

log = logging.getLogger("westeros.retention")

DAY_S = 86400.0
RETENTION_HOUR_UTC = 4  # the daily run: a quiet hour for most servers in Europe and the Americas
FINAL_STANDING = "final_standing"  # the key of a pruned game's settings holding its standing
BY_BOT = "by_bot"  # in the final standing: whether the bot played a house of the game (app/stats.py), from its log


def final_standing(state: str | None) -> dict[str, Any]:
    """What statistics need of a game once its log has gone; empty if it has no state (never started)."""
    if state is None:
        return {}
    game = Game.from_json(state)
    s = game.state
    castles = rules.castle_counts(s)
    points = rules.victory_points(s)
    return {
        "winner": s.winner,
        "reason": s.ended_reason,
        "round": s.round,
        "houses": {
            house: {"castles": castles.get(house, 0), "victory_points": points.get(house, 0)} for house in s.players
        },
    }


@dataclass(frozen=True)
class Pruned:
    games: int
    rows: int


async def prune_ended(store: Store, keep_days: float, *, now: float | None = None) -> Pruned:
    """Remove the command logs of the games that ended more than ``keep_days`` ago (``now``: the clock, for tests),
    each game in a transaction of its own; one line in the log per run."""
    cutoff = (time.time() if now is None else now) - keep_days * DAY_S
    games = rows = 0
    from app.store_stats import StatsStore  # imported here: it reads this module's keys

    for game in await store.ended_unpruned(cutoff):
        try:
            standing = await asyncio.to_thread(final_standing, game.state)  # the event loop never waits
            # The statistics rate a game the bot played in apart: that is read from the log, so noted before it goes.
            standing[BY_BOT] = await StatsStore(store.db).played_by_bot(game.id, game.state, game.settings)
        except Exception:  # a state this code cannot read: its standing is unknown, its log goes all the same
            log.exception("game %s: its final standing could not be read", game.id)
            standing = {}
        settings = {**game.settings, FINAL_STANDING: standing, PRUNED: time.time() if now is None else now}
        rows += await store.prune_ended_game(game.id, settings)
        games += 1
    log.info(
        "retention: removed %s rows of %s games ended more than %g days ago (KEEP_ENDED_DAYS)", rows, games, keep_days
    )
    return Pruned(games, rows)


def schedule_retention(scheduler: Any, store: Store, keep_days: float) -> None:
    """Prune once a day on the bot's scheduler (every process may: pruning a game twice removes nothing more)."""
    if keep_days <= 0:
        log.info("retention: ended games' logs are kept for good (KEEP_ENDED_DAYS=0)")
        return

    async def run() -> None:
        try:
            await prune_ended(store, keep_days)
        except Exception:
            log.exception("retention: the daily run failed; it runs again tomorrow")

    scheduler.add_job(
        run, "cron", hour=RETENTION_HOUR_UTC, timezone="UTC", id="retention", coalesce=True, replace_existing=True
    )
    log.info("retention: ended games' logs are removed %g days after they end, daily at %02d:00 UTC", keep_days,
             RETENTION_HOUR_UTC)  # fmt: skip
