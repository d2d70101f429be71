"""The Westeros phase: a card's choice, reconciling armies to supply, mustering, bidding on the tracks and ordering
a tie."""

from __future__ import annotations

from typing import Any

from app.forms import (
    MAX_OPTIONS,
    NONE,
    Choice,
    Field,
    Form,
    FormError,
    choices_of,
    destroy_words,
    generic_words,
    one_pick,
    one_select,
    read_destroy,
    unit_fields,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import (
    area_label,
    house_name,
    muster_plan_text,
    track_label,
    track_order,
    unit_label,
    units_count,
    units_text,
    westeros_name,
    westeros_text,
    wildling_name,
)
from engine import Prompt, data
from engine.prompts import PromptKind
from i18n import t, tn


def _westeros_choice(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    card = str(prompt.info.get("card", ""))
    # Each option's description is what it does, cut at a word by the menu (cogs/forms.py), never mid-word here.
    options = choices_of(prompt, lambda v: t(f"choice.{v}", lang), lambda v: t(f"choice.{v}.what", lang))
    lines = [f"**{westeros_name(card, lang)}**: {westeros_text(card, lang)}"]
    lines += [f"• {t(f'choice.{v}', lang)}: {t(f'choice.{v}.what', lang)}" for v in prompt.choices]
    ask = t("ask.westeros-choice", lang, card=westeros_name(card, lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.WESTEROS_CHOICE, form=_westeros_choice, category=DeadlineCategory.OTHER))


# --- reconciling armies to supply ---


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
    fields = unit_fields("destroy", c["armies"], prompt.default["destroy"], lang)
    ask = t("ask.reconcile", lang, supply=c["supply"], limits=limits or "—")
    return Form(prompt.id, prompt.kind, t("decision.reconcile.title", lang), lines, fields, ask)


register(
    KindSpec(
        kind=PromptKind.RECONCILE,
        form=_reconcile,
        read=read_destroy,
        words=destroy_words,
        category=DeadlineCategory.OTHER,
    )
)


# --- mustering ---


def _muster_actions(option: dict[str, Any]) -> tuple[list[str], list[str]]:
    """An area's possible actions as encoded strings, split by cost (1 point, 2 points)."""
    one: list[str] = []
    two: list[str] = []
    kinds = data.unit_types()
    for unit in option["recruit"]:
        if unit == "ship":
            one += [f"s.{dest}" for dest in option["ship_to"]]
        else:
            kind = kinds.get(unit)
            (one if kind is None or kind.cost in (None, 1) else two).append(f"r.{unit}")
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


def _read_muster(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, list[dict[str, str]]]:
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


def _plan_text(plan: dict[str, list[dict[str, str]]], lang: str) -> str:
    return muster_plan_text(plan, lang, "decision.muster", plain_recruits=False) or t("receipt.muster.nothing", lang)


def _muster_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict):
        return _plan_text(answer, lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.MUSTER, form=_muster, read=_read_muster, words=_muster_words, category=DeadlineCategory.OTHER
    )
)


# --- bidding and ties ---


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
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, key="bid", selected=str(prompt.default))


def _bid_max(prompt: Prompt) -> int:
    c = prompt.choices
    if isinstance(c, dict):
        return int(c.get("max", 0))
    return int(max(c, default=0))


def _read_bid(prompt: Prompt, picks: dict[str, list[str]]) -> int:
    return int(one_pick(picks, "bid"))


def _bid_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, int):
        return tn("count.power", answer, lang)
    return generic_words(answer, lang, prompt)


register(KindSpec(kind=PromptKind.BID, form=_bid, read=_read_bid, words=_bid_words, category=DeadlineCategory.BIDS))


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


def _read_tie_order(prompt: Prompt, picks: dict[str, list[str]]) -> list[str]:
    """The track's new order: each tied group in the order picked, every house of the group once."""
    bids = prompt.choices["bids"]
    order = sorted(bids, key=lambda h: -bids[h])
    for g, group in enumerate(prompt.choices["tied"]):
        chosen = [one_pick(picks, f"tie:{g}:{j}") for j in range(len(group))]
        if sorted(chosen) != sorted(group):
            raise FormError("tie-order-repeat")
        first = min(order.index(h) for h in group)
        for j, house in enumerate(chosen):
            order[first + j] = house
    return order


def _tie_order_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, list):
        return track_order([str(h) for h in answer], lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.TIE_ORDER,
        form=_tie_order,
        read=_read_tie_order,
        words=_tie_order_words,
        category=DeadlineCategory.BIDS,
    )
)


# --- Targaryen's hand-out of its Clash of Kings bid (M-TARG-18) ---

GIVE = "give:"


def _handout_picks(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, int]:
    """Tokens picked for each receiver so far; a field not yet picked counts what the form preselected."""
    default: dict[str, int] = prompt.default
    out: dict[str, int] = {}
    for house in prompt.choices["houses"]:
        values = picks.get(GIVE + house)
        out[house] = int(values[0]) if values else int(default.get(house, 0))
    return out


def _handout_option_list(amount: int, lang: str) -> list[Choice]:
    return [
        Choice(str(n), "+" + tn("count.power", n, lang) if n else t("decision.bid-handout.none", lang))
        for n in range(amount + 1)
    ]


def _bid_handout(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    amount = int(prompt.choices["amount"])
    bids: dict[str, int] = prompt.choices["bids"]
    given = _handout_picks(prompt, {})
    fields = [
        Field(
            GIVE + house,
            t("decision.bid-handout.field", lang, house=house_name(house, lang), bid=bids.get(house, 0)),
            _handout_option_list(amount, lang),
            selected=[str(given[house])],
        )
        for house in prompt.choices["houses"]
    ]
    track = track_label(str(prompt.info.get("track", "")), lang)
    lines = [t("decision.bid-handout.help", lang, amount=tn("count.power", amount, lang), track=track)]
    return Form(
        prompt.id,
        prompt.kind,
        t("decision.bid-handout.title", lang),
        lines,
        fields,
        t("ask.bid-handout", lang, track=track),
    )


def _handout_live(prompt: Prompt, picks: dict[str, list[str]], lang: str) -> list[str]:
    """The bids as they stand with the tokens picked so far, and how many are still to hand out."""
    given = _handout_picks(prompt, picks)
    bids: dict[str, int] = prompt.choices["bids"]
    raised = {h: bids.get(h, 0) + n for h, n in given.items()}
    ranked = sorted(raised, key=lambda h: -raised[h])
    left = int(prompt.choices["amount"]) - sum(given.values())
    now = ", ".join(f"{house_name(h, lang)} {raised[h]}" + (f" (+{given[h]})" if given[h] else "") for h in ranked)
    lines = [t("decision.bid-handout.now", lang, bids=now)]
    if left > 0:
        lines.append(tn("decision.bid-handout.left", left, lang))
    elif left < 0:
        lines.append(tn("decision.bid-handout.over", -left, lang))
    return lines


def _read_bid_handout(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, int]:
    given = _handout_picks(prompt, picks)
    if sum(given.values()) != int(prompt.choices["amount"]):
        raise FormError("handout-total", amount=prompt.choices["amount"], given=sum(given.values()))
    return {h: n for h, n in given.items() if n}


def _bid_handout_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict) and all(isinstance(n, int) for n in answer.values()):
        return ", ".join(f"{house_name(str(h), lang)} +{n}" for h, n in answer.items() if n) or "—"
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.BID_HANDOUT,
        form=_bid_handout,
        read=_read_bid_handout,
        words=_bid_handout_words,
        live_lines=_handout_live,
        category=DeadlineCategory.BIDS,
    )
)
