"""Build any position from a compact JSON scenario (docs/scenario-format.md).

Used by tests and by moderators' repairs, so everything is checked against the rules before anything is built:
a spec either yields a position the game could reach or raises ``RuleError("scenario", ...)``. Anything the spec
leaves out keeps its value from the official setup for that player count.

``build_state`` returns the validated state and where play starts; ``push_start`` puts the frames the real game
would have at that moment on a game's stack. ``Game.from_scenario`` joins the two.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from engine import data, rules, rulesets
from engine.bank import DECLINED_SYMBOLS, DEVELOPMENT_TOKENS
from engine.errors import RuleError
from engine.orders import RESTRICTIONS, VASSAL_ORDERS_MAX, VASSAL_TOKENS, token
from engine.rulesets import ruleset
from engine.state import GameState, PlacedOrder, Unit
from engine.steps.westeros import WINTER_IS_COMING, resolve_effect
from engine.steps.wildlings import THREAT_MAX, THREAT_STEP

if TYPE_CHECKING:
    from engine.game import Game

KEYS = (
    "players",
    "seed",
    "options",
    "units",
    "orders",
    "power_tokens",
    "power",
    "supply",
    "tracks",
    "hands",
    "discards",
    "garrisons",
    "neutral",
    "blade_used",
    "raven_used",
    "round",
    "wildling_threat",
    "wildling_deck",
    "westeros_decks",
    "restrictions",
    "tides_deck",
    "vassals",
    "dragon_strength",
    "loyalty",
    "loyalty_tokens",
    "bank",
    "start",
)
ACTION_STARTS = ("action", "raid", "march", "consolidate")
STARTS = ("planning", "westeros", *ACTION_STARTS)
START_KEYS = ("westeros", "card", "clash")
# Westeros cards that can open a Clash of Kings (Dark Wings, Dark Words when its holder chooses it).
CLASH_CARDS = ("clash-of-kings", "dark-wings-dark-words")
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "tides_of_battle": (True, False),
    "tie_breakers": ("rulebook", "faq"),
    "ruleset": tuple(rulesets.RULESETS),
    "targaryen_cards": ("a", "b"),
}
IMPASSABLE = ("~", "impassable")
# The house card whose combat ability moves the opponent to the last place of a track, mid-Action phase.
DORAN = "doran-martell"
ROMAN = ("I", "II", "III", "IV")
MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class Start:
    """Where play begins.

    ``phase`` is ``planning``, ``westeros`` or ``action``; ``stage`` the action step to begin with. Inside the
    Westeros phase ``deck`` (0-based) is the deck whose card is resolved next, ``drawn`` the three cards drawn this
    phase, and ``clash`` the track of the Clash of Kings bid that deck's card opened.
    """

    phase: str
    stage: str | None = None
    deck: int | None = None
    drawn: tuple[str, ...] = ()
    clash: str | None = None


def fail(message: str, **params: Any) -> NoReturn:
    raise RuleError("scenario", message, **params)


# ----- shapes -----


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        fail(f"{what} must be an object with string keys", key=what)
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        fail(f"{what} must be a list", key=what)
    return value


def _strings(value: Any, what: str) -> list[str]:
    items = _list(value, what)
    if not all(isinstance(v, str) for v in items):
        fail(f"{what} must be a list of strings", key=what)
    return items


def _int(value: Any, what: str, low: int, high: int) -> int:
    # bool is an int in Python, and a float such as 1e300 is not a count of anything.
    if isinstance(value, bool) or not isinstance(value, int):
        fail(f"{what} must be a whole number from {low} to {high}", key=what)
    if not low <= value <= high:
        fail(f"{what} must be from {low} to {high}, not {value}", key=what, low=low, high=high, value=value)
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        fail(f"{what} must be true or false", key=what)
    return value


def _choice(value: Any, options: tuple[str, ...] | list[str], what: str) -> str:
    if not isinstance(value, str) or value not in options:
        fail(f"{what} must be one of {', '.join(options)}, not {value!r}", key=what, options=list(options))
    return value


def _area(s: GameState, area: str, what: str) -> data.Area:
    found = rules.board(s).areas.get(area)
    if found is None:
        fail(f"{what}: unknown area {area!r}", area=area)
    return found


def _house(s: GameState, house: Any, what: str) -> str:
    if not isinstance(house, str) or house not in s.players:
        fail(f"{what}: {house!r} is not a house of this game ({', '.join(s.players)})", house=str(house))
    return house


# ----- the spec, part by part -----


def _players(spec: dict[str, Any], rs: rulesets.Ruleset) -> list[str]:
    """The houses players hold."""
    counts = rs.player_counts()
    players = spec.get("players", 6 if 6 in counts else counts[0])
    if isinstance(players, list):
        count = len(players)
        if count not in counts:
            fail(f"players must list {_counts(counts)} houses")
        expected = rs.houses_for(count)
        if not all(isinstance(h, str) for h in players) or not rs.accepts_houses(players):
            fail(f"with {count} players the houses are {', '.join(expected)}", expected=expected)
        return list(players)
    count = _int(players, "players", 1, 8)
    if count not in counts:
        fail(f"players must be {_counts(counts)}", players=count)
    return rs.houses_for(count)


def _counts(counts: list[int]) -> str:
    return (
        f"{counts[0]} to {counts[-1]}"
        if counts == list(range(counts[0], counts[-1] + 1))
        else ", ".join(map(str, counts))
    )


def _options(spec: dict[str, Any]) -> dict[str, Any]:
    options = dict(_mapping(spec.get("options", {}), "options"))
    for key, value in options.items():
        if key not in OPTION_VALUES:
            fail(f"unknown option {key!r} (known: {', '.join(OPTION_VALUES)})", option=key)
        if isinstance(value, bool) != isinstance(OPTION_VALUES[key][0], bool) or value not in OPTION_VALUES[key]:
            fail(f"option {key} must be one of {', '.join(map(repr, OPTION_VALUES[key]))}", option=key)
    return options


def _parse_start(spec: dict[str, Any], round_: int) -> Start:
    raw = spec.get("start", "planning")
    if isinstance(raw, str):
        start = _choice(raw, STARTS, "start")
        if start in ACTION_STARTS:
            return Start("action", "raid" if start == "action" else start)
        if start == "westeros" and round_ < 2:
            fail("round 1 has no Westeros phase: start westeros needs round 2 or later", round=round_)
        return Start(start)
    if not isinstance(raw, dict):
        fail(f"start must be one of {', '.join(STARTS)} or an object with westeros, card and clash")
    start_spec = _mapping(raw, "start")
    extra = sorted(set(start_spec) - set(START_KEYS))
    if extra:
        fail(f"start: unknown key {extra[0]!r} (known: {', '.join(START_KEYS)})", key=extra[0])
    clash = start_spec.get("clash")
    if clash is not None:
        clash = _choice(clash, data.TRACKS, "start.clash")
    deck = _int(start_spec.get("westeros", 2 if clash else None), "start.westeros", 1, len(ROMAN)) - 1
    if round_ < 2:
        fail("round 1 has no Westeros phase: a start inside it needs round 2 or later", round=round_)
    card = start_spec.get("card", "clash-of-kings" if clash else None)
    if card is not None:
        known = [c["id"] for c in data.all_westeros_cards().values() if c["deck"] == deck + 1]
        card = _choice(card, known, f"start.card (deck {ROMAN[deck]})")
        if clash and card not in CLASH_CARDS:
            fail(f"a Clash of Kings comes from {' or '.join(CLASH_CARDS)}, not {card}", card=card)
    elif clash:  # pragma: no cover - card defaults to clash-of-kings with clash
        fail("start.clash needs the card that opened it")
    return Start("westeros", deck=deck, drawn=(card,) if card else (), clash=clash)


def _draw(s: GameState, start: Start) -> Start:
    """Take this phase's cards off the decks as the draw did, and put back those already resolved."""
    assert start.deck is not None
    if start.deck >= len(s.westeros_decks):
        fail("start.westeros: deck IV is played only when Targaryen plays", deck=start.deck + 1)
    resolved = start.deck + (1 if start.clash else 0)
    drawn: list[str] = []
    for i, deck in enumerate(s.westeros_decks):
        if i == start.deck and start.drawn:
            card = start.drawn[0]
            if card not in deck:
                fail(f"start.card {card} is not in Westeros deck {ROMAN[i]}", card=card, deck=i + 1)
        elif i < resolved:
            # Winter Is Coming went back into its deck and another card was resolved in its place (B-WCARD-01).
            card = next(c for c in deck if c != WINTER_IS_COMING)
        else:
            card = deck[0]
        deck.remove(card)
        drawn.append(card)
        if i < resolved:
            deck.append(card)  # B-WEST-07: a resolved card goes to the bottom
    return Start("westeros", deck=start.deck, drawn=tuple(drawn), clash=start.clash)


