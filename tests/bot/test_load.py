"""Load on the local fake Discord: several 6-player games, every player answering at the same moment,
against the real bot.py process. Nothing is lost, nothing is recorded twice, no interaction fails."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bot.py"


async def test_eight_games_answering_at_once() -> None:
    spec = importlib.util.spec_from_file_location("bench_bot", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = await bench.run(8)
    assert figures["answers"] == 48
    assert figures["lost"] == 0 and figures["duplicated"] == 0 and figures["failed_interactions"] == 0
    assert figures["ack_max_ms"] < 3000  # every interaction acknowledged within Discord's 3 s
    # The other path: every player opens the form with /decide first, then submits it.
    opened = await bench.run(2, flow="decide")
    assert opened["flow"] == "decide" and opened["answers"] == 12 and opened["ack_p99_open_ms"] is not None
    assert opened["lost"] == 0 and opened["duplicated"] == 0 and opened["failed_interactions"] == 0


def test_repeated_runs_report_the_worst_of_each_figure() -> None:
    spec = importlib.util.spec_from_file_location("bench_bot", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    runs = [
        {"ack_p99_ms": 40.0, "answers_per_s": 150.0, "lost": 0, "duplicated": 1, "rss_mb": 120.0, "games": 50},
        {"ack_p99_ms": 70.0, "answers_per_s": 130.0, "lost": 2, "duplicated": 0, "rss_mb": 110.0, "games": 50},
    ]
    worst = bench.worst_of(runs)
    assert worst["ack_p99_ms"] == 70.0 and worst["answers_per_s"] == 130.0 and worst["rss_mb"] == 120.0
    assert worst["lost"] == 2 and worst["duplicated"] == 1 and worst["games"] == 50
    assert worst["runs"] == runs


async def test_the_acknowledgement_floor_runs_against_the_fake() -> None:
    """bench/ack_floor.py: discord.py alone acknowledges every click of a burst (the figures are the benchmark's)."""
    spec = importlib.util.spec_from_file_location("bench_ack_floor", BENCH.with_name("ack_floor.py"))
    assert spec is not None and spec.loader is not None
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    # 100 clicks cost about 40 ms of CPU: enough for /proc's 10 ms clock ticks to count some (20 could count none).
    figures = await floor.run(100)
    assert figures["clicks"] == 100 and figures["failed_interactions"] == 0
    assert 0 < figures["ack_p50_ms"] <= figures["ack_p99_ms"] <= figures["ack_max_ms"] < 3000
    assert figures["cpu_ms_per_click"] > 0


async def test_the_store_benchmark_commits_every_answer() -> None:
    """bench/store.py: the answers of a burst committed on a real SQLite file (the figures are the benchmark's)."""
    spec = importlib.util.spec_from_file_location("bench_store", BENCH.with_name("store.py"))
    assert spec is not None and spec.loader is not None
    store_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(store_bench)
    figures = await store_bench.run(3, 20)
    assert figures["commits"] == 20 and figures["cpu_ms_per_commit"] > 0 and figures["wall_ms_per_commit"] > 0
