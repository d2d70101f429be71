"""Derived facts about a position: control, supply, turn order, reachability.

These are pure functions of the state. Control is never stored: a land is controlled by the
house with units there, else by the house whose power token lies there, else by the house
whose printed crest it carries (B-CONTROL-01, B-CONTROL-12..14).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import data
from engine.rulesets import ruleset
from engine.state import GameState, Unit


def board(s: GameState) -> data.Board:
    """The board the game is played on (its ruleset picks it from the state)."""
    return ruleset(s).board_for(s)


def printed_board(s: GameState) -> data.Board:
    """The board as printed (no development token): control reads only its crests, ports and seas, which no token
    changes, and reads them often."""
    return ruleset(s).printed_board(s)


def units_in(s: GameState, area: str) -> list[Unit]:
    return s.units.get(area, [])


def occupant(s: GameState, area: str) -> str | None:
    units = s.units.get(area)
    return units[0].house if units else None


def controller(s: GameState, area: str) -> str | None:
    return _controller(s, printed_board(s).areas, area)


def controller_if_emptied(s: GameState, land: str) -> str | None:
    """Who controls a land once no unit stands there: its power token, else the crest printed on it."""
    return _controller_if_emptied(s, printed_board(s).areas, land)


def control_map(s: GameState) -> dict[str, str | None]:
    """Every area's controller at once, for readers that need them all (views, the victory track), with the board
    looked up once (every view works this out)."""
    areas = printed_board(s).areas
    return {area: _controller(s, areas, area) for area in areas}


def _controller(s: GameState, areas: Mapping[str, data.Area], area: str) -> str | None:
    a = areas[area]
    land = a.port_of if a.is_port and a.port_of is not None else area  # a port follows its land
    units = s.units.get(land)
    if units:
        return units[0].house
    if areas[land].is_sea:
        return None
    return _controller_if_emptied(s, areas, land)


def _controller_if_emptied(s: GameState, areas: Mapping[str, data.Area], land: str) -> str | None:
    token = s.power_tokens.get(land)
    if token is not None:
        return token
    home = areas[land].home_of
    if home is not None and home in s.players and land not in s.neutral:
        return home
    return None


def castles_by_house(s: GameState, control: dict[str, str | None]) -> dict[str, int]:
    """The victory track for every house, from a control map (same count as castles_controlled)."""
    areas = board(s).areas
    counts = dict.fromkeys(s.players, 0)
    for area, house in control.items():
        a = areas[area]
        if house in counts and a.is_land and a.fortification > 0:
            counts[house] += 1
    return counts


def victory_points(s: GameState, control: dict[str, str | None] | None = None) -> dict[str, int]:
    """The victory track as the game's ruleset counts it (the base game: castles and strongholds controlled), from a
    control map when the caller has one."""
    castles = castle_counts(s) if control is None else castles_by_house(s, control)
    return ruleset(s).victory_points(s, castles, (lambda area: controller(s, area)) if control is None else control.get)


def castle_counts(s: GameState) -> dict[str, int]:
    """The victory track for every house in one pass over the castle and stronghold areas."""
    counts = dict.fromkeys(s.players, 0)
    for area in _castle_areas(s):
        house = controller(s, area)
        if house in counts:
            counts[house] += 1
    return counts


def _castle_areas(s: GameState) -> list[str]:
    return [a.id for a in board(s).areas.values() if a.is_land and a.fortification > 0]


def controlled_lands(s: GameState, house: str) -> list[str]:
    return [a.id for a in board(s).areas.values() if a.is_land and controller(s, a.id) == house]


def castles_controlled(s: GameState, house: str) -> int:
    """The victory track position (B-CONTROL-15)."""
    areas = board(s).areas
    return sum(1 for a in controlled_lands(s, house) if areas[a].fortification > 0)


def strongholds_controlled(s: GameState, house: str) -> int:
    areas = board(s).areas
    return sum(1 for a in controlled_lands(s, house) if areas[a].fortification == 2)


def barrels(s: GameState, house: str) -> int:
    areas = board(s).areas
    return min(6, sum(areas[a].supply for a in controlled_lands(s, house)))


def crowns(s: GameState, house: str) -> int:
    areas = board(s).areas
    return sum(areas[a].crowns for a in controlled_lands(s, house))


def turn_order(s: GameState) -> list[str]:
    return list(s.tracks["iron_throne"])


def commander(s: GameState, house: str) -> str:
    """The house whose player answers ``house``'s prompts (itself, unless it is a vassal)."""
    return ruleset(s).commander(s, house)


