"""The typed-orders reader: English, Russian, abbreviations, typos, and clear problems."""

from __future__ import annotations

import pytest

from app.order_text import find_area, parse_order_word, parse_orders


def test_the_example_from_the_design() -> None:
    parsed = parse_orders("Winterfell march+1, White Harbor defense, Shivering Sea support")
    assert parsed.orders == {"winterfell": "march1*", "white-harbor": "defense1", "the-shivering-sea": "support0"}
    assert parsed.problems == []


@pytest.mark.parametrize(
    ("word", "token"),
    [
        ("march", "march0"), ("march+0", "march0"), ("march -1", "march-1"), ("march+1", "march1*"),
        ("march*", "march1*"), ("defense", "defense1"), ("defence +2", "defense2*"), ("support+1", "support1*"),
        ("special raid", "raid*"), ("raid", "raid"), ("cp", "consolidate"), ("consolidate*", "consolidate*"),
        ("поход +1", "march1*"), ("оборона", "defense1"), ("подмога", "support0"), ("набег", "raid"),
        ("усиление власти", "consolidate"), ("особый набег", "raid*"),
    ],
)  # fmt: skip
def test_order_words(word: str, token: str) -> None:
    assert parse_order_word(word) == token


def test_forgiving_area_names() -> None:
    assert find_area("wf") == ("winterfell", [])
    assert find_area("King's Landing") == ("kings-landing", [])
    assert find_area("winterfel") == ("winterfell", [])  # a typo
    assert find_area("Черноводная") == ("blackwater", [])  # Russian name
    assert find_area("golden sound") == ("the-golden-sound", [])  # without "the"


def test_russian_sentence() -> None:
    parsed = parse_orders("Черноводная поход +1; wf оборона")
    assert parsed.orders == {"blackwater": "march1*", "winterfell": "defense1"}


def test_problems_are_reported_not_guessed() -> None:
    parsed = parse_orders("Winterfell dance, Atlantis march, Winterfell raid, Winterfell support")
    codes = [p["code"] for p in parsed.problems]
    assert codes == ["order-unreadable", "area-unknown", "area-twice"]
    assert parsed.orders == {"winterfell": "raid"}


def test_ambiguous_prefix_lists_candidates() -> None:
    area, candidates = find_area("sea")
    assert area is None and "sea-of-dorne" in candidates
