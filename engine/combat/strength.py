"""Who may support a combat, and each side's strength by source (B-SUPPORT-*, B-COMBAT-06..10, B-NEUTRAL-*).

Every unit's strength, fighting or supporting, passes through the played cards' passive abilities
(``engine.abilities``), so a value is always computed from the current position.
"""

from __future__ import annotations

from engine import abilities, data, rules
from engine.combat.frame import SIDES, CombatFrame, SupportOffer, house_of
from engine.orders import acts_as, token
from engine.state import GameState, Unit


def support_areas(s: GameState, area: str, *, exclude_house: str | None = None) -> dict[str, str]:
    """Areas next to ``area`` whose Support order can help there: area -> owner (B-SUPPORT-01, -09, -13, -16, -17)."""
    board = rules.board(s)
    embattled = board.areas[area]
    out: dict[str, str] = {}
    for n in sorted(board.neighbours[area]):
        order = s.orders.get(n)
        if order is None or not acts_as(order.token, "support") or order.house == exclude_house:
            continue
        here = board.areas[n]
        if embattled.is_sea and here.is_land:
            continue  # land units never support a sea combat
        if here.is_port and n != embattled.port and embattled.id != here.port_sea:
            continue  # ships in a port support only in their own sea
        if here.is_port and embattled.is_land:
            continue
        if not any(not u.routed for u in s.units.get(n, [])):
            continue
        out[n] = order.house
    return out


def support_sides(s: GameState, f: CombatFrame, house: str) -> list[str]:
    """No house supports an opponent against itself; nobody supports a neutral force (B-SUPPORT-12, B-NEUTRAL-06);
    a liege and his vassals never support against each other (M-VASSAL-15)."""
    kin = rules.family(s, house)
    if f["attacker"] in kin:
        return ["attacker", "none"]
    if f["defender"] in kin:
        return ["defender", "none"]
    if f["defender"] == "neutral":
        return ["attacker", "none"]
    return ["attacker", "defender", "none"]


def offered_support(s: GameState, f: CombatFrame) -> dict[str, SupportOffer]:
    """Support declared for a combatant by other houses, which that combatant may refuse (B-SUPPORT-08)."""
    owners = support_areas(s, f["area"])
    out: dict[str, SupportOffer] = {}
    for side in SIDES:
        house = house_of(f, side)
        if house == "neutral":
            continue
        kin = rules.family(s, house)  # a liege does not refuse his own vassal's support, nor it his
        areas = sorted(a for a, chosen in f["supports"].items() if chosen == side and owners.get(a) not in (None, *kin))
        if areas:
            out[house] = {"side": side, "areas": areas, "supporters": {a: owners[a] for a in areas}}
    return out


def attacks_castle(s: GameState, area: str, side: str) -> bool:
    """Siege engines count only when attacking a castle or stronghold."""
    return side == "attacker" and rules.board(s).areas[area].fortification > 0


def area_support_strength(s: GameState, area: str, embattled: str) -> int:
    """What one Support order adds to an attack on ``embattled``: its units and its bonus (B-SUPPORT-04)."""
    castle = attacks_castle(s, embattled, "attacker")
    units = s.units.get(area, [])
    return sum(rules.unit_strength(s, u, attacking_castle=castle) for u in units) + token(s.orders[area].token).bonus


def potential_support(s: GameState, area: str) -> int:
    """The most support an attack on a neutral force could receive (every adjacent Support order helping)."""
    return sum(area_support_strength(s, a, area) for a in support_areas(s, area))


def combat_units(s: GameState, f: CombatFrame, side: str) -> list[Unit]:
    """The units fighting for a side in the embattled area (attackers still stand in their origin)."""
    if side == "attacker":
        pool = list(s.units.get(f["origin"], []))
        chosen: list[Unit] = []
        for t in f["units"]:
            for u in pool:
                if u.type == t and u.house == f["attacker"] and not u.routed and all(u is not c for c in chosen):
                    chosen.append(u)
                    break
        return chosen
    if f["defender"] == "neutral":
        return []
    return [u for u in s.units.get(f["area"], []) if u.house == f["defender"]]


def supporting_areas(s: GameState, f: CombatFrame, side: str) -> list[str]:
    """The areas whose Support order still helps ``side`` (declared, not refused, and not removed since)."""
    out = []
    for a, chosen in sorted(f["supports"].items()):
        order = s.orders.get(a)
        if chosen == side and order is not None and acts_as(order.token, "support"):
            out.append(a)
    return out


def base_strength(s: GameState, f: CombatFrame, side: str) -> dict[str, int]:
    """Strength by source before cards, the Blade and Tides (B-COMBAT-06): units, support, and the march bonus,
    or the defender's Defense order, garrison or neutral force."""
    area = f["area"]
    castle = attacks_castle(s, area, side)
    parts: dict[str, int] = {}
    parts["units"] = sum(
        abilities.unit_strength(s, f, side, u, rules.unit_strength(s, u, attacking_castle=castle), supporting=False)
        for u in combat_units(s, f, side)
    )
    support = 0
    for a in supporting_areas(s, f, side):
        for u in s.units.get(a, []):
            value = rules.unit_strength(s, u, attacking_castle=castle)
            support += abilities.unit_strength(s, f, side, u, value, supporting=True)
        support += token(s.orders[a].token).bonus
    parts["support"] = support
    if side == "attacker":
        parts["march"] = token(f["march"]).bonus
    elif f["defender"] == "neutral":
        parts["neutral"] = s.neutral[area] or 0
    else:
        order = s.orders.get(area)
        if order is not None and order.house == f["defender"] and token(order.token).type == "defense":
            parts["defense"] = abilities.defense_bonus(s, f, token(order.token).bonus)
        if area in s.garrisons:
            parts["garrison"] = s.garrisons[area]
    return parts


def card_of(f: CombatFrame, side: str) -> data.HouseCard | None:
    card_id = f["cards"][side]
    return data.house_cards()[card_id] if card_id else None


def total_strength(s: GameState, f: CombatFrame, side: str, *, hide_tides: bool = False) -> dict[str, int]:
    """Final strength by source (B-COMBAT-10). ``hide_tides``: leave out Tides cards not yet revealed."""
    parts = base_strength(s, f, side)
    card = card_of(f, side)
    if card is not None:
        parts["card"] = abilities.card_strength(s, f, side, card)
    if f["blade"] == house_of(f, side):
        parts["blade"] = 1
    tides = f["tides"][side]
    if tides and not (hide_tides and f["tides_secret"]):
        parts["tides"] = data.tides_cards()[tides]["value"]
    parts["total"] = sum(parts.values())
    return parts


def icons(s: GameState, f: CombatFrame, side: str) -> tuple[int, int, int]:
    """Swords, fortifications and skulls on a side's card(s) (B-HCARD-08/09, B-TIDES-06/07)."""
    card = card_of(f, side)
    swords, forts = abilities.card_icons(s, f, side, card) if card else (0, 0)
    skulls = 0
    tides = f["tides"][side]
    if tides:
        t = data.tides_cards()[tides]
        swords += t["swords"]
        forts += t["fortifications"]
        skulls += t["skulls"]
    return swords, forts, skulls
