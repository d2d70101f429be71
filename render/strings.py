"""Words drawn on the images: from the bot's catalogs (``locales/``, keys ``image.*``), and names from ``data/``.

One glossary: a thing the forms and the channel also name (a unit, an order, a track, a phase, a strength source)
is drawn with their catalog entry, so the legend cannot call a footman anything the forms do not.
"""

from __future__ import annotations

import i18n
from render.data import house_cards, houses, loan_cards, westeros_cards, westeros_deck4

# The image's key (or the start of it) → the entry the forms and the narration use for the same thing.
SHARED_PREFIXES = {"unit.": "unit.", "order.": "order-type.", "track.": "track.", "phase.": "phase."}
SHARED_KEYS = {
    "neutral": "strength.neutral",
    "neutral_side": "strength.neutral",
    "b.units": "strength.units",
    "b.support": "strength.support",
    "b.garrison": "strength.garrison",
}
# Drawn in lower case where they stand in a sentence or a list of the legend; everything else is a title or label.
LOWER_KEYS = frozenset({"neutral"})


def shared_key(key: str) -> str | None:
    """The catalog entry that names what the image's ``key`` names, if the forms and the channel name it too."""
    if key in SHARED_KEYS:
        return SHARED_KEYS[key]
    for prefix, shared in SHARED_PREFIXES.items():
        if key.startswith(prefix):
            return shared + key[len(prefix) :]
    return None


def capital(text: str) -> str:
    """``text`` with its first letter capitalised and the rest untouched ("Consolidate Power", «Пеший воин»)."""
    return text[:1].upper() + text[1:]


def t(key: str, lang: str, **kw: object) -> str:
    """A word of the images, from the same catalogs as the bot's messages (``image.<key>``, or the entry the forms
    and the channel share for it). An area's name given in the nominative is declined if the template asks
    (``{area:acc}``)."""
    params = {k: i18n.declined_name(v, lang) if isinstance(v, str) else v for k, v in kw.items()}
    shared = shared_key(key)
    if shared is not None:
        word = i18n.t(shared, lang, **params)
        return word if key in LOWER_KEYS else capital(word)
    return i18n.t(f"image.{key}", lang, **params)


def house_name(house: str, lang: str) -> str:
    h = houses().get(house)
    if h is None:
        return house.replace("-", " ").title()
    names: dict[str, str] = h["names"]
    return names.get(lang) or names["en"]


def step_name(step: str, lang: str) -> str:
    """The step in the reader's language; an unknown step is not shown at all (never its id)."""
    key = f"image.step.{step}"
    return i18n.t(key, lang) if i18n.has(key, lang) else ""


def westeros_card_name(card: str, lang: str, deck: int | None = None) -> str:
    """A Westeros card's title; ``deck`` 4 looks in deck IV (Mother of Dragons with Targaryen), whose ids are its
    own."""
    c = westeros_deck4().get(card) if deck == 4 else westeros_cards().get(card)
    if c is None:
        return card.replace("-", " ").capitalize()
    names: dict[str, str] = c["names"]
    return names.get(lang) or names["en"]


def house_card_name(card: str, lang: str) -> str:
    c = house_cards().get(card)
    if c is None:
        return card.replace("-", " ").title()
    names: dict[str, str] = c["names"]
    return names.get(lang) or names["en"]


def loan_name(loan: str, lang: str) -> str:
    """An Iron Bank loan card's name (data/mother-of-dragons/iron_bank.json)."""
    card = loan_cards().get(loan)
    if card is None:
        return loan.replace("-", " ").capitalize()
    names: dict[str, str] = card["names"]
    return names.get(lang) or names["en"]
