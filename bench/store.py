"""Store benchmark: what committing one answer costs the bot's process, on a real SQLite file.

    python bench/store.py [--games 50] [--answers 3000] [--runs 3] [--json]

``--games`` 6-player games are started, then ``--answers`` answers are committed with ``Store.commit_answer``,
all at once as in a burst (each game's answers one after another, as its lock makes them). Each answer stores
a real 6-player state and one log entry, as the bot's answers do. ``cpu_ms_per_commit``: the process's CPU time
(both threads: the event loop and aiosqlite's) over the commits, divided by their number; ``wall_ms_per_commit``:
the elapsed time divided likewise; ``commits``: the log entries found afterwards (every answer's). With
``--runs N`` the figures are the medians of N fresh databases.
Figures, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.store import Store
from bench.bot import median_of
from engine.game import new_game

PLAYERS = 6


async def run(games: int, answers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            state = new_game(PLAYERS, seed=1).to_json()
            ids = []
            for i in range(games):
                game_id = await store.create_game(
                    guild_id=1, channel_id=100 + i, name=f"bench {i}", created_by=1, settings={}
                )
                await store.start_game(game_id, state, 0, {})
                ids.append(game_id)

            async def answer_in_turn(game_id: int, count: int) -> None:
                for version in range(count):
                    await store.commit_answer(
                        game_id, expected_version=version, new_version=version + 1, new_state=state, house="stark",
                        user_id=1, prompt_id="orders", answer={"orders": {}}, source="player",
                        events=[{"type": "orders-submitted", "house": "stark"}],
                    )  # fmt: skip

            each, extra = divmod(answers, games)
            cpu, wall = time.process_time(), time.perf_counter()
            await asyncio.gather(*(answer_in_turn(g, each + (i < extra)) for i, g in enumerate(ids)))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            commits = sum([len(await store.answers(g)) for g in ids])
        finally:
            await store.close()
    return {
        "commits": commits,
        "cpu_ms_per_commit": round(cpu * 1000 / commits, 3),
        "wall_ms_per_commit": round(wall * 1000 / commits, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--answers", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 1000 or not 1 <= args.answers <= 100_000 or not 1 <= args.runs <= 20:
        parser.error("--games 1..1000, --answers 1..100000, --runs 1..20")
    runs = [asyncio.run(run(args.games, args.answers)) for _ in range(args.runs)]
    figures = {"games": args.games, "answers": args.answers, **median_of(runs, digits=3)}
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            if key not in ("runs", "spread"):
                print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
