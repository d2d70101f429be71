"""Plain-English one-line descriptions of public events, for logs and the demo.

The bot translates events through its own catalogs; this is the engine's reference wording.
"""

from __future__ import annotations

from typing import Any

from engine import data


def area_name(area_id: str | None) -> str:
    if area_id is None:
        return "nowhere"
    a = data.board().areas.get(area_id)
    return a.name("en") if a else area_id


def card_name(card_id: str | None) -> str:
    if card_id is None:
        return "no card"
    c = data.house_cards().get(card_id)
    return c.names["en"] if c else card_id


def describe_event(e: dict[str, Any]) -> str | None:
    kind = e["type"]
    if kind == "orders-revealed":
        return f"orders revealed ({len(e['orders'])} orders)"
    if kind == "raid":
        if e["target"] is None:
            return f"{e['house']} removes its raid in {area_name(e['area'])}"
        return (
            f"{e['house']} raids {e['victim']}'s {e['order']} in {area_name(e['target'])} from {area_name(e['area'])}"
        )
    if kind == "march":
        return f"{e['house']} marches {', '.join(e['units'])} from {area_name(e['origin'])} to {area_name(e['to'])}"
    if kind == "combat-started":
        return f"{e['attacker']} attacks {area_name(e['area'])} ({e['defender']}) from {area_name(e['origin'])}"
    if kind == "house-cards-revealed":
        return f"house cards: {card_name(e['attacker'])} vs {card_name(e['defender'])}"
    if kind == "combat-result":
        s = e["strength"]
        tie = " (tie broken by the Fiefdoms track)" if e.get("tie_broken_by_fiefdoms") else ""
        score = f"{s['attacker']['total']} vs {s['defender']['total']}"
        return f"battle of {area_name(e['area'])}: {score}, {e['winner']} wins{tie}"
    if kind == "neutral-attack":
        result = "takes it" if e["won"] else "falls short"
        where = area_name(e["area"])
        return f"{e['house']} attacks the neutral force in {where}: {e['strength']} vs {e['needed']}, {result}"
    if kind == "units-destroyed":
        return f"{e['house']} loses {', '.join(e['units'])} in {area_name(e['area'])} ({e['reason']})"
    if kind == "retreat":
        return f"{e['house']} retreats {', '.join(e['units'])} from {area_name(e['area'])} to {area_name(e['to'])}"
    if kind == "consolidate":
        return f"{e['house']} consolidates power in {area_name(e['area'])} (+{e['gained']})"
    if kind == "pillage":
        return f"{e['house']} pillages {e['victim']} (+{e['gained']}/-{e['lost']})"
    if kind == "game-over":
        return f"game over: {e['winner']} wins ({e['reason']})"
    if kind in ("round-started",):
        return f"round {e['round']} begins"
    if kind.startswith("westeros") or kind.startswith("wildling") or kind.startswith("bid"):
        details = ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")
        return f"{kind}: {details}"
    return None
