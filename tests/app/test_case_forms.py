"""Issue U, fault 9: Russian names declined by case. Every area of every board and every unit type has its forms in
data/cases.ru.json; a template names the case it needs (``{area:acc}``, ``{units:gen}``, ``{area:in}``) and the labels
give it; a language without cases, or a value without forms, reads as it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.labels import area_label, unit_label, units_count, units_text
from i18n import CASES, PLACES, SPECS, Declined, case_forms, catalog, fill, plural_index, t, tn

DATA = Path(__file__).resolve().parents[2] / "data"
BOARDS = ("board.json", "mother-of-dragons/board-westeros.json", "mother-of-dragons/board-essos.json")
UNITS = ("units.json", "mother-of-dragons/units.json")
FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")


def board_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for board in BOARDS:
        for area in json.loads((DATA / board).read_text(encoding="utf-8"))["areas"]:
            names[area["id"]] = area["names"]["ru"]
    return names


def unit_types() -> set[str]:
    return {u["id"] for f in UNITS for u in json.loads((DATA / f).read_text(encoding="utf-8"))["units"]}


def test_every_area_of_every_board_has_every_case_and_its_prepositions() -> None:
    names = board_names()
    areas = case_forms("ru")["areas"]
    assert len(names) == 75 and set(areas) == set(names)
    for area_id, name in names.items():
        forms = areas[area_id]
        assert all(forms.get(case) for case in CASES), area_id
        assert forms["nom"] == name, area_id  # the board's name is the nominative
        # Where, where to, where from: «в»/«во» and «из», or «на» and «с» (islands, capes, shores, rivers).
        assert (forms["in"], forms["from"]) in (("в", "из"), ("во", "из"), ("на", "с")), area_id
        assert forms["to"] in ("в", "во", "на") and (forms["to"] == "на") == (forms["in"] == "на"), area_id


def test_every_unit_type_has_its_cases_singular_plural_and_counted() -> None:
    units = case_forms("ru")["units"]
    assert set(units) == unit_types() == {"footman", "knight", "ship", "siege-engine", "dragon"}
    for unit, info in units.items():
        assert isinstance(info["animate"], bool)
        for number in ("singular", "plural"):
            assert all(info[number].get(case) for case in CASES), (unit, number)
        assert info["singular"]["nom"] == t(f"unit.{unit}", "ru")
        for case in CASES:
            assert len(info["count"][case]) == 3 and all("{count} " in f for f in info["count"][case]), (unit, case)
        # The counted nominative is the catalog's plural entry, for each plural class (1, 2-4, 5-20).
        for n in (1, 2, 5, 21, 22, 11):
            assert units_count(unit, n, "ru") == tn(f"units.{unit}", n, "ru"), (unit, n)
        # An animate noun's accusative is its genitive; an inanimate one's is its nominative (but a feminine's own).
        acc = info["singular"]["acc"]
        assert acc == info["singular"]["gen"] if info["animate"] else acc in (info["singular"]["nom"], "осадную башню")


@pytest.mark.parametrize(
    ("area", "spec", "expected"),
    [
        ("stoney-sept", "acc", "Каменную Септу"),
        ("stoney-sept", "in", "в Каменной Септе"),
        ("dragonstone", "gen", "Драконьего Камня"),
        ("dragonstone", "in", "на Драконьем Камне"),
        ("dragonstone", "from", "с Драконьего Камня"),
        ("kings-landing", "to", "в Королевскую гавань"),
        ("winterfell", "from", "из Винтерфелла"),
        ("ironmans-bay", "in", "в Заливе Железных Людей"),
        ("sea-of-dorne", "gen", "Дорнийского моря"),
        ("kingswood", "in", "в Королевском лесу"),
        ("moat-cailin", "in", "во Рву Кейлин"),
        ("moat-cailin", "to", "в Ров Кейлин"),
        ("widows-watch", "to", "во Вдовий Дозор"),
        ("the-twins", "from", "из Близнецов"),
        ("three-towers", "ins", "Тремя Башнями"),
        ("port-of-braavos", "in", "в Порту Браавоса"),
        ("the-fingers", "in", "на Перстах"),
    ],
)
def test_an_area_gives_the_form_a_template_names(area: str, spec: str, expected: str) -> None:
    label = area_label(area, "ru")
    assert isinstance(label, Declined) and str(label) == label.forms["nom"]
    assert format(label, spec) == expected
    assert fill("{a:" + spec + "}", {"a": label}) == expected


def test_counted_units_agree_with_their_number_in_every_case() -> None:
    assert [format(units_count("knight", n, "ru"), "acc") for n in (1, 2, 5, 21)] == [
        "1 рыцаря",
        "2 рыцарей",
        "5 рыцарей",
        "21 рыцаря",
    ]
    assert [format(units_count("ship", n, "ru"), "acc") for n in (1, 3, 7)] == ["1 корабль", "3 корабля", "7 кораблей"]
    assert format(units_count("siege-engine", 2, "ru"), "acc") == "2 осадные башни"
    assert format(units_count("footman", 1, "ru"), "ins") == "1 пешим воином"
    assert format(units_count("dragon", 3, "ru"), "gen") == "3 драконов"
    assert format(unit_label("siege-engine", "ru"), "acc") == "осадную башню"
    both = units_text(["footman", "knight", "footman"], "ru")
    assert str(both) == "2 пеших воина, 1 рыцарь" and format(both, "gen") == "2 пеших воинов, 1 рыцаря"
    assert [plural_index(n, "ru") for n in (1, 2, 4, 5, 11, 21, 25)] == [0, 1, 1, 2, 2, 0, 2]


def test_english_and_plain_values_read_as_they_are_under_a_case() -> None:
    assert format(area_label("stoney-sept", "en"), "acc") == "Stoney Sept"
    assert format(units_text(["knight", "knight"], "en"), "gen") == "2 knights"
    assert fill("{a:gen} · {n:in} · {u}", {"a": "—", "n": 3, "u": units_text([], "ru")}) == "— · 3 · нет отрядов"
    assert f"{area_label('pyke', 'ru')}" == "Пайк" and area_label("pyke", "ru") + "!" == "Пайк!"


def test_every_case_a_russian_template_names_is_one_the_labels_know() -> None:
    """A translator picks among the known cases; an unknown spec would raise when the line is built."""
    seen: set[str] = set()
    for message in catalog("ru"):
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            for _name, spec in FIELD.findall(str(text or "")):
                if spec:
                    assert spec in SPECS, (message.id, spec)
                    seen.add(spec)
    assert seen >= {"gen", "acc", "ins", *PLACES}
    for message in catalog("en"):  # English has no cases: its templates name none
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        assert not any(spec for text in texts for _n, spec in FIELD.findall(str(text or ""))), message.id
