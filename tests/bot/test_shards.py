"""The gateway's shards (issue S): ``SHARD_COUNT`` and ``SHARD_IDS`` split Discord's gateway between processes.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count`` and every DM interaction to shard 0; the
fake Discord does the same. Two gateway processes holding one shard each, and one worker, on PostgreSQL: games in a
guild of each shard are created, joined and started there, and answered from the DM forms (all through shard 0).
And the one-process bot holding both shards serves a guild of either."""

from __future__ import annotations

import asyncio
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.fake_discord.gateway import GatewaySession
from testing.forms import form_control
from tests.bot.test_scale_out import new_game
from tests.conftest import require_postgres

pytestmark = pytest.mark.slow

SHARDS = 2
PLAYERS = 3
TIMING = {"DEADLINE_SWEEP_S": "0.5", "IMAGE_WORKERS": "1"}


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


async def guild_on_each_shard(fake: FakeDiscord) -> list[Any]:
    """A guild for each shard, by index. The fake's guild ids are snowflakes of the current millisecond, so new
    guilds are added a few milliseconds apart until every shard has one (those made on the way stay, on their shard)."""
    found: dict[int, Any] = {}
    while len(found) < SHARDS:
        guild = fake.add_guild(f"Realm {len(fake.world.guilds)}", locale="en-US")
        found.setdefault(shard_of(guild.id), guild)
        await asyncio.sleep(0.003)
    return [found[shard] for shard in range(SHARDS)]


def table_in(fake: FakeDiscord, guild: Any, shard: int) -> tuple[Any, Any, list[Any]]:
    """A game channel in ``guild``, its moderator and its players."""
    moderator = fake.add_member(guild, f"mod{shard}", manage_guild=True)
    channel = fake.add_text_channel(guild, f"game-{shard}")
    return channel, moderator, [fake.add_member(guild, f"s{shard}p{i}") for i in range(PLAYERS)]


def sessions_since(fake: FakeDiscord, before: set[str]) -> list[GatewaySession]:
    return [session for key, session in fake.gateway.sessions.items() if key not in before]


def event_guild(payload: dict[str, Any]) -> int | None:
    """The guild an event is about (None: a DM, or no guild at all)."""
    data = payload["d"]
    if payload["t"] == "GUILD_CREATE":
        return int(data["id"])
    raw = data.get("guild_id") if isinstance(data, dict) else None
    return int(raw) if raw else None


def guild_events(session: GatewaySession) -> list[tuple[str, int | None]]:
    """Every event the session was sent (READY aside) with its guild. The fake keeps a session's last 1000 events
    for RESUME: a test that needs all of them stays under that."""
    assert session.seq == len(session.buffer), "the session's early events are gone from the fake's buffer"
    return [(p["t"], event_guild(p)) for p in session.buffer if p["t"] != "READY"]


async def answer_from_dm(fake: FakeDiscord, player: Any, dm: Any, game_id: int, house: str) -> str:
    submitted = await fake.click(player, dm, form_control(dm, game_id, house))
    await fake.world.wait_until(
        lambda: bool(submitted.response and "Recorded" in submitted.response.text()), 60, f"{player.id}'s receipt"
    )
    assert submitted.response is not None
    return submitted.response.text()  # the receipt is the DM form's layout: its words are text displays


