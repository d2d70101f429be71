"""Scale-out benchmark: the same burst of answers (``bench/bot.py``'s: 6-player tables, every player pressing Submit
on the form of his decision DM at the same instant) against three set-ups, measured in one run:

    python bench/scale.py [--tables 50] [--runs 3] [--json]

- ``sqlite_1``: one process (``bot.py``), SQLite;
- ``postgres_1``: one process, PostgreSQL;
- ``postgres_gateway_2_workers``: ``bot.py --role gateway`` and two ``bot.py --role worker``, PostgreSQL.

Per set-up: ``answers_per_s`` (answers recorded over the burst, from the first click to the last receipt),
``cpu_ms_per_answer`` (the CPU of every process of the bot, their image workers and the PostgreSQL server's
processes, over the burst and the posts it implies, per answer), ``receipt_p99_ms``, ``lost`` and ``duplicated``
(summed over the runs); ``<process>_cpu_ms_per_answer`` each process's with its image workers, and
``<process>_main_cpu_ms_per_answer`` its own alone; the other figures are ``bench/bot.py``'s. With ``--runs N``
each figure is the median of N runs, the set-ups taking turns so that the machine's drift touches each alike.
PostgreSQL is ``WESTEROS_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``), each run in a schema
of its own, committing as the bot does in production (every commit waits for the disk). The fake Discord runs in
this process, on the same two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bot import median_of, run
from testing import postgres

SETUPS: dict[str, tuple[str, int]] = {  # name: (store, workers)
    "sqlite_1": ("sqlite", 0),
    "postgres_1": ("postgres", 0),
    "postgres_gateway_2_workers": ("postgres", 2),
}
SHOWN = (
    "cpu_ms_per_answer",
    "bot_cpu_ms_per_answer",
    "worker0_cpu_ms_per_answer",
    "worker0_main_cpu_ms_per_answer",
    "worker1_cpu_ms_per_answer",
    "db_cpu_ms_per_answer",
    "receipt_p99_ms",
    "lost",
    "duplicated",
    "ack_p99_ms",
    "answers_per_s",
)


async def one(
    tables: int, store: str, workers: int, profile: Path | None = None, spy: Path | None = None
) -> dict[str, Any]:
    if store == "sqlite":
        return await run(tables, profile, spy=spy)
    with postgres.fresh_schema("bench", durable=True) as url:
        return await run(tables, profile, spy=spy, database=url, workers=workers)


def per_process(shown: dict[str, Any]) -> None:
    """Each process's CPU per answer (``bot``: the one process, or the gateway; ``worker0``...) and the database's,
    as figures of their own, so that runs take their medians."""
    answers = max(1, int(shown["answers"]))
    for name, seconds in shown["cpu_s_by_process"].items():
        shown[f"{name}_cpu_ms_per_answer"] = round(seconds * 1000 / answers, 2)
    for name, seconds in shown.get("main_cpu_s_by_process", {}).items():  # without the image workers
        shown[f"{name}_main_cpu_ms_per_answer"] = round(seconds * 1000 / answers, 2)
    shown["db_cpu_ms_per_answer"] = round(shown["db_cpu_s"] * 1000 / answers, 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50, help="6-player tables answering at once")
    parser.add_argument("--runs", type=int, default=3, help="runs of each set-up (figures are their medians)")
    parser.add_argument("--only", choices=sorted(SETUPS), action="append", help="measure only these set-ups")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--profile", type=Path, help="write cProfiles of every process to this folder (<set-up>.bot, .worker0, ...)"
    )
    parser.add_argument(
        "--spy", type=Path, help="py-spy samples of every process to this folder (<set-up>.bot, .worker0, ...)"
    )
    args = parser.parse_args(argv)
    reason = postgres.unreachable()
    if reason is not None:
        print(reason, file=sys.stderr)
        return 2
    chosen = {name: SETUPS[name] for name in (args.only or SETUPS)}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    for _ in range(args.runs):
        for name, (store, workers) in chosen.items():
            profile = spy = None
            if args.profile is not None:
                args.profile.mkdir(parents=True, exist_ok=True)
                profile = args.profile / f"{name}.bot"
            if args.spy is not None:
                args.spy.mkdir(parents=True, exist_ok=True)
                spy = args.spy / f"{name}.bot"
            results[name].append(
                asyncio.run(asyncio.wait_for(one(args.tables, store, workers, profile, spy), timeout=900))
            )
    for runs in results.values():
        for shown in runs:
            per_process(shown)
    figures = {name: median_of(runs) for name, runs in results.items()}
    if "sqlite_1" in figures and "postgres_gateway_2_workers" in figures:
        base, scaled = figures["sqlite_1"], figures["postgres_gateway_2_workers"]
        # Issue X's targets: the whole scale-out set-up within 1.5x one process's CPU per answer, its gateway 0.4x.
        # (Answers per second is no target: two cores shared with the harness say nothing of capacity.)
        figures["ratios"] = {
            "cpu_ms_per_answer": round(scaled["cpu_ms_per_answer"] / base["cpu_ms_per_answer"], 2),
            "gateway_cpu_ms_per_answer": round(scaled["bot_cpu_ms_per_answer"] / base["cpu_ms_per_answer"], 2),
        }
    if args.json:
        print(json.dumps(figures))
        return 0
    for name, shown in figures.items():
        if name == "ratios":
            print(f"{'gateway+2 workers / sqlite_1':>28}: {shown}")
            continue
        print(f"{name:>28}: " + ", ".join(f"{key} {shown[key]}" for key in SHOWN if key in shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
