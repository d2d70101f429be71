"""What the channel sees of a game, through the fake Discord (issues 15 and 17): the full board at the start, a
battle image after each battle, a crop of what changed after a step that changed a few areas, each a PNG of the
expected size attached to its step's narration; drawn in the bot's image pool, never on its event loop."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from app.background import ImagePool
from app.commands import Answer
from engine import RuleError
from engine.agents import HeuristicAgent
from render import style
from render.crop import OUT_W
from tests.bot.conftest import Table

pytestmark = pytest.mark.slow

# The board is as wide as the map; a crop is drawn at a rounded zoom, so it is within a few pixels of OUT_W.
WIDTH = {"board": (style.MAP_W, style.MAP_W), "battle": (OUT_W - 30, OUT_W + 30), "changes": (OUT_W - 30, OUT_W + 30)}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def play_with_agents(table: Table, game_id: int, seed: int) -> None:
    """Every decision answered through the service by the engine's heuristic agents (the default when refused)."""
    service = table.service
    agents: dict[str, HeuristicAgent] = {}
    for _ in range(3000):
        game = await service.load(game_id)
        waiting = [p for p in game.prompts() if not p.answered]
        if game.finished or not waiting:
            return
        prompt = waiting[0]
        agent = agents.setdefault(prompt.house, HeuristicAgent(seed))
        user = (await service.seats(game_id))[prompt.house]
        try:
            answer = agent.answer(prompt, game.view(prompt.house))
            await service.execute(
                Answer(game_id=game_id, house=prompt.house, answer=answer, by=user, prompt_id=prompt.id)
            )
        except RuleError:
            await service.execute(
                Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=user, prompt_id=prompt.id)
            )
    raise AssertionError("the game did not end")


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


async def test_a_whole_game_posts_the_board_a_battle_image_per_battle_and_crops_of_changes(table: Table) -> None:
    fake, bot = table.fake, table.bot
    game_id = await start_seeded_game(table, 3, GAME_SEED)
    await play_with_agents(table, game_id, seed=5)
    await bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=60)

    posted: dict[str, Any] = {}  # filename -> the channel message it is attached to
    for message in fake.visible_messages(table.moderator):
        if message.channel_id == table.channel.id:
            for attachment in message.attachments:
                assert attachment.filename not in posted, f"{attachment.filename} posted twice"
                posted[attachment.filename] = message
    assert posted, "no image was posted"
    for name, message in posted.items():
        kind = name.split("-")[0]
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
    # Issue U, fault 2: the most important map of a round, every round: the board with the orders just revealed,
    # attached to the line that says so.
    reveals = [v for v, evs in events.items() if any(e["type"] == "orders-revealed" for e in evs)]
    assert len(reveals) >= 2
    for version in reveals:
        assert f"board-{version}.png" in posted, f"the reveal at version {version} posted no board"
        assert "Orders are revealed" in posted[f"board-{version}.png"].content
    battles = [
        (v, e["area"]) for v, evs in events.items() for e in evs if e["type"] in ("combat-result", "neutral-attack")
    ]
    assert battles, "the agents fought no battle: pick another seed"
    for version, area in battles:
        assert f"battle-{area}-{version}.png" in posted
        names = [a.filename for a in posted[f"battle-{area}-{version}.png"].attachments]
        assert names[0].startswith("battle-")  # battle images come first
    marches = [v for v, evs in events.items() if any(e["type"] == "march" for e in evs)]
    crops = [v for v in marches if f"changes-{v}.png" in posted]
    assert crops, "no step that moved units posted a crop of what changed"
    for version in marches:
        assert {f"changes-{version}.png", f"board-{version}.png"} & set(posted) or any(
            n.startswith("battle-") and n.endswith(f"-{version}.png") for n in posted
        ), f"the march at version {version} posted no image"
    # An order given face down shows nothing new: no image.
    submitted = [v for v, evs in events.items() if evs and all(e["type"] == "orders-submitted" for e in evs)]
    assert submitted and not any(n.endswith(f"-{v}.png") for v in submitted for n in posted)

    pool = bot.background
    assert isinstance(pool, ImagePool) and pool.done >= len({m.id for m in posted.values()})


async def test_text_only_steps_of_one_phase_share_a_message_edited_in_place(table: Table) -> None:
    """Issue U, fault 3: the channel flooded with one message per step (Mustering: one per house). A step that posts
    only lines, in the phase of the game's last message, adds them to that message by an edit (edits notify nobody);
    a new phase, an image or a notice starts a new message, so the channel still reads in order."""
    fake, bot = table.fake, table.bot
    game_id = await start_seeded_game(table, 3, GAME_SEED)
    await play_with_agents(table, game_id, seed=5)
    await bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=60)

    channel = [m for m in fake.visible_messages(table.moderator) if m.channel_id == table.channel.id]
    lobby = channel[0]  # the lobby, edited into the start message
    game_lines = [m for m in channel[1:] if not m.pinned and "📌" not in m.content]
    assert "The game has started" in lobby.content
    edited = [m for m in game_lines if m.history and not m.attachments]
    assert edited, "no step's lines were added to an earlier message"
    for message in edited:  # an edit only ever adds lines below what the message said
        for before in message.history:
            assert message.content.startswith(str(before.get("content", "")))
    events = await table.service.store.events_by_version(game_id)
    narrated = [v for v, evs in events.items() if evs]
    assert len(game_lines) < len(narrated)  # fewer messages than steps with something public to tell
