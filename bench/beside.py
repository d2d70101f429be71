"""The one process's three targets, each measured beside the floor: bench/ack_floor.py and bench/bot.py in turns.

    python bench/beside.py [--pairs 5] [--tables 50] [--json]

Issue X sets the one-process bot's targets against discord.py's own floor measured in the same run: the main
process's CPU per answer at most ``TARGETS["cpu_ratio"]`` times the floor's CPU per click, the acknowledgement p99 at
most ``TARGETS["ack_p99_ratio"]`` times the floor's, and the receipt p99 at most ``TARGETS["receipt_p99_ms"]``. On a
shared machine a floor measured minutes before the bot can differ from the bot's moment by a fifth (0.49 to 0.80 ms
per click within one hour, on 2026-11-30), which moves the ratio more than most changes do. So each pair runs the two
one after the other on fresh processes, the order turning at each pair (floor first, then bot first), and the ratios
are taken within each pair; the figures are their medians, with each one's spread (lowest, highest) and every pair.
Losses, duplicates and failed interactions are summed. Figures, never assertions: ``met`` says which target the
medians meet.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
TARGETS = {"cpu_ratio": 7.5, "ack_p99_ratio": 1.2, "receipt_p99_ms": 1000.0}
SUMMED = ("lost", "duplicated", "failed_interactions")


def pair_figures(floor: dict[str, Any], bot: dict[str, Any]) -> dict[str, Any]:
    """One pair's figures: the bot's against the floor measured beside it."""
    return {
        "floor_cpu_ms_per_click": floor["cpu_ms_per_click"],
        "main_cpu_ms_per_answer": bot["main_cpu_ms_per_answer"],
        "cpu_ratio": round(bot["main_cpu_ms_per_answer"] / floor["cpu_ms_per_click"], 2),
        "floor_ack_p99_ms": floor["ack_p99_ms"],
        "ack_p99_ms": bot["ack_p99_ms"],
        "ack_p99_ratio": round(bot["ack_p99_ms"] / floor["ack_p99_ms"], 2),
        "receipt_p99_ms": bot["receipt_p99_ms"],
        "lost": bot["lost"],
        "duplicated": bot["duplicated"],
        "failed_interactions": bot["failed_interactions"] + floor["failed_interactions"],
    }


def summary(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """The medians of the pairs' figures (losses summed), their spreads, which targets the medians meet, and the
    pairs themselves."""
    out: dict[str, Any] = {"pairs": len(pairs)}
    spread: dict[str, list[float]] = {}
    for key in pairs[0]:
        values = [pair[key] for pair in pairs]
        if key in SUMMED:
            out[key] = sum(values)
        else:
            out[key] = round(statistics.median(values), 3)
            spread[key] = [min(values), max(values)]
    out["targets"] = TARGETS
    out["met"] = {key: out[key] <= limit for key, limit in TARGETS.items()}
    out["spread"] = spread
    out["each"] = pairs
    return out


def run_json(script: str, *arguments: str) -> dict[str, Any]:
    """One run of a benchmark of this folder on fresh processes, its JSON figures."""
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--runs", "1", "--json", *arguments],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5, help="floor-and-bot pairs, on fresh processes each")
    parser.add_argument(
        "--tables", type=int, default=50, help="bench/bot.py's 6-player tables (the floor: 6 clicks each)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.pairs <= 20 or not 1 <= args.tables <= 300:
        parser.error("--pairs must be 1-20 and --tables 1-300")
    pairs = []
    for number in range(args.pairs):
        floor_first = number % 2 == 0
        if floor_first:
            floor = run_json("ack_floor.py", "--clicks", str(6 * args.tables))
        bot = run_json("bot.py", "--tables", str(args.tables))
        if not floor_first:
            floor = run_json("ack_floor.py", "--clicks", str(6 * args.tables))
        pairs.append(pair_figures(floor, bot))
        if not args.json:
            each = pairs[-1]
            print(
                f"pair {number + 1}: cpu {each['cpu_ratio']}x, ack p99 {each['ack_p99_ratio']}x, "
                f"receipt p99 {each['receipt_p99_ms']} ms",
                flush=True,
            )
    figures = summary(pairs)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            if key not in ("each", "spread", "targets"):
                print(f"{key:>24}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