def _units(s: GameState, area_id: str, raw: Any, start: Start) -> list[Unit]:
    """``"stark footman knight routed-footman"`` or ``["stark", "footman", ...]``."""
    if isinstance(raw, str):
        words = raw.split()
    elif isinstance(raw, list) and all(isinstance(w, str) for w in raw):
        words = list(raw)
    else:
        fail(f"units in {area_id} must be a string like 'stark footman knight'", area=area_id)
    area = _area(s, area_id, "units")
    if not words:
        return []
    house, *types = words
    _house(s, house, f"units in {area_id}")
    if not types:
        fail(f"units in {area_id}: {house} has no unit listed", area=area_id)
    out = []
    for t in types:
        routed = t.startswith("routed-")
        kind = t.removeprefix("routed-")
        if kind in ruleset(s).houses():
            fail(f"units in {area_id}: an area holds the units of one house only", area=area_id)
        known = ruleset(s).unit_types()
        if kind not in known:
            fail(f"units in {area_id}: unknown unit {t!r} (known: {', '.join(known)})", unit=t)
        if known[kind].at_sea == area.is_land:
            where = "seas and ports" if known[kind].at_sea else "land areas"
            fail(f"units in {area_id}: a {kind} stands only in {where}", area=area_id, unit=kind)
        if routed and start.phase != "action":
            fail(f"units in {area_id}: routed units rally at the end of the Action phase", area=area_id)
        out.append(Unit(house, kind, routed))
    capacity: int = data.setups()["port_capacity"]
    if area.is_port and len(out) > capacity:
        fail(f"units in {area_id}: a port holds at most {capacity} ships", area=area_id)
    return out


