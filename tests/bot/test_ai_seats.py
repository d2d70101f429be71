"""AI seats through the fake Discord (issue 42): a lobby where the AI fills two of three seats plays to the end, the
AI's answers arrive by themselves (no deadline), each decision once, and an AI seat is never pinged, DMed or talked
to; a house handed to the AI plays on, and a normal replace gives it back; the real bot killed inside an AI answer's
commit answers each decision once after its restart.

The game is kept short: it starts from the lobby, then a moderator's repair (a scenario import, the real command)
puts it at the start of round 10, whose end ends the game; the AI thinks within a tiny budget."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import psycopg

from app.ai import AiPlayers, decision_key
from app.commands import Import, SetSeat
from app.store import Source
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.peek import peek
from tests.bot.conftest import Table
from tests.bot.test_full_game import answer_once
from tests.conftest import require_postgres

TINY_BUDGET_MS = 20
LAST_ROUND = {"players": 3, "round": 10}
GIVE_UP_S = 180.0  # a bound for a stuck game, not a time the test measures


async def open_lobby_with_two_ai_seats(table: Table) -> tuple[int, Any]:
    """``/game new players:3 ai_seats:1``, then the creator's Add AI, then one member joins: every seat is taken."""
    fake = table.fake
    made = await fake.slash(table.moderator, table.channel, "game new", players=3, name="Bots", ai_seats=1)
    lobby = await made.wait_response()
    assert "🤖 AI" in lobby.text()
    refused = await fake.click(table.players[1], lobby, "lobby:1:ai")  # a member who is no moderator may not
    assert any("moderator" in m.content for m in await refused.wait_reply())
    added = await fake.click(table.moderator, lobby, "lobby:1:ai")
    await added.wait_reply()
    joined = await fake.click(table.players[0], lobby, "lobby:1:join")
    await joined.wait_reply()
    full = await fake.click(table.players[2], lobby, "lobby:1:join")
    assert any("Every seat is taken" in m.content for m in await full.wait_reply())
    row = await table.service.row(1)
    assert row.settings["ai_seats"] == 2
    await table.service.store.update_settings(1, {**row.settings, "ai_budget_ms": TINY_BUDGET_MS})
    latest = fake.latest_message(table.channel)
    assert latest is not None and latest.text().count("🤖 AI") == 2
    return 1, lobby


def ai(table: Table) -> AiPlayers:
    assert table.bot.ai is not None
    return table.bot.ai


async def play_until_the_end(table: Table, game_id: int, human: Any) -> None:
    """The member answers what he owes with his form's preselected answer; the AI answers by itself."""
    rnd = random.Random(1)
    give_up = time.monotonic() + GIVE_UP_S
    while time.monotonic() < give_up:
        row = await table.service.row(game_id)
        if row.status == "ended":
            break
        game = await table.service.load(game_id)
        seats = await table.service.store.seats(game_id)
        owes = [p for p in game.prompts() if not p.answered and seats.get(p.house) == human.id]
        if owes:
            await answer_once(table, human, rnd, use_defaults=True)
        else:
            await asyncio.sleep(0.02)  # the AI is thinking
    else:  # pragma: no cover
        game = await table.service.load(game_id)
        log = [(a.version, a.house, a.prompt_id, a.source) for a in await table.service.store.answers(game_id)]
        raise AssertionError(f"the game did not end: {[(p.id, p.answered) for p in game.prompts()]} {game.round} {log}")
    await ai(table).settled()
    await table.bot.play.publisher.settled()


