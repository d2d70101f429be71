"""Turn an engine prompt into a form of choices a phone can answer, and the picks back into an answer.

Discord-free on purpose: the cog renders a ``Form`` as select menus and buttons (at most 25 options per
select, 4 selects per page plus a row of buttons) and hands the picked values back to ``to_answer``.
Values are short stable strings (area ids, token ids, card ids), never labels, so a translated label
can never change what is recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from app.i18n import t
from engine import Prompt, data

MAX_OPTIONS = 25
FIELDS_PER_PAGE = 4
STAY = "stay"


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

    def pages(self) -> list[list[Field]]:
        return [self.fields[i : i + FIELDS_PER_PAGE] for i in range(0, len(self.fields), FIELDS_PER_PAGE)] or [[]]


class FormError(ValueError):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


# ----- labels -----


def area_label(area_id: str, lang: str) -> str:
    return data.all_areas()[area_id].name(lang)


def token_label(token_id: str, lang: str) -> str:
    return t(f"order.{token_id}", lang)


def card_label(card_id: str, lang: str) -> str:
    card = data.house_cards()[card_id]
    icons = "⚔" * card.swords + "🛡" * card.fortifications
    return f"{card.names.get(lang) or card.names['en']} ({card.strength}{' ' + icons if icons else ''})"


def unit_label(unit_type: str, lang: str) -> str:
    return t(f"unit.{unit_type}", lang)


def units_summary(units: list[dict[str, Any]], lang: str) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u["type"]] = counts.get(u["type"], 0) + 1
    return ", ".join(f"{n} {unit_label(k, lang)}" for k, n in counts.items())


# ----- building forms -----


def build_form(prompt: Prompt, view: dict[str, Any], lang: str, draft: dict[str, list[str]] | None = None) -> Form:
    builder = BUILDERS.get(prompt.kind, _generic)
    form = builder(prompt, view, lang)
    for f in form.fields:
        if draft and f.key in draft:
            f.selected = list(draft[f.key])
    return form


def _orders(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    c = prompt.choices
    default = prompt.default["orders"]
    fields = []
    for area in c["areas"]:
        options = [Choice(tok, token_label(tok, lang)) for tok in c["tokens"]]
        units = units_summary(view["areas"][area]["units"], lang)
        fields.append(
            Field(
                key=area,
                label=f"{area_label(area, lang)} — {units}",
                options=options,
                selected=[default[area]] if area in default else [],
            )
        )
    lines = [t("decision.orders.help", lang, stars=c["stars"])]
    return Form(prompt.id, prompt.kind, t("decision.orders.title", lang), lines, fields)


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
            options.append(Choice(value, label))
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.raid.title", lang),
        [],
        [
            Field(
                "raid",
                t("decision.raid.title", lang),
                options[:MAX_OPTIONS],
                selected=[f"{prompt.default['from']}>{prompt.default['target'] or ''}"],
            )
        ],
    )


def _march(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """One field for the origin, then one per unit of the first origin: where it goes (or stays)."""
    origins = sorted(prompt.choices)
    fields = [
        Field(
            "from",
            t("decision.march.from", lang),
            [Choice(a, area_label(a, lang)) for a in origins],
            selected=[origins[0]],
        )
    ]
    lines = [t("decision.march.help", lang)]
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.march.title", lang),
        lines,
        fields + march_unit_fields(prompt, origins[0], lang),
    )


def march_unit_fields(prompt: Prompt, origin: str, lang: str) -> list[Field]:
    option = prompt.choices[origin]
    fields = []
    for unit_type, count in sorted(option["units"].items()):
        destinations = option["destinations"].get(unit_type, [])
        choices = [Choice(STAY, t("decision.march.stay", lang))] + [
            Choice(d, area_label(d, lang)) for d in destinations
        ]
        for i in range(count):
            label = f"{unit_label(unit_type, lang)} {i + 1}"
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


def _bid(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    top = _bid_max(prompt)
    options = [Choice(str(n), str(n)) for n in range(0, min(top, MAX_OPTIONS - 1) + 1)]
    lines = [t("decision.bid.help", lang, power=top)]
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.bid.title", lang),
        lines,
        [Field("bid", t("decision.bid.title", lang), options, selected=[str(prompt.default)])],
    )


def _bid_max(prompt: Prompt) -> int:
    c = prompt.choices
    if isinstance(c, dict):
        return int(c.get("max", 0))
    return int(max(c, default=0))


def _house_card(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = []
    for card_id in prompt.choices:
        card = data.house_cards()[card_id]
        text = card.text_en or t("decision.card.no_text", lang)
        options.append(Choice(card_id, card_label(card_id, lang), text[:100]))
    title = t("decision.card.title", lang)
    return Form(prompt.id, prompt.kind, title, [], [Field("card", title, options, selected=[prompt.default])])


def _support(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    info = prompt.info
    labels = {
        "attacker": t("decision.support.attacker", lang, house=t(f"house.{info['attacker']}", lang)),
        "defender": t("decision.support.defender", lang, house=_side_name(info["defender"], lang)),
        "none": t("decision.support.none", lang),
    }
    options = [Choice(side, labels[side]) for side in prompt.choices]
    line = t("decision.support.help", lang, area=area_label(info["area"], lang))
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.support.title", lang),
        [line],
        [Field("side", t("decision.support.title", lang), options, selected=["none"])],
    )


def _casualties(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    count = prompt.choices["count"]
    options = []
    for unit_type, n in prompt.choices["units"].items():
        options += [Choice(f"{unit_type}:{i}", f"{unit_label(unit_type, lang)} {i + 1}") for i in range(n)]
    line = t("decision.casualties.help", lang, count=count)
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.casualties.title", lang),
        [line],
        [
            Field(
                "units",
                line,
                options,
                min_values=count,
                max_values=count,
                selected=_pick_units(options, prompt.default),
            )
        ],
    )


def _area_list(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = [Choice(a, area_label(a, lang)) for a in prompt.choices]
    title = t(f"decision.{prompt.kind}.title", lang)
    return Form(
        prompt.id, prompt.kind, title, [], [Field("area", title, options[:MAX_OPTIONS], selected=[prompt.default])]
    )


def _pick_units(options: list[Choice], types: list[str]) -> list[str]:
    """The option values (``type:n``) matching a default list of unit types."""
    picked: list[str] = []
    for unit in types:
        match = next((o.value for o in options if o.value.split(":")[0] == unit and o.value not in picked), None)
        if match is not None:
            picked.append(match)
    return picked


def _raven(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    options = [Choice("none", t("decision.raven.none", lang))]
    if prompt.choices.get("peek"):
        options.append(Choice("peek", t("decision.raven.peek", lang)))
    for area, tokens in sorted(prompt.choices["swap"].items()):
        for tok in tokens:
            options.append(
                Choice(
                    f"swap:{area}:{tok}",
                    t("decision.raven.swap", lang, area=area_label(area, lang), order=token_label(tok, lang)),
                )
            )
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.raven.title", lang),
        [],
        [Field("raven", t("decision.raven.title", lang), options[:MAX_OPTIONS], selected=["none"])],
    )


def _generic(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """Any prompt whose choices are a list of plain values: one select."""
    choices = prompt.choices if isinstance(prompt.choices, list) else []
    options = [Choice(_encode(c), _generic_label(c, lang)) for c in choices]
    title = _title(prompt.kind, lang)
    return Form(
        prompt.id,
        prompt.kind,
        title,
        [],
        [Field("choice", title, options[:MAX_OPTIONS], selected=[_encode(prompt.default)])],
    )


def _side_name(house: str, lang: str) -> str:
    return t("decision.neutral", lang) if house == "neutral" else t(f"house.{house}", lang)


def _title(kind: str, lang: str) -> str:
    try:
        return t(f"decision.{kind}.title", lang)
    except KeyError:
        return kind


def _encode(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _generic_label(value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    text = str(value)
    if text in data.all_areas():
        return area_label(text, lang)
    if text in data.house_cards():
        return card_label(text, lang)
    try:
        return t(f"choice.{text}", lang)
    except KeyError:
        return text


def _unit_fields(prefix: str, units: dict[str, list[str]], chosen: dict[str, list[str]], lang: str) -> list[Field]:
    """One multi-select per area listing its units; values ``area|type|n``."""
    fields = []
    for area, types in sorted(units.items()):
        options = [Choice(f"{area}|{u}|{i}", f"{unit_label(u, lang)} {i + 1}") for i, u in enumerate(types)]
        picked: list[str] = []
        for u in chosen.get(area, []):
            picked.append(next(o.value for o in options if o.value.split("|")[1] == u and o.value not in picked))
        fields.append(Field(f"{prefix}:{area}", area_label(area, lang), options[:MAX_OPTIONS], 0, len(options), picked))
    return fields


def _reconcile(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    line = t("decision.reconcile.help", lang, supply=prompt.choices["supply"])
    fields = _unit_fields("destroy", prompt.choices["armies"], prompt.default["destroy"], lang)
    return Form(prompt.id, prompt.kind, t("decision.reconcile.title", lang), [line], fields)


def _wildling_destroy(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    line = t("decision.wildling-destroy.help", lang, count=prompt.choices["count"])
    fields = _unit_fields("destroy", prompt.choices["units"], prompt.default["destroy"], lang)
    return Form(prompt.id, prompt.kind, t("decision.wildling-destroy.title", lang), [line], fields)


def _pick_areas(prompt: Prompt, lang: str, counts: dict[str, int], low: int, high: int, unit: str) -> Form:
    options = [
        Choice(f"{area}|{i}", f"{area_label(area, lang)} — {unit_label(unit, lang)} {i + 1}")
        for area, n in sorted(counts.items())
        for i in range(n)
    ]
    picked: list[str] = []
    for area in prompt.default["areas"]:
        picked.append(next(o.value for o in options if o.value.startswith(area + "|") and o.value not in picked))
    title = t(f"decision.{prompt.kind}.title", lang)
    return Form(prompt.id, prompt.kind, title, [], [Field("areas", title, options[:MAX_OPTIONS], low, high, picked)])


def _wildling_upgrade(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    return _pick_areas(prompt, lang, prompt.choices["footmen"], 0, prompt.choices["max"], "footman")


def _wildling_downgrade(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    count = prompt.choices["count"]
    return _pick_areas(prompt, lang, prompt.choices["knights"], count, count, "knight")


def _muster(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    fields = []
    for area, option in sorted(prompt.choices["areas"].items()):
        points = option["points"]
        options: list[Choice] = []
        for i in range(points):
            for unit in option["recruit"]:
                if unit == "ship":
                    for dest in option["ship_to"]:
                        label = t("decision.muster.ship", lang, to=area_label(dest, lang))
                        options.append(Choice(f"ship|{dest}|{i}", label))
                else:
                    options.append(
                        Choice(f"recruit|{unit}|{i}", t("decision.muster.recruit", lang, unit=unit_label(unit, lang)))
                    )
            for unit in option["upgrade"]:
                options.append(
                    Choice(f"upgrade|{unit}|{i}", t("decision.muster.upgrade", lang, unit=unit_label(unit, lang)))
                )
        label = t("decision.muster.area", lang, area=area_label(area, lang), points=points)
        fields.append(Field(f"muster:{area}", label, options[:MAX_OPTIONS], 0, min(points, len(options)), []))
    return Form(prompt.id, prompt.kind, t("decision.muster.title", lang), [t("decision.muster.help", lang)], fields)


def _tie_order(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    default = prompt.default
    fields = []
    for g, group in enumerate(prompt.choices["tied"]):
        ordered = [h for h in default if h in group]
        bid = prompt.choices["bids"][group[0]]
        for j in range(len(group)):
            options = [Choice(h, t(f"house.{h}", lang)) for h in group]
            label = t("decision.tie-order.place", lang, place=j + 1, bid=bid)
            fields.append(Field(f"tie:{g}:{j}", label, options, selected=[ordered[j]]))
    track = t(f"track.{prompt.choices['track']}", lang)
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.tie-order.title", lang),
        [t("decision.tie-order.help", lang, track=track)],
        fields,
    )


BUILDERS = {
    "orders": _orders,
    "raid": _raid,
    "march": _march,
    "bid": _bid,
    "house-card": _house_card,
    "support": _support,
    "casualties": _casualties,
    "retreat": _area_list,
    "raven": _raven,
    "reconcile": _reconcile,
    "wildling-destroy": _wildling_destroy,
    "wildling-upgrade": _wildling_upgrade,
    "wildling-downgrade": _wildling_downgrade,
    "muster": _muster,
    "tie-order": _tie_order,
}


def orders_summary(prompt: Prompt, picks: dict[str, list[str]], lang: str) -> str:
    """'Tokens left: … · ★ 1/2' for the orders form, from what is picked so far."""
    used: dict[str, int] = {}
    for area in prompt.choices["areas"]:
        for token in picks.get(area, [])[:1]:
            used[token] = used.get(token, 0) + 1
    left = [
        f"{token_label(tok, lang)}{' ×' + str(n - used.get(tok, 0)) if n - used.get(tok, 0) > 1 else ''}"
        for tok, n in prompt.choices["tokens"].items()
        if n - used.get(tok, 0) > 0
    ]
    stars = sum(n for tok, n in used.items() if tok.endswith("*"))
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
        return {
            "orders": {area: values[0] for area, values in picks.items() if values and area in prompt.choices["areas"]}
        }
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
        for key, values in picks.items():
            if not key.startswith("muster:") or not values:
                continue
            actions = []
            for v in values:
                what, arg, _ = v.split("|")
                if what == "ship":
                    actions.append({"recruit": "ship", "to": arg})
                else:
                    actions.append({what: arg})
            plan[key.split(":", 1)[1]] = actions
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


def _one(picks: dict[str, list[str]], key: str) -> str:
    values = picks.get(key) or []
    if len(values) != 1:
        raise FormError("form-incomplete", field=key)
    return values[0]


def prompt_title(kind: str, lang: str) -> str:
    """The name of a kind of decision ("Orders", "Bid"...), as the form titles it."""
    return _title(kind, lang)


def answer_text(kind: str, answer: Any, lang: str, *, limit: int = 600) -> str:
    """An answer as a reader would say it: orders by area, a card by its name, anything else as plain values."""
    if kind == "orders" and isinstance(answer, dict) and isinstance(answer.get("orders"), dict):
        orders = answer["orders"]
        text = "; ".join(f"{area_label(a, lang)}: {token_label(str(orders[a]), lang)}" for a in sorted(orders))
    elif isinstance(answer, dict | list):
        text = json.dumps(answer, ensure_ascii=False, separators=(", ", ": "))
    else:
        text = _generic_label(answer, lang)
    return text if len(text) <= limit else text[: limit - 1] + "…"
