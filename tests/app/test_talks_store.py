"""The talks' store (issue 40) on SQLite and PostgreSQL: one thread per game and unordered pair of houses, kept
across a restart, the first thread kept when two race, moved when its thread is gone, and removed with its game; and
who may talk to whom (app/talks.py) on a real game."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.commands import Join, SetSeat, Start
from app.messages import error_text
from app.service import GameService, GameSettings, ServiceError
from app.store import GameRow, Store
from app.talks import ask_talk, talk_members
from cogs.text import shown


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def started(service: GameService, players: int = 3, **settings: object) -> int:
    game_id = await service.create(
        guild_id=1,
        channel_id=10,
        creator=100,
        name="talks",
        settings=GameSettings(players=players, seed=5, **settings),  # type: ignore[arg-type]
    )
    for user in range(100, 100 + players):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


async def test_a_pair_has_one_thread_whichever_house_asks_and_it_survives_a_restart(database: Path | str) -> None:
    store = await Store.open(database)
    game_id = await store.create_game(guild_id=1, channel_id=2, name="g", created_by=3, settings={})
    other_game = await store.create_game(guild_id=1, channel_id=4, name="h", created_by=3, settings={})
    assert await store.talk(game_id, "stark", "lannister") is None
    opened = await store.open_talk(game_id, "stark", "lannister", 555)
    assert opened.houses == ("lannister", "stark") and opened.thread_id == 555
    assert opened.other("stark") == "lannister" and opened.other("lannister") == "stark"
    raced = await store.open_talk(game_id, "lannister", "stark", 666)  # the other side, a moment later
    assert raced.thread_id == 555
    await store.open_talk(game_id, "stark", "greyjoy", 777)
    await store.open_talk(other_game, "stark", "lannister", 888)  # another game's pair is another talk
    await store.close()

    again = await Store.open(database)
    assert (await again.talk(game_id, "lannister", "stark")).thread_id == 555  # type: ignore[union-attr]
    assert [t.houses for t in await again.talks_of(game_id)] == [("greyjoy", "stark"), ("lannister", "stark")]
    assert [t.thread_id for t in await again.talks_of(game_id, "lannister")] == [555]
    await again.move_talk(game_id, "stark", "lannister", 999)
    assert (await again.talk(game_id, "stark", "lannister")).thread_id == 999  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        await again.open_talk(game_id, "stark", "stark", 1)
    assert await again.delete_game(game_id)
    assert await again.talks_of(game_id) == []  # the game's talks go with it
    assert len(await again.talks_of(other_game)) == 1
    await again.close()


async def test_who_may_talk_to_whom(service: GameService) -> None:
    game_id = await started(service, 3)
    row = await service.row(game_id)
    seats = await service.seats(game_id)
    by_user = {user: house for house, user in seats.items() if user is not None}
    first, second, _ = sorted(by_user)
    asked = await ask_talk(service, row, first, by_user[second].upper())
    assert asked.house == by_user[first] and asked.other == by_user[second]
    assert asked.members == {first, second}
    markup = await refused_text(service, row, first, "**x** <@&123456789012345678>")
    assert "\\*\\*x\\*\\*" in markup and "<@&123456789012345678>" not in markup  # shown as typed, pinging none
    assert "@\u200beveryone" in await refused_text(service, row, first, "@everyone")
    markup = await refused_text(service, row, first, "Tyrell" * 50)
    assert len(markup) < 120  # the option is cut to 32 characters before it is echoed
    own_house = await refused_text(service, row, first, by_user[first], lang="ru")
    assert "ваш дом" in own_house
    for user, value, code in [
        (first, by_user[first], "talk-self"),
        (999, by_user[first], "not-seated-here"),  # a spectator, or a moderator who does not play
        (first, "tyrell", "talk-no-such-house"),  # three players: Tyrell does not play
        (first, "<@&1> **x**" * 10, "talk-no-such-house"),
    ]:
        with pytest.raises(ServiceError) as refused:
            await ask_talk(service, row, user, value)
        assert refused.value.code == code, (user, value)
        assert len(str(refused.value.params.get("value", ""))) <= 32


async def refused_text(service: GameService, row: GameRow, user: int, value: str, *, lang: str = "en") -> str:
    """The sentence a member is shown when ``ask_talk`` refuses him, escaped as the bot escapes it."""
    with pytest.raises(ServiceError) as refused:
        await ask_talk(service, row, user, value)
    return error_text(refused.value, lang, literal=lambda text: shown(text, 300))


async def test_the_thread_follows_the_seat(service: GameService) -> None:
    game_id = await started(service, 3)
    seats = await service.seats(game_id)
    houses = sorted(seats)
    talk = await service.store.open_talk(game_id, houses[0], houses[1], 42)
    assert await talk_members(service, await service.row(game_id), talk) == {seats[houses[0]], seats[houses[1]]}
    await service.execute(SetSeat(game_id=game_id, by=100, key="replace", house=houses[0], user_id=555, new=True))
    assert await talk_members(service, await service.row(game_id), talk) == {555, seats[houses[1]]}


@pytest.mark.parametrize("mode", ["none", "channel-only"])
async def test_a_table_without_private_talks_refuses(service: GameService, mode: str) -> None:
    game_id = await started(service, 3, talk=mode)
    seats = await service.seats(game_id)
    houses = sorted(seats)
    with pytest.raises(ServiceError) as refused:
        await ask_talk(service, await service.row(game_id), seats[houses[0]] or 0, houses[1])
    assert refused.value.code == f"talk-{mode}"
