"""The end of a game, told, through the fake Discord (issue W): when the last answer ends a game, its channel gets the
story once (the final standing, the battle that changed the most) with its two charts and the timelapse of the board
(opened with Pillow: size, frames, the houses' colours), and each player a DM with their own house's line, in their
own language. A crash between the last step's post and the story (the outbox's row left with its channel part out),
then a restart and a kill and another restart of the real bot.py: the story is posted exactly once, in Russian for a
Russian game.

The game is played by heuristic agents through the game service before the bot's time, all of it told already but
the last answer (the bot would otherwise post every step of a whole game, which the other whole-game tests do)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app.commands import Answer, Join, Start
from app.service import GameService, GameSettings
from app.store import Store
from cogs.story import PICTURES
from engine import RuleError
from engine.agents import HeuristicAgent
from render import style
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord, StoredMessage
from testing.phone import as_phone
from tests.bot.conftest import make_bot

pytestmark = pytest.mark.slow

SEED = 11  # a fixed game whose houses fight
HOUSES = {"stark", "lannister", "baratheon"}


async def play_before(
    database: Path | str, guild_id: int, channel_id: int, users: list[int], *, lang: str, finish: bool
) -> tuple[int, Answer | None]:
    """A 3-player game of the channel played through the game service before this bot's time, everything told but
    the last answer: that answer (``finish``: False), or (``finish``: True) the game ended with its last step's
    channel post out and the story not (the outbox as a crash right after that post leaves it)."""
    store = await Store.open(database)
    try:
        service = GameService(store)
        settings = GameSettings(players=len(users), seed=SEED, language=lang)
        game_id = await service.create(
            guild_id=guild_id, channel_id=channel_id, creator=users[0], name="Test", settings=settings
        )
        for user in users:
            await service.execute(Join(game_id=game_id, by=user))
        await service.execute(Start(game_id=game_id))
        seats = await service.seats(game_id)
        agents = {h: HeuristicAgent(SEED + i) for i, h in enumerate(sorted(seats))}
        last: Answer | None = None
        while not (game := await service.load(game_id)).finished:
            prompt = next(p for p in game.prompts() if not p.answered)
            answer = agents[prompt.house].answer(prompt, game.view(prompt.house))
            try:
                game.copy().act(prompt.house, answer, prompt_id=prompt.id)
            except RuleError:
                answer = prompt.default
            trial = game.copy()
            trial.act(prompt.house, answer, prompt_id=prompt.id)
            command = Answer(game_id=game_id, house=prompt.house, answer=answer, by=seats[prompt.house],
                             prompt_id=prompt.id)  # fmt: skip
            if trial.finished and not finish:
                last = command
                break
            await service.execute(command)
        version = (await service.row(game_id)).version
        await store.write("DELETE FROM outbox_sends WHERE game_id = ?", (game_id,))
        await store.write("DELETE FROM notices WHERE game_id = ?", (game_id,))
        await store.write("DELETE FROM outbox WHERE game_id = ? AND version < ?", (game_id, version))
        if finish:  # the last step's channel post went out; the process died before the story
            await store.published_part(game_id, version, "channel")
        else:
            await store.write("DELETE FROM outbox WHERE game_id = ?", (game_id,))
        return game_id, last
    finally:
        await store.close()


async def outbox_rows(database: Path | str, game_id: int) -> int:
    store = await Store.open(database)
    try:
        return len([row for row in await store.unpublished() if row[0] == game_id])
    finally:
        await store.close()


def stories(fake: FakeDiscord, channel: Any, title: str) -> list[StoredMessage]:
    return [m for m in fake.messages_in(channel) if title in m.text()]


def check_pictures(message: StoredMessage) -> None:
    """The two charts at a phone's width in the houses' colours, and the board's timelapse, one frame a round."""
    assert [a.filename for a in message.attachments] == list(PICTURES), as_phone(message)
    for name in PICTURES[:2]:
        attachment = message.attachment(name)
        assert attachment is not None
        chart = Image.open(io.BytesIO(attachment.data))
        assert chart.format == "PNG" and chart.width == 1000 and chart.height >= 600
        colours = {c for _, c in chart.convert("RGB").getcolors(chart.width * chart.height) or []}
        for house in HOUSES:
            assert style.house_style(house).colour in colours, (name, house)
    attachment = message.attachment(PICTURES[2])
    assert attachment is not None and len(attachment.data) < 2 * 1024 * 1024  # well under Discord's limit
    timelapse = Image.open(io.BytesIO(attachment.data))
    assert timelapse.format == "GIF" and timelapse.is_animated and timelapse.width == style.MAP_W
    assert timelapse.n_frames == 11  # the start and the end of each of the ten rounds
    timelapse.seek(timelapse.n_frames - 1)
    last = {c for _, c in timelapse.convert("RGB").getcolors(1 << 20) or []}
    for house in HOUSES:  # every house's land is on the final board
        assert style.house_style(house).tint in last or style.house_style(house).colour in last, house


