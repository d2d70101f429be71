"""Read-only game facts the renderer needs, loaded once from the repository's ``data/`` files."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from engine import data as rules_data
from render import style
from render.palette import area_slot

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
ASSET_DIR = Path(__file__).resolve().parent / "assets"

HOUSE_ORDER = ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "arryn", "targaryen")


@dataclass(frozen=True)
class BoardFiles:
    """Where one board's facts and the renderer's shapes for it live."""

    board: str  # in data/
    layout: str  # in data/
    grid: str  # in data/
    assets: Path
    # The part of the map the board image shows (map px, from the left edge), when not all of it: the Essos board's
    # Westeros side; Essos is drawn apart (render/essos.py).
    board_width: int | None = None
    late_colours: bool = False  # whether its images may show Targaryen (render/palette.py's late entries)
    units: str = "units.json"  # in data/: the unit types a view of this board may show


# The boards by the names views give them (``view["options"]["board"]``); the Mother of Dragons board for 7 houses is
# the base board with the Eyrie and Bite overlays, the one for 8 houses (Targaryen plays) that board with Essos to the
# right of it.
BOARDS: dict[str, BoardFiles] = {
    "base": BoardFiles("board.json", "layout.json", "layout-grid.png", ASSET_DIR),
    "mother-of-dragons": BoardFiles(
        "mother-of-dragons/board-westeros.json",
        "mother-of-dragons/layout-westeros.json",
        "mother-of-dragons/layout-grid-westeros.png",
        ASSET_DIR / "mother-of-dragons",
    ),
    "mother-of-dragons-essos": BoardFiles(
        "mother-of-dragons/board-essos.json",
        "mother-of-dragons/layout.json",
        "mother-of-dragons/layout-grid.png",
        ASSET_DIR / "mother-of-dragons-essos",
        board_width=1194,
        late_colours=True,
        units="mother-of-dragons/units.json",  # the dragons
    ),
}


def board_of(view: Any) -> RenderBoard:
    """The board a view names (a view from before boards were named: its ruleset's; none: the base game's)."""
    options = view.get("options") if isinstance(view, dict) else None
    if not isinstance(options, dict):
        return board_named("base")
    name = options.get("board", options.get("ruleset", "base"))
    return board_named(name if name in BOARDS else "base")


# The unit types a view may show, from the engine's tables (data/units.json and the expansion's, which adds the
# dragon): land units, then ships.
UNIT_KINDS = rules_data.unit_types() | rules_data.unit_types("mother-of-dragons/units.json")
UNIT_TYPES = tuple(sorted(UNIT_KINDS, key=lambda t: UNIT_KINDS[t].at_sea))
ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate", "iron-bank")  # iron-bank: a sea order (MoD)


def _load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Area(rules_data.Area):
    """One board area as the engine reads it from ``data/board.json``, with its place on the layout grid."""

    # Its palette entry, also its pixel value in assets/areas.png: its grid_value (1 + position in board.json), but
    # for the Essos board's areas past the 61st an entry at the top of the palette (render.palette.area_slot).
    index: int


@cache
def areas_of(name: str) -> dict[str, Area]:
    file = BOARDS[name].board
    grid = {a["id"]: a["grid_value"] for a in rules_data.read(file)["areas"]}
    return {
        area_id: Area(**{f.name: getattr(a, f.name) for f in fields(a)}, index=area_slot(grid[area_id]))
        for area_id, a in rules_data.board(file).areas.items()
    }


@cache
def area_by_index_of(name: str) -> dict[int, Area]:
    return {a.index: a for a in areas_of(name).values()}


@cache
def adjacency_of(name: str) -> frozenset[frozenset[str]]:
    board = rules_data.board(BOARDS[name].board)
    return frozenset(frozenset((a, b)) for a, near in board.neighbours.items() for b in near)


@cache
def rivers_of(name: str) -> frozenset[frozenset[str]]:
    """Pairs that touch on the board but are not adjacent (a river runs along their border)."""
    return rules_data.board(BOARDS[name].board).rivers


@cache
def layout_of(name: str) -> dict[str, Any]:
    data: dict[str, Any] = _load(BOARDS[name].layout)
    return data


@dataclass(frozen=True, eq=False)
class RenderBoard:
    """One board as the renderer draws it: its files and its areas, looked up once per board name
    (:func:`board_named`, so two boards are equal only when they are the same object). Every function that depends on
    the board takes one; the entry points get it from their view (:func:`board_of`)."""

    name: str  # a key of BOARDS
    files: BoardFiles
    areas: dict[str, Area]
    area_by_index: dict[int, Area]
    adjacency: frozenset[frozenset[str]]
    rivers: frozenset[frozenset[str]]  # pairs that touch but are not adjacent (a river runs along their border)

    size: tuple[int, int]  # the whole map at the drawing scale (px)
    unit_types: frozenset[str]  # the unit types its views may show

    def layout(self) -> dict[str, Any]:
        """The board's layout frame (read by build_shapes only, so loaded on demand)."""
        return layout_of(self.name)

    @property
    def board_width(self) -> int:
        """How much of the map (from its left edge) the board image shows: all of it, or the Essos board's Westeros."""
        return self.files.board_width or self.size[0]

    @property
    def has_essos(self) -> bool:
        return self.files.board_width is not None


@cache
def board_named(name: str) -> RenderBoard:
    """The board ``name`` (a key of BOARDS)."""
    frame = layout_of(name)["frame"]
    size = (round(frame["width"] * style.SCALE), round(frame["height"] * style.SCALE))
    units = frozenset(rules_data.unit_types(BOARDS[name].units))
    return RenderBoard(
        name, BOARDS[name], areas_of(name), area_by_index_of(name), adjacency_of(name), rivers_of(name), size, units
    )


@cache
def houses() -> dict[str, dict[str, Any]]:
    files = ("houses.json", "mother-of-dragons/houses.json")
    return {h["id"]: h for name in files for h in _load(name)["houses"]}


@cache
def house_cards() -> dict[str, dict[str, Any]]:
    """Every house card the rules know (Targaryen's and the vassal deck's too): the rules' own list of files."""
    return {c["id"]: c for name in rules_data.HOUSE_CARD_FILES for c in _load(name)["cards"]}


@cache
def westeros_cards() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in _load("westeros_cards.json")["cards"]}


DECK4 = "mother-of-dragons/westeros_deck4.json"  # Westeros deck IV, drawn when Targaryen plays


@cache
def westeros_deck4() -> dict[str, dict[str, Any]]:
    """Deck IV's cards by id (their names, en and ru); empty without the data file."""
    if not (DATA_DIR / DECK4).exists():
        return {}
    return {c["id"]: c for c in _load(DECK4)["cards"]}


@cache
def loan_cards() -> dict[str, dict[str, Any]]:
    """The Iron Bank's loan cards by id (their names, en and ru)."""
    cards: dict[str, dict[str, Any]] = rules_data.loan_cards()
    return cards


@cache
def tides_cards() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in _load("tides_of_battle.json")["cards"]}


@cache
def setups() -> dict[str, Any]:
    data: dict[str, Any] = _load("setups.json")
    return data


def supply_limits(level: int) -> list[int]:
    """Army sizes allowed at supply ``level`` (0..6)."""
    table: list[list[int]] = setups()["supply_limits"]
    return list(table[max(0, min(level, len(table) - 1))])


def kings_court_stars(players: int) -> list[int]:
    stars: dict[str, list[int]] = setups()["kings_court_stars"]
    return list(stars["5-6" if players >= 5 else "3-4"])
