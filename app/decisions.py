"""Turn an engine prompt into a form of choices a phone can answer, and the picks back into an answer.

Discord-free on purpose: the cog renders a ``Form`` as a layout of text, select menus and buttons (at most 25
options per select, ``FIELDS_PER_PAGE`` selects per page, each under its field's label, plus a row of buttons) and
hands the picked values back to ``to_answer``; ``refusal`` says whether Submit would be refused, before it is pressed.
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
    NO_PICK,
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
    menu_choices,
    menu_picks,
    prompt_title,
    settled,
    units_summary,
)
from app.kinds.action import march_unit_fields
from app.kinds.planning import orders_summary
from app.kinds.registry import Builder, find, registered, spec_of
from app.labels import area_label, card_label, token_label, unit_label
from engine import Game, Prompt, RuleError
from engine.flow import id_kind

__all__ = [
    "BUILDERS",
    "FIELDS_PER_PAGE",
    "MAX_OPTIONS",
    "NONE",
    "NO_PICK",
    "STAY",
    "Choice",
    "Field",
    "Form",
    "FormError",
    "answer_text",
    "area_label",
    "build_form",
    "card_label",
    "live_lines",
    "march_unit_fields",
    "menu_choices",
    "menu_picks",
    "orders_current",
    "orders_options",
    "orders_summary",
    "prompt_title",
    "refresh_orders",
    "refusal",
    "repick",
    "repicks",
    "settled",
    "to_answer",
    "token_label",
    "typed_orders",
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
    if spec is not None and spec.options is not None:
        refresh_orders(form, prompt, {f.key: list(f.selected) for f in form.fields}, lang)
    settle(form.fields)
    return form


def settle(fields: list[Field]) -> None:
    """A field that leaves nothing to choose holds the pick it must (its line says it; no menu can change it)."""
    for f in fields:
        if settled(f):
            f.selected = [o.value for o in f.options]


# A form whose options depend on the other fields' picks (a kind with ``KindSpec.options``: the orders form, whose
# areas share the house's tokens) is refreshed after every pick. The names are the orders form's, the first such
# form; ``orders_options`` is looked up here so that the refresh is one call to count.


def orders_options(prompt: Prompt, picks: dict[str, list[str]], key: str, lang: str) -> list[Choice] | None:
    """The options the field ``key`` may still take after the other fields' picks (its kind's ``options``)."""
    options = spec_of(prompt.kind).options
    if options is None:
        raise ValueError(f"the options of a {prompt.kind} form do not depend on its picks")
    return options(prompt, picks, key, lang)


def refresh_orders(form: Form, prompt: Prompt, picks: dict[str, list[str]], lang: str) -> None:
    """Give each field of the form only the options that can still be legal after the other fields' picks."""
    for f in form.fields:
        options = orders_options(prompt, picks, f.key, lang)
        if options is not None:  # None: this field's options do not depend on the other picks
            f.options = options
    form.options_for = (lang, copy_picks(picks))


def orders_current(form: Form, picks: dict[str, list[str]], lang: str) -> bool:
    """Whether the form's options were worked out for exactly these picks, in this language."""
    return form.options_for == (lang, picks)


def live_lines(form: Form, prompt: Prompt, picks: dict[str, list[str]], lang: str) -> list[str]:
    """The lines a form shows under its own for the picks so far (its kind's ``live_lines``: the orders form's tokens
    left), its options first brought up to date with the picks (a kind with ``options``)."""
    spec = find(prompt.kind)
    if spec is None:
        return []
    if spec.options is not None and not orders_current(form, picks, lang):
        refresh_orders(form, prompt, picks, lang)  # only the options that can still be legal
    return spec.live_lines(prompt, picks, lang) if spec.live_lines is not None else []


# ----- a pick that rebuilds the form -----


def repicks(form: Form, key: str, values: list[str]) -> bool:
    """Whether picking ``values`` in the field ``key`` rebuilds the fields after it (its kind's ``repick``: a march's
    units are the origin's)."""
    spec = find(form.kind)
    return bool(values) and spec is not None and spec.repick is not None and spec.repick.key == key


