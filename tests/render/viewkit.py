"""Builds valid view dicts (docs/view-format.md) for renderer tests, from the repository's data files only."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data"


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


BOARD = _load("board.json")
HOUSES = {h["id"]: h for h in _load("houses.json")["houses"]}
SETUPS = _load("setups.json")
AREA_IDS = [a["id"] for a in BOARD["areas"]]
AREA_KIND = {a["id"]: a["kind"] for a in BOARD["areas"]}
FORTIFIED = [a["id"] for a in BOARD["areas"] if a["fortification"]]


def blank_area() -> dict[str, Any]:
    return {"controller": None, "units": [], "order": None, "power_token": None, "garrison": None, "neutral": None}


def empty_view(players: int = 6) -> dict[str, Any]:
    """A valid public view with no pieces on the board."""
    setup = SETUPS["player_counts"][str(players)]
    houses = list(setup["tracks"]["iron_throne"])
    return {
        "viewer": None,
        "version": 1,
        "round": 1,
        "phase": "planning",
        "step": "assign-orders",
        "players": houses,
        "areas": {a: blank_area() for a in AREA_IDS},
        "tracks": copy.deepcopy(setup["tracks"]),
        "dominance": {
            "iron_throne": {"house": setup["tracks"]["iron_throne"][0], "used": False},
            "valyrian_steel_blade": {"house": setup["tracks"]["fiefdoms"][0], "used": False},
            "messenger_raven": {"house": setup["tracks"]["kings_court"][0], "used": False},
        },
        "supply": {h: 0 for h in houses},
        "victory": {h: 0 for h in houses},
        "power": {h: SETUPS["starting_power"] for h in houses},
        "wildling_threat": SETUPS["wildling_start"],
        "westeros_cards": [],
        "restrictions": [],
        "houses": {h: {"hand": [], "discards": [], "orders_left": 15, "stars_allowed": 3} for h in houses},
        "battle": None,
        "awaiting": list(houses),
        "winner": None,
        "log": [],
    }


def add_units(view: dict[str, Any], area: str, house: str, *types: str, routed: bool = False) -> None:
    state = view["areas"][area]
    state["units"] += [{"house": house, "type": t, "routed": routed} for t in types]
    if AREA_KIND[area] != "port":
        state["controller"] = house


def starting_view(players: int = 6) -> dict[str, Any]:
    """The printed setup for ``players`` houses: units, garrisons, neutral forces, supply and castles."""
    view = empty_view(players)
    setup = SETUPS["player_counts"][str(players)]
    for house in view["players"]:
        info = HOUSES[house]
        for area, units in info["starting_units"].items():
            add_units(view, area, house, *units)
        home = view["areas"][info["home"]]
        home["controller"] = house
        home["garrison"] = info["garrison"]
        view["supply"][house] = info["starting_supply"]
        view["victory"][house] = 1
    for area, strength in setup["neutral_forces"].items():
        view["areas"][area]["neutral"] = "impassable" if strength is None else strength
    return view


def set_order(view: dict[str, Any], area: str, house: str, kind: str, star: bool = False, bonus: int = 0) -> None:
    view["areas"][area]["order"] = {"house": house, "type": kind, "star": star, "bonus": bonus}


def hide_orders(view: dict[str, Any], except_house: str | None = None) -> dict[str, Any]:
    """The view as seen before the reveal: every order face down except ``except_house``'s (private view)."""
    out = copy.deepcopy(view)
    for state in out["areas"].values():
        order = state.get("order")
        if order and order["house"] != except_house:
            state["order"] = {"house": order["house"], "hidden": True}
    out["viewer"] = except_house
    return out


