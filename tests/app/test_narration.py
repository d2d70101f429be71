"""Channel narrative: translated, public only."""

from __future__ import annotations

from app.narration import narrate, narrate_all


def test_march_and_battle_lines_in_both_languages() -> None:
    march = {
        "type": "march",
        "house": "stark",
        "origin": "winterfell",
        "to": "moat-cailin",
        "units": ["footman", "footman"],
    }
    assert narrate(march, "en") == "Stark marches 2 footmen from Winterfell to Moat Cailin."  # plural forms (issue J)
    assert narrate(march, "ru") is not None and "Винтерфелл" in narrate(march, "ru")  # type: ignore[operator]
    result = {
        "type": "combat-result",
        "area": "riverrun",
        "attacker": "lannister",
        "defender": "stark",
        "strength": {"attacker": {"total": 5}, "defender": {"total": 5}},
        "winner": "stark",
        "tie_broken_by_fiefdoms": True,
    }
    line = narrate(result, "en")
    assert line is not None and "5" in line and "Stark wins" in line and "Fiefdoms" in line


def test_private_and_quiet_events_are_never_narrated() -> None:
    events = [
        {"type": "raven-card", "house": "stark", "private_to": "stark", "card": "crow-killers"},
        {"type": "orders-submitted", "house": "stark"},
        {"type": "house-card-chosen", "house": "stark"},
        {"type": "something-new", "x": 1},
    ]
    assert narrate_all(events, "en") == []


def test_a_consolidation_that_brings_nothing_says_so_rather_than_plus_zero() -> None:
    """Issue U, fault 9: "Martell gains 0 Power tokens" read as a mistake (a vassal, a sea area, an empty pool)."""
    event = {"type": "consolidate", "house": "martell", "area": "sunspear", "gained": 0}
    for lang in ("en", "ru"):
        line = narrate(event, lang)
        assert line is not None and "+0" not in line and " 0 " not in line
    assert narrate(event, "en") == "Martell consolidates power in Sunspear: it brings no Power."
    assert narrate({**event, "gained": 2}, "en") == "Martell consolidates power in Sunspear: +2 Power."