def _set_units(s: GameState, spec: dict[str, Any], start: Start) -> None:
    s.units = {}
    for area, raw in _mapping(spec["units"], "units").items():
        parsed = _units(s, area, raw, start)
        if parsed:
            s.units[area] = parsed
    for house in s.players:
        for kind, limit in ruleset(s).houses()[house].unit_limits.items():
            n = rules.units_on_board(s, house, kind)
            if n > limit:
                fail(f"{house} has {n} {kind} units on the board; it owns only {limit}", house=house, unit=kind)


def _set_garrisons(s: GameState, raw: Any) -> None:
    s.garrisons = {}
    for area_id, value in _mapping(raw, "garrisons").items():
        home = _area(s, area_id, "garrisons").home_of
        if home is None or home not in s.players:
            fail(f"garrisons: {area_id} is not the home area of a house in this game", area=area_id)
        strength = ruleset(s).houses()[home].garrison
        s.garrisons[area_id] = _int(value, f"garrisons.{area_id}", strength, strength)


def _set_neutral(s: GameState, raw: Any) -> None:
    strongest = max(
        v for setup in data.setups()["player_counts"].values() for v in setup["neutral_forces"].values() if v
    )
    s.neutral = {}
    for area_id, value in _mapping(raw, "neutral").items():
        area = _area(s, area_id, "neutral")
        if not area.is_land:
            fail(f"neutral: a neutral force stands only on land, not in {area_id}", area=area_id)
        if area.home_of in s.players:
            fail(f"neutral: {area_id} is the home area of {area.home_of}, which plays", area=area_id)
        if value is None or value in IMPASSABLE:
            s.neutral[area_id] = None
        else:
            s.neutral[area_id] = _int(value, f"neutral.{area_id}", 1, strongest)


def _set_power_tokens(s: GameState, raw: Any) -> None:
    s.power_tokens = {}
    for area_id, house in _mapping(raw, "power_tokens").items():
        if not _area(s, area_id, "power_tokens").is_land:
            fail(f"power_tokens: a power token lies only on land, not in {area_id}", area=area_id)
        s.power_tokens[area_id] = _house(s, house, f"power_tokens.{area_id}")


def _per_house(s: GameState, raw: Any, what: str) -> dict[str, Any]:
    values = _mapping(raw, what)
    for house in values:
        _house(s, house, what)
    return values


