"""Houses chosen in the lobby, through the fake Discord: the menu of houses still free under the line that says what
it is for, a pick, a change, a conflict, a player leaving, the start dealing the rest; the base game and Mother of
Dragons (Targaryen with 4 players, all eight houses with 8, no Targaryen with 3), in English and in Russian."""

from __future__ import annotations

from typing import Any

import pytest

from app.commands import PickHouse
from app.labels import house_mark
from engine import rulesets
from testing.fake_discord import StoredMessage
from tests.bot.conftest import Table

pytestmark = pytest.mark.slow

MENU = "lobby:1:house"
WESTEROS = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
EVERY_HOUSE = [*WESTEROS, "targaryen"]


def menu(message: StoredMessage) -> dict[str, Any]:
    """The lobby's house menu: in the first row, right under the message's text."""
    first = message.components[0]["components"][0]
    assert first["custom_id"] == MENU and first["type"] == 3
    return dict(first)


def offered(message: StoredMessage) -> list[str]:
    return [str(o["value"]) for o in menu(message)["options"]]


def ids_shown(text: str) -> list[str]:
    """House ids in a text a player reads (a lobby is written with names only)."""
    return [h for h in EVERY_HOUSE if h in text]


async def new_lobby(table: Table, **options: Any) -> StoredMessage:
    made = await table.fake.slash(table.moderator, table.channel, "game new", name="Test", **options)
    return await made.wait_response()


async def pick(table: Table, member: Any, lobby: StoredMessage, house: str) -> tuple[StoredMessage, str]:
    """``member`` chooses ``house`` in the lobby's menu: the lobby as it was redrawn, and the note only he sees."""
    chosen = await table.fake.select(member, lobby, MENU, [house])
    await chosen.wait_followups(1)
    note = chosen.followups[-1]
    assert note.flags & 64 and note.pings == []
    return table.fake.world.messages[lobby.id], note.content


async def join(table: Table, lobby: StoredMessage, members: list[Any]) -> None:
    for member in members:
        await (await table.fake.click(member, lobby, "lobby:1:join")).wait_followups(1)


