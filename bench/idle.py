"""Idle benchmark: what a deployment costs while nothing happens, one started game and no player acting.

    python bench/idle.py [--seconds 20] [--runs 1] [--only sqlite_1 ...] [--json]

A host pays this every second of every day, whatever the players do. Per set-up (``bench/scale.py``'s: one process on
SQLite, one on PostgreSQL, a gateway and 2 workers on PostgreSQL), once the game's start is published and the
processes have been quiet for ``--settle`` seconds: ``cpu_ms_per_s``, the CPU of every process of the bot (their
image workers included) per second of the window; ``<process>_cpu_ms_per_s`` each process's (``bot``: the one
process, or the gateway); ``db_cpu_ms_per_s``,
the CPU of every PostgreSQL server process on this machine; ``db_transactions_per_s``, the transactions the test
database committed or rolled back (``pg_stat_database``, the whole database's: measure nothing else beside it);
``requests``, what the bot asked of Discord meanwhile. With ``--runs N``, the medians of N runs, the set-ups taking
turns. PostgreSQL is ``WESTEROS_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``), each run in
a schema of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bot import PLAYERS, all_cpu_seconds, postgres_cpu_seconds
from testing import postgres
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord

SETUPS: dict[str, tuple[str, int]] = {  # name: (store, workers), as bench/scale.py's
    "sqlite_1": ("sqlite", 0),
    "postgres_1": ("postgres", 0),
    "postgres_gateway_2_workers": ("postgres", 2),
}


def transactions(url: str) -> int:
    """Transactions committed or rolled back in the database so far (``pg_stat_database``)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("SELECT pg_stat_clear_snapshot()")
        row = connection.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


async def run(seconds: float, settle: float, database: Path | str, workers: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp())
    on_postgres = isinstance(database, str)
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Idle", locale="en-US")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        channel = fake.add_text_channel(guild, "game-0")
        players = [fake.add_member(guild, f"p{i}") for i in range(PLAYERS)]
        bot = BotProcess(fake, database, role="gateway" if workers else "all", log_path=folder / "bot.log")
        helpers = [
            BotProcess(fake, database, role="worker", log_path=folder / f"worker{i}.log") for i in range(workers)
        ]
        processes = [bot, *helpers]
        await bot.sync_commands()
        await bot.start()
        for helper in helpers:
            await helper.start()
        try:
            lobby = await (await fake.slash(moderator, channel, "game new", players=PLAYERS)).wait_response()
            game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
            for player in players:
                await (await fake.click(player, lobby, f"lobby:{game_id}:join")).wait_response()
            await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response()
            await fake.wait_idle(quiet=settle, timeout=120)
            pids = {p.proc.pid: name for p, name in zip(processes, names(workers), strict=True) if p.proc is not None}
            requests_before = len(fake.requests.records)
            cpu_before = {pid: all_cpu_seconds([pid]) for pid in pids}
            db_before = postgres_cpu_seconds() if on_postgres else 0.0
            xacts_before = transactions(str(database)) if on_postgres else 0
            await asyncio.sleep(seconds)
            cpu_after = {pid: all_cpu_seconds([pid]) for pid in pids}
            db_cpu = (postgres_cpu_seconds() - db_before) if on_postgres else 0.0
            xacts = (transactions(str(database)) - xacts_before) if on_postgres else 0
            requests = len(fake.requests.records) - requests_before
        finally:
            for process in processes:
                await process.stop()
    by_process = {
        name: sum(cpu_after[pid].values()) - sum(cpu_before[pid].get(child, 0.0) for child in cpu_after[pid])
        for pid, name in pids.items()
    }
    result: dict[str, Any] = {
        "seconds": seconds,
        "cpu_ms_per_s": round(sum(by_process.values()) * 1000 / seconds, 1),
        "db_cpu_ms_per_s": round(db_cpu * 1000 / seconds, 1),
        "db_transactions_per_s": round(xacts / seconds, 2),
        "requests": requests,
    }
    result.update({f"{name}_cpu_ms_per_s": round(cpu * 1000 / seconds, 1) for name, cpu in by_process.items()})
    return result


def names(workers: int) -> list[str]:
    return ["bot", *(f"worker{i}" for i in range(workers))]


def one(name: str, seconds: float, settle: float) -> dict[str, Any]:
    store, workers = SETUPS[name]
    if store == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            return asyncio.run(run(seconds, settle, Path(folder) / "idle.sqlite3", workers))
    with postgres.fresh_schema("idle", durable=True) as url:
        return asyncio.run(run(seconds, settle, url, workers))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="the idle window measured")
    parser.add_argument("--settle", type=float, default=5.0, help="quiet seconds before the window opens")
    parser.add_argument("--runs", type=int, default=1, help="runs of each set-up (figures are their medians)")
    parser.add_argument("--only", choices=sorted(SETUPS), action="append", help="measure only these set-ups")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    chosen = args.only or list(SETUPS)
    if any(SETUPS[name][0] == "postgres" for name in chosen) and (reason := postgres.unreachable()) is not None:
        print(reason, file=sys.stderr)
        return 2
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    for _ in range(args.runs):
        for name in chosen:
            runs[name].append(one(name, args.seconds, args.settle))
    medians = {
        name: {key: statistics.median(run[key] for run in results) for key in results[0]}
        for name, results in runs.items()
    }
    if args.json:
        print(json.dumps(medians))
    else:
        for name, figures in medians.items():
            shown = ", ".join(f"{key} {value}" for key, value in figures.items())
            print(f"{name}: {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
