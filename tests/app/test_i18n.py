"""Translation catalogs: English and Russian complete and consistent."""

from __future__ import annotations

import re

from i18n import LANGUAGES, catalog, has, language_of, t

# A field, with the case a template may name for it (``{area:acc}``): the name is what both catalogs must share.
PLACEHOLDER = re.compile(r"\{(\w+)(?::\w+)?\}")


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


def test_the_lookup_table_finds_what_the_catalogs_hold() -> None:
    # t() and has() read a table built once from each catalog: it must hold every entry Catalog.get finds.
    for lang in LANGUAGES:
        for message in catalog(lang):
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            if not key:
                continue
            assert has(key, lang)
            if not message.pluralizable and "{" not in str(message.string):
                assert t(key, lang) == str(message.string)
    assert not has("no.such.key", "ru")
    language_of.cache_clear()
    for _ in range(3):
        assert language_of("ru") == "ru"
    assert language_of.cache_info().hits == 2  # a locale is mapped once
