"""The game service with vassals (Mother of Dragons, issue M2), on a real SQLite file: who decides for a vassal, a
player who leaves, and missed deadlines counted against the liege."""

from __future__ import annotations

from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from app.commands import Answer, Join, Start, Undo, Vassalize
from app.deadlines import Deadlines
from app.service import GameService, GameSettings, ServiceError
from app.store import Store
from engine import Game, rules


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def started(service: GameService, players: int = 4) -> int:
    settings = GameSettings(players=players, seed=3, ruleset="mother-of-dragons", assignment="join-order")
    game_id = await service.create(guild_id=1, channel_id=10, creator=100, name="vassals", settings=settings)
    for user in range(100, 100 + players):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


async def answer_defaults_until(service: GameService, game_id: int, done: object) -> Game:
    """Every open prompt answered by its decider with the default, until ``done(game)``."""
    for _ in range(500):
        game = await service.load(game_id)
        if done(game):  # type: ignore[operator]
            return game
        prompt = next(p for p in game.prompts() if not p.answered)
        user = await service.seat_of(game_id, prompt.house)
        await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=user))
    raise AssertionError("the game never got there")


async def test_M_SETUP_03_only_players_are_seated_and_a_liege_decides_for_his_vassals(service: GameService) -> None:
    game_id = await started(service)
    game = await service.load(game_id)
    seats = await service.store.seats(game_id)
    assert sorted(seats) == sorted(rules.player_houses(game.state)) and len(game.state.vassals) == 3
    for vassal in game.state.vassals:
        assert await service.seat_of(game_id, vassal) is None  # before the first claim, nobody

    game = await answer_defaults_until(service, game_id, lambda g: any(p.house in g.state.vassals for p in g.prompts()))
    prompt = next(p for p in game.prompts() if p.house in game.state.vassals)
    liege = game.state.vassals[prompt.house]
    assert liege is not None
    assert await service.seat_of(game_id, prompt.house) == seats[liege]
    assert await service.houses_of(game_id, seats[liege]) == [liege, *rules.vassals_of(game.state, liege)]
    assert await service.house_of(game_id, seats[liege]) == liege
    owed = await service.decisions_of_user(seats[liege])
    assert (game_id, prompt.house) in owed and (game_id, liege) in owed

    stranger = next(u for h, u in seats.items() if h != liege)
    assert stranger is not None
    with pytest.raises(ServiceError) as refused:
        await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=stranger))
    assert refused.value.code == "not-your-house"
    await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[liege]))


async def test_M_LEAVE_01_a_moderator_vassalizes_a_house_logged_undoable_and_replayed(service: GameService) -> None:
    game_id = await started(service)
    seats = await service.store.seats(game_id)
    leaver = rules.player_houses((await service.load(game_id)).state)[-1]
    applied = await service.execute(Vassalize(game_id=game_id, house=leaver, by=999))
    assert [e["type"] for e in applied.events] == ["house-leaving"]
    assert applied.game.state.leaving == [leaver]
    preview = await service.undo_preview(game_id, by=999)
    assert preview.kind == "vassalize" and not preview.refused
    await service.execute(Undo(game_id=game_id, by=999))
    assert (await service.load(game_id)).state.leaving == []
    await service.execute(Vassalize(game_id=game_id, house=leaver, by=999))
    with pytest.raises(Exception) as twice:
        await service.execute(Vassalize(game_id=game_id, house=leaver, by=999))
    assert getattr(twice.value, "code", None) == "already-vassal"

    # As the next round starts the house is a vassal: its former player no longer decides anything for it.
    game = await answer_defaults_until(service, game_id, lambda g: leaver in g.state.vassals)
    assert game.state.houses[leaver].seat is None and game.state.houses[leaver].power == 0
    former = seats[leaver]
    assert former is not None
    assert await service.houses_of(game_id, former) == []
    assert await service.seat_of(game_id, leaver) != former


async def test_a_missed_vassal_decision_counts_against_its_liege(service: GameService) -> None:
    game_id = await started(service)
    scheduler = AsyncIOScheduler()  # a real scheduler, though this test fires the deadline itself
    scheduler.start()
    deadlines = Deadlines(service, scheduler)
    game = await answer_defaults_until(service, game_id, lambda g: any(p.house in g.state.vassals for p in g.prompts()))
    vassal = next(p.house for p in game.prompts() if p.house in game.state.vassals)
    liege = game.state.vassals[vassal]
    answered = await deadlines.fire(game_id, deadlines_key(game))
    assert vassal in answered
    assert liege in await service.store.missed_houses(game_id)
    assert vassal not in await service.store.missed_houses(game_id)
    # The liege's own next answer ends his run.
    game = await answer_defaults_until(
        service, game_id, lambda g: any(p.house == liege and not p.answered for p in g.prompts())
    )
    prompt = game.prompt_for(liege)
    assert prompt is not None
    await service.execute(
        Answer(game_id=game_id, house=liege, answer=prompt.default, by=await service.seat_of(game_id, liege))
    )
    assert liege not in await service.store.missed_houses(game_id)
    service.store.forget(game_id)  # and the database agrees
    assert liege not in await service.store.missed_houses(game_id)
    scheduler.shutdown(wait=False)


def deadlines_key(game: Game) -> str:
    from app.deadlines import step_key

    return step_key(game)


def test_the_status_names_the_liege_who_decides_for_an_awaited_vassal() -> None:
    from app.labels import awaited_text

    view = {"awaiting": ["stark", "tyrell"], "vassals": {"tyrell": "greyjoy", "martell": None}}
    assert awaited_text(view, "en") == "⬜ Stark, 🟩 Tyrell (⬛ Greyjoy)"
    assert awaited_text(view, "ru", marks=False) == "Старк, Тирелл (Грейджой)"
    assert awaited_text({"awaiting": []}, "en") == "—"


def test_a_vassals_decision_dm_and_reminder_name_it_with_its_liege() -> None:
    from cogs.dms import decision_house
    from engine import Game

    g = Game.from_scenario(
        {
            "players": ["stark", "lannister", "greyjoy", "baratheon"],
            "options": {"ruleset": "mother-of-dragons"},
            "round": 10,
            "start": "action",
            "vassals": {"tyrell": "stark"},
        }
    )
    assert decision_house(g, "stark", "en") == "⬜ Stark"
    assert decision_house(g, "tyrell", "en") == "for your vassal 🟩 Tyrell (you: ⬜ Stark)"
    assert "вассала 🟩 Тирелл" in decision_house(g, "tyrell", "ru")
    assert "⬜ Старк" in decision_house(g, "tyrell", "ru")
