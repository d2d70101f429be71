"""The battle in the views (issue R): each side's strength by source from the moment the combat starts, and the
Power Pool, never giving away what is still secret."""

from __future__ import annotations

from engine import Game
from tests.engine_action.helpers import event, make, march, prompt


def riverrun() -> Game:
    """Lannister marches a knight and a footman (+1) on a Stark footman defending (+1) in Riverrun; a Stark
    footman in Seagard holds a Support order."""
    return make(
        {
            "players": 3,
            "units": {
                "lannisport": "lannister knight footman",
                "riverrun": "stark footman",
                "seagard": "stark footman",
            },
            "orders": {"lannisport": "march1*", "riverrun": "defense1", "seagard": "support0"},
            "tracks": {"kings_court": ["lannister", "stark", "baratheon"]},
            "start": "march",
        }
    )


def test_strength_components_are_public_from_the_start_of_the_combat() -> None:
    g = riverrun()
    march(g, "lannister", "lannisport", {"riverrun": ["knight", "footman"]})
    battle = g.view(None)["battle"]
    assert battle["stage"] == "support"
    assert battle["components"] == {
        "attacker": {"units": 3, "support": 0, "march": 1, "total": 4},
        "defender": {"units": 1, "support": 0, "defense": 1, "total": 2},
    }
    assert battle["strength"] is None  # no final total before the cards
    g.act("stark", "defender")
    assert g.view(None)["battle"]["components"]["defender"] == {"units": 1, "support": 1, "defense": 1, "total": 3}


def test_a_chosen_card_stays_out_of_every_view_but_its_owners_until_the_reveal() -> None:
    g = riverrun()
    march(g, "lannister", "lannisport", {"riverrun": ["knight", "footman"]})
    g.act("stark", "defender")
    g.act("lannister", "tywin-lannister")
    for viewer in (None, "stark", "baratheon", "lannister"):
        battle = g.view(viewer)["battle"]
        assert battle["components"]["attacker"] == {"units": 3, "support": 0, "march": 1, "total": 4}
        assert battle["cards"]["attacker"] == ("tywin-lannister" if viewer == "lannister" else None)
    g.act("stark", "eddard-stark")
    battle = g.view(None)["battle"]
    assert battle["cards"] == {"attacker": "tywin-lannister", "defender": "eddard-stark"}
    assert battle["components"]["defender"] == {"units": 1, "support": 1, "defense": 1, "card": 4, "total": 7}
    assert prompt(g, "stark").kind == "blade"  # Stark holds the Valyrian Steel Blade
    result = event(g.act("stark", False), "combat-result")
    assert result["strength"]["attacker"] == {"units": 3, "support": 0, "march": 1, "card": 4, "total": 8}


def test_the_power_pool_is_public_except_during_a_bid() -> None:
    g = make({"players": 3, "power": {"stark": 7}, "power_tokens": {"seagard": "stark"}, "start": "planning"})
    assert g.view(None)["pool"]["stark"] == 20 - 7 - 1
    assert prompt(g, "stark").kind == "orders"
    bidding = Game.from_scenario({"players": 3, "power": {"stark": 7}, "round": 2, "start": {"clash": "iron_throne"}})
    assert prompt(bidding, "stark").kind == "bid"
    assert set(bidding.view(None)["pool"].values()) == {None}
    mine = bidding.view("stark")["pool"]
    assert mine["stark"] == 20 - 7 and mine["lannister"] is None
