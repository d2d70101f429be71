"""``/mod delete`` (issue O): a moderator removes a game entirely after a confirmation, in English and Russian; a
moderator who holds a house in a running game is refused (never a way out of a game he plays); a second press of
the confirmation changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from app.commands import Delete, End
from app.queries import ServiceError
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


async def rows_of_game(table: Table, game_id: int) -> dict[str, int]:
    """Every table of the database that has a game_id column (or is the games table): how many rows it holds of
    the game, read from the database's own catalogue."""
    store = table.service.store
    db = store.db
    if db.dialect == "sqlite":
        names = [str(r[0]) for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = {n: [str(c[1]) for c in await db.fetchall(f"PRAGMA table_info({n})")] for n in names}
    else:
        rows = await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        )
        columns = {}
        for table_name, column in rows:
            columns.setdefault(str(table_name), []).append(str(column))
    counts: dict[str, int] = {}
    for name, cols in columns.items():
        key = "id" if name == "games" else "game_id" if "game_id" in cols else None
        if key is None:
            continue
        row = await db.fetchone(f"SELECT count(*) FROM {name} WHERE {key} = ?", (game_id,))
        assert row is not None
        counts[name] = int(row[0])
    return counts


async def test_a_moderator_deletes_an_ended_game_after_confirming(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    await table.service.execute(End(game_id=game_id, by=table.moderator.id, key="end"))  # type: ignore[attr-defined]
    before = await rows_of_game(table, game_id)
    assert before["games"] == 1 and before["seats"] == 3 and before["commands"] == 1
    refused = await (await fake.slash(table.players[0], table.channel, "mod delete")).wait_response()
    assert "Only the game's creator" in refused.content
    ask = await (await fake.slash(table.moderator, table.channel, "mod delete")).wait_response()
    assert "Delete the game **Test** (ended)" in ask.content and "cannot be undone" in ask.content
    assert ask.flags & 64  # only the moderator sees the question
    assert await table.service.store.game(game_id) is not None  # asking deletes nothing
    done = await (await fake.click(table.moderator, ask, f"moddelete:{game_id}")).wait_response()
    assert "is deleted" in done.content
    assert await table.service.store.game(game_id) is None
    assert set((await rows_of_game(table, game_id)).values()) == {0}  # not a row left in any table
    # The confirmation pressed again (a retried interaction, another moderator's copy): nothing more happens; nothing
    # of the game is left to tell it from a game that never was, so it is told as any command on a missing game.
    with pytest.raises(ServiceError) as again:
        await table.service.execute(Delete(game_id=game_id, by=table.moderator.id, key="message:1"))  # type: ignore[attr-defined]
    assert again.value.code == "no-game"
    assert fake.failed_interactions == []


async def test_a_seated_moderator_may_not_delete_a_running_game_in_russian(table: Table) -> None:
    fake = table.fake
    moderator: Any = table.moderator
    moderator.user.locale = "ru"  # this moderator uses Discord in Russian
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    house = next(iter(seats))
    await table.service.store.write("UPDATE seats SET user_id = ? WHERE game_id = ? AND house = ?",
                                    (moderator.id, game_id, house))  # fmt: skip
    table.service.store.forget(game_id)
    refused = await (await fake.slash(moderator, table.channel, "mod delete")).wait_response()
    assert "удалить её можно только после её окончания" in refused.content
    assert await table.service.store.game(game_id) is not None
    # Another moderator (the server's) may: he plays no house here. Russian too.
    other = fake.add_member(table.guild, "mod2", manage_guild=True, locale="ru")
    ask = await (await fake.slash(other, table.channel, "mod delete")).wait_response()
    assert "Удалить игру **Test** (идёт)" in ask.content
    done = await (await fake.click(other, ask, f"moddelete:{game_id}")).wait_response()
    assert "удалена" in done.content
    assert set((await rows_of_game(table, game_id)).values()) == {0}
    assert table.bot.deadlines is not None and await table.bot.deadlines.table.get(game_id) is None
    assert fake.failed_interactions == []
