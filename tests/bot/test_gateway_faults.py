"""Issue X, the gateway's faults with real processes: the real ``bot.py`` as a gateway and workers on PostgreSQL,
against the fake Discord. Each test plays several attacks on one game, one after the other, all from one set-up
(``gateway_game``: CI stays quick).

- fault 5: the gateway's database connections are terminated (``pg_terminate_backend``) while it waits for an answer's
  outcome; the answer is applied once and its player told "Recorded", never "NOT recorded";
- fault 4: the gateway is killed (SIGKILL) with two answers queued and no worker running; restarted beside a worker,
  it tells each player once: the form turned into its receipt while the interaction's token lives, a DM (in the
  player's language) once it has run out. Each answer is applied once;
- the connection carrying an answer's enqueue drops after the INSERT committed, before the gateway read its id: it
  finds the command by its key instead of enqueueing it again;
- the database out of reach for the gateway alone, for an answer's whole wait: the player is told the outcome is
  unknown, and once the database is back the running gateway tells him "Recorded", once.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.store import Store
from testing import postgres
from testing.bot_process import BotProcess
from testing.db_proxy import DatabaseProxy
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


@dataclass
class GatewayGame:
    """A gateway, a worker and a started game of three players (the second's Discord in Russian), each holding his
    planning form in a DM."""

    tmp_path: Path
    url: str  # the database, as the workers and the test reach it
    fake: FakeDiscord
    store: Store
    gateway: BotProcess
    players: list[Any] = field(default_factory=list)
    game_id: int = 0
    seats: dict[int, str] = field(default_factory=dict)  # member id -> house
    dms: dict[int, Any] = field(default_factory=dict)  # member id -> his planning form
    workers: list[BotProcess] = field(default_factory=list)

    async def start_worker(self) -> BotProcess:
        log_path = self.tmp_path / f"worker{len(self.workers)}.log"
        worker = BotProcess(self.fake, self.url, role="worker", log_path=log_path, env=TIMING)
        self.workers.append(worker)
        await worker.start()
        return worker

    async def submit(self, player: Any) -> Any:
        form = self.dms[player.id]
        return await self.fake.click(player, form, form_control(form, self.game_id, self.seats[player.id]))


@asynccontextmanager
async def gateway_game(
    tmp_path: Path, *, gateway_env: dict[str, str] | None = None, route: Callable[[str], str] = lambda url: url
) -> AsyncIterator[GatewayGame]:
    """``route``: the database address the gateway is given (through a ``DatabaseProxy``, say)."""
    require_postgres()
    with postgres.fresh_schema("gwfault") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            players = [fake.add_member(guild, f"p{i}", locale="ru" if i == 1 else "en-US") for i in range(3)]
            env = {**TIMING, **(gateway_env or {})}
            gateway = BotProcess(fake, route(url), role="gateway", log_path=tmp_path / "gateway.log", env=env)
            store = await Store.open(url, shared=True)
            rig = GatewayGame(tmp_path, url, fake, store, gateway, players)
            try:
                await gateway.sync_commands()
                await gateway.start()
                await rig.start_worker()
                rig.game_id = await new_game(fake, channel, moderator, players)
                rig.seats = {
                    user: house for house, user in (await store.seats(rig.game_id)).items() if user is not None
                }
                rig.dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in players}
                yield rig
            finally:
                await store.close()
                for process in (gateway, *rig.workers):
                    await process.stop()


async def test_a_gateway_that_loses_its_connections_or_dies_tells_every_player_once(tmp_path: Path) -> None:
    app_name = f"gw_{secrets.token_hex(4)}"  # libpq's PGAPPNAME: this test's gateway's connections, and no one else's
    async with gateway_game(tmp_path, gateway_env={"PGAPPNAME": app_name}) as rig:
        fake, url, gateway, store, game_id = rig.fake, rig.url, rig.gateway, rig.store, rig.game_id
        players, dms, seats = rig.players, rig.dms, rig.seats
        await rig.workers[0].kill()  # no worker: answers wait in the queue
        submit = rig.submit

        # Fault 5: the gateway's connections are dropped while it waits for the outcome.
        waiting = await submit(players[2])
        await fake.world.wait_until(lambda: queued(url, game_id) == 1, 20, "the answer queued", poll=0.1)
        terminate = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?"
        killed = peek(url, terminate, (app_name,))
        assert killed, "the gateway's connections were not found"
        await asyncio.sleep(1.0)  # the gateway notices (its LISTEN connection and its next read)
        await rig.start_worker()
        await fake.world.wait_until(
            lambda: recorded_versions(dms[players[2].id]) > 0, 30, "the receipt after the drop", poll=0.1
        )
        assert not any("NOT recorded" in m.text() for m in waiting.followups), gateway.output()[-3000:]
        # His receipt goes before the mark that he was told (written within TOLD_BATCH_S, retried while the pool
        # heals): the gateway killed below must not find him still to tell.
        await fake.world.wait_until(
            lambda: not peek(url, "SELECT 1 FROM command_queue WHERE told_at IS NULL"), 30, "marked told", poll=0.1
        )
        await rig.workers[1].kill()

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
        await rig.start_worker()
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
        told_by_dm = [m.text() for m in fake.dm_messages(players[1]) if "бот не смог сообщить сразу" in m.text()]
        assert len(told_by_dm) == 1 and "Принято" in told_by_dm[0], fake.dm_messages(players[1])
        assert not any("Принято" in text for text in every_text(dms[players[1].id]))  # the token had run out
        everything = [text for p in players for m in fake.dm_messages(p) for text in every_text(m)]
        assert not any("NOT recorded" in text or "НЕ записано" in text for text in everything)
        assert fake.failed_interactions == []


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


def rows_of(url: str, game_id: int) -> list[Any]:
    return peek(url, "SELECT id, done_at, told_at FROM command_queue WHERE game_id = ? ORDER BY id", (game_id,))


async def test_a_gateway_finds_a_dropped_enqueue_and_tells_a_late_outcome_while_it_runs(tmp_path: Path) -> None:
    """Rule 5 of the design note, with the gateway's own database connections through a relay the test cuts.

    An enqueue whose connection drops after the INSERT committed and before the gateway read the command's id: the
    gateway looks the command up by its key (``CommandQueue.find``), so it is enqueued once, applied once, its player
    told once. Then the database out of reach for a whole wait (OUTCOME_TIMEOUT_S, shortened): the player is told the
    outcome is unknown; once the database is back, the same gateway process (never restarted) tells him "Recorded"
    on its next look (UNTOLD_SWEEP_S), once. And a look never tells a player whose Submit is still telling him."""
    timing = {"OUTCOME_TIMEOUT_S": "5", "UNTOLD_SWEEP_S": "1", "LEASE_S": "120"}  # the lease outlives the outage
    async with (
        DatabaseProxy.start(postgres.server_url()) as relay,
        gateway_game(tmp_path, gateway_env=timing, route=relay.url) as rig,
    ):
        fake, url, gateway, game_id, players, dms = rig.fake, rig.url, rig.gateway, rig.game_id, rig.players, rig.dms

        # The enqueue's reply lost: the INSERT reaches the server and commits, its answer never comes back.
        lost = relay.lose_reply_to(b"INSERT INTO command_queue")
        first = await rig.submit(players[0])
        enqueue = await asyncio.wait_for(lost, 20)
        await fake.world.wait_until(lambda: len(rows_of(url, game_id)) == 1, 20, "the INSERT committed", poll=0.05)
        enqueue.drop()
        await fake.world.wait_until(lambda: recorded_versions(dms[players[0].id]) > 0, 30, "the receipt", poll=0.1)
        assert "lost the database connection" in gateway.output()  # the drop was the enqueue's, and it was retried
        assert len(rows_of(url, game_id)) == 1  # enqueued once

        # The database out of reach for the gateway through the whole wait, no worker to apply the answer meanwhile.
        await rig.workers[0].kill()
        waiting = await rig.submit(players[2])
        await fake.world.wait_until(lambda: queued(url, game_id) == 1, 20, "the answer queued", poll=0.05)
        relay.cut()
        unknown = "may or may not have been recorded"
        await fake.world.wait_until(
            lambda: any(unknown in m.text() for m in waiting.followups), 60, "the outcome said unknown", poll=0.1
        )
        assert recorded_versions(dms[players[2].id]) == 0
        await rig.start_worker()  # applies the answer while the gateway still cannot see the database
        await fake.world.wait_until(lambda: queued(url, game_id) == 0, 30, "the answer applied", poll=0.1)
        assert rows_of(url, game_id)[-1][2] is None  # its player not told yet
        pid = gateway.proc.pid if gateway.proc else None
        relay.restore()
        await fake.world.wait_until(
            lambda: recorded_versions(dms[players[2].id]) > 0, 60, "the receipt after the outage", poll=0.1
        )
        await fake.world.wait_until(
            lambda: all(row[2] is not None for row in rows_of(url, game_id)), 30, "both marked told", poll=0.1
        )
        await asyncio.sleep(3.0)  # three more looks of the gateway: nobody is told again
        await fake.wait_idle(quiet=1.0, timeout=30)
        assert gateway.proc is not None and gateway.proc.pid == pid and gateway.proc.returncode is None
        assert "told 1 players the outcomes recorded after this gateway stopped waiting" in gateway.output()

        # A live Submit's player is told by it alone: its receipt's edit held 3 s by a 429, while the gateway looks
        # every second and finds his outcome recorded and him not yet told.
        held = fake.faults.rate_limit(
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", retry_after=3
        )
        await rig.submit(players[1])
        accepted = "Принято"  # "Recorded", in his language
        await fake.world.wait_until(
            lambda: any(accepted in text for text in every_text(dms[players[1].id])), 30, "the held receipt", poll=0.1
        )
        await fake.world.wait_until(
            lambda: all(row[2] is not None for row in rows_of(url, game_id)), 30, "all marked told", poll=0.1
        )
        await asyncio.sleep(2.0)
        assert held.hits == 1
        assert sum(accepted in text for text in every_text(dms[players[1].id])) == 1, every_text(dms[players[1].id])

        # Each answer applied once, each player told once, never "NOT recorded".
        answers = [a.house for a in await rig.store.answers(game_id) if a.source == "player"]
        assert sorted(answers) == sorted(rig.seats[p.id] for p in players), answers
        assert len(rows_of(url, game_id)) == 3
        assert recorded_versions(dms[players[0].id]) == 1, every_text(dms[players[0].id])
        assert recorded_versions(dms[players[2].id]) == 1, every_text(dms[players[2].id])
        assert [unknown in m.text() for m in waiting.followups] == [True]
        told = [text for p in players for m in fake.dm_messages(p) for text in every_text(m)]
        assert not any("NOT recorded" in text or "НЕ записано" in text for text in told)
        assert not any("NOT recorded" in m.text() for m in first.followups)
        assert fake.failed_interactions == []
