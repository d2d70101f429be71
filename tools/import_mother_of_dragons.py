"""Write ``data/mother-of-dragons/`` from the facts in ``../shared/reference/mother-of-dragons``.

Run by hand when that reference changes (``python tools/import_mother_of_dragons.py``), after
``tools/import_reference.py`` (the expansion's boards start from the base board in ``data/board.json``).
Nothing at run time or in tests reads the shared folder: the generated files are committed.

Two boards are written: ``board-westeros.json`` (the base board with the Eyrie and Bite overlays, 61 areas, used in
every Mother of Dragons game) and ``board-essos.json`` (that board with Essos beside it, 75 areas, used only when
Targaryen plays).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "mother-of-dragons"
BASE_DATA = ROOT / "data"
OUT = BASE_DATA / "mother-of-dragons"

FORTIFICATION_LEVEL = {"none": 0, "castle": 1, "stronghold": 2}
TRACKS = ("iron_throne", "fiefdoms", "kings_court")


def _load(name: str) -> Any:
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def _base(name: str) -> Any:
    return json.loads((BASE_DATA / name).read_text(encoding="utf-8"))


def _write(name: str, payload: Any) -> None:
    text = json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=False)
    (OUT / name).write_text(text + "\n", encoding="utf-8")


def _names(item: dict[str, Any]) -> dict[str, str]:
    names = {"en": item["name_en"]}
    ru = item.get("name_ru") or item.get("name_ru_unverified")
    if ru:
        names["ru"] = ru
    return names


def _new_area(a: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": a["id"],
        "names": _names(a),
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


def boards() -> None:
    src = _load("map.json")
    base = _base("board.json")
    areas = {a["id"]: dict(a) for a in base["areas"]}
    for changed in src["changed_areas"]:
        mod = changed.get("mother_of_dragons")
        if not mod:
            continue
        area = areas[changed["id"]]
        for key, value in mod.items():
            if key == "castle":
                area["fortification"] = FORTIFICATION_LEVEL[value]
            elif key == "power":
                area["crowns"] = value
            elif key in ("supply", "home_of", "port", "port_sea", "port_of"):
                area[key] = value
    westeros = dict(areas)
    essos = dict(areas)
    for a in src["areas"]:
        essos[a["id"]] = _new_area(a)
        if a["board"] != "essos":
            westeros[a["id"]] = _new_area(a)
    for name, board_areas, pairs, about in (
        ("board-westeros.json", westeros, src["adjacency_westeros_mod"], "the Eyrie and Bite overlays, 61 areas"),
        ("board-essos.json", essos, src["adjacency_westeros_essos"], "the overlays and Essos, 75 areas"),
    ):
        _write(
            name,
            {
                "about": f"Mother of Dragons board: the base board with {about}. fortification: 0, 1, 2.",
                "areas": sorted(board_areas.values(), key=lambda a: a["grid_value"]),
                "adjacency": sorted(sorted(p) for p in pairs),
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
                "names": _names(h),
                "colour": h["colour"],
                "home": h["home_area"],
                "garrison": h["garrison"]["strength"],
                "unit_limits": h["unit_limits"],
                "starting_units": h["starting_units"],
                "starting_supply": h["starting_tracks"]["supply"],
                "can_be_vassal": h["can_be_vassal"],
            }
        )
    _write("houses.json", {"about": "Houses the expansion adds (Targaryen only with Essos).", "houses": out})


RUSSIAN = ROOT / "tools" / "mother_of_dragons_ru.json"


def cards() -> None:
    src = _load("house-cards.json")
    russian = json.loads(RUSSIAN.read_text(encoding="utf-8"))["cards"]
    missing = sorted(c["id"] for c in src["cards"] if c["house"] == "arryn" and c["id"] not in russian)
    if missing:
        raise ValueError(f"{RUSSIAN.name}: no Russian name or text for {missing}")
    _write(
        "house_cards.json",
        {
            "about": "House cards the expansion adds. ability: the id the engine's ability table uses, null for none.",
            "cards": [
                {
                    "id": c["id"],
                    "house": c["house"],
                    "names": {**_names(c), "ru": russian[c["id"]]["name"]},
                    "strength": c["strength"],
                    "swords": c["swords"],
                    "fortifications": c["fortifications"],
                    "ability": c["id"] if c.get("ability") else None,
                    "text_en": c.get("ability"),
                    "text_ru": russian[c["id"]]["text"],
                    "timing": c.get("ability_timing"),
                }
                for c in src["cards"]
                if c["house"] == "arryn"
            ],
        },
    )


VASSAL_CARD_PREFIX = "vassal-"  # keeps the vassal deck's ids apart from house cards of the same name


def vassals() -> None:
    """The vassal preparation cards (M-SETUP-07, M-SETUP-11) and the vassal deck (M-VASSAL-24)."""
    src = _load("vassals.json")
    russian = json.loads(RUSSIAN.read_text(encoding="utf-8"))["vassal_cards"]
    _write(
        "vassals.json",
        {
            "about": "Vassal preparation cards: where a vassal's units start, its garrison, its supply position.",
            "setup_cards": {
                c["house"]: {
                    "home": c["home_area"],
                    "garrison": c["garrison"]["strength"],
                    "starting_units": c["starting_units"],
                    "supply": c["supply_start"],
                }
                for c in src["vassal_preparation_cards"]
            },
            "order_sets": src["vassal_order_tokens"]["sets"],
            "orders_per_vassal": 2,
        },
    )
    _write(
        "vassal_cards.json",
        {
            "about": "The vassal deck: 7 cards every vassal draws from. ability: the ability id, null for none.",
            "cards": [
                {
                    "id": VASSAL_CARD_PREFIX + c["id"],
                    "house": "vassal",
                    "names": {"en": c["name_en"], "ru": russian[c["id"]]["name"]},
                    "strength": c["strength"],
                    "swords": c["swords"],
                    "fortifications": c["fortifications"],
                    "ability": VASSAL_CARD_PREFIX + c["id"] if c.get("ability") else None,
                    "text_en": c.get("ability"),
                    "text_ru": russian[c["id"]]["text"],
                    "timing": c.get("ability_timing"),
                }
                for c in src["vassal_cards"]
            ],
        },
    )


def _order_type(text: str) -> str:
    """The reference writes the Iron Bank order's type as prose ("iron bank (take a loan)")."""
    return "iron-bank" if text.startswith("iron bank") else text


