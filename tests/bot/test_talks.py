"""Private talks between houses through the fake Discord (issue 40): ``/game talk`` opens a private thread of two
houses' players that nobody else reads, brings it back when asked again, follows the seats (a replace, its undo), and
opens to every player (locked) or stays private (archived) at the end; refusals in the member's language."""

from __future__ import annotations

import random
import re
from typing import Any, cast

from app.commands import End, Undo
from app.labels import house_name
from testing.fake_discord import FakeChannel, FakeDiscordError, FakeMember, StoredMessage
from testing.fake_discord import permissions as perms
from tests.bot.conftest import Table
from tests.bot.test_full_game import answer_once
from tests.bot.test_images import play_with_agents
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

    await fake.wait_until(moved, timeout=30, what="the talks to follow the seat")
    assert "Our pact holds." in reads(table, newcomer, thread)  # the newcomer reads the history
    assert reads(table, former, thread) == []
    lines = [m for m in fake.messages_in(thread) if "is now played by" in m.content]
    assert len(lines) == 1 and f"<@{newcomer.id}>" in lines[0].content and lines[0].pings == []
    assert players[second].id in thread.thread_members  # the other house's player stays

    await table.service.execute(Undo(game_id=game_id, by=moderator(table).id, key="undo-replace"))

    def back() -> bool:
        return all(former.id in t.thread_members and newcomer.id not in t.thread_members for t in (thread, other))

    await fake.wait_until(back, timeout=30, what="the talks to follow the undo")
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
    await fake.wait_until(lambda: thread.locked, timeout=30, what="the talk to be locked at the end")
    assert set(thread.thread_members) >= {p.id for p in players.values()}
    assert "Betray them at the Eyrie." in reads(table, players[third], thread)
    assert not fake.world.can_view_channel(player(table, 5).user, thread)  # a spectator still does not read it
    listed = await fake.wait_for_message(
        lambda m: "talks are open" in m.content, channel=game_channel(table), timeout=30
    )
    assert f"<#{thread.id}>" in listed.content and listed.pings == []
    try:
        fake.say(players[third], thread, "Traitor!")
        raise AssertionError("a locked talk took a post")
    except FakeDiscordError as refused:
        assert "locked" in str(refused)


async def open_table(table: Table, players: int, **options: Any) -> tuple[StoredMessage, StoredMessage]:
    """``/game new`` with ``options`` and ``players`` joining: the lobby as they see it, and the start's message."""
    fake = table.fake
    made = await fake.slash(moderator(table), game_channel(table), "game new", players=players, name="Talks", **options)
    lobby = await made.wait_response()
    for index in range(players):
        await (await fake.click(player(table, index), lobby, "lobby:1:join")).wait_response()
    shown = lobby.content
    started = await (await fake.click(moderator(table), lobby, "lobby:1:start")).wait_response()
    assert "started" in started.content or "началась" in started.content
    lobby.content = shown
    return lobby, started


async def test_a_table_without_talks_says_so_and_refuses_them(table: Table) -> None:
    fake = table.fake
    lobby, _ = await open_table(table, 3, talk="none")
    assert "without talks" in lobby.content
    players = await seated(table, 1)
    first, second, _ = sorted(players)
    refused = await talk(table, players[first], second)
    assert "without talks" in refused.content
    in_russian = await talk(table, players[first], second, locale="ru")
    assert "без переговоров" in in_russian.content
    assert [c for c in fake.world.channels.values() if c.is_thread and c.type == 12] == []


async def test_players_who_can_read_every_thread_are_named_in_the_lobby_and_at_the_start(table: Table) -> None:
    fake = table.fake
    wardens = fake.add_role(table.guild, "Wardens", permissions=perms.MANAGE_THREADS)  # type: ignore[arg-type]
    warden = fake.add_member(table.guild, player(table, 1), roles=[wardens])  # type: ignore[arg-type]
    made = await fake.slash(moderator(table), game_channel(table), "game new", players=3, name="Fair")
    lobby = await made.wait_response()
    assert "each pair of houses may open a private thread" in lobby.content

    def joined_note(who: FakeMember) -> StoredMessage | None:
        return next((m for m in fake.transcript if m.ephemeral_for == who.id and "joined" in m.content), None)

    await fake.click(warden, lobby, "lobby:1:join")
    note = await fake.wait_until(lambda: joined_note(warden), timeout=30, what="the warden's join note")
    assert "You hold Manage Threads" in note.content
    await fake.click(player(table, 0), lobby, "lobby:1:join")
    plain = await fake.wait_until(lambda: joined_note(player(table, 0)), timeout=30, what="a join note")
    assert "Manage Threads" not in plain.content  # only the member who holds it is warned
    await fake.click(player(table, 2), lobby, "lobby:1:join")
    await fake.wait_until(lambda: joined_note(player(table, 2)), timeout=30, what="a join note")
    current = fake.world.messages[lobby.id]
    assert f"read every private talk: <@{warden.id}>" in current.content
    fair_play = next(line for line in current.content.splitlines() if line.startswith("Fair play"))
    assert f"<@{player(table, 0).id}>" not in fair_play and f"<@{player(table, 2).id}>" not in fair_play
    assert current.pings == []
    started = await (await fake.click(moderator(table), lobby, "lobby:1:start")).wait_response()
    assert f"Can read private talks (Manage Threads or Administrator): <@{warden.id}>" in started.content
    assert started.pings == []


