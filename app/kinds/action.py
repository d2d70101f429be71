"""The action phase: raids, marches and consolidating power (or mustering in a stronghold instead, and which kind of
order a house resolves first when it holds an Iron Bank order too)."""

from __future__ import annotations

from typing import Any

from app.forms import (
    MAX_OPTIONS,
    STAY,
    Choice,
    Field,
    Form,
    FormError,
    choice_words,
    choices_of,
    generic_words,
    in_menus,
    one_pick,
    one_select,
    order_at,
    order_text,
)
from app.kinds.registry import DeadlineCategory, KindSpec, Repick, register
from app.labels import area_label, unit_label, units_text
from engine import Prompt
from engine.prompts import PromptKind
from i18n import t, tn

# --- raid ---


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
            options.append(Choice(value, label, order_at(view, target, lang) if target else None))
    lines = [
        t(
            "ctx.raid.from",
            lang,
            area=area_label(origin, lang),
            order=order_text(view["areas"][origin].get("order"), lang),
            targets=", ".join(f"{area_label(a, lang)} ({order_at(view, a, lang)})" for a in targets) or "—",
        )
        for origin, targets in sorted(prompt.choices.items())
    ]
    selected = f"{prompt.default['from']}>{prompt.default['target'] or ''}"
    return one_select(
        prompt, lang, ask=t("ask.raid", lang), lines=lines, options=options, key="raid", selected=selected
    )


def _read_raid(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str | None]:
    origin, _, target = one_pick(picks, "raid").partition(">")
    return {"from": origin, "target": target or None}


def _raid_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict):
        origin = area_label(str(answer.get("from", "")), lang)
        if answer.get("target"):
            return t("decision.raid.target", lang, origin=origin, target=area_label(answer["target"], lang))
        return t("decision.raid.remove", lang, origin=origin)
    return generic_words(answer, lang, prompt)


def _raid_only_answer(prompt: Prompt) -> tuple[Any] | None:
    """A single Raid order with no target: removing it is all the house can do (B-RAID-07), so nobody is asked."""
    if len(prompt.choices) == 1:
        origin, targets = next(iter(prompt.choices.items()))
        if not targets:
            return ({"from": origin, "target": None},)
    return None


register(
    KindSpec(
        kind=PromptKind.RAID,
        form=_raid,
        read=_read_raid,
        words=_raid_words,
        category=DeadlineCategory.OTHER,
        only_answer=_raid_only_answer,
    )
)


# --- march ---


