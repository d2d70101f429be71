"""The step machine: the game's progress is a stack of frames, each a plain dict.

A frame is a JSON-able dict with a ``type`` naming a registered :class:`Step` and an ``id``.
The top frame either asks for answers (``prompts``) or, when nothing is asked, moves the game on
(``advance``), which replaces, pops or pushes frames. Because the stack is plain data, the game can
be saved between any two answers and resumed exactly (no generators, no closures).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import RuleError
from engine.prompts import Prompt

if TYPE_CHECKING:
    from engine.game import Game

Frame = dict[str, Any]


class Step:
    """Behaviour of one frame type. Subclasses are stateless: all state lives in the frame."""

    type: ClassVar[str]

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        return []

    # The three questions below have answers that follow from ``prompts``; a step whose prompts are costly to
    # build (the choices of every house's orders, every march's destinations) answers them without building all.

    def prompt_for(self, g: Game, f: Frame, house: str) -> Prompt | None:
        """The house's open prompt in this frame, if any."""
        return next((p for p in self.prompts(g, f) if p.house == house), None)

    def asks(self, g: Game, f: Frame) -> bool:
        """Whether the frame waits for answers (prompts exist, answered or not); if not, ``advance`` is due."""
        return bool(self.prompts(g, f))

    def awaiting(self, g: Game, f: Frame) -> list[str]:
        """The houses whose answer is still missing."""
        return [p.house for p in self.prompts(g, f) if not p.answered]

    def prompt_ids(self, g: Game, f: Frame) -> list[str]:
        """The ids of the frame's prompts, in their order (which decisions are open, not what they offer)."""
        return [p.id for p in self.prompts(g, f)]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        raise RuleError("nothing-to-answer", "This step takes no answer.")

    def advance(self, g: Game, f: Frame) -> None:
        """Called when the frame asks for nothing; must change the stack (pop, push or replace)."""
        raise NotImplementedError(self.type)

    def view(self, g: Game, f: Frame, viewer: str | None) -> dict[str, Any] | None:
        """Optional public/private description of the step for views."""
        return None

    def upgrade(self, f: Frame) -> None:
        """Bring a frame saved by an earlier version of the engine to today's form, in place (loading a game)."""


@dataclass(frozen=True)
class Ask:
    """What a :class:`Question` asks: its one prompt's choices, default and info."""

    choices: Any
    default: Any
    info: dict[str, Any]


class Question(Step):
    """A step where one house answers one question, then the step acts on the answer: the frame keeps the checked
    answer as ``chosen`` (None is an answer too), is popped, and ``apply`` acts. The house asked is ``f["house"]``
    unless ``asked`` says otherwise; the prompt id is ``prompt_id(f, kind, house)`` like every other."""

    kind: ClassVar[str]

    def asked(self, g: Game, f: Frame) -> str:
        return str(f["house"])

    def ask(self, g: Game, f: Frame) -> Ask:
        raise NotImplementedError(self.type)

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        """The answer as the frame keeps it, or ``RuleError`` (the position is read again: it may have changed)."""
        raise NotImplementedError(self.type)

    def apply(self, g: Game, f: Frame, chosen: Any) -> None:
        raise NotImplementedError(self.type)

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "chosen" in f:
            return []
        asked, house = self.ask(g, f), self.asked(g, f)
        return [
            Prompt(
                id=prompt_id(f, self.kind, house),
                house=house,
                kind=self.kind,
                choices=asked.choices,
                default=asked.default,
                info=asked.info,
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        f["chosen"] = self.check(g, f, answer)

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
        self.apply(g, f, f["chosen"])


STEPS: dict[str, Step] = {}


def register(cls: type[Step]) -> type[Step]:
    if cls.type in STEPS:
        raise ValueError(f"step {cls.type!r} registered twice")
    STEPS[cls.type] = cls()
    return cls


# Rules a ruleset's phase hook runs, by name: the steps' modules register them (as they register steps), so the
# rulesets, which everything imports, name them without importing the steps.
PHASE_RULES: dict[str, Callable[[Game], None]] = {}


def phase_rule(name: str) -> Callable[[Callable[[Game], None]], Callable[[Game], None]]:
    def add(rule: Callable[[Game], None]) -> Callable[[Game], None]:
        if name in PHASE_RULES:
            raise ValueError(f"phase rule {name!r} registered twice")
        PHASE_RULES[name] = rule
        return rule

    return add


# Rules a ruleset's hook runs inside a step, given that step's frame; True when the rule pushed a frame of its own
# (the step waits for it). Registered by name like the phase rules.
FRAME_RULES: dict[str, Callable[[Game, Frame], bool]] = {}


def frame_rule(name: str) -> Callable[[Callable[[Game, Frame], bool]], Callable[[Game, Frame], bool]]:
    def add(rule: Callable[[Game, Frame], bool]) -> Callable[[Game, Frame], bool]:
        if name in FRAME_RULES:
            raise ValueError(f"frame rule {name!r} registered twice")
        FRAME_RULES[name] = rule
        return rule

    return add


def prompt_id(f: Mapping[str, Any], kind: str, house: str) -> str:
    return f"{f['id']}:{kind}:{house}"


def id_kind(prompt_id: str) -> str:
    """The kind part of a prompt's id (``prompt_id``'s): the prompt's kind, or its kind and what tells one of its
    decisions from the next in the same frame (``raid0``, ``march1``, ``vassal-claim1-1``). What ``Game.prompt_ids``
    tells of the open decisions without working out what each offers."""
    return prompt_id.split(":", 2)[1]


def id_house(prompt_id: str) -> str:
    """The house a prompt's id names (``prompt_id``'s): the house whose decision it is."""
    return prompt_id.split(":", 2)[2]


def stable_pick(seed: int, frame_id: int, house: str, options: list[str]) -> str:
    """A seeded, replayable 'random' choice that does not consume the game's RNG (used for defaults)."""
    digest = zlib.crc32(f"{seed}:{frame_id}:{house}".encode())
    return options[digest % len(options)]


def expect_dict(answer: Any, *keys: str) -> dict[str, Any]:
    """Check that an answer is an object with the given keys (answers arrive as JSON)."""
    if not isinstance(answer, dict):
        raise RuleError("bad-answer", "The answer must be an object.", expected=list(keys))
    missing = [k for k in keys if k not in answer]
    if missing:
        raise RuleError("bad-answer", f"The answer lacks {', '.join(missing)}.", missing=missing)
    return answer


def expect_choice(value: Any, options: list[Any] | set[Any] | tuple[Any, ...], what: str) -> Any:
    if value not in options:
        raise RuleError(
            "illegal-choice", f"{value!r} is not a legal {what}.", value=value, options=sorted(map(str, options))
        )
    return value
