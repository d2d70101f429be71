"""Deadlines on a real SQLite file with a real APScheduler: defaults applied, restarts, races, moderator controls."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path
from typing import Any

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from app.commands import Answer, Extend, Force, Join, Pause, Resume, Start, Vacation
from app.deadlines import (
    CATEGORY_OF_KIND,
    MAX_DEADLINE_S,
    DeadlineCategory,
    Deadlines,
    Reminder,
    category,
    step_key,
)
from app.decisions import BUILDERS
from app.service import GameService, GameSettings, ServiceError
from app.store import Store
from engine import Game
from engine.prompts import PromptKind
from tests.engine_mod.test_vassals_westeros import mid_ability

DAY = 24 * 3600


class Recorder:
    """A deadline's news as (kind, game, fields): the channel's notices as the outbox holds them, then the reminders
    sent through ``notify``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reminders: list[Reminder] = []

    async def __call__(self, notice: Reminder) -> None:
        self.reminders.append(notice)

    async def all(self) -> list[tuple[str, int, dict[str, Any]]]:
        told = [
            (str(n.payload["type"]), n.game_id, {k: v for k, v in n.payload.items() if k not in ("type", "game_id")})
            for n in await self.store.notices()
        ]
        reminded = [
            ("reminder", r.game_id, {k: v for k, v in dataclasses.asdict(r).items() if k != "game_id"})
            for r in self.reminders
        ]
        return told + reminded


