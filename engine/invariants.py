"""Properties that must hold after every step of every game (checked by the simulations and property tests)."""

from __future__ import annotations

import json

from engine import data, rules
from engine.game import Game
from engine.orders import VASSAL_ORDERS_MAX, token
from engine.rulesets import ruleset

SUPPLY_SETTLED_STEPS = {"planning", "raven"}


class InvariantError(AssertionError):
    pass


def check(g: Game, *, views: bool = True, round_trip: bool = True) -> None:
    s = g.s
    board = rules.board(s)
    limits = ruleset(s).houses()
    per_house_type: dict[tuple[str, str], int] = {}
    for area, units in s.units.items():
        a = board.areas[area]
        if not units:
            raise InvariantError(f"empty unit list kept for {area}")
        houses = {u.house for u in units}
        if len(houses) != 1:
            raise InvariantError(f"{area} holds units of {sorted(houses)}")
        for u in units:
            per_house_type[(u.house, u.type)] = per_house_type.get((u.house, u.type), 0) + 1
            if rules.unit_type(s, u.type).at_sea == a.is_land:
                raise InvariantError(f"{u.type} of {u.house} stands in {a.kind} area {area}")
        if a.is_port and len(units) > data.setups()["port_capacity"]:
            raise InvariantError(f"{area} holds {len(units)} ships")
        if not rules.is_passable(s, area):
            raise InvariantError(f"units in impassable {area}")
    for (house, unit_type), n in per_house_type.items():
        if n > limits[house].unit_limits[unit_type]:
            raise InvariantError(f"{house} has {n} {unit_type}")
    for house in s.players:
        if s.houses[house].power < 0 or rules.power_in_pool(s, house) < 0:
            raise InvariantError(f"{house} holds more than 20 power tokens")
    for area, house in s.power_tokens.items():
        occ = rules.occupant(s, area)
        if occ not in (None, house):
            raise InvariantError(f"{house}'s power token in {area} under {occ}'s units")
        if not board.areas[area].is_land:
            raise InvariantError(f"power token in non-land {area}")
    top = s.stack[-1]["type"] if s.stack else None
    if top in SUPPLY_SETTLED_STEPS:
        for house in s.players:
            if not rules.supply_ok(s, house):
                raise InvariantError(f"{house} exceeds its supply limits during {top}")
    castle_areas = sum(1 for a in board.areas.values() if a.is_land and a.fortification > 0)
    if sum(rules.castle_counts(s).values()) > castle_areas:
        raise InvariantError(f"more than the board's {castle_areas} castles controlled")
    if s.phase == "action":
        for area, order in s.orders.items():
            if token(order.token).kind == "sea" and board.areas[area].is_land:
                raise InvariantError(f"a sea order lies on land in {area} while orders resolve")
    in_battle = any(f["type"] == "combat" for f in s.stack)  # the March being resolved stays until the battle ends
    for area, order in s.orders.items():
        if not in_battle and rules.occupant(s, area) != order.house:
            raise InvariantError(f"{order.house}'s order in {area} has none of its units there")
    for area, units in s.units.items():
        land = board.areas[area].port_of
        if not in_battle and land is not None and rules.controller(s, land) != units[0].house:
            raise InvariantError(f"{units[0].house}'s ships in {area}, whose land it does not control (B-PORT-10)")
    check_vassals(g)
    check_targaryen(g)
    check_bank(g)
    if views:
        check_views(g)
    if round_trip and Game.from_json(g.to_json()) != g:
        raise InvariantError("from_json(to_json(g)) differs from g")


def check_vassals(g: Game) -> None:
    """M-VASSAL-09, -28, -30: a vassal holds no Power and no dominance token, takes at most two orders from its set,
    and every decision asked of it goes to the player commanding it."""
    s = g.s
    if not s.vassals:
        return
    players = set(rules.player_houses(s))
    for vassal, liege in s.vassals.items():
        if s.houses[vassal].power != 0:
            raise InvariantError(f"vassal {vassal} holds {s.houses[vassal].power} Power")
        if liege is not None and liege not in players:
            raise InvariantError(f"vassal {vassal} is commanded by {liege}, who is no player")
    for track in data.TRACKS:
        if rules.holder(s, track) in s.vassals:
            raise InvariantError(f"vassal {rules.holder(s, track)} holds the {track} dominance token")
    per_vassal: dict[str, int] = {}
    for area, order in s.orders.items():
        is_vassal_token = token(order.token).kind == "vassal"
        if is_vassal_token != (order.house in s.vassals):
            raise InvariantError(f"{order.house} holds order {order.token} in {area}")
        per_vassal[order.house] = per_vassal.get(order.house, 0) + 1
    for vassal, n in per_vassal.items():
        if vassal in s.vassals and n > VASSAL_ORDERS_MAX:
            raise InvariantError(f"vassal {vassal} has {n} orders")
    for prompt in g.prompts():
        if prompt.house in s.vassals and s.vassals[prompt.house] not in players:
            raise InvariantError(f"{prompt.kind} asked of vassal {prompt.house}, which no player commands")


