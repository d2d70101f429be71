"""Player-facing text from gettext catalogs (``locales/<lang>/LC_MESSAGES/bot.po``), read with Babel.

Each interaction answers in the user's Discord locale; a DM to a player uses the locale of their last
interaction with the bot, else the game's language; channel posts use the game's language. Message ids
are stable keys (``lobby.joined``); the English catalog holds the English text, so a missing translation
falls back to English, never to the key.

Counts go through gettext plural forms: a plural entry (``msgid_plural``) holds one form per plural class of
its language (``Plural-Forms`` in the catalog header: two in English, three in Russian — "1 очко, 2 очка,
5 очков"), and ``tn`` picks the form with ``ngettext`` from the catalog compiled in memory.
"""

from __future__ import annotations

import gettext
import io
from functools import cache, lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
LANGUAGES = ("en", "ru")


@cache
def catalog(lang: str) -> Catalog:
    path = LOCALES_DIR / lang / "LC_MESSAGES" / "bot.po"
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The catalog as GNU gettext reads it (compiled to .mo in memory), for ``ngettext``'s plural forms."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang))
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@lru_cache(maxsize=256)  # Discord has a few dozen locales: every text asks, so each is worked out once
def language_of(locale: str | None) -> str:
    """Map a Discord locale ("ru", "en-US", "bg") to a catalog language."""
    if locale:
        base = str(locale).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return "en"


@cache
def _texts(lang: str) -> dict[str, Message]:
    """The catalog's entries by id (a plural entry by its singular id, as ``Catalog.get`` finds it): every
    label of every form and message is looked up here, and a plain dict is several times quicker than
    ``Catalog.get``. The catalogs never change once read."""
    entries: dict[str, Message] = {}
    for message in catalog(lang):
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        if key and message.context is None:
            entries[str(key)] = message
    return entries


def has(key: str, lang: str = "en") -> bool:
    """Whether the catalogs hold a text for ``key`` (in ``lang`` or in English)."""
    return key in _texts(language_of(lang)) or key in _texts("en")


def t(key: str, lang: str = "en", **params: object) -> str:
    for candidate in (language_of(lang), "en"):
        message = _texts(candidate).get(key)
        if message is not None and message.string:
            if message.pluralizable:  # a count-dependent text needs its count: read it with tn()
                raise KeyError(f"{key!r} depends on a count")
            text = str(message.string)
            return text.format(**params)  # a missing parameter raises KeyError: callers fall back
    raise KeyError(f"no text for {key!r}")


def tn(key: str, count: int, lang: str = "en", **params: object) -> str:
    """The form of a plural entry for ``count`` (also passed to the text as ``{count}``)."""
    for candidate in (language_of(lang), "en"):
        message = _texts(candidate).get(key)
        if message is not None and message.pluralizable and isinstance(message.string, tuple) and all(message.string):
            text = translations(candidate).ngettext(key, key, int(count))
            return text.format(count=count, **params)
    raise KeyError(f"no plural text for {key!r}")
