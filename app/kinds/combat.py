"""Combat: support, the house cards, Valyrian Steel Blade, casualties, retreats and capturing a port."""

from __future__ import annotations

from typing import Any

from app.forms import (
    MAX_OPTIONS,
    Choice,
    Field,
    Form,
    battle_lines,
    cards_named,
    choices_of,
    generic_label,
    generic_words,
    hand_of,
    one_pick,
    one_select,
    other_side,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import (
    area_label,
    card_label,
    card_line,
    card_name,
    card_text,
    house_name,
    tides_label,
    unit_label,
    units_text,
)
from engine import Prompt
from engine.prompts import PromptKind
from i18n import has, t, tn

# --- support ---


def _support(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    labels = {
        "attacker": t("decision.support.attacker", lang, house=house_name(info["attacker"], lang)),
        "defender": t("decision.support.defender", lang, house=house_name(info["defender"], lang)),
        "none": t("decision.support.none", lang),
    }
    options = [Choice(side, labels[side]) for side in prompt.choices]
    froms = ", ".join(area_label(a, lang) for a in info.get("from", []))
    ask = t("ask.support", lang, area=area_label(info["area"], lang), origins=froms)
    return one_select(
        prompt, lang, ask=ask, lines=battle_lines(view, lang), options=options, key="side", selected="none"
    )


def _read_support(prompt: Prompt, picks: dict[str, list[str]]) -> str:
    return one_pick(picks, "side")


def _support_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, str):
        return (
            t(f"receipt.support.{answer}", lang)
            if has(f"receipt.support.{answer}", lang)
            else generic_label(answer, lang)
        )
    if isinstance(answer, dict):
        return "; ".join(f"{area_label(a, lang)}: {t(f'receipt.support.{s}', lang)}" for a, s in sorted(answer.items()))
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.SUPPORT,
        form=_support,
        read=_read_support,
        words=_support_words,
        category=DeadlineCategory.BATTLE,
    )
)


def _support_refusal(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    ask = t(
        "ask.support-refusal",
        lang,
        supporter=house_name(info.get("supporter"), lang),
        origin=area_label(info.get("from", ""), lang),
        area=area_label(info.get("area", ""), lang),
    )
    options = choices_of(prompt, lambda v: t(f"choice.{v}", lang))
    return one_select(prompt, lang, ask=ask, lines=battle_lines(view, lang), options=options)


register(KindSpec(kind=PromptKind.SUPPORT_REFUSAL, form=_support_refusal, category=DeadlineCategory.BATTLE))


# --- house cards and the Valyrian Steel Blade ---


def _house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The battle, your cards and theirs by name and strength, one menu: a phone's screen (issue U: with every card's
    full text the DM ran to two). Each option's description is its card's text, cut at a word by the menu; the full
    texts are the form's details, shown on request."""
    info = prompt.info
    opponent = info.get("opponent") or other_side(view, prompt.house)
    options = [Choice(c, card_label(c, lang), card_text(c, lang)) for c in prompt.choices]
    lines = battle_lines(view, lang)
    if info.get("cancelled"):
        lines.append(t("ctx.cancelled", lang, card=card_name(info["cancelled"], lang)))
    lines.append(t("cards.yours", lang, cards=cards_named(list(prompt.choices), lang)))
    if opponent and opponent != "neutral":
        lines.append(
            t(
                "ctx.their_cards",
                lang,
                house=house_name(opponent, lang),
                cards=cards_named(hand_of(view, opponent), lang),
            )
        )
    ask = t(
        "ask.house-card",
        lang,
        area=area_label(info.get("area", ""), lang),
        opponent=house_name(opponent, lang),
    )
    form = one_select(prompt, lang, ask=ask, lines=lines, options=options, key="card", selected=str(prompt.default))
    form.details = [f"• {card_line(c, lang)}" for c in prompt.choices]
    form.details_labels = (t("cards.texts.show", lang), t("cards.texts.hide", lang))
    return form


def _read_house_card(prompt: Prompt, picks: dict[str, list[str]]) -> str:
    return one_pick(picks, "card")


register(
    KindSpec(kind=PromptKind.HOUSE_CARD, form=_house_card, read=_read_house_card, category=DeadlineCategory.BATTLE)
)


