"""Errors shown to players, in their language.

Rule errors carry a machine-readable code and raw parameters (area ids, unit types, order tokens); here they
become a sentence from the catalog with those parameters named in the reader's language. When a message needs
a parameter the error did not carry, its ``.plain`` version is used; never an English fallback inside another
language unless the catalog truly lacks the code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.decisions import area_label, token_label, unit_label
from engine import data
from i18n import catalog, language_of, t, tn


def _format_param(key: str, value: Any, lang: str) -> Any:
    board = data.all_areas()
    if isinstance(value, str):
        if key in ("house", "liege") and catalog("en").get(f"house.{value}") is not None:
            return t(f"house.{value}", lang)
        if value in board:
            return area_label(value, lang)
        if key in ("unit",) and value in data.unit_types("mother-of-dragons/units.json"):
            return unit_label(value, lang)
        if key in ("token",):
            return token_label(value, lang)
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(str(_format_param(key.rstrip("s"), v, lang)) for v in value)
    return value


# Refusals whose text depends on a count: the parameter that holds it (the catalog has plural forms for them).
PLURAL_PARAMS = {
    "error.muster-one-area": "max",
    "error.vacation-allowance": "left",
    "error.interest-count": "count",
    "error.loan-power": "cost",
    "error.loan-areas-count": "count",
    "error.loan-units-count": "max",
}


def _count(value: Any) -> int | None:
    """A whole count from an error parameter (a number, or a number written as text), else None."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number.is_integer() else None


# Parameters that may hold what a user typed (a game name, a piece of a scenario): shown through ``literal``.
USER_GIVEN = frozenset({"name", "reason", "text", "value", "message"})


def error_text(err: Exception, lang: str, *, literal: Callable[[str], str] | None = None) -> str:
    """The sentence for a refusal in ``lang``. ``literal`` renders user-given text as literal text where the
    message is shown (the bot escapes Discord markdown and mentions with it)."""
    code = getattr(err, "code", "generic")
    raw = getattr(err, "params", {}) or {}
    params = {k: _format_param(k, v, lang) for k, v in raw.items()}
    if literal is not None:
        params = {k: literal(v) if k in USER_GIVEN and isinstance(v, str) else v for k, v in params.items()}
    lang = language_of(lang)
    for key in (f"error.{code}", f"error.{code}.plain"):
        if catalog(lang).get(key) is None and catalog("en").get(key) is None:
            continue
        try:
            count = _count(raw.get(PLURAL_PARAMS.get(key, "")))
            if key in PLURAL_PARAMS:
                if count is None:
                    continue  # no whole count to agree with: the plain sentence
                return tn(key, count, lang, **{k: v for k, v in params.items() if k != "count"})
            return t(key, lang, **params)
        except (KeyError, IndexError):
            continue
    message = str(getattr(err, "message", str(err)))
    return t("error.generic", lang, message=literal(message) if literal is not None else message)
