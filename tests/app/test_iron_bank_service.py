"""The Iron Bank through the game service: the Spymaster's look at a Westeros deck is a secret its taker keeps, so a
seated moderator can neither undo past it nor read the arrangement in the undo confirmation (fair play)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.commands import Answer, Import, Join, PickHouse, Start
from app.service import GameService, GameSettings
from app.store import Store

FOUR = ["stark", "lannister", "baratheon", "targaryen"]
MODERATOR = 100  # seated: he plays in the game


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def at_spymaster(service: GameService) -> tuple[int, str, int]:
    """A 4-player game with Targaryen set, by a moderator's repair, at Stark's Iron Bank order with the Spymaster in
    the left slot; Stark takes it and picks deck II. Returns the game, Stark's house and his seat."""
    settings = GameSettings(players=4, seed=3, ruleset="mother-of-dragons", assignment="join-order")
    game_id = await service.create(guild_id=1, channel_id=10, creator=MODERATOR, name="bank", settings=settings)
    for user, house in zip(range(100, 104), ["lannister", "stark", "baratheon", "targaryen"], strict=True):
        await service.execute(Join(game_id=game_id, by=user))
        await service.execute(PickHouse(game_id=game_id, by=user, house=house))
    await service.execute(Start(game_id=game_id))
    spec = {
        "players": FOUR,
        "options": {"ruleset": "mother-of-dragons"},
        "round": 10,
        "start": "consolidate",
        "garrisons": {},
        "neutral": {},
        "power": {"stark": 5},
        "units": {"bay-of-ice": "stark ship", "winterfell": "stark footman"},
        "orders": {"bay-of-ice": "sea-iron-bank"},
        "bank": {"slots": ["spymaster", None, None]},
    }
    await service.execute(Import(game_id=game_id, spec=spec, by=999))
    stark = await service.seat_of(game_id, "stark")
    assert stark is not None and stark != MODERATOR
    await service.execute(Answer(game_id=game_id, house="stark", answer="spymaster", by=stark))
    await service.execute(Answer(game_id=game_id, house="stark", answer=2, by=stark))
    return game_id, "stark", stark


async def test_M_LOAN_08_a_seated_moderator_cannot_undo_past_the_spymasters_look(service: GameService) -> None:
    game_id, _house, stark = await at_spymaster(service)
    assert await service.seat_of(game_id, "lannister") == MODERATOR
    preview = await service.undo_preview(game_id, by=MODERATOR)
    assert preview.reveals and preview.refused  # the look showed Stark two cards
    assert not (await service.undo_preview(game_id, by=999)).refused  # a moderator who does not play may

    game = await service.load(game_id)
    prompt = game.prompt_for("stark")
    assert prompt is not None and prompt.kind == "loan-spy-arrange"
    cards = prompt.choices["cards"]
    await service.execute(
        Answer(game_id=game_id, house="stark", answer={"top": cards[1:], "bottom": cards[:1]}, by=stark)
    )
    after = await service.undo_preview(game_id, by=MODERATOR)
    assert after.refused  # where the cards went stays Stark's secret
