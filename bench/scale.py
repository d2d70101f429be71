"""Scale-out benchmark: the same burst of answers (``bench/bot.py``'s: 6-player tables, every player pressing Submit
on the form of his decision DM at the same instant) against three set-ups, measured in one run:

    python bench/scale.py [--tables 50] [--runs 3] [--json]

- ``sqlite_1``: one process (``bot.py``), SQLite;
- ``postgres_1``: one process, PostgreSQL;
- ``postgres_gateway_2_workers``: ``bot.py --role gateway`` and two ``bot.py --role worker``, PostgreSQL;
- ``postgres_socket_gateway_2_workers`` (only with ``--only``, and a server on this machine): the same, every
  connection over the server's Unix socket instead of TCP, as a database on the bot's own host may be reached. The
  kernel's TCP work on both ends of each round trip is CPU of the bot's processes and the server's alike: the two
  set-ups measured in one run say what it costs.

Per set-up: ``answers_per_s`` (answers recorded over the burst, from the first click to the last receipt),
``cpu_ms_per_answer`` (the CPU of every process of the bot, their image workers and the PostgreSQL server's
processes, over the burst and the posts it implies, per answer), ``receipt_p99_ms``, ``lost`` and ``duplicated``
(summed over the runs); ``<process>_cpu_ms_per_answer`` each process's with its image workers, and
``<process>_main_cpu_ms_per_answer`` its own alone; the other figures are ``bench/bot.py``'s. With ``--runs N``
each figure is the median of N runs, the set-ups taking turns so that the machine's drift touches each alike.

The ratios of issue X's targets (``ratios``) are taken within each turn and their median given, as
``bench/beside.py`` does for the one process's: this machine's pace drifts within minutes (one SQLite process spent
6.2 ms of CPU per answer at 02:51 on 2026-12-01 and 12.4 at 04:15), so the medians of set-ups measured minutes apart
can pair a slow moment with a quick one. Within a turn ``sqlite_1`` and ``postgres_gateway_2_workers`` run one after
the other, which of them first turning at each turn; ``ratios_each`` lists every turn's.
PostgreSQL is ``WESTEROS_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``), each run in a schema
of its own, committing as the bot does in production (every commit waits for the disk). The fake Discord runs in
this process, on the same two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bot import median_of, run
from testing import postgres

SETUPS: dict[str, tuple[str, int]] = {  # name: (store, workers)
    "sqlite_1": ("sqlite", 0),
    "postgres_1": ("postgres", 0),
    "postgres_gateway_2_workers": ("postgres", 2),
    # The same over the server's Unix socket instead of TCP (a database on the bot's own host): not measured unless
    # asked for (``--only``), and only with a server on this machine.
    "postgres_socket_gateway_2_workers": ("postgres-socket", 2),
}
DEFAULT_SETUPS = ("sqlite_1", "postgres_1", "postgres_gateway_2_workers")
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
        if store == "postgres-socket":
            url = over_socket(url)
        return await run(tables, profile, spy=spy, database=url, workers=workers)


def socket_directory() -> str | None:
    """The directory of the test server's Unix socket, when the server runs on this machine (None: it does not, or
    listens on no socket)."""
    import psycopg

    host = psycopg.conninfo.conninfo_to_dict(postgres.server_url()).get("host")
    if host not in (None, "", "localhost", "127.0.0.1", "::1") and not str(host).startswith("/"):
        return None
    with psycopg.connect(postgres.server_url()) as connection:
        row = connection.execute("SHOW unix_socket_directories").fetchone()
    directories = [d.strip() for d in str(row[0] if row else "").split(",") if d.strip().startswith("/")]
    return directories[0] if directories and Path(directories[0]).is_dir() else None


def over_socket(url: str) -> str:
    """``url`` (its user, database, port and options) reached over the server's Unix socket instead of TCP."""
    directory = socket_directory()
    if directory is None:
        raise RuntimeError("the test server is not on this machine or has no Unix socket")
    parts = urlsplit(url)
    netloc = f"{parts.username}@" if parts.username else ""
    query = urlencode({"host": directory, "port": str(parts.port or 5432), **dict(parse_qsl(parts.query))})
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def per_process(shown: dict[str, Any]) -> None:
    """Each process's CPU per answer (``bot``: the one process, or the gateway; ``worker0``...) and the database's,
    as figures of their own, so that runs take their medians."""
    answers = max(1, int(shown["answers"]))
    for name, seconds in shown["cpu_s_by_process"].items():
        shown[f"{name}_cpu_ms_per_answer"] = round(seconds * 1000 / answers, 2)
    for name, seconds in shown.get("main_cpu_s_by_process", {}).items():  # without the image workers
        shown[f"{name}_main_cpu_ms_per_answer"] = round(seconds * 1000 / answers, 2)
    shown["db_cpu_ms_per_answer"] = round(shown["db_cpu_s"] * 1000 / answers, 2)