def check_targaryen(g: Game) -> None:
    """M-TARG-10, -12, -13, -16, M-VASSAL-07: Targaryen stays on space 8 of every track and is never a vassal; every
    dragon is as strong as the tokens moved off the round track onto the dragon track (by the round marker, every
    token of a round reached; or earlier by Fire Made Flesh, ``check_dragons``); at most three dragons, only
    Targaryen's."""
    s = g.s
    t = s.targaryen
    dragons = {u.house for us in s.units.values() for u in us if rules.unit_type(s, u.type).flies}
    if not t:
        if dragons:
            raise InvariantError(f"dragons of {sorted(dragons)} without Targaryen in play")
        return
    if dragons - {"targaryen"}:
        raise InvariantError(f"dragons of {sorted(dragons - {'targaryen'})}")
    if "targaryen" in s.vassals:
        raise InvariantError("Targaryen became a vassal")
    for track in data.TRACKS:
        if s.tracks[track][-1] != "targaryen" or len(s.tracks[track]) != len(s.players):
            raise InvariantError(f"Targaryen is not on the last space of {track}: {s.tracks[track]}")
    waiting = t["dragon_rounds"]
    if any(r <= s.round for r in waiting) or t["dragon_strength"] != len(ruleset_dragon_rounds(g)) - len(waiting):
        raise InvariantError(f"dragon strength {t['dragon_strength']} in round {s.round}, tokens left on {waiting}")
    count = rules.units_on_board(s, "targaryen", "dragon")
    if count > ruleset(s).houses()["targaryen"].unit_limits["dragon"]:
        raise InvariantError(f"Targaryen has {count} dragons")
    check_loyalty(g)


def check_loyalty(g: Game) -> None:
    """M-TARG-02..07: at most twenty loyalty tokens on the board, each on a land of Westeros; outside a battle none
    lies in an area Targaryen controls (it has collected them); its Victory track is its loyalty points plus Pentos."""
    s = g.s
    tokens: dict[str, int] = s.targaryen.get("loyalty_tokens", {})
    board = rules.board(s)
    westeros = data.board("mother-of-dragons/board-westeros.json").areas
    if sum(tokens.values()) > 20 or any(n <= 0 for n in tokens.values()):
        raise InvariantError(f"loyalty tokens on the board: {tokens}")
    if any(a not in westeros or not board.areas[a].is_land for a in tokens):
        raise InvariantError(f"a loyalty token off the lands of Westeros: {tokens}")
    in_battle = any(f["type"] == "combat" for f in s.stack)
    if not in_battle and not g.finished:
        held = [a for a in tokens if rules.controller(s, a) == "targaryen"]
        if held:
            raise InvariantError(f"loyalty tokens left uncollected in {held}")
    pentos = 1 if rules.controller(s, "pentos") == "targaryen" else 0
    if rules.victory_points(s)["targaryen"] != s.targaryen["loyalty"] + pentos:
        raise InvariantError("Targaryen's Victory track is not its loyalty points and Pentos")


def ruleset_dragon_rounds(g: Game) -> list[int]:
    rounds: list[int] = data.read("mother-of-dragons/setup.json")["dragon_strength_rounds"]
    return rounds


def dragons(g: Game) -> tuple[int, int]:
    """Targaryen's dragons on the board and their strength (0, 0 without Targaryen): what ``check_dragons`` compares."""
    if not g.s.targaryen:
        return 0, 0
    return rules.units_on_board(g.s, "targaryen", "dragon"), int(g.s.targaryen["dragon_strength"])


def check_dragons(before: tuple[int, int], g: Game, events: list[dict[str, object]]) -> None:
    """M-TARG-10, -13 across one answer (``before``: ``dragons(g)`` before it, ``events``: what it returned). A dragon
    is never mustered and never comes back once destroyed, except the one Fire Made Flesh puts back into Targaryen's
    home (``unit-placed``); the dragon track rises by one for each round the marker reaches holding a token
    (``dragon-strength``) and for each token Fire Made Flesh moves early (``dragon-token-moved``), which it does only
    as it destroys a dragon (``units-destroyed``, reason ``fire-made-flesh``), never otherwise."""
    count, strength = dragons(g)
    fire = "fire-made-flesh"
    revived = [e for e in events if e["type"] == "unit-placed" and e["unit"] == "dragon"]
    if any(e["card"] != fire or e["area"] != rules.home(g.s, "targaryen") for e in revived):
        raise InvariantError(f"a dragon put on the board otherwise than by Fire Made Flesh in Pentos: {revived}")
    if count > before[0] + len(revived):
        raise InvariantError(f"Targaryen's dragons went from {before[0]} to {count}")
    moved = [e for e in events if e["type"] == "dragon-token-moved"]
    burned = [e for e in events if e["type"] == "units-destroyed" and e["reason"] == fire and e["units"] == ["dragon"]]
    if any(e["card"] != fire for e in moved) or len(moved) != len(burned):
        raise InvariantError(f"dragon strength tokens moved early {moved} for the dragons destroyed {burned}")
    grown = sum(1 for e in events if e["type"] == "dragon-strength")
    if strength != before[1] + grown + len(moved):
        early = len(moved)
        raise InvariantError(f"dragon strength went from {before[1]} to {strength} ({grown} rounds, {early} early)")


