"""Read-only game facts the renderer needs, loaded once from the repository's ``data/`` files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
ASSET_DIR = Path(__file__).resolve().parent / "assets"

HOUSE_ORDER = ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell")
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


@cache
def areas() -> dict[str, Area]:
    board = _load("board.json")
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


@cache
def area_by_index() -> dict[int, Area]:
    return {a.index: a for a in areas().values()}


@cache
def adjacency() -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p) for p in _load("board.json")["adjacency"])


@cache
def rivers() -> frozenset[frozenset[str]]:
    """Pairs that touch on the board but are not adjacent (a river runs along their border)."""
    return frozenset(frozenset(p) for p in _load("board.json")["rivers_not_adjacent"])


@cache
def layout() -> dict[str, Any]:
    data: dict[str, Any] = _load("layout.json")
    return data


@cache
def houses() -> dict[str, dict[str, Any]]:
    return {h["id"]: h for h in _load("houses.json")["houses"]}


@cache
def house_cards() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in _load("house_cards.json")["cards"]}


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
