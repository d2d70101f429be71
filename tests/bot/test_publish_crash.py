"""Exactly once, fault 2 of issue X (``../shared/design/exactly-once.md``, rule 3): the publisher killed after a step's
reveal went out and before its log-thread lines. A send is marked per message as soon as Discord accepted it, so the
restart sends what is missing and nothing twice; a send Discord took but whose answer never came back (the process
killed while it waited) is sent again with the same nonce, and Discord answers with the message it created. The real
``bot.py`` against the fake Discord, killed with SIGKILL: the one process on SQLite, and the publishing worker beside a
gateway on PostgreSQL.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.fake_discord.faults import FaultRule
from testing.forms import form_control
from testing.peek import peek
from tests.bot.test_scale_out import TIMING, new_game
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow

REVEAL = "Orders are revealed"
HOLD = 600.0  # seconds a held request keeps the publisher waiting: it is killed long before


def revealed(fake: FakeDiscord, channel: Any) -> int:
    """How many times the channel or thread ``channel`` says the orders are revealed."""
    return sum((m.content or "").count(REVEAL) for m in fake.messages_in(channel))


def recorded(submitted: Any) -> bool:
    return bool(submitted.response and "Recorded" in submitted.response.text())


async def killed_at_the_reveal(
    tmp_path: Path, hold: Callable[[FakeDiscord, Any], FaultRule], url: str | None = None
) -> None:
    """A game's planning step completed with ``hold(fake, channel)`` armed before the last answer; the publishing
    process (the one-process bot on SQLite; with ``url``, a worker beside a gateway on PostgreSQL) killed once the
    held request arrived, with the reveal in the channel; then started again: the reveal is told once in the channel
    and once in the log thread, and the outbox is empty."""
    async with crash_table(tmp_path, url) as table:
        fake, channel, moderator, players = table.fake, table.channel, table.moderator, table.players
        bot, store, db = table.bot, table.store, table.db
        game_id = await new_game(fake, channel, moderator, players)
        seats = await store.seats(game_id)
        house_of = {user: house for house, user in seats.items()}
        dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
        await fake.wait_idle(quiet=1.0, timeout=60)
        assert not any(c.is_thread for c in fake.world.channels.values()), "the start narrates nothing"
        # The pinned status is posted a moment after the start (it gathers answers for a while): the channel's
        # next new message, which the rule holds, must be the reveal (a loaded machine posted the status late).
        await fake.world.wait_until(
            lambda: any("Waiting for" in m.content for m in fake.messages_in(channel)), 60, "the pinned status"
        )
        for number, player in enumerate(players, 1):
            if number == len(players):
                rule = hold(fake, channel)
            form = dms[player.id]
            submitted = await fake.click(player, form, form_control(form, game_id, house_of[player.id]))
            await fake.world.wait_until(functools.partial(recorded, submitted), 60, "a receipt")
        await fake.world.wait_until(lambda: bool(rule.hits), 60, "the held request")
        assert revealed(fake, channel) == 1, [m.content for m in fake.messages_in(channel)]
        await bot.kill()
        fake.faults.clear()

        await bot.start()
        await fake.world.wait_until(lambda: not peek(db, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
        await fake.wait_idle(quiet=1.5, timeout=60)
        thread = next(c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id)
        assert revealed(fake, channel) == 1, [m.content for m in fake.messages_in(channel)]
        assert revealed(fake, thread) == 1, [m.content for m in fake.messages_in(thread)]
        assert not peek(db, "SELECT 1 FROM outbox_sends"), "the marks go with their outbox row"


async def test_X_02_the_publisher_killed_before_the_log_lines_posts_the_reveal_once(tmp_path: Path) -> None:
    """The reveal's lines open the log thread: opening it is held by a long 429, and the bot is killed there."""
    await killed_at_the_reveal(
        tmp_path, lambda fake, channel: fake.faults.rate_limit(f"POST /channels/{channel.id}/threads", retry_after=HOLD)
    )


async def test_X_02_a_reveal_discord_took_without_answering_is_not_posted_again(tmp_path: Path) -> None:
    """Discord creates the reveal's message and its answer never arrives: the bot killed while it waits has no mark
    of it, sends it again after the restart with the same nonce, and Discord answers with the message it created."""
    await killed_at_the_reveal(
        tmp_path, lambda fake, channel: fake.faults.lost_answer(f"POST /channels/{channel.id}/messages", hold=HOLD)
    )


async def test_X_02_a_publishing_worker_killed_at_the_reveal_posts_it_once(tmp_path: Path) -> None:
    """A gateway and a worker on PostgreSQL: the worker that publishes is killed while Discord's answer to the reveal
    is withheld; the worker started again posts the log thread's lines and not the reveal."""
    require_postgres()
    with postgres.fresh_schema("crash2") as url:
        await killed_at_the_reveal(
            tmp_path,
            lambda fake, channel: fake.faults.lost_answer(f"POST /channels/{channel.id}/messages", hold=HOLD),
            url,
        )


