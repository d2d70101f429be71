"""Issue X: a publishing worker trusts nothing it remembers of a version it published quietly once its row was marked
since. With two workers, the lock can go back and forth in a storm of cut connections (``test_connection_storm.py``,
which once left the outbox waiting forever on CI): the first publishes a quiet version (a secret step: its row waits
for the game's next told version) and loses the lock; the second tries that version, fails, and marks it for a retry,
which no later version's publication takes out; the first takes the lock back. Or, within one turn, a process whose
turn ended meets a failure on its way out and marks a version the holder has published quietly. Skipping the version
as done, the holder would leave its row in the outbox forever. The real ``bot.py``, a gateway and one worker on
PostgreSQL; the other's failed try is its mark.

Nor is a database that went away in the middle of a publication a try of it: the publication whose connection
dropped twice, the second time on its retry, once lost the rest of its sends (the retry was its last)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app.database import lock_key, schema_of
from app.service import GameService
from app.store import Store
from cogs.publisher import FAILED_PAUSE_S
from cogs.pump import PUBLISH_LOCK
from testing import postgres
from testing.bot_process import BotProcess
from testing.db_proxy import DatabaseProxy
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from testing.peek import peek
from testing.phone import every_text
from tests.bot.test_connection_storm import cut_every_connection
from tests.bot.test_scale_out import TIMING, new_game
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow


@dataclass
class Rig:
    """A gateway and one worker on PostgreSQL, a started game of three players and their first decision DMs."""

    fake: FakeDiscord
    url: str
    channel: Any
    players: list[Any]
    worker: BotProcess
    store: Store
    game_id: int
    house_of: dict[int, str]
    dms: dict[int, Any]

    async def answer(self, player: Any) -> None:
        """The player submits his DM's form, and is told it is recorded."""
        form = self.dms[player.id]
        submitted = await self.fake.click(player, form, form_control(form, self.game_id, self.house_of[player.id]))
        await self.fake.world.wait_until(
            lambda: bool(submitted.response and any("Recorded" in t for t in every_text(submitted.response))),
            60,
            "a receipt",
        )


@asynccontextmanager
async def rig(tmp_path: Path, url: str, *, worker_url: str | None = None, **worker_env: str) -> AsyncIterator[Rig]:
    """``worker_url``: the worker's database address (a relay's); ``worker_env``: its settings beside ``TIMING``."""
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        players = [fake.add_member(guild, f"p{i}") for i in range(3)]
        gateway = BotProcess(fake, url, role="gateway", log_path=tmp_path / "gateway.log", env=TIMING)
        worker = BotProcess(
            fake, worker_url or url, role="worker", log_path=tmp_path / "worker.log", env={**TIMING, **worker_env}
        )
        store = await Store.open(url, shared=True)
        try:
            await gateway.sync_commands()
            await gateway.start()
            await worker.start()
            game_id = await new_game(fake, channel, moderator, players)
            seats = await store.seats(game_id)
            house_of = {user: house for house, user in seats.items()}
            dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
            await fake.wait_idle(quiet=1.0, timeout=60)
            yield Rig(fake, url, channel, players, worker, store, game_id, house_of, dms)
        finally:
            await store.close()
            await worker.stop()
            await gateway.stop()