def _set_cards(s: GameState, spec: dict[str, Any]) -> None:
    owner = {c.id: c.house for c in data.house_cards().values()}
    for key in ("hands", "discards"):
        for house, raw in _per_house(s, spec.get(key, {}), key).items():
            cards = _strings(raw, f"{key}.{house}")
            for card in cards:
                if owner.get(card) != house:
                    fail(f"{key}.{house}: {card!r} is not a house card of {house}", card=card, house=house)
            if len(set(cards)) != len(cards):
                fail(f"{key}.{house}: a card is listed twice", house=house)
            if key == "hands":
                s.houses[house].hand = list(cards)
            else:
                s.houses[house].discards = list(cards)
    for house in s.players:
        both = sorted(set(s.houses[house].hand) & set(s.houses[house].discards))
        if both:
            fail(f"{house}'s {both[0]} is both in its hand and discarded (give hands and discards)", house=house)


def _set_tracks(s: GameState, raw: Any) -> None:
    for track, order in _mapping(raw, "tracks").items():
        _choice(track, data.TRACKS, "tracks")
        houses = _strings(order, f"tracks.{track}")
        if sorted(houses) != sorted(s.players):
            fail(f"track {track} must list every house in play once", track=track)
        if rules.set_track(s, track, list(houses)) != houses:
            fail(f"track {track} must keep every pinned house on its space", track=track)


def _set_decks(s: GameState, spec: dict[str, Any]) -> None:
    if "westeros_decks" in spec:
        decks = _list(spec["westeros_decks"], "westeros_decks")
        if len(decks) != len(s.westeros_decks):
            count, decks_named = (("three", "I, II and III"), ("four", "I, II, III and IV"))[len(s.westeros_decks) - 3]
            fail(f"westeros_decks must be {count} lists (decks {decks_named})")
        s.westeros_decks = []
        for i, raw in enumerate(decks):
            what = f"westeros_decks[{i}]"
            copies = {c["id"]: c["copies"] for c in data.all_westeros_cards().values() if c["deck"] == i + 1}
            deck = _copies(_strings(raw, what), copies, what)
            if not any(c != WINTER_IS_COMING for c in deck):
                fail(f"Westeros deck {ROMAN[i]} needs a card other than Winter Is Coming", deck=i + 1)
            s.westeros_decks.append(deck)
    if "wildling_deck" in spec:
        cards = {c: 1 for c in data.wildling_cards()}
        s.wildling_deck = _copies(_strings(spec["wildling_deck"], "wildling_deck"), cards, "wildling_deck")
    if "tides_deck" in spec:
        if not s.options.get("tides_of_battle"):
            fail("tides_deck needs the option tides_of_battle")
        counts = {c["id"]: c["count"] for c in data.tides_cards().values()}
        s.tides_deck = _copies(_strings(spec["tides_deck"], "tides_deck"), counts, "tides_deck")


def _copies(cards: list[str], copies: dict[str, int], what: str) -> list[str]:
    """A deck holds only real cards, each at most as many times as the game has copies of it."""
    for card, n in Counter(cards).items():
        if card not in copies:
            fail(f"{what}: unknown card {card!r} (known: {', '.join(copies)})", card=card)
        if n > copies[card]:
            fail(f"{what}: the game has only {copies[card]} of {card}", card=card)
    return list(cards)


def _set_vassals(s: GameState, raw: Any, start: Start) -> None:
    """Each vassal's liege. Outside a round-1 Planning phase (which opens with the claim) a vassal left out is
    commanded by the last player on the Iron Throne track, as the claim leaves it when everyone passes."""
    lieges = _mapping(raw, "vassals")
    players = rules.player_houses(s)
    for vassal, liege in lieges.items():
        if vassal not in s.vassals:
            fail(f"vassals: {vassal!r} is not a vassal in this game", house=str(vassal))
        if liege not in players:
            fail(f"vassals.{vassal}: {liege!r} is not a player's house", house=str(liege))
        s.vassals[vassal] = liege
    if start.phase != "planning" or s.round > 1:
        for vassal, liege in s.vassals.items():
            if liege is None:
                s.vassals[vassal] = players[-1]


