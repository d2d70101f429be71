"""``/game map area:`` through the fake Discord (issue W): the areas offered as one types, in the reader's language;
the board around the area and its neighbours, ephemeral, at a phone's width, and exactly the public board's crop (a
player's orders placed and not yet revealed stay face down in it); a typed name works in either language; an area
no board has, and a text too long, get a clear refusal in the reader's language."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.agents import HeuristicAgent
from render import style
from render.area_map import HIGHLIGHT, render_area
from tests.bot.conftest import Table
from tests.bot.test_images import answer_one, start_seeded_game

pytestmark = pytest.mark.slow

EPHEMERAL = 64
SEED = 11


async def test_the_board_around_an_area_is_the_public_crop_at_a_phones_width(table: Table) -> None:
    fake = table.fake
    game_id = await start_seeded_game(table, 3, SEED)
    agents: dict[str, HeuristicAgent] = {}
    # Two houses' orders placed, face down until the third's.
    for _ in range(2):
        assert await answer_one(table.service, game_id, await table.service.load(game_id), agents, SEED)
    game = await table.service.load(game_id)
    assert any(p.answered for p in game.prompts()) and not all(p.answered for p in game.prompts())
    player = table.players[0]

    offered = await fake.autocomplete(player, table.channel, "game map", "area", area="winter")
    assert {"name": "Winterfell", "value": "winterfell"} in [dict(c) for c in offered], offered
    ruski = fake.add_member(table.guild, "ru-reader", locale="ru")
    russian = await fake.autocomplete(ruski, table.channel, "game map", "area", area="винт")
    assert [c["name"] for c in russian][:1] == ["Винтерфелл"], russian
    assert len(await fake.autocomplete(player, table.channel, "game map", "area", area="")) == 25  # Discord's most

    reply = await (await fake.slash(player, table.channel, "game map", area="winterfell")).wait_response(timeout=30)
    assert reply.flags & EPHEMERAL and reply.ephemeral_for == player.id
    assert reply.content == "Winterfell"
    attachment = reply.attachment("area.png")
    assert attachment is not None
    image = Image.open(io.BytesIO(attachment.data))
    assert image.width == style.PHONE_W and 600 <= image.height <= 1400  # a phone's width, no zooming
    colours = {c for _, c in image.convert("RGB").getcolors(1 << 20) or []}
    assert HIGHLIGHT in colours and style.house_style("stark").tint in colours  # Winterfell outlined, Stark's land
    # Exactly the public board's crop: what the player placed is face down in it, as for everyone.
    assert attachment.data == render_area(game.view(None), "winterfell", "en")

    typed = await (await fake.slash(ruski, table.channel, "game map", area="Винтерфелл")).wait_response(timeout=30)
    assert typed.content == "Винтерфелл" and typed.attachment("area.png") is not None

    refused = await (await fake.slash(player, table.channel, "game map", area="Narnia")).wait_response(timeout=30)
    assert refused.flags & EPHEMERAL
    assert "“Narnia” is no area of this game's board" in refused.content, refused.content
    long = await (await fake.slash(ruski, table.channel, "game map", area="x" * 90)).wait_response(timeout=30)
    assert "не область карты этой игры" in long.content and "x" * 33 not in long.content, long.content
    assert fake.failed_interactions == [] and fake.internal_errors == []
