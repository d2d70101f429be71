"""The store's view of one server (guild): its games, read straight from the database for ``/mod games``, which a
moderator asks for rarely, so nothing here is cached."""

from __future__ import annotations

from dataclasses import dataclass

from app.store_base import StoreBase
from app.store_games import GAME_COLUMNS, GameRow, _game_row


@dataclass(frozen=True)
class UnfinishedGame:
    row: GameRow
    created_at: float  # when its lobby opened
    updated_at: float  # its row's last change: its start, its last step, a pause


@dataclass(frozen=True)
class EndedGame:
    """An ended game as a summary names it: no state is read for it."""

    channel_id: int
    name: str
    ended_at: float  # its row's last change, which the end is for a game that has ended


class GuildStore(StoreBase):
    """A server's games, for its moderators' overview."""

    async def unfinished_games_of_guild(self, guild_id: int) -> list[UnfinishedGame]:
        """Every lobby, running and paused game of the server, oldest first."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS}, created_at, updated_at FROM games WHERE guild_id = ? AND status != 'ended'"
            " ORDER BY id",
            (guild_id,),
        )
        return [UnfinishedGame(_game_row(r[:-2]), float(r[-2]), float(r[-1])) for r in rows]

    async def ended_games_of_guild(self, guild_id: int, *, last: int) -> tuple[int, list[EndedGame]]:
        """How many games of the server have ended, and the ``last`` that ended most recently."""
        counted = await self.db.fetchone(
            "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'ended'", (guild_id,)
        )
        rows = await self.db.fetchall(
            "SELECT channel_id, name, updated_at FROM games WHERE guild_id = ? AND status = 'ended'"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            (guild_id, last),
        )
        recent = [EndedGame(int(r[0]), str(r[1]), float(r[2])) for r in rows]
        return (int(counted[0]) if counted else 0), recent
