"""Player-facing text from gettext catalogs (``locales/<lang>/LC_MESSAGES/bot.po``), read with Babel.

Each interaction answers in the user's Discord locale; channel posts use the game's language. Message ids
are stable keys (``lobby.joined``); the English catalog holds the English text, so a missing translation
falls back to English, never to the key.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
LANGUAGES = ("en", "ru")


@cache
def catalog(lang: str) -> Catalog:
    path = LOCALES_DIR / lang / "LC_MESSAGES" / "bot.po"
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def language_of(locale: str | None) -> str:
    """Map a Discord locale ("ru", "en-US", "bg") to a catalog language."""
    if locale:
        base = str(locale).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return "en"


def t(key: str, lang: str = "en", **params: object) -> str:
    for candidate in (language_of(lang), "en"):
        message = catalog(candidate).get(key)
        if message is not None and message.string:
            text = str(message.string)
            return text.format(**params)  # a missing parameter raises KeyError: callers fall back
    raise KeyError(f"no text for {key!r}")
