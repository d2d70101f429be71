"""Issue X, fault 6, with real processes: every database connection of a gateway and two workers is terminated
(``pg_terminate_backend``) again and again while a burst of answers completes the planning step of three games at
once. Nothing may show: every answer is applied once and its player told "Recorded" once (never "NOT recorded"), each
game's reveal is posted once, every decision DM goes out once, and the outbox empties (no row left waiting forever)."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.fake_discord.errors import FakeTimeoutError
from testing.forms import form_control
from testing.peek import peek
from testing.phone import every_text
from tests.bot.test_scale_out import new_game
from tests.conftest import require_postgres

GAMES = 3
PLAYERS = 3
TIMING = {"DEADLINE_SWEEP_S": "0.5", "DEADLINE_LEASE_S": "5", "IMAGE_WORKERS": "1", "UNTOLD_SWEEP_S": "1"}


async def cut_every_connection(url: str, prefix: str) -> int:
    """Terminate every backend whose application name starts with ``prefix`` (this test's processes only)."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
        cursor = await admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE %s",
            (prefix + "%",),
        )
        row = await cursor.fetchone()
        return int(row[0]) if row else 0


async def test_X_06_every_connection_cut_mid_burst_costs_nothing(tmp_path: Path) -> None:
    require_postgres()
    prefix = f"storm_{secrets.token_hex(3)}_"
    with postgres.fresh_schema("storm") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            tables = [
                (
                    fake.add_text_channel(guild, f"game-{g}"),
                    [fake.add_member(guild, f"g{g}p{i}") for i in range(PLAYERS)],
                )
                for g in range(GAMES)
            ]

            def process(role: str, name: str) -> BotProcess:
                env = {**TIMING, "PGAPPNAME": prefix + name}
                return BotProcess(fake, url, role=role, log_path=tmp_path / f"{name}.log", env=env)

            gateway = process("gateway", "gateway")
            workers = [process("worker", f"worker{i}") for i in range(2)]
            store = await Store.open(url, shared=True)
            try:
                await gateway.sync_commands()
                await gateway.start()
                for worker in workers:
                    await worker.start()
                game_ids = [await new_game(fake, channel, moderator, players) for channel, players in tables]
                seats = {g: await store.seats(g) for g in game_ids}
                house_of = {user: (g, house) for g in game_ids for house, user in seats[g].items()}
                everyone = [p for _, players in tables for p in players]
                dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in everyone}
                await fake.wait_idle(quiet=1.0, timeout=60)
                dm_counts_before = {p.id: len(fake.dm_messages(p)) for p in everyone}

                async def answer(player: Any) -> Any:
                    game_id, house = house_of[player.id]
                    form = dms[player.id]
                    submitted = await fake.click(player, form, form_control(form, game_id, house))
                    # Told once the answer is known: at once, or after a moment the database was away ("it may or
                    # may not have been recorded", then the receipt edited by the gateway's sweep).
                    await fake.world.wait_until(
                        lambda: bool(
                            submitted.response and any("Recorded" in t for t in every_text(submitted.response))
                        ),
                        240,
                        f"the receipt of {player.id}",
                    )
                    return submitted

                async def storm() -> int:
                    cut = 0
                    for _ in range(4):
                        await asyncio.sleep(0.15)
                        cut += await cut_every_connection(url, prefix)
                    return cut

                results = await asyncio.gather(asyncio.gather(*(answer(p) for p in everyone)), storm())
                submitted, cut = results
                assert cut > 0, "the storm cut no connection"
                for s in submitted:
                    texts = every_text(s.response)
                    assert not any("NOT recorded" in t for t in texts), texts
                    assert sum("Recorded" in t for t in texts) >= 1, texts

                # Every answer in the log once; every game revealed its orders.
                for game_id in game_ids:
                    log = await store.answers(game_id)
                    by_house = Counter(a.house for a in log if a.source == "player")
                    assert set(by_house.values()) == {1} and len(by_house) == PLAYERS, by_house

                # What the answers implied goes out once, and the outbox empties.
                try:
                    await fake.world.wait_until(
                        lambda: not peek(url, "SELECT 1 FROM outbox"), 120, "the outbox", poll=0.2
                    )
                except FakeTimeoutError:  # what is left, and what the workers said of it, for whoever looks next
                    left = peek(url, "SELECT game_id, version, kind, sent FROM outbox ORDER BY game_id, version")
                    said = "\n".join(w.output()[-4000:] for w in workers)
                    raise AssertionError(f"the outbox kept {left}; the workers said:\n{said}") from None
                await fake.wait_idle(quiet=2.0, timeout=60)
                for channel, _ in tables:
                    reveals = [m for m in fake.messages_in(channel) if "Orders are revealed" in (m.content or "")]
                    assert len(reveals) == 1, [m.content for m in fake.messages_in(channel)]
                for p in everyone:
                    new = fake.dm_messages(p)[dm_counts_before[p.id] :]
                    firsts = [every_text(m)[0] if every_text(m) else m.content for m in new]
                    assert len(firsts) == len(set(firsts)), (p.id, firsts)  # no DM sent twice
            finally:
                await store.close()
                await gateway.stop()
                for worker in workers:
                    await worker.stop()
