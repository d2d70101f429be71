"""Turn an engine prompt into a form of choices a phone can answer, and the picks back into an answer.

Discord-free on purpose: the cog renders a ``Form`` as select menus and buttons (at most 25 options per
select, 4 selects per page plus a row of buttons) and hands the picked values back to ``to_answer``.
Values are short stable strings (area ids, token ids, card ids), never labels, so a translated label
can never change what is recorded.

Every form explains itself: ``ask`` says in one line what is asked (the decision DM repeats it) and ``lines``
say what is at stake — the battle and each side's strength by source, the track and its order, the card and
its full text, the units and what each choice costs. They are read from the prompt and the house's own view
only (never from another house's private view).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from app.i18n import has, t, tn
from app.labels import (
    area_label,
    card_label,
    card_line,
    card_name,
    card_text,
    house_mark,
    house_name,
    is_star,
    muster_plan_text,
    order_type_label,
    strength_text,
    tides_label,
    token_label,
    track_label,
    track_order,
    unit_label,
    units_count,
    units_text,
    westeros_name,
    westeros_text,
    wildling_lines,
    wildling_name,
    wildling_text,
)
from engine import Prompt, data
from engine.orders import ALL_TOKENS
from engine.steps.mustering import RECRUIT_COST

__all__ = [
    "MAX_OPTIONS",
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
    "orders_summary",
    "prompt_title",
    "refresh_orders",
    "to_answer",
    "token_label",
    "unit_label",
    "units_summary",
]

MAX_OPTIONS = 25
FIELDS_PER_PAGE = 4
STAY = "stay"
NONE = "none"  # the value of "no order" / "nothing" options


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    description: str | None = None


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
    # The picks and language the options of an orders form were last worked out for (``refresh_orders``):
    # showing the form again for the same picks needs no new options.
    options_for: tuple[str, dict[str, list[str]]] | None = None

    def pages(self) -> list[list[Field]]:
        return [self.fields[i : i + FIELDS_PER_PAGE] for i in range(0, len(self.fields), FIELDS_PER_PAGE)] or [[]]

    def copy(self) -> Form:
        """A form whose fields, options and picks can change without changing this one (choices are frozen)."""
        fields = [replace(f, options=list(f.options), selected=list(f.selected)) for f in self.fields]
        options_for = None if self.options_for is None else (self.options_for[0], _copy_picks(self.options_for[1]))
        return replace(self, lines=list(self.lines), fields=fields, options_for=options_for)


def _copy_picks(picks: dict[str, list[str]]) -> dict[str, list[str]]:
    return {key: list(values) for key, values in picks.items()}


class FormError(ValueError):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def units_summary(units: list[dict[str, Any]], lang: str) -> str:
    return units_text([u["type"] for u in units], lang)


# ----- context shared by several forms -----


def _battle_lines(view: dict[str, Any], lang: str) -> list[str]:
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


def _my_orders(view: dict[str, Any], house: str, lang: str) -> list[str]:
    out = []
    for area, a in sorted(view["areas"].items(), key=lambda kv: area_label(kv[0], lang)):
        order = a.get("order")
        if order and order.get("house") == house and not order.get("hidden"):
            out.append(f"{area_label(area, lang)}: {_order_text(order, lang)}")
    return out


def _token_of(order: dict[str, Any]) -> str | None:
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


def _order_text(order: dict[str, Any] | None, lang: str) -> str:
    if not order:
        return "—"
    token = _token_of(order)
    return token_label(token, lang) if token else order_type_label(str(order.get("type")), lang)


def _order_at(view: dict[str, Any], area: str, lang: str) -> str:
    """``Lannister's Support`` for the order lying in an area."""
    order = view["areas"].get(area, {}).get("order")
    if not order:
        return "—"
    return t("ctx.order_of", lang, house=house_name(order.get("house"), lang), order=_order_text(order, lang))


def _other_side(view: dict[str, Any], house: str) -> str | None:
    b = view.get("battle") or {}
    if b.get("attacker") == house:
        return str(b.get("defender"))
    if b.get("defender") == house:
        return str(b.get("attacker"))
    return None


def _hand(view: dict[str, Any], house: str) -> list[str]:
    return list((view.get("houses", {}).get(house) or {}).get("hand") or [])


def _discards(view: dict[str, Any], house: str) -> list[str]:
    return list((view.get("houses", {}).get(house) or {}).get("discards") or [])


def _cards_named(cards: list[str], lang: str) -> str:
    return ", ".join(card_label(c, lang) for c in cards) or "—"


