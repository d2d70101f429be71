"""Write the project's own ``data/`` files from the facts in ``../shared/reference``.

Run by hand when the reference changes (``python tools/import_reference.py``).
Nothing at run time or in tests reads the shared folder: the generated files are
committed, so a fresh clone has everything it needs.

Bulgarian names ("bg") come from ``tools/names_bg.json`` when it exists: only names the Bulgarian
rulebook (seed 001) actually uses, each with the seed line it was found on.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "base-game"
DATA = ROOT / "data"
NAMES_BG = ROOT / "tools" / "names_bg.json"
BG_SEED = ROOT.parent / "shared" / "seeds" / "001_d8fdb68f459be0c8.txt"

FORTIFICATION_LEVEL = {"none": 0, "castle": 1, "stronghold": 2}


def _load(name: str) -> Any:
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def _write(name: str, payload: Any) -> None:
    text = json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=False)
    (DATA / name).write_text(text + "\n", encoding="utf-8")


def _load_bg() -> dict[str, dict[str, dict[str, Any]]]:
    """Bulgarian names from ``tools/names_bg.json``: category -> id -> {"bg", "line"}.

    Each name cites the line of the Bulgarian rulebook (``BG_SEED``) where it is used; when the seed is
    present, every name must occur on its cited line, so a typo in the table stops the import.
    """
    if not NAMES_BG.is_file():
        return {}
    table: dict[str, dict[str, dict[str, Any]]] = json.loads(NAMES_BG.read_text(encoding="utf-8"))
    if BG_SEED.is_file():
        lines = BG_SEED.read_text(encoding="utf-8").split("\n")
        for category, entries in table.items():
            for item_id, entry in entries.items():
                line = entry["line"]
                if not (1 <= line <= len(lines) and entry["bg"] in lines[line - 1]):
                    raise ValueError(f"names_bg.json: {category}/{item_id} {entry['bg']!r} is not on seed line {line}")
    return table


BG_NAMES: dict[str, dict[str, dict[str, Any]]] = {}  # filled by main() from names_bg.json
_BG_USED: set[tuple[str, str]] = set()


def _names(item: dict[str, Any], category: str) -> dict[str, str]:
    names = {"en": item["name_en"]}
    ru = item.get("name_ru") or item.get("name_ru_unverified")
    if ru:
        names["ru"] = ru
    bg = BG_NAMES.get(category, {}).get(item["id"])
    if bg:
        names["bg"] = bg["bg"]
        _BG_USED.add((category, item["id"]))
    return names


def board() -> None:
    src = _load("map.json")
    areas = []
    for a in src["areas"]:
        areas.append(
            {
                "id": a["id"],
                "names": _names(a, "areas"),
                "kind": a["kind"],
                "fortification": FORTIFICATION_LEVEL[a["castle"]],
                "supply": a["supply"],
                "crowns": a["power"],
                "home_of": a["home_of"],
                "port": a["port"],
                "port_of": a["port_of"],
                "port_sea": a["port_sea"],
                "island": a["island"],
                "grid_value": a["grid_value"],
            }
        )
    _write(
        "board.json",
        {
            "about": "Base-game board: areas, borders and rivers. fortification: 0 none, 1 castle, 2 stronghold.",
            "areas": areas,
            "adjacency": sorted(sorted(p) for p in src["adjacency"]),
            "rivers_not_adjacent": sorted(sorted(p) for p in src["rivers_not_adjacent"]),
        },
    )


def houses() -> None:
    src = _load("houses.json")
    out = []
    for h in src["houses"]:
        out.append(
            {
                "id": h["id"],
                "names": _names(h, "houses"),
                "colour": h["colour"],
                "home": h["home_area"],
                "garrison": h["garrison"]["strength"],
                "unit_limits": h["unit_limits"],
                "starting_units": h["starting_units_6p"],
                "starting_supply": h["starting_tracks_6p"]["supply"],
            }
        )
    _write("houses.json", {"about": "The six houses of the base game.", "houses": out})


def setups() -> None:
    src = _load("setups.json")
    counts = {}
    for n, pc in src["player_counts"].items():
        counts[n] = {
            "houses": pc["houses"],
            "kings_court_overlay": pc["kings_court_overlay"],
            "neutral_forces": {area: (None if v == "~" else v) for area, v in pc["neutral_forces"].items()},
            "tracks": pc["influence_tracks_start"],
        }
    _write(
        "setups.json",
        {
            "about": "Setups per player count. A neutral force of null is an impassable ('~') token.",
            "rounds": src["rounds"],
            "starting_power": src["power_tokens"]["starting_available"],
            "power_tokens_per_house": src["power_tokens"]["per_house"],
            "supply_limits": [
                src["supply_limits"]["table"][str(i)] for i in range(src["supply_limits"]["max_position"] + 1)
            ],
            "kings_court_stars": {
                "5-6": src["kings_court_stars"]["5_or_6_players"],
                "3-4": src["kings_court_stars"]["3_or_4_players_with_overlay"],
            },
            "wildling_start": src["wildling_track"]["start"],
            "port_capacity": src["units"]["port_capacity"],
            "player_counts": counts,
            "tie_breakers": {
                "rulebook": ["strongholds", "supply", "power", "iron_throne"],
                "faq": ["land_areas", "supply", "iron_throne"],
            },
        },
    )


def cards() -> None:
    hc = _load("house-cards.json")
    _write(
        "house_cards.json",
        {
            "about": "The 42 house cards. ability: the id the engine's ability table uses, null for no text.",
            "cards": [
                {
                    "id": c["id"],
                    "house": c["house"],
                    "names": _names(c, "house_cards"),
                    "strength": c["strength"],
                    "swords": c["swords"],
                    "fortifications": c["fortifications"],
                    "ability": c["id"] if c.get("ability") else None,
                    "text_en": c.get("ability"),
                    "timing": c.get("ability_timing"),
                }
                for c in hc["cards"]
            ],
        },
    )
    wc = _load("westeros-cards.json")
    _write(
        "westeros_cards.json",
        {
            "about": "Westeros decks I-III. icons: wildling icons on one copy.",
            "cards": [
                {
                    "deck": c["deck"],
                    "id": c["id"],
                    "names": _names(c, "westeros_cards"),
                    "copies": c["copies"],
                    "icons": 1 if c["wildling_icon"] else 0,
                    "text_en": c["effect"],
                }
                for c in wc["cards"]
            ],
        },
    )
    wl = _load("wildling-cards.json")
    _write(
        "wildling_cards.json",
        {
            "about": "The nine wildling cards.",
            "cards": [
                {
                    "id": c["id"],
                    "names": _names(c, "wildling_cards"),
                    "nights_watch_victory_en": c["nights_watch_victory_highest_bidder"],
                    "lowest_bidder_en": c["wildling_victory_lowest_bidder"],
                    "everyone_else_en": c["wildling_victory_everyone_else"],
                }
                for c in wl["cards"]
            ],
        },
    )
    tb = _load("tides-of-battle.json")
    _write(
        "tides_of_battle.json",
        {
            "about": "The 24 Tides of Battle cards (optional module).",
            "cards": [
                {k: c[k] for k in ("id", "value", "swords", "fortifications", "skulls", "count")} for c in tb["cards"]
            ],
        },
    )


def layout() -> None:
    src = _load("layout.json")
    _write("layout.json", {"frame": src["frame"], "grid": src["grid"], "areas": src["areas"]})
    shutil.copyfile(REFERENCE / "layout-grid.png", DATA / "layout-grid.png")


def main() -> int:
    if not REFERENCE.is_dir():
        print(f"reference folder not found: {REFERENCE}; nothing to import", file=sys.stderr)
        return 0
    DATA.mkdir(exist_ok=True)
    BG_NAMES.update(_load_bg())
    board()
    houses()
    setups()
    cards()
    layout()
    unused = sorted(f"{c}/{i}" for c, entries in BG_NAMES.items() for i in entries if (c, i) not in _BG_USED)
    if unused:
        print(f"names_bg.json: ids not found in the reference: {unused}", file=sys.stderr)
        return 1
    print(f"wrote {sorted(p.name for p in DATA.iterdir())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