async def test_X_02_a_decision_dm_discord_took_without_answering_is_not_sent_again(tmp_path: Path) -> None:
    """The step after the reveal opens a decision: Discord creates its DM and its answer never arrives; the bot killed
    while it waits sends it again after the restart with the same nonce (the version, the decision, the member), and
    Discord answers with the DM it created: the player has it once."""
    db = tmp_path / "games.sqlite3"
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        players = [fake.add_member(guild, f"p{i}") for i in range(3)]
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        store = await Store.open(db)
        try:
            game_id = await new_game(fake, channel, moderator, players)
            seats = await store.seats(game_id)
            house_of = {user: house for house, user in seats.items()}
            dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
            await fake.wait_idle(quiet=1.0, timeout=60)
            before = {p.id: len(fake.dm_messages(p)) for p in players}
            rules = []
            for number, player in enumerate(players, 1):
                if number == len(players):  # the decisions the reveal opens: their DMs are taken and never answered
                    rules = [fake.faults.lost_answer(f"POST /channels/{dms[p.id].channel_id}/messages", hold=HOLD)
                             for p in players]  # fmt: skip
                form = dms[player.id]
                submitted = await fake.click(player, form, form_control(form, game_id, house_of[player.id]))
                await fake.world.wait_until(functools.partial(recorded, submitted), 60, "a receipt")
            await fake.world.wait_until(lambda: any(r.hits for r in rules), 60, "a decision DM held")
            held = [p for p, r in zip(players, rules, strict=True) if r.hits]
            assert all(len(fake.dm_messages(p)) == before[p.id] + 1 for p in held)  # Discord made it
            await bot.kill()
            fake.faults.clear()

            await bot.start()
            await fake.world.wait_until(lambda: not peek(db, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
            await fake.wait_idle(quiet=1.5, timeout=60)
            for player in held:
                assert len(fake.dm_messages(player)) == before[player.id] + 1, [
                    m.content for m in fake.dm_messages(player)
                ]
        finally:
            await store.close()
            await bot.stop()
        assert fake.failed_interactions == [], bot.output()[-3000:]


async def test_X_02_a_log_thread_discord_opened_without_answering_is_not_opened_again(tmp_path: Path) -> None:
    """Discord opens the log thread and its answer never arrives: the bot killed while it waits has no record of the
    thread; after the restart it finds the thread it opened (the bot's, by that name, opened since the publication was
    committed) among the server's active threads instead of opening a second: Discord has no nonce for threads."""
    channels: list[Any] = []

    def hold(fake: FakeDiscord, channel: Any) -> FaultRule:
        channels.append((fake, channel))
        return fake.faults.lost_answer(f"POST /channels/{channel.id}/threads", hold=HOLD)

    await killed_at_the_reveal(tmp_path, hold)
    fake, channel = channels[0]
    threads = [c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id]
    assert len(threads) == 1, [c.name for c in threads]


async def test_X_02_a_first_try_opens_the_log_thread_without_listing_the_servers_threads(tmp_path: Path) -> None:
    """Without a crash, the reveal's lines open the log thread with one request: the server's active threads (every
    one of them, parsed) are listed only by a try that finds the publication asked for the thread before (the tests
    above: a thread Discord opened without answering is found there, not opened twice)."""
    async with crash_table(tmp_path, None) as table:
        fake, channel, players, store = table.fake, table.channel, table.players, table.store
        game_id = await new_game(fake, channel, table.moderator, players)
        house_of = {user: house for house, user in (await store.seats(game_id)).items()}
        dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
        for player in players:
            form = dms[player.id]
            submitted = await fake.click(player, form, form_control(form, game_id, house_of[player.id]))
            await fake.world.wait_until(functools.partial(recorded, submitted), 60, "a receipt")
        await fake.world.wait_until(lambda: not peek(table.db, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
        await fake.wait_idle(quiet=1.0, timeout=60)
        thread = next(c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id)
        assert revealed(fake, thread) == 1, [m.content for m in fake.messages_in(thread)]
        assert fake.requests.count("POST /channels/{channel_id}/threads") == 1
        assert fake.requests.count("GET /guilds/{guild_id}/threads/active") == 0
        assert not peek(table.db, "SELECT 1 FROM outbox_sends"), "the opening's mark goes with its outbox row"


@dataclass
class CrashTable:
    """A game channel with its moderator and three players on the fake Discord, the process that publishes (``bot``)
    and what runs beside it (``processes``), and a store of the test's own on their database."""

    fake: FakeDiscord
    channel: Any
    moderator: Any
    players: list[Any]
    bot: BotProcess
    processes: list[BotProcess]
    store: Store
    db: Path | str


@asynccontextmanager
async def crash_table(tmp_path: Path, url: str | None) -> AsyncIterator[CrashTable]:
    """The set-up of a test that kills the publishing process (``started_publisher``: the one-process bot on SQLite;
    with ``url``, a worker beside a gateway on PostgreSQL); afterwards every process is stopped, and no interaction
    may have failed."""
    db: Path | str = url or tmp_path / "games.sqlite3"
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        players = [fake.add_member(guild, f"p{i}") for i in range(3)]
        bot, processes = await started_publisher(fake, db, tmp_path, url)
        store = await Store.open(db, shared=url is not None)
        try:
            yield CrashTable(fake, channel, moderator, players, bot, processes, store, db)
        finally:
            await store.close()
            for process in processes:
                await process.stop()
        assert fake.failed_interactions == [], processes[0].output()[-3000:]


async def started_publisher(
    fake: FakeDiscord, db: Path | str, tmp_path: Path, url: str | None
) -> tuple[BotProcess, list[BotProcess]]:
    """The process that publishes, started with what it needs beside it: the one-process bot on SQLite; with ``url``,
    a worker beside a gateway on PostgreSQL (a dead worker's lease frees itself after LEASE_S: the restarted one
    publishes soon after). Returns it and every process started."""
    if url is None:
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log")
        processes = [bot]
    else:
        env = {**TIMING, "LEASE_S": "3"}
        gateway = BotProcess(fake, db, role="gateway", log_path=tmp_path / "gateway.log", env=env)
        bot = BotProcess(fake, db, role="worker", log_path=tmp_path / "worker.log", env=env)
        processes = [gateway, bot]
    await processes[0].sync_commands()
    for process in processes:
        await process.start()
    return bot, processes
