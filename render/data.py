"""Read-only game facts the renderer needs, loaded once from the repository's ``data/`` files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
ASSET_DIR = Path(__file__).resolve().parent / "assets"

HOUSE_ORDER = ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "arryn")


@dataclass(frozen=True)
class BoardFiles:
    """Where one board's facts and the renderer's shapes for it live."""

    board: str  # in data/
    layout: str  # in data/
    grid: str  # in data/
    assets: Path


# A game's ruleset names its board; the Mother of Dragons board for 7 houses is the base board with the Eyrie and
# Bite overlays.
BOARDS: dict[str, BoardFiles] = {
    "base": BoardFiles("board.json", "layout.json", "layout-grid.png", ASSET_DIR),
    "mother-of-dragons": BoardFiles(
        "mother-of-dragons/board-westeros.json",
        "mother-of-dragons/layout-westeros.json",
        "mother-of-dragons/layout-grid-westeros.png",
        ASSET_DIR / "mother-of-dragons",
    ),
}
_BOARD: ContextVar[str] = ContextVar("render_board", default="base")


def board_name() -> str:
    """The board being drawn now (each render call sets it from its view; threads and tasks keep their own)."""
    return _BOARD.get()


def board_files() -> BoardFiles:
    return BOARDS[board_name()]


def board_of(view: Any) -> str:
    """The board a view is played on: its ruleset's (a view without one is a base game's)."""
    options = view.get("options") if isinstance(view, dict) else None
    ruleset = options.get("ruleset", "base") if isinstance(options, dict) else "base"
    return ruleset if ruleset in BOARDS else "base"


def use_board(board: str) -> None:
    """Draw on ``board`` from now on in this thread or task (``views.check`` calls it for every view it checks)."""
    _BOARD.set(board)


@contextmanager
def drawing(board: str) -> Iterator[None]:
    """Draw on ``board`` until the block ends."""
    token = _BOARD.set(board)
    try:
        yield
    finally:
        _BOARD.reset(token)


UNIT_TYPES = ("footman", "knight", "siege-engine", "ship")
ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate")


def _load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Area:
    """One board area as ``data/board.json`` describes it."""

    id: str
    index: int  # grid_value: 1 + position in board.json, also the palette index in assets/areas.png
    kind: str  # land | sea | port
    names: dict[str, str]
    fortification: int
    supply: int
    crowns: int
    home_of: str | None
    port: str | None
    port_of: str | None
    port_sea: str | None
    island: bool

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]


def areas() -> dict[str, Area]:
    return areas_of(board_name())


@cache
def areas_of(name: str) -> dict[str, Area]:
    board = _load(BOARDS[name].board)
    out: dict[str, Area] = {}
    for a in board["areas"]:
        out[a["id"]] = Area(
            id=a["id"],
            index=a["grid_value"],
            kind=a["kind"],
            names=dict(a["names"]),
            fortification=a["fortification"],
            supply=a["supply"],
            crowns=a["crowns"],
            home_of=a["home_of"],
            port=a["port"],
            port_of=a["port_of"],
            port_sea=a["port_sea"],
            island=a["island"],
        )
    return out


def area_by_index() -> dict[int, Area]:
    return area_by_index_of(board_name())


@cache
def area_by_index_of(name: str) -> dict[int, Area]:
    return {a.index: a for a in areas_of(name).values()}


def adjacency() -> frozenset[frozenset[str]]:
    return adjacency_of(board_name())


@cache
def adjacency_of(name: str) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p) for p in _load(BOARDS[name].board)["adjacency"])


def rivers() -> frozenset[frozenset[str]]:
    """Pairs that touch on the board but are not adjacent (a river runs along their border)."""
    return rivers_of(board_name())


@cache
def rivers_of(name: str) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p) for p in _load(BOARDS[name].board)["rivers_not_adjacent"])


def layout() -> dict[str, Any]:
    return layout_of(board_name())


@cache
def layout_of(name: str) -> dict[str, Any]:
    data: dict[str, Any] = _load(BOARDS[name].layout)
    return data


@cache
def houses() -> dict[str, dict[str, Any]]:
    files = ("houses.json", "mother-of-dragons/houses.json")
    return {h["id"]: h for name in files for h in _load(name)["houses"]}


@cache
def house_cards() -> dict[str, dict[str, Any]]:
    files = ("house_cards.json", "mother-of-dragons/house_cards.json")
    return {c["id"]: c for name in files for c in _load(name)["cards"]}


@cache
def westeros_cards() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in _load("westeros_cards.json")["cards"]}


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
