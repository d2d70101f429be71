"""Planning: orders (a house's own and a vassal's), claiming vassals, and the Raven's choices."""

from __future__ import annotations

from typing import Any

from app.forms import (
    NONE,
    Choice,
    Field,
    Form,
    FormError,
    choices_of,
    generic_words,
    my_orders,
    one_pick,
    one_select,
    order_text,
    units_summary,
    vassal_units,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import area_label, house_name, is_star, token_label, units_text, wildling_lines, wildling_name
from engine import Prompt
from engine.prompts import PromptKind
from i18n import t, tn

# --- orders ---


def _area_order_fields(
    areas: list[str], view: dict[str, Any], default: dict[str, str], lang: str, options: list[Choice], unset: list[str]
) -> list[Field]:
    """One field per area that takes an order, labelled with the area and its units; ``unset``: the selection of an
    area the default leaves without an order."""
    return [
        Field(
            key=area,
            label=f"{area_label(area, lang)} — {units_summary(view['areas'][area]['units'], lang)}",
            options=list(options),
            selected=[default[area]] if area in default else list(unset),
        )
        for area in areas
    ]


def _orders(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    c = prompt.choices
    fields = _area_order_fields(c["areas"], view, prompt.default["orders"], lang, [], [])
    lines = [t("decision.orders.help", lang, stars=c["stars"])]
    restrictions = (prompt.info or {}).get("restrictions") or []
    if restrictions:
        lines.append(t("ctx.restrictions", lang, orders=", ".join(t(f"restriction.{r}", lang) for r in restrictions)))
    ask = tn("ask.orders", len(c["areas"]), lang)
    return Form(prompt.id, prompt.kind, t("decision.orders.title", lang), lines, fields, ask)


def _area_options(prompt: Prompt, picks: dict[str, list[str]], area: str, lang: str) -> list[Choice]:
    """The tokens an area may still take, given what the other areas hold: copies left, stars within the
    allowance (forbidden tokens never reach the prompt). The form is refreshed with them after every pick
    (``KindSpec.options``)."""
    c = prompt.choices
    used: dict[str, int] = {}
    stars = 0
    for other in c["areas"]:
        if other == area:
            continue
        for tok in picks.get(other, [])[:1]:
            if tok == NONE:
                continue
            used[tok] = used.get(tok, 0) + 1
            stars += is_star(tok)
    options = []
    for tok, copies in c["tokens"].items():
        if copies - used.get(tok, 0) <= 0:
            continue
        if is_star(tok) and stars >= c["stars"]:
            continue
        options.append(Choice(tok, token_label(tok, lang)))
    if not c.get("must_cover_all", True) or not options:
        options.append(Choice(NONE, t("decision.orders.no_order", lang)))
    return options


def orders_summary(prompt: Prompt, picks: dict[str, list[str]], lang: str) -> str:
    """'Tokens left: … · ★ 1/2' for the orders form, from what is picked so far."""
    used: dict[str, int] = {}
    for area in prompt.choices["areas"]:
        for token in picks.get(area, [])[:1]:
            if token != NONE:
                used[token] = used.get(token, 0) + 1
    left = [
        f"{token_label(tok, lang)}{' ×' + str(n - used.get(tok, 0)) if n - used.get(tok, 0) > 1 else ''}"
        for tok, n in prompt.choices["tokens"].items()
        if n - used.get(tok, 0) > 0
    ]
    stars = sum(n for tok, n in used.items() if is_star(tok))
    over = sorted(tok for tok, n in used.items() if n > prompt.choices["tokens"].get(tok, 0))
    text = t("decision.orders.summary", lang, left=", ".join(left) or "—", stars=stars, allowed=prompt.choices["stars"])
    if over or stars > prompt.choices["stars"]:
        text += "\n" + t("decision.orders.over", lang)
    return text


def _orders_live_lines(prompt: Prompt, picks: dict[str, list[str]], lang: str) -> list[str]:
    return [orders_summary(prompt, picks, lang)]


def _read_orders(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    return {"orders": _picked_orders(prompt, picks)}


def _picked_orders(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str]:
    """The token picked for each of the prompt's areas, those left without an order out."""
    areas = prompt.choices["areas"]
    return {area: values[0] for area, values in picks.items() if values and values[0] != NONE and area in areas}


def _orders_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    """Every area of the prompt with its order, "no order" where none was given (a vassal's orders too)."""
    if isinstance(answer, dict) and isinstance(answer.get("orders"), dict):
        orders = answer["orders"]
        areas = list(prompt.choices["areas"]) if prompt is not None else sorted(orders)
        no_order = t("decision.orders.no_order", lang)
        text = "; ".join(
            f"{area_label(a, lang)}: {token_label(str(orders[a]), lang) if a in orders else no_order}" for a in areas
        )
        return text or t("receipt.nothing", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.ORDERS,
        form=_orders,
        read=_read_orders,
        words=_orders_words,
        category=DeadlineCategory.ORDERS,
        options=_area_options,
        live_lines=_orders_live_lines,
        typed=True,
        always_a_choice=True,  # areas to give orders to, never a list: never answered by itself
    )
)


# --- vassals (Mother of Dragons) ---


def vassal_explained(view: dict[str, Any], lang: str) -> list[str]:
    """What a vassal is, said in the first round's forms only: players meet vassals then, and a sentence repeated in
    every DM of a ten-round game is one nobody reads (issue U)."""
    return [t("ctx.vassal.what", lang)] if int(view.get("round") or 1) <= 1 else []


def _vassal_orders(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    c = prompt.choices
    info = prompt.info or {}
    vassal = house_name(prompt.house, lang)
    default = (prompt.default or {}).get("orders") or {}
    options = [Choice(tok, token_label(tok, lang)) for tok in c["tokens"]]
    options.append(Choice(NONE, t("decision.orders.no_order", lang)))
    fields = _area_order_fields(c["areas"], view, default, lang, options, [NONE])
    # Short enough for a phone's one screen with a vassal's every area (issue V): what a vassal is was said in the
    # claim its liege answered just before, and the liege and the rule share a line.
    lines = [
        t("ctx.vassal-orders.rule", lang, liege=house_name(info.get("liege"), lang), max=c.get("max", 2)),
        t("ctx.vassal-orders.tokens", lang, tokens=", ".join(token_label(tok, lang) for tok in c["tokens"]) or "—"),
    ]
    restrictions = info.get("restrictions") or []
    if restrictions:
        lines.append(t("ctx.restrictions", lang, orders=", ".join(t(f"restriction.{r}", lang) for r in restrictions)))
    ask = t("ask.vassal-orders", lang, vassal=vassal, max=c.get("max", 2))
    return Form(prompt.id, prompt.kind, t("decision.vassal-orders.title", lang), lines, fields, ask)


def _read_vassal_orders(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """At most ``max`` orders, each token of the vassal's set once; the other areas stay without an order."""
    c = prompt.choices
    orders = _picked_orders(prompt, picks)
    if len(set(orders.values())) != len(orders):
        raise FormError("vassal-orders-repeat")
    if len(orders) > int(c.get("max", 2)):
        raise FormError("vassal-orders-max", allowed=int(c.get("max", 2)))
    return {"orders": orders}


def _vassal_area_options(prompt: Prompt, picks: dict[str, list[str]], area: str, lang: str) -> list[Choice]:
    """The tokens an area of the vassal may still take: each token once, and none once the other areas hold the
    maximum (M-VASSAL-10). Offered after every pick, so the form never holds an answer the rules refuse (issue U)."""
    c = prompt.choices
    used = {tok for other in c["areas"] if other != area for tok in picks.get(other, [])[:1] if tok != NONE}
    options = []
    if len(used) < int(c.get("max", 2)):
        options = [Choice(tok, token_label(tok, lang)) for tok in c["tokens"] if tok not in used]
    return [*options, Choice(NONE, t("decision.orders.no_order", lang))]


register(
    KindSpec(
        kind=PromptKind.VASSAL_ORDERS,
        form=_vassal_orders,
        read=_read_vassal_orders,
        words=_orders_words,
        category=DeadlineCategory.OTHER,
        options=_vassal_area_options,
        always_a_choice=True,
    )
)


def _vassal_claim(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    receiver = house_name(info.get("next"), lang)

    def label(v: Any) -> str:
        if v == "pass":
            return t("choice.vassal-claim.pass", lang, house=receiver)
        return t("choice.vassal-claim.claim", lang, vassal=house_name(v, lang))

    def describe(v: Any) -> str | None:
        if v == "pass":
            return None
        units = vassal_units(view, str(v))
        return units_text(units, lang) if units else t("receipt.nothing", lang)  # the menu cuts it at a word

    options = choices_of(prompt, label, describe)
    claims = info.get("claims") or {}
    lines = [
        *vassal_explained(view, lang),
        tn("ctx.vassal-claim.sets", int(info.get("sets", 1)), lang),
        t("ctx.vassal-claim.next", lang, house=receiver),
        t(
            "ctx.vassal-claim.claims",
            lang,
            claims="; ".join(
                t("ctx.vassal-claim.claim", lang, vassal=house_name(v, lang), house=house_name(h, lang))
                for v, h in claims.items()
            )
            or "—",
        ),
    ]
    vassals = [v for v in prompt.choices if v != "pass"]
    ask = t("ask.vassal-claim", lang, vassals=", ".join(house_name(v, lang) for v in vassals) or "—")
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, key="choice")


def _vassal_claim_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, str):
        if answer == "pass":
            return t("receipt.vassal-claim.pass", lang)
        return t("receipt.vassal-claim.claim", lang, vassal=house_name(answer, lang))
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.VASSAL_CLAIM, form=_vassal_claim, words=_vassal_claim_words, category=DeadlineCategory.OTHER
    )
)


# --- the Raven ---


def _raven(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = [Choice("none", t("decision.raven.none", lang))]
    if prompt.choices.get("peek"):
        options.append(Choice("peek", t("decision.raven.peek", lang)))
    for area, tokens in sorted(prompt.choices["swap"].items()):
        # An area's name and its order now are the same for each token it may take (a form has dozens of options).
        name = area_label(area, lang)
        now = t("ctx.raven.now", lang, order=order_text(view["areas"].get(area, {}).get("order"), lang))
        for tok in tokens:
            options.append(
                Choice(
                    f"swap:{area}:{tok}", t("decision.raven.swap", lang, area=name, order=token_label(tok, lang)), now
                )
            )
    lines = [t("ctx.your_orders", lang, orders="; ".join(my_orders(view, prompt.house, lang)) or "—")]
    ask = t("ask.raven" if prompt.choices.get("peek") else "ask.raven.swap", lang)
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, key="raven", selected="none")


def _read_raven(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str]:
    value = one_pick(picks, "raven")
    if value.startswith("swap:"):
        _, area, tok = value.split(":", 2)
        return {"action": "swap", "area": area, "token": tok}
    return {"action": value}


def _raven_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict):
        action = answer.get("action")
        if action == "swap":
            return t(
                "decision.raven.swap",
                lang,
                area=area_label(answer.get("area", ""), lang),
                order=token_label(answer.get("token", ""), lang),
            )
        return t("decision.raven.peek" if action == "peek" else "decision.raven.none", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(kind=PromptKind.RAVEN, form=_raven, read=_read_raven, words=_raven_words, category=DeadlineCategory.OTHER)
)


def _raven_wildling(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = prompt.info.get("card")
    lines = wildling_lines(card, lang) if card else []
    ask = t("ask.raven-wildling", lang, card=wildling_name(card, lang) if card else "—")
    options = choices_of(prompt, lambda v: t(f"choice.{v}", lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.RAVEN_WILDLING, form=_raven_wildling, category=DeadlineCategory.OTHER))
