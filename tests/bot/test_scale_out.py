"""Past one process (issue S): the real ``bot.py`` as one gateway and three workers on PostgreSQL, against the fake
Discord. Answers of several games arrive at once, a worker is killed with SIGKILL in the middle, the gateway that
armed a deadline is killed before it falls due; every answer is applied once, each game's version counts its
accepted answers, the deadline fires once, and every decision DM and channel post goes out once.

On the same processes, a game of one member and two AI seats (issue 42): the workers' AI answers the AI seats'
decisions, each once; the member's decisions are answered by deadlines, which the gateway (no AI pool) leaves to the
workers, a moderator's ``/mod force`` there included; the game moves on past its first reveal."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.service import GameService
from app.store import Source, Store
from engine import rules
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from testing.peek import peek
from testing.phone import every_text
from tests.conftest import require_postgres

GAMES = 4
PLAYERS = 3
TIMING = {"DEADLINE_SWEEP_S": "0.5", "DEADLINE_LEASE_S": "5", "IMAGE_WORKERS": "1", "AI_WORKERS": "1"}
TINY_BUDGET_MS = 20
AI_PLAY_S = 30.0  # a bound for the AI game's steps past the reveal, not a time the test measures


async def new_game(fake: FakeDiscord, channel: Any, moderator: Any, players: list[Any]) -> int:
    lobby = await (await fake.slash(moderator, channel, "game new", players=len(players))).wait_response(timeout=30)
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    for p in players:
        await (await fake.click(p, lobby, f"lobby:{game_id}:join")).wait_response(timeout=30)
    await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=30)
    return game_id


async def new_ai_game(fake: FakeDiscord, store: Store, channel: Any, moderator: Any, member: Any) -> int:
    """``/game new players:3 ai_seats:2``, the AI's budget made tiny, one member joins, the moderator starts it: all
    at the gateway."""
    made = await fake.slash(moderator, channel, "game new", players=3, ai_seats=2)
    lobby = await made.wait_response(timeout=30)
    game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
    row = await store.game(game_id)
    assert row is not None and row.settings["ai_seats"] == 2 and row.settings["autopilot"] == "ai"
    await store.update_settings(game_id, {**row.settings, "ai_budget_ms": TINY_BUDGET_MS})
    await (await fake.click(member, lobby, f"lobby:{game_id}:join")).wait_response(timeout=30)
    await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=30)
    return game_id


async def until(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def play_the_ai_game(fake: FakeDiscord, store: Store, gateway: BotProcess, table: tuple[Any, Any, Any]) -> int:
    """The AI game on the gateway and the workers: the AI seats' orders come from the workers' AI, each once; the
    member's are a deadline's, forced at the gateway, which leaves it to a worker; then the member's decisions are left
    to their deadlines (made due as soon as only he is awaited) until the AI has answered past the reveal. The game is
    left waiting: its last versions may be quiet ones (the AI's secret orders), which stay in the outbox until the
    game's next version goes (cogs/publisher.py), so the caller's wait for an empty outbox leaves it out."""
    channel, moderator, member = table
    service = GameService(store)
    began = time.monotonic()
    game_id = await new_ai_game(fake, store, channel, moderator, member)
    seats = await store.seats(game_id)
    ai_houses = sorted(h for h, u in seats.items() if u is None)
    (member_house,) = [h for h, u in seats.items() if u == member.id]
    assert len(ai_houses) == 2

    async def by(source: str) -> list[Any]:
        return [a for a in await store.answers(game_id) if a.source == source]

    async def ai_orders() -> bool:
        return sorted(a.house for a in await by(Source.AI)) == ai_houses

    await until(ai_orders, 60, "the AI seats' orders")
    forced = await fake.slash(moderator, channel, "mod force")
    await forced.wait_reply(timeout=30)

    async def member_orders() -> bool:
        return [a.house for a in await by(Source.DEADLINE)] == [member_house]

    await until(member_orders, 30, "the deadline to answer the member's orders")
    assert "is left to the workers" in gateway.output()  # the gateway fired nothing of it: a worker did
    revealed = (await service.load(game_id)).version

    async def the_ai_played_on() -> bool:
        game = await service.load(game_id)
        awaited = {p.house for p in game.prompts() if not p.answered}
        if awaited and all(seats.get(rules.commander(game.state, h)) == member.id for h in awaited):
            await store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() - 1, game_id))
        return any(a.version > revealed for a in await by(Source.AI)) or game.finished

    await until(the_ai_played_on, AI_PLAY_S, "the AI to answer past the reveal")
    log = await store.answers(game_id)
    decisions = Counter(a.prompt_id for a in log if a.source in (Source.AI, Source.DEADLINE, Source.PLAYER))
    assert set(decisions.values()) == {1}, decisions  # every decision answered once
    assert {a.house for a in log if a.source == Source.AI} <= set(ai_houses)
    assert {a.house for a in log if a.source == Source.DEADLINE} == {member_house}  # the AI seats needed none
    told = lambda: [m.content for m in fake.messages_in(channel)]  # noqa: E731
    await fake.world.wait_until(
        lambda: any("forced the deadline" in text and member_house.title() in text for text in told()), 30, "the audit"
    )
    await fake.world.wait_until(lambda: any("Orders are revealed" in text for text in told()), 30, "the reveal")
    print(f"the AI game: {time.monotonic() - began:.1f} s, {len(log)} answers, {sum(decisions.values())} decisions")
    return game_id


async def test_a_gateway_and_three_workers_apply_every_answer_once(tmp_path: Path) -> None:
    require_postgres()
    with postgres.fresh_schema("scale") as url:
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
            ai_table = (fake.add_text_channel(guild, "ai-game"), moderator, fake.add_member(guild, "ai-member"))
            gateway = BotProcess(fake, url, role="gateway", log_path=tmp_path / "gateway.log", env=TIMING)
            workers = [
                BotProcess(fake, url, role="worker", log_path=tmp_path / f"worker{i}.log", env=TIMING) for i in range(3)
            ]
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

                # A burst of answers from every game; a worker is killed while they are applied.
                async def answer(player: Any) -> Any:
                    game_id, house = house_of[player.id]
                    submitted = await fake.click(player, dms[player.id], form_control(dms[player.id], game_id, house))
                    await fake.world.wait_until(
                        lambda: bool(submitted.response and "Recorded" in submitted.response.text()),
                        60,
                        f"the receipt of {player.id}",
                    )
                    return submitted

                burst = asyncio.gather(*(answer(p) for p in everyone[:-1]))  # the last player answers later
                await asyncio.sleep(0.05)
                await workers[0].kill()
                submitted = await burst
                assert all("Recorded" in s.response.text() for s in submitted)

                # Each game's version is its start plus its accepted answers; every answer is in the log once.
                for game_id in game_ids:
                    log = await store.answers(game_id)
                    row = await store.game(game_id)
                    assert row is not None and row.version == len(log) + (row.version - len(log))
                    by_house = Counter(a.house for a in log if a.source == "player")
                    expected = {h for h, u in seats[game_id].items() if u != everyone[-1].id}
                    assert set(by_house) == expected and set(by_house.values()) == {1}, by_house
                started = {g: (await store.answers(g))[0].version - 1 for g in game_ids}
                for game_id in game_ids:
                    row = await store.game(game_id)
                    assert row is not None and row.version == started[game_id] + len(await store.answers(game_id))

                ai_game = await play_the_ai_game(fake, store, gateway, ai_table)

                # The last game's deadline: the gateway that armed it dies; it falls due and fires once.
                last_game, last_house = house_of[everyone[-1].id]
                await gateway.kill()
                await store.write("UPDATE deadlines SET due_at = ? WHERE game_id = ?", (time.time() + 1, last_game))
                await fake.world.wait_until(
                    lambda: bool(
                        peek(url, "SELECT 1 FROM answers WHERE game_id = ? AND house = ?", (last_game, last_house))
                    ),
                    30,
                    "the deadline to fire",
                    poll=0.2,
                )
                await asyncio.sleep(2.0)  # any second firing would have come by now (sweeps every 0.5 s)
                deadline_answers = [a for a in await store.answers(last_game) if a.source == "deadline"]
                assert [a.house for a in deadline_answers] == [last_house]

                # Everything the answers implied goes out once: one decision DM per player, one reveal per game.
                outbox = "SELECT 1 FROM outbox WHERE game_id <> ?"
                await fake.world.wait_until(lambda: not peek(url, outbox, (ai_game,)), 60, "the outbox", poll=0.2)
                await fake.wait_idle(quiet=1.5, timeout=60)
                for p in everyone:
                    texts = [[m.text(), *every_text(m)[:-1]] for m in fake.dm_messages(p)]  # forms: text displays
                    orders_dms = [t for t in texts if any("**Orders**" in text for text in t)]
                    assert len(orders_dms) == 1, (p.id, texts)
                    contents = [t[0] for t in texts]
                    assert len(contents) == len(set(contents)), contents  # no DM sent twice
                for channel, _ in tables:
                    posted = [m.content for m in fake.messages_in(channel)]
                    assert sum("Orders are revealed" in text for text in posted) == 1, posted
                    assert len(posted) == len(set(posted)), posted  # no post twice
                last_channel = tables[[g for g in game_ids].index(last_game)][0]
                told = [m.content for m in fake.messages_in(last_channel) if "The deadline passed" in m.content]
                assert len(told) == 1, told  # the deadline's news, once
                assert fake.failed_interactions == [], gateway.output()[-3000:]
            finally:
                await store.close()
                for process in (gateway, *workers):
                    await process.stop()