def check_commanders(before: dict[str, str | None], g: Game, events: list[dict[str, object]]) -> None:
    """M-VASSAL-04: commanders change only when a claim step ends; a house whose player left joins the vassals as a
    round starts with no liege until then, and so do the vassals it commanded (M-LEAVE-01)."""
    joined = {e["house"] for e in events if e["type"] == "house-vassalized"}
    after = {h: liege for h, liege in g.s.vassals.items() if not (h in joined and liege is None)}
    before = {h: None if liege in joined else liege for h, liege in before.items()}
    if before != after and not any(e["type"] == "vassals-commanded" for e in events):
        raise InvariantError(f"vassal commanders changed outside the claim step: {before} -> {g.s.vassals}")


def check_bank(g: Game) -> None:
    """M-BANK-02, -03, -06, -07, M-SETUP-21: each of the twelve loans is in exactly one place (the deck, a slot or a
    player's hands), no vassal holds one, the Braavos token is held by the player controlling Braavos (or lies aside),
    and development and decline tokens lie in areas of the board."""
    s = g.s
    bank = s.bank
    if not bank:
        return
    held = [loan for loans in bank["loans"].values() for loan in loans]
    places = bank["deck"] + [x for x in bank["slots"] if x is not None] + held
    if sorted(places) != sorted(data.loan_cards()):
        raise InvariantError(f"the loans are not each in one place: {sorted(places)}")
    if any(h in s.vassals and loans for h, loans in bank["loans"].items()):
        raise InvariantError("a vassal holds a loan")
    controller = rules.controller(s, str(data.iron_bank()["braavos"]))
    expected = controller if controller is not None and controller not in s.vassals else None
    if not any(f["type"] == "combat" for f in s.stack) and bank["braavos"] != expected:
        raise InvariantError(f"the Braavos token is with {bank['braavos']}, Braavos with {controller}")
    areas = rules.board(s).areas
    for area in [*bank["developed"], *bank["declined"]]:
        if area not in areas:
            raise InvariantError(f"a development token in {area}, not an area of this board")


def check_views(g: Game) -> None:
    """No view carries another house's secrets (B-HIDDEN-01..07)."""
    s = g.s
    public = g.view(None)
    json.dumps(public)
    _check_view(g, public, None)
    for house in s.players:
        _check_view(g, g.view(house), house)


def _check_view(g: Game, view: dict[str, object], viewer: str | None) -> None:
    areas = view["areas"]
    assert isinstance(areas, dict)
    for area, entry in areas.items():
        order = entry["order"]
        if order and order["house"] != viewer and not g.s.orders_revealed and "hidden" not in order:
            raise InvariantError(f"{viewer or 'public'} view shows {order['house']}'s order in {area}")
    battle = view.get("battle")
    if isinstance(battle, dict) and battle["stage"] in ("support", "cards"):
        for side in ("attacker", "defender"):
            if battle["cards"][side] is not None and battle[side] != viewer:
                raise InvariantError(f"{viewer or 'public'} view shows {side}'s card before the reveal")
    frame = next((f for f in reversed(g.s.stack) if f["type"] == "combat"), None)
    if isinstance(battle, dict) and frame is not None and frame.get("tides_secret"):
        # B-TIDES-03: while the Blade may still buy a redraw, each combatant sees only its own Tides card.
        for side in ("attacker", "defender"):
            if battle["tides"][side] is not None and battle[side] != viewer:
                raise InvariantError(f"{viewer or 'public'} view shows {side}'s Tides card before the reveal")
        if battle["strength"] is not None:
            raise InvariantError(f"{viewer or 'public'} view shows strengths before the Tides reveal")
    houses = view["houses"]
    assert isinstance(houses, dict)
    for house, entry in houses.items():
        if house != viewer and "raven_peek" in entry:
            raise InvariantError(f"{viewer or 'public'} view shows {house}'s Raven card")
