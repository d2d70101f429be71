"""How the game's things are named to a player, in the player's language: houses (with their colour mark),
areas, orders, units, tracks, house cards, Westeros and wildling cards, and strengths by source.

Every name comes from the data files (the Russian rulebook's names) or the catalogs; an id is never shown.
Areas and units are ``Declined``: plain strings in the nominative that give a template the case it names
(``{area:gen}``, ``{units:acc}``, ``{area:in}``; the forms are in ``data/cases.<lang>.json``).
The card texts are read through ``card_text``/``westeros_text``/``wildling_text`` here, so where the texts
come from can change in one place.
"""

from __future__ import annotations

import contextlib
from typing import Any

from engine import data
from engine.orders import ALL_TOKENS
from i18n import Declined, area_forms, has, language_of, t, tn, unit_forms

# A colour mark per house, close to the colour the map draws it in.
HOUSE_MARKS = {
    "stark": "⬜",
    "lannister": "🟥",
    "baratheon": "🟨",
    "greyjoy": "⬛",
    "tyrell": "🟩",
    "martell": "🟧",
    "arryn": "🟪",  # violet on the map (render/style.py)
    # Deep purple on the map: the squares nearest it (black, then Arryn's purple) are other houses' marks, so it takes
    # the purple circle (tests/app/test_house_marks.py).
    "targaryen": "🟣",
}

STRENGTH_SOURCES = ("units", "support", "march", "defense", "garrison", "neutral", "card", "blade", "tides")


def house_name(house: str | None, lang: str) -> str:
    """A house, or a side that is not a house (the neutral force, the Night's Watch, the wildlings)."""
    if house is None:
        return "—"
    if house == "neutral":
        return t("decision.neutral", lang)
    if has(f"house.{house}", lang):
        return t(f"house.{house}", lang)
    info = _all_houses().get(house)
    return info.names.get(language_of(lang)) or info.names["en"] if info else t("house.unknown", lang)


def house_mark(house: str | None, lang: str) -> str:
    """A house with its colour mark: ``🟥 Lannister``."""
    mark = HOUSE_MARKS.get(house or "")
    return f"{mark} {house_name(house, lang)}" if mark else house_name(house, lang)


def awaited_text(view: dict[str, Any], lang: str, *, marks: bool = True) -> str:
    """The houses a view awaits, a vassal with the liege who decides for it: ``🟩 Tyrell (⬛ Greyjoy)``."""
    lieges = view.get("vassals") or {}
    houses = view.get("houses") or {}

    def name(house: str, lang: str) -> str:  # an AI seat (app/ai.py) is marked as such: ``🟥 Lannister (🤖 AI)``
        named = house_mark(house, lang) if marks else house_name(house, lang)
        held = houses.get(house) or {}
        return (
            t("status.awaited_ai", lang, house=named) if held.get("autopilot") and held.get("seat") is None else named
        )

    return (
        ", ".join(
            t("status.awaited_vassal", lang, vassal=name(h, lang), liege=name(lieges[h], lang))
            if lieges.get(h)
            else name(h, lang)
            for h in view["awaiting"]
        )
        or "—"
    )


def _all_houses() -> dict[str, Any]:
    out = dict(data.houses())
    with contextlib.suppress(OSError, KeyError):  # the expansion's data is part of the repository
        out.update(data.houses("mother-of-dragons/houses.json"))
    return out


