"""The strip names every step the engine can be in, in the reader's language, and never shows a step's id."""

from __future__ import annotations

import re

import pytest

import engine.game  # noqa: F401  (registers the steps)
from engine import new_game
from engine.flow import STEPS
from engine.steps.action import STAGES
from render.data import board_of
from render.strip import items, phase_line

PHASES = ("westeros", "planning", "action")


@pytest.mark.parametrize("step", sorted({*STEPS, *STAGES} - {"game", "action"}))
def test_every_step_reads_in_russian_without_its_id(step: str) -> None:
    for phase in PHASES:
        line = phase_line({"round": 3, "phase": phase, "step": step}, "ru")
        assert not re.search(r"[A-Za-z]", line), line
        english = phase_line({"round": 3, "phase": phase, "step": step}, "en")
        assert "-" not in english, english  # an id like "card-ability" never shows


def test_no_row_label_of_the_strip_runs_into_its_first_value_in_either_language() -> None:
    """Issue U, fault 10: «Королевский двор» touched the value beside it in the Russian strip."""
    for players in (3, 4, 7, 8):
        game = new_game(players, seed=3, options={"ruleset": "mother-of-dragons"})
        view = game.view(None)
        for lang in ("en", "ru"):
            drawn = items(board_of(view), view, lang)
            labels = [i for i in drawn if i.kind == "row"]
            for label in labels:
                values = [i for i in drawn if i.house and abs(i.box[1] - label.box[1]) < 20 and i.kind != "row"]
                first = min(v.box[0] for v in values)
                assert first - label.box[2] >= 12, (players, lang, label.text)
