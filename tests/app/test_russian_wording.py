"""Issue U, fault 9, in part: Russian lines that put a name where its case would have to change are worded so the
nominative is right ("Битва в области …", "теряет в области …: 1 пеший воин"), and a negative bonus has a true minus
sign in both languages."""

from __future__ import annotations

from app.narration import narrate


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
