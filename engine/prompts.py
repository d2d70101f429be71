"""An open decision: who must answer, what kind of answer, which answers are legal, and the default."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Prompt:
    id: str  # stable while the decision is open: "<frame id>:<kind>:<house>"
    house: str
    kind: str
    choices: Any  # JSON-able description of the legal answers (documented per kind in docs/engine.md)
    default: Any  # the answer applied when a deadline passes
    info: dict[str, Any] = field(default_factory=dict)  # context for the player (JSON-able)
    answered: bool = False  # simultaneous steps: an answer is on record and may still be replaced
    secret: bool = False  # the answer stays hidden from other houses until the step resolves

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "house": self.house,
            "kind": self.kind,
            "choices": self.choices,
            "default": self.default,
            "info": self.info,
            "answered": self.answered,
            "secret": self.secret,
        }
