"""What the channel sees of a game, through the fake Discord (issues 15, 17 and U): the full board at the start, with
the orders revealed and at the end of each Action phase, and a battle image after each battle on a message of its
own, each a PNG of the expected size attached to its narration; drawn in the bot's image pool, never on its event
loop. The step-by-step log is in a thread."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from app.background import ImagePool
from app.commands import Answer
from app.narration import narrate_all
from app.service import GameService
from cogs.story import PICTURES
from engine import Game, RuleError
from engine.agents import HeuristicAgent
from render import style
from render.crop import OUT_W
from tests.bot.conftest import Table

pytestmark = pytest.mark.slow

# The board is as wide as the map; a crop is drawn at a rounded zoom, so it is within a few pixels of OUT_W.
WIDTH = {"board": (style.MAP_W, style.MAP_W), "battle": (OUT_W - 30, OUT_W + 30)}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def play_with_agents(table: Table, game_id: int, seed: int) -> None:
    """Every decision answered through the service by the engine's heuristic agents (the default when refused)."""
    agents: dict[str, HeuristicAgent] = {}
    for _ in range(3000):
        game = await table.service.load(game_id)
        if game.finished or not await answer_one(table.service, game_id, game, agents, seed):
            return
    raise AssertionError("the game did not end")


async def answer_one(
    service: GameService, game_id: int, game: Game, agents: dict[str, HeuristicAgent], seed: int
) -> bool:
    """The first decision awaited, answered through the service by its house's heuristic agent (its default when
    the agent's answer is refused); False when none is awaited."""
    waiting = [p for p in game.prompts() if not p.answered]
    if not waiting:
        return False
    prompt = waiting[0]
    agent = agents.setdefault(prompt.house, HeuristicAgent(seed))
    user = (await service.seats(game_id))[prompt.house]
    try:
        answer = agent.answer(prompt, game.view(prompt.house))
        await service.execute(Answer(game_id=game_id, house=prompt.house, answer=answer, by=user, prompt_id=prompt.id))
    except RuleError:
        await service.execute(
            Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=user, prompt_id=prompt.id)
        )
    return True


GAME_SEED = 11  # a fixed game, so that the agents surely fight (a game seeded at random may have no battle)


async def start_seeded_game(table: Table, players: int, seed: int) -> int:
    """A lobby through Discord, its game's seed fixed before Start (a lobby's settings hold the seed), then Start."""
    fake = table.fake
    made = await fake.slash(table.moderator, table.channel, "game new", players=players, name="Test")
    lobby = await made.wait_response()
    for player in table.players[:players]:
        await (await fake.click(player, lobby, "lobby:1:join")).wait_response()
    row = await table.service.row(1)
    await table.service.store.update_settings(1, {**row.settings, "seed": seed})
    started = await (await fake.click(table.moderator, lobby, "lobby:1:start")).wait_response()
    assert "started" in started.content
    return 1


async def test_a_whole_game_posts_the_board_where_the_table_looks_and_an_image_per_battle(table: Table) -> None:
    """Issue U, fault 3: the images are those the table must look at: the board the game starts on, the board with
    the orders just revealed (fault 2) and at the end of each Action phase, and each battle on a message of its own.
    Crops of every march flooded the channel: none is posted."""
    fake, bot = table.fake, table.bot
    game_id = await start_seeded_game(table, 3, GAME_SEED)
    await play_with_agents(table, game_id, seed=5)
    await bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=60)

    posted: dict[str, Any] = {}  # filename -> the channel message it is attached to
    story: list[str] = []  # the pictures of the game's story, once it ended (issue W: tests/bot/test_story.py)
    for message in fake.visible_messages(table.moderator):
        if message.channel_id == table.channel.id:
            for attachment in message.attachments:
                if attachment.filename.startswith("story-"):
                    story.append(attachment.filename)
                    continue
                assert attachment.filename not in posted, f"{attachment.filename} posted twice"
                posted[attachment.filename] = message
    assert posted, "no image was posted"
    assert sorted(story) == sorted(PICTURES), story  # the story's, once
    for name, message in posted.items():
        kind = name.split("-")[0]
        assert kind in ("board", "battle"), f"{name}: only boards and battles are posted"
        attachment = message.attachment(name)
        assert attachment is not None
        width, height = png_size(attachment.data)
        low, high = WIDTH[kind]
        assert low <= width <= high and 200 < height < 3000, (name, width, height)
        assert message.content, f"{name} has no narration"

    log = await table.service.store.answers(game_id)
    events = await table.service.store.events_by_version(game_id)
    final = log[-1].version
    assert "board-0.png" in posted  # the whole board at the start
    assert f"board-{final}.png" in posted  # and at the end
    reveals = [v for v, evs in events.items() if any(e["type"] == "orders-revealed" for e in evs)]
    assert len(reveals) >= 2
    for version in reveals:  # the most important map of a round, every round, on the line that says so
        assert f"board-{version}.png" in posted, f"the reveal at version {version} posted no board"
        assert "Orders are revealed" in posted[f"board-{version}.png"].content
    ends = [v for v, evs in events.items() if any(e["type"] == "action-cleanup" for e in evs)]
    assert ends and all(f"board-{v}.png" in posted for v in ends), "an Action phase ended without its board"
    battles = [(v, e) for v, evs in events.items() for e in evs if e["type"] in ("combat-result", "neutral-attack")]
    assert battles, "the agents fought no battle: pick another seed"
    for version, result in battles:
        name = f"battle-{result['area']}-{version}.png"
        assert name in posted
        message = posted[name]
        assert [a.filename for a in message.attachments] == [name]  # one battle, one message
        if result["type"] == "combat-result":
            winner = result["winner"].capitalize()
            assert f"{winner} wins" in message.content or f"{winner} win" in message.content, message.content
    assert len(posted) == 1 + len(reveals) + len({*ends, final}) + len(battles), sorted(posted)
    # An order given face down shows nothing new: no image.
    submitted = [v for v, evs in events.items() if evs and all(e["type"] == "orders-submitted" for e in evs)]
    assert submitted and not any(n.endswith(f"-{v}.png") for v in submitted for n in posted)

    pool = bot.background
    assert isinstance(pool, ImagePool) and pool.done >= len({m.id for m in posted.values()})


