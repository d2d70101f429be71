"""Exactly once with real processes killed at chosen statements (issue X; ``../shared/design/exactly-once.md``, "How
to test it"): the real ``bot.py`` against the fake Discord, on the real PostgreSQL and SQLite.

- Fault 1: a worker is stopped right after it committed the answer that completes a step, before it records the
  command's outcome (a trigger makes that statement wait for an advisory lock the test holds), then killed with
  SIGKILL. Another worker applies the command again: the player is told "Recorded", the answer is in the log once,
  the new step has its deadline, and the reveal is posted once.
- Faults 8 and 9: a game whose stored state no longer loads is in the database of the one-process bot on SQLite.
  The bot starts all the same, tells that game's channel once, and another game plays on.
- Fault 10: the one-process bot on PostgreSQL is killed inside a deadline's second default answer; started again, it
  answers for the others once, records every house's missed deadline, and posts one news line naming them all.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app.deadlines import step_key
from app.store import Store
from engine import Game
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from testing.peek import peek
from tests.bot.test_scale_out import new_game
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow

COMMITTED = "SELECT version FROM answers WHERE game_id = ? AND house = ? AND source = 'player'"
TIMING = {"DEADLINE_SWEEP_S": "0.5", "DEADLINE_LEASE_S": "5", "IMAGE_WORKERS": "1"}


def hold_outcomes(url: str, lock: int) -> None:
    """From now on, a worker recording a command's outcome waits for advisory lock ``lock`` (held by the test)."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "CREATE FUNCTION hold_outcome() RETURNS trigger AS $$ BEGIN"
            f" IF NEW.done_at IS NOT NULL THEN PERFORM pg_advisory_xact_lock({lock}); END IF; RETURN NEW; END"
            " $$ LANGUAGE plpgsql"
        )
        connection.execute(
            "CREATE TRIGGER hold_outcome BEFORE UPDATE ON command_queue FOR EACH ROW EXECUTE FUNCTION hold_outcome()"
        )


def release_outcomes(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("DROP TRIGGER hold_outcome ON command_queue")
        connection.execute("DROP FUNCTION hold_outcome()")


async def test_X_01_a_worker_killed_after_the_commit_that_completes_a_step_costs_nothing(tmp_path: Path) -> None:
    require_postgres()
    lock = random.randrange(1 << 40, 1 << 41)  # the tests share one database: a lock of this test's own
    with postgres.fresh_schema("crash1") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            players = [fake.add_member(guild, f"p{i}") for i in range(3)]
            gateway = BotProcess(fake, url, role="gateway", log_path=tmp_path / "gateway.log", env=TIMING)
            doomed = BotProcess(fake, url, role="worker", log_path=tmp_path / "doomed.log", env=TIMING)
            second = BotProcess(fake, url, role="worker", log_path=tmp_path / "second.log", env=TIMING)
            store = await Store.open(url, shared=True)
            holder = await psycopg.AsyncConnection.connect(url, autocommit=True)
            try:
                await gateway.sync_commands()
                await gateway.start()
                await doomed.start()
                game_id = await new_game(fake, channel, moderator, players)
                seats = await store.seats(game_id)
                house_of = {user: house for house, user in seats.items()}
                dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}

                async def submit(player: Any) -> Any:
                    form = dms[player.id]
                    return await fake.click(player, form, form_control(form, game_id, house_of[player.id]))

                for player in players[:-1]:
                    submitted = await submit(player)
                    await fake.world.wait_until(
                        lambda s=submitted: bool(s.response and "Recorded" in s.response.text()), 60, "a receipt"
                    )
                # The last answer completes the planning step; its outcome will wait for the test's lock.
                hold_outcomes(url, lock)
                await holder.execute("SELECT pg_advisory_lock(%s)", (lock,))
                last_house = house_of[players[-1].id]
                last = await submit(players[-1])
                await fake.world.wait_until(
                    lambda: bool(peek(url, COMMITTED, (game_id, last_house))),
                    60,
                    "the last answer to be committed",
                    poll=0.05,
                )
                await asyncio.sleep(0.5)  # it now waits in the outcome's statement
                assert not peek(url, "SELECT 1 FROM command_queue WHERE done_at IS NOT NULL AND outcome LIKE '%rule%'")
                await doomed.kill()
                await holder.execute("SELECT pg_advisory_unlock(%s)", (lock,))
                release_outcomes(url)

                await second.start()
                await fake.world.wait_until(
                    lambda: bool(
                        last.response and ("Recorded" in last.response.text() or "NOT" in last.response.text())
                    ),
                    60,
                    "the last player's receipt",
                )
                assert "Recorded" in last.response.text(), last.response.text()
                entries = peek(url, COMMITTED, (game_id, last_house))
                assert len(entries) == 1
                state = peek(url, "SELECT state FROM games WHERE id = ?", (game_id,))[0][0]
                game = Game.from_json(state)
                assert game.state.orders_revealed
                deadline = peek(url, "SELECT step_key FROM deadlines WHERE game_id = ?", (game_id,))
                assert deadline and deadline[0][0] == step_key(game), "the new step has its deadline"
                await fake.world.wait_until(lambda: not peek(url, "SELECT 1 FROM outbox"), 60, "the outbox", poll=0.2)
                await fake.wait_idle(quiet=1.5, timeout=60)
                reveals = [m for m in fake.messages_in(channel) if "Orders are revealed" in (m.content or "")]
                assert len(reveals) == 1, [m.content for m in fake.messages_in(channel)]
            finally:
                await holder.close()
                await store.close()
                for process in (gateway, doomed, second):
                    await process.stop()


