"""The end of a game, told (issue W): once a game ends, its channel gets the story (the final standing, each house's
battles, units and castles, the battle that changed the most) with its charts and the timelapse of the board, and
every player a DM with their own house's line, in their language.

It rides on the outbox (cogs/publisher.py): the story is a part of the publication of the version that ended the
game. The story is worked out and drawn in the image pool (``app.story.told_in_pool``, from the start snapshot and
the command log, public views only); each message is sent with its publication's nonce and marked in
``outbox_sends`` as soon as Discord took it (``story:<n>``, ``story:dm:<house>``), and the whole is noted ``story``
once out. A crash before a message's mark sends it again with the same nonce (Discord answers with the message it
made); a crash after it skips it; the version's outbox row stays until the story is out, so a restart tells it once.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from app import story as stories
from app.background import Background, ImagePool, PoolBusy
from app.replay import GameLog, Refusal, read_log
from app.service import Applied, GameService, ServiceError
from app.story import Story, Told, told_in_pool
from cogs.channels import Channels
from cogs.dms import DM_CLOSED
from cogs.text import NAME_LIMIT, shown, split
from i18n import language_of

if TYPE_CHECKING:
    from cogs.publisher import Sends

log = logging.getLogger("westeros.story")

STORY = "story"  # the outbox part: the whole story is out
PICTURES = (stories.CHART_VICTORY, stories.CHART_POWER, stories.TIMELAPSE)
# A story that cannot be worked out (a history no longer kept or that no longer replays): told never, not retried.
UNTOLD = frozenset({"replay-no-history", "replay-mismatch", "story-not-ended", "no-game-here", "replay-other-channel"})


def draw_story(told: Story, views: list[dict[str, Any]], lang: str) -> list[tuple[str, bytes]]:
    """The story's pictures (run in an image worker: a module function, so it pickles)."""
    from render.story import pictures

    vassals = {line.house for line in told.lines if line.place == 0}
    return pictures(
        told.rounds,
        told.victory,
        told.power,
        told.supply,
        told.houses,
        views,
        lang,
        loyalty=told.loyalty,
        vassals=vassals,
        names=PICTURES,
    )


class StoryTeller:
    """Tells an ended game's story once, as a part of the publication of its last version."""

    def __init__(
        self, service: GameService, channels: Channels, images: Background | ImagePool, *, pictures: bool
    ) -> None:
        self.service = service
        self.channels = channels
        self.images = images
        self.pictures = pictures  # False: the words alone (no renderer installed)
        self.timings: list[dict[str, float]] = []  # the last stories' times (bench/replay.py reads them)

    async def told(self, game_id: int, channel_id: int, lang: str) -> Told:
        """The story of an ended game with its pictures in ``lang``, worked out and drawn in the image pool."""
        game_log: GameLog = await read_log(self.service, game_id, channel_id)
        draw = draw_story if self.pictures else None
        try:
            told = await self.images.run(told_in_pool, game_log, lang, draw)
        except PoolBusy as busy:
            raise ServiceError("images-busy", "Too many images are being drawn; try again in a minute.") from busy
        if isinstance(told, Refusal):
            raise told.error()
        return told

    async def tell(self, applied: Applied, sends: Sends, fence: Callable[[], Awaitable[None]]) -> bool:
        """Post the story of the game ``applied`` ended, and DM each player their house's line; each message once.
        Whether anything went out. Raises on a failure: the publication is tried again, the parts out are kept.
        ``fence``: the publisher's, awaited before every send (it raises once this process may no longer send)."""
        started = time.perf_counter()
        game_id = applied.game_id
        row = await self.service.row(game_id)
        lang = str(row.settings.get("language", "en"))
        name = shown(row.name, NAME_LIMIT)
        try:
            told = await self.told(game_id, row.channel_id, lang)
        except ServiceError as err:
            if err.code not in UNTOLD:
                raise  # the image pool full, say: the publication is tried again
            log.warning("game %s ended without a story: %s", game_id, err.message)
            await self.service.published_part(applied, STORY, written_at=await sends.written_at())
            return False
        drawn = time.perf_counter()
        chunks = split(stories.story_lines(told.story, name, lang))
        channel = await self.channels.channel(row.channel_id)
        sent_any = False
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            files = [discord.File(io.BytesIO(data), filename=file) for file, data in told.pictures] if last else []
            part = f"{STORY}:{index}"
            if (await sends.recorded(part))[0]:
                continue
            nonce = await sends.nonce(part)
            await fence()
            message = await channel.send(
                chunk, files=files, nonce=nonce, allowed_mentions=discord.AllowedMentions.none()
            )
            await sends.mark(part, message.id)
            sent_any = True
        posted = time.perf_counter()
        for house, user_id in sorted((await self.service.seats(game_id)).items()):
            if user_id is None or (await sends.recorded(f"{STORY}:dm:{house}"))[0]:
                continue
            if await self._dm(told.story, house, user_id, game_id, name, sends, fence):
                sent_any = True
        await self.service.published_part(applied, STORY, written_at=await sends.written_at())
        self.timings = [
            *self.timings[-9:],
            {
                **told.drawn_ms,
                "told_ms": (drawn - started) * 1000,
                "posted_ms": (posted - started) * 1000,
                "total_ms": (time.perf_counter() - started) * 1000,
            },
        ]
        return sent_any

    async def _dm(
        self,
        told: Story,
        house: str,
        user_id: int,
        game_id: int,
        name: str,
        sends: Sends,
        fence: Callable[[], Awaitable[None]],
    ) -> bool:
        """One player's line of the story, in their language; a player whose DMs are closed reads the channel."""
        part = f"{STORY}:dm:{house}"
        if await self.service.dm_closed(user_id):
            await sends.mark(part, None)
            return False
        lang = language_of(await self.service.language_for(user_id, game_id))
        text = stories.dm_text(told, house, name, lang)
        if not text:
            await sends.mark(part, None)
            return False
        try:
            dm = await self.channels.dm(user_id)
            await fence()
            message = await dm.send(text, nonce=await sends.nonce(part))
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                raise
            await self.service.set_dm_closed(user_id, True)
            await sends.mark(part, None)
            return False
        await sends.mark(part, message.id)
        return True
