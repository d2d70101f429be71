"""The deck IV cards that move loyalty tokens (Scattering Dissent, Word Spreads Quickly): a player's move of one
token (``loyalty-move``) and Targaryen's choice to undo it (``loyalty-undo``)."""

from __future__ import annotations

from typing import Any

from app.forms import Choice, Field, Form, choices_of, fields_words, generic_words, one_pick, one_select
from app.kinds.registry import DeadlineCategory, KindSpec, Repick, register
from app.labels import area_label, house_name, westeros_name, westeros_text
from engine import Prompt
from engine.prompts import PromptKind
from i18n import t, tn

TARGARYEN = "targaryen"
UNDO = "undo"
KEEP = "keep"


def _card_line(prompt: Prompt, lang: str) -> str:
    card = str(prompt.info.get("card", ""))
    return f"**{westeros_name(card, lang)}**: {westeros_text(card, lang)}"


def _board_line(tokens: dict[str, int], lang: str) -> str:
    on_board = ", ".join(f"{area_label(a, lang)} {n}" for a, n in sorted(tokens.items())) or "—"
    return t("decision.loyalty-move.board", lang, tokens=on_board)


# --- loyalty-move ---


def _loyalty_move(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """A menu of the areas holding tokens that can move (with their counts), then a menu of the lands the picked
    area's token may go to (rebuilt when another area is picked)."""
    tokens: dict[str, int] = prompt.info.get("tokens", {})
    origins = list(prompt.choices)
    origin = str(prompt.default["from"])
    fields = [
        Field(
            "from",
            t("decision.loyalty-move.from", lang),
            [Choice(a, area_label(a, lang), tn("decision.loyalty-move.here", tokens.get(a, 0), lang)) for a in origins],
            selected=[origin],
        )
    ]
    lines = [_card_line(prompt, lang), t("decision.loyalty-move.must", lang), _board_line(tokens, lang)]
    cost = int(prompt.info.get("undo_cost", 0))
    if prompt.house != TARGARYEN:
        lines.append(tn("decision.loyalty-move.undo", cost, lang, house=house_name(TARGARYEN, lang)))
    card = westeros_name(str(prompt.info.get("card", "")), lang)
    ask = t("ask.loyalty-move", lang, card=card)
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.loyalty-move.title", lang),
        lines,
        fields + loyalty_move_fields(prompt, origin, lang),
        ask,
    )


def loyalty_move_fields(prompt: Prompt, origin: str, lang: str) -> list[Field]:
    """Where the token of ``origin`` may go: the default's land when it is that area's, else the first."""
    to = list(prompt.choices.get(origin, []))
    chosen = prompt.default["to"] if prompt.default["from"] == origin else (to[0] if to else None)
    return [
        Field(
            "to",
            t("decision.loyalty-move.to", lang, area=area_label(origin, lang)),
            [Choice(a, area_label(a, lang)) for a in to],
            selected=[chosen] if chosen else [],
        )
    ]


def _only_move(prompt: Prompt) -> tuple[Any] | None:
    """One token that can go one way only: that move is all the player can do, so nobody is asked."""
    if len(prompt.choices) == 1:
        origin, to = next(iter(prompt.choices.items()))
        if len(to) == 1:
            return ({"from": origin, "to": to[0]},)
    return None


def _read_loyalty_move(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str]:
    return {"from": one_pick(picks, "from"), "to": one_pick(picks, "to")}


register(
    KindSpec(
        kind=PromptKind.LOYALTY_MOVE,
        form=_loyalty_move,
        read=_read_loyalty_move,
        words=fields_words("receipt.loyalty-move", origin=("from", area_label), to=("to", area_label)),
        category=DeadlineCategory.OTHER,
        repick=Repick("from", loyalty_move_fields),  # the lands a token may go to are its area's neighbours
        only_answer=_only_move,
    )
)


# --- loyalty-undo ---


def _loyalty_undo(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    cost = int(info.get("cost", 0))
    options = choices_of(prompt, lambda v: _undo_label(str(v), cost, lang))
    power = (view.get("power") or {}).get(prompt.house, "?")
    lines = [
        _card_line(prompt, lang),
        t(
            "decision.loyalty-undo.moved",
            lang,
            house=house_name(info.get("mover"), lang),
            origin=area_label(str(info.get("origin", "")), lang),
            to=area_label(str(info.get("to", "")), lang),
        ),
        t("ctx.power", lang, power=power),
        _board_line(info.get("tokens", {}), lang),
    ]
    ask = tn("ask.loyalty-undo", cost, lang, card=westeros_name(str(info.get("card", "")), lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _undo_label(choice: str, cost: int, lang: str) -> str:
    """ "Undo the move: pay 2 Power" or "Keep the move"."""
    if choice == UNDO:
        return tn("choice.loyalty-undo.undo", cost, lang)
    return t("choice.loyalty-undo.keep", lang)


def _loyalty_undo_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if answer in (UNDO, KEEP):
        return _undo_label(str(answer), int(prompt.info.get("cost", 0)) if prompt is not None else 0, lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.LOYALTY_UNDO, form=_loyalty_undo, words=_loyalty_undo_words, category=DeadlineCategory.OTHER
    )
)
