"""Issue X, faults 4 and 5 with real processes: the real ``bot.py`` as a gateway and workers on PostgreSQL, against the
fake Discord. One game serves both attacks, one after the other (one set-up: CI stays quick):

- fault 5: the gateway's database connections are terminated (``pg_terminate_backend``) while it waits for an answer's
  outcome; the answer is applied once and its player told "Recorded", never "NOT recorded";
- fault 4: the gateway is killed (SIGKILL) with two answers queued and no worker running; restarted beside a worker,
  it tells each player once: the form turned into its receipt while the interaction's token lives, a DM (in the
  player's language) once it has run out. Each answer is applied once.
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from testing.peek import peek
from testing.phone import every_text
from tests.bot.conftest import Table
from tests.bot.test_scale_out import new_game
from tests.conftest import require_postgres

TIMING = {"DEADLINE_SWEEP_S": "0.5", "IMAGE_WORKERS": "1"}


def queued(url: str, game_id: int) -> int:
    return len(peek(url, "SELECT 1 FROM command_queue WHERE game_id = ? AND done_at IS NULL", (game_id,)))


def recorded_versions(message: Any) -> int:
    """How many versions of a message told its player his answer was recorded."""
    return sum("Recorded" in text for text in every_text(message))


async def test_a_gateway_that_loses_its_connections_or_dies_tells_every_player_once(tmp_path: Path) -> None:
    require_postgres()
    app_name = f"gw_{secrets.token_hex(4)}"  # libpq's PGAPPNAME: this test's gateway's connections, and no one else's
    with postgres.fresh_schema("gwfault") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            players = [fake.add_member(guild, f"p{i}", locale="ru" if i == 1 else "en-US") for i in range(3)]
            gateway_env = {**TIMING, "PGAPPNAME": app_name}
            gateway = BotProcess(fake, url, role="gateway", log_path=tmp_path / "gateway.log", env=gateway_env)

            def worker(n: int) -> BotProcess:
                return BotProcess(fake, url, role="worker", log_path=tmp_path / f"worker{n}.log", env=TIMING)

            workers = [worker(0)]
            store = await Store.open(url, shared=True)
            try:
                await gateway.sync_commands()
                await gateway.start()
                await workers[0].start()
                game_id = await new_game(fake, channel, moderator, players)
                seats = {user: house for house, user in (await store.seats(game_id)).items()}
                dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
                await workers[0].kill()  # no worker: answers wait in the queue

                async def submit(player: Any) -> Any:
                    form = dms[player.id]
                    return await fake.click(player, form, form_control(form, game_id, seats[player.id]))

                # Fault 5: the gateway's connections are dropped while it waits for the outcome.
                waiting = await submit(players[2])
                await fake.world.wait_until(lambda: queued(url, game_id) == 1, 20, "the answer queued", poll=0.1)
                terminate = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?"
                killed = peek(url, terminate, (app_name,))
                assert killed, "the gateway's connections were not found"
                await asyncio.sleep(1.0)  # the gateway notices (its LISTEN connection and its next read)
                workers.append(worker(1))
                await workers[1].start()
                await fake.world.wait_until(
                    lambda: recorded_versions(dms[players[2].id]) > 0, 30, "the receipt after the drop", poll=0.1
                )
                assert not any("NOT recorded" in m.text() for m in waiting.followups), gateway.output()[-3000:]
                await workers[1].kill()

                # Fault 4: two answers queued, the gateway killed before any outcome.
                await submit(players[0])
                await submit(players[1])
                await fake.world.wait_until(lambda: queued(url, game_id) == 2, 20, "both answers queued", poll=0.1)
                await gateway.kill()
                untold = peek(url, "SELECT gateway, reply FROM command_queue WHERE told_at IS NULL")
                assert len(untold) == 2 and {row[0] for row in untold} == {"gateway"}, untold
                # The second player's interaction token has run out by the time the gateway is back: a DM tells him.
                await store.write(
                    "UPDATE command_queue SET reply = jsonb_set(reply::jsonb, '{expires_at}', '0')::text"
                    " WHERE told_at IS NULL AND reply::jsonb->>'user_id' = ?",
                    (str(players[1].id),),
                )
                await gateway.start()
                workers.append(worker(2))
                await workers[2].start()
                await fake.world.wait_until(
                    lambda: not peek(url, "SELECT 1 FROM command_queue WHERE told_at IS NULL"),
                    60,
                    "every player told",
                    poll=0.2,
                )
                await fake.wait_idle(quiet=1.0, timeout=30)
                assert "told 2 players the outcomes" in gateway.output()  # by the restarted gateway, from the table

                # Every answer applied once; every player told once, and never "NOT recorded".
                answers = [a.house for a in await store.answers(game_id) if a.source == "player"]
                assert sorted(answers) == sorted(seats[p.id] for p in players), answers
                assert recorded_versions(dms[players[0].id]) == 1, every_text(dms[players[0].id])
                assert recorded_versions(dms[players[2].id]) == 1, every_text(dms[players[2].id])
                # In his language: "About your answer in … (the bot restarted …): ✅ Recorded: …", in Russian.
                told_by_dm = [m.text() for m in fake.dm_messages(players[1]) if "бот перезапускался" in m.text()]
                assert len(told_by_dm) == 1 and "Принято" in told_by_dm[0], fake.dm_messages(players[1])
                assert not any("Принято" in text for text in every_text(dms[players[1].id]))  # the token had run out
                everything = [text for p in players for m in fake.dm_messages(p) for text in every_text(m)]
                assert not any("NOT recorded" in text or "НЕ записано" in text for text in everything)
                assert fake.failed_interactions == []
            finally:
                await store.close()
                for process in (gateway, *workers):
                    await process.stop()


async def test_the_same_game_new_delivered_twice_makes_one_lobby(table: Table) -> None:
    """Fault 12: two gateways by mistake (or Discord retrying) receive one ``/game new``: its interaction's id is the
    lobby's key, so the second delivery finds the first's game, and no second lobby message is posted."""
    fake = table.fake
    created = await fake.slash(table.moderator, table.channel, "game new", players=3)
    lobby = await created.wait_response(timeout=10)
    # The very same interaction (id and token) arrives once more, as a second gateway would receive it.
    fake.gateway.dispatch("INTERACTION_CREATE", created.payload, guild_id=table.guild.id)  # type: ignore[attr-defined]
    await fake.wait_idle(quiet=1.0, timeout=10)
    games = await table.service.store.games_in_channel(table.channel.id)  # type: ignore[attr-defined]
    assert [g.id for g in games] == [int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])]
    assert len(fake.messages_in(table.channel)) == 1  # one lobby; nothing told twice
    assert created.followups == []
