"""Bulgarian names in the data files: taken only from the Bulgarian rulebook (seed 001) via tools/names_bg.json."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine import data

NAMES_BG_FILE = Path(__file__).resolve().parents[2] / "tools" / "names_bg.json"
CYRILLIC_NAME = re.compile(r"^[А-Яа-яЁё]+(?:[ ,\-]+[А-Яа-яЁё]+)*$")

# Areas named in the Bulgarian worked examples (and the glossary / islands paragraph), with their seed line.
BG_EXAMPLE_AREAS = {
    "winterfell": 310,
    "riverrun": 429,
    "seagard": 429,
    "the-twins": 433,
    "harrenhal": 433,
    "lannisport": 490,
    "the-golden-sound": 490,
    "stoney-sept": 493,
    "the-reach": 791,
    "sunset-sea": 791,
    "west-summer-sea": 791,
    "dornish-marches": 791,
    "highgarden": 799,
    "searoad-marches": 833,
    "dragonstone": 880,
    "blackwater": 953,
    "kings-landing": 955,
    "kingswood": 1088,
    "storms-end": 1139,
    "the-boneway": 1140,
    "redwyne-straights": 1249,
    "east-summer-sea": 1249,
    "sunspear": 1249,
    "sea-of-dorne": 1361,
    "yronwood": 1398,
    "pyke": 1436,
    "the-arbor": 1436,
}


def _all_names() -> list[tuple[str, str, dict[str, str]]]:
    """(category, id, names) for every named thing in the data files."""
    out: list[tuple[str, str, dict[str, str]]] = []
    out += [("areas", a.id, a.names) for a in data.board().areas.values()]
    out += [("houses", h, info.names) for h, info in data.houses().items()]
    out += [("house_cards", c, card.names) for c, card in data.house_cards().items()]
    out += [("westeros_cards", c["id"], c["names"]) for c in data.westeros_cards().values()]
    out += [("wildling_cards", c, card["names"]) for c, card in data.wildling_cards().items()]
    return out


def _bg_table() -> dict[str, dict[str, dict[str, Any]]]:
    table: dict[str, dict[str, dict[str, Any]]] = json.loads(NAMES_BG_FILE.read_text(encoding="utf-8"))
    return table


def test_every_bg_name_is_non_empty_cyrillic() -> None:
    found = 0
    for category, item_id, names in _all_names():
        if "bg" in names:
            found += 1
            bg = names["bg"]
            assert bg.strip() == bg and CYRILLIC_NAME.match(bg), (category, item_id, bg)
            assert set(names) <= {"en", "ru", "bg"}
    # 27 areas + 6 houses + 9 house cards + 16 Westeros cards (14 ids) + 1 wildling card. Two names the book
    # misprints (Dark Wings, Dark Words; Eddard Stark) are left out on purpose: English shows instead.
    assert found == 59


def test_data_matches_names_bg_table() -> None:
    """The generated data carries exactly the names of tools/names_bg.json, and each cites a seed line."""
    table = _bg_table()
    assert set(table) == {"areas", "houses", "westeros_cards", "wildling_cards", "house_cards"}
    in_data: dict[str, dict[str, str]] = {}
    for category, item_id, names in _all_names():
        if "bg" in names:
            in_data.setdefault(category, {})[item_id] = names["bg"]
    for category, entries in table.items():
        assert {i: e["bg"] for i, e in entries.items()} == in_data.get(category, {}), category
        for entry in entries.values():
            assert isinstance(entry["line"], int) and 1 <= entry["line"] <= 1838


def test_houses_have_bg_names() -> None:
    names = {h: info.names.get("bg") for h, info in data.houses().items()}
    assert names == {
        "stark": "Старк",
        "lannister": "Ланистър",
        "baratheon": "Баратеон",
        "greyjoy": "Грейджой",
        "tyrell": "Тирел",
        "martell": "Мартел",
    }


def test_areas_of_the_bg_examples_have_bg_names() -> None:
    board = data.board()
    named = {a.id for a in board.areas.values() if "bg" in a.names}
    assert named == set(BG_EXAMPLE_AREAS)
    assert len(named) == 27
    lines = {i: e["line"] for i, e in _bg_table()["areas"].items()}
    assert lines == BG_EXAMPLE_AREAS
    # Spot checks: each one is pinned by the same worked example in the Russian book.
    assert board.areas["winterfell"].name("bg") == "Зимен хребет"  # seat of Stark (glossary)
    assert board.areas["lannisport"].name("bg") == "Ланиспорт"  # mustering example
    assert board.areas["kings-landing"].name("bg") == "Кралски чертог"  # support example (RU: Королевская гавань)
    assert board.areas["highgarden"].name("bg") == "Планински рай"  # raid example (RU: Хайгарден)
    assert board.areas["the-reach"].name("bg") == "Предела"  # raid and support examples (RU: Простор)
    assert board.areas["sunspear"].name("bg") == "Слънчево копие"
    # Areas the Bulgarian book never names keep falling back to English.
    assert board.areas["oldtown"].name("bg") == "Oldtown"


def test_westeros_cards_all_named_once_per_id() -> None:
    cards = list(data.westeros_cards().values())
    by_id: dict[str, set[str]] = {}
    for c in cards:
        by_id.setdefault(c["id"], set()).add(c["names"].get("bg", ""))
    assert len(by_id) == 15
    misprinted = {"dark-wings-dark-words"}
    assert all(len(names) == 1 for names in by_id.values()), by_id
    assert {i for i, names in by_id.items() if "" in names} == misprinted
    assert by_id["winter-is-coming"] == {"Зимата иде"}
    assert by_id["last-days-of-summer"] == {"Последните дни на лятото"}
    assert by_id["put-to-the-sword"] == {"Без пощада"}


def test_card_spot_checks() -> None:
    assert data.wildling_cards()["a-king-beyond-the-wall"]["names"]["bg"] == "Кралят отвъд Вала"
    cards = data.house_cards()
    assert cards["tyrion-lannister"].names["bg"] == "Тирион Ланистър"
    assert cards["alester-florent"].names["bg"] == "Алестер Флорент"
    assert "bg" not in cards["the-hound"].names  # the seed only names its art «Сандор Клегейн»
