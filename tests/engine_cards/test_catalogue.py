"""All 42 house cards (B-HCARD-01/02/08/09/13): every text is registered; the 18 cards without text fight with their
printed strength, swords and fortifications only."""

from __future__ import annotations

import pytest

from engine import data
from engine.abilities import ABILITIES, ability_of

from .helpers import battle, destroyed, march, play, result

# The base game's cards; the catalogue also holds the expansion's (tests/engine_cards/test_arryn.py).
BASE_CARDS = [c for c in data.house_cards().values() if c.house in data.houses()]
WITH_TEXT = sorted(c.id for c in BASE_CARDS if c.ability)
WITHOUT_TEXT = sorted(c.id for c in BASE_CARDS if not c.ability)


def test_B_HCARD_01_B_HCARD_13_every_card_with_a_text_has_a_registered_ability() -> None:
    assert len(BASE_CARDS) == 42 and len(WITH_TEXT) == 24 and len(WITHOUT_TEXT) == 18
    assert sorted(ABILITIES) == sorted(c.id for c in data.house_cards().values() if c.ability)
    for card in WITH_TEXT:
        ab = ability_of(card)
        assert ab is not None and ab.card == card
    for card in WITHOUT_TEXT:
        assert ability_of(card) is None


def _quiet_defender(house: str) -> tuple[str, str]:
    """A house and a card that changes nothing when it defends without a Defense order."""
    return ("lannister", "ser-kevan-lannister") if house == "stark" else ("stark", "catelyn-stark")


@pytest.mark.parametrize("card_id", WITHOUT_TEXT)
def test_B_HCARD_02_B_HCARD_08_card_without_text_attacks_with_its_strength_and_swords(card_id: str) -> None:
    card = data.house_cards()[card_id]
    house = card.house
    defender, quiet = _quiet_defender(house)
    g = battle(
        {"lannisport": f"{house} knight knight", "stoney-sept": f"{defender} footman footman footman"},
        {"lannisport": "march0"},
    )
    march(g, house, "lannisport", {"stoney-sept": ["knight", "knight"]})
    events = play(
        g, {(house, "house-card"): card_id, (defender, "house-card"): quiet, (defender, "retreat"): "blackwater"}
    )
    r = result(events)
    assert r["strength"]["attacker"]["card"] == card.strength and r["winner"] == house
    assert len(destroyed(events)) == card.swords  # the quiet card has no fortification


@pytest.mark.parametrize("card_id", WITHOUT_TEXT)
def test_B_HCARD_09_card_without_text_defends_with_its_fortifications(card_id: str) -> None:
    card = data.house_cards()[card_id]
    house = card.house
    attacker, attack_card = (
        ("tyrell", "ser-garlan-tyrell") if house == "lannister" else ("lannister", "ser-gregor-clegane")
    )
    swords = data.house_cards()[attack_card].swords
    g = battle(
        {"lannisport": f"{attacker} knight knight knight", "stoney-sept": f"{house} footman footman footman"},
        {"lannisport": "march0"},
    )
    march(g, attacker, "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    events = play(
        g, {(attacker, "house-card"): attack_card, (house, "house-card"): card_id, (house, "retreat"): "blackwater"}
    )
    r = result(events)
    assert r["strength"]["defender"]["card"] == card.strength and r["winner"] == attacker
    assert len(destroyed(events)) == max(0, swords - card.fortifications)