async def test_base_game_pick_change_conflict_leave_and_start(table: Table) -> None:
    fake = table.fake
    p = table.players
    lobby = await new_lobby(table, players=4)
    houses = rulesets.named("base").houses_for(4)
    text = lobby.content
    assert "base game · 4 players" in text and "Seats (0/4):" in text and "nobody yet" in text
    assert text.splitlines()[-1].startswith("**Your house:** choose it in the menu below")  # the words over the menu
    assert offered(lobby) == [*houses, "deal"] and menu(lobby)["placeholder"] == "Choose your house"
    assert [o["label"] for o in menu(lobby)["options"]][:4] == ["Stark", "Greyjoy", "Lannister", "Baratheon"]
    assert lobby.pings == [] and ids_shown(text) == []

    # Only a player in the lobby chooses.
    stranger = await fake.select(p[0], lobby, MENU, ["lannister"])
    assert "Join the game first" in (await stranger.wait_followups(1))[-1].content
    await join(table, lobby, p[:4])

    lobby, note = await pick(table, p[0], lobby, "lannister")
    assert note == f"You chose {house_mark('lannister', 'en')} in Test." and "🟥 Lannister" in note
    assert f"• <@{p[0].id}> — {house_mark('lannister', 'en')}" in lobby.content and "lannister" not in offered(lobby)
    assert f"• <@{p[1].id}> — a house dealt at the start" in lobby.content
    # Choosing again changes the pick: Lannister is free again.
    lobby, note = await pick(table, p[0], lobby, "stark")
    assert house_mark("stark", "en") in note and "lannister" in offered(lobby) and "stark" not in offered(lobby)

    # Another player's pick lands first (its lobby not yet redrawn): the same house is refused, and the lobby is
    # drawn again with what was chosen.
    await table.service.execute(PickHouse(game_id=1, by=p[1].id, house="greyjoy"))
    assert "greyjoy" in offered(lobby)
    late = await fake.select(p[2], lobby, MENU, ["greyjoy"])
    refusal = (await late.wait_followups(1))[-1]
    assert "Another player has already chosen that house" in refusal.content and refusal.flags & 64
    lobby = fake.world.messages[lobby.id]
    assert "greyjoy" not in offered(lobby) and f"• <@{p[1].id}> — {house_mark('greyjoy', 'en')}" in lobby.content

    # Leaving frees the house; joining again comes without it. "No preference" lets the start deal it.
    await (await fake.click(p[0], lobby, "lobby:1:leave")).wait_followups(1)
    lobby = fake.world.messages[lobby.id]
    assert "stark" in offered(lobby) and f"<@{p[0].id}>" not in lobby.content
    await join(table, lobby, [p[0]])
    lobby, _ = await pick(table, p[3], lobby, "baratheon")
    lobby, note = await pick(table, p[3], lobby, "deal")
    assert note == "Your house in Test will be dealt at the start." and "baratheon" in offered(lobby)
    lobby, _ = await pick(table, p[2], lobby, "stark")

    started = await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    assert "The game has started (base game)" in started.content and started.components == []
    seats = await table.service.seats(1)
    assert sorted(seats) == sorted(houses)
    assert seats["greyjoy"] == p[1].id and seats["stark"] == p[2].id
    assert {seats["lannister"], seats["baratheon"]} == {p[0].id, p[3].id}
    channel = [m for m in fake.transcript if m.channel_id == table.channel.id]
    assert all(m.pings == [] for m in channel)  # the lobby and every answer to it ping nobody
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_mother_of_dragons_in_russian_with_targaryen_chosen(table: Table) -> None:
    fake = table.fake
    russians = [fake.add_member(table.guild, f"ru{i}", locale="ru") for i in range(4)]
    lobby = await new_lobby(table, players=4, ruleset="mother-of-dragons", language="ru", targaryen_cards="b")
    text = lobby.content
    assert "«Мать драконов» · игроков: 4" in text and "Карты дома Таргариенов: набор B" in text
    assert "Дома Вестероса, за которые никто не играет, становятся вассалами (Таргариены — никогда)." in text
    assert text.splitlines()[-1].startswith("**Ваш дом:** выберите его в меню ниже")
    assert offered(lobby) == [*EVERY_HOUSE, "deal"] and menu(lobby)["placeholder"] == "Выберите дом"
    targaryen = next(o for o in menu(lobby)["options"] if o["value"] == "targaryen")
    assert targaryen["label"] == "Таргариен" and targaryen["description"] == "В игру входят Эссос и драконы"
    await join(table, lobby, russians)
    lobby, note = await pick(table, russians[1], lobby, "targaryen")
    mark = house_mark("targaryen", "ru")
    assert note == f"Ваш дом в игре Test: {mark}." and mark.endswith(" Таргариен")
    assert f"• <@{russians[1].id}> — {mark}" in lobby.content
    assert f"• <@{russians[0].id}> — дом выдадут при старте" in lobby.content and "Места (4/4):" in lobby.content
    assert ids_shown(lobby.content) == [] and "targaryen" not in offered(lobby)

    started = await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    assert "Игра началась («Мать драконов»)" in started.content
    game = await table.service.load(1)
    seats = await table.service.seats(1)
    assert seats["targaryen"] == russians[1].id and len(seats) == 4
    assert "targaryen" not in game.state.vassals and len(game.state.vassals) == 4
    options = game.view(None)["options"]
    assert options["board"] == "mother-of-dragons-essos" and options["targaryen_cards"] == "b"
    # Issue U, fault 8: the pinned status, where the table looks for who is awaited, names the ruleset and the vassals.
    await table.bot.play.publisher.settled()
    await fake.wait_until(
        lambda: any(m.pinned for m in fake.transcript if m.channel_id == table.channel.id), timeout=10
    )
    status = next(m for m in fake.transcript if m.channel_id == table.channel.id and m.pinned)
    await fake.wait_until(lambda: "«Мать драконов»" in status.content, timeout=10)
    vassals = next(line for line in status.content.splitlines() if line.startswith("Вассалы: "))
    assert all(house_mark(h, "ru") in vassals for h in game.state.vassals)
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_mother_of_dragons_eight_players_hold_every_house(table: Table) -> None:
    fake = table.fake
    members = [*table.players, fake.add_member(table.guild, "p6"), fake.add_member(table.guild, "p7")]
    lobby = await new_lobby(table, players=8, ruleset="mother-of-dragons")
    assert "Mother of Dragons · 8 players" in lobby.content and "vassals" not in lobby.content
    assert "Targaryen's house cards: set A" in lobby.content
    await join(table, lobby, members)
    lobby, _ = await pick(table, members[7], lobby, "targaryen")
    lobby, _ = await pick(table, members[0], lobby, "arryn")
    started = await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    assert "Vassals" not in started.content
    game = await table.service.load(1)
    seats = await table.service.seats(1)
    assert sorted(seats) == sorted(EVERY_HOUSE) and game.state.vassals == {}
    assert seats["targaryen"] == members[7].id and seats["arryn"] == members[0].id
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_three_players_of_mother_of_dragons_and_the_base_games_count(table: Table) -> None:
    fake = table.fake
    # The base game is played by 3 to 6: seven players are refused in the asker's language, and nothing is stored.
    for member, words in ((table.moderator, "7 or 8 players need Mother of Dragons"), (None, "«Мать драконов»")):
        asker = member or fake.add_member(table.guild, "ru-host", locale="ru")
        refused = await (await fake.slash(asker, table.channel, "game new", players=7)).wait_response()
        assert words in refused.content and refused.flags & 64
    assert await table.service.game_in(table.channel.id) is None

    lobby = await new_lobby(table, players=3, ruleset="mother-of-dragons")
    assert offered(lobby) == [*WESTEROS, "deal"]  # no Targaryen with three players
    assert "Targaryen" not in lobby.content and "Houses of Westeros nobody plays become vassals" in lobby.content
    await join(table, lobby, table.players[:3])
    lobby, _ = await pick(table, table.players[2], lobby, "tyrell")
    await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    game = await table.service.load(1)
    seats = await table.service.seats(1)
    assert seats["tyrell"] == table.players[2].id and "targaryen" not in game.houses
    assert game.view(None)["options"]["board"] == "mother-of-dragons"
    assert fake.failed_interactions == [] and fake.internal_errors == []
