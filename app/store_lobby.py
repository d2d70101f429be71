"""The store's lobby (who joined a game not yet started, and the houses they chose) and what it keeps of users (whether
their DMs are closed, their Discord locale)."""

from __future__ import annotations

import time

from app.database import IntegrityError
from app.store_base import StoreBase


class HouseTaken(Exception):
    """Another player of the lobby has chosen this house (``lobby_picks`` holds each house once per game)."""


class NotInLobby(Exception):
    """A house is chosen only by a player in the lobby (a pick belongs to a lobby seat)."""


class LobbyStore(StoreBase):
    """The lobby and the houses picked in it."""

    async def join_lobby(self, game_id: int, user_id: int) -> bool:
        changed = await self.write(
            "INSERT INTO lobby (game_id, user_id, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, user_id, time.time()),
        )
        return changed == 1

    async def leave_lobby(self, game_id: int, user_id: int) -> bool:
        return await self.write("DELETE FROM lobby WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby(self, game_id: int) -> list[int]:
        rows = await self.db.fetchall(
            "SELECT user_id FROM lobby WHERE game_id = ? ORDER BY joined_at, user_id", (game_id,)
        )
        return [int(r[0]) for r in rows]

    async def pick_house(self, game_id: int, user_id: int, house: str) -> None:
        """The house a lobby player chooses, replacing his earlier pick (``HouseTaken``: another player holds it;
        ``NotInLobby``: the player is not in the lobby). One statement: the table's keys decide, not a read before."""
        try:
            await self.write(
                "INSERT INTO lobby_picks (game_id, user_id, house, picked_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET house = excluded.house, picked_at = excluded.picked_at",
                (game_id, user_id, house, time.time()),
            )
        except IntegrityError as err:
            # SQLite names the columns of the broken key (a file from before Alembic names no constraint);
            # PostgreSQL names the constraint.
            if "lobby_picks.house" in str(err) or "lobby_picks_house_taken" in str(err):
                raise HouseTaken(f"game {game_id}: {house} is taken") from err
            if "FOREIGN KEY" in str(err) or "lobby_picks_seat" in str(err):
                raise NotInLobby(f"game {game_id}: {user_id} is not in the lobby") from err
            raise

    async def unpick_house(self, game_id: int, user_id: int) -> bool:
        """The player leaves his house to be dealt at the start; False if he had chosen none."""
        return await self.write("DELETE FROM lobby_picks WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby_picks(self, game_id: int) -> dict[int, str]:
        """user -> the house he chose in the lobby, in the order the picks were made (a player who left the lobby
        has none: his pick left with him)."""
        rows = await self.db.fetchall(
            "SELECT user_id, house FROM lobby_picks WHERE game_id = ? ORDER BY picked_at, user_id", (game_id,)
        )
        return {int(r[0]): str(r[1]) for r in rows}


class UserStore(StoreBase):
    """What is kept of a user across games: DMs closed or not, and the locale."""

    # ----- DMs -----

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self.write(
            "INSERT INTO dm_status (user_id, closed, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET closed = excluded.closed, updated_at = excluded.updated_at",
            (user_id, int(closed), time.time()),
        )
        self._dm_closed[user_id] = closed

    async def dm_closed(self, user_id: int) -> bool:
        if user_id not in self._dm_closed:
            seen = self.user_changes.get(user_id, 0)
            row = await self.db.fetchone("SELECT closed FROM dm_status WHERE user_id = ?", (user_id,))
            closed = bool(row[0]) if row else False
            if self.user_changes.get(user_id, 0) == seen:
                self._dm_closed[user_id] = closed
            return closed
        return self._dm_closed[user_id]

    # ----- locales -----

    async def set_locale(self, user_id: int, locale: str) -> None:
        """Remember a user's Discord locale; written only when it changed."""
        if await self.locale(user_id) == locale:
            return
        await self.write(
            "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
            (user_id, locale, time.time()),
        )
        self._locales[user_id] = locale

    async def locale(self, user_id: int) -> str | None:
        """The user's Discord locale at their last interaction, or None if they never used the bot."""
        if user_id not in self._locales:
            seen = self.user_changes.get(user_id, 0)
            row = await self.db.fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
            locale = str(row[0]) if row else None
            if self.user_changes.get(user_id, 0) == seen:
                self._locales[user_id] = locale
            return locale
        return self._locales[user_id]
