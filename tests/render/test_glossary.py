"""Issue U, fault 9: one glossary. What the images draw for a unit, an order, a track, a phase, a strength source,
a Westeros card or a house is the word the forms and the channel use (the legend once said «Пехотинец» and «Сбор
власти», the battle image «Превратности войны» and «Нейтральное войско» where the channel says «перевес» and
«нейтральный лорд»); a Russian battle title declines its area."""

from __future__ import annotations

import pytest

from app.labels import house_name as form_house
from app.labels import order_type_label, track_label, unit_label, westeros_name
from engine import data
from i18n import catalog
from i18n import t as catalog_word
from render.battle import SOURCE_LABEL
from render.data import board_of, westeros_cards
from render.legend import entries
from render.strings import capital, house_name, shared_key, step_name, t, westeros_card_name
from render.strip import items
from render.tokens import ORDER_KINDS
from tests.render import viewkit

LANGS = ("en", "ru")
UNITS = ("footman", "knight", "ship", "siege-engine")


@pytest.mark.parametrize("lang", LANGS)
def test_the_legend_names_units_and_orders_with_the_forms_words(lang: str) -> None:
    labels = [label for _stamp, label in entries(lang)]
    for unit in UNITS:
        assert capital(unit_label(unit, lang)) in labels, unit
    assert unit_label("dragon", lang).lower() in " ".join(labels).lower()
    for kind in ORDER_KINDS:
        assert order_type_label(kind, lang) in labels, kind
    assert catalog_word("strength.neutral", lang) in labels  # the neutral force's token


@pytest.mark.parametrize("lang", LANGS)
def test_the_strip_names_the_tracks_and_the_phase_with_the_forms_words(lang: str) -> None:
    view = viewkit.midgame_view()
    drawn = {item.text for item in items(board_of(view), view, lang)}
    for track in data.TRACKS:
        assert track_label(track, lang) in drawn, track
    for phase in ("planning", "action", "westeros", "ended"):
        assert t(f"phase.{phase}", lang) == capital(catalog_word(f"phase.{phase}", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_the_battle_rows_say_what_the_channels_strength_line_says(lang: str) -> None:
    """Each source of strength: the image's row label holds every word the narration's «отряды 2 + …» line uses
    for it (compared on the first five letters, so «Приказ похода» holds «поход»)."""
    for source, key in SOURCE_LABEL.items():
        row = t(key, lang).lower()
        for word in catalog_word(f"strength.{source}", lang).lower().split():
            assert word[:5] in row, (lang, source, row, word)
    assert catalog_word("order-type.consolidate", lang).lower() == step_name("consolidate", lang).lower()


def test_the_sides_of_a_battle_have_the_forms_words_in_russian() -> None:
    assert t("attacker", "ru").lower() in catalog_word("decision.support.attacker", "ru", house="x")
    assert t("defender", "ru").lower() in catalog_word("decision.support.defender", "ru", house="x")
    assert "защитнику" in catalog_word("receipt.support.defender", "ru")


@pytest.mark.parametrize("lang", LANGS)
def test_cards_and_houses_have_one_name(lang: str) -> None:
    for card in westeros_cards():
        assert westeros_card_name(card, lang) == westeros_name(card, lang), card
    for house in ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn", "targaryen"):
        assert house_name(house, lang) == form_house(house, lang)


def test_no_image_entry_duplicates_a_shared_one() -> None:
    """The images read the shared entries: an ``image.*`` copy of one could only drift from it."""
    for lang in LANGS:
        doubled = [m.id for m in catalog(lang) if isinstance(m.id, str) and m.id.startswith("image.")]
        assert [key for key in doubled if shared_key(key.removeprefix("image.")) is not None] == []


def test_a_russian_battle_title_declines_its_area() -> None:
    # The renderer passes the board's name in the nominative; the catalog asks for the accusative.
    assert t("battle", "ru", area="Каменная Септа") == "Битва за Каменную Септу"
    assert t("b.from", "ru", area="Драконий Камень") == "с Драконьего Камня"
    assert t("battle", "en", area="Stoney Sept") == "Battle for Stoney Sept"
