"""Exactly once, the decision DMs (issue X, #38): each decision DM of a publication is marked in the outbox
(``outbox_sends``, part ``dm:<prompt>:<member>``) as soon as Discord took it, and a retry skips those marked; one that
Discord took while the bot died before its mark is found again past Discord's nonce window, in the member's DM
channel, instead of being sent twice. The real ``bot.py`` against the fake Discord, killed with SIGKILL: the one
process on SQLite, and the publishing worker beside a gateway on PostgreSQL.

The game's start opens a decision for each of its three houses, chosen in the lobby so that their DMs go out in a
known order (Baratheon's, Lannister's, Stark's: the publisher tells houses in alphabetical order); Stark's DM is the
one the crash hits, after the other two were marked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from testing import postgres
from testing.fake_discord import FakeDiscord
from testing.fake_discord.faults import FaultRule
from testing.peek import peek
from tests.bot.test_publish_crash import crash_table
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow

HOLD = 600.0  # seconds a held request keeps the publisher waiting: it is killed long before
HOUSES = ("baratheon", "lannister", "stark")  # a three-player game's houses, told in this order
AGED = 180.0  # seconds the outbox rows are set back: the restart comes this long after the commit (past the lookup)
HISTORY = "GET /channels/{channel_id}/messages"
START_POSTS = 1  # the game channel's messages a game's start publishes before its decision DMs (its board)


async def started_with_houses(fake: FakeDiscord, channel: Any, moderator: Any, players: list[Any]) -> int:
    """A game whose players chose Baratheon, Lannister and Stark, in that order, then started."""
    lobby = await (await fake.slash(moderator, channel, "game new", players=len(players))).wait_response(timeout=30)
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for player, house in zip(players, HOUSES, strict=True):
        await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response(timeout=30)
        await (await fake.select(player, lobby, f"lobby:{game_id}:house", [house])).wait_followups(1, timeout=30)
    await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=30)
    return game_id


def pings(fake: FakeDiscord, channel: Any) -> list[Any]:
    """The game channel's pings of a player whose DMs are closed."""
    return [m for m in fake.messages_in(channel) if "your DMs are closed" in (m.content or "")]


def decision_dms(fake: FakeDiscord, player: Any) -> list[str]:
    """What the player's DMs say: each decision notice (the start's orders), once per message."""
    out = []
    for message in fake.dm_messages(player):
        words = [message.content or "", *(str(c) for c in message.components)]
        out.append(" ".join(words))
    return out