def home(s: GameState, house: str) -> str:
    """The house's home area (its capital)."""
    return ruleset(s).houses()[house].home


def is_vassal(s: GameState, house: str) -> bool:
    """Whether ``house`` is a vassal (Mother of Dragons, M-VASSAL-01): in play, commanded by a player."""
    return house in s.vassals


def bid_open(s: GameState) -> bool:
    """Whether a bid is open (a Clash of Kings is one bidding round): available Power is hidden then
    (B-HIDDEN-02/03)."""
    return bool(s.stack) and s.stack[-1].get("type") in ("bidding", "clash")


def player_houses(s: GameState) -> list[str]:
    """The houses in play that players hold, in turn order (every house in play but the vassals)."""
    return [h for h in turn_order(s) if h not in s.vassals]


def vassals_of(s: GameState, liege: str) -> list[str]:
    """The vassals ``liege`` commands this round, in turn order."""
    return [h for h in turn_order(s) if s.vassals.get(h) == liege]


def family(s: GameState, house: str) -> set[str]:
    """A house with its liege and its liege's vassals (M-VASSAL-13, -15, -31): houses that never fight or support
    against each other, nor march into each other's areas. A house without vassal ties is its own family."""
    head = s.vassals.get(house) or house
    return {head, *vassals_of(s, head)}


def holder(s: GameState, track: str) -> str:
    """Who holds the track's dominance token: the first house on the track that may hold one (B-INFL-07; in
    Mother of Dragons a vassal never does)."""
    rs = ruleset(s)
    return next(h for h in s.tracks[track] if rs.holds_dominance(s, h))


def position(s: GameState, track: str, house: str) -> int:
    return s.tracks[track].index(house)


def set_track(s: GameState, track: str, order: list[str]) -> list[str]:
    """The one writer of an influence track: ``order``, with every house the ruleset pins to a space put back on it
    whatever moved (Mother of Dragons: Targaryen keeps space 8 of every track, M-TARG-16). Returns the track."""
    pinned = ruleset(s).pinned_on_tracks(s)
    placed = [h for h in order if h not in pinned]
    for house, index in sorted(pinned.items(), key=lambda item: item[1]):
        if house in order:
            placed.insert(min(index, len(placed)), house)
    s.tracks[track] = placed
    return placed


def move_on_track(s: GameState, track: str, house: str, index: int) -> tuple[int, int]:
    """Put ``house`` at ``index`` (0 = position 1, clamped to the track) and shift the others (B-TRACK-01); a pinned
    house does not move. Returns its positions (1-based) before and after."""
    order = [h for h in s.tracks[track] if h != house]
    old = s.tracks[track].index(house)
    order.insert(max(0, min(index, len(order))), house)
    return old + 1, set_track(s, track, order).index(house) + 1


def stars_allowed(s: GameState, house: str) -> int:
    return ruleset(s).stars_allowed(position(s, "kings_court", house), len(s.players))


def army_sizes(s: GameState, house: str, overrides: dict[str, int] | None = None) -> list[int]:
    """Sizes of every army (2+ units in one area) of ``house``; ``overrides`` replaces an area's count."""
    counts: dict[str, int] = {}
    for area, units in s.units.items():
        if units and units[0].house == house:
            counts[area] = len(units)
    if overrides:
        counts.update(overrides)
    return sorted((n for n in counts.values() if n >= 2), reverse=True)


def fits_supply(sizes: Iterable[int], level: int) -> bool:
    """Whether armies of these sizes fit the flags of a supply level (B-SUPPLY-02, B-SUPPLY-04)."""
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    limits = data.supply_limits(level)
    if len(armies) > len(limits):
        return False
    return all(n <= cap for n, cap in zip(armies, limits, strict=False))


def supply_ok(s: GameState, house: str, overrides: dict[str, int] | None = None) -> bool:
    return fits_supply(army_sizes(s, house, overrides), s.houses[house].supply)


def units_on_board(s: GameState, house: str, unit_type: str) -> int:
    return sum(1 for us in s.units.values() for u in us if u.house == house and u.type == unit_type)


