"""bench/ai.py (issue 42) runs: its quick setting on short games prints every figure, refuses no answer and stops
no game on an error (the win rate is the bench's figure, not a test's)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ai.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ai", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up there
    spec.loader.exec_module(bench)
    return bench


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = load_bench().main([*args, "--json"])
    figures: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0, figures
    return figures


def test_the_quick_setting_plays_short_games_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    figures = run(capsys, "--games", "2", "--rounds", "1", "--budget-ms", "20")
    assert figures["games"] == 2 and figures["errors"] == [] and figures["refused"] == 0
    seats = figures["seats"]
    assert isinstance(seats, list) and len(set(seats)) == 2  # the seat rotates over the houses
    assert figures["searched_decisions"] > 0
    low, high = figures["win_rate_95"]
    assert 0.0 <= low <= figures["win_rate"] <= high <= 1.0
    ms = figures["decision_ms"]
    assert isinstance(ms, dict) and 0 <= ms["p50"] <= ms["p99"] <= ms["max"]
    assert set(figures["victory_points"]) == {"searching", "heuristic"}


def test_self_play_in_the_base_game_stays_sound(capsys: pytest.CaptureFixture[str]) -> None:
    figures = run(capsys, "--games", "1", "--rounds", "1", "--budget-ms", "10", "--self-play")
    assert figures["errors"] == [] and figures["refused"] == 0 and figures["self_play"] is True
    assert "win_rate" not in figures  # every seat searches: no seat to compare


def test_self_play_in_mother_of_dragons_with_eight_players(capsys: pytest.CaptureFixture[str]) -> None:
    figures = run(
        capsys,
        *("--games", "1", "--rounds", "1", "--budget-ms", "10", "--players", "8"),
        *("--ruleset", "mother-of-dragons", "--self-play"),
    )
    assert figures["errors"] == [] and figures["refused"] == 0 and figures["decisions"] > 0


def test_the_wilson_interval() -> None:
    bench = load_bench()
    assert bench.wilson(0, 0) == (0.0, 1.0)
    low, high = bench.wilson(5, 10)
    assert round(low, 3) == 0.237 and round(high, 3) == 0.763
    low, high = bench.wilson(0, 12)
    assert low == 0.0 and round(high, 3) == 0.242