def _march(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """One field for the origin, then one per unit of the first origin: where it goes (or stays)."""
    origins = sorted(prompt.choices)
    fields = [
        Field(
            "from",
            t("decision.march.from", lang),
            [Choice(a, area_label(a, lang), order_text(view["areas"][a].get("order"), lang)) for a in origins],
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
                order=order_text(view["areas"][a].get("order"), lang),
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
    """One menu per unit: stay, or where it goes. A unit with more destinations than a menu holds (a dragon flies to
    any land, M-TARG-14) gets several menus, the areas in alphabetical order split between them; it goes where one
    of them says."""
    option = prompt.choices[origin]
    fields = []
    stay = Choice(STAY, t("decision.march.stay", lang, area=area_label(origin, lang)))
    for unit_type, count in sorted(option["units"].items()):
        destinations = [Choice(d, area_label(d, lang)) for d in option["destinations"].get(unit_type, [])]
        chunks = in_menus(destinations, MAX_OPTIONS - 1)  # each menu also offers to stay
        for i in range(count):
            label = t(
                "decision.march.unit", lang, unit=unit_label(unit_type, lang), n=i + 1, area=area_label(origin, lang)
            )
            for c, chunk in enumerate(chunks):
                key = f"unit:{unit_type}:{i}" + (f":{c}" if c else "")
                if len(chunks) > 1:
                    label = t(
                        "decision.march.unit.range" if c == 0 else "decision.march.unit.more",
                        lang,
                        unit=unit_label(unit_type, lang),
                        n=i + 1,
                        area=area_label(origin, lang),
                        first=chunk[0].label,
                        last=chunk[-1].label,
                    )
                fields.append(Field(key, label, [stay, *chunk], selected=[STAY]))
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


def _march_options(prompt: Prompt, picks: dict[str, list[str]], key: str, lang: str) -> list[Choice] | None:
    """A Power token may be left only in an area every unit leaves (B-CONTROL-03): "yes" is offered only then, so the
    form does not offer what Submit would have refused (issue U). Every other field keeps its options."""
    if key != "leave_power":
        return None
    stays = any(_unit_picks(picks).get(unit) == [] for unit in _unit_picks(picks))
    kept = picks.get("leave_power", ["no"])[:1] == ["yes"]  # a pick already made stays shown, as a token's does
    if stays and not kept:  # "no" is all there is: the form's line says why, where a menu of one option stood
        return [Choice("no", t("decision.march.leave_power.stays", lang))]
    return [Choice("no", t("no", lang)), Choice("yes", t("yes", lang))]


def _unit_picks(picks: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each unit's destinations picked in its menus ("unit:knight:0" -> [area]); a unit that stays has none."""
    out: dict[str, list[str]] = {}
    for key, values in picks.items():
        if key.startswith("unit:"):
            unit = ":".join(key.split(":")[:3])
            out.setdefault(unit, []).extend(v for v in values[:1] if v != STAY)
    return out


def _read_march(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, Any]:
    origin = one_pick(picks, "from")
    moves: dict[str, list[str]] = {}
    for unit, destinations in _unit_picks(picks).items():
        if len(destinations) > 1:
            raise FormError("march-two-destinations")
        if destinations:
            moves.setdefault(destinations[0], []).append(unit.split(":")[1])
    leave = picks.get("leave_power", ["no"])[0] == "yes"
    return {"from": origin, "moves": [{"to": d, "units": u} for d, u in moves.items()], "leave_power": leave}


def _march_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    """The origin, then each destination with the units sent there; leaving a power token behind."""
    if isinstance(answer, dict) and "from" in answer:
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
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.MARCH,
        form=_march,
        read=_read_march,
        words=_march_words,
        category=DeadlineCategory.OTHER,
        repick=Repick("from", march_unit_fields),  # the units and their destinations are the origin's
        options=_march_options,
    )
)


# --- consolidate power ---


def _consolidate(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    area = prompt.info.get("area", "")
    power = int(prompt.info.get("power", 0))
    points = int(prompt.info.get("points", 1))
    labels = {
        "power": tn("choice.consolidate.power", power, lang),
        "muster": tn("choice.consolidate.muster", points, lang, area=area_label(area, lang)),
    }
    options = choices_of(prompt, lambda v: labels.get(str(v), str(v)))
    ask = t("ask.consolidate", lang, area=area_label(area, lang))
    lines = [t("ctx.power", lang, power=(view.get("power") or {}).get(prompt.house, "?"))]
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


register(KindSpec(kind=PromptKind.CONSOLIDATE, form=_consolidate, category=DeadlineCategory.OTHER))


def _consolidate_order(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """Which kind of order the house resolves on this turn of the Consolidate Power step: why it is asked, where its
    orders lie and its Power; one select, each choice with what it means."""
    info = prompt.info
    lines = [
        t("decision.consolidate-order.help", lang),
        t(
            "decision.consolidate-order.areas",
            lang,
            consolidate=", ".join(area_label(a, lang) for a in info.get("consolidate") or []) or "—",
            iron_bank=", ".join(area_label(a, lang) for a in info.get("iron_bank") or []) or "—",
        ),
        t("ctx.power", lang, power=info.get("power", "?")),
    ]
    options = choices_of(
        prompt,
        lambda v: t(f"choice.consolidate-order.{v}", lang),
        lambda v: t(f"choice.consolidate-order.{v}.what", lang),
    )
    return one_select(prompt, lang, ask=t("ask.consolidate-order", lang), lines=lines, options=options)


register(
    KindSpec(
        kind=PromptKind.CONSOLIDATE_ORDER,
        form=_consolidate_order,
        words=choice_words("choice.consolidate-order"),
        category=DeadlineCategory.OTHER,
    )
)
