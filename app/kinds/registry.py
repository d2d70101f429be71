"""The registry of prompt kinds: for each kind the engine declares (``PromptKind``), one ``KindSpec`` saying how the
bot asks it, reads its answer back, says the answer in words and how long it may wait.

A group module (``app/kinds/planning.py``, ``combat.py``...) registers its kinds when it is imported, and importing
this module imports them all (``app/kinds/__init__.py``), so a lookup always sees every registration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.forms import Choice, Field, Form, generic_read, generic_words
from engine import Prompt
from engine.prompts import PromptKind

__all__ = [
    "Builder",
    "DeadlineCategory",
    "KindSpec",
    "LiveLines",
    "Options",
    "Reader",
    "Repick",
    "Words",
    "find",
    "register",
    "registered",
    "spec_of",
]

# (prompt, the house's own view, language) -> the form a player answers
Builder = Callable[[Prompt, dict[str, Any], str], Form]
# (prompt, the values picked in its form) -> the engine answer (the engine still validates it)
Reader = Callable[[Prompt, dict[str, list[str]]], Any]
# (answer, language, the prompt if known) -> the answer in words (receipts, the undo confirmation)
Words = Callable[[Any, str, Prompt | None], str]
# (prompt, the values picked so far, a field's key, language) -> the options left to that field by the others' picks
Options = Callable[[Prompt, dict[str, list[str]], str, str], list[Choice] | None]  # None: the field's options stay
# (prompt, the values picked so far, language) -> lines the form shows under its own, worked out from the picks
LiveLines = Callable[[Prompt, dict[str, list[str]], str], list[str]]


@dataclass(frozen=True)
class Repick:
    """A form whose later fields depend on what one field picks: once ``key`` is picked, the fields after it are
    ``fields(prompt, the value picked, language)`` (a march's units depend on the area it marches from)."""

    key: str
    fields: Callable[[Prompt, str, str], list[Field]]


class DeadlineCategory(StrEnum):
    """The kinds of decision a game sets its own deadline duration for (``GameSettings.deadlines``)."""

    ORDERS = "orders"
    BIDS = "bids"
    BATTLE = "battle"
    OTHER = "other"


@dataclass(frozen=True, kw_only=True)
class KindSpec:
    """Everything the application knows about one prompt kind.

    ``read`` and ``words`` default to the generic ones, for a kind whose choices are a list of plain values answered
    with one select. A decision inside a battle (a house card's ability too) waits as long as the battle's other
    choices (``BATTLE``), a tie after a bid as long as the bid (``BIDS``). Titles, questions and help texts are
    catalog entries named after the kind (``decision.<kind>.title``, ``ask.<kind>``...).

    The optional hooks are what a kind's form does beyond one question answered by its picks, so that nobody else
    special-cases the kind (issue P): ``options`` when its fields' options depend on the other fields' picks (the
    form is refreshed after every pick: ``app.decisions.refresh_orders``), ``live_lines`` for lines worked out from
    the picks so far, ``repick`` when one field's pick rebuilds the fields after it, ``typed`` for the kind the
    ``/orders`` command answers from typed text (``app.order_text``), and ``only_answer`` for a kind whose choices can
    leave one legal answer in a shape other than a list of one (a raid with no target): that answer in a one-element
    tuple, or None while there is a choice to make. ``always_a_choice`` for a kind whose choices are never a list and
    that has no ``only_answer``: a step asking only for such kinds has no decision to answer by itself, which is known
    from its prompts' ids without working the prompts out (``app.decisions.may_force``).
    """

    kind: PromptKind
    form: Builder
    category: DeadlineCategory
    read: Reader = generic_read
    words: Words = generic_words
    options: Options | None = None
    live_lines: LiveLines | None = None
    repick: Repick | None = None
    typed: bool = False
    only_answer: Callable[[Prompt], tuple[Any] | None] | None = None
    always_a_choice: bool = False


_SPECS: dict[str, KindSpec] = {}


def register(spec: KindSpec) -> KindSpec:
    """Record a kind's registration; a kind the engine does not declare, or one registered twice, is an error."""
    kind = PromptKind(spec.kind)  # ValueError for an undeclared kind
    if kind in _SPECS:
        raise ValueError(f"prompt kind {kind.value!r} is registered twice")
    _SPECS[kind] = spec
    return spec


def find(kind: str) -> KindSpec | None:
    """The registration of a kind, or None for a kind nobody registered."""
    return _SPECS.get(kind)


def spec_of(kind: str) -> KindSpec:
    """The registration of a kind (KeyError if there is none)."""
    return _SPECS[kind]


def registered() -> list[KindSpec]:
    """Every registration, in the order ``PromptKind`` declares the kinds."""
    return [_SPECS[kind] for kind in PromptKind if kind in _SPECS]
