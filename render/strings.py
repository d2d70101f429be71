"""Words drawn on the images: from the bot's catalogs (``locales/``, keys ``image.*``), and names from ``data/``."""

from __future__ import annotations

import i18n
from render.data import house_cards, houses, loan_cards, westeros_cards, westeros_deck4

# Russian titles of the Westeros cards the data files give only in English.
WESTEROS_RU: dict[str, str] = {
    "last-days-of-summer": "Последние дни лета",
    "a-throne-of-blades": "Трон из клинков",
    "winter-is-coming": "Зима близко",
    "dark-wings-dark-words": "Тёмные крылья, тёмные слова",
    "put-to-the-sword": "Предать мечу",
    "storm-of-swords": "Буря мечей",
    "rains-of-autumn": "Осенние дожди",
    "sea-of-storms": "Море штормов",
    "web-of-lies": "Паутина лжи",
    "feast-for-crows": "Пир для воронов",
}


def t(key: str, lang: str, **kw: object) -> str:
    """A word of the images, from the same catalogs as the bot's messages (``image.<key>``)."""
    return i18n.t(f"image.{key}", lang, **kw)


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
    if lang == "ru":
        return names.get("ru") or WESTEROS_RU.get(card) or names["en"]
    return names["en"]


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
