"""``/game map area:`` (declared with /game map in cogs/lobby.py): the part of the channel's game board around one
area and its neighbours, drawn for a phone's width (render/area_map.py) in the image pool, from the public view only
(what the whole table sees: a player's own orders are on ``/game map`` without an area). Ephemeral, in the reader's
language; the area is picked from a list in that language (autocomplete) or typed, by its name in either language.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from app.area_names import find_area, matching
from app.background import Background, ImagePool, PoolBusy
from app.labels import area_label
from app.service import GameService, ServiceError
from i18n import language_of

AREA_LIMIT = 64  # characters of a typed area read; longer is refused as no area
CHOICES = 25  # Discord's limit of autocomplete choices
PICTURE = "area.png"


async def area_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The areas of the channel's game whose name in the reader's language holds what they typed (first those that
    start with it)."""
    service = _service(interaction)
    row = await service.started_game_in(interaction.channel_id or 0)
    if row is None:
        return []
    lang = language_of(str(interaction.locale))
    game = await service.load(row.id)
    return [app_commands.Choice(name=n[:100], value=a) for n, a in matching(game, current[:AREA_LIMIT], lang, CHOICES)]


def _service(interaction: discord.Interaction[Any]) -> GameService:
    service = getattr(interaction.client, "service", None)
    assert isinstance(service, GameService)
    return service


async def show_area(
    interaction: discord.Interaction[Any], service: GameService, images: Background | ImagePool, typed: str
) -> None:
    """Answer ``/game map area:`` with the board around the area (the caller deferred, ephemerally)."""
    lang = language_of(str(interaction.locale))
    row = await service.started_game_in(interaction.channel_id or 0)
    if row is None:
        raise ServiceError("no-game-here", "There is no game in this channel.")
    game = await service.load(row.id)
    area = find_area(game, typed[:AREA_LIMIT], lang) if len(typed) <= AREA_LIMIT else None
    if area is None:
        raise ServiceError("map-no-area", "There is no such area on this board.", text=typed[:32])
    from render.area_map import render_area

    try:
        png = await images.run(render_area, game.view(None), area, lang)
    except PoolBusy as busy:
        raise ServiceError("images-busy", "Too many images are being drawn; try again in a minute.") from busy
    await interaction.followup.send(
        str(area_label(area, lang)),
        file=discord.File(io.BytesIO(png), filename=PICTURE),
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
