"""The house cards' abilities that ask something: one kind per ability (base game, then Mother of Dragons)."""

from __future__ import annotations

from typing import Any

from app.forms import (
    Form,
    battle_lines,
    card_or_decline_choices,
    cards_named,
    choice_words,
    choices_of,
    discards_of,
    generic_words,
    hand_of,
    one_select,
    vassal_units,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import (
    area_label,
    card_label,
    card_line,
    card_name,
    card_text,
    house_name,
    token_label,
    track_label,
    track_order,
    unit_label,
    units_count,
    units_text,
)
from engine import Prompt, data
from engine.prompts import PromptKind
from i18n import t, tn

# --- base game ---


def _tyrion_cancel(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    target = info.get("target", "")
    ask = t("ask.tyrion-cancel", lang, opponent=house_name(info.get("opponent"), lang), card=card_name(target, lang))
    lines = [*battle_lines(view, lang), f"• {card_line(target, lang)}"]
    opponent = info.get("opponent")
    if opponent:
        others = [c for c in hand_of(view, opponent) if c != target]
        lines.append(t("ctx.their_cards", lang, house=house_name(opponent, lang), cards=cards_named(others, lang)))
    options = choices_of(prompt, lambda v: t(f"choice.tyrion.{v}", lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(
    KindSpec(
        kind=PromptKind.TYRION_CANCEL,
        form=_tyrion_cancel,
        words=choice_words("choice.tyrion"),
        category=DeadlineCategory.BATTLE,
    )
)


def _doran_track(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    opponent = info.get("opponent")
    positions = info.get("positions") or {}
    options = choices_of(
        prompt,
        lambda v: t("choice.doran", lang, track=track_label(v, lang), position=positions.get(v, "?")),
    )
    lines = [f"{track_label(tr, lang)}: {track_order(view['tracks'][tr], lang)}" for tr in data.TRACKS]
    ask = t("ask.doran-track", lang, opponent=house_name(opponent, lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.DORAN_TRACK, form=_doran_track, category=DeadlineCategory.BATTLE))


def _aeron_swap(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    ask = tn("ask.aeron-swap", int(info.get("cost", 2)), lang, power=info.get("power", "?"))
    options = choices_of(
        prompt,
        lambda v: t("choice.aeron.keep", lang) if v == "keep" else card_label(v, lang),
        lambda v: None if v == "keep" else card_text(v, lang),
    )
    lines = [*battle_lines(view, lang), t("ctx.power", lang, power=info.get("power", "?"))]
    lines += [f"• {card_line(c, lang)}" for c in prompt.choices if c != "keep"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _aeron_swap_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if answer == "keep":
        return t("choice.aeron.keep", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(kind=PromptKind.AERON_SWAP, form=_aeron_swap, words=_aeron_swap_words, category=DeadlineCategory.BATTLE)
)


def _mace_footman(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    ask = t("ask.mace-footman", lang, area=area_label(prompt.info.get("area", ""), lang))
    options = choices_of(prompt, lambda v: t(f"choice.mace.{v}", lang))
    lines = [*battle_lines(view, lang), f"• {card_line('mace-tyrell', lang)}"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(
    KindSpec(
        kind=PromptKind.MACE_FOOTMAN,
        form=_mace_footman,
        words=choice_words("choice.mace"),
        category=DeadlineCategory.BATTLE,
    )
)


def _queen_of_thorns(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    orders = prompt.info.get("orders") or {}
    options = choices_of(
        prompt,
        lambda v: t("choice.order_in", lang, area=area_label(v, lang), order=token_label(orders.get(v, ""), lang)),
    )
    ask = t("ask.queen-of-thorns", lang, area=area_label(prompt.info.get("area", ""), lang))
    lines = [*battle_lines(view, lang), f"• {card_line('queen-of-thorns', lang)}"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.QUEEN_OF_THORNS, form=_queen_of_thorns, category=DeadlineCategory.BATTLE))


def _renly_knight(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = choices_of(prompt, lambda v: area_label(v, lang) if v else t("choice.decline", lang))
    ask = t("ask.renly-knight", lang)
    lines = [*battle_lines(view, lang), f"• {card_line('renly-baratheon', lang)}"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.RENLY_KNIGHT, form=_renly_knight, category=DeadlineCategory.BATTLE))


def _cersei_order(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    orders = prompt.info.get("orders") or {}
    loser = prompt.info.get("loser")
    options = choices_of(
        prompt,
        lambda v: (
            t("choice.order_in", lang, area=area_label(v, lang), order=token_label(orders.get(v, ""), lang))
            if v
            else t("choice.decline", lang)
        ),
    )
    ask = t("ask.cersei-order", lang, loser=house_name(loser, lang))
    lines = [*battle_lines(view, lang), f"• {card_line('cersei-lannister', lang)}"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.CERSEI_ORDER, form=_cersei_order, category=DeadlineCategory.BATTLE))


def _patchface(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    opponent = prompt.info.get("opponent")
    options = card_or_decline_choices(prompt, lang)
    ask = t("ask.patchface-discard", lang, opponent=house_name(opponent, lang))
    lines = [f"• {card_line(c, lang)}" for c in prompt.choices if c]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.PATCHFACE_DISCARD, form=_patchface, category=DeadlineCategory.BATTLE))


# --- Mother of Dragons ---


def _lysa_keep(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", ""))
    options = choices_of(prompt, lambda v: t(f"choice.lysa.{v}", lang, card=card_name(card, lang)))
    ask = t("ask.lysa-keep", lang, card=card_name(card, lang))
    lines = [*battle_lines(view, lang), f"• {card_line(card, lang)}"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _lysa_keep_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, str):
        return t(f"choice.lysa.{answer}", lang, card=card_name("lysa-arryn-mod", lang))
    return generic_words(answer, lang, prompt)


register(KindSpec(kind=PromptKind.LYSA_KEEP, form=_lysa_keep, words=_lysa_keep_words, category=DeadlineCategory.BATTLE))


def _robert_remove(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", ""))
    opponent = prompt.info.get("opponent")
    options = card_or_decline_choices(prompt, lang)
    ask = t("ask.robert-remove", lang, opponent=house_name(opponent, lang))
    lines = [
        f"• {card_line(card, lang)}",
        t(
            "ctx.their_discards",
            lang,
            house=house_name(opponent, lang),
            cards=cards_named(discards_of(view, opponent or ""), lang),
        ),
    ]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.ROBERT_REMOVE, form=_robert_remove, category=DeadlineCategory.BATTLE))


def _card_strength(card: str) -> int:
    info = data.house_cards().get(card)
    return info.strength if info is not None else 0


def _bronn_pay(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    card = str(info.get("card", "vassal-bronn"))
    name = card_name(card, lang)
    labels = {
        "pay": t("choice.bronn.pay", lang, card=name),
        "decline": t("choice.bronn.decline", lang, card=name, strength=_card_strength(card)),
    }
    options = choices_of(prompt, lambda v: labels.get(str(v), str(v)))
    ask = t("ask.bronn-pay", lang, owner=house_name(info.get("owner"), lang), card=name)
    lines = [
        *battle_lines(view, lang),
        f"• {card_line(card, lang)}",
        t("ctx.power", lang, power=info.get("power", "?")),
    ]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _bronn_pay_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if answer in ("pay", "decline"):
        card = "vassal-bronn"
        return t(f"choice.bronn.{answer}", lang, card=card_name(card, lang), strength=_card_strength(card))
    return generic_words(answer, lang, prompt)


register(KindSpec(kind=PromptKind.BRONN_PAY, form=_bronn_pay, words=_bronn_pay_words, category=DeadlineCategory.BATTLE))


def _beric_unit(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    card = str(info.get("card", "vassal-beric-dondarrion"))
    where = str(info.get("units_in") or info.get("area", ""))
    units = vassal_units(view, prompt.house, [where])
    options = choices_of(
        prompt,
        lambda v: t("choice.beric", lang, unit=unit_label(str(v), lang)),
        lambda v: units_count(str(v), units.count(str(v)), lang) if str(v) in units else None,
    )
    ask = t("ask.beric-unit", lang, card=card_name(card, lang), vassal=house_name(prompt.house, lang))
    lines = [
        *battle_lines(view, lang),
        f"• {card_line(card, lang)}",
        t(
            "ctx.beric.units",
            lang,
            vassal=house_name(prompt.house, lang),
            area=area_label(where, lang),
            units=units_text(units, lang) if units else "—",
        ),
        t("ctx.beric.routed", lang),
    ]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _beric_unit_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, str):
        return t("choice.beric", lang, unit=unit_label(answer, lang))
    return generic_words(answer, lang, prompt)


register(
    KindSpec(kind=PromptKind.BERIC_UNIT, form=_beric_unit, words=_beric_unit_words, category=DeadlineCategory.BATTLE)
)


def _connington_knight(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    card = str(info.get("card", "vassal-jon-connington"))
    home = info.get("home")
    options = choices_of(
        prompt,
        lambda v: (
            t("choice.connington.area", lang, area=area_label(v, lang)) if v else t("choice.connington.none", lang)
        ),
        lambda v: (t("ctx.connington.home", lang) if v == home else t("ctx.connington.retreat", lang)) if v else None,
    )
    ask = t("ask.connington-knight", lang, card=card_name(card, lang), vassal=house_name(prompt.house, lang))
    lines = [*battle_lines(view, lang), f"• {card_line(card, lang)}"]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _connington_knight_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if answer is None:
        return t("choice.connington.none", lang)
    if isinstance(answer, str):
        return t("choice.connington.area", lang, area=area_label(answer, lang))
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.CONNINGTON_KNIGHT,
        form=_connington_knight,
        words=_connington_knight_words,
        category=DeadlineCategory.BATTLE,
    )
)


def _viserys_discard(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", "viserys-targaryen"))
    options = card_or_decline_choices(prompt, lang)
    ask = t("ask.viserys-discard", lang, card=card_name(card, lang))
    lines = [*battle_lines(view, lang), f"• {card_line(card, lang)}"]
    lines += [f"• {card_line(c, lang)}" for c in prompt.choices if c]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.VISERYS_DISCARD, form=_viserys_discard, category=DeadlineCategory.BATTLE))


def _missandei_return(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", "missandei"))
    options = card_or_decline_choices(prompt, lang)
    ask = t("ask.missandei-return", lang, card=card_name(card, lang))
    lines = [
        f"• {card_line(card, lang)}",
        t("ctx.missandei-return.margin", lang, margin=prompt.info.get("margin", "?")),
    ]
    lines += [f"• {card_line(c, lang)}" for c in prompt.choices if c]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.MISSANDEI_RETURN, form=_missandei_return, category=DeadlineCategory.BATTLE))
