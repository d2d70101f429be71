"""A game's row and seats read once for the callers that ask at once (a step's players pressing Submit together, with
nothing cached: a gateway read them six times each at a burst's start), and a change announced meanwhile still gives a
later caller the rows as they are now."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.service import GameService
from app.store import Store
from tests.app.test_service import started


def counting(store: Store) -> list[str]:
    """Every statement the store's database runs from now on (wrapping the database, not the store)."""
    statements: list[str] = []
    for name in ("fetchone", "fetchall"):
        original = getattr(store.db, name)

        async def counted(sql: str, params: Any = (), *, _original: Any = original) -> Any:
            statements.append(sql)
            return await _original(sql, params)

        setattr(store.db, name, counted)
    return statements


@pytest.fixture
async def cold(database: Path | str) -> AsyncIterator[tuple[Store, int, list[str]]]:
    """A store with a started game of which nothing is cached, and the statements it runs from then on."""
    store = await Store.open(database)
    try:
        game_id = await started(GameService(store))
        store.forget(game_id)
        yield store, game_id, counting(store)
    finally:
        await store.close()


async def test_callers_asking_at_once_share_one_read_of_a_games_row_and_seats(
    cold: tuple[Store, int, list[str]],
) -> None:
    store, game_id, statements = cold
    rows, seats = await asyncio.gather(
        asyncio.gather(*(store.game(game_id) for _ in range(6))),
        asyncio.gather(*(store.seats(game_id) for _ in range(6))),
    )
    assert len({id(row) for row in rows}) == 1 and rows[0] is not None and rows[0].id == game_id
    assert all(s == seats[0] for s in seats) and len(seats[0]) == 3
    assert len({id(s) for s in seats}) == 6  # each caller may change his own copy
    assert len([s for s in statements if "FROM games" in s]) == 1
    assert len([s for s in statements if "FROM seats" in s]) == 1
    # Cached now: no read at all.
    await store.game(game_id)
    await store.seats(game_id)
    assert len(statements) == 2


async def test_a_caller_after_a_change_does_not_join_a_read_begun_before_it(cold: tuple[Store, int, list[str]]) -> None:
    store, game_id, statements = cold
    first = asyncio.ensure_future(store.game(game_id))
    await asyncio.sleep(0)  # the first read is under way
    store.wrote(game_id)  # a change to the game, announced while it runs
    second = await store.game(game_id)
    await first
    assert second is not None
    assert len([s for s in statements if "FROM games" in s]) == 2
