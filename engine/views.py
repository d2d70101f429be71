"""Public and private views: the only way game information leaves the engine.

The public view holds what every player at the table can see. A house's private view adds that
house's own secrets: its orders before the reveal, its bid, its chosen house card, the wildling card
it looked at with the Raven. Nothing in a view ever comes from another house's secrets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.combat.frame import SIDES, combat, house_of
from engine.combat.strength import combat_units, total_strength
from engine.orders import token
from engine.rulesets import ruleset
from engine.state import GameState
from engine.steps.loyalty import reserve as loyalty_reserve

if TYPE_CHECKING:
    from engine.game import Game


def _order_view(house: str, token_id: str) -> dict[str, Any]:
    t = token(token_id)
    view = {"house": house, "type": t.type, "star": t.star, "bonus": t.bonus, "token": token_id}
    if t.kind == "sea":  # Mother of Dragons' sea orders (the key is absent from every other order)
        view["sea"] = True
    return view


def _bank_view(s: GameState) -> dict[str, Any]:
    """The Iron Bank, all public: the cards in its slots left to right with their initial payments (before Braavos's
    discount), how many loans are left in the deck, the loans each house took (each was face up in the bank when
    taken), the interest each pays at the next Westeros phase, Braavos's holder, and the development and decline
    tokens on the board."""
    conf = data.iron_bank()
    loans = {h: list(ls) for h, ls in s.bank["loans"].items() if ls}
    return {
        "slots": [{"loan": loan, "payment": p} for loan, p in zip(s.bank["slots"], conf["slot_payments"], strict=True)],
        "deck": len(s.bank["deck"]),
        "loans": loans,
        "interest": {h: len(ls) * int(conf["interest_per_loan"]) for h, ls in loans.items()},
        "braavos": s.bank["braavos"],
        "braavos_discount": int(conf["braavos_discount"]),
        "developed": {a: dict(ts) for a, ts in s.bank["developed"].items()},
        "declined": {a: list(xs) for a, xs in s.bank["declined"].items()},
    }


def build_view(g: Game, viewer: str | None) -> dict[str, Any]:
    s = g.s
    if viewer is not None and viewer not in s.players:
        raise ValueError(f"{viewer!r} is not a house in this game")
    top = s.stack[-1] if s.stack else None
    bidding = rules.bid_open(s)
    control = rules.control_map(s)
    areas: dict[str, Any] = {}
    for a in rules.board(s).areas.values():
        units = s.units.get(a.id, [])
        order = s.orders.get(a.id)
        neutral = s.neutral.get(a.id, None) if a.id in s.neutral else None
        entry: dict[str, Any] = {
            "controller": control[a.id],
            "units": [{"house": u.house, "type": u.type, "routed": u.routed} for u in units],
            "order": None,
            "power_token": s.power_tokens.get(a.id),
            "garrison": s.garrisons.get(a.id),
            "neutral": ("impassable" if a.id in s.neutral and neutral is None else neutral),
        }
        if order is not None:
            if s.orders_revealed or order.house == viewer:
                entry["order"] = _order_view(order.house, order.token)
            else:
                entry["order"] = {"house": order.house, "hidden": True}
        areas[a.id] = entry
    # Orders being assigned live in the planning frame until the reveal: only their owner sees them.
    if top is not None and top["type"] == "planning" and viewer is not None:
        for area, token_id in top.get("answers", {}).get(viewer, {}).items():
            areas[area]["order"] = _order_view(viewer, token_id)
    if top is not None and top["type"] == "planning":
        for house, orders in top.get("answers", {}).items():
            if house != viewer:
                for area in orders:
                    areas[area]["order"] = {"house": house, "hidden": True}
    houses: dict[str, Any] = {}
    for h in s.players:
        hs = s.houses[h]
        entry = {
            "hand": sorted(hs.hand),
            "discards": list(hs.discards),
            "stars_allowed": rules.stars_allowed(s, h),
            "seat": hs.seat,
            "autopilot": hs.autopilot,
        }
        if h == viewer and hs.raven_peek:
            entry["raven_peek"] = hs.raven_peek
        houses[h] = entry
    view: dict[str, Any] = {
        "viewer": viewer,
        "version": s.version,
        "round": s.round,
        "phase": s.phase,
        "step": _step_name(g),
        "players": rules.turn_order(s),
        "areas": areas,
        "tracks": {t: list(hs) for t, hs in s.tracks.items()},
        "dominance": {
            "iron_throne": {"house": rules.holder(s, "iron_throne"), "used": False},
            "valyrian_steel_blade": {"house": rules.holder(s, "fiefdoms"), "used": s.blade_used},
            "messenger_raven": {"house": rules.holder(s, "kings_court"), "used": s.raven_used},
        },
        "supply": {h: s.houses[h].supply for h in s.players},
        "victory": rules.victory_points(s, control),
        "power": {h: s.houses[h].power for h in s.players},
        "pool": {h: rules.power_in_pool(s, h) for h in s.players},
        "wildling_threat": s.wildling_threat,
        "westeros_cards": list(s.westeros_drawn),
        "restrictions": list(s.restrictions),
        "houses": houses,
        "battle": _battle_view(g, viewer),
        "awaiting": g.awaiting(),
        "commanders": {h: rules.commander(s, h) for h in s.players},  # whose player decides for each house
        "vassals": dict(s.vassals),  # Mother of Dragons: each vassal's liege (null until first claimed)
        "leaving": list(s.leaving),  # player houses that become vassals as the next round starts
        "winner": s.winner,
        "options": {
            "tides_of_battle": bool(s.options.get("tides_of_battle")),
            "ruleset": ruleset(s).name,
            "board": ruleset(s).board_name(s),
        },
    }
    if s.targaryen:
        # Mother of Dragons with Targaryen (public, printed on the Essos board): every dragon's strength, the rounds
        # whose space still holds a strength token, the loyalty points Targaryen has collected, the loyalty tokens
        # on the board (area -> count) and those left in its reserve.
        view["targaryen"] = {
            "dragon_strength": s.targaryen["dragon_strength"],
            "dragon_rounds": list(s.targaryen["dragon_rounds"]),
            "loyalty": s.targaryen["loyalty"],
            "loyalty_tokens": dict(s.targaryen.get("loyalty_tokens", {})),
            "loyalty_reserve": loyalty_reserve(s),
        }
        view["options"]["targaryen_cards"] = s.options.get("targaryen_cards")
    if s.bank:
        view["bank"] = _bank_view(s)
    if bidding and top is not None:
        # B-HIDDEN-02/03: available power is hidden while a bid is open.
        view["power"] = {h: (s.houses[h].power if h == viewer else None) for h in s.players}
        # What every house announced before hiding its tokens (B-HIDDEN-02): public, unlike the Power left now.
        view["power_announced"] = _announced(s)
        # The pool would give the hidden power away (tokens on the board are public).
        view["pool"] = {h: (view["pool"][h] if h == viewer else None) for h in s.players}
    if viewer is not None:
        prompt = g.prompt_for(viewer)
        view["prompt"] = prompt.to_dict() if prompt else None
    return view


def _announced(s: GameState) -> dict[str, int | None]:
    """The totals the open bidding round started from (None for a game saved before they were kept)."""
    frame = next((f for f in s.stack if f.get("type") in ("clash", "bidding") and "announced" in f), None)
    announced = frame["announced"] if frame is not None else {}
    return {h: announced.get(h) for h in s.players}


def _step_name(g: Game) -> str:
    s = g.s
    if not s.stack:
        return "ended" if s.phase == "ended" else "idle"
    top = s.stack[-1]
    if top["type"] == "action":
        return str(top["stage"])
    return str(top["type"])


def _battle_view(g: Game, viewer: str | None) -> dict[str, Any] | None:
    s = g.s
    found = next((f for f in reversed(s.stack) if f["type"] == "combat"), None)
    if found is None:
        return None
    frame = combat(found)
    revealed = frame["stage"] not in ("support", "refusal", "cards")
    cards: dict[str, Any] = {}
    for side in SIDES:
        if revealed:
            cards[side] = frame["cards"][side]
        elif house_of(frame, side) == viewer:
            cards[side] = frame["chosen"].get(side)
        else:
            cards[side] = None
    supports: dict[str, list[str]] = {"attacker": [], "defender": [], "none": []}
    for area, supported in frame["supports"].items():
        supports[supported].append(area)
    tides: dict[str, Any] = {"attacker": None, "defender": None}
    if revealed:
        tides = dict(frame["tides"])
    if frame["tides_secret"]:
        # B-TIDES-03: drawn but not revealed while the Blade holder may still redraw; each sees only its own.
        tides = {side: (frame["tides"][side] if house_of(frame, side) == viewer else None) for side in SIDES}
    # Strength by source, public from the start: before the reveal only what is on the board counts (no card is in
    # play yet); Tides cards count once revealed.
    if frame["strength"] is not None:
        components = {side: dict(frame["strength"][side]) for side in SIDES}
    else:
        components = {side: total_strength(s, frame, side, hide_tides=True) for side in SIDES}
    strength = None
    if frame["strength"] is not None or (revealed and not frame["tides_secret"]):
        strength = {side: components[side]["total"] for side in SIDES}
    return {
        "area": frame["area"],
        "from": frame["origin"],
        "attacker": frame["attacker"],
        "defender": frame["defender"],
        "attacker_units": [{"type": u.type, "routed": u.routed} for u in combat_units(s, frame, "attacker")],
        "defender_units": [{"type": u.type, "routed": u.routed} for u in combat_units(s, frame, "defender")],
        "supporters": supports,
        "garrison": s.garrisons.get(frame["area"]),
        "march_bonus": token(frame["march"]).bonus,
        "cards": cards,
        "blade": frame["blade"],
        "tides": tides,
        "components": components,
        "strength": strength,
        "winner": house_of(frame, frame["winner"]) if frame["winner"] else None,
        "stage": frame["stage"],
    }