def _one_select(
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
    chosen = selected if selected is not None else _encode(prompt.default)
    return Form(
        prompt.id, prompt.kind, title, lines, [Field(key, ask[:150], options[:MAX_OPTIONS], selected=[chosen])], ask
    )


def _choices(
    prompt: Prompt, label: Callable[[Any], str], describe: Callable[[Any], str | None] | None = None
) -> list[Choice]:
    values = prompt.choices if isinstance(prompt.choices, list) else []
    return [Choice(_encode(v), label(v), describe(v) if describe else None) for v in values]


def _card_or_decline_choices(prompt: Prompt, lang: str) -> list[Choice]:
    """A house card per choice, with its text, or "decline" for the empty choice."""
    return _choices(
        prompt,
        lambda v: card_label(v, lang) if v else t("choice.decline", lang),
        lambda v: card_text(v, lang) if v else None,
    )


# ----- building forms -----


def build_form(prompt: Prompt, view: dict[str, Any], lang: str, draft: dict[str, list[str]] | None = None) -> Form:
    builder = BUILDERS.get(prompt.kind, _generic)
    form = builder(prompt, view, lang)
    if not form.ask:
        form.ask = form.title
    for f in form.fields:
        if draft and f.key in draft:
            f.selected = list(draft[f.key])
    if prompt.kind == "orders":
        refresh_orders(form, prompt, {f.key: list(f.selected) for f in form.fields}, lang)
    return form


# --- planning ---


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


def orders_options(prompt: Prompt, picks: dict[str, list[str]], area: str, lang: str) -> list[Choice]:
    """The tokens an area may still take, given what the other areas hold: copies left, stars within the
    allowance (forbidden tokens never reach the prompt)."""
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


def refresh_orders(form: Form, prompt: Prompt, picks: dict[str, list[str]], lang: str) -> None:
    """Give each area of an orders form only the options that can still be legal after the other areas' picks."""
    for f in form.fields:
        f.options = orders_options(prompt, picks, f.key, lang)
    form.options_for = (lang, _copy_picks(picks))


def orders_current(form: Form, picks: dict[str, list[str]], lang: str) -> bool:
    """Whether the orders form's options were worked out for exactly these picks, in this language."""
    return form.options_for == (lang, picks)


def _raven(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = [Choice("none", t("decision.raven.none", lang))]
    if prompt.choices.get("peek"):
        options.append(Choice("peek", t("decision.raven.peek", lang)))
    for area, tokens in sorted(prompt.choices["swap"].items()):
        current = _order_text(view["areas"].get(area, {}).get("order"), lang)
        for tok in tokens:
            options.append(
                Choice(
                    f"swap:{area}:{tok}",
                    t("decision.raven.swap", lang, area=area_label(area, lang), order=token_label(tok, lang)),
                    t("ctx.raven.now", lang, order=current),
                )
            )
    lines = [t("ctx.your_orders", lang, orders="; ".join(_my_orders(view, prompt.house, lang)) or "—")]
    ask = t("ask.raven" if prompt.choices.get("peek") else "ask.raven.swap", lang)
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options, key="raven", selected="none")


def _raven_wildling(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = prompt.info.get("card")
    lines = wildling_lines(card, lang) if card else []
    ask = t("ask.raven-wildling", lang, card=wildling_name(card, lang) if card else "—")
    options = _choices(prompt, lambda v: t(f"choice.{v}", lang))
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


# --- action phase ---


def _raid(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = []
    for origin, targets in sorted(prompt.choices.items()):
        for target in [*targets, None]:
            value = f"{origin}>{target or ''}"
            label = (
                t("decision.raid.target", lang, origin=area_label(origin, lang), target=area_label(target, lang))
                if target
                else t("decision.raid.remove", lang, origin=area_label(origin, lang))
            )
            options.append(Choice(value, label, _order_at(view, target, lang) if target else None))
    lines = [
        t(
            "ctx.raid.from",
            lang,
            area=area_label(origin, lang),
            order=_order_text(view["areas"][origin].get("order"), lang),
            targets=", ".join(f"{area_label(a, lang)} ({_order_at(view, a, lang)})" for a in targets) or "—",
        )
        for origin, targets in sorted(prompt.choices.items())
    ]
    selected = f"{prompt.default['from']}>{prompt.default['target'] or ''}"
    return _one_select(
        prompt, lang, ask=t("ask.raid", lang), lines=lines, options=options, key="raid", selected=selected
    )


def _march(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """One field for the origin, then one per unit of the first origin: where it goes (or stays)."""
    origins = sorted(prompt.choices)
    fields = [
        Field(
            "from",
            t("decision.march.from", lang),
            [Choice(a, area_label(a, lang), _order_text(view["areas"][a].get("order"), lang)) for a in origins],
            selected=[origins[0]],
        )
    ]
    lines = [t("decision.march.help", lang)]
    for a in origins:
        units = [u for types, n in prompt.choices[a]["units"].items() for u in [types] * n]
        lines.append(
            t(
                "ctx.march.from",
                lang,
                area=area_label(a, lang),
                order=_order_text(view["areas"][a].get("order"), lang),
                units=units_text(units, lang),
            )
        )
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.march.title", lang),
        lines,
        fields + march_unit_fields(prompt, origins[0], lang),
        t("ask.march", lang),
    )


def march_unit_fields(prompt: Prompt, origin: str, lang: str) -> list[Field]:
    option = prompt.choices[origin]
    fields = []
    for unit_type, count in sorted(option["units"].items()):
        destinations = option["destinations"].get(unit_type, [])
        choices = [Choice(STAY, t("decision.march.stay", lang, area=area_label(origin, lang)))] + [
            Choice(d, area_label(d, lang)) for d in destinations
        ]
        for i in range(count):
            label = t(
                "decision.march.unit", lang, unit=unit_label(unit_type, lang), n=i + 1, area=area_label(origin, lang)
            )
            fields.append(Field(f"unit:{unit_type}:{i}", label, choices[:MAX_OPTIONS], selected=[STAY]))
    if option.get("can_leave_power"):
        fields.append(
            Field(
                "leave_power",
                t("decision.march.leave_power", lang),
                [Choice("no", t("no", lang)), Choice("yes", t("yes", lang))],
                selected=["no"],
            )
        )
    return fields


def _consolidate(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    area = prompt.info.get("area", "")
    power = int(prompt.info.get("power", 0))
    points = _muster_points(area)
    labels = {
        "power": tn("choice.consolidate.power", power, lang),
        "muster": tn("choice.consolidate.muster", points, lang, area=area_label(area, lang)),
    }
    options = _choices(prompt, lambda v: labels.get(str(v), str(v)))
    ask = t("ask.consolidate", lang, area=area_label(area, lang))
    lines = [t("ctx.power", lang, power=(view.get("power") or {}).get(prompt.house, "?"))]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _muster_points(area: str) -> int:
    a = data.all_areas().get(area)
    fort = getattr(a, "fortification", 0) or 0
    return 2 if fort >= 2 else 1


# --- combat ---


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
    return _one_select(
        prompt, lang, ask=ask, lines=_battle_lines(view, lang), options=options, key="side", selected="none"
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
    options = _choices(prompt, lambda v: t(f"choice.{v}", lang))
    return _one_select(prompt, lang, ask=ask, lines=_battle_lines(view, lang), options=options)


def _house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    opponent = info.get("opponent") or _other_side(view, prompt.house)
    options = [Choice(c, card_label(c, lang), card_text(c, lang)) for c in prompt.choices]
    lines = _battle_lines(view, lang)
    if info.get("cancelled"):
        lines.append(t("ctx.cancelled", lang, card=card_name(info["cancelled"], lang)))
    lines.append(t("ctx.your_cards", lang))
    lines += [f"• {card_line(c, lang)}" for c in prompt.choices]
    if opponent and opponent != "neutral":
        lines.append(
            t(
                "ctx.their_cards",
                lang,
                house=house_name(opponent, lang),
                cards=_cards_named(_hand(view, opponent), lang),
            )
        )
    ask = t(
        "ask.house-card",
        lang,
        area=area_label(info.get("area", ""), lang),
        opponent=house_name(opponent, lang),
    )
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options, key="card", selected=str(prompt.default))


def _tyrion_cancel(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    target = info.get("target", "")
    ask = t("ask.tyrion-cancel", lang, opponent=house_name(info.get("opponent"), lang), card=card_name(target, lang))
    lines = [*_battle_lines(view, lang), f"• {card_line(target, lang)}"]
    opponent = info.get("opponent")
    if opponent:
        others = [c for c in _hand(view, opponent) if c != target]
        lines.append(t("ctx.their_cards", lang, house=house_name(opponent, lang), cards=_cards_named(others, lang)))
    options = _choices(prompt, lambda v: t(f"choice.tyrion.{v}", lang))
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _doran_track(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    opponent = info.get("opponent")
    positions = info.get("positions") or {}
    options = _choices(
        prompt,
        lambda v: t("choice.doran", lang, track=track_label(v, lang), position=positions.get(v, "?")),
    )
    lines = [f"{track_label(tr, lang)}: {track_order(view['tracks'][tr], lang)}" for tr in data.TRACKS]
    ask = t("ask.doran-track", lang, opponent=house_name(opponent, lang))
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _aeron_swap(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    ask = tn("ask.aeron-swap", int(info.get("cost", 2)), lang, power=info.get("power", "?"))
    options = _choices(
        prompt,
        lambda v: t("choice.aeron.keep", lang) if v == "keep" else card_label(v, lang),
        lambda v: None if v == "keep" else card_text(v, lang),
    )
    lines = [*_battle_lines(view, lang), t("ctx.power", lang, power=info.get("power", "?"))]
    lines += [f"• {card_line(c, lang)}" for c in prompt.choices if c != "keep"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _mace_footman(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    ask = t("ask.mace-footman", lang, area=area_label(prompt.info.get("area", ""), lang))
    options = _choices(prompt, lambda v: t(f"choice.mace.{v}", lang))
    lines = [*_battle_lines(view, lang), f"• {card_line('mace-tyrell', lang)}"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _queen_of_thorns(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    orders = prompt.info.get("orders") or {}
    options = _choices(
        prompt,
        lambda v: t("choice.order_in", lang, area=area_label(v, lang), order=token_label(orders.get(v, ""), lang)),
    )
    ask = t("ask.queen-of-thorns", lang, area=area_label(prompt.info.get("area", ""), lang))
    lines = [*_battle_lines(view, lang), f"• {card_line('queen-of-thorns', lang)}"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _blade(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    labels = {
        True: t("choice.blade.yes", lang),
        False: t("choice.blade.no", lang),
        "redraw": t("choice.blade.redraw", lang),
    }
    options = _choices(prompt, lambda v: labels.get(v, str(v)))
    lines = _battle_lines(view, lang)
    tides = prompt.info.get("tides")
    if tides:
        lines.append(t("ctx.your_tides", lang, card=tides_label(tides, lang)))
    return _one_select(prompt, lang, ask=t("ask.blade", lang), lines=lines, options=options)


def _renly_knight(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = _choices(prompt, lambda v: area_label(v, lang) if v else t("choice.decline", lang))
    ask = t("ask.renly-knight", lang)
    lines = [*_battle_lines(view, lang), f"• {card_line('renly-baratheon', lang)}"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _cersei_order(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    orders = prompt.info.get("orders") or {}
    loser = prompt.info.get("loser")
    options = _choices(
        prompt,
        lambda v: (
            t("choice.order_in", lang, area=area_label(v, lang), order=token_label(orders.get(v, ""), lang))
            if v
            else t("choice.decline", lang)
        ),
    )
    ask = t("ask.cersei-order", lang, loser=house_name(loser, lang))
    lines = [*_battle_lines(view, lang), f"• {card_line('cersei-lannister', lang)}"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _patchface(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    opponent = prompt.info.get("opponent")
    options = _card_or_decline_choices(prompt, lang)
    ask = t("ask.patchface-discard", lang, opponent=house_name(opponent, lang))
    lines = [f"• {card_line(c, lang)}" for c in prompt.choices if c]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _lysa_keep(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", ""))
    options = _choices(prompt, lambda v: t(f"choice.lysa.{v}", lang, card=card_name(card, lang)))
    ask = t("ask.lysa-keep", lang, card=card_name(card, lang))
    lines = [*_battle_lines(view, lang), f"• {card_line(card, lang)}"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _robert_remove(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", ""))
    opponent = prompt.info.get("opponent")
    options = _card_or_decline_choices(prompt, lang)
    ask = t("ask.robert-remove", lang, opponent=house_name(opponent, lang))
    lines = [
        f"• {card_line(card, lang)}",
        t(
            "ctx.their_discards",
            lang,
            house=house_name(opponent, lang),
            cards=_cards_named(_discards(view, opponent or ""), lang),
        ),
    ]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


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
            t(
                "ctx.casualties.lost",
                lang,
                winner=house_name(info.get("winner"), lang),
                swords=info.get("swords", 0),
                fortifications=info.get("fortifications", 0),
                skulls=info.get("skulls", 0),
                count=count,
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


def _retreat(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    losses = info.get("losses") or {}
    units = info.get("units") or []

    def label(a: Any) -> str:
        lost = int(losses.get(a, 0))
        return area_label(a, lang) + (" — " + tn("ctx.retreat.loses", lost, lang) if lost else "")

    options = _choices(prompt, label)
    ask = t("ask.retreat", lang, area=area_label(info.get("area", ""), lang), units=units_text(units, lang))
    lines = [t("ctx.retreat", lang, units=units_text(units, lang), area=area_label(info.get("area", ""), lang))]
    if info.get("loser") and info["loser"] != prompt.house:
        lines.append(t("ctx.retreat.robb", lang, loser=house_name(info["loser"], lang)))
    if any(losses.values()):
        lines.append(t("ctx.retreat.supply", lang))
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options, key="area", selected=str(prompt.default))


def _port_capture(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    enemy = int(info.get("enemy_ships", 0))
    options = _choices(prompt, lambda v: tn("choice.ships", int(v), lang))
    ask = tn(
        "ask.port-capture",
        enemy,
        lang,
        port=area_label(info.get("port", ""), lang),
        area=area_label(info.get("area", ""), lang),
    )
    lines = [t("ctx.port-capture", lang)]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _pick_units(options: list[Choice], types: list[str]) -> list[str]:
    """The option values (``type:n``) matching a default list of unit types."""
    picked: list[str] = []
    for unit in types:
        match = next((o.value for o in options if o.value.split(":")[0] == unit and o.value not in picked), None)
        if match is not None:
            picked.append(match)
    return picked


# --- Westeros phase ---


def _westeros_choice(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", ""))
    options = _choices(prompt, lambda v: t(f"choice.{v}", lang), lambda v: t(f"choice.{v}.what", lang)[:100])
    lines = [f"**{westeros_name(card, lang)}**: {westeros_text(card, lang)}"]
    lines += [f"• {t(f'choice.{v}', lang)}: {t(f'choice.{v}.what', lang)}" for v in prompt.choices]
    ask = t("ask.westeros-choice", lang, card=westeros_name(card, lang))
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _unit_fields(prefix: str, units: dict[str, list[str]], chosen: dict[str, list[str]], lang: str) -> list[Field]:
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


def _reconcile(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    c = prompt.choices
    limits = ", ".join(str(n) for n in c.get("limits", []))
    line = t("decision.reconcile.help", lang, supply=c["supply"])
    armies = "; ".join(
        f"{area_label(a, lang)}: {units_text(types, lang)}"
        for a, types in sorted(c["armies"].items())
        if len(types) > 1
    )
    lines = [
        line,
        t("ctx.reconcile.limits", lang, limits=limits or "—"),
        t("ctx.reconcile.armies", lang, armies=armies or "—"),
    ]
    fields = _unit_fields("destroy", c["armies"], prompt.default["destroy"], lang)
    ask = t("ask.reconcile", lang, supply=c["supply"], limits=limits or "—")
    return Form(prompt.id, prompt.kind, t("decision.reconcile.title", lang), lines, fields, ask)


def _wildling_card_lines(prompt: Prompt, lang: str, outcome: str | None = None) -> list[str]:
    card = prompt.info.get("card") if prompt.info else None
    if not card:
        return []
    if outcome is None:
        return wildling_lines(card, lang)
    return [f"**{wildling_name(card, lang)}** — {t(f'wildling.{outcome}', lang)}: {wildling_text(card, outcome, lang)}"]


def _wildling_destroy(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    count = prompt.choices["count"]
    key = "ask.wildling-destroy.one_area" if prompt.choices.get("one_area") else "ask.wildling-destroy"
    ask = tn(key, count, lang)
    lines = [*_wildling_card_lines(prompt, lang), ask]
    fields = _unit_fields("destroy", prompt.choices["units"], prompt.default["destroy"], lang)
    return Form(prompt.id, prompt.kind, t("decision.wildling-destroy.title", lang), lines, fields, ask)


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


def _muster_actions(option: dict[str, Any]) -> tuple[list[str], list[str]]:
    """An area's possible actions as encoded strings, split by cost (1 point, 2 points)."""
    one: list[str] = []
    two: list[str] = []
    for unit in option["recruit"]:
        if unit == "ship":
            one += [f"s.{dest}" for dest in option["ship_to"]]
        else:
            (one if RECRUIT_COST.get(unit, 1) == 1 else two).append(f"r.{unit}")
    one += [f"u.{unit}" for unit in option["upgrade"]]
    return one, two


def _muster_plans(option: dict[str, Any], available: dict[str, int]) -> list[list[str]]:
    """Every plan an area's points allow, each once: nothing, one action, or two one-point actions."""
    one, two = _muster_actions(option)
    points = option["points"]

    def fits(plan: list[str]) -> bool:
        need: dict[str, int] = {}
        for a in plan:
            kind, arg = a.split(".", 1)
            unit = "ship" if kind == "s" else arg
            need[unit] = need.get(unit, 0) + 1
            if kind == "u":
                need["footman-upgrade"] = need.get("footman-upgrade", 0) + 1
        return all(n <= available.get(u, n) for u, n in need.items())

    plans: list[list[str]] = [[a] for a in one]
    if points >= 2:
        plans += [[a] for a in two]
        for i, a in enumerate(one):
            for b in one[i:]:
                plans.append([a, b])
    return [p for p in plans if fits(p)]


def _muster_action_label(action: str, lang: str) -> str:
    kind, arg = action.split(".", 1)
    if kind == "s":
        return t("decision.muster.ship", lang, to=area_label(arg, lang))
    if kind == "u":
        return t("decision.muster.upgrade", lang, unit=unit_label(arg, lang))
    return t("decision.muster.recruit", lang, unit=unit_label(arg, lang))


def _muster_plan_label(plan: list[str], lang: str) -> str:
    if len(plan) == 2 and plan[0] == plan[1]:
        return t("decision.muster.twice", lang, action=_muster_action_label(plan[0], lang))
    return " + ".join(_muster_action_label(a, lang) for a in plan)


def _muster(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    c = prompt.choices
    available = dict(c.get("available") or {})
    fields = []
    for area, option in sorted(c["areas"].items()):
        points = option["points"]
        label = tn("decision.muster.area", points, lang, area=area_label(area, lang))
        plans = _muster_plans(option, available)
        nothing = Choice(NONE, t("decision.muster.nothing", lang))
        if len(plans) + 1 <= MAX_OPTIONS:
            options = [nothing] + [Choice("+".join(p), _muster_plan_label(p, lang)) for p in plans]
            fields.append(Field(f"muster:{area}", label, options, selected=[NONE]))
        else:  # too many plans for one menu: one menu per point, each action once
            one, two = _muster_actions(option)
            singles = [nothing] + [Choice(a, _muster_action_label(a, lang)) for a in one + two]
            for i in range(points):
                point_label = t("decision.muster.point", lang, area=area_label(area, lang), n=i + 1, points=points)
                fields.append(Field(f"muster:{area}:{i}", point_label, singles[:MAX_OPTIONS], selected=[NONE]))
    lines = [t("decision.muster.help", lang)]
    lines.append(
        t(
            "ctx.muster.points",
            lang,
            areas=", ".join(
                tn("ctx.muster.area_points", o["points"], lang, area=area_label(a, lang))
                for a, o in sorted(c["areas"].items())
            ),
        )
    )
    if available:
        lines.append(
            t("ctx.muster.figures", lang, units=", ".join(units_count(u, n, lang) for u, n in available.items()))
        )
    if c.get("max_areas"):
        lines.append(tn("ctx.muster.max_areas", int(c["max_areas"]), lang))
    reason = str((prompt.info or {}).get("reason") or "")
    if view.get("phase") == "action":
        ask = t("ask.muster.consolidate", lang)
    else:
        source = wildling_name(reason, lang) if reason in data.wildling_cards() else westeros_name(reason, lang)
        ask = t("ask.muster", lang, card=source)
    return Form(prompt.id, prompt.kind, t("decision.muster.title", lang), lines, fields, ask)


def _bid(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    top = _bid_max(prompt)
    info = prompt.info or {}
    options = [Choice(str(n), tn("count.power", n, lang)) for n in range(0, min(top, MAX_OPTIONS - 1) + 1)]
    lines = [t("decision.bid.help", lang, power=top)]
    if info.get("purpose") == "wildlings":
        ask = t("ask.bid.wildlings", lang, strength=info.get("strength", "?"))
        lines.append(t("ctx.bid.wildlings", lang, strength=info.get("strength", "?")))
    else:
        track = str(info.get("track", ""))
        ask = t("ask.bid.track", lang, track=track_label(track, lang))
        order = (view.get("tracks") or {}).get(track)
        if order:
            lines.append(t("ctx.track_now", lang, track=track_label(track, lang), order=track_order(order, lang)))
        lines.append(t(f"ctx.bid.{track}", lang))
    lines.append(t("ctx.bid.secret", lang))
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options, key="bid", selected=str(prompt.default))


def _bid_max(prompt: Prompt) -> int:
    c = prompt.choices
    if isinstance(c, dict):
        return int(c.get("max", 0))
    return int(max(c, default=0))


def _tie_order(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    default = prompt.default
    fields = []
    for g, group in enumerate(prompt.choices["tied"]):
        ordered = [h for h in default if h in group]
        bid = prompt.choices["bids"][group[0]]
        for j in range(len(group)):
            options = [Choice(h, house_name(h, lang)) for h in group]
            label = t("decision.tie-order.place", lang, place=j + 1, bid=bid)
            fields.append(Field(f"tie:{g}:{j}", label, options, selected=[ordered[j]]))
    track = track_label(prompt.choices["track"], lang)
    bids = prompt.choices["bids"]
    lines = [
        t("decision.tie-order.help", lang, track=track),
        t(
            "ctx.bids",
            lang,
            bids=", ".join(f"{house_name(h, lang)} {n}" for h, n in sorted(bids.items(), key=lambda kv: -kv[1])),
        ),
    ]
    order = (view.get("tracks") or {}).get(prompt.choices["track"])
    if order:
        lines.append(t("ctx.track_before", lang, order=track_order(order, lang)))
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.tie-order.title", lang),
        lines,
        fields,
        t("ask.tie-order", lang, track=track),
    )


def _wildling_tie(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    role = info.get("role", "highest")
    outcome = "nights_watch_victory" if role == "highest" else "lowest_bidder"
    options = _choices(prompt, lambda v: house_name(v, lang))
    ask = t(f"ask.wildling-tie.{role}", lang, bid=info.get("bid", "?"))
    lines = _wildling_card_lines(prompt, lang, outcome)
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _preemptive_raid(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = _choices(prompt, lambda v: t(f"choice.{v}", lang))
    lines = _wildling_card_lines(prompt, lang, "lowest_bidder")
    return _one_select(prompt, lang, ask=t("ask.preemptive-raid", lang), lines=lines, options=options)


def _track(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    me = prompt.house
    tracks = view.get("tracks") or {}

    def label(v: Any) -> str:
        order = tracks.get(v) or []
        pos = order.index(me) + 1 if me in order else "?"
        return t("choice.track", lang, track=track_label(v, lang), position=pos)

    options = _choices(prompt, label)
    lines = [*_wildling_card_lines(prompt, lang)]
    lines += [f"{track_label(tr, lang)}: {track_order(tracks[tr], lang)}" for tr in data.TRACKS if tr in tracks]
    return _one_select(prompt, lang, ask=t("ask.track", lang), lines=lines, options=options)


def _discard_house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = _choices(prompt, lambda v: card_label(v, lang), lambda v: card_text(v, lang))
    lines = [*_wildling_card_lines(prompt, lang, "everyone_else"), *[f"• {card_line(c, lang)}" for c in prompt.choices]]
    return _one_select(prompt, lang, ask=t("ask.discard-house-card", lang), lines=lines, options=options)


def _return_house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = _card_or_decline_choices(prompt, lang)
    lines = [
        *_wildling_card_lines(prompt, lang, "nights_watch_victory"),
        *[f"• {card_line(c, lang)}" for c in prompt.choices if c],
    ]
    return _one_select(prompt, lang, ask=t("ask.return-house-card", lang), lines=lines, options=options)


# --- vassals (Mother of Dragons) ---


def _vassal_units(view: dict[str, Any], house: str, areas: list[str] | None = None) -> list[str]:
    """The unit types of ``house`` on the board (or in ``areas``), as the view shows them."""
    out: list[str] = []
    for area, a in (view.get("areas") or {}).items():
        if areas is None or area in areas:
            out += [u["type"] for u in a.get("units", []) if u.get("house") == house]
    return out


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
        units = _vassal_units(view, str(v))
        return (units_text(units, lang) if units else t("receipt.nothing", lang))[:100]

    options = _choices(prompt, label, describe)
    claims = info.get("claims") or {}
    lines = [
        t("ctx.vassal.what", lang),
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
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options, key="choice")


def _vassal_orders(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    c = prompt.choices
    info = prompt.info or {}
    vassal = house_name(prompt.house, lang)
    default = (prompt.default or {}).get("orders") or {}
    options = [Choice(tok, token_label(tok, lang)) for tok in c["tokens"]]
    options.append(Choice(NONE, t("decision.orders.no_order", lang)))
    fields = _area_order_fields(c["areas"], view, default, lang, options, [NONE])
    lines = [
        t("ctx.vassal.what", lang),
        t("ctx.vassal-orders.liege", lang, liege=house_name(info.get("liege"), lang), vassal=vassal),
        t("ctx.vassal-orders.rule", lang, max=c.get("max", 2)),
        t("ctx.vassal-orders.tokens", lang, tokens=", ".join(token_label(tok, lang) for tok in c["tokens"]) or "—"),
    ]
    restrictions = info.get("restrictions") or []
    if restrictions:
        lines.append(t("ctx.restrictions", lang, orders=", ".join(t(f"restriction.{r}", lang) for r in restrictions)))
    ask = tn("ask.vassal-orders", len(c["areas"]), lang, vassal=vassal, max=c.get("max", 2))
    return Form(prompt.id, prompt.kind, t("decision.vassal-orders.title", lang), lines, fields, ask)


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
    options = _choices(prompt, lambda v: labels.get(str(v), str(v)))
    ask = t("ask.bronn-pay", lang, owner=house_name(info.get("owner"), lang), card=name)
    lines = [
        *_battle_lines(view, lang),
        f"• {card_line(card, lang)}",
        t("ctx.power", lang, power=info.get("power", "?")),
    ]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _beric_unit(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    card = str(info.get("card", "vassal-beric-dondarrion"))
    where = str(info.get("units_in") or info.get("area", ""))
    units = _vassal_units(view, prompt.house, [where])
    options = _choices(
        prompt,
        lambda v: t("choice.beric", lang, unit=unit_label(str(v), lang)),
        lambda v: units_count(str(v), units.count(str(v)), lang) if str(v) in units else None,
    )
    ask = t("ask.beric-unit", lang, card=card_name(card, lang), vassal=house_name(prompt.house, lang))
    lines = [
        *_battle_lines(view, lang),
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
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _connington_knight(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info or {}
    card = str(info.get("card", "vassal-jon-connington"))
    home = info.get("home")
    options = _choices(
        prompt,
        lambda v: (
            t("choice.connington.area", lang, area=area_label(v, lang)) if v else t("choice.connington.none", lang)
        ),
        lambda v: (t("ctx.connington.home", lang) if v == home else t("ctx.connington.retreat", lang)) if v else None,
    )
    ask = t("ask.connington-knight", lang, card=card_name(card, lang), vassal=house_name(prompt.house, lang))
    lines = [*_battle_lines(view, lang), f"• {card_line(card, lang)}"]
    return _one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _generic(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """A prompt kind this module does not know yet, whose choices are a list of plain values: one select."""
    options = _choices(prompt, lambda v: _generic_label(v, lang))
    title = prompt_title(prompt.kind, lang)
    return _one_select(prompt, lang, ask=title, lines=[], options=options)


def _title(kind: str, lang: str) -> str:
    return (
        t(f"decision.{kind}.title", lang) if has(f"decision.{kind}.title", lang) else t("decision.unknown.title", lang)
    )


def _encode(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return NONE
    return str(value)


def _generic_label(value: Any, lang: str) -> str:
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


BUILDERS: dict[str, Callable[[Prompt, dict[str, Any], str], Form]] = {
    "orders": _orders,
    "raven": _raven,
    "raven-wildling": _raven_wildling,
    "raid": _raid,
    "march": _march,
    "consolidate": _consolidate,
    "support": _support,
    "support-refusal": _support_refusal,
    "house-card": _house_card,
    "tyrion-cancel": _tyrion_cancel,
    "doran-track": _doran_track,
    "aeron-swap": _aeron_swap,
    "mace-footman": _mace_footman,
    "queen-of-thorns": _queen_of_thorns,
    "blade": _blade,
    "renly-knight": _renly_knight,
    "cersei-order": _cersei_order,
    "casualties": _casualties,
    "retreat": _retreat,
    "port-capture": _port_capture,
    "patchface-discard": _patchface,
    "lysa-keep": _lysa_keep,
    "robert-remove": _robert_remove,
    "westeros-choice": _westeros_choice,
    "reconcile": _reconcile,
    "muster": _muster,
    "bid": _bid,
    "tie-order": _tie_order,
    "wildling-tie": _wildling_tie,
    "preemptive-raid": _preemptive_raid,
    "track": _track,
    "discard-house-card": _discard_house_card,
    "return-house-card": _return_house_card,
    "wildling-destroy": _wildling_destroy,
    "wildling-upgrade": _wildling_upgrade,
    "wildling-downgrade": _wildling_downgrade,
    "vassal-claim": _vassal_claim,
    "vassal-orders": _vassal_orders,
    "bronn-pay": _bronn_pay,
    "beric-unit": _beric_unit,
    "connington-knight": _connington_knight,
}


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


# ----- reading picks back -----


def to_answer(prompt: Prompt, picks: dict[str, list[str]]) -> Any:
    """The engine answer for the values picked in a form (the engine still validates it)."""
    kind = prompt.kind
    if kind == "orders":
        return {"orders": _picked_orders(prompt, picks)}
    if kind == "vassal-orders":
        return _vassal_orders_answer(prompt, picks)
    if kind == "raid":
        origin, _, target = _one(picks, "raid").partition(">")
        return {"from": origin, "target": target or None}
    if kind == "march":
        origin = _one(picks, "from")
        moves: dict[str, list[str]] = {}
        for key, values in picks.items():
            if key.startswith("unit:") and values and values[0] != STAY:
                moves.setdefault(values[0], []).append(key.split(":")[1])
        leave = picks.get("leave_power", ["no"])[0] == "yes"
        return {"from": origin, "moves": [{"to": d, "units": u} for d, u in moves.items()], "leave_power": leave}
    if kind == "bid":
        return int(_one(picks, "bid"))
    if kind == "house-card":
        return _one(picks, "card")
    if kind == "support":
        return _one(picks, "side")
    if kind == "casualties":
        return [v.split(":")[0] for v in picks.get("units", [])]
    if kind == "retreat":
        return _one(picks, "area")
    if kind == "raven":
        value = _one(picks, "raven")
        if value.startswith("swap:"):
            _, area, tok = value.split(":", 2)
            return {"action": "swap", "area": area, "token": tok}
        return {"action": value}
    if kind in ("reconcile", "wildling-destroy"):
        destroy: dict[str, list[str]] = {}
        for key, values in picks.items():
            if key.startswith("destroy:") and values:
                destroy[key.split(":", 1)[1]] = [v.split("|")[1] for v in values]
        return {"destroy": destroy}
    if kind in ("wildling-upgrade", "wildling-downgrade"):
        return {"areas": [v.split("|")[0] for v in picks.get("areas", [])]}
    if kind == "muster":
        plan: dict[str, list[dict[str, str]]] = {}
        for key in sorted(picks):
            values = picks[key]
            if not key.startswith("muster:") or not values or values[0] == NONE:
                continue
            area = key.split(":")[1]
            for action in values[0].split("+"):
                what, arg = action.split(".", 1)
                if what == "s":
                    plan.setdefault(area, []).append({"recruit": "ship", "to": arg})
                elif what == "u":
                    plan.setdefault(area, []).append({"upgrade": arg})
                else:
                    plan.setdefault(area, []).append({"recruit": arg})
        return plan
    if kind == "tie-order":
        bids = prompt.choices["bids"]
        order = sorted(bids, key=lambda h: -bids[h])
        for g, group in enumerate(prompt.choices["tied"]):
            chosen = [_one(picks, f"tie:{g}:{j}") for j in range(len(group))]
            if sorted(chosen) != sorted(group):
                raise FormError("tie-order-repeat")
            first = min(order.index(h) for h in group)
            for j, house in enumerate(chosen):
                order[first + j] = house
        return order
    value = _one(picks, "choice")
    for c in prompt.choices if isinstance(prompt.choices, list) else []:
        if _encode(c) == value:
            return c
    raise FormError("form-stale")


def _picked_orders(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str]:
    """The token picked for each of the prompt's areas, those left without an order out."""
    areas = prompt.choices["areas"]
    return {area: values[0] for area, values in picks.items() if values and values[0] != NONE and area in areas}


def _vassal_orders_answer(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """At most ``max`` orders, each token of the vassal's set once; the other areas stay without an order."""
    c = prompt.choices
    orders = _picked_orders(prompt, picks)
    if len(set(orders.values())) != len(orders):
        raise FormError("vassal-orders-repeat")
    if len(orders) > int(c.get("max", 2)):
        raise FormError("vassal-orders-max", allowed=int(c.get("max", 2)))
    return {"orders": orders}


def _one(picks: dict[str, list[str]], key: str) -> str:
    values = picks.get(key) or []
    if len(values) != 1:
        raise FormError("form-incomplete", field=key)
    return values[0]


def prompt_title(kind: str, lang: str) -> str:
    """The name of a kind of decision ("Orders", "Bid"...), as the form titles it."""
    return _title(kind, lang)


# ----- what was answered, in words -----


def _plan_text(plan: dict[str, list[dict[str, str]]], lang: str) -> str:
    return muster_plan_text(plan, lang, "decision.muster", plain_recruits=False) or t("receipt.muster.nothing", lang)


def _destroy_text(destroy: dict[str, list[str]], lang: str) -> str:
    return "; ".join(f"{area_label(a, lang)}: {units_text(u, lang)}" for a, u in sorted(destroy.items()) if u) or t(
        "receipt.nothing", lang
    )


def answer_text(kind: str, answer: Any, lang: str, *, limit: int = 600, prompt: Prompt | None = None) -> str:
    """An answer as a reader would say it: every area and order in full, a march unit by unit, a card by its name,
    a muster plan in words; never an id."""
    text = _answer_words(kind, answer, lang, prompt)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _answer_words(kind: str, answer: Any, lang: str, prompt: Prompt | None) -> str:
    if kind in ("orders", "vassal-orders") and isinstance(answer, dict) and isinstance(answer.get("orders"), dict):
        orders = answer["orders"]
        areas = list(prompt.choices["areas"]) if prompt is not None else sorted(orders)
        no_order = t("decision.orders.no_order", lang)
        text = "; ".join(
            f"{area_label(a, lang)}: {token_label(str(orders[a]), lang) if a in orders else no_order}" for a in areas
        )
        return text or t("receipt.nothing", lang)
    if kind == "vassal-claim" and isinstance(answer, str):
        if answer == "pass":
            return t("receipt.vassal-claim.pass", lang)
        return t("receipt.vassal-claim.claim", lang, vassal=house_name(answer, lang))
    if kind == "bronn-pay" and answer in ("pay", "decline"):
        card = "vassal-bronn"
        return t(f"choice.bronn.{answer}", lang, card=card_name(card, lang), strength=_card_strength(card))
    if kind == "beric-unit" and isinstance(answer, str):
        return t("choice.beric", lang, unit=unit_label(answer, lang))
    if kind == "connington-knight" and (answer is None or isinstance(answer, str)):
        if answer is None:
            return t("choice.connington.none", lang)
        return t("choice.connington.area", lang, area=area_label(answer, lang))
    if kind == "march" and isinstance(answer, dict) and "from" in answer:
        moves = [
            t(
                "receipt.move",
                lang,
                units=units_text(list(m.get("units", [])), lang),
                to=area_label(m.get("to", ""), lang),
            )
            for m in answer.get("moves", [])
        ]
        text = t(
            "receipt.march",
            lang,
            area=area_label(answer["from"], lang),
            moves="; ".join(moves) or t("receipt.march.none", lang),
        )
        if answer.get("leave_power"):
            text += " " + t("receipt.march.power", lang)
        return text
    if kind == "raid" and isinstance(answer, dict):
        origin = area_label(str(answer.get("from", "")), lang)
        if answer.get("target"):
            return t("decision.raid.target", lang, origin=origin, target=area_label(answer["target"], lang))
        return t("decision.raid.remove", lang, origin=origin)
    if kind == "raven" and isinstance(answer, dict):
        action = answer.get("action")
        if action == "swap":
            return t(
                "decision.raven.swap",
                lang,
                area=area_label(answer.get("area", ""), lang),
                order=token_label(answer.get("token", ""), lang),
            )
        return t("decision.raven.peek" if action == "peek" else "decision.raven.none", lang)
    if kind == "muster" and isinstance(answer, dict):
        return _plan_text(answer, lang)
    if kind in ("reconcile", "wildling-destroy") and isinstance(answer, dict):
        return _destroy_text(answer.get("destroy") or {}, lang)
    if kind in ("wildling-upgrade", "wildling-downgrade") and isinstance(answer, dict):
        return ", ".join(area_label(a, lang) for a in answer.get("areas", [])) or t("receipt.nothing", lang)
    if kind == "casualties" and isinstance(answer, list):
        return units_text([str(u) for u in answer], lang)
    if kind == "tie-order" and isinstance(answer, list):
        return track_order([str(h) for h in answer], lang)
    if kind == "bid" and isinstance(answer, int):
        return tn("count.power", answer, lang)
    if kind == "support" and isinstance(answer, str):
        return (
            t(f"receipt.support.{answer}", lang)
            if has(f"receipt.support.{answer}", lang)
            else _generic_label(answer, lang)
        )
    if kind == "support" and isinstance(answer, dict):
        return "; ".join(f"{area_label(a, lang)}: {t(f'receipt.support.{s}', lang)}" for a, s in sorted(answer.items()))
    if kind == "port-capture" and isinstance(answer, int):
        return tn("choice.ships", answer, lang)
    if kind in ("tyrion-cancel",) and isinstance(answer, str):
        return t(f"choice.tyrion.{answer}", lang)
    if kind == "mace-footman" and isinstance(answer, str):
        return t(f"choice.mace.{answer}", lang)
    if kind == "blade":
        return {True: t("choice.blade.yes", lang), False: t("choice.blade.no", lang)}.get(
            answer, t("choice.blade.redraw", lang)
        )
    if kind == "aeron-swap" and answer == "keep":
        return t("choice.aeron.keep", lang)
    if kind == "lysa-keep" and isinstance(answer, str):
        return t(f"choice.lysa.{answer}", lang, card=card_name("lysa-arryn-mod", lang))
    if isinstance(answer, dict | list):
        return json.dumps(answer, ensure_ascii=False, separators=(", ", ": "))
    return _generic_label(answer, lang)
