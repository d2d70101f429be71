"""An AI seat's decision that reaches its deadline (issue 42: the AI did not answer in time, its queue full, say): the
deadline answers it, once, but nobody missed it: no missed-deadline record, nothing toward a handover or the
statistics, no news naming it. The member's house beside it is an absent player as ever. Both stores."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from app.ai import ai_seat
from app.commands import Answer, Join, Start
from app.deadlines import Deadlines
from app.service import GameService, GameSettings
from app.store import Source, Store
from app.store_stats import StatsStore

MEMBER = 100
GUILD = 1


@pytest.fixture
async def deadlines(database: Path | str) -> AsyncIterator[Deadlines]:
    store = await Store.open(database)
    scheduler = AsyncIOScheduler()
    scheduler.start()
    # No AI pool here: nothing answers the AI seats but the deadline (the simple agent stands in for the searching one).
    yield Deadlines(GameService(store), scheduler, flag_after=1)
    scheduler.shutdown(wait=False)
    await store.close()


async def ai_game(service: GameService, channel: int) -> int:
    settings = GameSettings(players=3, seed=5, ai_seats=2, autopilot="ai")
    game_id = await service.create(guild_id=GUILD, channel_id=channel, creator=MEMBER, name="ai", settings=settings)
    await service.execute(Join(game_id=game_id, by=MEMBER))
    await service.execute(Start(game_id=game_id))
    return game_id


async def fire_now(deadlines: Deadlines, game_id: int) -> list[str]:
    await deadlines.service.store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() - 1, game_id))
    deadlines.service.store.deadline_cache.clear()
    assert await deadlines.sweep() == 1
    return await deadlines.service.store.keyed_houses(game_id, "deadline:")  # the houses it answered for


async def test_an_ai_seats_decision_at_its_deadline_is_answered_once_and_missed_by_nobody(
    deadlines: Deadlines,
) -> None:
    service, store = deadlines.service, deadlines.service.store
    game_id = await ai_game(service, channel=10)
    game = await service.load(game_id)
    ai_houses = sorted(h for h in game.state.houses if ai_seat(game.state, h))
    member_house = next(h for h in game.state.players if h not in ai_houses)
    assert len(ai_houses) == 2

    # The member and both AI seats owe orders; the deadline answers the three, once each.
    assert await fire_now(deadlines, game_id) == sorted([*ai_houses, member_house])
    answers = [a for a in await store.answers(game_id) if a.source == Source.DEADLINE]
    assert sorted(a.house for a in answers) == sorted([*ai_houses, member_house])
    assert await deadlines.sweep() == 0  # nothing fires twice
    # The member's miss is recorded, and he is the only one told of as absent; the AI seats are in no record or news.
    assert await store.missed_houses(game_id) == {member_house}
    for house in ai_houses:
        assert await store.missed_in_a_row(game_id, house) == 0
    told = [n.payload for n in await store.notices(game_id)]
    assert [n["houses"] for n in told if n["type"] == "deadline-passed"] == [[member_house]]
    assert [n["house"] for n in told if n["type"] == "absent-player"] == [member_house]
    record, _ = await StatsStore(store.db).member(GUILD, MEMBER)
    assert record.missed == 1


async def test_a_deadline_that_answers_only_ai_seats_records_and_tells_nothing(deadlines: Deadlines) -> None:
    service, store = deadlines.service, deadlines.service.store
    game_id = await ai_game(service, channel=11)
    game = await service.load(game_id)
    ai_houses = sorted(h for h in game.state.houses if ai_seat(game.state, h))
    mine = next(p for p in game.prompts() if not ai_seat(game.state, p.house))
    await service.execute(Answer(game_id=game_id, house=mine.house, answer=mine.default, by=MEMBER))
    before = len(await store.notices(game_id))

    assert await fire_now(deadlines, game_id) == ai_houses
    assert sorted(a.house for a in await store.answers(game_id) if a.source == Source.DEADLINE) == ai_houses
    assert await store.missed_houses(game_id) == set()
    told = [n.payload["type"] for n in (await store.notices(game_id))[before:]]
    assert "deadline-passed" not in told and "absent-player" not in told, told
    record, _ = await StatsStore(store.db).member(GUILD, MEMBER)
    assert record.missed == 0