def _blade(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    labels = {
        True: t("choice.blade.yes", lang),
        False: t("choice.blade.no", lang),
        "redraw": t("choice.blade.redraw", lang),
    }
    options = choices_of(prompt, lambda v: labels.get(v, str(v)))
    lines = battle_lines(view, lang)
    tides = prompt.info.get("tides")
    if tides:
        lines.append(t("ctx.your_tides", lang, card=tides_label(tides, lang)))
    return one_select(prompt, lang, ask=t("ask.blade", lang), lines=lines, options=options)


def _blade_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    return {True: t("choice.blade.yes", lang), False: t("choice.blade.no", lang)}.get(
        answer, t("choice.blade.redraw", lang)
    )


register(KindSpec(kind=PromptKind.BLADE, form=_blade, words=_blade_words, category=DeadlineCategory.BATTLE))


# --- after the battle ---


def _casualties(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    count = prompt.choices["count"]
    info = prompt.info or {}
    options = []
    for unit_type, n in prompt.choices["units"].items():
        options += [Choice(f"{unit_type}:{i}", f"{unit_label(unit_type, lang)} {i + 1}") for i in range(n)]
    ask = tn("ask.casualties", count, lang, area=area_label(info.get("area", ""), lang))
    lines = []
    if info.get("reason") == "skulls":
        lines.append(
            tn("ctx.casualties.skulls", int(info.get("skulls", 0)), lang, loser=house_name(info.get("loser"), lang))
        )
    elif info.get("reason") == "lost":
        lines.append(
            tn(
                "ctx.casualties.lost",
                count,
                lang,
                winner=house_name(info.get("winner"), lang),
                swords=info.get("swords", 0),
                fortifications=info.get("fortifications", 0),
                skulls=info.get("skulls", 0),
            )
        )
    units = [u for u, n in prompt.choices["units"].items() for _ in range(n)]
    lines.append(t("ctx.your_units", lang, units=units_text(units, lang)))
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.casualties.title", lang),
        lines,
        [
            Field(
                "units",
                ask[:150],
                options[:MAX_OPTIONS],
                min_values=count,
                max_values=count,
                selected=_pick_units(options, prompt.default),
            )
        ],
        ask,
    )


def _pick_units(options: list[Choice], types: list[str]) -> list[str]:
    """The option values (``type:n``) matching a default list of unit types."""
    picked: list[str] = []
    for unit in types:
        match = next((o.value for o in options if o.value.split(":")[0] == unit and o.value not in picked), None)
        if match is not None:
            picked.append(match)
    return picked


def _read_casualties(prompt: Prompt, picks: dict[str, list[str]]) -> list[str]:
    return [v.split(":")[0] for v in picks.get("units", [])]


def _casualties_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, list):
        return units_text([str(u) for u in answer], lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.CASUALTIES,
        form=_casualties,
        read=_read_casualties,
        words=_casualties_words,
        category=DeadlineCategory.BATTLE,
    )
)


def _retreat(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    losses = info.get("losses") or {}
    units = info.get("units") or []

    def label(a: Any) -> str:
        lost = int(losses.get(a, 0))
        return area_label(a, lang) + (" — " + tn("ctx.retreat.loses", lost, lang) if lost else "")

    options = choices_of(prompt, label)
    area = area_label(info.get("area", ""), lang)
    ask = t("ask.retreat", lang, area=area, units=units_text(units, lang))
    lines = [t("ctx.retreat", lang, units=units_text(units, lang), area=area_label(info.get("area", ""), lang))]
    if info.get("loser") and info["loser"] != prompt.house:
        lines.append(t("ctx.retreat.robb", lang, loser=house_name(info["loser"], lang)))
    if any(losses.values()):
        lines.append(t("ctx.retreat.supply", lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, key="area", selected=str(prompt.default))


def _read_retreat(prompt: Prompt, picks: dict[str, list[str]]) -> str:
    return one_pick(picks, "area")


register(KindSpec(kind=PromptKind.RETREAT, form=_retreat, read=_read_retreat, category=DeadlineCategory.BATTLE))


def _port_capture(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    enemy = int(info.get("enemy_ships", 0))
    options = choices_of(prompt, lambda v: tn("choice.ships", int(v), lang))
    ask = tn(
        "ask.port-capture",
        enemy,
        lang,
        port=area_label(info.get("port", ""), lang),
        area=area_label(info.get("area", ""), lang),
    )
    lines = [t("ctx.port-capture", lang)]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _port_capture_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, int):
        return tn("choice.ships", answer, lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.PORT_CAPTURE, form=_port_capture, words=_port_capture_words, category=DeadlineCategory.BATTLE
    )
)
