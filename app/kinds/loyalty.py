"""Targaryen's loyalty tokens: a deck IV card's choice of areas for its tokens (``loyalty-areas``)."""

from __future__ import annotations

from typing import Any

from app.forms import Choice, Field, Form, FormError, generic_words, in_menus
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import area_label, house_name, westeros_name, westeros_text
from engine import Prompt
from engine.prompts import PromptKind
from i18n import t, tn

AREAS = "areas:"


def _area_choice(area: str, tokens: dict[str, int], lang: str) -> Choice:
    here = tokens.get(area, 0)
    return Choice(area, area_label(area, lang), tn("decision.loyalty-areas.here", here, lang) if here else None)


def _loyalty_areas(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card and its text, the price, the tokens already out; then the areas, in menus of at most 25 (alphabetical
    when the card offers more, The Long Plan's every land of Westeros)."""
    c = prompt.choices
    card = str(prompt.info.get("card", ""))
    tokens: dict[str, int] = prompt.info.get("tokens", {})
    choices = [_area_choice(a, tokens, lang) for a in c["areas"]]
    chunks = in_menus(choices)
    low = 0 if c["optional"] or len(chunks) > 1 else (c["count"] if c["exact"] else 1)
    fields = []
    for i, chunk in enumerate(chunks):
        label = t("decision.loyalty-areas.field", lang, count=c["count"])
        if len(chunks) > 1:
            label = t("decision.loyalty-areas.range", lang, first=chunk[0].label, last=chunk[-1].label)
        chosen = [a for a in prompt.default if any(ch.value == a for ch in chunk)]
        fields.append(Field(f"{AREAS}{i}", label, chunk, min(low, len(chunk)), min(c["count"], len(chunk)), chosen))
    lines = [f"**{westeros_name(card, lang)}**: {westeros_text(card, lang)}"]
    if c["cost"]:
        power = (view.get("power") or {}).get(prompt.house)
        lines.append(t("decision.loyalty-areas.cost", lang, cost=tn("count.power", c["cost"], lang), power=power))
    if c["exact"]:
        lines.append(tn("decision.loyalty-areas.exact", c["count"], lang))
    else:
        lines.append(tn("decision.loyalty-areas.up_to", c["count"], lang))
    if c["optional"]:
        lines.append(t("decision.loyalty-areas.decline", lang))
    on_board = ", ".join(f"{area_label(a, lang)} {n}" for a, n in sorted(tokens.items())) or "—"
    lines.append(t("decision.loyalty-areas.board", lang, tokens=on_board, reserve=prompt.info.get("reserve", "?")))
    ask = t("ask.loyalty-areas", lang, card=westeros_name(card, lang))
    if prompt.house != "targaryen":
        ask = t("ask.loyalty-areas.other", lang, card=westeros_name(card, lang), house=house_name("targaryen", lang))
    return Form(prompt.id, prompt.kind, t("decision.loyalty-areas.title", lang), lines, fields, ask)


def _read_loyalty_areas(prompt: Prompt, picks: dict[str, list[str]]) -> list[str]:
    chosen = [a for key in sorted(picks) if key.startswith(AREAS) for a in picks[key]]
    c = prompt.choices
    if len(chosen) > c["count"] or (chosen and c["exact"] and len(chosen) != c["count"]):
        raise FormError("loyalty-count", count=c["count"])
    return chosen


def _loyalty_areas_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, list) and all(isinstance(a, str) for a in answer):
        return ", ".join(area_label(a, lang) for a in answer) or t("decision.loyalty-areas.declined", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.LOYALTY_AREAS,
        form=_loyalty_areas,
        read=_read_loyalty_areas,
        words=_loyalty_areas_words,
        category=DeadlineCategory.OTHER,
    )
)