def _set_orders(s: GameState, raw: Any, start: Start) -> None:
    orders = _mapping(raw, "orders")
    if orders and start.phase != "action":
        fail("orders lie on the board only in the Action phase (start action, raid, march or consolidate)")
    for area, value in orders.items():
        _area(s, area, "orders")
        if not isinstance(value, str):
            fail(f"orders.{area} must be a token id or 'house:token'", area=area)
        house, _, token_id = value.rpartition(":")
        occupant = rules.occupant(s, area)
        if occupant is None:
            fail(f"orders.{area}: an order lies only where its house has units", area=area)
        if house and house != occupant:
            fail(f"orders.{area}: the units there are {occupant}'s, not {house}'s", area=area, house=house)
        owned = VASSAL_TOKENS if occupant in s.vassals else ruleset(s).order_tokens(s)
        if token_id not in owned:
            fail(f"orders.{area}: unknown order token {token_id!r} for {occupant}", area=area, token=token_id)
        s.orders[area] = PlacedOrder(occupant, token_id)
    for vassal in s.vassals:
        if sum(1 for o in s.orders.values() if o.house == vassal) > VASSAL_ORDERS_MAX:
            fail(f"{vassal} is a vassal and takes at most {VASSAL_ORDERS_MAX} orders", house=vassal)
    for house in s.players:
        used = Counter(o.token for o in s.orders.values() if o.house == house)
        for token_id, n in used.items():
            if n > token(token_id).copies:
                fail(f"{house} owns only {token(token_id).copies} {token_id} order", house=house)
        stars = sum(n for t, n in used.items() if token(t).star)
        allowed = rules.stars_allowed(s, house)
        if _moved_down_by_doran(s, house, start):
            allowed = max(ruleset(s).stars_allowed(p, len(s.players)) for p in range(len(s.players)))
        if stars > allowed:
            fail(
                f"{house} placed {stars} special orders; its King's Court position allows {allowed}",
                house=house,
                allowed=allowed,
            )


def _moved_down_by_doran(s: GameState, house: str, start: Start) -> bool:
    """Whether ``house`` may hold more special orders than its King's Court position allows.

    Doran Martell, played in a combat of the March step, moves its opponent to the last place of a track; the
    orders that opponent placed under its old position stay on the board. So once marches may have been fought
    (a ``march`` or ``consolidate`` start), a house last on King's Court, facing a Martell in play, may hold as
    many special orders as any position allows.
    """
    doran = data.house_cards().get(DORAN)
    return (
        start.stage in ("march", "consolidate")
        and doran is not None
        and doran.house in s.players
        and doran.house != house
        and s.tracks["kings_court"][-1] == house
    )


def _check_board(s: GameState) -> None:
    """What depends on several keys at once: who may stand beside whom, ports, garrisons, supply."""
    board = rules.board(s)
    for area_id, house in s.power_tokens.items():
        occupant = rules.occupant(s, area_id)
        if occupant not in (None, house):
            fail(f"power_tokens.{area_id}: {house}'s token lies under {occupant}'s units", area=area_id)
    for area_id in s.neutral:
        if area_id in s.power_tokens or area_id in s.garrisons:
            fail(f"neutral: {area_id} holds a neutral force and a power token or a garrison", area=area_id)
        if area_id in s.units and s.neutral[area_id] is None:
            fail(f"units in {area_id}: the area is impassable", area=area_id)
        if area_id in s.units:
            fail(f"neutral: {area_id} holds a neutral force and units", area=area_id)
    for area_id in s.garrisons:
        home = board.areas[area_id].home_of
        if rules.controller(s, area_id) != home:
            fail(f"garrisons: {area_id} is held by another house; its garrison would be gone", area=area_id)
    for area_id, units in s.units.items():
        area = board.areas[area_id]
        if area.is_port:
            assert area.port_of is not None
            holder = rules.controller(s, area.port_of)
            if holder != units[0].house:
                fail(f"{area_id}: ships in a port belong to the house that controls {area.port_of}", area=area_id)
    for house in s.players:
        if not rules.supply_ok(s, house):
            fail(
                f"{house}'s armies exceed its supply level {s.houses[house].supply}",
                house=house,
                armies=rules.army_sizes(s, house),
            )
        on_board = sum(1 for h in s.power_tokens.values() if h == house)
        total: int = data.setups()["power_tokens_per_house"]
        _int(s.houses[house].power, f"power.{house}", 0, total - on_board)