@pytest.fixture
async def env(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    scheduler = AsyncIOScheduler()
    scheduler.start()
    yield store, scheduler
    scheduler.shutdown(wait=False)
    await store.close()


async def new_running_game(service: GameService, players: int = 3, channel: int = 1, **settings: Any) -> int:
    game_id = await service.create(
        guild_id=1, channel_id=channel, creator=1, name="g", settings=GameSettings(players=players, seed=3, **settings)
    )
    for user in range(1, players + 1):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


async def wait_for(predicate: Any, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if await predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not reached in time")


async def test_deadline_applies_defaults_and_advances(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    notes = Recorder(store)
    # A clock 23h59m59.7s behind: the 24-hour orders deadline falls due 0.3 s from now.
    deadlines = Deadlines(service, scheduler, clock=lambda: time.time() - DAY + 0.3, notify=notes)
    game_id = await new_running_game(service)
    await deadlines.arm(game_id)

    async def planning_over_and_told() -> bool:
        # The channel is told once the deadline's work is done, a moment after the last default is stored.
        return (await service.load(game_id)).state.orders_revealed and bool(await notes.all())

    await wait_for(planning_over_and_told)
    log = await store.answers(game_id)
    assert len(log) == 3 and {a.source for a in log} == {"deadline"}
    assert (await notes.all()) and (await notes.all())[0][0] == "deadline-passed"
    assert sorted((await notes.all())[0][2]["houses"]) == sorted((await service.load(game_id)).state.players)


async def test_restart_rearms_and_fires_overdue_deadlines(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service)
    row = await deadlines.arm(game_id)
    assert row is not None and row.due_at > time.time() + DAY - 60
    # The bot goes down; while it is down the deadline passes.
    scheduler.remove_all_jobs()
    await store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() - 60, game_id))
    # A new process: new scheduler, new Deadlines, same database.
    fresh = AsyncIOScheduler()
    fresh.start()
    try:
        restarted = Deadlines(GameService(store), fresh)
        assert await restarted.restore() == 1

        async def fired() -> bool:
            return len(await store.answers(game_id)) == 3

        await wait_for(fired)
    finally:
        fresh.shutdown(wait=False)


async def test_deadline_and_last_answer_together_advance_once(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service)
    await deadlines.arm(game_id)
    game = await service.load(game_id)
    seats = await store.seats(game_id)
    houses = [p.house for p in game.prompts()]
    for house in houses[:-1]:
        await service.execute(
            Answer(game_id=game_id, house=house, answer=game.prompt_for(house).default, by=seats[house])
        )
    last = houses[-1]
    key = step_key(await service.load(game_id))
    results = await asyncio.gather(
        deadlines.fire(game_id, key),
        service.execute(Answer(game_id=game_id, house=last, answer=game.prompt_for(last).default, by=seats[last])),
        return_exceptions=True,
    )
    log = await store.answers(game_id)
    planning = [a for a in log if a.prompt_id.endswith(":orders:" + a.house)]
    assert sorted(a.house for a in planning) == sorted(houses)  # each house exactly once
    assert (await service.load(game_id)).state.orders_revealed
    assert sum(1 for r in results if isinstance(r, Exception)) <= 1


async def test_extension_is_capped_and_pause_keeps_remaining_time(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service)
    row = await deadlines.arm(game_id)
    assert row is not None
    extended = await service.execute(Extend(game_id=game_id, by=9, seconds=60 * DAY))
    assert extended.until is not None and extended.until <= time.time() + MAX_DEADLINE_S + 1
    shortened = await service.execute(Extend(game_id=game_id, by=9, seconds=-3600))
    assert shortened.until == pytest.approx(extended.until - 3600)
    assert (await deadlines.table.get(game_id)).due_at == shortened.until  # type: ignore[union-attr]
    await service.execute(Pause(game_id=game_id, by=9))
    assert scheduler.get_job(f"deadline:{game_id}") is None
    paused = await deadlines.table.get(game_id)
    assert paused is not None and paused.paused_remaining == pytest.approx(shortened.until - time.time(), abs=2)
    with pytest.raises(ServiceError):
        game = await service.load(game_id)
        p = game.prompts()[0]
        await service.execute(
            Answer(game_id=game_id, house=p.house, answer=p.default, by=(await store.seats(game_id))[p.house])
        )
    await service.execute(Resume(game_id=game_id, by=9))
    assert scheduler.get_job(f"deadline:{game_id}") is not None
    # Each of them is told in the channel, through the outbox, in order.
    audit = [n.payload["action"] for n in await store.notices(game_id)]
    assert audit == ["extend", "extend", "pause", "resume"]


async def test_force_applies_now_and_flags_absent_houses(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    notes = Recorder(store)
    deadlines = Deadlines(service, scheduler, notify=notes, flag_after=1)
    game_id = await new_running_game(service, players=3)
    await deadlines.arm(game_id)
    houses = (await service.execute(Force(game_id=game_id, by=9))).houses  # every house misses the orders deadline
    flagged = sorted(data["house"] for kind, _, data in (await notes.all()) if kind == "absent-player")
    assert flagged == sorted(houses) and len(houses) == 3
    assert (await service.load(game_id)).state.orders_revealed


async def test_missed_deadlines_count_in_a_row_and_reset_on_an_answer(env) -> None:  # type: ignore[no-untyped-def]
    store, _ = env
    service = GameService(store)
    game_id = await new_running_game(service, players=3)
    table = Deadlines(service, AsyncIOScheduler()).table
    assert [await table.record_missed(game_id, "stark") for _ in range(3)] == [1, 2, 3]
    # An answer from the deadline (not the player) keeps the run going...
    assert await table.record_missed(game_id, "lannister") == 1
    game = await service.load(game_id)
    lannister = game.prompt_for("lannister")
    assert lannister is not None
    await service.execute(
        Answer(game_id=game_id, house="lannister", answer=lannister.default, by=None, source="deadline")
    )
    assert await table.record_missed(game_id, "lannister") == 2
    # ...while the player's own answer ends it, in the same transaction as the answer.
    stark = game.prompt_for("stark")
    assert stark is not None
    user = (await store.seats(game_id))["stark"]
    await service.execute(Answer(game_id=game_id, house="stark", answer=stark.default, by=user))
    assert await table.record_missed(game_id, "stark") == 1


async def test_autopilot_agent_answers_for_absent_houses(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service, autopilot="agent")
    await deadlines.arm(game_id)
    answered = (await service.execute(Force(game_id=game_id, by=9))).houses
    assert len(answered) == 3
    assert (await service.load(game_id)).state.orders_revealed


async def test_a_reminder_goes_out_at_half_time_to_those_still_awaited(env) -> None:  # type: ignore[no-untyped-def]
    store, scheduler = env
    service = GameService(store)
    notes = Recorder(store)
    # A clock 12 h minus 0.3 s behind: the half-time point of the 24-hour orders deadline is 0.3 s away.
    deadlines = Deadlines(service, scheduler, clock=lambda: time.time() - DAY / 2 + 0.3, notify=notes)
    game_id = await new_running_game(service)
    game = await service.load(game_id)
    first = game.prompts()[0].house
    await deadlines.arm(game_id)
    await service.execute(
        Answer(
            game_id=game_id, house=first, answer=game.prompt_for(first).default, by=(await store.seats(game_id))[first]
        )
    )

    async def reminded() -> bool:
        return any(kind == "reminder" for kind, _, _ in (await notes.all()))

    await wait_for(reminded)
    _, gid, data = next(c for c in (await notes.all()) if c[0] == "reminder")
    assert gid == game_id and data["which"] == "half"
    assert first not in data["houses"] and len(data["houses"]) == 2


def test_next_daily_deadline_is_local_time_and_at_least_an_hour_away() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from app.deadlines import next_daily

    zone = ZoneInfo("Europe/Berlin")
    at_19_30 = datetime(2026, 3, 28, 19, 30, tzinfo=zone).timestamp()  # the day before summer time starts
    due = datetime.fromtimestamp(next_daily(at_19_30, "20:00", "Europe/Berlin"), tz=zone)
    assert (due.day, due.hour, due.minute) == (29, 20, 0)  # 20:00 is too close: the next day, still 20:00 local
    at_noon = datetime(2026, 3, 29, 12, 0, tzinfo=zone).timestamp()
    due = datetime.fromtimestamp(next_daily(at_noon, "20:00", "Europe/Berlin"), tz=zone)
    assert (due.day, due.hour) == (29, 20)


async def test_daily_deadlines_and_vacations(env) -> None:  # type: ignore[no-untyped-def]
    from app.deadlines import next_daily

    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service, daily_at="20:00", timezone="Europe/Moscow", vacation_days=3)
    row = await deadlines.arm(game_id)
    assert row is not None
    assert row.due_at == pytest.approx(next_daily(row.opened_at, "20:00", "Europe/Moscow"))
    house = (await service.load(game_id)).prompts()[0].house
    player = (await store.seats(game_id))[house]
    until = (await service.execute(Vacation(game_id=game_id, by=player, days=2))).until
    assert (await deadlines.table.get(game_id)).due_at == pytest.approx(until)  # type: ignore[union-attr]
    with pytest.raises(ServiceError) as err:
        await service.execute(Vacation(game_id=game_id, by=player, days=2))  # only 1 day of the allowance is left
    assert err.value.code == "vacation-allowance" and err.value.params["left"] == "1"


def test_every_prompt_kind_has_a_deadline_category_and_a_form() -> None:
    """A kind the engine declares cannot fall silently into "other" or reach a player without a form."""
    assert set(CATEGORY_OF_KIND) == set(PromptKind)
    assert set(BUILDERS) == set(PromptKind)


def test_a_house_card_ability_waits_as_long_as_the_battle_and_a_tie_as_long_as_the_bid() -> None:
    """Tyrion's cancel is asked inside a battle: the battle's duration applies, not "other" (it did before)."""
    g, kind = mid_ability()
    assert {p.kind for p in g.prompts()} == {kind} and category(g) == DeadlineCategory.BATTLE
    tie = Game.from_scenario({"players": 3, "round": 4, "start": {"clash": "iron_throne"}})
    for p in [p for p in tie.prompts() if p.kind == "bid"]:
        tie.act(p.house, 0)
    assert {p.kind for p in tie.prompts()} == {"tie-order"} and category(tie) == DeadlineCategory.BIDS


@pytest.mark.several_processes
async def test_two_processes_sweeping_fire_each_deadline_once(database: Path | str) -> None:
    """Two bots on one database (each its own store, service, scheduler and deadlines) sweep the same overdue
    deadlines at once: every awaited house is answered once, each game's news is written once, the runs of
    missed deadlines count one miss."""
    first, second = await Store.open(database, shared=True), await Store.open(database, shared=True)
    schedulers = [AsyncIOScheduler(), AsyncIOScheduler()]
    try:
        services = [GameService(first), GameService(second)]
        bots = [Deadlines(service, scheduler) for service, scheduler in zip(services, schedulers, strict=True)]
        games = [await new_running_game(services[0], channel=c) for c in range(4)]
        for game_id in games:
            await bots[0].arm(game_id)
        await first.write("UPDATE deadlines SET due_at = ?", (time.time() - 60,))
        fired = await asyncio.gather(bots[0].sweep(), bots[1].sweep(), bots[0].sweep(), bots[1].sweep())
        assert sum(fired) == len(games)  # each deadline fired by exactly one of the sweeps
        for game_id in games:
            houses = (await services[1].load(game_id)).state.players
            log = await first.answers(game_id)
            assert sorted(a.house for a in log) == sorted(houses)  # each house answered once, by the deadline
            assert {a.source for a in log} == {"deadline"}
            news = [n for n in await first.notices(game_id) if n.payload["type"] == "deadline-passed"]
            assert len(news) == 1
            for house in houses:
                assert await first.missed_in_a_row(game_id, house) == 1
    finally:
        await first.close()
        await second.close()


async def test_a_deadline_held_by_a_process_that_died_is_fired_by_another_after_its_lease(
    database: Path | str,
) -> None:
    store = await Store.open(database)
    try:
        service = GameService(store)
        dead = Deadlines(service, AsyncIOScheduler(), lease=0.5)
        alive = Deadlines(GameService(store), AsyncIOScheduler(), lease=0.5)
        game_id = await new_running_game(service)
        row = await dead.arm(game_id)
        assert row is not None
        await store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() - 1, game_id))
        # The first process claims the deadline and dies before answering anything.
        assert await dead.table.claim(game_id, row.step_key, now=time.time(), lease=0.5)
        assert await alive.sweep() == 0  # held: nobody else fires it
        assert await store.answers(game_id) == []
        await asyncio.sleep(0.6)
        assert await alive.sweep() == 1  # the lease ran out
        assert len(await store.answers(game_id)) == 3
        assert await alive.sweep() == 0  # and it fires once
    finally:
        await store.close()


