"""Health and metrics (issue O): the real ``bot.py`` with HEALTH_PORT set, against the fake Discord.

- ``/healthz`` answers 200 while the one-process bot runs on PostgreSQL, 503 naming the database once its connections
  are cut and new ones refused (the bot connects as a role of this test's own, which the test terminates and then
  forbids to log in: nothing else on the server notices), and 200 again once the role may log in again.
- ``/metrics`` parses with prometheus_client's own parser; its answer counter moves by the number of answers of a burst
  through the fake Discord, and a receipt latency is measured for each.
- Neither shows the token or a member's name.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from tests.bot.test_scale_out import new_game
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow

TIMING = {"DEADLINE_SWEEP_S": "0.5", "IMAGE_WORKERS": "1"}
NAMES = ("Brienne_Tarth", "Sandor_Clegane", "Arya_Stark")  # members' names, which neither endpoint may show


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(total=10)) as response,
    ):
        return response.status, await response.text()


async def wait_for_status(port: int, status: int, timeout: float) -> str:
    """Poll /healthz until it answers ``status``: its body then."""
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    last: tuple[int, str] = (0, "")
    while loop.time() < until:
        last = await get(port, "/healthz")
        if last[0] == status:
            return last[1]
        await asyncio.sleep(0.25)
    raise AssertionError(f"/healthz did not answer {status} within {timeout} s; last: {last}")


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics answer, by name and labels, read by the client library's own parser."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


@contextmanager
def own_role() -> Iterator[tuple[str, str]]:
    """A login role and a schema it owns, both this test's own: (the role, an address connecting as it there)."""
    role = f"health_{secrets.token_hex(5)}"
    schema = f"{role}_s"
    with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
        admin.execute(f'CREATE SCHEMA "{schema}" AUTHORIZATION "{role}"')
    parts = urlsplit(postgres.server_url())
    netloc = f"{role}@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    try:
        yield role, postgres.in_schema(urlunsplit(parts._replace(netloc=netloc)), schema)
    finally:
        with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
            admin.execute(f'ALTER ROLE "{role}" LOGIN')
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (role,))
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
            admin.execute(f'DROP ROLE "{role}"')


def cut(role: str) -> None:
    """The database goes away behind the bot's back: its connections are terminated and new ones refused."""
    with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
        admin.execute(f'ALTER ROLE "{role}" NOLOGIN')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (role,))


def restore(role: str) -> None:
    with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
        admin.execute(f'ALTER ROLE "{role}" LOGIN')


async def test_O_healthz_turns_503_while_the_database_is_cut_and_200_when_it_returns(tmp_path: Path) -> None:
    require_postgres()
    port = free_port()
    with own_role() as (role, url):
        async with FakeDiscord.start(point_discord_py=False) as fake:
            fake.add_guild("Westeros", locale="en-US")
            bot = BotProcess(fake, url, log_path=tmp_path / "bot.log", env={**TIMING, "HEALTH_PORT": str(port)})
            try:
                await bot.start()
                body = await wait_for_status(port, 200, 20)
                assert body.splitlines()[0] == "ok", body
                assert "discord: connected" in body and "database: answers" in body, body

                cut(role)
                body = await wait_for_status(port, 503, 20)
                assert body.splitlines()[0] == "unhealthy: database", body
                assert "discord: connected" in body, body  # only the database is named
                for secret in (fake.token, role):
                    assert secret not in body

                restore(role)
                body = await wait_for_status(port, 200, 30)
                assert body.splitlines()[0] == "ok", body
                assert bot.proc is not None and bot.proc.returncode is None, "the bot ran on through the outage"
            finally:
                await bot.stop()