TARGARYEN_SETS = {"mod-targaryen-a": "a", "mod-targaryen-b": "b"}  # the game option's values


def targaryen_cards() -> None:
    """Targaryen's two sets; a game plays one of them (``options["targaryen_cards"]``, "a" by default)."""
    src = _load("house-cards.json")
    russian = json.loads(RUSSIAN.read_text(encoding="utf-8"))["cards"]
    _write(
        "house_cards_targaryen.json",
        {
            "about": "Targaryen's sets A and B; set: the option value that deals it. ability: the ability id, or null.",
            "cards": [
                {
                    "id": c["id"],
                    "house": c["house"],
                    "set": TARGARYEN_SETS[c["set"]],
                    "names": {**_names(c), **({"ru": russian[c["id"]]["name"]} if c["id"] in russian else {})},
                    "strength": c["strength"],
                    "swords": c["swords"],
                    "fortifications": c["fortifications"],
                    "ability": c["id"] if c.get("ability") else None,
                    "text_en": c.get("ability"),
                    "text_ru": russian[c["id"]]["text"] if c["id"] in russian else None,
                    "timing": c.get("ability_timing"),
                }
                for c in src["cards"]
                if c["house"] == "targaryen"
            ],
        },
    )


def units() -> None:
    """The dragon beside the base game's unit types (M-TARG-10, -11, -15): a land unit whose strength the dragon
    track gives (the table's 0 is read only while no token lies there), never mustered, last in the weakest-first
    order (it ends up the strongest unit), a casualty like any other, and it retreats."""
    dragons = _load("targaryen.json")["dragons"]
    assert "land unit" in dragons["unit_kind"] and "Never mustered" in dragons["mustering"]
    assert "fly" in dragons["march_or_fly"]
    base = _base("units.json")
    _write(
        "units.json",
        {
            "about": "The expansion's unit types: the base game's four (data/units.json) and the dragon. "
            + base["about"].split(". ", 1)[1],
            "units": [
                *base["units"],
                {
                    "id": "dragon",
                    "stands": "land",
                    "strength": 0,
                    "strength_attacking_castle": 0,
                    "cost": None,
                    "upgrades_from": None,
                    "weakness": 4,
                    "casualty": True,
                    "retreats": True,
                    "flies": True,
                },
            ],
        },
    )


