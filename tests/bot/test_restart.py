"""Kill the bot process mid-game (SIGKILL) and start it again: nothing acknowledged is lost, buttons work."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.store import Store
from engine import Game
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.fake_discord.components import walk
from testing.forms import form_control
from testing.peek import peek

pytestmark = pytest.mark.slow


def members(fake: FakeDiscord, count: int) -> tuple[Any, Any, list[Any]]:
    """A guild's game channel, a moderator and ``count`` players."""
    guild = fake.add_guild("Westeros", locale="en-US")
    channel = fake.add_text_channel(guild, "game")
    moderator = fake.add_member(guild, "mod", manage_guild=True)
    return channel, moderator, [fake.add_member(guild, f"p{i}") for i in range(count)]


async def start_game(fake: FakeDiscord, channel: Any, moderator: Any, players: list[Any], name: str) -> None:
    """Game 1 created by the moderator, joined by every player and started, through the lobby's buttons."""
    lobby = await (await fake.slash(moderator, channel, "game new", players=len(players), name=name)).wait_response()
    for p in players:
        await (await fake.click(p, lobby, "lobby:1:join")).wait_response()
    await (await fake.click(moderator, lobby, "lobby:1:start")).wait_response()


@dataclass
class Running:
    fake: FakeDiscord
    bot: BotProcess
    store: Store
    db: Path | str
    channel: Any
    moderator: Any
    players: list[Any]


@asynccontextmanager
async def running_game(database: Path | str, tmp_path: Path, name: str) -> AsyncIterator[Running]:
    """A bot process with a started 3-player game, the store open beside it; stopped at the end, and no interaction
    may have failed."""
    db = database
    async with FakeDiscord.start(point_discord_py=False) as fake:
        channel, moderator, players = members(fake, 3)
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        store = await Store.open(db)
        try:
            await start_game(fake, channel, moderator, players, name)
            yield Running(fake, bot, store, db, channel, moderator, players)
        finally:
            await store.close()
            await bot.stop()
        assert fake.failed_interactions == [], bot.output()[-3000:]


async def test_kill_and_restart_mid_game(database: Path | str, tmp_path: Path) -> None:
    db = database
    async with FakeDiscord.start(point_discord_py=False) as fake:
        channel, moderator, players = members(fake, 3)
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        try:
            await start_game(fake, channel, moderator, players, "Crash")
            store = await Store.open(db)
            seats = {u: h for h, u in (await store.seats(1)).items()}
            dms = {p.id: await fake.wait_for_dm(p, timeout=10) for p in players}
            # One player answers; his receipt is the acknowledgement. Another picks on his form, without submitting.
            first, picker, last = players
            receipt = await (
                await fake.click(first, dms[first.id], form_control(dms[first.id], 1, seats[first.id]))
            ).wait_response(timeout=10)
            assert "Recorded" in receipt.text()
            select = next(c for c in walk(dms[picker.id].components) if c.get("type") == 3)
            choice = next(o["value"] for o in select["options"] if not o.get("default"))
            await (await fake.select(picker, dms[picker.id], select["custom_id"], [choice])).wait_response(timeout=10)
            await bot.kill()
            acknowledged = {a.house for a in await store.answers(1)}
            assert acknowledged == {seats[first.id]}
            await bot.start()
            # A DM form from before the crash that was never touched still answers with one click: its draft died
            # with the process, and is drawn again from the game at the form's version, which asks the same.
            receipt = await (
                await fake.click(last, dms[last.id], form_control(dms[last.id], 1, seats[last.id]))
            ).wait_response(timeout=10)
            assert "Recorded" in receipt.text()
            # A form picked on before the crash shows picks no process remembers: nothing is guessed, the click
            # brings the current form.
            clicked = await fake.click(picker, dms[picker.id], form_control(dms[picker.id], 1, seats[picker.id]))
            await clicked.wait_reply(timeout=10)
            await fake.wait_until(lambda: bool(clicked.followups), timeout=10)
            form = clicked.followups[0]
            assert "out of date" in form.text()
            assert {a.house for a in await store.answers(1)} == {seats[first.id], seats[last.id]}
            receipt = await (await fake.click(picker, form, form_control(form, 1, seats[picker.id]))).wait_response(
                timeout=10
            )
            assert "Recorded" in receipt.text()
            await fake.wait_until(
                lambda: any("Orders are revealed" in m.content for m in fake.visible_messages(moderator)), timeout=10
            )
            assert {a.house for a in await store.answers(1) if a.source == "player"} == set(seats.values())
            await store.close()
        finally:
            await bot.stop()
        assert fake.failed_interactions == [], bot.output()[-3000:]