async def test_the_last_answer_posts_the_story_once_and_each_player_gets_their_line(database: Path | str) -> None:
    async with FakeDiscord.start() as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        players = [fake.add_member(guild, f"p{i}") for i in range(3)]
        _, last = await play_before(database, guild.id, channel.id, [p.id for p in players], lang="en",
                                          finish=False)  # fmt: skip
        assert last is not None
        russian = players[1]
        bot, store = await make_bot(fake, database)
        await store.set_locale(russian.id, "ru")  # as their last interaction left it
        try:
            async with fake.run_bot(bot):
                await fake.wait_for_commands("game")
                since = fake.mark()
                await bot.service.execute(last)
                told = await fake.wait_for_message(
                    lambda m: "The story of Test" in m.text(), channel=channel, since=since, timeout=60
                )
                text = told.text()
                assert "Final standing" in text and "**1.**" in text and "**3.**" in text, text
                assert "The battle that changed the most" in text
                assert told.pings == []
                check_pictures(told)
                over = await fake.wait_for_message(lambda m: "The game is over" in m.text(), channel=channel,
                                                   since=since)  # fmt: skip
                assert over.id < told.id  # the last step first, then its story
                lines = {}
                for player in players:
                    dm = await fake.wait_for_dm(player, since=since, timeout=30)
                    lines[player.id] = dm.text()
                assert "Строка вашего дома" in lines[russian.id] and "победн" in lines[russian.id]
                for player in (players[0], players[2]):
                    assert "Your house's line" in lines[player.id] and "victory point" in lines[player.id]
                await bot.play.publisher.settled()
                await fake.wait_idle(quiet=0.5, timeout=30)
                assert len(stories(fake, channel, "The story of Test")) == 1
                for player in players:
                    assert sum("Test** is over" in m.text() or "окончена" in m.text()
                               for m in fake.dm_messages(player)) == 1  # fmt: skip
                print("story timings (ms):", bot.play.publisher.story.timings)
                assert fake.failed_interactions == [] and fake.internal_errors == []
        finally:
            await store.close()


async def test_a_crash_before_the_story_then_restarts_tell_it_once_in_the_games_language(
    database: Path | str, tmp_path: Path
) -> None:
    """The real bot.py: the game ended and its last step was posted when the process died. Started again, it posts
    the story (Russian: the game's language) and the DMs; killed and started once more, it posts nothing again."""
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="ru")
        channel = fake.add_text_channel(guild, "game")
        players = [fake.add_member(guild, f"p{i}", locale="ru") for i in range(3)]
        game_id, _ = await play_before(database, guild.id, channel.id, [p.id for p in players], lang="ru", finish=True)
        assert await outbox_rows(database, game_id) == 1  # the last version's, its story still to tell
        bot = BotProcess(fake, database, log_path=tmp_path / "bot.log")
        await bot.start()
        try:
            told = await fake.wait_for_message(lambda m: "История партии Test" in m.text(), channel=channel,
                                               timeout=60)  # fmt: skip
            assert "Итоговые места" in told.text(), told.text()
            check_pictures(told)
            for player in players:
                dm = await fake.wait_for_dm(player, timeout=30)
                assert "Строка вашего дома" in dm.text(), dm.text()
            await fake.wait_idle(quiet=1.0, timeout=30)
            assert await outbox_rows(database, game_id) == 0  # told: nothing of the game is left to publish
            await bot.kill()
            await bot.start()
            await fake.wait_idle(quiet=1.0, timeout=30)
        finally:
            await bot.stop()
        assert len(stories(fake, channel, "История партии Test")) == 1, bot.output()[-3000:]
        for player in players:
            assert sum("Строка вашего дома" in m.text() for m in fake.dm_messages(player)) == 1
        assert fake.failed_interactions == [] and fake.internal_errors == []