def units_available(s: GameState, house: str, unit_type: str) -> int:
    """Figures of this type still in the house's supply (B-COMP-01, B-COMP-04)."""
    return ruleset(s).houses()[house].unit_limits[unit_type] - units_on_board(s, house, unit_type)


def power_in_pool(s: GameState, house: str) -> int:
    on_board = sum(1 for h in s.power_tokens.values() if h == house)
    total: int = data.setups()["power_tokens_per_house"]
    return total - s.houses[house].power - on_board


def gain_power(s: GameState, house: str, amount: int) -> int:
    """Take up to ``amount`` of the house's tokens from the pool (B-OPEN-06); returns how many. A vassal never
    gains Power (M-VASSAL-30)."""
    if house in s.vassals:
        return 0
    gained = max(0, min(amount, power_in_pool(s, house)))
    s.houses[house].power += gained
    return gained


def lose_power(s: GameState, house: str, amount: int) -> int:
    lost = max(0, min(amount, s.houses[house].power))
    s.houses[house].power -= lost
    return lost


def is_passable(s: GameState, area: str) -> bool:
    return not (area in s.neutral and s.neutral[area] is None)


def friendly_port(s: GameState, house: str, port: str) -> bool:
    return controller(s, port) == house


def transport_lands(s: GameState, house: str, origin: str) -> set[str]:
    """Land areas reachable from ``origin`` through chains of seas holding the house's ships (B-TRANSPORT-01..10)."""
    the_board = board(s)
    seen: set[str] = set()
    frontier = [n for n in the_board.neighbours[origin] if the_board.areas[n].is_sea and occupant(s, n) == house]
    while frontier:
        sea = frontier.pop()
        if sea in seen:
            continue
        seen.add(sea)
        for n in the_board.neighbours[sea]:
            if the_board.areas[n].is_sea and n not in seen and occupant(s, n) == house:
                frontier.append(n)
    lands: set[str] = set()
    for sea in seen:
        for n in the_board.neighbours[sea]:
            if the_board.areas[n].is_land and n != origin:
                lands.add(n)
    return lands


def move_destinations(s: GameState, house: str, origin: str, unit_type: str) -> set[str]:
    """Areas a unit may march to from ``origin``, before considering enemies and supply."""
    the_board = board(s)
    a = the_board.areas[origin]
    out: set[str] = set()
    if ruleset(s).unit_types()[unit_type].at_sea:
        for n in the_board.neighbours[origin]:
            na = the_board.areas[n]
            if na.is_sea or (na.is_port and friendly_port(s, house, n) and house not in s.vassals):
                out.add(n)
        return _outside_family(s, house, out)
    if not a.is_land:
        return out
    for n in the_board.neighbours[origin]:
        if the_board.areas[n].is_land:
            out.add(n)
    out |= transport_lands(s, house, origin)
    if ruleset(s).unit_types()[unit_type].flies:  # M-TARG-14, -23: any land, a neutral force's included
        out |= {n for n, area in the_board.areas.items() if area.is_land and n != origin}
    return _outside_family(s, house, {n for n in out if is_passable(s, n)})


def _outside_family(s: GameState, house: str, areas: set[str]) -> set[str]:
    """M-VASSAL-13, -31: a vassal never marches into a port (above) nor into areas its liege or a fellow vassal
    controls; a liege never into his vassals' areas."""
    if not s.vassals:
        return areas
    others = family(s, house) - {house}
    if not others:
        return areas
    return {n for n in areas if controller(s, n) not in others}


def unit_type(s: GameState, type_id: str) -> data.UnitType:
    """A unit type of the game's ruleset: where it stands, what it costs, how it dies (``Ruleset.unit_types``)."""
    return ruleset(s).unit_types()[type_id]


def weakness(s: GameState, type_id: str) -> int:
    """A unit type's place in the weakest-first order of casualties and forced removals (0 goes first)."""
    return unit_type(s, type_id).weakness


def unit_strength(s: GameState, unit: Unit, *, attacking_castle: bool) -> int:
    """A unit's strength in combat and support (B-COMBAT-05): none when routed, else what its ruleset says."""
    if unit.routed:
        return 0
    return ruleset(s).unit_strength(s, unit, attacking_castle=attacking_castle)
