"""``GameService.execute_or_default``: the one helper by which the agent (app/ai.py) and a deadline (app/deadlines.py)
submit an answer worked out for a house: the answer, or the prompt's default if the rules refuse it. Both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.commands import Answer, Join, Start
from app.service import GameService, GameSettings
from app.store import Source, Store
from engine import RuleError


async def test_a_refused_answer_is_replaced_by_the_default_and_a_refused_default_raises(database: Path | str) -> None:
    store = await Store.open(database)
    service = GameService(store)
    try:
        game_id = await service.create(
            guild_id=1, channel_id=1, creator=1, name="g", settings=GameSettings(players=3, seed=3)
        )
        for user in (1, 2, 3):
            await service.execute(Join(game_id=game_id, by=user))
        await service.execute(Start(game_id=game_id))
        first, second = (await service.load(game_id)).prompts()[:2]
        nonsense = {"no such": "answer"}

        def answer(prompt_id: str, house: str, given: object, key: str) -> Answer:
            return Answer(game_id=game_id, house=house, answer=given, prompt_id=prompt_id, source=Source.DEADLINE,
                          only_if_unanswered=True, key=key)  # fmt: skip

        applied = await service.execute_or_default(answer(first.id, first.house, nonsense, "k1"), first.default)
        log = await store.answers(game_id)
        assert [(a.house, a.source) for a in log] == [(first.house, Source.DEADLINE)]
        assert applied.game.version == log[-1].version
        with pytest.raises(RuleError):  # the default refused as well: nothing is answered
            await service.execute_or_default(answer(second.id, second.house, nonsense, "k2"), nonsense)
        assert len(await store.answers(game_id)) == 1
    finally:
        await store.close()
