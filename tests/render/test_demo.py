"""``make demo`` (issue U, fault 12): it plays either ruleset in either language, its log reads as the game channel
does (each phase's header before that phase's events) and names houses in words."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import demo  # noqa: E402

pytestmark = pytest.mark.slow


def test_an_expansion_demo_in_russian_reads_as_the_channel(tmp_path: Path) -> None:
    assert demo.main(["--ruleset", "mother-of-dragons", "--players", "4", "--lang", "ru", "--out", str(tmp_path)]) == 0
    lines = (tmp_path / "game-log.md").read_text(encoding="utf-8").splitlines()
    assert "mother-of-dragons" in lines[0]
    body = [line for line in lines[1:] if line.strip()]
    assert body[0].startswith("**— Раунд 1")  # the first phase's header comes before its first event
    assert any("фаза действий" in line for line in body if line.startswith("**—"))
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    winner = summary["winner"]
    assert winner and winner not in lines[-1] and "Winner" in lines[-1]  # a name in words, never the id
    assert len(list((tmp_path / "maps").glob("*.png"))) >= 10
