"""Misconfigurations are refused at start (issue X, fault 13): real ``bot.py`` processes against the fake Discord on
one PostgreSQL schema. A second one-process bot, a one-process bot beside a gateway (either order) and a second
gateway on a shard already held each exit with status 3 and one line naming the holder, before they open a gateway
session; the holder plays on. Gateways on different shards both run, and a holder killed with SIGKILL frees its
leases at once (their advisory locks die with its connections), so a process of its role starts again straight
away."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.peek import peek
from tests.bot.test_scale_out import new_game
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow

REFUSED = 3  # cogs/client.py: a process refused one of its leases
# Leases renewed every 10/3 s: a newcomer refuses once it has seen the holder renew (alive, not merely connected).
LEASE_S = 10.0
TIMING = {"LEASE_S": str(LEASE_S), "DEADLINE_SWEEP_S": "0.5", "IMAGE_WORKERS": "1"}
SHARDED = {"SHARD_COUNT": "2"}


def refusal(process: BotProcess) -> str:
    """The refused process's one line of complaint: no traceback, nothing else it warns of or fails at."""
    output = process.output()
    assert "Traceback" not in output, output
    loud = [line for line in output.splitlines() if not re.search(r" (INFO|DEBUG) ", line)]
    assert len(loud) == 1 and "refusing to start" in loud[0], output
    return loud[0]


async def refused_at_once(process: BotProcess, fake: FakeDiscord) -> str:
    """Run ``process`` to its end: status 3 within a few lease renewals and no gateway session opened meanwhile."""
    identified = fake.gateway.identify_count
    began = time.monotonic()
    assert await process.exit_status(timeout=60) == REFUSED, process.output()[-3000:]
    assert time.monotonic() - began < 2 * LEASE_S, "refused, but only after the holder's lease could have run out"
    assert fake.gateway.identify_count == identified
    return refusal(process)


def holder(process: BotProcess, role: str) -> str:
    """How a refusal names ``process`` (a running holder)."""
    assert process.proc is not None
    return f"bot.py --role {role} (pid {process.proc.pid} on "


async def restarts_at_once(holder: BotProcess, successor: BotProcess, lease: str, url: str) -> None:
    """Kill ``holder`` with SIGKILL and start ``successor`` of its role: it is connected before the holder's ``lease``
    would have run out and been waited for (a successor that waited would start after its expiry plus ``LEASE_S``)."""
    ((expires_at,),) = peek(url, "SELECT expires_at FROM leases WHERE name = ?", (lease,))
    await holder.kill()
    await successor.start()
    assert time.time() < float(expires_at) + LEASE_S, "the successor waited for the dead holder's lease to run out"
    assert "refusing" not in successor.output()
    ((taken_by,),) = peek(url, "SELECT info FROM leases WHERE name = ?", (lease,))
    assert successor.proc is not None and f"(pid {successor.proc.pid} on " in str(taken_by)


def lobbies_and_pins(fake: FakeDiscord, channel: Any) -> tuple[int, int]:
    """The channel's lobbies (open, or started: the lobby message then says so) and pinned messages."""
    messages = fake.messages_in(channel)
    lobbies = sum(
        1 for m in messages if "The game has started" in m.content or (m.components and "lobby:" in str(m.components))
    )
    return lobbies, sum(1 for m in messages if m.pinned)


async def test_a_second_one_process_bot_or_a_gateway_beside_one_is_refused_and_a_killed_one_restarts(
    tmp_path: Path,
) -> None:
    require_postgres()
    with postgres.fresh_schema("misconf") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            channel = fake.add_text_channel(guild, "game")
            players = [fake.add_member(guild, f"p{i}") for i in range(3)]

            def process(name: str, role: str = "all") -> BotProcess:
                return BotProcess(fake, url, role=role, log_path=tmp_path / f"{name}.log", env=TIMING)

            first = process("first")
            started: list[BotProcess] = [first]
            store = await Store.open(url, shared=True)
            try:
                await first.sync_commands()
                await first.start()

                # A second one-process bot on the same schema: refused, naming the first.
                line = await refused_at_once(process("second"), fake)
                assert "needs the lease 'one-process'" in line and holder(first, "all") in line, line
                # A gateway beside the one-process bot: refused too (its shard is the one-process bot's).
                line = await refused_at_once(process("gateway", "gateway"), fake)
                assert "bot.py --role gateway" in line and holder(first, "all") in line, line
                # ... and a gateway on a shard the one-process bot does not hold: refused for the bot itself.
                sharded = BotProcess(
                    fake,
                    url,
                    role="gateway",
                    log_path=tmp_path / "sharded.log",
                    env={**TIMING, **SHARDED, "SHARD_IDS": "1"},
                )
                line = await refused_at_once(sharded, fake)
                assert "needs the lease 'one-process'" in line and holder(first, "all") in line, line

                # The first plays on, alone: one lobby, one game, one pinned status.
                assert first.proc is not None and first.proc.returncode is None
                assert len(fake.gateway.connected_sessions) == 1
                game_id = await new_game(fake, channel, moderator, players)
                await fake.world.wait_until(lambda: lobbies_and_pins(fake, channel)[1] >= 1, 30, "the pinned status")
                await fake.wait_idle(quiet=1.0, timeout=30)
                assert lobbies_and_pins(fake, channel) == (1, 1), [m.content for m in fake.messages_in(channel)]
                assert [g.id for g in await store.games_in_channel(channel.id, active_only=False)] == [game_id]
                assert (await store.seats(game_id)).keys(), "the game started"

                assert fake.failed_interactions == [], first.output()[-3000:]

                # Killed outright: its successor starts at once, without waiting for the leases to run out.
                successor = process("successor")
                started.append(successor)
                await restarts_at_once(first, successor, "one-process", url)
            finally:
                await store.close()
                for bot in started:
                    await bot.stop()


async def test_a_gateway_refuses_a_held_shard_and_a_one_process_bot_but_not_another_shard(tmp_path: Path) -> None:
    require_postgres()
    with postgres.fresh_schema("misconf") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            fake.add_guild("Westeros", locale="en-US")

            def gateway(name: str, shard: int) -> BotProcess:
                env = {**TIMING, **SHARDED, "SHARD_IDS": str(shard)}
                return BotProcess(fake, url, role="gateway", log_path=tmp_path / f"{name}.log", env=env)

            shard0, shard1 = gateway("shard0", 0), gateway("shard1", 1)
            started = [shard0]
            try:
                await shard0.start()

                # The same shard again: refused, naming the holder.
                line = await refused_at_once(gateway("shard0-again", 0), fake)
                assert "needs the lease 'gateway:0'" in line and holder(shard0, "gateway") in line, line
                # A one-process bot beside a gateway: refused.
                one = BotProcess(fake, url, log_path=tmp_path / "one.log", env={**TIMING, **SHARDED})
                line = await refused_at_once(one, fake)
                assert "bot.py --role all" in line and holder(shard0, "gateway") in line, line

                # Another shard: both run, each with its own session.
                started.append(shard1)
                await shard1.start()
                assert sorted(s.shard_id for s in fake.gateway.connected_sessions) == [0, 1]
                assert all(p.proc is not None and p.proc.returncode is None for p in (shard0, shard1))

                # Shard 0's gateway killed outright: a new one takes its shard at once.
                await shard1.stop()  # kill() waits for every session to drop
                successor = gateway("shard0-successor", 0)
                started.append(successor)
                await restarts_at_once(shard0, successor, "gateway:0", url)
            finally:
                for process in started:
                    await process.stop()