RIVER_CARD = "watering-the-seed"  # its areas are the lands beside a river its small map shows


def westeros_deck4() -> None:
    """Westeros deck IV (M-DECK4-01..04), used only when Targaryen plays: each card's banner areas (a loyalty token
    on each), the areas its text offers, what it costs in Power, and its texts."""
    src = _load("westeros-deck-4.json")
    russian = json.loads(RUSSIAN.read_text(encoding="utf-8"))["westeros_cards"]
    cards = []
    for c in src["cards"]:
        assert not c["wildling_icon"] and c["copies"] == 1
        card: dict[str, Any] = {
            "deck": 4,
            "id": c["id"],
            "names": {"en": c["name_en"], "ru": russian[c["id"]]["name"]},
            "copies": c["copies"],
            "icons": 0,
            "banner_areas": c["banner_areas"],
            "cost": c["cost_power"] if isinstance(c["cost_power"], int) else None,
            "text_en": c["effect"],
            "text_ru": russian[c["id"]]["text"],
        }
        if "choosable_areas" in c:
            card["choosable_areas"] = c["choosable_areas"]
        if c["id"] == RIVER_CARD:
            card["choosable_areas"] = c["river_areas_mirror"]
        cards.append(card)
    _write(
        "westeros_deck4.json",
        {
            "about": "Westeros deck IV: one copy of each card, no wildling icon. banner_areas: a loyalty token goes on "
            "each first; choosable_areas: the areas its text offers; cost: Power to discard (null: it varies).",
            "cards": cards,
        },
    )


LOAN_EFFECTS = {
    "the-faceless-men": "faceless-men",
    "customs-officer": "power",
    "loyal-maester": "develop",
    "savvy-steward": "develop",
    "master-at-arms": "develop",
    "expert-artificer": "develop",
    "pyromancer": "pyromancer",
    "spymaster": "spymaster",
}
# What each development loan lays down: how many areas, which token, and what else it gives.
LOAN_DEVELOPMENT = {
    "loyal-maester": {"areas": 2, "token": "barrel", "where": "land"},
    "savvy-steward": {"areas": 1, "token": "barrel", "where": "land", "supply": 1},
    "master-at-arms": {"areas": 2, "token": "stronghold", "where": "castle"},
    "expert-artificer": {"areas": 1, "token": "crown", "where": "land", "power": 8},
}


def iron_bank() -> None:
    """The Iron Bank (M-BANK-*, M-LOAN-*): the slots' initial payments from left to right, Braavos's discount, and
    the twelve loan cards with what each does (``effect``) and, for the four unit cards, the units they bring."""
    src = _load("iron-bank.json")
    texts = json.loads(RUSSIAN.read_text(encoding="utf-8"))["loans"]
    loans = []
    for c in src["loan_cards"]:
        assert c["copies"] == 1
        loan: dict[str, Any] = {
            "id": c["id"],
            "names": {"en": c["name_en"], "ru": c["name_ru"]},
            "texts": texts[c["id"]],
            "effect": "units" if "units" in c else LOAN_EFFECTS[c["id"]],
        }
        if "units" in c:
            loan["units"] = c["units"]
        if c["id"] == "customs-officer":
            loan["power"] = 10
        if c["id"] in LOAN_DEVELOPMENT:
            loan["develop"] = LOAN_DEVELOPMENT[c["id"]]
        loans.append(loan)
    _write(
        "iron_bank.json",
        {
            "about": "The Iron Bank of Braavos: slot_payments are the initial payments of the three slots from left "
            "to right; Braavos's holder pays braavos_discount less. effect names the engine's handler of each loan.",
            "slot_payments": [s["initial_payment"] for s in src["bank_track"]["slots_left_to_right"]],
            "braavos": src["braavos"]["area"],
            "braavos_discount": 1,
            "interest_per_loan": 1,
            "loans": loans,
        },
    )


