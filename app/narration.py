"""Channel narrative: one short line per public event, in the game's language.

Only public events are narrated: an event with ``private_to`` is never turned into channel text. Every
public event the engine emits has a line here or is deliberately quiet (``QUIET``); every value in a line is
a name from the catalogs or the data (``app.labels``), never an id. A line that cannot be built is skipped
(and logged) rather than shown raw.

``narrate_all`` puts a phase header (``— Round 3 · Action phase —``) before the first event of a new phase,
so the headers follow the events rather than the state the game has reached once they are over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.labels import (
    area_label,
    card_label,
    card_name,
    development_label,
    house_name,
    loan_name,
    muster_plan_text,
    strength_text,
    tides_label,
    token_label,
    track_label,
    track_order,
    unit_label,
    units_text,
    westeros_name,
    wildling_name,
)
from engine import data
from i18n import has, language_of, t, tn

__all__ = [
    "PHASE_OF_EVENT",
    "QUIET",
    "Item",
    "group_item",
    "group_line",
    "house_label",
    "narrate",
    "narrate_all",
    "phase_header",
    "units_label",
    "with_attack",
]

log = logging.getLogger("westeros.narration")

# Public events that say nothing a player needs in the channel (a house answered, the clean-up) — or whose
# news another line carries (the card of a Tides draw is in the combat result).
QUIET = {
    "orders-submitted",
    "house-card-chosen",
    "action-cleanup",
    "combat-ended",
    "bid-submitted",
    "vassal-cards-returned",
}

# The phase an event belongs to; events that happen in several phases (power gained, units destroyed, a
# track moved) have none and never open a header.
PHASE_OF_EVENT: dict[str, str] = {
    **dict.fromkeys(
        [
            "round-started",
            "westeros-cards",
            "wildling-threat",
            "winter-is-coming",
            "westeros-card",
            "nothing-happens",
            "restriction",
            "westeros-choice",
            "supply-adjusted",
            "supply-reconciled",
            "clash-of-kings",
            "bids-revealed",
            "track-set",
            "wildlings-attack",
            "wildlings-result",
            "wildling-card",
            "tie-broken",
            "wildling-bidder",
            "wildling-effect",
            "dragon-strength",
            "bid-handout",
            "loyalty-placed",
            "loyalty-reserve-empty",
            "deck4-declined",
            "deck4-nothing",
            "loyalty-moved",
            "loyalty-move-undone",
            "deck4-player-picked",
            "dragon-token-moved",
            "unit-placed",
            "bank-shifted",
            "interest-paid",
            "interest-units",
        ],
        "westeros",
    ),
    **dict.fromkeys(
        [
            "orders-revealed",
            "raven-declined",
            "raven-swapped",
            "raven-peeked",
            "house-vassalized",
            "vassal-claim-started",
            "vassal-passed",
            "vassal-claimed",
            "vassals-commanded",
        ],
        "planning",
    ),
    **dict.fromkeys(
        [
            "raid",
            "pillage",
            "march",
            "power-token-placed",
            "consolidate",
            "consolidate-muster",
            "vassal-muster",
            "combat-started",
            "raid-kept-as-support",
            "vassal-cards-drawn",
            "support-declared",
            "support-refused",
            "neutral-attack",
            "house-cards-revealed",
            "house-card-ability",
            "house-card-cancelled",
            "house-card-revealed",
            "house-card-swapped",
            "house-card-discarded",
            "house-cards-removed",
            "no-house-card",
            "ability-declined",
            "ability-prevented",
            "tides-drawn",
            "tides-redrawn",
            "tides-revealed",
            "blade-used",
            "combat-result",
            "garrison-removed",
            "retreat",
            "port-captured",
            "hand-returned",
            "attack-held",
            "unit-upgraded",
            "order-moved",
            "loan-taken",
            "loan-declined",
            "loan-unaffordable",
        ],
        "action",
    ),
}


def house_label(house: str | None, lang: str) -> str:
    """A house, or a side that is not a house (the neutral force, the Night's Watch, the wildlings)."""
    if house in ("nights-watch", "wildlings"):
        return t(f"house.{house}", lang)
    return house_name(house, lang)


def units_label(units: list[str], lang: str) -> str:
    return units_text(units, lang)


def phase_header(round_: int, phase: str, lang: str) -> str:
    return t("event.header", lang, round=round_, phase=t(f"phase.{phase}", lang))


HOUSE_FIELDS = (
    "house",
    "attacker",
    "defender",
    "victim",
    "winner",
    "receiver",
    "by",
    "supporter",
    "chosen",
    "loser",
    "tie_broken_by",
    "holder",
    "vassal",
)


def _params(event: dict[str, Any], lang: str) -> dict[str, Any]:
    """Every field named for a reader: houses, areas, units, orders, cards, tracks."""
    out: dict[str, Any] = {}
    for key, value in event.items():
        if key in HOUSE_FIELDS:
            out[key] = house_label(value, lang) if value is None or isinstance(value, str) else value
        elif key in ("area", "origin", "to", "target", "port") and isinstance(value, str):
            out[key] = area_label(value, lang)
        elif key == "units" and isinstance(value, list):
            out[key] = units_text(value, lang)
        elif key in ("old", "new", "order", "token") and isinstance(value, str):
            out[key] = token_label(value, lang)
        elif key == "track" and isinstance(value, str):
            out[key] = track_label(value, lang)
        elif key == "unit" and isinstance(value, str):
            out[key] = unit_label(value, lang)
        else:
            out[key] = value
    return out


def _cards(cards: list[Any], lang: str) -> str:
    return ", ".join(card_name(c, lang) for c in cards if c) or t("event.no-cards", lang)


def _areas(areas: list[str], lang: str) -> str:
    counts: dict[str, int] = {}
    for a in areas:
        counts[a] = counts.get(a, 0) + 1
    return ", ".join(area_label(a, lang) + (f" ×{n}" if n > 1 else "") for a, n in counts.items()) or "—"


def _bids(bids: dict[str, int], lang: str) -> str:
    ranked = sorted(bids.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{house_label(h, lang)} {n}" for h, n in ranked)


def _reason(key: str, reason: str | None, lang: str) -> str:
    if not reason:
        return ""
    if reason.startswith("wildlings:"):
        return t("reason.wildlings", lang, card=wildling_name(reason.split(":", 1)[1], lang))
    if has(f"{key}.{reason}", lang):
        return t(f"{key}.{reason}", lang)
    if reason in data.loan_cards():
        return t("reason.card", lang, card=loan_name(reason, lang))
    return t("reason.card", lang, card=card_name(reason, lang))


def _plan(plan: dict[str, list[dict[str, str]]], lang: str) -> str:
    return muster_plan_text(plan, lang, "event.mustered", plain_recruits=True)


# ----- the events whose line needs more than its fields named -----

Special = Callable[[dict[str, Any], dict[str, Any], str], str | None]


def _raid(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.raid" if e.get("target") else "event.raid-none", lang, **p)


def _house_cards_revealed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["attacker"] = card_label(e["attacker"], lang) if e.get("attacker") else t("event.no-card", lang)
    p["defender"] = card_label(e["defender"], lang) if e.get("defender") else t("event.no-card", lang)
    return t("event.house-cards-revealed", lang, **p)


def _combat_result(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    s = e["strength"]
    p["a"] = strength_text(s["attacker"], lang)
    p["d"] = strength_text(s["defender"], lang)
    p["tie"] = t("event.tie-fiefdoms", lang) if e.get("tie_broken_by_fiefdoms") else ""
    return t("event.combat-result", lang, **p)


def _neutral(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    units = e.get("units")
    if isinstance(units, list) and units and isinstance(e.get("origin"), str):
        # What became of the attackers (``with_attack`` copies them from the attack): they move in, or stay home.
        key = "event.neutral-won.units" if e["won"] else "event.neutral-lost.units"
        p["result"] = t(key, lang, units=units_text(units, lang), origin=area_label(e["origin"], lang))
    else:
        p["result"] = t("event.neutral-won" if e["won"] else "event.neutral-lost", lang)
    return t("event.neutral-attack", lang, **p)


def _bids_revealed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["bids"] = _bids(e["bids"], lang)
    p["total"] = sum(e["bids"].values())
    if e.get("purpose") == "wildlings":
        return t("event.bids-revealed.wildlings", lang, **p)
    return t("event.bids-revealed.track", lang, **p)


def _track_set(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["order"] = track_order(e["order"], lang)
    if e.get("tie_broken_by"):
        return t("event.track-set.tie", lang, **p)
    return t("event.track-set", lang, **p)


def _westeros(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    if isinstance(e.get("card"), str):
        p["card"] = westeros_name(e["card"], lang)
    if e["type"] == "westeros-choice":
        p["chosen"] = t(f"choice.{e['chosen']}", lang) if has(f"choice.{e['chosen']}", lang) else "—"
    if e["type"] == "restriction":
        p["restriction"] = t(f"restriction.{e['restriction']}", lang)
    return t(f"event.{e['type']}", lang, **p)


def _westeros_cards(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["cards"] = ", ".join(westeros_name(c, lang) for c in e["cards"])
    return t("event.westeros-cards", lang, **p)


def _winter(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["card"] = westeros_name(e["card"], lang)
    return t("event.winter-is-coming", lang, **p)


def _wildling_card(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["card"] = wildling_name(e["card"], lang)
    return t(f"event.wildling-card.{e.get('winner')}", lang, **p)


def _wildlings_attack(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["houses"] = ", ".join(house_label(h, lang) for h in e.get("houses", []))
    return t(f"event.wildlings-attack.{e.get('reason', 'threat')}", lang, **p)


def _wildlings_result(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["winner"] = house_label(e.get("winner"), lang)
    return t(f"event.wildlings-result.{e['winner']}", lang, **p)


def _wildling_bidder(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["card"] = wildling_name(e["card"], lang)
    return t(f"event.wildling-bidder.{e['role']}", lang, **p)


def _wildling_effect(e: dict[str, Any], p: dict[str, Any], lang: str) -> str | None:
    p["card"] = wildling_name(e["card"], lang)
    effect = e["effect"]
    if "cards" in e:
        p["cards"] = _cards(list(e["cards"]), lang)
    if effect == "units-destroyed":
        p["units"] = "; ".join(f"{area_label(a, lang)}: {units_text(u, lang)}" for a, u in e["units"].items())
    if "areas" in e:
        p["areas"] = _areas(list(e["areas"]), lang)
        p["count"] = len(e["areas"])
    if "lost" in e:
        p["lost"] = _areas(list(e["lost"]), lang) if e["lost"] else t("event.none", lang)
    if effect in ("bid-returned", "power-lost"):
        return tn(f"event.wildling-effect.{effect}", int(e.get("power", 0)), lang, **p)
    return t(f"event.wildling-effect.{effect}", lang, **p)


def _track_moved(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    if "by" in e:  # Doran Martell
        return t("event.track-moved.doran", lang, **p)
    p["order"] = track_order(e.get("order", []), lang)
    p["reason"] = wildling_name(str(e.get("reason", "")), lang)
    return t("event.track-moved", lang, **p)


def _units_destroyed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["reason"] = _reason("reason", e.get("reason"), lang)
    return t("event.units-destroyed", lang, **p)


def _order_removed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    reason = str(e.get("reason", ""))
    key = f"event.order-removed.{reason}"
    return t(key if has(key, lang) else "event.order-removed", lang, **p)


def _power_gained(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    reason = str(e.get("reason", ""))
    if reason == "game-of-thrones":
        p["crowns"] = tn("count.crowns", int(e.get("crowns", 0)), lang)
        p["ports"] = tn("count.ports", int(e.get("ports", 0)), lang)
        return tn("event.power-gained.game-of-thrones", int(e["gained"]), lang, **p)
    if reason == "vassal-victory":
        return tn("event.power-gained.vassal-victory", int(e["gained"]), lang, **p)
    p["card"] = card_name(reason, lang)
    return tn("event.power-gained.card", int(e["gained"]), lang, **p)


def _supply_adjusted(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    if e.get("reason"):
        p["reason"] = wildling_name(str(e["reason"]), lang)
        return t("event.supply-adjusted.card", lang, **p)
    return t("event.supply-adjusted", lang, **p)


def _supply_reconciled(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.supply-reconciled", lang, **p)


def _mustered(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    plan = e.get("plan") or {}
    if not plan:
        return t("event.mustered.nothing", lang, **p)
    p["plan"] = _plan(plan, lang)
    return t("event.mustered", lang, **p)


def _card_event(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    for key in ("card", "to"):
        if isinstance(e.get(key), str):
            p[key] = card_name(e[key], lang)
    if e["type"] == "house-card-discarded":
        # The text that made it go: Patchface makes the opponent discard, Viserys Targaryen discards its owner's own.
        p["reason"] = card_name(str(e.get("reason", "")), lang)
        own = e.get("by") == e.get("house")
        return t("event.house-card-discarded.own" if own else "event.house-card-discarded", lang, **p)
    if e["type"] == "house-card-ability":
        p["window"] = t(f"window.{e.get('window')}", lang) if has(f"window.{e.get('window')}", lang) else ""
    return t(f"event.{e['type']}", lang, **p)


def _hand_returned(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    if "cards" in e:
        p["cards"] = _cards(list(e["cards"]), lang)
        p["card"] = card_name(str(e.get("reason", "")), lang)
        return t("event.hand-returned.card", lang, **p)
    return t("event.hand-returned", lang, **p)


def _cards_removed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    removed: dict[str, list[Any]] = e["cards"]
    if list(removed) == [e.get("by")] and len(removed[str(e["by"])]) == 1:
        # A card whose own text sends it out of the game (Khal Drogo, Viserys, Illyrio Mopatis).
        return t("event.house-cards-removed.own", lang, card=card_name(removed[str(e["by"])][0], lang), **p)
    p["cards"] = "; ".join(f"{house_label(h, lang)}: {_cards(list(c), lang)}" for h, c in removed.items())
    return t("event.house-cards-removed", lang, **p)


def _tides(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["attacker"] = tides_label(e["attacker"], lang) if e.get("attacker") else "—"
    p["defender"] = tides_label(e["defender"], lang) if e.get("defender") else "—"
    return t(f"event.{e['type']}", lang, **p)


def _tides_redrawn(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.tides-redrawn", lang, **p)


def _blade(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.blade-used.redraw" if e.get("use") == "redraw" else "event.blade-used", lang, **p)


def _support(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t(f"event.support-declared.{e['side']}", lang, **p)


def _orders_revealed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return tn("event.orders-revealed", len(e["orders"]), lang)


def _pillage(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.pillage", lang, **p)


def _port_captured(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return tn("event.port-captured", int(e["ships"]), lang, **p)


def _consolidate(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    gained = int(e["gained"])
    if gained == 0:  # a sea area, an empty pool or a vassal: "+0 Power" read as a mistake (issue U)
        return t("event.consolidate.nothing", lang, **p)
    return tn("event.consolidate", gained, lang, **p)


def _lieges(pairs: dict[str, Any], lang: str) -> str:
    """``Tyrell → Stark, Martell → Stark``: each vassal with its liege."""
    return ", ".join(f"{house_label(v, lang)} → {house_label(str(liege), lang)}" for v, liege in pairs.items())


def _claim_started(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    sets = ", ".join(f"{house_label(h, lang)} {n}" for h, n in e["sets"].items())
    return t("event.vassal-claim-started", lang, sets=sets)


def _vassals_commanded(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.vassals-commanded", lang, commanders=_lieges(e["commanders"], lang))


def _vassal_cards_drawn(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["cards"] = _cards(e["cards"], lang)
    return t("event.vassal-cards-drawn", lang, **p)


def _power_given(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return tn("event.power-given", int(e["amount"]), lang, **p)


def _seat_changed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    if e.get("autopilot") and e.get("seat") is None:  # handed to the agent with no member: an AI seat (app/ai.py)
        return t("event.seat-changed.ai", lang, **p)
    return t("event.seat-changed.autopilot" if e.get("autopilot") else "event.seat-changed", lang, **p)


def _tie_broken(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["among"] = ", ".join(house_label(h, lang) for h in e.get("among", []))
    return t(f"event.tie-broken.{e.get('role', 'highest')}", lang, **p)


def _bid_handout(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["handout"] = ", ".join(f"{house_label(h, lang)} +{n}" for h, n in e["handout"].items())
    p["bids"] = _bids({h: n for h, n in e["bids"].items() if h != e["house"]}, lang)
    return t("event.bid-handout", lang, **p)


def _deck4(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    """A deck IV card's doings: its name, not its id."""
    p["card"] = westeros_name(str(e.get("card", "")), lang)
    if isinstance(e.get("player"), str):
        p["player"] = house_label(e["player"], lang)
    if e["type"] == "power-spent":
        return tn("event.power-spent", int(e["power"]), lang, **p)
    return t(f"event.{e['type']}", lang, **p)


def _loyalty_collected(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return tn("event.loyalty-collected", int(e["tokens"]), lang, **p)


def _threat(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    return t("event.wildling-threat", lang, **p)


# ----- the Iron Bank (issue Z) -----


def _slots(slots: list[Any], lang: str) -> str:
    """The bank's cards left to right, each with its slot's initial payment: ``Customs Officer (1), empty (4), …``."""
    payments = data.iron_bank()["slot_payments"]
    return ", ".join(
        t("event.bank.slot", lang, loan=loan_name(str(loan), lang), payment=p)
        if loan
        else t("event.bank.empty", lang, payment=p)
        for loan, p in zip(slots, payments, strict=False)
    )


def _bank_shifted(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    parts = [t("event.bank-shifted", lang)]
    if e.get("returned"):
        parts.append(t("event.bank-shifted.returned", lang, loan=loan_name(str(e["returned"]), lang)))
    if e.get("revealed"):
        parts.append(t("event.bank-shifted.revealed", lang, loan=loan_name(str(e["revealed"]), lang)))
    else:
        parts.append(t("event.bank-shifted.empty", lang))
    parts.append(t("event.bank-shifted.slots", lang, slots=_slots(list(e.get("slots") or []), lang)))
    return " ".join(parts)


def _interest_paid(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["loans"] = tn("count.loans", int(e["loans"]), lang)
    for key in ("due", "paid", "unpaid"):
        p[key] = tn("count.power", int(e.get(key, 0)), lang)
    if int(e.get("unpaid", 0)) > 0:
        return t("event.interest-paid.unpaid" if int(e.get("paid", 0)) else "event.interest-paid.nothing", lang, **p)
    return t("event.interest-paid", lang, **p)


def _interest_units(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["debtor"] = house_label(e["debtor"], lang)
    p["chooser"] = house_label(e["chooser"], lang)
    count = int(p.pop("count"))
    key = "event.interest-units.fiefdoms" if e.get("blade") is False else "event.interest-units"
    return tn(key, count, lang, **p)


def _braavos(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    previous = e.get("previous")
    p["previous"] = house_label(previous, lang) if previous else "—"
    if e.get("house") is None:
        return t("event.braavos-token.aside", lang, **p)
    return t("event.braavos-token.passed" if previous else "event.braavos-token", lang, **p)


def _loan_event(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    """A loan's doings: the card by its name, its numbers in the right plural forms."""
    kind = e["type"]
    if isinstance(e.get("loan"), str):
        p["loan"] = loan_name(e["loan"], lang)
    if kind == "loan-taken":
        p["slot"] = t(f"event.bank.from.{e['slot']}", lang)
        return tn("event.loan-taken", int(e["payment"]), lang, **p)
    if kind == "loan-unaffordable":
        return tn("event.loan-unaffordable", int(e["power"]), lang, **p)
    if kind == "loan-power":
        return tn("event.loan-power", int(e["gained"]), lang, **p)
    if kind == "loan-faceless":
        named = [unit for unit in ("knight", "footman") if e.get(unit)]
        for unit in named:
            p[unit] = area_label(e[unit], lang)
        if len(named) == 1:
            return t(f"event.loan-faceless.{named[0]}", lang, **p)
    if kind == "loans-returned":
        p["loans"] = ", ".join(f"«{loan_name(x, lang)}»" if lang == "ru" else loan_name(x, lang) for x in e["loans"])
        return tn("event.loans-returned", len(e["loans"]), lang, **p)
    if kind == "loan-spymaster":
        p["top"] = tn("count.cards", int(e["top"]), lang)
        p["bottom"] = tn("count.cards", int(e["bottom"]), lang)
    if kind == "loan-units-placed":
        placed: dict[str, list[str]] = e.get("placed") or {}
        if not any(placed.values()):
            return t("event.loan-units-placed.none", lang, **p)
        p["placed"] = "; ".join(f"{area_label(a, lang)}: {units_text(u, lang)}" for a, u in placed.items() if u)
    if kind == "loan-supply" and e.get("supply") == e.get("old"):
        return t("event.loan-supply.top", lang, **p)
    return t(f"event.{kind}", lang, **p)


def _developed(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    p["token"] = development_label(str(e["token"]), lang)
    return t("event.area-developed", lang, **p)


def _declined(e: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    symbol = str(e.get("symbol", ""))
    key = f"event.area-declined.{symbol}"
    return t(key if has(key, lang) else "event.area-declined", lang, **p)


SPECIAL: dict[str, Special] = {
    "raid": _raid,
    "house-cards-revealed": _house_cards_revealed,
    "combat-result": _combat_result,
    "neutral-attack": _neutral,
    "bids-revealed": _bids_revealed,
    "track-set": _track_set,
    "westeros-card": _westeros,
    "nothing-happens": _westeros,
    "restriction": _westeros,
    "westeros-choice": _westeros,
    "westeros-cards": _westeros_cards,
    "winter-is-coming": _winter,
    "wildling-card": _wildling_card,
    "wildlings-attack": _wildlings_attack,
    "wildlings-result": _wildlings_result,
    "wildling-bidder": _wildling_bidder,
    "wildling-effect": _wildling_effect,
    "track-moved": _track_moved,
    "units-destroyed": _units_destroyed,
    "order-removed": _order_removed,
    "power-gained": _power_gained,
    "supply-adjusted": _supply_adjusted,
    "supply-reconciled": _supply_reconciled,
    "mustered": _mustered,
    "house-card-cancelled": _card_event,
    "house-card-swapped": _card_event,
    "house-card-discarded": _card_event,
    "house-card-revealed": _card_event,
    "house-card-ability": _card_event,
    "ability-declined": _card_event,
    "ability-prevented": _card_event,
    "unit-upgraded": _card_event,
    "hand-returned": _hand_returned,
    "house-cards-removed": _cards_removed,
    "tides-drawn": _tides,
    "tides-revealed": _tides,
    "tides-redrawn": _tides_redrawn,
    "blade-used": _blade,
    "support-declared": _support,
    "orders-revealed": _orders_revealed,
    "pillage": _pillage,
    "port-captured": _port_captured,
    "consolidate": _consolidate,
    "power-given": _power_given,
    "vassal-claim-started": _claim_started,
    "vassals-commanded": _vassals_commanded,
    "vassal-cards-drawn": _vassal_cards_drawn,
    "seat-changed": _seat_changed,
    "tie-broken": _tie_broken,
    "wildling-threat": _threat,
    "bid-handout": _bid_handout,
    "loyalty-placed": _deck4,
    "loyalty-reserve-empty": _deck4,
    "deck4-declined": _deck4,
    "deck4-nothing": _deck4,
    "power-spent": _deck4,
    "loyalty-moved": _deck4,
    "loyalty-move-undone": _deck4,
    "deck4-player-picked": _deck4,
    "dragon-token-moved": _deck4,
    "unit-placed": _deck4,
    "loyalty-collected": _loyalty_collected,
    "bank-shifted": _bank_shifted,
    "interest-paid": _interest_paid,
    "interest-units": _interest_units,
    "braavos-token": _braavos,
    "loan-taken": _loan_event,
    "loan-declined": _loan_event,
    "loan-unaffordable": _loan_event,
    "loan-power": _loan_event,
    "loan-faceless": _loan_event,
    "loan-nothing": _loan_event,
    "loan-supply": _loan_event,
    "loan-spymaster": _loan_event,
    "loan-units-placed": _loan_event,
    "loans-returned": _loan_event,
    "area-developed": _developed,
    "area-declined": _declined,
}


def narrate(event: dict[str, Any], lang: str) -> str | None:
    if "private_to" in event or event["type"] in QUIET:
        return None
    kind = event["type"]
    lang = language_of(lang)
    params = _params(event, lang)
    special = SPECIAL.get(kind)
    if special is not None:
        return special(event, params, lang)
    key = f"event.{kind}"
    if not has(key, lang):
        return None
    return t(key, lang, **params)


@dataclass(frozen=True)
class Item:
    """One house's part of a line said once for several houses in a row (issue V): a result that changes nothing
    (mustering nothing, a wildling card that spares it) or a Supply card's level. Seven lines of "X musters nothing"
    read as noise; one line names the seven houses."""

    group: str  # consecutive items of one group (and one card) make one line: ``channel.group.<group>``
    text: str  # the house's part: ``Stark``, ``Stark 1 → 2``
    card: str = ""  # the card the line names (a wildling card)
    alone: str = ""  # the event's own line, said when no other item joins it
    same: bool = False  # a supply level that did not change: told after those that did


def group_item(event: dict[str, Any], lang: str) -> Item | None:
    """The event as an item of a grouped line, or None when it has a line of its own."""
    if "private_to" in event:
        return None
    kind = event.get("type")
    house = house_label(str(event["house"]), lang) if event.get("house") else ""
    if kind == "mustered" and not event.get("plan"):
        return Item("mustered-nothing", house, alone=t("event.mustered.nothing", lang, house=house))
    if kind == "supply-adjusted" and not event.get("reason"):
        old, new = event.get("old"), event.get("new")
        alone = narrate(event, lang) or ""
        if old == new:
            return Item("supply", t("channel.item.supply-same", lang, house=house, new=new), alone=alone, same=True)
        return Item("supply", t("channel.item.supply-changed", lang, house=house, old=old, new=new), alone=alone)
    spared = event.get("effect") == "nothing" or (event.get("effect") == "power-lost" and not event.get("power"))
    if kind == "wildling-effect" and spared:
        card = wildling_name(str(event["card"]), lang)
        alone = t("event.wildling-effect.nothing", lang, card=card, house=house)
        return Item("wildling-nothing", house, card=card, alone=alone)
    return None


def group_line(items: list[Item], lang: str) -> str:
    """The one line of a group's items (all of one group and card)."""
    if len(items) == 1 and items[0].alone:
        return items[0].alone
    group, card = items[0].group, items[0].card
    if group == "supply":
        changed = [i.text for i in items if not i.same]
        same = ", ".join(i.text for i in items if i.same)
        parts = [", ".join(changed)] if changed else []
        if same:
            parts.append(t("channel.supply.others-same" if changed else "channel.supply.all-same", lang, items=same))
        return t("channel.group.supply", lang, items="; ".join(parts))
    return t(f"channel.group.{group}", lang, items=", ".join(i.text for i in items), card=card)


def with_attack(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events, each attack on a neutral force given the units and origin of the attack that led to it (the
    engine tells them when the attack starts), so that its line can say what became of the attackers."""
    out: list[dict[str, Any]] = []
    attack: dict[str, Any] | None = None
    for e in events:
        if e.get("type") == "combat-started":
            attack = e
        elif e.get("type") == "neutral-attack" and attack is not None and attack.get("area") == e.get("area"):
            e = {**e, "units": attack.get("units"), "origin": attack.get("origin")}
        out.append(e)
    return out


def narrate_all(
    events: list[dict[str, Any]],
    lang: str,
    *,
    round_: int | None = None,
    phase: str | None = None,
) -> list[str]:
    """Lines for the channel. An event that cannot be phrased is skipped (and logged), never raised.

    With ``round_`` (the round the events happen in) a header opens each new phase: ``phase`` is the phase the
    channel last had a header for (None: open one at the first event that belongs to a phase)."""
    lines: list[str] = []
    current = phase
    pending: list[Item] = []  # items of one group waiting for the event that ends the group

    def flush() -> None:
        if pending:
            lines.append(group_line(pending, lang))
            pending.clear()

    for e in with_attack(events):
        if e.get("type") == "round-started":
            round_ = int(e["round"])
        event_phase = PHASE_OF_EVENT.get(str(e.get("type")))
        if (
            round_ is not None
            and event_phase is not None
            and "private_to" not in e
            and (event_phase != current or e.get("type") == "round-started")
        ):
            flush()
            lines.append(phase_header(round_, event_phase, lang))
            current = event_phase
        try:
            item = group_item(e, lang)
            line = None if item is not None else narrate(e, lang)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            log.exception("could not narrate %s", e.get("type"))
            continue
        if item is not None:
            if pending and (pending[0].group, pending[0].card) != (item.group, item.card):
                flush()
            pending.append(item)
        elif line:
            flush()
            lines.append(line)
    flush()
    return lines


def _said(event: dict[str, Any], lang: str) -> tuple[Item | None, str | None]:
    """The event as an item of a grouped line, or its own line (both None: it says nothing)."""
    try:
        item = group_item(event, lang)
        return item, None if item is not None else narrate(event, lang)
    except (KeyError, ValueError, TypeError, IndexError, AttributeError):
        return None, None


def trailing_items(events: list[dict[str, Any]], lang: str) -> list[Item] | None:
    """The items of the grouped line the events' lines end with ([]: they end with a line of its own; None: they say
    nothing at all). A next step's items of the same group continue that line (``continuing``)."""
    items: list[Item] = []
    said = False
    for event in reversed(events):
        item, line = _said(event, lang)
        if item is None and not line:
            continue
        said = True
        if item is None or (items and (items[0].group, items[0].card) != (item.group, item.card)):
            break
        items.insert(0, item)
    return items if said else None


def continuing(carry: list[Item], events: list[dict[str, Any]], lang: str) -> tuple[list[Item], int]:
    """The items the events begin with that continue ``carry``'s line (one group, one card), and how many events they
    are: the musters of one house after another, each its own step, make one line in a log told step by step."""
    items: list[Item] = []
    for event in events:
        item, _ = _said(event, lang)
        if item is None or not carry or (item.group, item.card) != (carry[0].group, carry[0].card):
            break
        items.append(item)
    return items, len(items)


def last_phase(events: list[dict[str, Any]], phase: str | None) -> str | None:
    """The phase of the last event that belongs to one (else ``phase``)."""
    for e in reversed(events):
        if "private_to" not in e and str(e.get("type")) in PHASE_OF_EVENT:
            return PHASE_OF_EVENT[str(e["type"])]
    return phase