async def test_a_vassal_is_spoken_to_through_its_liege(table: Table) -> None:
    fake = table.fake
    await open_table(table, 4, ruleset="mother-of-dragons")
    game_id = 1
    players = await seated(table, game_id)
    rnd = random.Random(4)
    game = await table.service.load(game_id)
    vassal = sorted(game.state.vassals)[0]
    some = players[sorted(players)[0]]
    unclaimed = await talk(table, some, vassal)
    assert "no house commands yet" in unclaimed.content
    for _ in range(40):  # the players answer until the first claim gives the vassals their lieges
        game = await table.service.load(game_id)
        if any(liege is not None for liege in game.state.vassals.values()):
            break
        for member in players.values():
            await answer_once(table, member, rnd, use_defaults=True)
    vassal, liege = next((v, lord) for v, lord in sorted(game.state.vassals.items()) if lord is not None)
    asker = players[next(h for h in sorted(players) if h != liege)]
    refused = await talk(table, asker, vassal)
    assert f"speaks through its liege, {house_name(liege, 'en')}" in refused.content
    in_russian = await talk(table, asker, vassal, locale="ru")
    assert house_name(liege, "ru") in in_russian.content and "сюзерен" in in_russian.content
    assert [c for c in fake.world.channels.values() if c.is_thread and c.type == 12] == []


async def test_talks_kept_private_at_the_end_are_archived_and_locked(table: Table) -> None:
    fake = table.fake
    await open_table(table, 3, talks_at_end=False, language="ru")
    players = await seated(table, 1)
    first, second, third = sorted(players)
    reply = await talk(table, players[first], second, locale="ru")
    assert "Ваши переговоры" in reply.content
    thread = thread_of(table, reply)
    assert house_name(first, "ru") in str(thread.name) and "↔" in str(thread.name)  # named in the game's language
    await table.service.execute(End(game_id=1, by=moderator(table).id, key="end"))
    await fake.wait_until(lambda: thread.archived and thread.locked, timeout=30, what="the talk to close")
    assert reads(table, players[third], thread) == []
    assert "остаются личными" in fake.messages_in(thread)[-1].content