async def test_two_ai_seats_play_a_game_to_the_end(table: Table) -> None:
    fake = table.fake
    began = time.monotonic()
    game_id, lobby = await open_lobby_with_two_ai_seats(table)
    human = table.players[0]
    started = await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    assert "started" in started.content and started.content.count("🤖 AI") == 2
    seats = await table.service.store.seats(game_id)
    ai_houses = sorted(h for h, u in seats.items() if u is None)
    assert len(ai_houses) == 2 and sorted(seats.values(), key=str) == sorted([human.id, None, None], key=str)
    game = await table.service.load(game_id)
    assert all(game.state.houses[h].autopilot and game.state.houses[h].seat is None for h in ai_houses)

    # An AI seat is never talked to: the refusal says why.
    talk = await fake.slash(human, table.channel, "game talk", house=ai_houses[0])
    assert any("the AI does not talk" in m.content for m in await talk.wait_reply())

    # The repair that shortens the game, while the AI may be thinking about round 1: nothing it thought then is used.
    await table.service.execute(Import(game_id=game_id, by=table.moderator.id, spec=LAST_ROUND))
    await play_until_the_end(table, game_id, human)

    channel = [m.content for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id]
    assert any("The game is over" in line for line in channel)
    answers = await table.service.store.answers(game_id)
    by_ai = [a for a in answers if a.source == Source.AI]
    assert by_ai and {a.house for a in by_ai} == set(ai_houses)
    assert not [a for a in answers if a.source == Source.DEADLINE]  # nobody waited for a deadline
    # Each decision once: no prompt of the AI's is in the log twice after the repair.
    repaired = max(a.version for a in answers if a.prompt_id == "repair")
    after = [(a.house, a.prompt_id) for a in by_ai if a.version > repaired]
    assert len(after) == len(set(after))
    # Never pinged, never DMed: every ping and every DM is the one member's.
    assert all(ping in (f"user:{human.id}", str(human.id)) for m in fake.transcript for ping in m.pings), [
        m.pings for m in fake.transcript if m.pings
    ]
    assert not any("<@None>" in m.content or "None" in m.content.split() for m in fake.transcript)
    dm_users = {m.channel_id for m in fake.transcript if m.guild_id is None}
    assert dm_users <= {fake.dm_channel(human).id, fake.dm_channel(table.moderator).id}
    assert fake.failed_interactions == []
    assert fake.unsupported_requests == [] and fake.internal_errors == []
    print(f"AI game: {time.monotonic() - began:.1f} s, {len(by_ai)} AI answers")


async def test_a_house_handed_to_the_ai_plays_on_and_comes_back(table: Table) -> None:
    """``/mod replace ai:true`` mid-game: the AI answers the house's open orders by itself, the audit line says so; a
    retry of the AI's decision (its key) changes nothing; a normal replace gives the house to a member again."""
    from tests.bot.test_lobby_and_orders import start_game

    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    house = next(h for h, u in seats.items() if u == table.players[1].id)
    handed = await fake.slash(table.moderator, table.channel, "mod replace", house=house, ai=True)
    await handed.wait_reply()
    await fake.wait_until(lambda: ai(table).answered >= 1, timeout=20)
    await ai(table).settled()
    answers = await table.service.store.answers(game_id)
    mine = [a for a in answers if a.source == Source.AI]
    assert [a.house for a in mine] == [house]
    await fake.wait_until(lambda: any("to the 🤖 AI" in m.content for m in fake.messages_in(table.channel)), timeout=10)

    # The same decision again (a retry, a second process): refused by its key, nothing changes.
    game = await table.service.load(game_id)
    version = game.version
    prompt_id = mine[0].prompt_id
    prompt = next(p for p in game.prompts() if p.house == house)
    assert prompt.answered and prompt.id == prompt_id
    assert not await ai(table).submit(game_id, prompt, prompt.default, decision_key(prompt_id, None))
    await ai(table).restore()  # a start-up looks again: the decision is answered, nothing to do
    await ai(table).settled()
    assert (await table.service.load(game_id)).version == version

    # A normal replace gives the house back to a member: the AI stops answering for it.
    back = await table.service.execute(
        SetSeat(game_id=game_id, by=table.moderator.id, key="back", house=house, user_id=table.players[3].id, new=True)
    )
    assert not back.game.state.houses[house].autopilot
    assert back.game.state.houses[house].seat == str(table.players[3].id)


