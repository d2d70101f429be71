"""Static game data, loaded once from the project's ``data/`` folder."""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, fields, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

TRACKS = ("iron_throne", "fiefdoms", "kings_court")
DOMINANCE_OF_TRACK = {
    "iron_throne": "iron_throne",
    "fiefdoms": "valyrian_steel_blade",
    "kings_court": "messenger_raven",
}


def _read(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


@cache
def read(name: str) -> Any:
    """A data file as parsed JSON, read once (for a ruleset's own tables)."""
    return _read(name)


@dataclass(frozen=True)
class Area:
    id: str
    names: dict[str, str]
    kind: str  # land | sea | port
    fortification: int  # 0 none, 1 castle, 2 stronghold
    supply: int
    crowns: int
    home_of: str | None
    port: str | None  # a land's port
    port_of: str | None  # a port's land
    port_sea: str | None  # a port's sea
    island: bool

    @property
    def is_land(self) -> bool:
        return self.kind == "land"

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_port(self) -> bool:
        return self.kind == "port"

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class Board:
    areas: dict[str, Area]
    neighbours: dict[str, frozenset[str]]
    rivers: frozenset[frozenset[str]]

    def area(self, area_id: str) -> Area:
        return self.areas[area_id]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours[a]


@cache
def board(name: str = "board.json") -> Board:
    """A board from the data folder: the base game's by default, or an expansion's (a path inside ``data/``)."""
    raw = _read(name)
    areas = {
        a["id"]: Area(
            id=a["id"],
            names=a["names"],
            kind=a["kind"],
            fortification=a["fortification"],
            supply=a["supply"],
            crowns=a["crowns"],
            home_of=a["home_of"],
            port=a["port"],
            port_of=a["port_of"],
            port_sea=a["port_sea"],
            island=a["island"],
        )
        for a in raw["areas"]
    }
    neighbours: dict[str, set[str]] = {a: set() for a in areas}
    for a, b in raw["adjacency"]:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return Board(
        areas=areas,
        neighbours={a: frozenset(n) for a, n in neighbours.items()},
        rivers=frozenset(frozenset(p) for p in raw["rivers_not_adjacent"]),
    )


@dataclass(frozen=True)
class HouseCard:
    id: str
    house: str
    names: dict[str, str]
    strength: int
    swords: int
    fortifications: int
    ability: str | None
    text_en: str | None
    text_ru: str | None = None  # absent from the expansion's file: its cards have English texts only
    set: str | None = None  # a house with two sets (Targaryen's "a" and "b") plays the one its game's options name

    @property
    def texts(self) -> dict[str, str]:
        """The card's text by language ("en", "ru"); empty for a card without a text ability."""
        return {lang: text for lang, text in (("en", self.text_en), ("ru", self.text_ru)) if text}

    def text(self, lang: str = "en") -> str | None:
        """The card's text in ``lang``, else in English; None for a card without a text ability."""
        return self.texts.get(lang) or self.text_en


def _record(cls: type[T], raw: dict[str, Any]) -> T:
    """A frozen record from a data-file entry, taking the fields the class declares (extra keys are notes).

    A field with a default may be missing from the entry."""
    wanted = {f.name: raw[f.name] for f in fields(cls) if f.name in raw or f.default is MISSING}  # type: ignore[arg-type]
    return cls(**wanted)


# Card ids are unique across the base game and its expansion, so one catalogue serves every ruleset.
HOUSE_CARD_FILES = (
    "house_cards.json",
    "mother-of-dragons/house_cards.json",
    "mother-of-dragons/house_cards_targaryen.json",
    "mother-of-dragons/vassal_cards.json",
)
VASSAL_DECK_HOUSE = "vassal"  # the house field of the vassal deck's cards (Mother of Dragons, M-VASSAL-22)


@cache
def house_cards() -> dict[str, HouseCard]:
    return {c["id"]: _record(HouseCard, c) for name in HOUSE_CARD_FILES for c in _read(name)["cards"]}


@dataclass(frozen=True)
class HouseInfo:
    id: str
    names: dict[str, str]
    colour: str
    home: str
    garrison: int
    unit_limits: dict[str, int]
    starting_units: dict[str, list[str]]
    starting_supply: int
    can_be_vassal: bool = True  # Targaryen never is (M-TARG-01, M-VASSAL-07): nobody plays it, it stays out


@cache
def houses(name: str = "houses.json") -> dict[str, HouseInfo]:
    return {h["id"]: _record(HouseInfo, h) for h in _read(name)["houses"]}


@dataclass(frozen=True)
class UnitType:
    """A kind of unit as a ruleset declares it (``Ruleset.unit_types``); the base game's four are in data/units.json.

    Rules ask these fields, never the type's name: where it stands, its strength (``Ruleset.unit_strength`` may work
    it out from the state instead), what mustering it costs, the weakest-first order, casualties and retreats.
    """

    id: str
    stands: str  # land | sea (seas and ports)
    strength: int  # in combat and support (B-COMBAT-05)
    strength_attacking_castle: int  # when its side attacks a castle or stronghold (a siege engine's 4)
    cost: int | None  # mustering points to recruit one (B-MUSTER-03); None: never mustered
    upgrades_from: str | None  # the unit a mustering upgrade replaces by this one (B-MUSTER-05)
    weakness: int  # place in the weakest-first order of casualties and forced removals (0 goes first)
    casualty: bool  # whether it can be taken as a casualty (not a siege engine, B-CAS-07)
    retreats: bool  # whether it can retreat from a lost battle; if not it is destroyed (B-RETREAT-11)
    flies: bool = False  # a March order may take it to any land area (a dragon, M-TARG-14); never when retreating

    @property
    def at_sea(self) -> bool:
        return self.stands == "sea"

    @property
    def musterable(self) -> bool:
        return self.cost is not None


@cache
def unit_types(name: str = "units.json") -> dict[str, UnitType]:
    """A table of unit types by id, in the order prompts list them."""
    return {u["id"]: _record(UnitType, u) for u in _read(name)["units"]}


@cache
def setups() -> dict[str, Any]:
    result: dict[str, Any] = _read("setups.json")
    return result


@cache
def westeros_cards() -> dict[str, Any]:
    """The base game's decks I-III: key "deck:id" -> {deck, id, copies, icons, names, text_en, text_ru}; ids are
    unique per deck."""
    return {f"{c['deck']}:{c['id']}": c for c in _read("westeros_cards.json")["cards"]}


@cache
def westeros_deck4() -> dict[str, Any]:
    """Mother of Dragons' deck IV (only when Targaryen plays), keyed "4:id" like the others; its cards also carry
    banner_areas, cost and (some) choosable_areas."""
    return {f"{c['deck']}:{c['id']}": c for c in _read("mother-of-dragons/westeros_deck4.json")["cards"]}


@cache
def all_westeros_cards() -> dict[str, Any]:
    """Every Westeros card of every deck (I-IV), keyed "deck:id": for names, icons and a game's decks."""
    return {**westeros_cards(), **westeros_deck4()}


@cache
def iron_bank() -> dict[str, Any]:
    """Mother of Dragons' Iron Bank (only when Targaryen plays): slot payments left to right, Braavos's area and
    discount, interest per loan, and the twelve loan cards."""
    raw: dict[str, Any] = _read("mother-of-dragons/iron_bank.json")
    return raw


@cache
def loan_cards() -> dict[str, Any]:
    """Loan card id -> its record (names, texts, effect, and units/power/develop where the effect needs them)."""
    return {c["id"]: c for c in iron_bank()["loans"]}


@lru_cache(maxsize=512)  # one board per development state met; a long-running bot meets ever more of them
def developed_board(name: str, marks: tuple[tuple[str, str, int], ...]) -> Board:
    """A board with development and decline tokens (M-DEV-01, -02): ``marks`` lists (area, token, count) for
    development tokens (barrel, crown, stronghold) and (area, symbol, -1) for a covered symbol (castle). A barrel adds
    to the area's supply, a crown to its Power, a stronghold turns a castle into a stronghold; a declined castle is
    gone (only a castle takes a stronghold token or a decline token, so the two never meet in one area)."""
    base = board(name)
    changed: dict[str, dict[str, int]] = {}
    for area_id, mark, count in marks:
        a = base.areas[area_id]
        values = changed.setdefault(area_id, {"supply": a.supply, "crowns": a.crowns, "fortification": a.fortification})
        if mark == "castle" and count < 0:
            values["fortification"] = 0 if values["fortification"] == 1 else values["fortification"]
        elif mark == "barrel":
            values["supply"] += count
        elif mark == "crown":
            values["crowns"] += count
        elif mark == "stronghold":
            values["fortification"] = 2
        else:
            raise ValueError(f"unknown board mark {mark!r}")
    areas = {
        a: replace(area, supply=v["supply"], crowns=v["crowns"], fortification=v["fortification"])
        if (v := changed.get(a))
        else area
        for a, area in base.areas.items()
    }
    return Board(areas=areas, neighbours=base.neighbours, rivers=base.rivers)


@cache
def wildling_cards() -> dict[str, Any]:
    """Card id -> {id, names, and one text per outcome and language: nights_watch_victory_en/_ru (the highest
    bidder's reward), lowest_bidder_en/_ru and everyone_else_en/_ru (the penalties of a wildling victory)}."""
    return {c["id"]: c for c in _read("wildling_cards.json")["cards"]}


WILDLING_OUTCOMES = ("nights_watch_victory", "lowest_bidder", "everyone_else")


def card_text(card: dict[str, Any], lang: str = "en", field: str = "text") -> str:
    """A Westeros or wildling card's text (``field`` "text", or a wildling outcome) in ``lang``, else in English."""
    text: str = card.get(f"{field}_{lang}") or card[f"{field}_en"]
    return text


@cache
def tides_cards() -> dict[str, Any]:
    return {c["id"]: c for c in _read("tides_of_battle.json")["cards"]}


def supply_limits(level: int) -> list[int]:
    limits: list[int] = setups()["supply_limits"][max(0, min(6, level))]
    return limits


def stars_allowed(position: int, player_count: int) -> int:
    """Special orders allowed at King's Court ``position`` (0-based)."""
    table = setups()["kings_court_stars"]["3-4" if player_count <= 4 else "5-6"]
    return table[position] if position < len(table) else 0


# Every board's file, the base game's first: an expansion's board repeats the base areas it keeps.
BOARD_FILES = ("board.json", "mother-of-dragons/board-essos.json")


@cache
def all_areas() -> dict[str, Area]:
    """Every area of every board by id (for names: an id means the same place on each board that has it)."""
    out: dict[str, Area] = {}
    for name in BOARD_FILES:
        for area_id, area in board(name).areas.items():
            out.setdefault(area_id, area)
    return out
