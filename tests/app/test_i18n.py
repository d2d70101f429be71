"""Translation catalogs: English and Russian complete and consistent."""

from __future__ import annotations

import re

from app.i18n import catalog, language_of, t

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_english_and_russian_catalogs_have_the_same_keys_and_placeholders() -> None:
    en, ru = catalog("en"), catalog("ru")
    en_keys = {m.id for m in en if m.id}
    ru_keys = {m.id for m in ru if m.id}
    assert en_keys == ru_keys
    for key in en_keys:
        en_text, ru_text = str(en.get(key).string), str(ru.get(key).string)
        assert en_text and ru_text, key
        assert set(PLACEHOLDER.findall(en_text)) == set(PLACEHOLDER.findall(ru_text)), key


def test_discord_locales_map_to_catalogs() -> None:
    assert language_of("ru") == "ru"
    assert language_of("en-US") == "en"
    assert language_of("bg") == "en"  # no Bulgarian catalog yet: English
    assert language_of(None) == "en"


def test_formatting() -> None:
    assert t("lobby.joined", "ru", name="Тест") == "Вы присоединились к игре Тест."
    assert t("lobby.joined", "en-GB", name="Test") == "You joined Test."