def hold_second_ai_answer(url: str, lock: int) -> None:
    """From now on, the AI's second answer of a game waits, inside its commit, for advisory lock ``lock`` (held by the
    test): the bot has committed one AI answer and is stopped in the next."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "CREATE FUNCTION hold_ai() RETURNS trigger AS $$ BEGIN"
            " IF NEW.source = 'ai' AND EXISTS (SELECT 1 FROM answers WHERE game_id = NEW.game_id AND source = 'ai')"
            f" THEN PERFORM pg_advisory_xact_lock({lock}); END IF; RETURN NEW; END $$ LANGUAGE plpgsql"
        )
        connection.execute("CREATE TRIGGER hold_ai BEFORE INSERT ON answers FOR EACH ROW EXECUTE FUNCTION hold_ai()")


async def test_the_bot_killed_inside_the_ais_second_answer_answers_each_decision_once(tmp_path: Path) -> None:
    """The real one-process bot on PostgreSQL, a game of one member and two AI seats: the AI commits the first AI
    seat's orders and the bot is killed with SIGKILL inside the second's commit. Started again, it answers the second
    once and never the first again."""
    require_postgres()
    lock = random.randrange(1 << 40, 1 << 41)
    ai_rows = "SELECT house FROM answers WHERE game_id = ? AND source = 'ai'"
    with postgres.fresh_schema("crashai") as url:
        async with FakeDiscord.start(point_discord_py=False) as fake:
            guild = fake.add_guild("Westeros", locale="en-US")
            channel = fake.add_text_channel(guild, "game")
            moderator = fake.add_member(guild, "mod", manage_guild=True)
            member = fake.add_member(guild, "p0")
            bot = BotProcess(fake, url, log_path=tmp_path / "bot.log", env={"AI_WORKERS": "1", "IMAGE_WORKERS": "1"})
            holder = await psycopg.AsyncConnection.connect(url, autocommit=True)
            try:
                await bot.sync_commands()
                await bot.start()
                made = await fake.slash(moderator, channel, "game new", players=3, ai_seats=2)
                lobby = await made.wait_response(timeout=30)
                game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
                await (await fake.click(member, lobby, f"lobby:{game_id}:join")).wait_response(timeout=30)
                hold_second_ai_answer(url, lock)
                await holder.execute("SELECT pg_advisory_lock(%s)", (lock,))
                await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=30)
                await fake.world.wait_until(lambda: len(peek(url, ai_rows, (game_id,))) == 1, 60, "one", poll=0.05)
                # The second now waits in its commit (the lock's waiter), and the bot is killed there. Its statement
                # was sent whole: an autocommitted INSERT that the server would finish, and commit, once the lock is
                # free, as if the client lived. The server ends the backend of a client it finds dead (keepalives):
                # done here at once, so the second answer is left uncommitted for the restart to give.
                waiter = (
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    " AND ((classid::bigint << 32) | objid::bigint) = ?"
                )
                await fake.world.wait_until(lambda: bool(peek(url, waiter, (lock,))), 60, "the commit", poll=0.05)
                await bot.kill()
                for (pid,) in peek(url, waiter, (lock,)):
                    await holder.execute("SELECT pg_terminate_backend(%s)", (pid,))
                await holder.execute("SELECT pg_advisory_unlock(%s)", (lock,))
                with psycopg.connect(url, autocommit=True) as connection:
                    connection.execute("DROP TRIGGER hold_ai ON answers")
                assert len(peek(url, ai_rows, (game_id,))) == 1

                await bot.start()
                await fake.world.wait_until(lambda: len(peek(url, ai_rows, (game_id,))) == 2, 60, "both", poll=0.2)
                await fake.wait_idle(quiet=1.0, timeout=60)
                houses = [h for (h,) in peek(url, ai_rows, (game_id,))]
                seats = peek(url, "SELECT house FROM seats WHERE game_id = ? AND user_id IS NULL", (game_id,))
                assert sorted(houses) == sorted(h for (h,) in seats)  # each AI seat's orders once
            finally:
                await holder.close()
                await bot.stop()


async def test_the_creator_frees_the_seats_the_ai_held_and_members_take_them(table: Table) -> None:
    """The lobby's Remove AI (the creator and moderators, as Add AI): shown only while the AI holds a seat, refused to a
    member who is no moderator, and each click frees one seat that a member may then join."""
    fake = table.fake
    made = await fake.slash(table.moderator, table.channel, "game new", players=3, name="Bots", ai_seats=2)
    lobby = await made.wait_response()
    assert lobby.text().count("🤖 AI") == 2 and "lobby:1:noai" in lobby.custom_ids()
    refused = await fake.click(table.players[1], lobby, "lobby:1:noai")
    assert any("moderator" in m.content for m in await refused.wait_reply())
    assert (await table.service.row(1)).settings["ai_seats"] == 2
    for left in (1, 0):
        removed = await fake.click(table.moderator, lobby, "lobby:1:noai")
        note = await removed.wait_followups()
        assert any("free again" in m.content for m in note), [m.content for m in note]
        assert (await table.service.row(1)).settings["ai_seats"] == left
        latest = fake.latest_message(table.channel)
        assert latest is not None and latest.text().count("🤖 AI") == left
        assert ("lobby:1:noai" in latest.custom_ids()) == bool(left)
    for player in table.players[:3]:  # every seat is a member's again
        await (await fake.click(player, lobby, "lobby:1:join")).wait_reply()
    assert sorted(await table.service.lobby_players(1)) == sorted(p.id for p in table.players[:3])
    assert fake.failed_interactions == []
