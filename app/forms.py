"""The form model (``Form``, ``Field``, ``Choice``, ``FormError``) and what the forms of several prompt kinds share.

A form is Discord-free: the cog renders it as select menus and buttons and hands the picked values back. What each
kind asks, how its picks are read and how its answer is said lives in its group module under ``app/kinds/``; this
module holds the pieces those modules share (the battle's context lines, one-select forms, the generic form, reader
and words for a kind whose choices are a list of plain values) and imports none of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from app.labels import (
    area_label,
    card_label,
    card_text,
    house_mark,
    house_name,
    order_type_label,
    strength_text,
    token_label,
    unit_label,
    units_text,
)
from engine import Prompt, data
from engine.orders import ALL_TOKENS
from i18n import has, t

MAX_OPTIONS = 25
# A form is a components-v2 message: 40 components at most, each menu taking three (the words above it, its row and
# itself) beside the text, the buttons and their row. Ten menus fit, so a realm of up to ten areas is one page: no ◀ ▶
# tap, and a phone scrolls one message.
FIELDS_PER_PAGE = 10
STAY = "stay"
NONE = "none"  # the value of "no order" / "nothing" options


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    description: str | None = None


def in_menus(choices: list[Choice], room: int = MAX_OPTIONS) -> list[list[Choice]]:
    """Options in menus of at most ``room`` (a menu holds 25): as given when they fit in one, else in alphabetical
    order split between menus, so a player finds a place by its name (a flying dragon's every land, The Long Plan's
    lands of Westeros, a loan's lands)."""
    if len(choices) <= room:
        return [choices]
    ordered = sorted(choices, key=lambda ch: ch.label.casefold())
    return [ordered[i : i + room] for i in range(0, len(ordered), room)]


@dataclass
class Field:
    key: str
    label: str
    options: list[Choice]
    min_values: int = 1
    max_values: int = 1
    selected: list[str] = field(default_factory=list)


@dataclass
class Form:
    prompt_id: str
    kind: str
    title: str
    lines: list[str]
    fields: list[Field]
    ask: str = ""  # what is asked, in one line (the decision DM shows it)
    # Lines shown only on request (a button), with the button's words to show and to hide them: a house card's full
    # texts, which would make the form two phone screens long (issue U).
    details: list[str] = field(default_factory=list)
    details_labels: tuple[str, str] = ("", "")
    # The picks and language the options of an orders form were last worked out for (``refresh_orders``):
    # showing the form again for the same picks needs no new options.
    options_for: tuple[str, dict[str, list[str]]] | None = None

    def pages(self) -> list[list[Field]]:
        return [self.fields[i : i + FIELDS_PER_PAGE] for i in range(0, len(self.fields), FIELDS_PER_PAGE)] or [[]]

    def copy(self) -> Form:
        """A form whose fields, options and picks can change without changing this one (choices are frozen)."""
        fields = [replace(f, options=list(f.options), selected=list(f.selected)) for f in self.fields]
        options_for = None if self.options_for is None else (self.options_for[0], copy_picks(self.options_for[1]))
        return replace(self, lines=list(self.lines), fields=fields, options_for=options_for, details=list(self.details))


# ----- what a field shows: a menu only where there is something to choose (issue V) -----

NO_PICK = "-"  # the "nothing" a menu of one optional choice offers beside it (never an engine value)


def settled(f: Field) -> bool:
    """Whether the field leaves nothing to choose: every option it has must be picked (the one option of a required
    pick, or none at all). Such a field is a line saying its pick, never a menu: no form shows a menu of one option."""
    return f.min_values >= len(f.options)


def menu_choices(f: Field, lang: str) -> list[Choice]:
    """The options the menu of an unsettled field shows: its own, and beside a single optional one (a unit that may be
    destroyed or not) the choice of nothing, so that taking it or not is a choice between two."""
    if len(f.options) == 1 and f.min_values == 0:
        return [*f.options, Choice(NO_PICK, t("form.no_pick", lang))]
    return list(f.options)


def menu_picks(values: list[str]) -> list[str]:
    """What a menu's picked values mean for the form: "nothing" picked is no pick."""
    return [v for v in values if v != NO_PICK]


def copy_picks(picks: dict[str, list[str]]) -> dict[str, list[str]]:
    return {key: list(values) for key, values in picks.items()}


class FormError(ValueError):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def units_summary(units: list[dict[str, Any]], lang: str) -> str:
    return units_text([u["type"] for u in units], lang)


# ----- context shared by several forms -----


def battle_lines(view: dict[str, Any], lang: str) -> list[str]:
    """The battle under way: where, who attacks from where, and each side's units and strength by source."""
    b = view.get("battle")
    if not b:
        return []
    lines = [
        t(
            "ctx.battle",
            lang,
            area=area_label(b["area"], lang),
            attacker=house_mark(b["attacker"], lang),
            origin=area_label(b["from"], lang) if b.get("from") else "—",
            defender=house_mark(b["defender"], lang),
        )
    ]
    components = b.get("components") or {}
    for side in ("attacker", "defender"):
        units = [u["type"] for u in b.get(f"{side}_units", [])]
        parts = components.get(side)
        strength = strength_text(parts, lang) if parts else "?"
        lines.append(
            t(
                "ctx.side",
                lang,
                house=house_name(b[side], lang),
                units=units_text(units, lang) if units else "—",
                strength=strength,
            )
        )
    cards = b.get("cards") or {}
    if cards.get("attacker") or cards.get("defender"):
        lines.append(
            t(
                "ctx.cards",
                lang,
                attacker=card_label(cards["attacker"], lang) if cards.get("attacker") else "—",
                defender=card_label(cards["defender"], lang) if cards.get("defender") else "—",
            )
        )
    return lines


def my_orders(view: dict[str, Any], house: str, lang: str) -> list[str]:
    """The house's orders on the board, by area name. Only its own areas are named (naming every area of the board
    to sort them was most of a Raven form's cost)."""
    mine = []
    for area, a in view["areas"].items():
        order = a.get("order")
        if order and order.get("house") == house and not order.get("hidden"):
            mine.append((area_label(area, lang), order))
    return [f"{label}: {order_text(order, lang)}" for label, order in sorted(mine, key=lambda m: str(m[0]))]


def token_of(order: dict[str, Any]) -> str | None:
    """The token id of an order as a view shows it (type, star, bonus, sea)."""
    for tok in ALL_TOKENS.values():
        if (
            tok.type == order.get("type")
            and tok.star == bool(order.get("star"))
            and tok.bonus == order.get("bonus", tok.bonus)
            and (tok.kind == "sea") == bool(order.get("sea"))
        ):
            return tok.id
    return None


def order_text(order: dict[str, Any] | None, lang: str) -> str:
    if not order:
        return "—"
    token = token_of(order)
    return token_label(token, lang) if token else order_type_label(str(order.get("type")), lang)


def order_at(view: dict[str, Any], area: str, lang: str) -> str:
    """``Lannister's Support`` for the order lying in an area."""
    order = view["areas"].get(area, {}).get("order")
    if not order:
        return "—"
    return t("ctx.order_of", lang, house=house_name(order.get("house"), lang), order=order_text(order, lang))


def other_side(view: dict[str, Any], house: str) -> str | None:
    b = view.get("battle") or {}
    if b.get("attacker") == house:
        return str(b.get("defender"))
    if b.get("defender") == house:
        return str(b.get("attacker"))
    return None


def hand_of(view: dict[str, Any], house: str) -> list[str]:
    return list((view.get("houses", {}).get(house) or {}).get("hand") or [])


def discards_of(view: dict[str, Any], house: str) -> list[str]:
    return list((view.get("houses", {}).get(house) or {}).get("discards") or [])


def cards_named(cards: list[str], lang: str) -> str:
    return ", ".join(card_label(c, lang) for c in cards) or "—"


def vassal_units(view: dict[str, Any], house: str, areas: list[str] | None = None) -> list[str]:
    """The unit types of ``house`` on the board (or in ``areas``), as the view shows them."""
    out: list[str] = []
    for area, a in (view.get("areas") or {}).items():
        if areas is None or area in areas:
            out += [u["type"] for u in a.get("units", []) if u.get("house") == house]
    return out


def one_select(
    prompt: Prompt,
    lang: str,
    *,
    ask: str,
    lines: list[str],
    options: list[Choice],
    key: str = "choice",
    selected: str | None = None,
) -> Form:
    title = prompt_title(prompt.kind, lang)
    chosen = selected if selected is not None else encode(prompt.default)
    return Form(
        prompt.id, prompt.kind, title, lines, [Field(key, ask[:150], options[:MAX_OPTIONS], selected=[chosen])], ask
    )


def choices_of(
    prompt: Prompt, label: Callable[[Any], str], describe: Callable[[Any], str | None] | None = None
) -> list[Choice]:
    values = prompt.choices if isinstance(prompt.choices, list) else []
    return [Choice(encode(v), label(v), describe(v) if describe else None) for v in values]


def card_or_decline_choices(prompt: Prompt, lang: str) -> list[Choice]:
    """A house card per choice, with its text, or "decline" for the empty choice."""
    return choices_of(
        prompt,
        lambda v: card_label(v, lang) if v else t("choice.decline", lang),
        lambda v: card_text(v, lang) if v else None,
    )


def unit_fields(prefix: str, units: dict[str, list[str]], chosen: dict[str, list[str]], lang: str) -> list[Field]:
    """One multi-select per area listing its units; values ``area|type|n``."""
    fields = []
    for area, types in sorted(units.items()):
        options = [Choice(f"{area}|{u}|{i}", f"{unit_label(u, lang)} {i + 1}") for i, u in enumerate(types)]
        picked: list[str] = []
        for u in chosen.get(area, []):
            picked.append(next(o.value for o in options if o.value.split("|")[1] == u and o.value not in picked))
        label = f"{area_label(area, lang)} — {units_text(types, lang)}"
        fields.append(Field(f"{prefix}:{area}", label, options[:MAX_OPTIONS], 0, len(options), picked))
    return fields


# ----- values, labels and titles -----


def encode(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return NONE
    return str(value)


def generic_label(value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    if value is None:
        return t("choice.decline", lang)
    text = str(value)
    if text in data.all_areas():
        return area_label(text, lang)
    if text in data.house_cards():
        return card_label(text, lang)
    if has(f"house.{text}", lang):
        return house_name(text, lang)
    if has(f"choice.{text}", lang):
        return t(f"choice.{text}", lang)
    return text


def prompt_title(kind: str, lang: str) -> str:
    """The name of a kind of decision ("Orders", "Bid"...), as the form titles it."""
    return (
        t(f"decision.{kind}.title", lang) if has(f"decision.{kind}.title", lang) else t("decision.unknown.title", lang)
    )


# ----- the generic form, reader and words (a kind whose choices are a list of plain values) -----


def generic_form(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """A prompt kind this module does not know yet, whose choices are a list of plain values: one select."""
    options = choices_of(prompt, lambda v: generic_label(v, lang))
    title = prompt_title(prompt.kind, lang)
    return one_select(prompt, lang, ask=title, lines=[], options=options)


def one_pick(picks: dict[str, list[str]], key: str) -> str:
    values = picks.get(key) or []
    if len(values) != 1:
        raise FormError("form-incomplete", field=key)
    return values[0]


def generic_read(prompt: Prompt, picks: dict[str, list[str]]) -> Any:
    """The answer of a one-select form over a list of plain values: the choice whose encoding was picked."""
    value = one_pick(picks, "choice")
    for c in prompt.choices if isinstance(prompt.choices, list) else []:
        if encode(c) == value:
            return c
    raise FormError("form-stale")


def generic_words(answer: Any, lang: str, prompt: Prompt | None = None) -> str:
    """An answer no kind says in its own words: a structure as JSON, a plain value by its label."""
    if isinstance(answer, dict | list):
        return json.dumps(answer, ensure_ascii=False, separators=(", ", ": "))
    return generic_label(answer, lang)


def choice_words(prefix: str) -> Callable[[Any, str, Prompt | None], str]:
    """The words of a kind whose plain answers each have a catalog sentence ``<prefix>.<answer>``."""

    def words(answer: Any, lang: str, prompt: Prompt | None = None) -> str:
        if isinstance(answer, str):
            return t(f"{prefix}.{answer}", lang)
        return generic_words(answer, lang, prompt)

    return words


Label = Callable[[Any, str], str]  # (one value of an answer, language) -> how a player reads it


def value_words(
    label: Label, *, shaped: Callable[[Any], bool] | None = None, declined: str | None = None
) -> Callable[[Any, str, Prompt | None], str]:
    """The words of a kind answered with one value (a card's or a loan's choice): the sentence ``declined`` for None
    (the house chose nothing), the value's ``label`` when ``shaped`` accepts it (by default a string), generic words
    otherwise."""

    def words(answer: Any, lang: str, prompt: Prompt | None = None) -> str:
        if answer is None and declined is not None:
            return t(declined, lang)
        if shaped(answer) if shaped is not None else isinstance(answer, str):
            return label(answer, lang)
        return generic_words(answer, lang, prompt)

    return words


def fields_words(
    key: str, *, declined: str | None = None, **fields: tuple[str, Label]
) -> Callable[[Any, str, Prompt | None], str]:
    """The words of a kind answered with a dict of strings: the sentence ``key`` whose every parameter is the label
    of one field (``area=("area", area_label)``), the sentence ``declined`` for None, generic words otherwise."""

    def words(answer: Any, lang: str, prompt: Prompt | None = None) -> str:
        if answer is None and declined is not None:
            return t(declined, lang)
        if isinstance(answer, dict) and all(isinstance(answer.get(field), str) for field, _ in fields.values()):
            return t(key, lang, **{name: label(answer[field], lang) for name, (field, label) in fields.items()})
        return generic_words(answer, lang, prompt)

    return words


# ----- shared by the kinds that destroy units (reconcile, wildling-destroy) -----


def read_destroy(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, dict[str, list[str]]]:
    """The units picked in ``unit_fields("destroy", ...)``, by area (a reconcile and a wildling destroy)."""
    destroy: dict[str, list[str]] = {}
    for key, values in picks.items():
        if key.startswith("destroy:") and values:
            destroy[key.split(":", 1)[1]] = [v.split("|")[1] for v in values]
    return {"destroy": destroy}


def destroy_text(destroy: dict[str, list[str]], lang: str) -> str:
    return "; ".join(f"{area_label(a, lang)}: {units_text(u, lang)}" for a, u in sorted(destroy.items()) if u) or t(
        "receipt.nothing", lang
    )


def destroy_words(answer: Any, lang: str, prompt: Prompt | None = None) -> str:
    if isinstance(answer, dict):
        return destroy_text(answer.get("destroy") or {}, lang)
    return generic_words(answer, lang, prompt)