@pytest.mark.parametrize("lock", ["lost and taken again", "held"])
async def test_X_a_quiet_version_another_marked_for_a_retry_is_published_again(tmp_path: Path, lock: str) -> None:
    require_postgres()
    prefix = f"turns_{secrets.token_hex(3)}_"
    # DEBUG: the worker says when it has published a version from the outbox (a quiet one sends nothing).
    with postgres.fresh_schema("turns") as url:
        async with rig(tmp_path, url, PGAPPNAME=prefix + "worker", LOG_LEVEL="DEBUG") as table:
            fake, channel, players, worker, store = table.fake, table.channel, table.players, table.worker, table.store
            game_id, answer = table.game_id, table.answer
            # The first orders: a secret step, which the worker publishes quietly; its row stays.
            await answer(players[0])
            row = await store.game(game_id)
            assert row is not None
            quiet = row.version
            published = f"version {quiet} of game {game_id} is published (drained)"
            await fake.world.wait_until(lambda: published in worker.output(), 30, "the quiet publication", poll=0.1)
            assert peek(url, "SELECT sent FROM outbox WHERE game_id = ? AND version = ?", (game_id, quiet))

            # Another process tried that version and failed (its mark): while the worker was away from the lock,
            # or while it held it (a process whose turn had ended, on its way out).
            turns = worker.output().count("this worker publishes the outbox")
            if lock != "held":
                assert await cut_every_connection(url, prefix) > 0
            marked = "UPDATE outbox SET sent = sent || ',retry' WHERE game_id = ? AND version = ? RETURNING 1"
            assert peek(url, marked, (game_id, quiet))
            if lock != "held":
                await fake.world.wait_until(
                    lambda: worker.output().count("this worker publishes the outbox") > turns,
                    30,
                    "a turn",
                    poll=0.1,
                )
            # Published again (its last try, as marked), it leaves the outbox before the game's next version.
            await fake.world.wait_until(
                lambda: not peek(url, "SELECT 1 FROM outbox WHERE version = ?", (quiet,)), 30, "the retry", poll=0.1
            )

            # The rest of the orders: the reveal goes out once, and nothing is left in the outbox.
            for player in players[1:]:
                await answer(player)
            await fake.world.wait_until(lambda: not peek(url, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
            await fake.wait_idle(quiet=1.0, timeout=60)
            reveals = [m for m in fake.messages_in(channel) if "Orders are revealed" in (m.content or "")]
            assert len(reveals) == 1, [m.content for m in fake.messages_in(channel)]
            assert fake.internal_errors == []


async def test_X_a_publication_whose_database_connection_drops_twice_still_sends_everything_once(
    tmp_path: Path,
) -> None:
    """The reveal's publication loses its connection at the mark of its channel post (the mark committed, its reply
    lost), and its next try at the mark of its first log line: each time the database did what it was asked and the
    publisher cannot know it. Neither is a try of the publication: the third sends the rest, the next decision's DMs
    among them, and nothing goes twice."""
    require_postgres()
    with postgres.fresh_schema("twice") as url:
        # The worker's connections go through the relay, which loses the reply to one chosen statement.
        async with DatabaseProxy.start(url) as relay, rig(tmp_path, url, worker_url=relay.url(url)) as table:
            fake, channel, players, worker, store = table.fake, table.channel, table.players, table.worker, table.store
            game_id, answer, house_of = table.game_id, table.answer, table.house_of
            before = {p.id: len(fake.dm_messages(p)) for p in players}

            def marks(prefix: str) -> int:
                sql = "SELECT count(*) FROM outbox_sends WHERE game_id = ? AND part LIKE ?"
                return int(peek(url, sql, (game_id, prefix + "%"))[0][0])

            for player in players[:2]:
                await answer(player)
            first = relay.lose_reply_to(b"post:")  # the mark of a channel post: the reveal's
            await answer(players[2])

            async def lose(lost: asyncio.Future[Any], prefix: str) -> None:
                """The statement reached the server and its mark committed; then its connection drops."""
                dropped = await asyncio.wait_for(lost, 60)
                await fake.world.wait_until(lambda: marks(prefix) > 0, 30, f"the {prefix} mark", poll=0.05)
                dropped.drop()

            await lose(first, "post:")
            dropped_at = time.monotonic()
            await lose(relay.lose_reply_to(b"log:"), "log:")  # the retry's first new mark
            # The failed publication waited before its next try: Discord out for a while is not asked every second.
            assert time.monotonic() - dropped_at >= FAILED_PAUSE_S - 0.5
            await fake.world.wait_until(lambda: not peek(url, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
            await fake.wait_idle(quiet=1.0, timeout=60)
            reveals = [m for m in fake.messages_in(channel) if "Orders are revealed" in (m.content or "")]
            assert len(reveals) == 1, [m.content for m in fake.messages_in(channel)]
            thread = next(c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id)
            assert sum("Orders are revealed" in (m.content or "") for m in fake.messages_in(thread)) == 1
            awaited = {p.house for p in (await GameService(store).load(game_id)).prompts() if not p.answered}
            assert awaited, "the reveal opens a decision"
            for player in players:
                new = fake.dm_messages(player)[before[player.id] :]
                # The next decision's DM, once, to each awaited player; nothing to the others.
                assert len(new) == (1 if house_of[player.id] in awaited else 0), (
                    player.id,
                    [m.content for m in new],
                )
            # Both drops were the publication's, and neither counted as a try of it.
            assert worker.output().count("lost the database or Discord while publishing") == 2


@asynccontextmanager
async def publish_lock_taken_away(url: str, prefix: str) -> AsyncIterator[None]:
    """Terminate the connection on which this test's worker holds the publish lock, and hold the lock here until the
    block ends: the worker's turn is over, and it takes the lock again only then."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as holder:
        key = lock_key(PUBLISH_LOCK, await schema_of(holder))
        cut = (
            "SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE %s"
        )
        row = await (await holder.execute(cut, (prefix + "%",))).fetchone()
        assert row is not None and row[0] == 1, "the worker held no publish lock"
        for _ in range(100):  # the lock is free once the server process is gone
            row = await (await holder.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
            if row is not None and row[0]:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the publish lock stayed held")
        yield


async def test_X_a_publication_whose_lease_ends_after_its_last_dm_still_leaves_the_outbox(tmp_path: Path) -> None:
    """The reveal's publication sends its channel post and its one decision DM, and loses the publish lock while
    Discord's answer to the DM is on its way: the fence before the forms stops it (``LostLease``), every message out.
    The same worker takes the lock again and tries the version once more; it finds everything sent (the DM in its
    own memory of what it told), so it tells nothing, yet it is no quiet version: its row must go with it, or the
    outbox keeps it, and the two quiet versions before it, until the game's next answer (the connection storm once
    left CI's outbox so for two minutes)."""
    require_postgres()
    prefix = f"lastdm_{secrets.token_hex(3)}_"
    with postgres.fresh_schema("lastdm") as url:
        async with rig(tmp_path, url, PGAPPNAME=prefix + "worker") as table:
            fake, channel, players, worker = table.fake, table.channel, table.players, table.worker
            before = {p.id: len(fake.dm_messages(p)) for p in players}
            for player in players[:2]:
                await table.answer(player)
            # Discord takes the reveal's decision DM (whoever is asked) and withholds its answer for a while.
            rules = [
                fake.faults.lost_answer(f"POST /channels/{fake.dm_channel(p).id}/messages", hold=2.0) for p in players
            ]
            await table.answer(players[2])
            await fake.world.wait_until(lambda: any(rule.hits for rule in rules), 60, "the decision DM")
            async with publish_lock_taken_away(url, prefix):
                await fake.world.wait_until(
                    lambda: "the lease's holder takes it up" in worker.output(), 30, "the publication stopped", poll=0.1
                )
            await fake.world.wait_until(lambda: not peek(url, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
            await fake.wait_idle(quiet=1.0, timeout=60)
            reveals = [m for m in fake.messages_in(channel) if "Orders are revealed" in (m.content or "")]
            assert len(reveals) == 1, [m.content for m in fake.messages_in(channel)]
            awaited = {
                p.house for p in (await GameService(table.store).load(table.game_id)).prompts() if not p.answered
            }
            assert len(awaited) == 1, awaited
            for player in players:
                new = fake.dm_messages(player)[before[player.id] :]
                assert len(new) == (1 if table.house_of[player.id] in awaited else 0), [m.content for m in new]
            assert fake.internal_errors == []
