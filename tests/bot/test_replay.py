"""``/game replay`` through the fake Discord (issue W): a running game's replay is the reader's own (ephemeral), steps
phase by phase with ◀ ▶ and jumps to a round from its menu; its buttons still work after the bot restarts; an ended
game's replay may be posted to the channel by one of its players; a round not played and a game of another channel
are refused in the reader's language. Every picture is opened with Pillow: the board's size, and not blank."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app.commands import End, Join, Start
from app.service import GameService, GameSettings
from app.store import Store
from engine import Game
from engine.agents import HeuristicAgent
from render import style
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord, StoredMessage
from testing.fake_discord.components import BUTTON, STRING_SELECT, walk
from testing.phone import as_phone, menus
from tests.bot.conftest import Table
from tests.bot.test_images import answer_one, start_seeded_game

pytestmark = pytest.mark.slow

EPHEMERAL = 64
SEED = 11


async def play_until_round(table: Table, game_id: int, round_: int) -> Game:
    """Every decision answered through the service by heuristic agents until ``round_`` has begun its orders."""
    agents: dict[str, HeuristicAgent] = {}
    for _ in range(3000):
        game = await table.service.load(game_id)
        if game.round >= round_ and game.state.phase == "planning":
            return game
        assert await answer_one(table.service, game_id, game, agents, SEED)
    raise AssertionError("the game did not reach the round")


def picture(message: StoredMessage) -> Image.Image:
    """The replay's board, as a phone would open it."""
    attachment = message.attachment("replay.png")
    assert attachment is not None, as_phone(message)
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image


def check_board(message: StoredMessage) -> None:
    image = picture(message)
    assert image.width == style.MAP_W and image.height > image.width  # the board under its status strip
    colours = image.convert("RGB").resize((64, 64)).getcolors(64 * 64)
    assert colours is not None and len(colours) > 20, "a blank picture"


def buttons(message: StoredMessage) -> dict[str, dict[str, Any]]:
    """The message's buttons by their label."""
    return {str(c.get("label")): dict(c) for c in walk(message.components) if c.get("type") == BUTTON}


def round_menu(message: StoredMessage) -> str:
    return next(str(c["custom_id"]) for c in walk(message.components) if c.get("type") == STRING_SELECT)


async def shows(fake: FakeDiscord, message: StoredMessage, words: str) -> StoredMessage:
    """The message once an edit shows ``words`` (a click is acknowledged before the message is drawn again)."""
    try:
        await fake.wait_until(lambda: words in fake.world.messages[message.id].text(), timeout=20)
    except TimeoutError as late:
        raise AssertionError(f"{words!r} not in {as_phone(fake.world.messages[message.id])}") from late
    return fake.world.messages[message.id]