async def test_a_reminder_goes_out_once_whichever_process_sends_it(database: Path | str) -> None:
    store = await Store.open(database)
    try:
        services = [GameService(store), GameService(store)]
        notes = [Recorder(store), Recorder(store)]
        bots = [Deadlines(s, AsyncIOScheduler(), notify=n) for s, n in zip(services, notes, strict=True)]
        game_id = await new_running_game(services[0])
        row = await bots[0].arm(game_id)
        assert row is not None
        await asyncio.gather(*(bot.remind(game_id, row.step_key, "half") for bot in bots for _ in range(2)))
        assert sum(len(n.reminders) for n in notes) == 1
        # An extension moves the deadline: its reminders are due again.
        await services[1].execute(Extend(game_id=game_id, by=9, seconds=3600))
        await bots[1].remind(game_id, row.step_key, "half")
        assert sum(len(n.reminders) for n in notes) == 2
    finally:
        await store.close()


async def test_the_first_deadline_is_in_the_starts_commit_and_a_pause_right_after_it_pauses_it(env) -> None:  # type: ignore[no-untyped-def]
    """Issue X: the first step's deadline was armed after the start committed, so a moderator's pause in between left
    it running (and a crash there left the first step without one). It is written in the start's commit: a pause
    made before anything else follows the start (here, while the table is shown the seats) finds and pauses it."""
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await service.create(
        guild_id=1, channel_id=1, creator=1, name="g", settings=GameSettings(players=3, seed=3)
    )
    for user in range(1, 4):
        await service.execute(Join(game_id=game_id, by=user))
    seen: list[Any] = []

    async def paused_at_once(_game: Any, _seats: Any) -> None:
        seen.append(await deadlines.table.get(game_id))
        await service.execute(Pause(game_id=game_id, by=9))

    await service.execute(Start(game_id=game_id, announce=paused_at_once))
    assert seen and seen[0] is not None and seen[0].paused_remaining is None  # committed with the start
    row = await deadlines.table.get(game_id)
    assert row is not None and row.paused_remaining == pytest.approx(seen[0].due_at - time.time(), abs=2)
    assert scheduler.get_job(f"deadline:{game_id}") is None  # nothing runs while the game is paused
    await service.execute(Resume(game_id=game_id, by=9))
    assert scheduler.get_job(f"deadline:{game_id}") is not None
