"""One registration per prompt kind (issue P): each group module registers the kinds of its part of the game.

Importing this package imports every group module, so the registry (``app.kinds.registry``) is complete whenever
anyone looks a kind up. A group module imports the shared form helpers (``app.forms``) and the registry, never
``app.decisions``, which is built on top of them.
"""

from app.kinds import (
    action,
    cards,
    combat,
    deck4_moves,
    deck4_players,
    iron_bank,
    loyalty,
    planning,
    westeros,
    wildlings,
)

__all__ = [
    "action",
    "cards",
    "combat",
    "deck4_moves",
    "deck4_players",
    "iron_bank",
    "loyalty",
    "planning",
    "westeros",
    "wildlings",
]