def build_state(spec: Any) -> tuple[GameState, Start]:
    """Validate ``spec`` and build its state; nothing is returned unless every check passes."""
    if not isinstance(spec, dict):
        fail("a scenario must be a JSON object")
    spec = _mapping(spec, "scenario")
    unknown = sorted(set(spec) - set(KEYS))
    if unknown:
        fail(f"unknown scenario key {unknown[0]!r}", key=unknown[0], known=list(KEYS))
    options = _options(spec)
    rs = rulesets.named(options.get("ruleset", rulesets.DEFAULT))
    houses = _players(spec, rs)
    seed = _int(spec.get("seed", 0), "seed", 0, MAX_SEED)
    s = rs.initial_state(houses, seed, options)
    s.round = _int(spec.get("round", 1), "round", 1, data.setups()["rounds"])
    start = _parse_start(spec, s.round)
    _set_decks(s, spec)
    if start.phase == "westeros" and start.deck is not None:
        start = _draw(s, start)
    if "units" in spec:
        _set_units(s, spec, start)
    if "garrisons" in spec:
        _set_garrisons(s, spec["garrisons"])
    if "neutral" in spec:
        _set_neutral(s, spec["neutral"])
    _set_power_tokens(s, spec.get("power_tokens", {}))
    for house, value in _per_house(s, spec.get("power", {}), "power").items():
        s.houses[house].power = _int(value, f"power.{house}", 0, data.setups()["power_tokens_per_house"])
        if house in s.vassals and s.houses[house].power:
            fail(f"power.{house}: a vassal holds no Power", house=house)
    for house, value in _per_house(s, spec.get("supply", {}), "supply").items():
        s.houses[house].supply = _int(value, f"supply.{house}", 0, len(data.setups()["supply_limits"]) - 1)
    _set_cards(s, spec)
    _set_tracks(s, spec.get("tracks", {}))
    for flag in ("blade_used", "raven_used"):
        used = _bool(spec.get(flag, False), flag)
        if used and start.phase != "action":
            fail(f"{flag}: the dominance tokens are turned face up at the end of the Action phase")
        setattr(s, flag, used)
    threat = _int(spec.get("wildling_threat", s.wildling_threat), "wildling_threat", 0, THREAT_MAX - THREAT_STEP)
    if threat % THREAT_STEP:
        fail(f"wildling_threat moves in steps of {THREAT_STEP}", value=threat)
    s.wildling_threat = threat
    restrictions = _strings(spec.get("restrictions", []), "restrictions")
    for r in restrictions:
        _choice(r, list(RESTRICTIONS), "restrictions")
    if len(set(restrictions)) != len(restrictions):
        fail("restrictions: a restriction is listed twice")
    if restrictions and (start.phase != "planning" or s.round < 2):
        fail("restrictions bind only the Planning phase after a Westeros phase (start planning, round 2 or later)")
    s.restrictions = list(restrictions)
    _set_vassals(s, spec.get("vassals", {}), start)
    _set_orders(s, spec.get("orders", {}), start)
    _check_board(s)
    _set_targaryen(s, spec)
    _set_bank(s, spec)
    return s, start


def _set_targaryen(s: GameState, spec: dict[str, Any]) -> None:
    """With Targaryen: the dragon strength tokens the round marker has reached lie on the dragon track (M-TARG-13),
    unless ``dragon_strength`` says otherwise; Pentos counts as held as the position shows; ``loyalty`` points are
    collected (0 to 6) and ``loyalty_tokens`` lie on the board (the setup's one in King's Landing otherwise)."""
    t = s.targaryen
    if not t:
        for key in ("dragon_strength", "loyalty", "loyalty_tokens"):
            if key in spec:
                fail(f"{key}: only a game with Targaryen has it", key=key)
        return
    rounds: list[int] = t["dragon_rounds"]
    strength = _int(
        spec.get("dragon_strength", sum(1 for r in rounds if r <= s.round)), "dragon_strength", 0, len(rounds)
    )
    t["dragon_rounds"] = rounds[strength:]
    t["dragon_strength"] = strength
    t["holds_pentos"] = rules.controller(s, "pentos") == "targaryen"
    t["loyalty"] = _int(spec.get("loyalty", 0), "loyalty", 0, 6)
    if "loyalty_tokens" in spec:
        tokens = {}
        for area, count in _mapping(spec["loyalty_tokens"], "loyalty_tokens").items():
            if not _area(s, area, "loyalty_tokens").is_land:
                fail(f"loyalty_tokens: {area} is no land", area=area)
            tokens[area] = _int(count, f"loyalty_tokens.{area}", 1, 20)
        if sum(tokens.values()) > 20:
            fail("loyalty_tokens: the game has twenty loyalty tokens")
        t["loyalty_tokens"] = tokens


