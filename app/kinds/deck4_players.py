"""Three deck IV cards' decisions (``engine/steps/deck4_players.py``): Fire Made Flesh's choice (``fire-made-flesh``),
Playing With Fire's land and player (``playing-with-fire``) and the picked player's unit (``loyalty-unit``), and The
Long Plan's player (``loyalty-player``). Each form opens with the card and its text, and names what is at stake: the
dragons and the strength tokens, the price and Targaryen's Power, the lands, the players and their units."""

from __future__ import annotations

from typing import Any

from app.forms import (
    NONE,
    Choice,
    Field,
    Form,
    FormError,
    choices_of,
    encode,
    fields_words,
    generic_words,
    in_menus,
    one_pick,
    one_select,
    prompt_title,
    value_words,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import area_label, house_name, unit_label, westeros_name, westeros_text
from engine import Prompt
from engine.prompts import PromptKind
from i18n import t, tn

TARGARYEN = "targaryen"


def _card_line(card: str, lang: str) -> str:
    return f"**{westeros_name(card, lang)}**: {westeros_text(card, lang)}"


def _cost_line(cost: int, power: Any, lang: str) -> str:
    return t("decision.deck4p.cost", lang, cost=tn("count.power", cost, lang), power=power)


# ----- Fire Made Flesh -----


def _fire_value(option: dict[str, Any]) -> str:
    """``destroy:norvos:6``, ``revive:pentos``, ``nothing``: an option as the form's value."""
    return ":".join(str(option[k]) for k in ("option", "area", "round") if k in option)


def _fire_label(option: dict[str, Any], strength: int, lang: str) -> str:
    kind = option.get("option")
    if kind == "destroy":
        area = area_label(str(option["area"]), lang)
        return t("choice.fire-made-flesh.destroy", lang, area=area, round=option["round"], strength=strength + 1)
    if kind == "revive":
        return t("choice.fire-made-flesh.revive", lang, area=area_label(str(option["area"]), lang))
    return t("choice.fire-made-flesh.nothing", lang)


def _fire_made_flesh(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card, the dragons on the board and the strength now, the tokens still on the round track, the destroyed
    dragons; then one select over every legal choice, each saying what it does."""
    info = prompt.info
    card = str(info.get("card", ""))
    strength = int(info.get("dragon_strength", 0))
    dragons: dict[str, int] = info.get("dragons") or {}
    rounds: list[int] = info.get("dragon_rounds") or []
    on_board = ", ".join(f"{area_label(a, lang)} {n}" for a, n in dragons.items()) or "—"
    lines = [
        _card_line(card, lang),
        t("decision.fire-made-flesh.dragons", lang, strength=strength, dragons=on_board),
        t("decision.fire-made-flesh.rounds", lang, rounds=", ".join(map(str, rounds)) or "—"),
        tn("decision.fire-made-flesh.destroyed", int(info.get("dragons_destroyed", 0)), lang),
    ]
    options = [Choice(_fire_value(o), _fire_label(o, strength, lang)) for o in prompt.choices]
    ask = t("ask.fire-made-flesh", lang, card=westeros_name(card, lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, selected=_fire_value(prompt.default))


def _read_fire_made_flesh(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, Any]:
    value = one_pick(picks, "choice")
    for option in prompt.choices:
        if _fire_value(option) == value:
            return dict(option)
    raise FormError("form-stale")


def _fire_made_flesh_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    option = answer.get("option") if isinstance(answer, dict) else None
    if option == "destroy":
        area = area_label(str(answer["area"]), lang)
        return t("decision.fire-made-flesh.destroy_words", lang, area=area, round=answer.get("round", "?"))
    if option in ("revive", "nothing"):
        return _fire_label(answer, 0, lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.FIRE_MADE_FLESH,
        form=_fire_made_flesh,
        read=_read_fire_made_flesh,
        words=_fire_made_flesh_words,
        category=DeadlineCategory.OTHER,
    )
)


# ----- Playing With Fire -----

LANDS = "lands:"
PLAYER = "player"


def _playing_with_fire(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card, the price, the tokens left; the lands nobody controls (menus of at most 25, alphabetical when
    more), then the players, each with the units he could put there, and "decline" (preselected)."""
    c = prompt.choices
    info = prompt.info
    card = str(info.get("card", ""))
    lands = sorted((Choice(a, area_label(a, lang)) for a in c["areas"]), key=lambda ch: ch.label.casefold())
    chunks = in_menus(lands)
    fields = []
    for i, chunk in enumerate(chunks):
        label = t("decision.playing-with-fire.lands", lang)
        if len(chunks) > 1:
            label = t("decision.playing-with-fire.range", lang, first=chunk[0].label, last=chunk[-1].label)
        fields.append(Field(f"{LANDS}{i}", label, chunk, 0, 1, []))
    units: dict[str, list[str]] = info.get("units") or {}
    players = [
        Choice(
            h,
            house_name(h, lang),
            t("decision.playing-with-fire.units", lang, units=", ".join(unit_label(u, lang) for u in units.get(h, []))),
        )
        for h in c["houses"]
    ]
    players.append(Choice(NONE, t("choice.deck4p.decline", lang)))
    fields.append(Field(PLAYER, t("decision.playing-with-fire.player", lang), players, 1, 1, [NONE]))
    lines = [
        _card_line(card, lang),
        _cost_line(int(c["cost"]), info.get("power", "?"), lang),
        t("decision.deck4p.reserve", lang, reserve=info.get("reserve", "?")),
        t("decision.playing-with-fire.help", lang),
    ]
    ask = t("ask.playing-with-fire", lang, card=westeros_name(card, lang))
    return Form(prompt.id, prompt.kind, prompt_title(prompt.kind, lang), lines, fields, ask)


def _read_playing_with_fire(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str] | None:
    player = one_pick(picks, PLAYER)
    if player == NONE:
        return None
    lands = [a for key in sorted(picks) if key.startswith(LANDS) for a in picks[key]]
    if len(lands) != 1:
        raise FormError("deck4-one-land")
    return {"area": lands[0], "house": player}


register(
    KindSpec(
        kind=PromptKind.PLAYING_WITH_FIRE,
        form=_playing_with_fire,
        read=_read_playing_with_fire,
        words=fields_words(
            "decision.playing-with-fire.words",
            declined="decision.deck4p.declined",
            area=("area", area_label),
            house=("house", house_name),
        ),
        category=DeadlineCategory.OTHER,
    )
)


def _loyalty_unit(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """Asked of the player Targaryen picked: the card, the land and its token, then his unit types in reserve."""
    info = prompt.info
    card = str(info.get("card", ""))
    area = area_label(str(info.get("area", "")), lang)
    lines = [
        _card_line(card, lang),
        t("decision.loyalty-unit.help", lang, area=area, by=house_name(str(info.get("by", TARGARYEN)), lang)),
    ]
    options = choices_of(prompt, lambda v: unit_label(str(v), lang))
    ask = t("ask.loyalty-unit", lang, card=westeros_name(card, lang), area=area)
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(
    KindSpec(
        kind=PromptKind.LOYALTY_UNIT, form=_loyalty_unit, words=value_words(unit_label), category=DeadlineCategory.OTHER
    )
)


# ----- The Long Plan -----


def _loyalty_player(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card, the price, how many tokens the picked player places; then the players and "decline"."""
    info = prompt.info
    card = str(info.get("card", ""))
    lines = [
        _card_line(card, lang),
        _cost_line(int(info.get("cost", 1)), info.get("power", "?"), lang),
        tn("decision.loyalty-player.help", int(info.get("tokens", 2)), lang),
    ]
    options = choices_of(prompt, lambda v: house_name(str(v), lang) if v else t("choice.deck4p.decline", lang))
    ask = t("ask.loyalty-player", lang, card=westeros_name(card, lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, selected=encode(prompt.default))


register(
    KindSpec(
        kind=PromptKind.LOYALTY_PLAYER,
        form=_loyalty_player,
        words=value_words(house_name, declined="decision.deck4p.declined"),
        category=DeadlineCategory.OTHER,
    )
)