# The set-ups issue X's ratios compare, in the order a turn runs them when it starts with the one process.
RATIO_SETUPS = ("sqlite_1", "postgres_gateway_2_workers", "postgres_socket_gateway_2_workers")


def turn_order(names: list[str], turn: int) -> list[str]:
    """The order the set-ups run in at ``turn``: those the ratios compare first and side by side (the one process
    first at even turns, last at odd ones), then the others."""
    paired = [name for name in RATIO_SETUPS if name in names]
    rest = [name for name in names if name not in paired]
    return (paired if turn % 2 == 0 else paired[::-1]) + rest


def turn_ratios(base: dict[str, Any], scaled: dict[str, Any], socket: dict[str, Any]) -> dict[str, float]:
    """Issue X's ratios within one turn: the whole scale-out set-up's CPU per answer to one SQLite process's (target
    at most 1.5), its gateway's (at most 0.4), and the same set-up over the server's socket when measured. Answers per
    second is no target: two cores shared with the harness say nothing of capacity."""
    one = base["cpu_ms_per_answer"]
    out = {
        "cpu_ms_per_answer": round(scaled["cpu_ms_per_answer"] / one, 2),
        "gateway_cpu_ms_per_answer": round(scaled["bot_cpu_ms_per_answer"] / one, 2),
    }
    if socket:
        out["socket_cpu_ms_per_answer"] = round(socket["cpu_ms_per_answer"] / one, 2)
    return out


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
    if args.only and "postgres_socket_gateway_2_workers" in args.only and socket_directory() is None:
        print("postgres_socket_gateway_2_workers: the test server is not on this machine, or has no socket",
              file=sys.stderr)  # fmt: skip
        return 2
    chosen = {name: SETUPS[name] for name in (args.only or DEFAULT_SETUPS)}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    for turn in range(args.runs):
        for name in turn_order(list(chosen), turn):
            store, workers = chosen[name]
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
    figures: dict[str, Any] = {name: median_of(runs) for name, runs in results.items()}
    if "sqlite_1" in figures and "postgres_gateway_2_workers" in figures:
        over_socket = results.get("postgres_socket_gateway_2_workers", [{}] * args.runs)  # {}: not measured
        turns = zip(results["sqlite_1"], results["postgres_gateway_2_workers"], over_socket, strict=True)
        each = [turn_ratios(base, scaled, socket) for base, scaled, socket in turns]
        figures["ratios"] = {key: round(statistics.median(r[key] for r in each), 2) for key in each[0]}
        figures["ratios_each"] = each
    if args.json:
        print(json.dumps(figures))
        return 0
    for name, shown in figures.items():
        if name == "ratios_each":
            continue
        if name == "ratios":
            print(f"{'gateway+2 workers / sqlite_1':>28}: {shown}")
            continue
        print(f"{name:>28}: " + ", ".join(f"{key} {shown[key]}" for key in SHOWN if key in shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