async def crashed_at_starks_dm(
    tmp_path: Path,
    fault: str,
    *,
    url: str | None = None,
    aged: float = 0.0,
    nonce_window: float | None = None,
    dms_closed: bool = False,
    deadline_moved: float = 0.0,
) -> tuple[FakeDiscord, list[Any], list[tuple[Any, ...]], int]:
    """A game started while ``fault`` (``held``: the request never reaches Discord; ``lost_answer``: Discord makes the
    DM and its answer never comes) holds Stark's DM (``dms_closed``: Stark's DMs are closed, and the fault holds his
    ping in the game channel); the publishing process killed there and started again, ``aged`` seconds later as the
    outbox sees it, after Discord's nonce window shrank to ``nonce_window``, the step's deadline moved by
    ``deadline_moved`` seconds meanwhile (a notice says it). Returns the fake, the players, the DM marks as the crash
    left them, and the history reads (GET messages) before the crash."""
    async with crash_table(tmp_path, url) as table:
        fake, channel, moderator, players = table.fake, table.channel, table.moderator, table.players
        bot, store, db = table.bot, table.store, table.db
        # The start's channel part posts before its DMs: Stark's ping is the channel's next message after them.
        to = channel if dms_closed else fake.dm_channel(players[2])
        skip = START_POSTS if dms_closed else 0
        route = f"POST /channels/{to.id}/messages"
        rule: FaultRule = (
            fake.faults.lost_answer(route, hold=HOLD, skip=skip)
            if fault == "lost_answer"
            else fake.faults.held(route, hold=HOLD, skip=skip)
        )
        if dms_closed:
            fake.close_dms(players[2])
        game_id = await started_with_houses(fake, channel, moderator, players)
        assert (await store.seats(game_id)) == {h: p.id for h, p in zip(HOUSES, players, strict=True)}
        await fake.world.wait_until(lambda: bool(rule.hits), 60, "Stark's DM held", poll=0.1)
        took = 1 if fault == "lost_answer" else 0
        if dms_closed:
            assert [len(fake.dm_messages(p)) for p in players] == [1, 1, 0]
            assert len(pings(fake, channel)) == took, [m.content for m in fake.messages_in(channel)]
        else:
            assert [len(fake.dm_messages(p)) for p in players] == [1, 1, took]
        reads = fake.requests.count(HISTORY)
        await bot.kill()
        marks = peek(db, "SELECT part, message_id FROM outbox_sends WHERE part LIKE 'dm:%' ORDER BY at")
        fake.faults.clear()
        if nonce_window is not None:
            fake.world.nonce_window = nonce_window
        if deadline_moved:
            await store.write("UPDATE deadlines SET due_at = due_at + ? WHERE game_id = ?", (deadline_moved, game_id))
        if aged:  # every row of the game alike, so that their order stays
            await store.write("UPDATE outbox SET created_at = created_at - ? WHERE game_id = ?", (aged, game_id))

        await bot.start()
        await fake.world.wait_until(lambda: not peek(db, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
        await fake.wait_idle(quiet=1.5, timeout=60)
        assert not peek(db, "SELECT 1 FROM outbox_sends"), "the marks go with their outbox row"
        return fake, players, marks, reads


def assert_each_told_once(fake: FakeDiscord, players: list[Any], marks: list[tuple[Any, ...]]) -> None:
    """Each player has the one DM of his decision; Baratheon's and Lannister's were marked with their messages' ids
    before the crash, Stark's was not."""
    for player in players:
        assert len(fake.dm_messages(player)) == 1, decision_dms(fake, player)
    told = {int(m[1]) for m in marks}
    assert len(marks) == 2, marks
    assert told == {fake.dm_messages(p)[0].id for p in players[:2]}, marks


async def test_X_dm_a_crash_after_some_dms_were_marked_sends_only_the_rest(tmp_path: Path) -> None:
    """The bot dies before Stark's DM reached Discord, Baratheon's and Lannister's marked: restarted past Discord's
    nonce window (which could not have saved them), it sends Stark's alone. Neither the first try nor the restart, a
    moment after the commit, reads any channel's history."""
    fake, players, marks, reads = await crashed_at_starks_dm(tmp_path, "held", nonce_window=0.0)
    assert_each_told_once(fake, players, marks)
    assert reads == 0 and fake.requests.count(HISTORY) == 0, fake.requests.counts()


async def test_X_dm_discord_took_before_the_crash_is_found_past_the_nonce_window(tmp_path: Path) -> None:
    """Discord makes Stark's DM and its answer never arrives: the bot killed while it waits has no mark of it. It is
    started again long after the commit (the outbox row set back three minutes) and past Discord's nonce window (the
    nonce no longer collapses a repeated send): it finds the DM in Stark's DM channel, marks it and sends nothing,
    though a moderator moved the deadline meanwhile (the DM it would send now names another time). The first try read
    no history."""
    fake, players, marks, reads = await crashed_at_starks_dm(
        tmp_path, "lost_answer", aged=AGED, nonce_window=0.0, deadline_moved=3600.0
    )
    assert_each_told_once(fake, players, marks)
    assert reads == 0
    due = peek(tmp_path / "games.sqlite3", "SELECT due_at FROM deadlines")[0][0]
    told = " ".join(decision_dms(fake, players[2]))
    assert "<t:" in told and f"<t:{int(due)}:" not in told, "the DM found names the deadline as it was"
    stark_dm = fake.dm_channel(players[2])
    assert fake.requests.count(f"GET /channels/{stark_dm.id}/messages") >= 1, fake.requests.counts()


async def test_X_dm_a_publishing_worker_killed_after_discord_took_a_dm_sends_it_once(tmp_path: Path) -> None:
    """The same on PostgreSQL, with a gateway and a publishing worker: the worker killed while Discord's answer to
    Stark's DM is withheld, started again past the nonce window, finds the DM and sends nothing twice."""
    require_postgres()
    with postgres.fresh_schema("dmonce") as url:
        fake, players, marks, reads = await crashed_at_starks_dm(
            tmp_path, "lost_answer", url=url, aged=AGED, nonce_window=0.0
        )
    assert_each_told_once(fake, players, marks)
    assert reads == 0


async def test_X_dm_a_ping_discord_took_before_the_crash_is_found_past_the_nonce_window(tmp_path: Path) -> None:
    """Stark's DMs are closed: his decision is a ping in the game channel, marked like a DM. Discord makes it and its
    answer never arrives; the bot, killed there and started again past the nonce window, finds the ping in the
    channel instead of pinging him twice."""
    fake, players, marks, reads = await crashed_at_starks_dm(
        tmp_path, "lost_answer", aged=AGED, nonce_window=0.0, dms_closed=True
    )
    channel = next(c for c in fake.world.channels.values() if c.name == "game")
    assert len(pings(fake, channel)) == 1, [m.content for m in fake.messages_in(channel)]
    assert [len(fake.dm_messages(p)) for p in players] == [1, 1, 0]
    assert len(marks) == 2 and reads == 0, marks
