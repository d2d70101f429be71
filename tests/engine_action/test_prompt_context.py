"""Combat prompts carry what the chooser needs to decide (issue J): why a casualty count is what it is, and which
units retreat and what each legal area costs them."""

from __future__ import annotations

from engine import Game

from .helpers import make, march, prompt

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}


def stoney_sept() -> Game:
    """Three Lannister knights march on Stark's footman and two knights in Stoney Sept."""
    g = make(
        {
            "units": {
                "lannisport": "lannister knight knight knight",
                "stoney-sept": "stark footman knight knight",
                "the-eyrie": "tyrell footman",
            },
            "orders": {"lannisport": "march0", "stoney-sept": "consolidate", "the-eyrie": "march0"},
            "tracks": TRACKS,
            "start": "action",
        }
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    g.act("lannister", "ser-jaime-lannister")  # 3 knights = 6, +2: 8 and one sword
    g.act("stark", "greatjon-umber")  # 5, +2: 7, no fortification
    return g


def test_casualties_say_what_the_count_comes_from() -> None:
    p = prompt(stoney_sept(), "stark")
    assert p.kind == "casualties" and p.choices["count"] == 1
    assert p.info == {
        "area": "stoney-sept",
        "reason": "lost",
        "winner": "lannister",
        "swords": 1,
        "fortifications": 0,
        "skulls": 0,
    }


def test_retreat_names_the_units_and_what_each_area_costs() -> None:
    g = stoney_sept()
    g.act("stark", ["knight"])
    p = prompt(g, "stark")
    assert p.kind == "retreat"
    assert p.info["area"] == "stoney-sept" and sorted(p.info["units"]) == ["footman", "knight"]
    assert set(p.info["losses"]) == set(p.choices) and set(p.info["losses"].values()) == {0}
