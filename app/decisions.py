"""Turn an engine prompt into a form of choices a phone can answer, and the picks back into an answer.

Discord-free on purpose: the cog renders a ``Form`` as select menus and buttons (at most 25 options per
select, 4 selects per page plus a row of buttons) and hands the picked values back to ``to_answer``.
Values are short stable strings (area ids, token ids, card ids), never labels, so a translated label
can never change what is recorded.

Every form explains itself: ``ask`` says in one line what is asked (the decision DM repeats it) and ``lines``
say what is at stake — the battle and each side's strength by source, the track and its order, the card and
its full text, the units and what each choice costs. They are read from the prompt and the house's own view
only (never from another house's private view).

What each prompt kind asks, how its picks are read and how its answer is said is its registration in its group
module under ``app/kinds/`` (``KindSpec``); this module looks the kind up. The form model and the helpers the kinds
share are in ``app/forms.py``.
"""

from __future__ import annotations

from typing import Any

from app.forms import (
    FIELDS_PER_PAGE,
    MAX_OPTIONS,
    NONE,
    STAY,
    Choice,
    Field,
    Form,
    FormError,
    copy_picks,
    generic_form,
    generic_read,
    generic_words,
    prompt_title,
    units_summary,
)
from app.kinds.action import march_unit_fields
from app.kinds.planning import orders_options, orders_summary
from app.kinds.registry import Builder, find, registered
from app.labels import area_label, card_label, token_label, unit_label
from engine import Prompt

__all__ = [
    "BUILDERS",
    "FIELDS_PER_PAGE",
    "MAX_OPTIONS",
    "NONE",
    "STAY",
    "Choice",
    "Field",
    "Form",
    "FormError",
    "answer_text",
    "area_label",
    "build_form",
    "card_label",
    "march_unit_fields",
    "orders_current",
    "orders_options",
    "orders_summary",
    "prompt_title",
    "refresh_orders",
    "to_answer",
    "token_label",
    "unit_label",
    "units_summary",
]

# The form builder of every registered kind (a view of the registry, for callers that only need the forms).
BUILDERS: dict[str, Builder] = {spec.kind.value: spec.form for spec in registered()}


# ----- building forms -----


def build_form(prompt: Prompt, view: dict[str, Any], lang: str, draft: dict[str, list[str]] | None = None) -> Form:
    spec = find(prompt.kind)
    builder = spec.form if spec is not None else generic_form
    form = builder(prompt, view, lang)
    if not form.ask:
        form.ask = form.title
    for f in form.fields:
        if draft and f.key in draft:
            f.selected = list(draft[f.key])
    if prompt.kind == "orders":
        refresh_orders(form, prompt, {f.key: list(f.selected) for f in form.fields}, lang)
    return form


# The orders form is the one whose options depend on the other fields' picks: the cog refreshes it after every
# pick (``orders_options``, the orders kind's own, is looked up here so that the refresh is one call to count).


def refresh_orders(form: Form, prompt: Prompt, picks: dict[str, list[str]], lang: str) -> None:
    """Give each area of an orders form only the options that can still be legal after the other areas' picks."""
    for f in form.fields:
        f.options = orders_options(prompt, picks, f.key, lang)
    form.options_for = (lang, copy_picks(picks))


def orders_current(form: Form, picks: dict[str, list[str]], lang: str) -> bool:
    """Whether the orders form's options were worked out for exactly these picks, in this language."""
    return form.options_for == (lang, picks)


# ----- reading picks back -----


def to_answer(prompt: Prompt, picks: dict[str, list[str]]) -> Any:
    """The engine answer for the values picked in a form (the engine still validates it)."""
    spec = find(prompt.kind)
    read = spec.read if spec is not None else generic_read
    return read(prompt, picks)


# ----- what was answered, in words -----


def answer_text(kind: str, answer: Any, lang: str, *, limit: int = 600, prompt: Prompt | None = None) -> str:
    """An answer as a reader would say it: every area and order in full, a march unit by unit, a card by its name,
    a muster plan in words; never an id."""
    spec = find(kind)
    words = spec.words if spec is not None else generic_words
    text = words(answer, lang, prompt)
    return text if len(text) <= limit else text[: limit - 1] + "…"
