"""bench/beside.py: the floor and the bot run in turns, and each pair's ratios are the bot's figures over the floor's
measured beside them (a real run of both benchmarks, one table's worth of clicks)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "beside.py"


def test_each_pair_sets_the_bot_beside_the_floor_measured_with_it() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--pairs", "1", "--tables", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    figures = json.loads(done.stdout)
    assert figures["pairs"] == 1
    (pair,) = figures["each"]
    assert pair["cpu_ratio"] == round(pair["main_cpu_ms_per_answer"] / pair["floor_cpu_ms_per_click"], 2)
    assert pair["ack_p99_ratio"] == round(pair["ack_p99_ms"] / pair["floor_ack_p99_ms"], 2)
    assert pair["floor_cpu_ms_per_click"] > 0 and pair["main_cpu_ms_per_answer"] > 0
    assert figures["cpu_ratio"] == pair["cpu_ratio"]  # the median of one pair
    assert figures["spread"]["cpu_ratio"] == [pair["cpu_ratio"], pair["cpu_ratio"]]
    # Every answer of the table was recorded once and every click acknowledged.
    assert (figures["lost"], figures["duplicated"], figures["failed_interactions"]) == (0, 0, 0)
    assert figures["met"]["receipt_p99_ms"] == (figures["receipt_p99_ms"] <= figures["targets"]["receipt_p99_ms"])
