"""Every rule error the engine can raise reaches the player as a sentence in their language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.messages import error_text
from engine import RuleError
from i18n import catalog

ENGINE = Path(__file__).resolve().parents[2] / "engine"
INTERNAL = {"scenario", "nothing-to-answer", "bad-player-count", "unknown-house", "bad-houses"}


def raised_codes() -> set[str]:
    codes: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        codes |= set(re.findall(r'RuleError\(\s*"([a-z0-9-]+)"', path.read_text(encoding="utf-8")))
    return codes


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_engine_error_code_has_a_message(lang: str) -> None:
    codes = raised_codes() - INTERNAL
    assert len(codes) > 30
    missing = sorted(
        c for c in codes if catalog(lang).get(f"error.{c}") is None and catalog(lang).get(f"error.{c}.plain") is None
    )
    assert missing == []


def test_parameters_are_named_in_the_readers_language() -> None:
    err = RuleError("not-adjacent", "A knight cannot march from Winterfell to Riverrun.", to="riverrun", unit="knight")
    assert error_text(err, "en") == "A knight cannot reach Riverrun from there."
    assert error_text(err, "ru") == "Оттуда рыцарь не может дойти до Риверрана."


def test_a_message_missing_a_parameter_falls_back_to_its_plain_version() -> None:
    err = RuleError("not-adjacent", "…")  # raised without parameters
    assert error_text(err, "ru") == "Туда нельзя дойти из этой области."


def test_list_parameters_are_joined_labels() -> None:
    err = RuleError("order-area-empty", "…", areas=["winterfell", "the-twins"])
    assert error_text(err, "en") == "You have no units in Winterfell, The Twins."
