"""The strip names every step the engine can be in, in the reader's language, and never shows a step's id."""

from __future__ import annotations

import re

import pytest

import engine.game  # noqa: F401  (registers the steps)
from engine.flow import STEPS
from engine.steps.action import STAGES
from render.strip import phase_line

PHASES = ("westeros", "planning", "action")


@pytest.mark.parametrize("step", sorted({*STEPS, *STAGES} - {"game", "action"}))
def test_every_step_reads_in_russian_without_its_id(step: str) -> None:
    for phase in PHASES:
        line = phase_line({"round": 3, "phase": phase, "step": step}, "ru")
        assert not re.search(r"[A-Za-z]", line), line
        english = phase_line({"round": 3, "phase": phase, "step": step}, "en")
        assert "-" not in english, english  # an id like "card-ability" never shows
