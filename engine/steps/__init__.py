"""Frame types of the step machine, one module per part of the round.

Importing this package registers every step with ``engine.flow``.
"""

from engine.steps import action, bidding, combat, mustering, planning, round, supply, westeros, wildlings  # noqa: F401
