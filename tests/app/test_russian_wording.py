"""Issue U, fault 9: Russian lines decline the names they hold («Битва за Каменную Септу», «Ланнистер теряет 1 рыцаря
в Каменной Септе»; the template names the case, the forms are in data/cases.ru.json), and a negative bonus has a true
minus sign in both languages."""

from __future__ import annotations

from app.narration import narrate
from i18n import t
from render.strings import t as image_word


def test_a_battle_line_declines_the_area_and_prints_a_true_minus() -> None:
    event = {
        "type": "combat-result",
        "area": "stoney-sept",
        "attacker": "stark",
        "defender": "lannister",
        "winner": "lannister",
        "strength": {
            "attacker": {"units": 1, "march": -1, "card": 2, "total": 2},
            "defender": {"units": 1, "card": 2, "total": 3},
        },
    }
    ru = narrate(event, "ru")
    en = narrate(event, "en")
    assert ru is not None and en is not None
    assert ru.startswith("Битва за Каменную Септу:") and "Каменная Септа" not in ru
    assert en.startswith("Battle of Stoney Sept:")
    assert "поход −1" in ru and "-1" not in ru and "−1" in en and "-1" not in en


def test_lost_units_are_declined_with_their_count_and_the_area_after_its_preposition() -> None:
    """«теряет 1 рыцаря в Каменной Септе»: the accusative of a counted animate noun is its genitive; an island takes
    «на»."""
    event = {"type": "units-destroyed", "area": "riverrun", "house": "greyjoy", "units": ["footman"], "reason": None}
    assert narrate(event, "ru") == "Грейджой теряет 1 пешего воина в Риверране."
    assert narrate(event, "en") == "Greyjoy loses 1 footman in Riverrun."
    event = {**event, "area": "stoney-sept", "house": "lannister", "units": ["knight"]}
    assert narrate(event, "ru") == "Ланнистер теряет 1 рыцаря в Каменной Септе."
    many = ["knight", "knight", "footman", "footman", "footman", "footman", "footman", "siege-engine", "ship"]
    event = {**event, "area": "dragonstone", "house": "baratheon", "units": many}
    assert narrate(event, "ru") == (
        "Баратеон теряет 2 рыцарей, 5 пеших воинов, 1 осадную башню, 1 корабль на Драконьем Камне."
    )


def test_moves_name_where_from_and_where_to_in_their_cases() -> None:
    march = {
        "type": "march",
        "house": "baratheon",
        "origin": "dragonstone",
        "to": "kings-landing",
        "units": ["footman", "footman", "knight"],
    }
    assert narrate(march, "ru") == "Баратеон ведёт 2 пеших воинов, 1 рыцаря с Драконьего Камня в Королевскую гавань."
    assert narrate(march, "en") == "Baratheon marches 2 footmen, 1 knight from Dragonstone to King's Landing."
    attack = {
        "type": "combat-started",
        "attacker": "stark",
        "defender": "lannister",
        "area": "stoney-sept",
        "origin": "riverrun",
        "units": ["footman", "knight"],
    }
    assert narrate(attack, "ru") == (
        "⚔ Старк атакует Каменную Септу (Ланнистер) из Риверрана силами 1 пешего воина, 1 рыцаря."
    )
    retreat = {"type": "retreat", "house": "greyjoy", "area": "moat-cailin", "to": "widows-watch", "units": ["ship"]}
    assert narrate(retreat, "ru") == "Грейджой отводит 1 корабль из Рва Кейлин во Вдовий Дозор."
    support = {"type": "support-declared", "house": "tyrell", "side": "defender", "origin": "the-reach"}
    assert narrate(support, "ru") == "Тирелл оказывает подмогу защитнику из Простора."
    assert narrate({"type": "garrison-removed", "area": "highgarden"}, "ru") == "Гарнизон Хайгардена уничтожен."
    placed = {"type": "power-token-placed", "house": "stark", "area": "crackclaw-point"}
    assert narrate(placed, "ru") == "Старк оставляет жетон власти на Мысе Раздвоенной Клешни."


def test_a_muster_names_the_unit_an_upgrade_makes_and_the_port_a_ship_is_built_in() -> None:
    plan = {"winterfell": [{"upgrade": "knight"}, {"recruit": "ship", "to": "port-of-winterfell"}]}
    event = {"type": "mustered", "house": "stark", "plan": plan}
    assert narrate(event, "ru") == (
        "Старк собирает войска — Винтерфелл: пеший воин становится рыцарем, корабль в Порту Винтерфелла."
    )


def test_the_images_and_the_forms_use_one_word_for_each_unit_and_order() -> None:
    """One glossary: the legend's word for a unit or an order is the word forms and narration use (it once said
    «Пехотинец» and «Сбор власти» where everything else says «пеший воин» and «Усиление власти»); the images now
    read those very entries (tests/render/test_glossary.py)."""
    for lang in ("en", "ru"):
        for unit in ("footman", "knight", "ship", "siege-engine", "dragon"):
            assert image_word(f"unit.{unit}", lang).lower() == t(f"unit.{unit}", lang).lower(), (lang, unit)
        tokens = {
            "march": "march0",
            "defense": "defense1",
            "support": "support0",
            "raid": "raid",
            "consolidate": "consolidate",
        }
        for order, token in tokens.items():
            assert t(f"order.{token}", lang).lower().startswith(image_word(f"order.{order}", lang).lower()), order


def test_a_vassals_defense_muster_is_told_as_its_own_order() -> None:
    """Issue U, fault 9: the vassal's Defense/Muster token was told as a special Consolidate Power order."""
    event = {"type": "vassal-muster", "house": "tyrell", "area": "highgarden"}
    assert narrate(event, "ru") == "Тирелл собирает войска в Хайгардене вассальным приказом «Оборона/сбор»."
    assert narrate(event, "en") == "Tyrell musters in Highgarden with its vassal Defense/Muster order."
