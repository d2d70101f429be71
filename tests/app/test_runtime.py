"""A lean runtime (issue 15): bounded caches that ended and idle games leave, views and prompts shared per
version, snapshots pruned when a game ends (undo still works while it runs), images drawn in worker processes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

import pytest

import app.service as service_module
from app.ai import AiPlayers
from app.background import ImagePool, PoolBusy
from app.commands import Answer, End, Join, Start, Undo
from app.config import AI_NICENESS, load_config
from app.lru import Bounded, KeyedLocks
from app.service import GameService, GameSettings, SharedGame, replay
from app.store import Store
from engine import Game


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def started(service: GameService, channel: int = 10, players: int = 3) -> int:
    game_id = await service.create(
        guild_id=1, channel_id=channel, creator=100, name="test", settings=GameSettings(players=players, seed=5)
    )
    for user in range(100, 100 + players):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


async def answer_defaults(service: GameService, game_id: int, steps: int) -> None:
    """``steps`` answers, each the default of the first open prompt (or until the game ends)."""
    for _ in range(steps):
        game = await service.load(game_id)
        open_prompts = [p for p in game.prompts() if not p.answered]
        if game.finished or not open_prompts:
            return
        prompt = open_prompts[0]
        seats = await service.seats(game_id)
        await service.execute(
            Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house])
        )


# ----- bounded structures -----


def test_a_bounded_cache_forgets_its_oldest_entries() -> None:
    cache: Bounded[int, str] = Bounded(3)
    for key in range(5):
        cache[key] = str(key)
    assert list(cache) == [2, 3, 4]
    cache[2] = "again"  # a write makes it the newest
    cache[5] = "5"
    assert list(cache) == [4, 2, 5]
    with pytest.raises(ValueError):
        Bounded(0)


async def test_a_lock_leaves_memory_when_nobody_holds_or_awaits_it() -> None:
    locks = KeyedLocks()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks.hold("game"):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"))
    assert order == ["a in", "a out", "b in", "b out"]  # one at a time
    assert len(locks) == 0 and "game" not in locks


# ----- the service's caches -----


async def test_views_prompts_and_awaiting_are_worked_out_once_per_version(service: GameService) -> None:
    game_id = await started(service)
    game = await service.load(game_id)
    assert isinstance(game, SharedGame) and game is await service.load(game_id)
    house = game.prompts()[0].house
    assert game.view(None) is game.view(None)
    assert game.view(house) is game.view(house) and game.view(house) is not game.view(None)
    assert game.prompt_for(house) is game.prompt_for(house)
    assert game.awaiting() == Game.from_json(game.to_json()).awaiting()
    assert game.view(house) == Game.from_json(game.to_json()).view(house)  # the same view, once
    # The open decisions' ids, taken from the prompts worked out already, or worked out without them.
    assert game.prompt_ids() == [p.id for p in game.prompts()]
    fresh = SharedGame(Game.from_json(game.to_json()).state)
    assert fresh.prompt_ids() == game.prompt_ids() and fresh._prompts is None


async def test_an_answer_carries_the_views_before_and_after_it(service: GameService) -> None:
    game_id = await started(service)
    before = await service.load(game_id)
    prompt = before.prompts()[0]
    user = (await service.seats(game_id))[prompt.house]
    applied = await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=user))
    view_before, view_after = applied.views()
    assert view_before is before.view(None)  # the before view every reader of that version already shares
    assert view_after is (await service.load(game_id)).view(None)
    assert view_after["version"] == view_before["version"] + 1


async def test_parsed_games_are_bounded_and_ended_games_leave_every_cache(service: GameService) -> None:
    service._parsed.limit = 2
    games = [await started(service, channel=10 + i) for i in range(3)]
    for game_id in games:
        await service.load(game_id)
    assert list(service._parsed) == games[1:]  # the least recently used went
    assert len(service._locks) == 0 and len(service._channel_locks) == 0  # no lock outlives its use
    ended: list[int] = []
    service.subscribe_end(ended.append)
    await service.execute(End(game_id=games[2]))
    assert ended == [games[2]]
    assert games[2] not in service._parsed
    assert games[2] not in service.store._games and games[2] not in service.store._seats
    await service.load(games[2])  # an ended game is still readable, straight from the database
    await service.row(games[2])
    assert games[2] not in service._parsed and games[2] not in service.store._games


async def test_store_caches_are_bounded(database: Path | str) -> None:
    store = await Store.open(database)
    service = GameService(store)
    store._games.limit = store._seats.limit = store.deadline_cache.limit = 4
    store._dm_closed.limit = 4
    for i in range(10):
        game_id = await started(service, channel=100 + i)
        await store.seats(game_id)
        await service.deadline(game_id)
    for user in range(20):
        await store.dm_closed(user)
    assert store.cached_games() <= 4 and len(store._dm_closed) == 4
    await store.close()


async def test_running_games_are_counted_in_sql(service: GameService) -> None:
    games = [await started(service, channel=10 + i) for i in range(3)]
    await service.execute(End(game_id=games[0]))
    await service.create(guild_id=1, channel_id=99, creator=1, name="lobby", settings=GameSettings(players=3))
    service._parsed.clear()
    assert await service.count_running() == 2
    assert len(service._parsed) == 0  # nothing was loaded to count them


# ----- snapshots -----


async def test_undo_works_while_a_game_runs_and_an_ended_game_keeps_only_its_first_snapshot_and_log(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 3)
    game_id = await started(service)
    await answer_defaults(service, game_id, 10)
    running = await service.store.snapshot_versions(game_id)
    assert len(running) >= 3  # the start and periodic ones: undo replays from the latest
    version = (await service.load(game_id)).version
    before_last = await service._replayed_before_last(game_id, await service.row(game_id))
    restored = (await service.execute(Undo(game_id=game_id))).game
    assert restored.version == version - 1 == before_last[0].version
    assert (await service.load(game_id)).to_json() == before_last[0].to_json()
    await answer_defaults(service, game_id, 4)
    final = (await service.load(game_id)).to_json()
    await service.execute(End(game_id=game_id))
    assert await service.store.snapshot_versions(game_id) == [running[0]]  # the first one only
    row = await service.row(game_id)
    assert row.status == "ended" and row.state == final  # the final state stays
    # The log replays every point from the first snapshot: here, to the end.
    first = await service.store.latest_snapshot(game_id, at_most=running[0])
    assert first is not None
    game = Game.from_json(first[1])
    for entry in await service.store.answers(game_id, after_version=first[0]):
        replay(game, entry.prompt_id, entry.house, entry.answer)
    assert game.to_json() == final


async def test_a_game_played_to_its_end_drops_its_intermediate_snapshots(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 10)
    game_id = await started(service)
    other = await started(service, channel=11)  # a running game keeps its snapshots
    await answer_defaults(service, other, 25)
    kept = await service.store.snapshot_versions(other)
    await answer_defaults(service, game_id, 5000)
    row = await service.row(game_id)
    assert row.status == "ended"
    versions = await service.store.snapshot_versions(game_id)
    assert versions[0] == 0 and set(versions) <= {0, row.version}  # the first, and the final state's own
    assert await service.store.snapshot_versions(other) == kept
    assert len(await service.store.answers(game_id)) == row.version  # the whole log stays
    assert game_id not in service._parsed


# ----- the image pool -----


WARMED: list[str] = []


def _warm() -> None:
    WARMED.append("warm")


def _seen_in_worker() -> tuple[int, list[str], int]:
    return os.getpid(), list(WARMED), os.getpriority(os.PRIO_PROCESS, 0)


def _slow(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


@pytest.mark.skipif(sys.platform != "linux", reason="process priorities as on the bot's host")
async def test_images_are_drawn_in_warmed_worker_processes_at_a_lower_priority() -> None:
    pool = ImagePool(1, initializer=_warm)
    try:
        pids = await asyncio.to_thread(pool.start)
        pid, warmed, priority = await pool.run(_seen_in_worker)
    finally:
        pool.close()
    assert pids == [pid] and pid != os.getpid()  # not the event loop's process
    assert warmed == ["warm"]  # warmed up before its first job
    assert priority == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    assert pool.done == 1


async def test_the_pool_queue_is_bounded() -> None:
    pool = ImagePool(1, queue=2)
    try:
        first = asyncio.ensure_future(pool.run(_slow, 0.5))
        await asyncio.sleep(0.05)
        waiting = [asyncio.ensure_future(pool.run(_slow, 0.0)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(PoolBusy):
            await pool.run(_slow, 0.0)
        assert await first == 0.5 and await asyncio.gather(*waiting) == [0.0, 0.0]
    finally:
        pool.close()


OWNER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from app.background import ImagePool
pool = ImagePool(2)
print(" ".join(map(str, pool.start())), flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="process descriptors (Linux) end the workers")
async def test_a_killed_bot_leaves_no_image_worker_behind() -> None:
    """kill -9 of the process that owns the pool: its workers (and so their fork server) end with it."""
    root = str(Path(__file__).resolve().parents[2])
    owner = await asyncio.create_subprocess_exec(sys.executable, "-c", OWNER, root, stdout=asyncio.subprocess.PIPE)
    assert owner.stdout is not None
    workers = [int(p) for p in (await asyncio.wait_for(owner.stdout.readline(), 60)).split()]
    servers = {int(Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[1]) for p in workers}
    processes = [*workers, *(s for s in servers if s != owner.pid)]  # the workers and their fork server
    assert workers and all(_alive(p) for p in processes)
    owner.kill()
    try:
        for _ in range(100):
            if not any(_alive(p) for p in processes):
                break
            await asyncio.sleep(0.05)
        assert not any(_alive(p) for p in processes)
    finally:
        for pid in processes:  # a failure must not leave them behind either (they hold the owner's stdout)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(owner.wait(), 10)


def test_make_run_without_a_token_prints_the_help_and_no_make_error() -> None:
    """Issue U, fault 12: a newcomer's first `make run` ended in make's own error line under the token help."""
    import os
    import subprocess

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DISCORD_TOKEN": ""}  # set and empty: a token in a local .env is not read
    done = subprocess.run(["make", "-s", "run"], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "make:" not in done.stdout + done.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="process priorities as on the bot's host")
async def test_the_ais_workers_think_at_the_niceness_the_configuration_names(tmp_path: Path) -> None:
    """AI_NICENESS (0 to 19; a wrong value is the default) sets how much lower than the bot the AI's processes run."""
    assert load_config(tmp_path, {}).ai_niceness == AI_NICENESS
    assert load_config(tmp_path, {"AI_NICENESS": "19"}).ai_niceness == 19
    assert load_config(tmp_path, {"AI_NICENESS": "40"}).ai_niceness == 19
    assert load_config(tmp_path, {"AI_NICENESS": "low"}).ai_niceness == AI_NICENESS
    store = await Store.open(tmp_path / "ai.sqlite3")
    ai = AiPlayers(GameService(store), niceness=15)
    try:
        _, _, priority = await ai.pool.run(_seen_in_worker)
    finally:
        ai.close()
        await store.close()
    assert priority == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 15)