async def test_X_09_the_one_process_bot_starts_beside_a_game_that_no_longer_loads(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        broken_channel = fake.add_text_channel(guild, "broken")
        healthy_channel = fake.add_text_channel(guild, "healthy")
        broken_players = [fake.add_member(guild, f"b{i}") for i in range(3)]
        healthy_players = [fake.add_member(guild, f"h{i}") for i in range(3)]
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        try:
            broken = await new_game(fake, broken_channel, moderator, broken_players)
            healthy = await new_game(fake, healthy_channel, moderator, healthy_players)
            for p in [*broken_players, *healthy_players]:
                await fake.wait_for_dm(p, timeout=30)
            await fake.wait_idle(quiet=1.0, timeout=60)
            await bot.kill()
            # A row that no longer loads, as a bug of an old version or a hand edit leaves it.
            with sqlite3.connect(db) as connection:
                connection.execute("UPDATE games SET state = ? WHERE id = ?", ('{"version": 1}', broken))
            await bot.start()
            await fake.world.wait_until(
                lambda: any("/mod import" in (m.content or "") for m in fake.messages_in(broken_channel)),
                30,
                "the broken game's channel to be told",
            )
            # The healthy game plays on: its player answers and is told it was recorded.
            store = await Store.open(db)
            try:
                seats = await store.seats(healthy)
            finally:
                await store.close()
            player = healthy_players[0]
            house = next(h for h, u in seats.items() if u == player.id)
            form = fake.dm_messages(player)[-1]
            submitted = await fake.click(player, form, form_control(form, healthy, house))
            await fake.world.wait_until(
                lambda: bool(submitted.response and "Recorded" in submitted.response.text()), 60, "the receipt"
            )
            # A restart tells nobody twice.
            await bot.kill()
            await bot.start()
            await fake.wait_idle(quiet=1.5, timeout=60)
            told = [m for m in fake.messages_in(broken_channel) if "/mod import" in (m.content or "")]
            assert len(told) == 1
            assert "Traceback" not in bot.output().split("quarantined")[-1]
        finally:
            await bot.stop()


def hold_second_default(url: str, lock: int) -> None:
    """From now on, a deadline's second default answer of a game waits, inside its commit, for advisory lock ``lock``
    (held by the test): its firer has committed one default and is stopped in the next."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "CREATE FUNCTION hold_default() RETURNS trigger AS $$ BEGIN"
            " IF NEW.source = 'deadline' AND EXISTS (SELECT 1 FROM answers WHERE game_id = NEW.game_id"
            f" AND source = 'deadline') THEN PERFORM pg_advisory_xact_lock({lock}); END IF; RETURN NEW; END"
            " $$ LANGUAGE plpgsql"
        )
        connection.execute(
            "CREATE TRIGGER hold_default BEFORE INSERT ON answers FOR EACH ROW EXECUTE FUNCTION hold_default()"
        )


@pytest.mark.parametrize("held_commit", ["aborted", "landed"])
async def test_X_10_a_deadline_firer_killed_after_its_first_default_leaves_nothing_out(
    tmp_path: Path, held_commit: str
) -> None:
    """Fault 10 with a real kill: the one-process bot on PostgreSQL fires the planning step's deadline, commits the
    first house's default and is killed with SIGKILL inside the second's commit. Started again, it takes the deadline
    up once its claim has lapsed: every house is answered for once, each has its missed deadline, and the channel's
    news names all three.

    The commit under way when its process died either never happens (the server drops the dead client's session
    first: ``aborted``) or happens all the same (``landed``): a commit sent in one round trip with the statements it
    ends (``PostgresDatabase.execute_together``) needs no more word from its client, so the server completes it once
    the lock it waited for is free, as after a crash just past sending a commit."""
    require_postgres()
    lock = random.randrange(1 << 40, 1 << 41)
    prefix = f"crash10_{random.randrange(1 << 30)}"
    with postgres.fresh_schema("crash10") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            players = [fake.add_member(guild, f"p{i}") for i in range(3)]
            bot = BotProcess(fake, url, log_path=tmp_path / "bot.log", env={**TIMING, "PGAPPNAME": prefix})
            holder = await psycopg.AsyncConnection.connect(url, autocommit=True)
            try:
                await bot.sync_commands()
                await bot.start()
                game_id = await new_game(fake, channel, moderator, players)
                for p in players:
                    await fake.wait_for_dm(p, timeout=30)
                houses = sorted(
                    house for (house,) in peek(url, "SELECT house FROM seats WHERE game_id = ?", (game_id,))
                )
                hold_second_default(url, lock)
                await holder.execute("SELECT pg_advisory_lock(%s)", (lock,))
                with psycopg.connect(url, autocommit=True) as connection:  # the deadline is due: the sweep fires it
                    connection.execute("UPDATE deadlines SET due_at = 0 WHERE game_id = %s", (game_id,))
                defaults = "SELECT house FROM answers WHERE game_id = ? AND source = 'deadline'"
                await fake.world.wait_until(
                    lambda: len(peek(url, defaults, (game_id,))) == 1, 60, "one default", poll=0.05
                )
                # The second's commit has reached the server and waits there for the lock (a fixed pause was not
                # always enough for a loaded machine to send it).
                waiting = (
                    "SELECT 1 FROM pg_stat_activity WHERE application_name = ? AND wait_event_type = 'Lock'"
                    " AND wait_event = 'advisory'"
                )
                await fake.world.wait_until(lambda: peek(url, waiting, (prefix,)), 30, "the held commit", poll=0.05)
                await bot.kill()
                if held_commit == "aborted":  # the dead bot's sessions ended before the lock is free
                    with psycopg.connect(url, autocommit=True) as connection:
                        connection.execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                            (prefix,),
                        )
                        await fake.world.wait_until(
                            lambda: (
                                not peek(url, "SELECT 1 FROM pg_stat_activity WHERE application_name = ?", (prefix,))
                            ),
                            30,
                            "the dead bot's sessions to end",
                            poll=0.05,
                        )
                await holder.execute("SELECT pg_advisory_unlock(%s)", (lock,))
                if held_commit == "landed":
                    await fake.world.wait_until(
                        lambda: len(peek(url, defaults, (game_id,))) == 2, 30, "the held commit", poll=0.05
                    )
                with psycopg.connect(url, autocommit=True) as connection:
                    connection.execute("DROP TRIGGER hold_default ON answers")
                assert len(peek(url, defaults, (game_id,))) == (1 if held_commit == "aborted" else 2)

                await bot.start()
                await fake.world.wait_until(
                    lambda: len(peek(url, defaults, (game_id,))) == len(houses), 60, "every default", poll=0.2
                )
                assert sorted(h for (h,) in peek(url, defaults, (game_id,))) == houses  # each once
                missed = peek(url, "SELECT house, in_a_row FROM missed_deadlines WHERE game_id = ?", (game_id,))
                assert sorted(missed) == [(h, 1) for h in houses]
                news = await fake.wait_for_message(
                    lambda m: "deadline passed" in m.content, channel=channel, timeout=60
                )
                assert all(name in news.content for name in ("Baratheon", "Lannister", "Stark")), news.content
                await fake.wait_idle(quiet=1.5, timeout=60)
                assert len([m for m in fake.messages_in(channel) if "deadline passed" in m.content]) == 1
            finally:
                await holder.close()
                await bot.stop()
