"""The store's talks (issue 40): for each game and unordered pair of houses, the private thread that holds their talk
(table ``talks``, revision 0016). Read straight from the database: a talk is opened or looked up by a command now and
then, and by the publisher when seats change or the game ends, so nothing here is cached."""

from __future__ import annotations

import time
from dataclasses import dataclass

from app.store_base import StoreBase


def pair(house: str, other: str) -> tuple[str, str]:
    """The pair's key: its two houses in order, whichever spoke first."""
    if house == other:
        raise ValueError(f"a house does not talk to itself ({house})")
    first, second = sorted((house, other))
    return first, second


@dataclass(frozen=True)
class Talk:
    game_id: int
    houses: tuple[str, str]  # in order (``pair``)
    thread_id: int

    def other(self, house: str) -> str:
        """The house this talk is with, seen from ``house`` (one of the two)."""
        return self.houses[1] if house == self.houses[0] else self.houses[0]


class TalkStore(StoreBase):
    """Which thread holds each pair's talk."""

    async def talk(self, game_id: int, house: str, other: str) -> Talk | None:
        first, second = pair(house, other)
        row = await self.db.fetchone(
            "SELECT thread_id FROM talks WHERE game_id = ? AND house_a = ? AND house_b = ?", (game_id, first, second)
        )
        return Talk(game_id, (first, second), int(row[0])) if row else None

    async def open_talk(self, game_id: int, house: str, other: str, thread_id: int) -> Talk:
        """Keep ``thread_id`` as the pair's thread, unless the pair has one already: the talk kept is returned (a
        caller whose thread lost the race learns which one won)."""
        first, second = pair(house, other)
        await self.write(
            "INSERT INTO talks (game_id, house_a, house_b, thread_id, opened_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, house_a, house_b) DO NOTHING",
            (game_id, first, second, thread_id, time.time()),
        )
        kept = await self.talk(game_id, first, second)
        assert kept is not None, "a talk just written is there"
        return kept

    async def move_talk(self, game_id: int, house: str, other: str, thread_id: int) -> None:
        """The pair's talk is held by another thread now (its old thread is gone from Discord)."""
        first, second = pair(house, other)
        await self.write(
            "UPDATE talks SET thread_id = ?, opened_at = ? WHERE game_id = ? AND house_a = ? AND house_b = ?",
            (thread_id, time.time(), game_id, first, second),
        )

    async def talks_of(self, game_id: int, house: str | None = None) -> list[Talk]:
        """A game's talks (those of ``house`` only, if given), in the order of their houses."""
        if house is None:
            rows = await self.db.fetchall(
                "SELECT house_a, house_b, thread_id FROM talks WHERE game_id = ? ORDER BY house_a, house_b",
                (game_id,),
            )
        else:
            rows = await self.db.fetchall(
                "SELECT house_a, house_b, thread_id FROM talks WHERE game_id = ? AND (house_a = ? OR house_b = ?)"
                " ORDER BY house_a, house_b",
                (game_id, house, house),
            )
        return [Talk(game_id, (str(r[0]), str(r[1])), int(r[2])) for r in rows]
