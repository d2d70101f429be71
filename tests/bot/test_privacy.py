"""``/privacy show`` and ``/privacy forget`` through the fake Discord (issue O), in English and Russian: a member sees
what is kept about him, is refused forgetting while he plays a running game (told to have a moderator replace him),
and once the game has ended is forgotten: no table of the database holds his id any more."""

from __future__ import annotations

from typing import Any

from app.commands import End
from tests.app.test_privacy import traces_of
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


async def test_a_player_sees_what_is_kept_and_is_forgotten_once_his_game_ends(table: Table) -> None:
    fake = table.fake
    player: Any = table.players[0]
    game_id = await start_game(table, 3)
    house = next(h for h, u in (await table.service.store.seats(game_id)).items() if u == player.id)
    shown = await (await fake.slash(player, table.channel, "privacy show")).wait_response()
    assert shown.flags & 64  # only he sees it
    assert "What the bot keeps about you" in shown.content
    assert f"Seats: Test: {house.title()}, running" in shown.content and "Your Discord language" in shown.content
    assert "go 180 days after it ends" in shown.content

    ask = await (await fake.slash(player, table.channel, "privacy forget")).wait_response()
    assert "Forget you?" in ask.content and ask.flags & 64
    refused = await (await fake.click(player, ask, "privacy:forget")).wait_reply()
    assert any("ask a moderator to replace you there (/mod replace)" in m.content for m in refused)
    assert await traces_of(table.service.store, player.id)  # nothing was removed

    await table.service.execute(End(game_id=game_id, by=table.moderator.id, key="end"))  # type: ignore[attr-defined]
    done = await (await fake.click(player, ask, "privacy:forget")).wait_response()
    assert "keeps nothing about you any more" in done.content
    assert await traces_of(table.service.store, player.id) == {}
    seats = await table.service.store.seats(game_id)
    assert seats[house] is None and sum(u is not None for u in seats.values()) == 2  # the others keep theirs
    again = await (await fake.slash(player, table.channel, "privacy show")).wait_response()
    assert again.content == "The bot keeps nothing about you."
    assert await traces_of(table.service.store, player.id) == {}  # asking did not record him again
    assert fake.failed_interactions == []


async def test_privacy_in_russian(table: Table) -> None:
    fake = table.fake
    player: Any = table.players[1]
    player.user.locale = "ru"  # this player uses Discord in Russian
    game_id = await start_game(table, 3)
    house = next(h for h, u in (await table.service.store.seats(game_id)).items() if u == player.id)
    shown = await (await fake.slash(player, table.channel, "privacy show")).wait_response()
    assert "Что бот хранит о вас" in shown.content and "Места в играх: Test:" in shown.content
    assert ", идёт" in shown.content and "через 180 дн. после её окончания" in shown.content
    assert house.title() not in shown.content  # the house is named in Russian
    ask = await (await fake.slash(player, table.channel, "privacy forget")).wait_response()
    assert "Забыть вас?" in ask.content
    refused = await (await fake.click(player, ask, "privacy:forget")).wait_reply()
    assert any("попросите модератора заменить вас там (/mod replace)" in m.content for m in refused)
    await table.service.execute(End(game_id=game_id, by=table.moderator.id, key="end"))  # type: ignore[attr-defined]
    done = await (await fake.click(player, ask, "privacy:forget")).wait_response()
    assert "Готово: бот больше ничего о вас не хранит." in done.content
    assert await traces_of(table.service.store, player.id) == {}
    stranger = fake.add_member(table.guild, "stranger-ru", locale="ru")
    nothing = await (await fake.slash(stranger, table.channel, "privacy show")).wait_response()
    assert nothing.content == "Бот ничего о вас не хранит."
    assert fake.failed_interactions == []
