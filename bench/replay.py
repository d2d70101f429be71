"""Time the replay and the end-of-game story (issue W): a whole 8-player Mother of Dragons game played by the engine's
agents through the game service on a real SQLite file, then every phase's end rebuilt from the command log and drawn,
uncached, and the game's story worked out and drawn.

    python bench/replay.py          # human-readable
    python bench/replay.py --json   # one JSON object

For every phase of the game, as ``/game replay`` asks for it: ``read_ms`` reads the start snapshot and the whole log
from the store (on the event loop, the one part that is), ``rebuild_ms`` replays the log and builds the phase's
public view and lines (``app.replay.frame`` without drawing), ``draw_ms`` draws its board (``render.render_board``),
and ``total_ms`` is all of it as the bot does it: the read, then the rebuild and the drawing in a worker of the image
pool (``ImagePool``, warmed as the bot warms it, at its lower priority), the log pickled to it and the picture back.
The target is under 1.5 s for every phase (``within_target``). ``cold_ms`` is the first picture of a fresh worker:
the board with Essos has its static layers built on a worker's first Essos image, once per worker and again when a
worker is replaced (every 500 images), unless warmed (``cold_warmed_ms``: the worker warmed for it first, as the bot
does once a game on that board runs, cogs/warm.py); both are reported apart and not counted
in ``total_ms`` (``cold_in_process_ms``: the same in this process, before the in-process figures). ``story``: the
story as cogs/story.py has it drawn (``measure_story``), the first in a fresh worker and the next; the target is
10 s from the last answer. The machine's load average is printed too: every figure is elapsed time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.background import ImagePool  # noqa: E402
from app.commands import Answer, Gift, Join, Start  # noqa: E402
from app.queries import ServiceError  # noqa: E402
from app.replay import Frame, GameLog, frame, frame_in_pool, read_log, timeline  # noqa: E402
from app.service import GameService, GameSettings  # noqa: E402
from app.store import Store  # noqa: E402
from app.story import Told, told_in_pool  # noqa: E402
from cogs.story import draw_story  # noqa: E402
from engine.agents import AGENTS  # noqa: E402
from engine.errors import RuleError  # noqa: E402
from render.api import render_board  # noqa: E402
from render.warming import warm_renderer  # noqa: E402

CHANNEL = 1
TARGET_MS = 1500.0
ESSOS = "mother-of-dragons-essos"  # the board of an 8-player Mother of Dragons game
STORY_TARGET_MS = 10000.0  # the story posts within 10 s of the last answer


async def play(service: GameService, players: int, seed: int) -> int:
    """A whole Mother of Dragons game of ``players`` heuristic agents (and a gift of Power now and then)."""
    settings = GameSettings(players=players, seed=seed, ruleset="mother-of-dragons")
    game_id = await service.create(guild_id=1, channel_id=CHANNEL, creator=100, name="bench", settings=settings)
    for user in range(100, 100 + players):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    seats = await service.seats(game_id)
    agents = {h: AGENTS["heuristic"](seed * 31 + i) for i, h in enumerate(sorted(seats))}
    rnd = random.Random(seed)
    while not (game := await service.load(game_id)).finished:
        prompt = next(p for p in game.prompts() if not p.answered)
        by = await service.seat_of(game_id, prompt.house)
        if by is not None and rnd.random() < 0.03:
            try:
                others = sorted(h for h in seats if h != prompt.house and seats[h] is not None)
                await service.execute(Gift(game_id=game_id, by=by, to=rnd.choice(others), amount=1))
            except (RuleError, ServiceError):
                pass
            continue
        answer = agents[sorted(agents)[0] if prompt.house not in agents else prompt.house].answer(
            prompt, game.view(prompt.house)
        )
        try:
            await service.execute(Answer(game_id=game_id, house=prompt.house, answer=answer, by=by))
        except (RuleError, ServiceError):
            await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=by))
    return game_id


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 1), "p99": round(p99, 1), "max": round(ordered[-1], 1)}


async def measure(players: int, seed: int, lang: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            service = GameService(store)
            started = time.perf_counter()
            game_id = await play(service, players, seed)
            played_s = time.perf_counter() - started
            log = await read_log(service, game_id, CHANNEL)
            phases = timeline(log).phases
            t0 = time.perf_counter()
            render_board(frame(log, None, None, lang).view, lang)  # this process's static layers, as a worker's
            cold_here_ms = (time.perf_counter() - t0) * 1000
            read_ms, rebuild_ms, draw_ms, total_ms = [], [], [], []
            for end in phases:
                t0 = time.perf_counter()
                log = await read_log(service, game_id, CHANNEL)
                t1 = time.perf_counter()
                rebuilt = frame(log, end.round, end.phase, lang)
                t2 = time.perf_counter()
                render_board(rebuilt.view, lang)
                t3 = time.perf_counter()
                read_ms.append((t1 - t0) * 1000)
                rebuild_ms.append((t2 - t1) * 1000)
                draw_ms.append((t3 - t2) * 1000)
            pool = ImagePool(1, initializer=warm_renderer, preload=("render.warmed",))
            try:
                await asyncio.to_thread(pool.start)
                t0 = time.perf_counter()
                first = await pool.run(frame_in_pool, log, 1, "planning", lang, render_board)
                cold_ms = (time.perf_counter() - t0) * 1000
                assert isinstance(first, Frame) and first.picture
                for end in phases:
                    t0 = time.perf_counter()
                    log = await read_log(service, game_id, CHANNEL)
                    drawn = await pool.run(frame_in_pool, log, end.round, end.phase, lang, render_board)
                    total_ms.append((time.perf_counter() - t0) * 1000)
                    assert isinstance(drawn, Frame) and drawn.picture and drawn.shown.key == end.key
            finally:
                pool.close()
            warmed_ms = await first_picture_warmed(log, lang)
            story = await measure_story(service, game_id, lang)
        finally:
            await store.close()
    total = spread(total_ms)
    return {
        "game": {
            "ruleset": "mother-of-dragons",
            "players": players,
            "seed": seed,
            "versions": log.version,
            "phases": len(phases),
            "rounds": phases[-1].round,
            "played_s": round(played_s, 1),
        },
        "lang": lang,
        "read_ms": spread(read_ms),
        "rebuild_ms": spread(rebuild_ms),
        "draw_ms": spread(draw_ms),
        "total_ms": total,
        "cold_ms": round(cold_ms, 1),
        "cold_warmed_ms": round(warmed_ms, 1),
        "cold_in_process_ms": round(cold_here_ms, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "target_ms": TARGET_MS,
        "within_target": total["max"] < TARGET_MS,
        "story": story,
    }


async def warmed_pool(story: bool) -> ImagePool:
    """A fresh one-worker pool warmed as the bot warms its workers for this game (cogs/warm.py): the base board as
    it starts, then the board with Essos (and, with ``story``, the story's charts) as a running game on it asks."""
    pool = ImagePool(1, initializer=warm_renderer, preload=("render.warmed",))
    await asyncio.to_thread(pool.start)
    await pool.run(warm_renderer, (ESSOS,), story)
    return pool


async def first_picture_warmed(log: GameLog, lang: str) -> float:
    """``cold_ms`` again, the worker warmed for the board with Essos first."""
    pool = await warmed_pool(story=False)
    try:
        t0 = time.perf_counter()
        first = await pool.run(frame_in_pool, log, 1, "planning", lang, render_board)
        assert isinstance(first, Frame) and first.picture
        return (time.perf_counter() - t0) * 1000
    finally:
        pool.close()


async def told_once(pool: ImagePool, service: GameService, game_id: int, lang: str) -> tuple[Told, dict[str, float]]:
    """The story as the bot tells it: the log read on the event loop, the story worked out and drawn in the pool."""
    t0 = time.perf_counter()
    log = await read_log(service, game_id, CHANNEL)
    t1 = time.perf_counter()
    told = await pool.run(told_in_pool, log, lang, draw_story)
    t2 = time.perf_counter()
    assert isinstance(told, Told) and len(told.pictures) == 3
    times = {"read_ms": (t1 - t0) * 1000, "total_ms": (t2 - t0) * 1000, **told.drawn_ms}
    return told, {k: round(v, 1) for k, v in times.items()}


async def measure_story(service: GameService, game_id: int, lang: str) -> dict[str, Any]:
    """The end-of-game story (cogs/story.py) of the same game, in a fresh pool warmed as the bot warms it: its first
    story (``cold``: matplotlib and the story's first charts in that worker; ``cold_warmed``: in a fresh worker
    warmed as the bot warms it for a game near its end, cogs/warm.py) and the next ones (``warm``), each
    from reading the log to the pictures back on the event loop; the pictures' sizes. Posting them is Discord's
    time, not measured here."""
    pool = ImagePool(1, initializer=warm_renderer, preload=("render.warmed",))
    try:
        await asyncio.to_thread(pool.start)
        _, cold = await told_once(pool, service, game_id, lang)
        warm = []
        for _ in range(3):
            told, times = await told_once(pool, service, game_id, lang)
            warm.append(times)
    finally:
        pool.close()
    pool = await warmed_pool(story=True)
    try:
        _, cold_warmed = await told_once(pool, service, game_id, lang)
    finally:
        pool.close()
    best = min(warm, key=lambda w: w["total_ms"])
    return {
        "cold": cold,
        "cold_warmed": cold_warmed,
        "warm": best,
        "bytes": {name: len(data) for name, data in told.pictures},
        "frames": len(told.story.frames),
        "target_ms": STORY_TARGET_MS,
        "within_target": cold_warmed["total_ms"] < STORY_TARGET_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--lang", default="en", choices=["en", "ru"])
    args = parser.parse_args()
    result = asyncio.run(measure(args.players, args.seed, args.lang))
    if args.json:
        print(json.dumps(result))
        return 0
    game = result["game"]
    print(
        f"{game['players']}-player Mother of Dragons game (seed {game['seed']}): {game['versions']} versions,"
        f" {game['phases']} phases, {game['rounds']} rounds (played in {game['played_s']} s)"
    )
    for name in ("read_ms", "rebuild_ms", "draw_ms", "total_ms"):
        f = result[name]
        print(f"  {name:<11} p50 {f['p50']:>7.1f}   p99 {f['p99']:>7.1f}   max {f['max']:>7.1f}")
    print(
        f"  cold worker's first picture: {result['cold_ms']:.1f} ms, {result['cold_warmed_ms']:.1f} ms once warmed"
        " for the board with Essos (not in total_ms)"
    )
    print(f"  load average {result['load_average']} on {result['cpus']} CPUs (other work slows every figure)")
    print(f"  target {TARGET_MS:.0f} ms per phase: {'met' if result['within_target'] else 'NOT met'}")
    story = result["story"]
    print(
        f"  story: first in a worker {story['cold']['total_ms']:.0f} ms ({story['cold_warmed']['total_ms']:.0f} ms"
        f" warmed), then {story['warm']['total_ms']:.0f} ms"
        f" (worked out {story['warm']['story_ms']:.0f} ms, drawn {story['warm']['draw_ms']:.0f} ms);"
        f" {story['frames']} frames, {sum(story['bytes'].values()) / 1e6:.2f} MB of pictures;"
        f" target {STORY_TARGET_MS:.0f} ms: {'met' if story['within_target'] else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
