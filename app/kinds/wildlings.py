"""The wildlings' cards: a tie among the bidders, and what the highest and lowest bidders and everyone else
choose when the wildlings win or lose."""

from __future__ import annotations

from typing import Any

from app.forms import (
    MAX_OPTIONS,
    Choice,
    Field,
    Form,
    card_or_decline_choices,
    choices_of,
    destroy_words,
    generic_words,
    one_select,
    read_destroy,
    unit_fields,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import (
    area_label,
    card_label,
    card_line,
    card_text,
    house_name,
    track_label,
    track_order,
    unit_label,
    wildling_lines,
    wildling_name,
    wildling_text,
)
from engine import Prompt, data
from engine.prompts import PromptKind
from i18n import t, tn


def _wildling_card_lines(prompt: Prompt, lang: str, outcome: str | None = None) -> list[str]:
    card = prompt.info.get("card") if prompt.info else None
    if not card:
        return []
    if outcome is None:
        return wildling_lines(card, lang)
    return [f"**{wildling_name(card, lang)}** — {t(f'wildling.{outcome}', lang)}: {wildling_text(card, outcome, lang)}"]


# --- the bidding's outcome ---


def _wildling_tie(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    role = info.get("role", "highest")
    outcome = "nights_watch_victory" if role == "highest" else "lowest_bidder"
    options = choices_of(prompt, lambda v: house_name(v, lang))
    ask = t(f"ask.wildling-tie.{role}", lang, bid=info.get("bid", "?"))
    lines = _wildling_card_lines(prompt, lang, outcome)
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.WILDLING_TIE, form=_wildling_tie, category=DeadlineCategory.BIDS))


def _preemptive_raid(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = choices_of(prompt, lambda v: t(f"choice.{v}", lang))
    lines = _wildling_card_lines(prompt, lang, "lowest_bidder")
    return one_select(prompt, lang, ask=t("ask.preemptive-raid", lang), lines=lines, options=options)


register(KindSpec(kind=PromptKind.PREEMPTIVE_RAID, form=_preemptive_raid, category=DeadlineCategory.OTHER))


def _track(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    me = prompt.house
    tracks = view.get("tracks") or {}

    def label(v: Any) -> str:
        order = tracks.get(v) or []
        pos = order.index(me) + 1 if me in order else "?"
        return t("choice.track", lang, track=track_label(v, lang), position=pos)

    options = choices_of(prompt, label)
    lines = [*_wildling_card_lines(prompt, lang)]
    lines += [f"{track_label(tr, lang)}: {track_order(tracks[tr], lang)}" for tr in data.TRACKS if tr in tracks]
    return one_select(prompt, lang, ask=t("ask.track", lang), lines=lines, options=options)


register(KindSpec(kind=PromptKind.TRACK, form=_track, category=DeadlineCategory.OTHER))


def _discard_house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = choices_of(prompt, lambda v: card_label(v, lang), lambda v: card_text(v, lang))
    lines = [*_wildling_card_lines(prompt, lang, "everyone_else"), *[f"• {card_line(c, lang)}" for c in prompt.choices]]
    return one_select(prompt, lang, ask=t("ask.discard-house-card", lang), lines=lines, options=options)


register(KindSpec(kind=PromptKind.DISCARD_HOUSE_CARD, form=_discard_house_card, category=DeadlineCategory.OTHER))


def _return_house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = card_or_decline_choices(prompt, lang)
    lines = [
        *_wildling_card_lines(prompt, lang, "nights_watch_victory"),
        *[f"• {card_line(c, lang)}" for c in prompt.choices if c],
    ]
    return one_select(prompt, lang, ask=t("ask.return-house-card", lang), lines=lines, options=options)


register(KindSpec(kind=PromptKind.RETURN_HOUSE_CARD, form=_return_house_card, category=DeadlineCategory.OTHER))


# --- units destroyed, upgraded, downgraded ---


def _wildling_destroy(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    count = prompt.choices["count"]
    key = "ask.wildling-destroy.one_area" if prompt.choices.get("one_area") else "ask.wildling-destroy"
    ask = tn(key, count, lang)
    lines = [*_wildling_card_lines(prompt, lang), ask]
    fields = unit_fields("destroy", prompt.choices["units"], prompt.default["destroy"], lang)
    return Form(prompt.id, prompt.kind, t("decision.wildling-destroy.title", lang), lines, fields, ask)


register(
    KindSpec(
        kind=PromptKind.WILDLING_DESTROY,
        form=_wildling_destroy,
        read=read_destroy,
        words=destroy_words,
        category=DeadlineCategory.OTHER,
    )
)


def _pick_areas(prompt: Prompt, lang: str, counts: dict[str, int], low: int, high: int, unit: str, ask: str) -> Form:
    options = [
        Choice(f"{area}|{i}", f"{area_label(area, lang)} — {unit_label(unit, lang)} {i + 1}")
        for area, n in sorted(counts.items())
        for i in range(n)
    ]
    picked: list[str] = []
    for area in prompt.default["areas"]:
        picked.append(next(o.value for o in options if o.value.startswith(area + "|") and o.value not in picked))
    title = t(f"decision.{prompt.kind}.title", lang)
    lines = [*_wildling_card_lines(prompt, lang), ask]
    return Form(
        prompt.id, prompt.kind, title, lines, [Field("areas", ask[:150], options[:MAX_OPTIONS], low, high, picked)], ask
    )


def _wildling_upgrade(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    top = prompt.choices["max"]
    ask = tn("ask.wildling-upgrade", top, lang)
    return _pick_areas(prompt, lang, prompt.choices["footmen"], 0, top, "footman", ask)


def _wildling_downgrade(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    count = prompt.choices["count"]
    ask = tn("ask.wildling-downgrade", count, lang, footmen=prompt.choices.get("footmen_available", "?"))
    return _pick_areas(prompt, lang, prompt.choices["knights"], count, count, "knight", ask)


def _read_areas(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, list[str]]:
    return {"areas": [v.split("|")[0] for v in picks.get("areas", [])]}


def _areas_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict):
        return ", ".join(area_label(a, lang) for a in answer.get("areas", [])) or t("receipt.nothing", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.WILDLING_UPGRADE,
        form=_wildling_upgrade,
        read=_read_areas,
        words=_areas_words,
        category=DeadlineCategory.OTHER,
    )
)
register(
    KindSpec(
        kind=PromptKind.WILDLING_DOWNGRADE,
        form=_wildling_downgrade,
        read=_read_areas,
        words=_areas_words,
        category=DeadlineCategory.OTHER,
    )
)
