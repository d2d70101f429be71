"""Channel narrative: one short line per public event, in the game's language.

Only public events are narrated: an event with ``private_to`` is never turned into channel text. Events
without a catalog entry are skipped rather than shown raw.
"""

from __future__ import annotations

import logging
from typing import Any

from app.decisions import area_label, card_label, token_label, unit_label
from app.i18n import catalog, language_of, t

log = logging.getLogger("westeros.narration")

QUIET = {"orders-submitted", "house-card-chosen", "action-cleanup", "combat-ended"}


HOUSE_FIELDS = ("house", "attacker", "defender", "victim", "winner", "receiver")


def house_label(house: str | None, lang: str) -> str:
    """A house, or a side that is not a house (the neutral force, the Night's Watch, the wildlings)."""
    if house is None:
        return "—"
    if house == "neutral":
        return t("decision.neutral", lang)
    if catalog(language_of(lang)).get(f"house.{house}") is None and catalog("en").get(f"house.{house}") is None:
        return house
    return t(f"house.{house}", lang)


def units_label(units: list[str], lang: str) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    return ", ".join(f"{n}× {unit_label(k, lang)}" if n > 1 else unit_label(k, lang) for k, n in counts.items())


def _params(event: dict[str, Any], lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in event.items():
        if key in ("house", "attacker", "defender", "victim", "winner", "receiver") and (
            value is None or isinstance(value, str)
        ):
            out[key] = house_label(value, lang)
        elif key in ("area", "origin", "to", "target") and isinstance(value, str):
            out[key] = area_label(value, lang)
        elif key == "units" and isinstance(value, list):
            out[key] = units_label(value, lang)
        elif key in ("old", "new", "order") and isinstance(value, str):
            out[key] = token_label(value, lang)
        else:
            out[key] = value
    return out


def narrate(event: dict[str, Any], lang: str) -> str | None:
    if "private_to" in event or event["type"] in QUIET:
        return None
    kind = event["type"]
    lang = language_of(lang)
    params = _params(event, lang)
    if kind == "raid" and event.get("target") is None:
        kind = "raid-none"
    if kind == "house-cards-revealed":
        params["attacker"] = card_label(event["attacker"], lang) if event.get("attacker") else "—"
        params["defender"] = card_label(event["defender"], lang) if event.get("defender") else "—"
    if kind == "combat-result":
        s = event["strength"]
        params["a"] = s["attacker"]["total"]
        params["d"] = s["defender"]["total"]
        params["tie"] = t("event.tie-fiefdoms", lang) if event.get("tie_broken_by_fiefdoms") else ""
    if kind == "orders-revealed":
        params["count"] = len(event["orders"])
    if kind == "neutral-attack":
        params["result"] = t("event.neutral-won" if event["won"] else "event.neutral-lost", lang)
    if kind == "bids-revealed":
        ranked = sorted(event["bids"].items(), key=lambda kv: -kv[1])
        params["bids"] = ", ".join(f"{house_label(h, lang)} {n}" for h, n in ranked)
        params["total"] = sum(event["bids"].values())
    if kind in ("westeros-card", "nothing-happens", "restriction", "westeros-choice"):
        card = event.get("card")
        params["card"] = _westeros_card(card, lang) if isinstance(card, str) else card
    if kind == "wildling-card":
        params["card"] = _wildling_card(event["card"], lang)
    if kind in ("house-card-cancelled", "house-card-swapped", "house-card-discarded", "house-card-revealed"):
        for key in ("card", "to"):
            if isinstance(event.get(key), str):
                params[key] = card_label(event[key], lang)
    if kind == "track-moved":
        params["track"] = t(f"track.{event['track']}", lang)
    if kind == "units-destroyed":
        params["reason"] = (
            t(f"reason.{event['reason']}", lang) if catalog(lang).get(f"reason.{event['reason']}") else ""
        )
    key = f"event.{kind}"
    if catalog(lang).get(key) is None and catalog("en").get(key) is None:
        return None
    try:
        return t(key, lang, **params)
    except (KeyError, IndexError):
        return None


def _westeros_card(card_id: str, lang: str) -> str:
    from engine import data

    for card in data.westeros_cards().values():
        if card["id"] == card_id:
            names: dict[str, str] = card["names"]
            return names.get(language_of(lang)) or names["en"]
    return card_id


def _wildling_card(card_id: str, lang: str) -> str:
    from engine import data

    card = data.wildling_cards().get(card_id)
    if card is None:
        return card_id
    names: dict[str, str] = card["names"]
    return names.get(language_of(lang)) or names["en"]


def narrate_all(events: list[dict[str, Any]], lang: str) -> list[str]:
    """Lines for the channel. An event that cannot be phrased is skipped (and logged), never raised."""
    lines = []
    for e in events:
        try:
            line = narrate(e, lang)
        except (KeyError, ValueError, TypeError, IndexError):
            log.exception("could not narrate %s", e.get("type"))
            continue
        if line:
            lines.append(line)
    return lines
