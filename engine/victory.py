"""Who wins at the end of round 10 (B-VICTORY-02..04)."""

from __future__ import annotations

from engine import data, rules
from engine.state import GameState


def standing(s: GameState, house: str) -> tuple[int, ...]:
    """A sortable key: higher is better. The Iron Throne holder never decides this tie (B-VICTORY-04)."""
    order = s.options.get("tie_breakers", "rulebook")
    key: list[int] = [rules.victory_points(s)[house]]
    for criterion in data.setups()["tie_breakers"][order]:
        if criterion == "strongholds":
            key.append(rules.strongholds_controlled(s, house))
        elif criterion == "supply":
            key.append(s.houses[house].supply)
        elif criterion == "power":
            key.append(s.houses[house].power)
        elif criterion == "land_areas":
            key.append(len(rules.controlled_lands(s, house)))
        elif criterion == "iron_throne":
            key.append(-rules.position(s, "iron_throne", house))
    return tuple(key)


def final_winner(s: GameState) -> str:
    """The best standing among the players' houses: a vassal never wins (M-VASSAL-32)."""
    return max(rules.player_houses(s), key=lambda h: standing(s, h))
