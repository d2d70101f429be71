"""Frame types of the step machine, one module per part of the round.

Importing this package registers every step with ``engine.flow``, and the house-card abilities
(``engine.cards``) with ``engine.abilities``.
"""

from engine.steps import (  # noqa: F401
    action,
    bidding,
    combat,
    deck4_moves,
    deck4_players,
    iron_bank,
    loans,
    loyalty,
    mustering,
    planning,
    round,
    supply,
    targaryen,
    vassals,
    westeros,
    wildlings,
)

from engine import cards, cards_arryn, cards_targaryen, cards_vassal  # noqa: F401  isort: skip