async def test_kill_at_random_moments_while_answers_arrive(database: Path | str, tmp_path: Path) -> None:
    """Three crashes at random moments during bursts of answers: every answer that got a receipt is kept."""
    import asyncio
    import random

    rnd = random.Random(7)
    db = database
    async with FakeDiscord.start(point_discord_py=False) as fake:
        channel, moderator, players = members(fake, 6)
        bot = BotProcess(fake, db, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        store = await Store.open(db)
        try:
            await start_game(fake, channel, moderator, players, "Chaos")
            seats = {u: h for h, u in (await store.seats(1)).items()}
            acknowledged: Counter[str] = Counter()  # receipts per house, over all crashes
            for _crash in range(3):
                forms = {}
                for p in players:
                    reply = await (await fake.slash(p, channel, "decide")).wait_response(timeout=10)
                    if "owe no decision" not in reply.text():
                        forms[p.id] = reply
                clicks = [
                    await fake.click(p, forms[p.id], form_control(forms[p.id], 1, seats[p.id]))
                    for p in players
                    if p.id in forms
                ]
                await asyncio.sleep(rnd.uniform(0.0, 0.15))
                await bot.kill()
                for click in clicks:
                    replies = [m for m in [click.response, *click.followups] if m is not None]
                    if any("Recorded" in m.text() for m in replies):
                        acknowledged[click.name.split(":")[2]] += 1
                kept = Counter(a.house for a in await store.answers(1) if a.source == "player")
                for house, count in acknowledged.items():
                    assert kept[house] >= count, f"{house}: {count} answers acknowledged, {kept[house]} kept"
                await bot.start()
            assert sum(acknowledged.values()) > 0  # the crashes did not all come before any answer
            game = Game.from_json((await store.game(1)).state or "")  # type: ignore[union-attr]
            assert invariants_hold(game)
        finally:
            await store.close()
            await bot.stop()


def invariants_hold(game: Game) -> bool:
    from engine import invariants

    invariants.check(game)
    return True


async def test_a_kill_between_a_commit_and_its_posts_loses_no_message_and_sends_none_twice(
    database: Path | str, tmp_path: Path
) -> None:
    """P 5: the last orders are committed (the player has his receipt), then the bot is killed while Discord holds
    back its channel post. On restart the outbox publishes what that commit implied: the reveal's lines and the next
    decision's DM, each once, and nothing an earlier version had already sent."""
    import asyncio

    async with running_game(database, tmp_path, "Outbox") as run:
        fake, bot, store, db = run.fake, run.bot, run.store, run.db
        channel, moderator, players = run.channel, run.moderator, run.players
        seats = {u: h for h, u in (await store.seats(1)).items()}
        dms = {p.id: await fake.wait_for_dm(p, timeout=10) for p in players}
        for p in players[:2]:
            receipt = await (await fake.click(p, dms[p.id], form_control(dms[p.id], 1, seats[p.id]))).wait_response(
                timeout=10
            )
            assert "Recorded" in receipt.text()
        await asyncio.sleep(1.0)  # their publications (nothing to post: orders are secret) are done
        dms_before = {p.id: len(fake.dm_messages(p)) for p in players}

        # Discord holds back the game channel's next post for a minute: the reveal waits behind it.
        fake.faults.rate_limit(f"POST /channels/{channel.id}/messages", retry_after=60)
        last = players[2]
        receipt = await (
            await fake.click(last, dms[last.id], form_control(dms[last.id], 1, seats[last.id]))
        ).wait_response(timeout=10)
        assert "Recorded" in receipt.text()
        await asyncio.sleep(1.0)  # the publisher is now waiting out the rate limit
        await bot.kill()

        def reveals() -> int:  # in the game's channel (its log thread tells every line once too)
            return sum("Orders are revealed" in m.content for m in fake.visible_messages(moderator)
                       if m.channel_id == channel.id)  # fmt: skip

        assert reveals() == 0
        assert {p.id: len(fake.dm_messages(p)) for p in players} == dms_before
        game = Game.from_json((await store.game(1)).state or "")  # type: ignore[union-attr]
        asked = {h for h in (p.house for p in game.prompts() if not p.answered)}
        assert asked, "the reveal opens the next decision"

        await bot.start()
        await fake.wait_until(lambda: reveals() == 1 and _count(db, "outbox") == 0, timeout=20)
        await asyncio.sleep(1.0)  # anything sent twice would have arrived by now
        assert reveals() == 1
        by_house = {h: next(p for p in players if p.id == u) for u, h in seats.items()}
        for p in players:
            new = len(fake.dm_messages(p)) - dms_before[p.id]
            assert new == (1 if seats[p.id] in asked else 0), (seats[p.id], new)
        assert set(by_house) >= asked
        # The step the reveal opened has its deadline, though the kill came before it was armed.
        from app.deadlines import step_key

        game = Game.from_json((await store.game(1)).state or "")  # type: ignore[union-attr]
        await fake.wait_until(lambda: _deadline_key(db) == step_key(game), timeout=10)


def _deadline_key(db: Path | str) -> str | None:
    rows = peek(db, "SELECT step_key FROM deadlines WHERE game_id = 1")
    return str(rows[0][0]) if rows else None


async def test_a_kill_before_a_moderators_audit_line_is_posted_loses_it_not(
    database: Path | str, tmp_path: Path
) -> None:
    """P 5 for what no version implies: ``/mod pause`` is committed with its audit line in one transaction (the
    moderator has his answer), then the bot is killed while Discord holds back the channel's post. On restart the
    outbox posts the line, once."""
    import asyncio

    async with running_game(database, tmp_path, "Audit") as run:
        fake, bot, store, db = run.fake, run.bot, run.store, run.db
        channel, moderator, players = run.channel, run.moderator, run.players
        for p in players:
            await fake.wait_for_dm(p, timeout=10)
        await asyncio.sleep(1.0)  # the start's posts are out

        def audits() -> int:
            return sum("paused the game" in m.content for m in fake.visible_messages(moderator))

        fake.faults.rate_limit(f"POST /channels/{channel.id}/messages", retry_after=60)
        reply = await (await fake.slash(moderator, channel, "mod pause")).wait_response(timeout=10)
        assert "Done" in reply.content
        await asyncio.sleep(1.0)  # the notice waits out the rate limit
        await bot.kill()
        assert audits() == 0
        assert (await store.game(1)).status == "paused"  # type: ignore[union-attr]
        assert _count(db, "notices") == 1

        await bot.start()
        await fake.wait_until(lambda: audits() == 1 and _count(db, "notices") == 0, timeout=20)
        await asyncio.sleep(1.0)  # a second copy would have arrived by now
        assert audits() == 1


def _count(db: Path | str, table: str) -> int:
    return int(peek(db, f"SELECT COUNT(*) FROM {table}")[0][0])