async def test_two_gateways_holding_a_shard_each_serve_every_guild_and_dms_reach_shard_0(tmp_path: Path) -> None:
    require_postgres()
    with postgres.fresh_schema("shards") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guilds = await guild_on_each_shard(fake)
            tables = [table_in(fake, guild, shard) for shard, guild in enumerate(guilds)]
            gateways = [
                BotProcess(
                    fake,
                    url,
                    role="gateway",
                    log_path=tmp_path / f"gateway{shard}.log",
                    env={**TIMING, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard)},
                )
                for shard in range(SHARDS)
            ]
            worker = BotProcess(fake, url, role="worker", log_path=tmp_path / "worker.log", env=TIMING)
            store = await Store.open(url, shared=True)
            try:
                await gateways[0].sync_commands()  # a gateway's SHARD_IDS does not stop the registration
                held: list[list[GatewaySession]] = []
                for gateway in gateways:
                    before = set(fake.gateway.sessions)
                    await gateway.start()
                    held.append(sessions_since(fake, before))
                await worker.start()
                # Each process identified as its shard of two, and nothing else.
                assert [[(s.shard_id, s.shard_count) for s in sessions] for sessions in held] == [[(0, 2)], [(1, 2)]]

                # Each guild's lobby is served by the gateway holding its shard; the games' DMs go out.
                game_ids = [await new_game(fake, channel, mod, players) for channel, mod, players in tables]
                seats = {g: await store.seats(g) for g in game_ids}
                house_of = {user: (g, house) for g in game_ids for house, user in seats[g].items()}
                everyone = [p for _, _, players in tables for p in players]
                dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in everyone}
                started = {g: (row.version if (row := await store.game(g)) else -1) for g in game_ids}

                # Every player answers from his DM at once: every click reaches shard 0's gateway.
                receipts = await asyncio.gather(
                    *(answer_from_dm(fake, p, dms[p.id], *house_of[p.id]) for p in everyone)
                )
                assert all("Recorded" in receipt for receipt in receipts)

                # Every answer applied once; each game's version is its start plus its accepted answers.
                for game_id in game_ids:
                    log = await store.answers(game_id)
                    by_house = Counter(a.house for a in log if a.source == "player")
                    assert by_house == Counter(set(seats[game_id])), by_house
                    row = await store.game(game_id)
                    assert row is not None and row.version == started[game_id] + len(log)

                # Each process was sent only its shard's guilds' events; every DM click went to shard 0.
                for shard, (session,) in enumerate(held):
                    events = guild_events(session)
                    strays = [(t, g) for t, g in events if g is not None and shard_of(g) != shard]
                    assert strays == [], strays
                    assert any(t == "INTERACTION_CREATE" and g == guilds[shard].id for t, g in events)
                    dm_clicks = sum(1 for t, g in events if t == "INTERACTION_CREATE" and g is None)
                    assert dm_clicks == (len(everyone) if shard == 0 else 0)
                # ... and each process's cache holds only those guilds, as its log says.
                for shard, gateway in enumerate(gateways):
                    mine = sum(1 for g in fake.world.guilds if shard_of(g) == shard)
                    assert f"shard {shard} of {SHARDS} ready (guilds: {mine})" in gateway.output()
                assert fake.failed_interactions == [], [g.output()[-3000:] for g in gateways]
            finally:
                await store.close()
                for process in (*gateways, worker):
                    await process.stop()


async def test_the_one_process_bot_holding_both_shards_plays_in_a_guild_of_each(tmp_path: Path) -> None:
    """``python bot.py`` with SHARD_COUNT=2 holds shards 0 and 1 in one process (discord.py's AutoShardedBot): a
    guild's events arrive on its own shard, DM clicks on shard 0, and the posts reach either guild's channel."""
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guilds = await guild_on_each_shard(fake)
        tables = [table_in(fake, guild, shard) for shard, guild in enumerate(guilds)]
        database = tmp_path / "games.sqlite3"
        bot = BotProcess(fake, database, env={**TIMING, "SHARD_COUNT": str(SHARDS)})
        store = await Store.open(database)

        def revealed(channel: Any) -> bool:
            return any("Orders are revealed" in m.content for m in fake.messages_in(channel))

        try:
            await bot.sync_commands()
            await bot.start(sessions=SHARDS)
            assert sorted((s.shard_id, s.shard_count) for s in fake.gateway.connected_sessions) == [(0, 2), (1, 2)]
            for channel, moderator, players in tables:
                game_id = await new_game(fake, channel, moderator, players)
                seats = await store.seats(game_id)
                for player in players:
                    house = next(h for h, user in seats.items() if user == player.id)
                    dm = await fake.wait_for_dm(player, timeout=30)
                    assert "Recorded" in await answer_from_dm(fake, player, dm, game_id, house)
                await fake.world.wait_until(partial(revealed, channel), 60, "the reveal in the game's channel")
            for shard in range(SHARDS):
                mine = sum(1 for g in fake.world.guilds if shard_of(g) == shard)
                assert f"shard {shard} of {SHARDS} ready (guilds: {mine})" in bot.output()
            assert fake.failed_interactions == [], bot.output()[-3000:]
        finally:
            await store.close()
            await bot.stop()
