"""A 3-player game one answer from its end, for the tests and benches that need finished games (``/stats``): round
10's Action phase with one march of Stark's left, so that answering it ends the game with the chosen winner."""

from __future__ import annotations

from typing import Any

# The one unit more that wins round 10 for each house (with none, Baratheon wins on the tie-breakers).
WINS: dict[str, dict[str, str]] = {
    "baratheon": {},
    "lannister": {"riverrun": "lannister footman"},
    "stark": {"moat-cailin": "stark footman"},
}


def near_the_end(winner: str) -> dict[str, Any]:
    """The scenario (``/mod import``'s format) whose last march, Stark's, ends the game with ``winner`` first."""
    units = {
        "winterfell": "stark footman",
        "the-twins": "stark footman",
        "lannisport": "lannister footman",
        "dragonstone": "baratheon footman",
        **WINS[winner],
    }
    orders = {area: "defense1" for area in units} | {"the-twins": "march0"}
    return {"round": 10, "start": "action", "units": units, "orders": orders}
