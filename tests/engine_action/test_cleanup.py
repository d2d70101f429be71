"""Action-phase clean-up (checklist section 26, B-CLEAN-*; B-RAVEN-04; B-RETREAT-17)."""

from __future__ import annotations

from engine import Game
from engine.steps.action import cleanup

from .helpers import make, march, raid

UNITS = {
    "lannisport": "lannister footman",
    "stoney-sept": "lannister routed-knight",
    "winterfell": "stark footman",
    "white-harbor": "stark routed-footman",
    "the-shivering-sea": "stark ship",
}
ORDERS = {
    "lannisport": "raid",
    "stoney-sept": "support1*",
    "winterfell": "defense2*",
    "white-harbor": "defense1",
    "the-shivering-sea": "support0",
}


def finished_action_phase(round_: int = 10) -> tuple[Game, list[dict[str, object]]]:
    g = make(
        {
            "units": UNITS,
            "orders": ORDERS,
            "start": "action",
            "blade_used": True,
            "raven_used": True,
            "round": round_,
        }
    )
    return g, raid(g, "lannister", "lannisport", None)


def test_B_CLEAN_01_support_and_defense_orders_are_removed() -> None:
    g, events = finished_action_phase()
    assert "action-cleanup" in [e["type"] for e in events]
    assert g.s.orders == {}


def test_B_CLEAN_02_blade_and_raven_face_up() -> None:
    g, _ = finished_action_phase()
    assert not g.s.blade_used and not g.s.raven_used


def test_B_CLEAN_03_routed_units_stand_up() -> None:
    g, _ = finished_action_phase()
    assert not any(u.routed for us in g.s.units.values() for u in us)


def test_B_CLEAN_the_cleanup_step_itself() -> None:
    g = make({"units": UNITS, "orders": ORDERS, "start": "action", "blade_used": True, "raven_used": True})
    g.s.houses["lannister"].raven_peek = "crow-killers"
    cleanup(g)
    assert g.s.orders == {} and not g.s.orders_revealed
    assert not g.s.blade_used and not g.s.raven_used
    assert not any(u.routed for us in g.s.units.values() for u in us)
    assert g.s.houses["lannister"].raven_peek is None


def test_B_CLEAN_05_round_ten_ends_the_game() -> None:
    g, events = finished_action_phase(10)
    assert g.finished and g.s.ended_reason == "round-limit"
    assert events[-1]["type"] == "game-over"


def test_B_CLEAN_05_otherwise_a_new_round_begins_with_westeros() -> None:
    g = make({"units": UNITS, "orders": ORDERS, "start": "action", "round": 3})
    assert g.s.stack[-2] == {"type": "game", "id": g.s.stack[-2]["id"], "next": "westeros"}
    events = raid(g, "lannister", "lannisport", None)
    assert not g.finished and g.s.round == 4
    assert {"type": "round-started", "round": 4} in events


def test_B_CLEAN_every_order_type_is_gone_after_a_full_phase() -> None:
    g = make(
        {
            "units": {
                "lannisport": "lannister footman",
                "stoney-sept": "lannister footman",
                "riverrun": "lannister footman",
                "winterfell": "stark footman",
            },
            "orders": {
                "lannisport": "consolidate",
                "stoney-sept": "march0",
                "riverrun": "raid",
                "winterfell": "support0",
            },
            "start": "action",
        }
    )
    raid(g, "lannister", "riverrun", None)
    march(g, "lannister", "stoney-sept")
    assert g.finished and g.s.orders == {}


def test_B_CLEAN_04_resolved_westeros_cards_end_at_the_bottom_of_their_decks() -> None:
    """Done by the Westeros module when each card is resolved (B-WEST-07); by the clean-up they are at the bottom."""
    decks = [
        ["last-days-of-summer", "supply", "mustering"],
        ["last-days-of-summer", "game-of-thrones"],
        ["sea-of-storms", "web-of-lies"],
    ]
    g = make({"units": {"winterfell": "stark footman"}, "start": "westeros", "round": 3, "westeros_decks": decks})
    assert g.s.phase == "planning"  # these three cards ask nothing
    assert [d[-1] for d in g.s.westeros_decks] == ["last-days-of-summer", "last-days-of-summer", "sea-of-storms"]
    assert [d[0] for d in g.s.westeros_decks] == ["supply", "game-of-thrones", "web-of-lies"]
