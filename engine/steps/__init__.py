"""Frame types of the step machine, one module per part of the round.

Importing this package registers every step with ``engine.flow``.
"""

from engine.steps import action, combat, planning, round, westeros  # noqa: F401
