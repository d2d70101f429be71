"""What the bot keeps about a member, and ``forget_member`` removing all of it (issue O, /privacy): after it, a scan of
every table of the database's own catalogue, every column, finds nothing holding the member's id; the games'
history stays, anonymous. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.commands import Answer, End, Join, Pause, PickHouse, Resume, SetSeat, Start
from app.service import GameService, GameSettings, ServiceError
from app.store import Store

MEMBER = 731_234_567_890_123_456  # a Discord id: long enough that its digits match nothing else
OTHERS = (731_000_000_000_000_001, 731_000_000_000_000_002, 731_000_000_000_000_003)


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def tables_and_columns(store: Store) -> dict[str, list[str]]:
    """Every table of the database and its columns, from the database's own catalogue."""
    db = store.db
    if db.dialect == "sqlite":
        names = [str(r[0]) for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: [str(c[1]) for c in await db.fetchall(f'PRAGMA table_info("{n}")')] for n in names}
    rows = await db.fetchall(
        "SELECT c.table_name, c.column_name FROM information_schema.columns c"
        " JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
        " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.ordinal_position"
    )
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(str(table), []).append(str(column))
    return found


async def traces_of(store: Store, user_id: int) -> dict[str, int]:
    """table.column -> how many rows hold the id anywhere in their text (a number, a JSON string, a mention)."""
    found = {}
    for table, columns in (await tables_and_columns(store)).items():
        for column in columns:
            row = await store.db.fetchone(
                f'SELECT count(*) FROM "{table}" WHERE CAST("{column}" AS TEXT) LIKE ?', (f"%{user_id}%",)
            )
            assert row is not None
            if int(row[0]):
                found[f"{table}.{column}"] = int(row[0])
    return found


async def new_game(service: GameService, channel: int, creator: int, players: tuple[int, ...]) -> int:
    game_id = await service.create(
        guild_id=1,
        channel_id=channel,
        creator=creator,
        name=f"game {channel}",
        settings=GameSettings(players=3, seed=5),
    )
    for user in players:
        await service.execute(Join(game_id=game_id, by=user))
    return game_id


async def answer_all(service: GameService, game_id: int) -> None:
    game = await service.load(game_id)
    seats = await service.store.seats(game_id)
    for prompt in game.prompts():
        await service.execute(
            Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house])
        )


async def test_forget_leaves_no_trace_of_the_member_and_keeps_the_games(service: GameService) -> None:
    store = service.store
    # A game he plays and moderates (paused and resumed: his commands and their audit lines).
    played = await new_game(service, 10, MEMBER, (MEMBER, *OTHERS[:2]))
    await service.execute(Start(game_id=played))
    await answer_all(service, played)
    await service.execute(Pause(game_id=played, by=MEMBER, key="pause"))
    await service.execute(Resume(game_id=played, by=MEMBER, key="resume"))
    await store.add_notices(played, [{"key": "mod.did.pause", "params": {"member": f"<@{MEMBER}>"}}])
    await store.write(
        "INSERT INTO command_queue (game_id, payload, enqueued_at, done_at) VALUES (?, ?, ?, ?)",
        (played, f'{{"type": "answer", "by": {MEMBER}}}', time.time(), time.time()),
    )
    # A game he left (replaced): still running, his id in its first snapshot and answers.
    left = await new_game(service, 11, OTHERS[0], (MEMBER, *OTHERS[:2]))
    await service.execute(Start(game_id=left))
    await answer_all(service, left)
    his_house = next(h for h, u in (await store.seats(left)).items() if u == MEMBER)
    await service.execute(SetSeat(game_id=left, by=OTHERS[2], key="swap", house=his_house, user_id=OTHERS[2], new=True))
    # A lobby he made and joined, with a house picked.
    lobby = await new_game(service, 12, MEMBER, (MEMBER,))
    await service.execute(PickHouse(game_id=lobby, by=MEMBER, house="stark"))
    await store.set_locale(MEMBER, "ru")
    await store.set_dm_closed(MEMBER, True)
    await store.set_locale(OTHERS[1], "en")

    kept = await service.member_data(MEMBER)
    assert [(s.game_id, s.status) for s in kept.seats] == [(played, "running")]
    assert kept.answers >= 2 and kept.first_answer_at is not None and kept.last_answer_at is not None
    assert (kept.locale, kept.dm_closed, kept.lobby) == ("ru", True, [("game 12", "stark")])

    # Seated in a running game: refused, with its name, and nothing changes.
    with pytest.raises(ServiceError) as refused:
        await service.forget_member(MEMBER)
    assert refused.value.code == "forget-seated" and refused.value.params == {"name": "game 10"}
    assert await service.member_data(MEMBER) == kept

    await service.execute(End(game_id=played, by=OTHERS[0], key="end"))
    others_before = {u: await service.member_data(u) for u in OTHERS}
    answers_before = len(await store.answers(played))
    assert await traces_of(store, MEMBER)  # the scan does see him while he is kept

    await service.forget_member(MEMBER)

    assert await traces_of(store, MEMBER) == {}
    assert (await service.member_data(MEMBER)).empty
    # The games' history stays: his house in the ended game is empty, its answers all there; the others untouched.
    seats = await store.seats(played)
    assert sorted(u for u in seats.values() if u is not None) == sorted(OTHERS[:2]) and None in seats.values()
    assert len(await store.answers(played)) == answers_before
    assert (await service.load(played)).version > 0 and (await service.load(left)).version > 0
    assert {u: await service.member_data(u) for u in OTHERS} == others_before
    assert await store.locale(OTHERS[1]) == "en"
    assert await store.lobby(lobby) == []
    await service.forget_member(MEMBER)  # asked again: nothing more to do, no error