async def test_a_phase_grows_one_message_and_the_log_thread_tells_every_step(table: Table) -> None:
    """Issue U, fault 3: the channel flooded with one message per step (Mustering: one per house). A phase's lines now
    grow one message by edits (edits notify nobody); a round posts at most six messages besides its battles; the
    whole step-by-step log is in a thread under the channel."""
    fake, bot = table.fake, table.bot
    game_id = await start_seeded_game(table, 3, GAME_SEED)
    await play_with_agents(table, game_id, seed=5)
    await bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=60)

    channel = [m for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id]
    lobby = channel[0]  # the lobby, edited into the start message
    game_posts = [m for m in channel[1:] if not m.pinned and "📌" not in m.content]
    assert "The game has started" in lobby.content
    headers = [m for m in game_posts if "**— Round " in m.content]
    assert headers and all(m.history for m in headers), "a phase's message was never added to"
    events = await table.service.store.events_by_version(game_id)
    rounds = max(e["round"] for evs in events.values() for e in evs if e["type"] == "round-started")
    battles = sum(1 for evs in events.values() for e in evs if e["type"] in ("combat-result", "neutral-attack"))
    assert len(game_posts) <= 1 + rounds * 6 + battles  # the start's board, then at most six a round and the battles
    for message in game_posts:
        assert len(message.content) <= 2000

    (thread,) = [c for c in fake.world.channels.values() if c.parent_id == table.channel.id]
    assert thread.name.startswith("Test")
    logged = "\n".join(m.content for m in fake.world.transcript if m.channel_id == thread.id)
    narrated = narrate_all([e for v in sorted(events) for e in events[v]], "en")
    assert [line for line in narrated if line not in logged] == []  # every line of every step, headers too
    # ... and no other: a no-op told step by step (each house musters in its own step) is one line, not one a house
    # (issue V, item 6), rewritten as the houses come.
    thread_lines = [line for m in fake.visible_messages(table.moderator) if m.channel_id == thread.id
                    for line in m.content.splitlines()]  # fmt: skip
    headers = {line for line in thread_lines if line.startswith("**— ")}  # phases that start without an event too
    assert [line for line in thread_lines if line not in narrated and line not in headers] == []
    assert (await table.service.row(game_id)).log_thread_id == thread.id


async def test_the_map_asked_for_during_a_bid_shows_the_power_announced_before_it(table: Table) -> None:
    """Issue U, fault 7: during a bid the board read "?" for every house's Power. A spectator's /game map now shows
    the totals announced before the bid (B-HIDDEN-02), drawn from the public view; the Power left stays hidden."""
    from render import render_board

    fake, service = table.fake, table.service
    game_id = await start_seeded_game(table, 3, GAME_SEED)
    agents: dict[str, HeuristicAgent] = {}
    for _ in range(3000):
        game = await service.load(game_id)
        if any(p.kind == "bid" and not p.answered for p in game.prompts()):
            break
        await answer_one(service, game_id, game, agents, 5)
    else:
        raise AssertionError("no bid came up")
    await fake.wait_idle(quiet=0.3, timeout=30)
    view = (await service.load(game_id)).view(None)
    assert set(view["power"].values()) == {None} and None not in view["power_announced"].values()
    shown = await (await fake.slash(table.moderator, table.channel, "game map")).wait_response(timeout=30)
    png = shown.attachments[0].data
    assert png == render_board(view, "en")
    hidden = {k: v for k, v in view.items() if k != "power_announced"}
    assert png != render_board(hidden, "en")  # the image shows the announced totals
