"""Player-facing text from gettext catalogs (``locales/<lang>/LC_MESSAGES/bot.po``), read with Babel.

Each interaction answers in the user's Discord locale; a DM to a player uses the locale of their last
interaction with the bot, else the game's language; channel posts use the game's language. Message ids
are stable keys (``lobby.joined``); the English catalog holds the English text, so a missing translation
falls back to English, never to the key.

Counts go through gettext plural forms: a plural entry (``msgid_plural``) holds one form per plural class of
its language (``Plural-Forms`` in the catalog header: two in English, three in Russian — "1 очко, 2 очка,
5 очков"), and ``tn`` picks the form with ``ngettext`` from the catalog compiled in memory.

Names change with their place in a sentence in some languages (Russian: «Битва за Каменную Септу», «теряет 1 рыцаря»).
A template names the form it needs in the field's format spec (``{area:acc}``, ``{units:gen}``, ``{area:in}``): a
label that knows its forms (``Declined``, built from ``data/cases.<lang>.json``) gives that form, anything else
reads as it is, so a language without cases (English) writes plain ``{area}`` and loses nothing.
"""

from __future__ import annotations

import gettext
import io
import json
import string
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
DATA_DIR = Path(__file__).resolve().parent / "data"
LANGUAGES = ("en", "ru")

# The grammatical cases a template may ask for, and the phrases of place an area also gives: where (``in``: «в
# Каменной Септе», «на Драконьем Камне»), where to (``to``) and where from (``from``: «с Драконьего Камня»).
CASES = ("nom", "gen", "dat", "acc", "ins", "prep")
PLACES = ("in", "to", "from")
SPECS = frozenset(CASES + PLACES)


class Declined(str):
    """A name that reads as its nominative wherever it is a plain ``str``, and gives the form a template names in
    its format spec (``"{area:gen}".format(area=...)``). A form it lacks reads as the nominative."""

    forms: dict[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Declined:
        self = super().__new__(cls, text)
        self.forms = dict(forms or {})
        return self

    def __format__(self, spec: str) -> str:
        if spec in self.forms:
            return self.forms[spec]
        if spec in SPECS:
            return str(self)
        return super().__format__(spec)


class _CaseFormatter(string.Formatter):
    """``str.format`` that lets a value without forms (a number, a list already joined) stand where a template asks
    for a case: it reads as it is, rather than failing the whole line."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in SPECS and not isinstance(value, Declined):
            return format(value)
        return super().format_field(value, format_spec)


_FORMATTER = _CaseFormatter()


def fill(text: str, params: Mapping[str, object]) -> str:
    """``text`` with its fields filled; the quick ``str.format`` first, the case-tolerant one when a plain value
    meets a case spec."""
    try:
        return text.format(**params)
    except ValueError:
        return _FORMATTER.vformat(text, (), params)


@cache
def case_forms(lang: str) -> dict[str, Any]:
    """The language's names by case (``data/cases.<lang>.json``: ``areas`` and ``units``), empty when it has none."""
    path = DATA_DIR / f"cases.{lang}.json"
    if not path.exists():
        return {}
    forms: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return forms


def area_forms(area_id: str, lang: str) -> dict[str, str]:
    """An area's forms by case and its phrases of place (``in``, ``to``, ``from``), or nothing."""
    area = case_forms(language_of(lang)).get("areas", {}).get(area_id)
    if not area:
        return {}
    out = {case: str(area[case]) for case in CASES if case in area}
    places = {"in": "prep", "to": "acc", "from": "gen"}  # each preposition governs one case
    out.update({p: f"{area[p]} {area[c]}" for p, c in places.items() if p in area and c in area})
    return out


def unit_forms(unit: str, lang: str, count: int | None = None) -> dict[str, str]:
    """A unit type's singular forms by case, or with ``count`` its counted forms (``{count}`` filled): the plural
    class of the number picks among the three a case gives («1 рыцаря», «2 рыцарей», «5 рыцарей»)."""
    info = case_forms(language_of(lang)).get("units", {}).get(unit)
    if not info:
        return {}
    if count is None:
        return {case: str(form) for case, form in info["singular"].items()}
    index = plural_index(count, lang)
    return {case: str(forms[index]).format(count=count) for case, forms in info["count"].items()}


def plural_index(n: int, lang: str) -> int:
    """The plural class of ``n`` by the catalog's ``Plural-Forms`` (Russian: 0 for 1, 21; 1 for 2-4; 2 for 5-20)."""
    return int(translations(language_of(lang)).plural(int(n)))  # type: ignore[attr-defined]


def declined_name(text: str, lang: str) -> str:
    """``text`` with its forms if it is an area's name in the nominative (a name drawn from the board data rather
    than from ``app.labels``), else ``text`` unchanged."""
    area = _areas_by_name(language_of(lang)).get(text)
    return Declined(text, area_forms(area, lang)) if area else text


@cache
def _areas_by_name(lang: str) -> dict[str, str]:
    areas: dict[str, dict[str, str]] = case_forms(lang).get("areas", {})
    return {str(forms["nom"]): area_id for area_id, forms in areas.items() if "nom" in forms}


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
            return fill(text, params)  # a missing parameter raises KeyError: callers fall back
    raise KeyError(f"no text for {key!r}")


def tn(key: str, count: int, lang: str = "en", **params: object) -> str:
    """The form of a plural entry for ``count`` (also passed to the text as ``{count}``)."""
    for candidate in (language_of(lang), "en"):
        message = _texts(candidate).get(key)
        if message is not None and message.pluralizable and isinstance(message.string, tuple) and all(message.string):
            text = translations(candidate).ngettext(key, key, int(count))
            return fill(text, {"count": count, **params})
    raise KeyError(f"no plural text for {key!r}")
