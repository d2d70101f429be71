"""What a newcomer reads is true (issue V, item 7): ``make run`` without a token, the vassal player counts in
``/game help`` and docs/bot.md, ``make demo`` with a player count its ruleset refuses, and the demo's language
variable, which must not be the shell's own ``LANG``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rulesets import named
from i18n import t

ROOT = Path(__file__).resolve().parents[2]
STAMP = ".venv/.installed"  # `make -o` it: these tests never set the venv up again


def _make(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-s", "-o", STAMP, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def _env_without(*names: str, **extra: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in names and not k.startswith("MAKE")} | extra


def test_the_demo_refuses_a_player_count_its_ruleset_does_not_play_in_one_line() -> None:
    for ruleset, players in (("base", "8"), ("mother-of-dragons", "9"), ("base", "2")):
        done = subprocess.run(
            [sys.executable, "tools/demo.py", "--ruleset", ruleset, "--players", players, "--out", "/nonexistent"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0
        assert done.stdout == ""
        assert len(done.stderr.splitlines()) == 1, done.stderr  # no traceback
        assert f"not {players}" in done.stderr and "Traceback" not in done.stderr


def test_make_demo_reads_its_language_from_game_lang_not_from_the_shells_locale() -> None:
    # LANG=ru_RU.UTF-8 is the shell's locale: it neither picks Russian nor breaks the default.
    shell_locale = _env_without("GAME_LANG", LANG="ru_RU.UTF-8")
    assert "--lang en" in _make("-n", "demo", env=shell_locale).stdout
    assert "--lang ru" in _make("-n", "demo", "GAME_LANG=ru", env=shell_locale).stdout
    assert "--lang ru" in _make("-n", "demo", env=shell_locale | {"GAME_LANG": "ru"}).stdout
    for doc in ("README.md", "docs/bot.md", "Makefile", "tools/demo.py"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert not re.search(r"(?<![A-Z_])LANG=(ru|en)(?!_)", text), f"{doc} still tells to set LANG"


def test_make_run_without_a_token_prints_the_help_and_exits_0_as_the_readme_says() -> None:
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside bot.py may hold a token: make run would start the bot")
    done = _make("run", env=_env_without("DISCORD_TOKEN"))
    assert done.returncode == 0
    assert "DISCORD_TOKEN" in done.stderr and "make run" in done.stderr
    readme_line = next(line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("make run"))
    assert "exits 0" in readme_line and "exits 2" not in readme_line


def test_game_help_and_docs_name_the_player_counts_that_have_vassals() -> None:
    """M-PLAYERS-04: a vassal is a house of Westeros nobody plays; eight players hold every house."""
    expansion = named("mother-of-dragons")
    with_vassals = [n for n in expansion.player_counts() if len(expansion.choosable_houses(n)) > n]
    low, high = with_vassals[0], with_vassals[-1]
    assert (low, high) == (3, 7)
    assert f"(Mother of Dragons with {low} to {high} players)" in t("help.absent", "en")
    assert f"(«Мать драконов» на {low}–{high} игроков)" in t("help.absent", "ru")
    assert f"### Vassals (Mother of Dragons, {low} to {high} players)" in (ROOT / "docs/bot.md").read_text()