def midgame_view() -> dict[str, Any]:
    """A busy six-house position in round 4: every kind of piece, order and token on the board."""
    v = starting_view(6)
    v.update(version=57, round=4, phase="action", step="march")
    add_units(v, "winterfell", "stark", "footman")
    add_units(v, "moat-cailin", "stark", "knight", "footman")
    add_units(v, "the-twins", "stark", "footman", routed=True)
    add_units(v, "bay-of-ice", "stark", "ship")
    v["areas"]["karhold"].update(controller="stark", power_token="stark")
    add_units(v, "riverrun", "lannister", "knight", "siege-engine", "footman")
    add_units(v, "port-of-lannisport", "lannister", "ship", "ship")
    v["areas"]["harrenhal"].update(controller="lannister", power_token="lannister")
    add_units(v, "seagard", "greyjoy", "footman", "knight")
    add_units(v, "flints-finger", "greyjoy", "footman")
    add_units(v, "sunset-sea", "greyjoy", "ship", "ship")
    add_units(v, "blackwater-bay", "baratheon", "ship")
    add_units(v, "kings-landing", "baratheon", "knight", "footman", "siege-engine")
    v["areas"]["kings-landing"]["neutral"] = None
    add_units(v, "crackclaw-point", "baratheon", "footman", routed=True)
    add_units(v, "the-reach", "tyrell", "knight", "footman")
    add_units(v, "oldtown", "tyrell", "footman")
    add_units(v, "port-of-oldtown", "tyrell", "ship")
    add_units(v, "the-arbor", "tyrell", "footman")
    add_units(v, "yronwood", "martell", "knight", "footman", "footman")
    add_units(v, "starfall", "martell", "footman")
    v["areas"]["princes-pass"].update(controller="martell", power_token="martell")
    orders = [
        ("winterfell", "stark", "defense", True, 2),
        ("moat-cailin", "stark", "march", False, 0),
        ("bay-of-ice", "stark", "support", False, 0),
        ("the-shivering-sea", "stark", "raid", False, 0),
        ("white-harbor", "stark", "consolidate", False, 0),
        ("riverrun", "lannister", "march", True, 1),
        ("lannisport", "lannister", "defense", False, 1),
        ("port-of-lannisport", "lannister", "raid", True, 0),
        ("stoney-sept", "lannister", "support", True, 1),
        ("seagard", "greyjoy", "march", False, -1),
        ("pyke", "greyjoy", "consolidate", True, 0),
        ("sunset-sea", "greyjoy", "support", False, 0),
        ("kings-landing", "baratheon", "defense", False, 1),
        ("dragonstone", "baratheon", "consolidate", False, 0),
        ("shipbreaker-bay", "baratheon", "raid", True, 0),
        ("the-reach", "tyrell", "march", False, 0),
        ("highgarden", "tyrell", "defense", True, 2),
        ("redwyne-straights", "tyrell", "support", True, 1),
        ("yronwood", "martell", "march", True, 1),
        ("sunspear", "martell", "defense", False, 1),
        ("sea-of-dorne", "martell", "raid", False, 0),
    ]
    for area, house, kind, star, bonus in orders:
        set_order(v, area, house, kind, star, bonus)
    v["supply"] = {"stark": 2, "lannister": 3, "baratheon": 3, "greyjoy": 2, "tyrell": 4, "martell": 1}
    v["victory"] = {"stark": 2, "lannister": 3, "baratheon": 2, "greyjoy": 2, "tyrell": 2, "martell": 1}
    v["power"] = {"stark": 4, "lannister": 9, "baratheon": 2, "greyjoy": 6, "tyrell": 5, "martell": 0}
    v["wildling_threat"] = 8
    v["westeros_cards"] = ["supply", "clash-of-kings", "storm-of-swords"]
    v["restrictions"] = ["march"]
    v["dominance"]["valyrian_steel_blade"]["used"] = True
    v["awaiting"] = ["lannister"]
    v["houses"]["lannister"]["discards"] = ["tywin-lannister", "ser-gregor-clegane"]
    v["houses"]["stark"]["discards"] = ["eddard-stark"]
    return v


def battle_view() -> dict[str, Any]:
    """The mid-game position with Lannister attacking Stark's Twins from Riverrun, cards revealed."""
    v = midgame_view()
    v["step"] = "combat"
    v["battle"] = {
        "area": "the-twins",
        "attacker": "lannister",
        "defender": "stark",
        "attacker_units": [{"type": "knight", "routed": False}, {"type": "siege-engine", "routed": False}],
        "defender_units": [{"type": "footman", "routed": False}],
        "from": "riverrun",
        "supporters": {"attacker": ["stoney-sept"], "defender": ["moat-cailin"], "undecided": ["seagard"]},
        "garrison": None,
        "defense_bonus": 0,
        "march_bonus": 1,
        "cards": {"attacker": "tywin-lannister", "defender": "robb-stark"},
        "blade": "lannister",
        "tides": {"attacker": None, "defender": None},
        "strength": {"attacker": 9, "defender": 5},
        "winner": None,
    }
    v["areas"]["the-twins"]["units"] = [{"house": "stark", "type": "footman", "routed": False}]
    return v


def sunset_battle_view() -> dict[str, Any]:
    """A battle in the Sunset Sea, the long strip along the board's edge: Greyjoy from Ironman's Bay against
    Lannister, supported from the Golden Sound."""
    v = battle_view()
    v["battle"].update(area="sunset-sea", attacker="greyjoy", defender="lannister", supporters={
        "attacker": [], "defender": ["the-golden-sound"], "none": []})  # fmt: skip
    v["battle"]["from"] = "ironmans-bay"
    return v