async def test_a_running_games_replay_is_ephemeral_steps_phase_by_phase_and_jumps_to_a_round(table: Table) -> None:
    fake = table.fake
    game_id = await start_seeded_game(table, 3, SEED)
    await play_until_round(table, game_id, 3)
    player = table.players[0]
    reply = await (await fake.slash(player, table.channel, "game replay")).wait_response(timeout=30)
    assert reply.flags & EPHEMERAL and reply.ephemeral_for == player.id
    phone = as_phone(reply)
    assert "Replay · Test" in phone and "Round 3 · Planning phase" in phone and "under way" in phone, phone
    check_board(reply)
    assert set(buttons(reply)) == {"◀ Previous phase", "Next phase ▶"}  # no Post to channel while the game runs
    assert buttons(reply)["Next phase ▶"].get("disabled")  # nothing after the phase under way
    # The menu sits right under the words saying what it is for, on the round shown.
    assert menus(reply) == [("Jump to the end of a round:", "[▼ Round 3]")]

    back = buttons(reply)["◀ Previous phase"]["custom_id"]
    await fake.click(player, reply, back)
    earlier = await shows(fake, reply, "Round 3 · Westeros phase")
    assert "Phase 6 of 7: the board at its end." in earlier.text()
    check_board(earlier)
    await fake.click(player, earlier, buttons(earlier)["Next phase ▶"]["custom_id"])
    await shows(fake, earlier, "Round 3 · Planning phase")
    jumped = fake.world.messages[reply.id]
    await fake.select(player, jumped, round_menu(jumped), ["1"])
    first = await shows(fake, jumped, "Round 1 · Action phase")
    assert buttons(first)["◀ Previous phase"].get("disabled") is not True  # round 1's Planning phase is before it
    check_board(first)

    # In Russian, for a reader whose Discord speaks it.
    ruski = fake.add_member(table.guild, "ru-reader", locale="ru")
    russian = await (await fake.slash(ruski, table.channel, "game replay", round=2)).wait_response(timeout=30)
    assert "Повтор · Test" in russian.text() and "Раунд 2" in russian.text(), russian.text()
    assert russian.flags & EPHEMERAL
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_a_round_not_played_and_a_game_of_another_channel_are_refused_clearly(table: Table) -> None:
    fake = table.fake
    game_id = await start_seeded_game(table, 3, SEED)
    await play_until_round(table, game_id, 2)
    player = table.players[0]
    refused = await (await fake.slash(player, table.channel, "game replay", round=99)).wait_response(timeout=30)
    assert "Round 99 was not played in this game: rounds 1 to 2 can be replayed." in refused.content
    assert refused.flags & EPHEMERAL
    no_phase = await (await fake.slash(player, table.channel, "game replay", round=1, phase="westeros")).wait_response()
    assert "round 1 has no Westeros phase" in no_phase.content
    ruski = fake.add_member(table.guild, "ru-reader", locale="ru")
    russian = await (await fake.slash(ruski, table.channel, "game replay", round=99)).wait_response(timeout=30)
    assert "Раунд 99 в этой игре не сыгран" in russian.content

    # A channel without a game has nothing to replay.
    elsewhere = fake.add_text_channel(table.guild, "other")
    empty = await (await fake.slash(player, elsewhere, "game replay")).wait_response()
    assert "no game in this channel" in empty.content
    # A modified client pressing this game's ◀ from another channel (its id names the game) is refused.
    reply = await (await fake.slash(player, table.channel, "game replay")).wait_response(timeout=30)
    custom_id = buttons(reply)["◀ Previous phase"]["custom_id"]
    forged = fake._start_interaction(  # what such a client would send: no scripted player can press it there
        3,
        player,
        elsewhere,
        {"custom_id": custom_id, "component_type": BUTTON},
        name=custom_id,
        locale=None,
        message=reply,
    )
    await forged.wait_ack(timeout=10)
    answer = await forged.wait_reply(timeout=20)
    assert any("That game is played in another channel" in m.text() for m in answer), [m.text() for m in answer]
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_an_ended_games_replay_is_posted_to_the_channel_by_a_player(table: Table) -> None:
    fake = table.fake
    game_id = await start_seeded_game(table, 3, SEED)
    await play_until_round(table, game_id, 2)
    await table.service.execute(End(game_id=game_id, by=table.moderator.id, key="end:replay"))
    player, stranger = table.players[0], fake.add_member(table.guild, "onlooker")
    # Anyone in the channel may look back at an ended game, ephemerally.
    looked = await (await fake.slash(stranger, table.channel, "game replay", round=1)).wait_response(timeout=30)
    assert looked.flags & EPHEMERAL and "Post to channel" in buttons(looked)
    refused = await (await fake.click(stranger, looked, buttons(looked)["Post to channel"]["custom_id"])).wait_reply()
    assert any("Only the game's players may post" in m.text() for m in refused)

    mine = await (await fake.slash(player, table.channel, "game replay", round=1)).wait_response(timeout=30)
    since = fake.mark()
    posting = await fake.click(player, mine, buttons(mine)["Post to channel"]["custom_id"])
    told = await posting.wait_reply(timeout=30)
    assert any("Posted in the channel." in m.text() for m in told)
    posted = await fake.wait_for_message(
        lambda m: "Replay · Test" in m.text() and not m.ephemeral, channel=table.channel, since=since, timeout=20
    )
    assert "Round 1 · Action phase" in posted.text() and f"<@{player.id}>" in posted.text()
    assert posted.pings == []  # it names the player who shared it, and pings nobody
    assert not buttons(posted)  # the table reads it; each member steps through their own replay
    check_board(posted)
    assert fake.failed_interactions == [] and fake.internal_errors == []


async def test_the_replays_buttons_work_after_the_bot_is_killed_and_started_again(
    database: Path | str, tmp_path: Path
) -> None:
    """The real bot.py killed (SIGKILL) and started again: the replay's ◀ and its menu of rounds, on a message the
    killed process sent, still work (their ids carry the game and the position)."""
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Westeros", locale="en-US")
        channel = fake.add_text_channel(guild, "game")
        players = [fake.add_member(guild, f"p{i}") for i in range(3)]
        await play_before(database, guild.id, channel.id, [p.id for p in players])
        bot = BotProcess(fake, database, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        try:
            reply = await (await fake.slash(players[1], channel, "game replay")).wait_response(timeout=60)
            assert "Round 2 · Planning phase" in reply.text(), bot.output()[-3000:]
            await bot.kill()
            await bot.start()
            await fake.click(players[1], reply, buttons(reply)["◀ Previous phase"]["custom_id"])
            earlier = await shows(fake, reply, "Round 2 · Westeros phase")
            check_board(earlier)
            await fake.select(players[1], earlier, round_menu(earlier), ["1"])
            await shows(fake, earlier, "Round 1 · Action phase")
        finally:
            await bot.stop()
        assert fake.failed_interactions == [], bot.output()[-3000:]
        assert fake.internal_errors == []


async def play_before(database: Path | str, guild_id: int, channel_id: int, users: list[int]) -> None:
    """A game of the channel played to round 2 through the game service before this bot's time, all published."""
    store = await Store.open(database)
    try:
        service = GameService(store)
        settings = GameSettings(players=len(users), seed=SEED)
        game_id = await service.create(
            guild_id=guild_id, channel_id=channel_id, creator=users[0], name="Test", settings=settings
        )
        for user in users:
            await service.execute(Join(game_id=game_id, by=user))
        await service.execute(Start(game_id=game_id))
        agents: dict[str, HeuristicAgent] = {}
        while not ((game := await service.load(game_id)).round >= 2 and game.state.phase == "planning"):
            assert await answer_one(service, game_id, game, agents, SEED)
        for table in ("outbox_sends", "outbox", "notices"):  # told long ago: nothing is left to post
            await store.write(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
    finally:
        await store.close()
