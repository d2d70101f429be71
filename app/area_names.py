"""The areas of a game's board by their names in a language (``/game map area:``, cogs/area_map.py): the list one
picks from as one types, and the area a typed name means (in the reader's language or in English)."""

from __future__ import annotations

from app.labels import area_label
from engine import Game, rules


def _key(text: str) -> str:
    return " ".join(text.casefold().replace("’", "'").split())


def areas_named(game: Game, lang: str) -> list[tuple[str, str]]:
    """(name in ``lang``, id) of every area of the game's board, by name."""
    board = rules.board(game.state)
    return sorted(((str(area_label(a, lang)), a) for a in board.areas), key=lambda x: _key(x[0]))


def matching(game: Game, typed: str, lang: str, limit: int) -> list[tuple[str, str]]:
    """The areas whose name in ``lang`` holds ``typed``: first those that start with it, at most ``limit``."""
    wanted = _key(typed)
    named = areas_named(game, lang)
    starts = [(n, a) for n, a in named if _key(n).startswith(wanted)]
    inside = [(n, a) for n, a in named if wanted in _key(n) and not _key(n).startswith(wanted)]
    return (starts + inside)[:limit]


def find_area(game: Game, typed: str, lang: str) -> str | None:
    """The area ``typed`` names: an id from the list, or a name in the reader's language, English or Russian."""
    if typed in rules.board(game.state).areas:
        return typed
    wanted = _key(typed)
    for language in dict.fromkeys((lang, "en", "ru")):
        for name, area in areas_named(game, language):
            if _key(name) == wanted:
                return area
    return None
