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