def area_label(area_id: str, lang: str) -> str:
    """An area's name, declinable: ``{area:in}`` in a Russian template reads «в Каменной Септе»."""
    area = data.all_areas().get(area_id)
    if area is None:
        return t("area.unknown", lang)
    return Declined(area.name(language_of(lang)), area_forms(area_id, lang))


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` in any of its forms: a declined name may stand in any case there."""
    forms = name.forms.values() if isinstance(name, Declined) else ()
    return any(form in text for form in (str(name), *forms))


def token_label(token_id: str, lang: str) -> str:
    return t(f"order.{token_id}", lang) if has(f"order.{token_id}", lang) else t("order.unknown", lang)


def order_type_label(order_type: str, lang: str) -> str:
    """An order's type without its bonus (``march`` → "March")."""
    return t(f"order-type.{order_type}", lang)


def is_star(token_id: str) -> bool:
    token = ALL_TOKENS.get(token_id)
    return bool(token and token.star)


def unit_label(unit_type: str, lang: str) -> str:
    """A unit type's name, declinable: ``{unit:acc}`` reads «пешего воина»."""
    return Declined(t(f"unit.{unit_type}", lang), unit_forms(unit_type, lang))


def units_count(unit_type: str, n: int, lang: str) -> str:
    """``2 footmen``, ``1 рыцарь``, ``5 кораблей``: a number of units of one type, in the right plural form, and
    declinable (``{units:acc}``: «1 рыцаря», «2 рыцарей»)."""
    return Declined(tn(f"units.{unit_type}", n, lang), unit_forms(unit_type, lang, n))


def units_text(types: list[str], lang: str) -> str:
    """A list of unit types as counted groups: ``2 footmen, 1 knight``, declinable as a whole."""
    counts: dict[str, int] = {}
    for u in types:
        counts[u] = counts.get(u, 0) + 1
    groups = [units_count(u, n, lang) for u, n in counts.items()]
    return joined(groups, ", ") if groups else t("units.none", lang)


def joined(names: list[str], sep: str) -> str:
    """Names joined with ``sep``, declinable when each of them is: every case is each name's form of it."""
    text = sep.join(names)
    if not names or not all(isinstance(n, Declined) for n in names):
        return text
    common = set.intersection(*(set(n.forms) for n in names if isinstance(n, Declined)))
    return Declined(text, {case: sep.join(format(n, case) for n in names) for case in common})


def track_label(track: str, lang: str) -> str:
    return t(f"track.{track}", lang)


def track_order(order: list[str], lang: str) -> str:
    """``1. Baratheon · 2. Lannister · 3. Stark``."""
    return " · ".join(f"{i}. {house_name(h, lang)}" for i, h in enumerate(order, start=1))


def card_name(card_id: str, lang: str) -> str:
    card = data.house_cards().get(card_id)
    if card is None:
        return t("card.unknown", lang)
    return card.names.get(language_of(lang)) or card.names["en"]


def card_label(card_id: str, lang: str) -> str:
    """A house card's name with its strength and icons: ``Tywin Lannister (4 ⚔)``."""
    card = data.house_cards().get(card_id)
    if card is None:
        return t("card.unknown", lang)
    icons = "⚔" * card.swords + "🛡" * card.fortifications
    return f"{card_name(card_id, lang)} ({card.strength}{' ' + icons if icons else ''})"


def card_text(card_id: str, lang: str) -> str:
    """A house card's full text in ``lang`` (English when the card has no text in it), or "no text ability"."""
    card = data.house_cards().get(card_id)
    text = card.text(language_of(lang)) if card is not None else None
    return text or t("decision.card.no_text", lang)


def card_line(card_id: str, lang: str) -> str:
    """``**Tywin Lannister** (4 ⚔): If you win this combat, gain two Power tokens.``"""
    return f"**{card_label(card_id, lang)}**: {card_text(card_id, lang)}"


def westeros_card(card_id: str) -> dict[str, Any] | None:
    for card in data.all_westeros_cards().values():
        if card["id"] == card_id:
            return dict(card)
    return None


def westeros_name(card_id: str, lang: str) -> str:
    card = westeros_card(card_id)
    if card is None:
        return t("card.unknown", lang)
    names: dict[str, str] = card["names"]
    return names.get(language_of(lang)) or names["en"]


def westeros_text(card_id: str, lang: str) -> str:
    card = westeros_card(card_id)
    return data.card_text(card, language_of(lang)) if card is not None else ""


def wildling_name(card_id: str, lang: str) -> str:
    card = data.wildling_cards().get(card_id)
    if card is None:
        return t("card.unknown", lang)
    names: dict[str, str] = card["names"]
    return names.get(language_of(lang)) or names["en"]


def wildling_text(card_id: str, outcome: str, lang: str) -> str:
    """One outcome of a wildling card (``nights_watch_victory``, ``lowest_bidder``, ``everyone_else``)."""
    card = data.wildling_cards().get(card_id)
    return data.card_text(card, language_of(lang), outcome) if card is not None else ""


def wildling_lines(card_id: str, lang: str) -> list[str]:
    """The card's name and its three outcomes, one line each."""
    lines = [f"**{wildling_name(card_id, lang)}**"]
    for outcome in data.WILDLING_OUTCOMES:
        lines.append(f"• {t(f'wildling.{outcome}', lang)}: {wildling_text(card_id, outcome, lang)}")
    return lines


def tides_label(card_id: str, lang: str) -> str:
    card = data.tides_cards().get(card_id)
    if card is None:
        return t("card.unknown", lang)
    icons = (
        "💀" * int(card.get("skulls", 0)) + "⚔" * int(card.get("swords", 0)) + "🛡" * int(card.get("fortifications", 0))
    )
    return t("tides.card", lang, strength=card.get("value", 0), icons=f" {icons}" if icons else "")


def minus(value: int) -> str:
    """A number as print sets it: a negative one with a true minus sign (−1), never a hyphen."""
    return f"\u2212{-value}" if value < 0 else str(value)


def strength_text(parts: dict[str, Any], lang: str) -> str:
    """Strength by source: ``units 6 + Defense 1 = 7``."""
    shown = [
        f"{t(f'strength.{k}', lang)} {minus(parts[k])}"
        for k in STRENGTH_SOURCES
        if isinstance(parts.get(k), int) and (parts[k] != 0 or k == "units")
    ]
    total = parts.get("total", sum(v for k, v in parts.items() if k in STRENGTH_SOURCES and isinstance(v, int)))
    return f"{' + '.join(shown)} = {minus(total)}" if shown else minus(total)


def muster_plan_text(plan: dict[str, list[dict[str, str]]], lang: str, keys: str, *, plain_recruits: bool) -> str:
    """A muster plan in words, area by area: ``keys`` names the catalog entries (``<keys>.upgrade``, ``.ship`` and,
    unless ``plain_recruits``, ``.recruit``); a receipt and the channel say it alike."""
    parts = []
    for area, actions in sorted(plan.items()):
        words = []
        for a in actions:
            if "upgrade" in a:
                words.append(t(f"{keys}.upgrade", lang, unit=unit_label(a["upgrade"], lang)))
            elif a.get("recruit") == "ship":
                words.append(t(f"{keys}.ship", lang, to=area_label(a.get("to", area), lang)))
            elif plain_recruits:
                words.append(unit_label(a.get("recruit", ""), lang))
            else:
                words.append(t(f"{keys}.recruit", lang, unit=unit_label(a.get("recruit", ""), lang)))
        parts.append(f"{area_label(area, lang)}: {', '.join(words)}")
    return "; ".join(parts)


def loan_name(loan: str, lang: str) -> str:
    """An Iron Bank loan card's name (``Customs Officer``, «Таможенный инспектор»)."""
    card = data.loan_cards().get(loan)
    if card is None:
        return t("card.unknown", lang)
    names: dict[str, str] = card["names"]
    return names.get(language_of(lang)) or names["en"]


def loan_text(loan: str, lang: str) -> str:
    """An Iron Bank loan card's text in ``lang`` (English when the card has none in it)."""
    card = data.loan_cards().get(loan)
    if card is None:
        return ""
    texts: dict[str, str] = card["texts"]
    return texts.get(language_of(lang)) or texts["en"]


def loan_line(loan: str, lang: str) -> str:
    """``**Customs Officer**: Take 10 Power tokens.``"""
    return f"**{loan_name(loan, lang)}**: {loan_text(loan, lang)}"


def development_label(token: str, lang: str) -> str:
    """A development token by its name (``barrel``, ``crown``, ``stronghold``: «бочка», «корона», «крепость»)."""
    return t(f"development.{token}", lang) if has(f"development.{token}", lang) else t("development.unknown", lang)
