"""Private talks between houses through the fake Discord (issue 40): ``/game talk`` opens a private thread of two
houses' players that nobody else reads, brings it back when asked again, follows the seats (a replace, its undo), and
opens to every player (locked) or stays private (archived) at the end; refusals in the member's language."""

from __future__ import annotations

import re
from typing import Any, cast

from app.commands import End, Undo
from testing.fake_discord import FakeChannel, FakeDiscordError, FakeMember, StoredMessage
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game

THREAD_MENTION = re.compile(r"<#(\d+)>")


def game_channel(table: Table) -> FakeChannel:
    return cast(FakeChannel, table.channel)


def player(table: Table, index: int) -> FakeMember:
    return cast(FakeMember, table.players[index])


def moderator(table: Table) -> FakeMember:
    return cast(FakeMember, table.moderator)


async def talk(table: Table, member: Any, house: str, *, locale: str | None = None) -> StoredMessage:
    """What ``member`` is answered (ephemeral) to ``/game talk house:<house>``."""
    asked = await table.fake.slash(member, game_channel(table), "game talk", locale=locale, house=house)
    answered = await asked.wait_reply()
    reply = answered[-1]
    assert reply.ephemeral_for == member.id and reply.pings == []
    return reply


def thread_of(table: Table, reply: StoredMessage) -> FakeChannel:
    found = THREAD_MENTION.search(reply.content)
    assert found is not None, reply.content
    return table.fake.world.channels[int(found.group(1))]


def reads(table: Table, member: Any, thread: FakeChannel) -> list[str]:
    """The messages of ``thread`` that ``member`` sees."""
    return [m.content for m in table.fake.messages_in(thread) if table.fake.world.can_see(member.user, m)]


async def seated(table: Table, game_id: int) -> dict[str, FakeMember]:
    seats = await table.service.store.seats(game_id)
    everyone = [player(table, i) for i in range(len(table.players))]
    return {house: next(p for p in everyone if p.id == user) for house, user in seats.items()}


async def test_two_players_talk_privately_and_the_same_command_brings_the_thread_back(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, third = sorted(players)
    spectator = player(table, 5)
    reply = await talk(table, players[first], second)
    thread = thread_of(table, reply)
    assert thread.type == 12 and thread.invitable is False and thread.parent_id == game_channel(table).id
    assert thread.thread_members == {fake.bot_user.id, players[first].id, players[second].id}
    assert "↔" in str(thread.name) and first.title() in str(thread.name) and second.title() in str(thread.name)
    opening = fake.messages_in(thread)[0]
    assert opening.pings == [] and "Manage Threads" in opening.content

    fake.say(players[first], thread, "Support me into the Reach?")
    fake.say(players[second], thread, "If you stay out of Winterfell.")
    for member in (players[first], players[second]):
        assert reads(table, member, thread)[1:] == ["Support me into the Reach?", "If you stay out of Winterfell."]
    for outsider in (players[third], spectator, moderator(table)):  # the moderator holds Manage Server, not Threads
        assert not fake.world.can_view_channel(outsider.user, thread)
        assert reads(table, outsider, thread) == []
        try:
            fake.say(outsider, thread, "let me in")
            raise AssertionError(f"{outsider} posted in a private talk")
        except FakeDiscordError:
            pass

    again = await talk(table, players[second], first)  # the other side asks: the same thread, nothing new
    assert thread_of(table, again).id == thread.id
    threads = [c for c in fake.world.channels.values() if c.is_thread and c.type == 12]
    assert threads == [thread]
    assert [t.thread_id for t in await table.service.store.talks_of(game_id)] == [thread.id]
    assert fake.failed_interactions == [] and fake.unsupported_requests == [] and fake.internal_errors == []


async def test_a_replace_moves_the_talks_and_its_undo_moves_them_back(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, third = sorted(players)
    thread = thread_of(table, await talk(table, players[first], second))
    other = thread_of(table, await talk(table, players[first], third))
    fake.say(players[first], thread, "Our pact holds.")
    newcomer = player(table, 5)
    former = players[first]
    await (
        await fake.slash(moderator(table), game_channel(table), "mod replace", house=first, member=newcomer)
    ).wait_response()

    def moved() -> bool:
        return all(newcomer.id in t.thread_members and former.id not in t.thread_members for t in (thread, other))

    await fake.wait_until(moved, timeout=10, what="the talks to follow the seat")
    assert "Our pact holds." in reads(table, newcomer, thread)  # the newcomer reads the history
    assert reads(table, former, thread) == []
    lines = [m for m in fake.messages_in(thread) if "is now played by" in m.content]
    assert len(lines) == 1 and f"<@{newcomer.id}>" in lines[0].content and lines[0].pings == []
    assert players[second].id in thread.thread_members  # the other house's player stays

    await table.service.execute(Undo(game_id=game_id, by=moderator(table).id, key="undo-replace"))

    def back() -> bool:
        return all(former.id in t.thread_members and newcomer.id not in t.thread_members for t in (thread, other))

    await fake.wait_until(back, timeout=10, what="the talks to follow the undo")
    assert len([m for m in fake.messages_in(thread) if "is now played by" in m.content]) == 2
    assert fake.internal_errors == [] and fake.unsupported_requests == []


async def test_who_may_not_talk_is_told_why_in_his_language(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, _, _ = sorted(players)
    own = await talk(table, players[first], first)
    assert "is yours" in own.content
    spectator = player(table, 5)
    for outsider in (spectator, moderator(table)):
        refused = await talk(table, outsider, first)
        assert "You do not play" in refused.content
    absent = await talk(table, players[first], "tyrell")  # three players: Tyrell does not play
    assert "No house" in absent.content and "tyrell" in absent.content
    russian = await talk(table, players[first], first, locale="ru")
    assert "ваш дом" in russian.content
    assert [c for c in fake.world.channels.values() if c.is_thread and c.type == 12] == []
    assert await table.service.store.talks_of(game_id) == []


async def test_the_end_opens_every_talk_to_every_player_read_only(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, third = sorted(players)
    thread = thread_of(table, await talk(table, players[first], second))
    fake.say(players[second], thread, "Betray them at the Eyrie.")
    assert reads(table, players[third], thread) == []
    await table.service.execute(End(game_id=game_id, by=moderator(table).id, key="end"))
    await fake.wait_until(lambda: thread.locked, timeout=10, what="the talk to be locked at the end")
    assert set(thread.thread_members) >= {p.id for p in players.values()}
    assert "Betray them at the Eyrie." in reads(table, players[third], thread)
    assert not fake.world.can_view_channel(player(table, 5).user, thread)  # a spectator still does not read it
    try:
        fake.say(players[third], thread, "Traitor!")
        raise AssertionError("a locked talk took a post")
    except FakeDiscordError as refused:
        assert "locked" in str(refused)
