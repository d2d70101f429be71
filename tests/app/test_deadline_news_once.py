"""A deadline's news ("⏰ The deadline passed") is told once even when two firers' last houses differ (issue X, #38):
the firer whose lease ran out while its agent thought read every house, a member then answered the last one, and the
firer that took the deadline over read the others only. The news is recorded under ``deadline-news:<step>`` in the
commit of the answer that carries it, so the other firer's is refused, whether it goes on its own or on an answer.
Both stores; the deadlines are fired by hand, as two processes' timers or sweeps would fire them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from app.commands import Answer
from app.deadlines import Deadlines, deadline_step, news_key_of, step_key
from app.notices import DeadlinePassed, to_payload
from app.service import GameService
from app.store import Source, Store
from engine import Game
from engine.prompts import Prompt
from tests.app.test_deadlines import new_running_game

LEASE_S = 0.2


@pytest.fixture
async def service(database: Path | str) -> AsyncIterator[GameService]:
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


def deadlines(service: GameService, **options: Any) -> Deadlines:
    return Deadlines(service, AsyncIOScheduler(), **options)  # fired by hand here: its scheduler never runs


async def defaults(kind: str, game: Game, prompt: Prompt, budget_ms: float) -> Any:
    return prompt.default


async def overdue(service: GameService, game_id: int) -> str:
    await service.store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() - 1, game_id))
    service.store.deadline_cache.clear()
    return step_key(await service.load(game_id))


async def told(service: GameService, game_id: int) -> list[list[str]]:
    return [n.payload["houses"] for n in await service.store.notices(game_id) if n.payload["type"] == "deadline-passed"]


async def test_two_firers_whose_last_houses_differ_tell_the_deadlines_news_once(service: GameService) -> None:
    slow = deadlines(service, lease=LEASE_S)
    quick = deadlines(service)
    thinking = asyncio.Event()

    async def slow_agent(kind: str, game: Game, prompt: Prompt, budget_ms: float) -> Any:
        await thinking.wait()  # the AI's seconds of thought, past the lease
        return prompt.default

    slow.think, quick.think = slow_agent, defaults
    game_id = await new_running_game(service, autopilot="ai")
    key = await overdue(service, game_id)
    first, second, last = (await service.load(game_id)).prompts()

    held = asyncio.ensure_future(slow.fire(game_id, key))  # reads the three houses, then thinks
    await asyncio.sleep(LEASE_S + 0.1)
    seats = await service.store.seats(game_id)
    await service.execute(Answer(game_id=game_id, house=last.house, answer=last.default, by=seats[last.house]))
    # The deadline taken over: the two houses left, the news on the second's answer.
    assert await quick.sweep() == 1
    assert await told(service, game_id) == [sorted([first.house, second.house])]
    thinking.set()
    assert await held == []  # everything was answered meanwhile: its news (on the last house) is refused by the key

    assert await told(service, game_id) == [sorted([first.house, second.house])]
    log = await service.store.answers(game_id)
    assert sorted((a.house, a.source) for a in log[:3]) == sorted(
        [(first.house, Source.DEADLINE), (second.house, Source.DEADLINE), (last.house, Source.PLAYER)]
    )


async def test_an_answer_that_carries_news_already_told_goes_again_without_it(service: GameService) -> None:
    """The news's key recorded before (another firer told it on its own): the last answer's commit is refused by the
    key and given again without the news, with its missed deadline; every house answered once, the news told once."""
    firer = deadlines(service)
    firer.think = defaults
    game_id = await new_running_game(service, autopilot="ai")
    key = await overdue(service, game_id)
    houses = sorted(p.house for p in (await service.load(game_id)).prompts())
    earlier = [to_payload(DeadlinePassed(game_id, houses[:1], "ai"))]
    await service.notice_once(game_id, news_key_of(deadline_step(key)), earlier)

    assert sorted(await firer.fire(game_id, key)) == houses
    assert sorted(a.house for a in await service.store.answers(game_id) if a.source == Source.DEADLINE) == houses
    assert await told(service, game_id) == [houses[:1]]
    assert await service.store.missed_houses(game_id) == set(houses)
    assert await firer.fire(game_id, key) == []  # the step moved on: nothing twice