async def test_O_metrics_count_a_burst_of_answers_and_show_no_secret_or_member(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "games.sqlite3"
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        moderator = fake.add_member(guild, "Moderator_Varys", manage_guild=True)
        players = [fake.add_member(guild, name) for name in NAMES]
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log", env={**TIMING, "HEALTH_PORT": str(port)})
        try:
            await bot.sync_commands()
            await bot.start()
            game_id = await new_game(fake, channel, moderator, players)
            store = await Store.open(db)
            try:
                house_of = {user: house for house, user in (await store.seats(game_id)).items()}
            finally:
                await store.close()
            dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}

            status, before_text = await get(port, "/metrics")
            assert status == 200
            before = samples(before_text)
            player_answers = ("westeros_answers_applied_total", (("source", "player"),))
            receipts = ("westeros_receipt_latency_seconds_count", ())

            async def answer(player: Any) -> None:
                form = dms[player.id]
                submitted = await fake.click(player, form, form_control(form, game_id, house_of[player.id]))
                await fake.world.wait_until(
                    lambda: bool(submitted.response and "Recorded" in submitted.response.text()),
                    60,
                    f"the receipt of {player.name}",
                )

            await asyncio.gather(*(answer(p) for p in players))
            await asyncio.sleep(0.5)  # the receipt's latency is noted just after Discord took the edit
            status, after_text = await get(port, "/metrics")
            assert status == 200
            after = samples(after_text)
            assert after[player_answers] - before.get(player_answers, 0.0) == len(players), after_text
            assert after[receipts] - before.get(receipts, 0.0) == len(players), after_text
            assert after[("westeros_games", (("status", "running"),))] == 1
            assert ("westeros_outbox_backlog", ()) in after
            assert ("westeros_queue_depth", ()) not in after  # the one-process bot has no queue

            _, health = await get(port, "/healthz")
            for text in (before_text, after_text, health):
                assert fake.token not in text
                for name in (*NAMES, "Moderator_Varys"):
                    assert name not in text
                for player in players:
                    assert str(player.id) not in text
        finally:
            await bot.stop()


async def test_O_a_gateway_and_a_worker_each_serve_their_own_health_and_metrics(tmp_path: Path) -> None:
    """The gateway measures the receipts, the worker applies the answers and publishes; each says so on its own port,
    and both show the queue's depth."""
    require_postgres()
    gateway_port, worker_port = free_port(), free_port()
    with postgres.fresh_schema("health") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "Moderator_Varys", manage_guild=True)
            players = [fake.add_member(guild, name) for name in NAMES]
            gateway = BotProcess(
                fake, url, role="gateway", log_path=tmp_path / "gateway.log",
                env={**TIMING, "HEALTH_PORT": str(gateway_port)},
            )  # fmt: skip
            worker = BotProcess(
                fake, url, role="worker", log_path=tmp_path / "worker.log",
                env={**TIMING, "HEALTH_PORT": str(worker_port)},
            )  # fmt: skip
            store = await Store.open(url, shared=True)
            try:
                await gateway.sync_commands()
                await gateway.start()
                await worker.start()
                body = await wait_for_status(gateway_port, 200, 20)
                assert "publisher: none here (the workers publish)" in body, body
                body = await wait_for_status(worker_port, 200, 20)
                assert "discord: logged in to the HTTP API" in body, body
                game_id = await new_game(fake, channel, moderator, players)
                house_of = {user: house for house, user in (await store.seats(game_id)).items()}
                dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
                # The worker that published the decision DMs holds the publish lease.
                _, body = await get(worker_port, "/healthz")
                assert "publisher: holding the publish lease" in body, body

                async def answer(player: Any) -> None:
                    form = dms[player.id]
                    submitted = await fake.click(player, form, form_control(form, game_id, house_of[player.id]))
                    await fake.world.wait_until(
                        lambda: bool(submitted.response and "Recorded" in submitted.response.text()),
                        60,
                        f"the receipt of {player.name}",
                    )

                await asyncio.gather(*(answer(p) for p in players))
                await asyncio.sleep(0.5)
                by_gateway = samples((await get(gateway_port, "/metrics"))[1])
                by_worker = samples((await get(worker_port, "/metrics"))[1])
                player_answers = ("westeros_answers_applied_total", (("source", "player"),))
                assert by_gateway[("westeros_receipt_latency_seconds_count", ())] == len(players)
                assert by_gateway.get(player_answers, 0.0) == 0  # the gateway queues them; the worker applies them
                assert by_worker[player_answers] == len(players)
                for seen in (by_gateway, by_worker):
                    assert ("westeros_queue_depth", ()) in seen
                    assert seen[("westeros_games", (("status", "running"),))] == 1
            finally:
                await store.close()
                await worker.stop()
                await gateway.stop()