def setup() -> None:
    houses_src = _load("houses.json")
    other = _load("other.json")
    layout = houses_src["influence_tracks_mod_start"]
    base_houses = {h["id"]: h for h in houses_src["base_houses_in_mod"]}
    arryn = next(h for h in houses_src["houses"] if h["id"] == "arryn")
    supply = {h: base_houses[h]["starting_tracks_mod"]["supply"] for h in base_houses}
    supply["arryn"] = arryn["starting_tracks"]["supply"]
    targaryen = next(h for h in houses_src["houses"] if h["id"] == "targaryen")
    supply["targaryen"] = targaryen["starting_tracks"]["supply"]
    dragons = _load("targaryen.json")["dragons"]
    sea = other["sea_orders"]
    _write(
        "setup.json",
        {
            "about": "Mother of Dragons setup: the fixed influence layout, stars, Power, neutral forces, sea orders.",
            "influence_tracks": {track: [h for h in layout[track] if h != "targaryen"] for track in TRACKS},
            "influence_tracks_with_targaryen": layout,
            "kings_court_stars": houses_src["kings_court_stars"]["positions_1_to_8"],
            "starting_power": other["supply_and_victory"]["starting_power"],
            "starting_supply": supply,
            "neutral_forces": {
                n["area"]: n["strength"] for n in other["neutral_forces"]["used"] if n["when"] == "always"
            },
            "neutral_forces_with_essos": {n["area"]: n["strength"] for n in other["neutral_forces"]["used"]},
            "dragon_strength_rounds": dragons["strength_tokens"]["rounds_with_token"],
            "loyalty_start": {"kings-landing": 1},  # M-SETUP-20 (setup step 13)
            "loyalty_tokens": _load("targaryen.json")["loyalty_tokens"]["count"],
            "sea_orders": [
                {"id": o["id"], "type": _order_type(o["type"]), "bonus": o["modifier"], "star": o["special"]}
                for o in sea["set"]
            ],
            "wildling_start": 2,
        },
    )


WESTEROS_CELLS = 124  # the base layout's width in 6-px cells: the Westeros part of the combined board
SPILL_SEA = "east-summer-sea"  # Essos cells left of that edge (a sliver of the Sea of Myrth) belong to it here


def layout() -> None:
    """The combined board's layout facts (75 areas) and label raster, and the 7-house board cut from them.

    The 7-house board is the combined board's Westeros part, as wide as the base layout (741 px). Its areas are
    numbered as on the base board (1-58), the three the overlays add next (59-61), so that a renderer's palette
    needs 61 area entries; ``board-westeros.json`` carries the same numbers.
    """
    src = _load("layout.json")
    _write(
        "layout.json",
        {"frame": src["frame"], "grid": src["grid"], "areas_order": src["areas_order"], "areas": src["areas"]},
    )
    shutil.copyfile(REFERENCE / "layout-grid.png", OUT / "layout-grid.png")
    board = json.loads((OUT / "board-westeros.json").read_text(encoding="utf-8"))
    base_count = len(_base("board.json")["areas"])
    kept = [a for a in src["areas_order"] if src["areas"][a]["board"] != "essos"]
    added = [a for a in kept if src["areas"][a]["grid_value"] > base_count]
    number = {a: src["areas"][a]["grid_value"] for a in kept}
    number.update({a: base_count + 1 + i for i, a in enumerate(added)})
    old_to_new = {src["areas"][a]["grid_value"]: n for a, n in number.items()}
    spill = old_to_new[src["areas"][SPILL_SEA]["grid_value"]]
    grid = Image.open(REFERENCE / "layout-grid.png").convert("L")
    cut = grid.crop((0, 0, WESTEROS_CELLS, grid.height))
    cut = cut.point(lambda v: old_to_new.get(v, spill))
    cut.save(OUT / "layout-grid-westeros.png", optimize=True)
    frame = {"width": WESTEROS_CELLS * 6 - 3, "height": src["frame"]["height"], "units": "px, as the base layout"}
    grid_facts = {**src["grid"], "file": "layout-grid-westeros.png", "width_cells": WESTEROS_CELLS}
    areas = {a: {**src["areas"][a], "grid_value": number[a]} for a in kept}
    _write("layout-westeros.json", {"frame": frame, "grid": grid_facts, "areas": areas})
    for area in board["areas"]:
        area["grid_value"] = number[area["id"]]
    board["areas"].sort(key=lambda a: a["grid_value"])
    _write("board-westeros.json", board)


def main() -> int:
    if not REFERENCE.is_dir():
        print(f"reference folder not found: {REFERENCE}; nothing to import", file=sys.stderr)
        return 0
    OUT.mkdir(exist_ok=True)
    boards()
    houses()
    cards()
    targaryen_cards()
    units()
    iron_bank()
    westeros_deck4()
    setup()
    vassals()
    layout()
    print(f"wrote {sorted(p.name for p in OUT.iterdir())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
