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

from app.forms import Form, generic_read, generic_words
from engine import Prompt
from engine.prompts import PromptKind

__all__ = ["Builder", "DeadlineCategory", "KindSpec", "Reader", "Words", "find", "register", "registered", "spec_of"]

# (prompt, the house's own view, language) -> the form a player answers
Builder = Callable[[Prompt, dict[str, Any], str], Form]
# (prompt, the values picked in its form) -> the engine answer (the engine still validates it)
Reader = Callable[[Prompt, dict[str, list[str]]], Any]
# (answer, language, the prompt if known) -> the answer in words (receipts, the undo confirmation)
Words = Callable[[Any, str, Prompt | None], str]


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
    """

    kind: PromptKind
    form: Builder
    category: DeadlineCategory
    read: Reader = generic_read
    words: Words = generic_words


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
