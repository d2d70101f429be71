"""Issue U, fault 9, in part: Russian lines that put a name where its case would have to change are worded so the
nominative is right ("Битва в области …", "теряет в области …: 1 пеший воин"), and a negative bonus has a true minus
sign in both languages."""

from __future__ import annotations

from app.narration import narrate
from i18n import t


def test_a_battle_line_names_the_area_without_declining_it_and_prints_a_true_minus() -> None:
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
    assert ru.startswith("Битва в области Каменная Септа:") and "Битва за" not in ru
    assert "поход −1" in ru and "-1" not in ru and "−1" in en and "-1" not in en


def test_lost_units_follow_a_colon_so_their_count_reads_right() -> None:
    event = {"type": "units-destroyed", "area": "riverrun", "house": "greyjoy", "units": ["footman"], "reason": None}
    assert narrate(event, "ru") == "Грейджой теряет в области Риверран: 1 пеший воин."


def test_the_images_and_the_forms_use_one_word_for_each_unit_and_order() -> None:
    """One glossary: the legend's word for a unit or an order is the word forms and narration use (it once said
    «Пехотинец» and «Сбор власти» where everything else says «пеший воин» and «Усиление власти»)."""
    for lang in ("en", "ru"):
        for unit in ("footman", "knight", "ship", "siege-engine"):
            assert t(f"image.unit.{unit}", lang).lower() == t(f"unit.{unit}", lang).lower(), (lang, unit)
        tokens = {
            "march": "march0",
            "defense": "defense1",
            "support": "support0",
            "raid": "raid",
            "consolidate": "consolidate",
        }
        for order, token in tokens.items():
            assert t(f"order.{token}", lang).lower().startswith(t(f"image.order.{order}", lang).lower()), (lang, order)


def test_a_vassals_defense_muster_is_told_as_its_own_order() -> None:
    """Issue U, fault 9: the vassal's Defense/Muster token was told as a special Consolidate Power order."""
    event = {"type": "vassal-muster", "house": "tyrell", "area": "highgarden"}
    assert narrate(event, "ru") == "Тирелл собирает войска в области Хайгарден вассальным приказом «Оборона/сбор»."
    assert narrate(event, "en") == "Tyrell musters in Highgarden with its vassal Defense/Muster order."
