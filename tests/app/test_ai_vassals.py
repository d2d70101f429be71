"""The AI as a liege (Mother of Dragons, issue 42): an AI seat claims vassals and gives their orders, and its vassals'
decisions are answered by the AI, never by the member's forms; on a real SQLite file with the AI's real pool."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from app.ai import AiPlayers, played_by_agent
from app.commands import AddAi, Answer, Join, Start
from app.queries import decider
from app.service import GameService, GameSettings
from app.store import Source, Store
from engine import rules

pytestmark = pytest.mark.slow  # the AI's pool is real worker processes

MEMBER = 100
GIVE_UP_S = 120.0  # a bound for a stuck game, not a time the test measures


async def test_an_ai_liege_claims_and_orders_its_vassals(database: Path | str) -> None:
    store = await Store.open(database)
    service = GameService(store)
    ai = AiPlayers(service, workers=1)
    try:
        settings = GameSettings(
            players=4, seed=3, ruleset="mother-of-dragons", assignment="join-order", ai_seats=1, ai_budget_ms=10
        )
        game_id = await service.create(guild_id=1, channel_id=10, creator=MEMBER, name="ai vassals", settings=settings)
        await service.execute(Join(game_id=game_id, by=MEMBER))
        for key in ("ai-1", "ai-2"):
            await service.execute(AddAi(game_id=game_id, by=MEMBER, key=key))
        await service.execute(Start(game_id=game_id))
        give_up = time.monotonic() + GIVE_UP_S
        while time.monotonic() < give_up:
            game = await service.load(game_id)
            answers = await store.answers(game_id)
            if any(a.source == Source.AI and a.house in game.state.vassals for a in answers):
                break
            seats = await store.seats(game_id)
            mine = [p for p in game.prompts() if not p.answered and decider(game.state, seats, p.house) == MEMBER]
            if mine:
                prompt = mine[0]
                await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=MEMBER))
            else:
                await asyncio.sleep(0.02)  # the AI is thinking
        else:  # pragma: no cover
            raise AssertionError("no vassal of an AI liege was answered")
        await ai.settled()
        game = await service.load(game_id)
        ai_houses = [h for h, u in (await store.seats(game_id)).items() if u is None]
        assert len(ai_houses) == 3 and all(played_by_agent(game.state, h) for h in ai_houses)
        for answer in await store.answers(game_id):
            commander = rules.commander(game.state, answer.house) if answer.house in game.state.houses else None
            if answer.source == Source.AI:  # the AI answers only for its seats and the vassals they command
                assert commander in ai_houses, answer
            if answer.source == Source.PLAYER:  # the member only for his house and his vassals
                assert answer.user_id == MEMBER and commander not in ai_houses, answer
    finally:
        ai.close()
        await store.close()
