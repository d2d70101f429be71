"""Time ``/stats`` (issue W) on a server with many finished games: ``--games`` 3-player games of a pool of ``--members``
members, each started through the game service on a real SQLite file (or ``--store postgres``: a fresh schema of the
test database, dropped afterwards), replaced
by a round-10 position and finished by its last answer, then its log padded with ``--rows`` entries more (a whole
game's log holds a few thousand), so that reading a member's logs costs what it would.

    python bench/stats.py [--games 60] [--rows 2500] [--store sqlite|postgres] [--json]

``leaderboard_cold_ms``: the first leaderboard of a process (every ended game's final state parsed and its outcome
worked out), ``leaderboard_ms``: the next ones (outcomes kept in memory); ``member_cold_ms``: the first record of the
member with the most games (every log of his games read and worked out), ``member_ms``: the next ones (an ended
game's answer times kept in memory). Elapsed times, with the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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

from app.commands import Answer, Import, Join, Start  # noqa: E402
from app.service import GameService, GameSettings  # noqa: E402
from app.store import Store  # noqa: E402
from app.store_stats import StatsStore  # noqa: E402
from testing import postgres  # noqa: E402
from testing.finished_games import WINS, near_the_end  # noqa: E402

GUILD = 1
MOD = 1


async def build(service: GameService, games: int, members: int, rows: int, rng: random.Random) -> list[int]:
    pool = [1000 + i for i in range(members)]
    for number in range(games):
        users = rng.sample(pool, 3)
        game_id = await service.create(
            guild_id=GUILD, channel_id=number + 1, creator=MOD, name=f"g{number}",
            settings=GameSettings(players=3, seed=number),
        )  # fmt: skip
        for user in users:
            await service.execute(Join(game_id=game_id, by=user))
        await service.execute(Start(game_id=game_id))
        winner = rng.choice(sorted(WINS))
        await service.execute(Import(game_id=game_id, by=MOD, key=f"i{game_id}", spec=near_the_end(winner)))
        seats = await service.store.seats(game_id)
        march = (await service.load(game_id)).prompt_for("stark")
        assert march is not None
        await service.execute(Answer(game_id=game_id, house="stark", answer=march.default, by=seats["stark"]))
        houses = sorted(seats)
        padding = [
            (game_id, 100_000 + i, houses[i % 3], seats[houses[i % 3]], f"{i // 3}:orders:{houses[i % 3]}",
             '{"orders": {}}', "player", time.time() + i, "[]")
            for i in range(rows)
        ]  # fmt: skip
        async with service.store.transaction() as db:
            await db.executemany(
                "INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                padding,
            )
    return pool


async def timed(work: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await work
    return (time.perf_counter() - start) * 1000, result


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        target: Path | str = Path(folder) / "stats.sqlite3"
        if args.store == "postgres":
            target = stack.enter_context(postgres.fresh_schema("bench"))
        store = await Store.open(target)
        service = GameService(store)
        rng = random.Random(args.seed)
        built = time.perf_counter()
        pool = await build(service, args.games, args.members, args.rows, rng)
        build_s = time.perf_counter() - built
        stats = StatsStore(store.db)
        cold, board = await timed(stats.leaderboard(GUILD))
        warm = [(await timed(stats.leaderboard(GUILD)))[0] for _ in range(5)]
        busiest = max(pool, key=lambda m: sum(r.games for u, r in board.ratings.items() if u == m))
        member_cold, _ = await timed(stats.member(GUILD, busiest))
        member = [(await timed(stats.member(GUILD, busiest)))[0] for _ in range(5)]
        record, _ = await stats.member(GUILD, busiest)
        await store.close()
    return {
        "store": args.store,
        "games": args.games,
        "rows_per_game": args.rows,
        "members": args.members,
        "ranked": len(board.ranked),
        "busiest_member_games": record.played,
        "build_s": round(build_s, 1),
        "leaderboard_cold_ms": round(cold, 1),
        "leaderboard_ms": round(statistics.median(warm), 1),
        "member_cold_ms": round(member_cold, 1),
        "member_ms": round(statistics.median(member), 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--members", type=int, default=12)
    parser.add_argument("--rows", type=int, default=2500, help="log entries added to each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
