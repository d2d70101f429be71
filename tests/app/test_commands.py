"""Every change is a typed command applied by ``GameService.execute``: each command has its path, a command given
twice with the same key acts once, and the notices a command implies are written in its own transaction."""

from __future__ import annotations

from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

import app.commands as commands_module
from app.commands import Answer, Command, End, Export, Extend, ModeratorCommand, Pause, Resume, SetSeat, Vacation
from app.deadlines import Deadlines
from app.notices import from_payload, notice_text
from app.service import GameService, ServiceError
from app.store import Store
from tests.app.test_deadlines import new_running_game


@pytest.fixture
async def table(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    scheduler = AsyncIOScheduler()
    scheduler.start()
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    yield store, service, deadlines
    scheduler.shutdown(wait=False)
    await store.close()


def every_command() -> list[type[Command]]:
    found = [c for c in vars(commands_module).values() if isinstance(c, type) and issubclass(c, Command)]
    return [c for c in found if c not in (Command, ModeratorCommand)]


REQUIRED = {"house": "stark", "answer": None, "to": "lannister", "amount": 1, "user_id": 5, "seconds": 60.0,
            "days": 1.0}  # fmt: skip


async def test_every_command_has_a_path_in_execute(table) -> None:  # type: ignore[no-untyped-def]
    """Each command reaches its handler: for a game that does not exist, every one is refused as such (a command
    nobody routes would raise TypeError instead)."""
    import dataclasses

    _, service, _ = table
    assert len(every_command()) >= 17
    for kind in every_command():
        required = {f.name: REQUIRED[f.name] for f in dataclasses.fields(kind) if f.name in REQUIRED}
        command = kind(game_id=404, by=1, **required)
        with pytest.raises(ServiceError) as err:
            await service.execute(command)
        assert err.value.code == "no-game", (kind.__name__, err.value.code)


async def test_a_table_command_given_twice_with_one_key_acts_once(table) -> None:  # type: ignore[no-untyped-def]
    store, service, deadlines = table
    game_id = await new_running_game(service)
    await deadlines.arm(game_id)
    due = (await deadlines.table.get(game_id)).due_at
    first = await service.execute(Extend(game_id=game_id, by=9, key="interaction:1", seconds=3600))
    with pytest.raises(ServiceError) as err:
        await service.execute(Extend(game_id=game_id, by=9, key="interaction:1", seconds=3600))
    assert err.value.code == "already-done"
    assert first.until == pytest.approx(due + 3600)
    assert (await deadlines.table.get(game_id)).due_at == pytest.approx(due + 3600)
    assert [n.payload["action"] for n in await store.notices(game_id)] == ["extend"]
    # Another key is another command; a shortening reads with a true minus sign.
    await service.execute(Extend(game_id=game_id, by=9, key="interaction:2", seconds=-1800))
    assert (await deadlines.table.get(game_id)).due_at == pytest.approx(due + 1800)
    line = notice_text(from_payload((await store.notices(game_id))[-1].payload), "en")
    assert "by \u22120.5 h" in line and "-0.5" not in line


async def test_a_logged_command_given_twice_with_one_key_acts_once(table) -> None:  # type: ignore[no-untyped-def]
    store, service, _ = table
    game_id = await new_running_game(service)
    seats = await store.seats(game_id)
    house = next(iter(seats))
    command = SetSeat(game_id=game_id, by=9, key="message:5", house=house, user_id=seats[house], autopilot=True)
    applied = await service.execute(command)
    with pytest.raises(ServiceError) as err:
        await service.execute(command)
    assert err.value.code == "already-done"
    assert (await service.row(game_id)).version == applied.game.version
    assert [n.payload["action"] for n in await store.notices(game_id)] == ["autopilot-on"]


async def test_a_refused_command_writes_no_notice_and_keeps_no_key(table) -> None:  # type: ignore[no-untyped-def]
    store, service, _ = table
    game_id = await new_running_game(service, vacation_days=1)
    seats = await store.seats(game_id)
    player = next(iter(seats.values()))
    with pytest.raises(ServiceError):
        await service.execute(Vacation(game_id=game_id, by=player, key="interaction:7", days=3))
    assert await store.notices(game_id) == []
    # The key was not used up: the same interaction retried with a legal request is applied.
    done = await service.execute(Vacation(game_id=game_id, by=player, key="interaction:7", days=1))
    assert done.until is not None
    assert [n.payload["type"] for n in await store.notices(game_id)] == ["vacation"]


async def test_pause_and_its_audit_line_are_one_transaction(table) -> None:  # type: ignore[no-untyped-def]
    store, service, _ = table
    game_id = await new_running_game(service)
    await service.execute(Pause(game_id=game_id, by=9, key="interaction:3"))
    assert (await service.row(game_id)).status == "paused"
    notices = await store.notices(game_id)
    assert [(n.payload["action"], n.payload["moderator"]) for n in notices] == [("pause", 9)]
    # A player's answer waits while the game is paused; a moderator's command does not.
    game = await service.load(game_id)
    prompt = game.prompts()[0]
    with pytest.raises(ServiceError) as err:
        await service.execute(
            Answer(game_id=game_id, by=(await store.seats(game_id))[prompt.house], house=prompt.house,
                   answer=prompt.default)
        )  # fmt: skip
    assert err.value.code == "paused"
    await service.execute(Resume(game_id=game_id, by=9))
    await service.execute(Export(game_id=game_id, by=9))
    await service.execute(End(game_id=game_id, by=9))
    assert (await service.row(game_id)).status == "ended"
    assert [n.payload["action"] for n in await store.notices(game_id)] == ["pause", "resume", "export", "end"]


def test_a_notice_reads_in_the_games_language() -> None:
    from app.notices import AuditLine, VacationTaken, from_payload, notice_text, to_payload

    line = from_payload(to_payload(AuditLine(7, "replace", {"member": "<@8>"}, {"house": "stark"})))
    assert notice_text(line, "en") == "🛡 <@7> gave Stark to <@8>."
    assert "Старк" in notice_text(line, "ru")
    forced = AuditLine(7, "force", {}, {"houses": []})
    assert notice_text(forced, "en").endswith("for —.")
    assert "<t:100:f>" in notice_text(VacationTaken("tyrell", 100.0), "en")
