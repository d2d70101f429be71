"""Write the project's own ``data/`` files from the facts in ``../shared/reference``.

Run by hand when the reference changes (``python tools/import_reference.py``).
Nothing at run time or in tests reads the shared folder: the generated files are
committed, so a fresh clone has everything it needs.

Bulgarian names ("bg") come from ``tools/names_bg.json`` when it exists: only names the Bulgarian
rulebook (seed 001) actually uses, each with the seed line it was found on.

Russian names ("ru") come from ``tools/names_ru.json``: one entry for every area, house, house card, Westeros card
and wildling card. A name the Russian rulebook (seed 002; "seed": "003" for the Mother of Dragons rulebook) uses cites
its line, with "as" when the book prints it inflected or shortened there; a name the book never gives is marked
``"line": null, "own": true``. Russian card texts come from ``tools/texts_ru.json``: the project's own paraphrases,
written from the English facts in the rulebook's terms. Each English text field ``<field>_en`` of the data files gets
a ``<field>_ru`` beside it (``text_ru`` for house and Westeros cards; ``nights_watch_victory_ru``,
``lowest_bidder_ru`` and ``everyone_else_ru`` for wildling cards).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "base-game"
DATA = ROOT / "data"
NAMES_BG = ROOT / "tools" / "names_bg.json"
BG_SEED = ROOT.parent / "shared" / "seeds" / "001_d8fdb68f459be0c8.txt"
NAMES_RU = ROOT / "tools" / "names_ru.json"
TEXTS_RU = ROOT / "tools" / "texts_ru.json"
RU_SEEDS = {
    "002": ROOT.parent / "shared" / "seeds" / "002_7cebedaafbd9f59c.txt",  # the base game's Russian rulebook
    "003": ROOT.parent / "shared" / "seeds" / "003_963b092c48c4bcfa.txt",  # Mother of Dragons, Russian
}
RU_CATEGORIES = ("areas", "houses", "house_cards", "westeros_cards", "wildling_cards")
WILDLING_TEXTS = ("nights_watch_victory", "lowest_bidder", "everyone_else")

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


def player_text(text: str | None) -> str | None:
    """A card text as players read it: the reference's notes to the implementer ("(interpretation: ...)") become
    part of the sentence, without the label."""
    return re.sub(r" \(interpretation: ([^)]*)\)", r"; \1", text) if text else text


def on_seed_line(lines: list[str], line: int, text: str) -> bool:
    """Whether ``text`` starts on seed line ``line`` (1-based), spaces collapsed. It may run on to the next non-blank
    line: the extracted rulebook breaks its lines inside names («Королевский» / «лес»)."""
    if not 1 <= line <= len(lines):
        return False
    here = " ".join(lines[line - 1].split())
    after = next((" ".join(rest.split()) for rest in lines[line:] if rest.strip()), "")
    at = f"{here} {after}".find(text)
    return 0 <= at < len(here)


def _load_ru() -> dict[str, dict[str, dict[str, Any]]]:
    """Russian names from ``tools/names_ru.json``: category -> id -> {"ru", "line", "as"?, "seed"?, "own"?, "note"?}.

    A cited name (or its printed form "as") must be on its line of the seed when the seed is present; a name of our
    own has ``"line": null, "own": true``. A malformed entry or a wrong line stops the import.
    """
    if not NAMES_RU.is_file():
        return {}
    table: dict[str, dict[str, dict[str, Any]]] = json.loads(NAMES_RU.read_text(encoding="utf-8"))
    if set(table) != set(RU_CATEGORIES):
        raise ValueError(f"names_ru.json: categories {sorted(table)}, expected {sorted(RU_CATEGORIES)}")
    seeds = {key: path.read_text(encoding="utf-8").split("\n") for key, path in RU_SEEDS.items() if path.is_file()}
    for category, entries in table.items():
        for item_id, entry in entries.items():
            where = f"names_ru.json: {category}/{item_id}"
            if not isinstance(entry.get("ru"), str) or not entry["ru"].strip():
                raise ValueError(f"{where}: no Russian name")
            if entry["line"] is None:
                if entry.get("own") is not True or "as" in entry or "seed" in entry:
                    raise ValueError(f"{where}: a name without a line must be marked own (and cite nothing)")
                continue
            if "own" in entry or not isinstance(entry["line"], int):
                raise ValueError(f"{where}: a cited name has an int line and no 'own'")
            seed = entry.get("seed", "002")
            if seed not in RU_SEEDS:
                raise ValueError(f"{where}: unknown seed {seed!r}")
            printed = entry.get("as", entry["ru"])
            if seed in seeds and not on_seed_line(seeds[seed], entry["line"], printed):
                raise ValueError(f"{where}: {printed!r} is not on line {entry['line']} of seed {seed}")
    return table


def _load_texts_ru() -> dict[str, dict[str, Any]]:
    """Russian card texts from ``tools/texts_ru.json``: category -> id -> text (wildling cards: one per outcome)."""
    if not TEXTS_RU.is_file():
        return {}
    table: dict[str, dict[str, Any]] = json.loads(TEXTS_RU.read_text(encoding="utf-8"))
    return table


BG_NAMES: dict[str, dict[str, dict[str, Any]]] = {}  # filled by main() from names_bg.json
_BG_USED: set[tuple[str, str]] = set()
RU_NAMES: dict[str, dict[str, dict[str, Any]]] = {}  # filled by main() from names_ru.json
_RU_USED: set[tuple[str, str]] = set()
RU_TEXTS: dict[str, dict[str, Any]] = {}  # filled by main() from texts_ru.json
_RU_TEXTS_USED: set[tuple[str, str]] = set()


def _text_ru(category: str, item_id: str, english: Any) -> Any:
    """The Russian text of a card: present exactly when the English one is (a card without text has neither)."""
    ru = RU_TEXTS.get(category, {}).get(item_id) if RU_TEXTS else None
    if RU_TEXTS and (ru is None) != (english is None):
        raise ValueError(f"texts_ru.json: {category}/{item_id} has {'no' if ru is None else 'a'} Russian text")
    if ru is not None:
        _RU_TEXTS_USED.add((category, item_id))
    return ru


def _names(item: dict[str, Any], category: str) -> dict[str, str]:
    names = {"en": item["name_en"]}
    ru = item.get("name_ru") or item.get("name_ru_unverified")
    entry = RU_NAMES.get(category, {}).get(item["id"])
    if RU_NAMES and category in RU_CATEGORIES:
        if entry is None:
            raise ValueError(f"names_ru.json: no Russian name for {category}/{item['id']}")
        if item.get("name_ru") and item["name_ru"] != entry["ru"]:
            raise ValueError(f"names_ru.json: {category}/{item['id']} {entry['ru']!r} differs from the reference")
        ru = entry["ru"]
        _RU_USED.add((category, item["id"]))
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
                    "text_en": player_text(c.get("ability")),
                    "text_ru": _text_ru("house_cards", c["id"], c.get("ability")),
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
                    "text_ru": _text_ru("westeros_cards", c["id"], c["effect"]),
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
            "cards": [_wildling_card(c) for c in wl["cards"]],
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


def _wildling_card(c: dict[str, Any]) -> dict[str, Any]:
    english = {
        "nights_watch_victory": c["nights_watch_victory_highest_bidder"],
        "lowest_bidder": c["wildling_victory_lowest_bidder"],
        "everyone_else": c["wildling_victory_everyone_else"],
    }
    russian = _text_ru("wildling_cards", c["id"], english) or {}
    if RU_TEXTS and set(russian) != set(WILDLING_TEXTS):
        raise ValueError(f"texts_ru.json: wildling_cards/{c['id']} needs exactly {WILDLING_TEXTS}")
    out: dict[str, Any] = {"id": c["id"], "names": _names(c, "wildling_cards")}
    for field in WILDLING_TEXTS:
        out[f"{field}_en"] = english[field]
        if field in russian:
            out[f"{field}_ru"] = russian[field]
    return out


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
    RU_NAMES.update(_load_ru())
    RU_TEXTS.update(_load_texts_ru())
    board()
    houses()
    setups()
    cards()
    layout()
    unused = sorted(f"{c}/{i}" for c, entries in BG_NAMES.items() for i in entries if (c, i) not in _BG_USED)
    if unused:
        print(f"names_bg.json: ids not found in the reference: {unused}", file=sys.stderr)
        return 1
    unused = sorted(f"{c}/{i}" for c, entries in RU_NAMES.items() for i in entries if (c, i) not in _RU_USED)
    unused += sorted(f"{c}/{i}" for c, entries in RU_TEXTS.items() for i in entries if (c, i) not in _RU_TEXTS_USED)
    if unused:
        print(f"names_ru.json / texts_ru.json: ids not found in the reference: {unused}", file=sys.stderr)
        return 1
    print(f"wrote {sorted(p.name for p in DATA.iterdir())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