async def test_discord_refusing_a_private_thread_is_explained_to_the_member(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, _ = sorted(players)
    bot_role = next(r for r in table.guild.roles.values() if r.managed)  # type: ignore[attr-defined]
    bot_role.permissions &= ~perms.CREATE_PRIVATE_THREADS
    refused = await talk(table, players[first], second)
    assert "Create Private Threads" in refused.content
    told = await fake.wait_for_message(  # after the start's posts, whose map may take seconds to draw under load
        lambda m: "could not open" in m.content, channel=game_channel(table), timeout=30
    )
    assert "Create Private Threads" in told.content and told.pings == []  # the moderators read it in the channel
    assert first.title() not in told.content and second.title() not in told.content  # which talk stays private
    bot_role.permissions |= perms.CREATE_PRIVATE_THREADS
    fake.world.active_thread_limit = len([c for c in fake.world.channels.values() if c.is_thread and not c.archived])
    full = await talk(table, players[first], second, locale="ru")
    assert "предел Discord" in full.content
    assert await table.service.store.talks_of(game_id) == []


async def test_eight_players_open_all_twenty_eight_talks_within_discords_limits(table: Table) -> None:
    fake = table.fake
    for name in ("p6", "p7"):
        table.players.append(fake.add_member(table.guild, name))  # type: ignore[arg-type]
    await open_table(table, 8, ruleset="mother-of-dragons")
    players = await seated(table, 1)
    houses = sorted(players)
    assert len(houses) == 8
    fake.faults.rate_limit("POST /channels/{channel_id}/threads", times=1, retry_after=0.05)  # Discord says slow down
    opened: dict[tuple[str, str], FakeChannel] = {}
    for index, house in enumerate(houses):
        for other in houses[index + 1 :]:
            opened[(house, other)] = thread_of(table, await talk(table, players[house], other))
    assert len(opened) == 28 and len({t.id for t in opened.values()}) == 28
    for (house, other), thread in opened.items():
        assert thread.thread_members == {fake.bot_user.id, players[house].id, players[other].id}
    assert fake.requests.count("POST /channels/{channel_id}/threads", status=429) == 1
    assert fake.requests.count("POST /channels/{channel_id}/threads", status=201) == 28
    assert len(await table.service.store.talks_of(1)) == 28
    assert fake.failed_interactions == [] and fake.internal_errors == [] and fake.unsupported_requests == []


async def test_a_thread_a_moderator_deleted_is_opened_again(table: Table) -> None:
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, _ = sorted(players)
    thread = thread_of(table, await talk(table, players[first], second))
    thread.deleted = True  # a moderator deleted it in Discord
    again = thread_of(table, await talk(table, players[second], first))
    assert again.id != thread.id and again.thread_members >= {players[first].id, players[second].id}
    assert [t.thread_id for t in await table.service.store.talks_of(game_id)] == [again.id]


async def test_M_LEAVE_01_a_house_that_leaves_has_its_talks_locked_and_archived(table: Table) -> None:
    """M-LEAVE-01: a player leaves; as the next round starts his house becomes a vassal, and its talks close."""
    fake = table.fake
    await open_table(table, 5, ruleset="mother-of-dragons")
    players = await seated(table, 1)
    game = await table.service.load(1)
    leaving = next(h for h in sorted(players) if h != "targaryen")
    stays = [h for h in sorted(players) if h != leaving]
    closing = thread_of(table, await talk(table, players[leaving], stays[0]))
    staying = thread_of(table, await talk(table, players[stays[0]], stays[1]))
    await (await fake.slash(moderator(table), game_channel(table), "mod vassalize", house=leaving)).wait_response()
    rnd = random.Random(7)
    for _ in range(80):  # every player answers (defaults) until the next round turns the house into a vassal
        game = await table.service.load(1)
        if leaving in game.state.vassals:
            break
        for member in players.values():
            await answer_once(table, member, rnd, use_defaults=True)
    assert leaving in game.state.vassals
    await fake.wait_until(lambda: closing.locked and closing.archived, timeout=30, what="the leaver's talk to close")
    assert not staying.locked and not staying.archived  # the others' talks go on
    try:
        fake.say(players[stays[0]], closing, "Where did you go?")
        raise AssertionError("a closed talk took a post")
    except FakeDiscordError:
        pass


async def test_a_game_that_ends_by_its_last_answer_opens_its_talks(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, third = sorted(players)
    thread = thread_of(table, await talk(table, players[first], second))
    await play_with_agents(table, game_id, seed=3)
    assert (await table.service.load(game_id)).finished
    await fake.wait_until(lambda: thread.locked, timeout=30, what="the talk to open at the game's end")
    assert {p.id for p in players.values()} <= thread.thread_members and not thread.archived
    assert reads(table, players[third], thread)[-1].startswith("The game has ended")


async def test_discord_refusing_to_add_a_newcomer_to_a_talk_is_told_to_the_moderators(table: Table) -> None:
    """A replace's newcomer cannot be added to his house's talk (the bot lost Send Messages in Threads): nobody asked
    for that change, so the channel's moderators read which permission is at fault, no house named."""
    fake = table.fake
    game_id = await start_game(table, 3)
    players = await seated(table, game_id)
    first, second, _ = sorted(players)
    thread = thread_of(table, await talk(table, players[first], second))
    for role in table.guild.roles.values():  # type: ignore[attr-defined]  # @everyone's included
        role.permissions &= ~perms.SEND_MESSAGES_IN_THREADS
    newcomer = player(table, 5)
    await (
        await fake.slash(moderator(table), game_channel(table), "mod replace", house=first, member=newcomer)
    ).wait_response()
    told = await fake.wait_for_message(
        lambda m: "could not follow" in m.content, channel=game_channel(table), timeout=30
    )
    assert "Send Messages in Threads" in told.content and told.pings == []
    assert first.title() not in told.content and second.title() not in told.content
    assert newcomer.id not in thread.thread_members
