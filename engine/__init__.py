"""The rules engine: pure Python, no I/O beyond reading its own data files, no clock.

Public contract (see docs/engine.md):

- ``new_game(players, seed=..., options=...)`` and ``Game.from_scenario(spec)`` build games;
- ``game.prompts()`` lists the open decisions, ``game.act(house, answer)`` applies one;
- ``game.view(house)`` / ``game.view(None)`` are the only way out of the engine;
- ``Game.to_json()`` / ``Game.from_json()`` round-trip the whole state exactly.
"""

from engine.errors import RuleError
from engine.game import Game, new_game
from engine.prompts import Prompt

__all__ = ["Game", "Prompt", "RuleError", "new_game"]