def repick(
    form: Form, prompt: Prompt, picks: dict[str, list[str]], key: str, values: list[str], lang: str
) -> dict[str, list[str]]:
    """Rebuild the fields after ``key`` for the value picked there (``repicks``); the picks that go with the form
    now: those before ``key``, ``values`` and the new fields' own selections."""
    rebuild = spec_of(form.kind).repick
    assert rebuild is not None and rebuild.key == key and values
    at = next(i for i, f in enumerate(form.fields) if f.key == key)
    form.fields = form.fields[: at + 1] + rebuild.fields(prompt, values[0], lang)
    settle(form.fields[at + 1 :])
    kept = {f.key: picks[f.key] for f in form.fields[:at] if f.key in picks}
    return {**kept, key: values, **{f.key: list(f.selected) for f in form.fields[at + 1 :]}}


# ----- typed answers -----


def typed_orders(prompt: Prompt) -> bool:
    """Whether the ``/orders`` command answers this prompt (its kind's ``typed``: a house's own orders)."""
    spec = find(prompt.kind)
    return spec is not None and spec.typed


def may_force(prompt_ids: list[str]) -> bool:
    """Whether any of the open prompts (``Game.prompt_ids``) may be of a kind that ``only_answer`` answers at once:
    one whose id's kind part is not a kind registered ``always_a_choice`` (orders, a house's or its vassal's: a step
    asking only for them, the commonest, is not worked out to learn it has nothing to force). A decision taken in
    turns adds its turn to its kind in its id (``raid0``), which no registration names: it may force."""
    for prompt_id in prompt_ids:
        spec = find(id_kind(prompt_id))
        if spec is None or not spec.always_a_choice:
            return True
    return False


def only_answer(prompt: Prompt) -> tuple[Any] | None:
    """The one legal answer of a prompt that leaves no choice (in a one-element tuple), or None: a list of one
    choice, or what its kind's ``only_answer`` finds. Such a decision is applied at once and never asked."""
    if isinstance(prompt.choices, list):
        return (prompt.choices[0],) if len(prompt.choices) == 1 else None
    spec = find(prompt.kind)
    return spec.only_answer(prompt) if spec is not None and spec.only_answer is not None else None


# ----- reading picks back -----


def to_answer(prompt: Prompt, picks: dict[str, list[str]]) -> Any:
    """The engine answer for the values picked in a form (the engine still validates it)."""
    spec = find(prompt.kind)
    read = spec.read if spec is not None else generic_read
    return read(prompt, picks)


def refusal(game: Game, prompt: Prompt, picks: dict[str, list[str]]) -> FormError | RuleError | None:
    """Why Submit would be refused if pressed now, or None: the picks read as an answer, then that answer given to a
    copy of ``game`` (the position it would be applied to; ``act`` checks without a side apart from the copy). The
    form shows the reason and keeps Submit disabled while there is one, so a player never learns of a refusal only
    after submitting (issue U). A copy and one answer cost well under a millisecond (docs/bot.md)."""
    try:
        answer = to_answer(prompt, picks)
    except FormError as err:
        return err
    if answer == prompt.default:  # every form is drawn with it: act() always accepts it (test_default_answers.py)
        return None
    try:
        game.copy().act(prompt.house, answer, prompt_id=prompt.id)
    except RuleError as err:
        return err
    return None


# ----- what was answered, in words -----


def answer_text(kind: str, answer: Any, lang: str, *, limit: int = 600, prompt: Prompt | None = None) -> str:
    """An answer as a reader would say it: every area and order in full, a march unit by unit, a card by its name,
    a muster plan in words; never an id."""
    spec = find(kind)
    words = spec.words if spec is not None else generic_words
    text = words(answer, lang, prompt)
    return text if len(text) <= limit else text[: limit - 1] + "…"