BANK_KEYS = ("slots", "loans", "developed", "declined")


def _set_bank(s: GameState, spec: dict[str, Any]) -> None:
    """With Targaryen, the Iron Bank: ``slots`` (three loan ids or null, left to right), ``loans`` (house -> the
    loans it holds), ``developed`` (area -> token -> count) and ``declined`` (area -> covered symbols). The deck keeps
    its shuffled order without the loans named. The Braavos token follows control of Braavos, as in play."""
    if "bank" not in spec:
        return
    if not s.bank:
        fail("bank: only a game with Targaryen has the Iron Bank", key="bank")
    raw = _mapping(spec["bank"], "bank")
    unknown = sorted(set(raw) - set(BANK_KEYS))
    if unknown:
        fail(f"bank: unknown key {unknown[0]!r}", key=unknown[0], known=list(BANK_KEYS))
    cards = list(data.loan_cards())
    bank = s.bank
    named: list[str] = []
    if "slots" in raw:
        slots = _list(raw["slots"], "bank.slots")
        if len(slots) != len(bank["slots"]):
            fail(f"bank.slots: the bank has {len(bank['slots'])} slots")
        for loan in slots:
            if loan is not None:
                _choice(loan, cards, "bank.slots")
        bank["slots"] = list(slots)
    named += [loan for loan in bank["slots"] if loan is not None]
    loans: dict[str, list[str]] = {}
    for house, held in _per_house(s, raw.get("loans", {}), "bank.loans").items():
        if house in s.vassals:
            fail(f"bank.loans: {house} is a vassal and takes no loans", house=house)
        loans[house] = [_choice(loan, cards, f"bank.loans.{house}") for loan in _strings(held, f"bank.loans.{house}")]
        named += loans[house]
    if len(set(named)) != len(named):
        fail("bank: a loan card is named twice (each card is one of a kind)")
    bank["loans"] = loans
    bank["deck"] = [c for c in bank["deck"] + [c for c in cards if c not in bank["deck"]] if c not in named]
    developed: dict[str, dict[str, int]] = {}
    for area, tokens in _mapping(raw.get("developed", {}), "bank.developed").items():
        _area(s, area, "bank.developed")
        developed[area] = {
            _choice(t, list(DEVELOPMENT_TOKENS), f"bank.developed.{area}"): _int(n, f"bank.developed.{area}.{t}", 1, 15)
            for t, n in _mapping(tokens, f"bank.developed.{area}").items()
        }
    declined: dict[str, list[str]] = {}
    for area, symbols in _mapping(raw.get("declined", {}), "bank.declined").items():
        if _area(s, area, "bank.declined").fortification != 1:
            fail(f"bank.declined: {area} has no castle to cover", area=area)
        declined[area] = [_choice(x, list(DECLINED_SYMBOLS), f"bank.declined.{area}") for x in _strings(symbols, "")]
    bank["developed"], bank["declined"] = developed, declined


def push_start(game: Game, start: Start) -> None:
    """Put on ``game``'s stack the frames the real game has at ``start`` (the game is not run)."""
    s = game.s
    s.phase = start.phase
    if start.phase == "planning":
        game.push("game", next="planning")
    elif start.phase == "action":
        s.orders_revealed = True
        game.push("game", next="westeros")
        game.push("action", stage=start.stage, last=None)
    elif start.deck is None:
        s.round -= 1  # the round loop counts the new round as its Westeros phase begins
        game.push("game", next="westeros")
    else:
        game.push("game", next="planning")
        s.westeros_drawn = list(start.drawn)
        index = start.deck + (1 if start.clash else 0)
        game.push("westeros", stage="resolve", cards=list(start.drawn), index=index)
        if start.clash:
            resolve_effect(game, "clash-of-kings", start.drawn[start.deck])
            game.s.stack[-1]["index"] = data.TRACKS.index(start.clash)
