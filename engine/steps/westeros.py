"""The Westeros phase. Placeholder until the Westeros-phase module lands: see issue C."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flow import Frame, Step, register

if TYPE_CHECKING:
    from engine.game import Game


@register
class WesterosPhase(Step):
    type = "westeros"

    def advance(self, g: Game, f: Frame) -> None:
        raise NotImplementedError("the Westeros phase is not implemented yet")
