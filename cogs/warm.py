"""The image workers warmed for what the bot's games will ask of them (issue W).

Every worker builds the base board's static layers as it starts (``warm_renderer``, render/warming.py): cheap, and what
most games draw. The board with Essos (a Mother of Dragons game where Targaryen plays) costs a worker about 1.5 s of
CPU per language on its first picture, and the end-of-game story's charts a second or more (matplotlib's import and
first figure): warming those in every worker at every start would cost each start of the bot, and a test suite that
starts hundreds, that much CPU for games it may never see. So they are warmed when a game needs them: at start-up
for the games running, then when a version of a game on a board not yet warm is committed, and for the story once a
game reaches its last rounds. Each warm-up is one job per worker, sent at once (each worker takes one: a job lasts
longer than handing one out). A worker replaced after its jobs (``ImagePool``'s ``tasks_per_worker``) starts cold
again, as it always did for the base board's first picture.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from app.background import Background, ImagePool, PoolBusy
from app.service import Applied, GameService, ServiceError
from app.story import board_name
from engine import Game

log = logging.getLogger("westeros.warm")

STORY_FROM_ROUND = 9  # a game this far in may end soon: the story's charts are warmed


class Warmer:
    """Sends ``job(boards, story)`` to every image worker when a game needs a board or the story not yet warm."""

    def __init__(self, pool: Background | ImagePool, job: Callable[[tuple[str, ...], bool], object]) -> None:
        self.pool = pool
        self.job = job
        self.boards = {"base"}  # warmed by every worker as it starts
        self.story = False
        self.tasks: set[asyncio.Task[None]] = set()

    def needs(self, game: Game) -> None:
        """Warm what ``game`` will ask of the workers, unless it is warm already."""
        board = board_name(game)
        story = not game.finished and game.round >= STORY_FROM_ROUND and not self.story
        if board in self.boards and not story:
            return
        self.boards.add(board)
        self.story = self.story or story
        boards = (board,) if board != "base" else ()
        task = asyncio.get_running_loop().create_task(self._warm(boards, story))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _warm(self, boards: tuple[str, ...], story: bool) -> None:
        workers = self.pool.workers if isinstance(self.pool, ImagePool) else 1
        try:
            await asyncio.gather(*(self.pool.run(self.job, boards, story) for _ in range(workers)))
            log.info("image workers warmed: boards %s, story %s", boards, story)
        except PoolBusy:
            pass  # busy drawing: the first picture of that board is slower, that is all
        except Exception as err:  # the pool closing with the bot, say: a first picture is slower, that is all
            log.warning("could not warm the image workers (boards %s, story %s): %r", boards, story, err)

    async def on_applied(self, applied: Applied) -> None:
        self.needs(applied.game)

    async def at_start(self, service: GameService) -> None:
        """The games running now: their boards (and the story, for those in their last rounds)."""
        for row in await service.active_games():
            try:
                self.needs(await service.load(row.id))
            except ServiceError:
                continue  # a game that does not load is quarantined elsewhere
