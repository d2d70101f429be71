"""The Messenger Raven (checklist section 14, B-RAVEN-*; known edge case #309: swap respects restrictions and stars)."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import make, prompt, rejected

TRACKS_6 = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],  # Lannister holds the Raven
}
DECK = ["crow-killers", "mammoth-riders", "a-king-beyond-the-wall"]


def raven_game(lannister_orders: dict[str, str], **extra: Any) -> Game:
    units = {
        "lannisport": "lannister footman knight",
        "stoney-sept": "lannister footman",
        "searoad-marches": "lannister footman",
        "the-golden-sound": "lannister ship",
        "winterfell": "stark footman",
    }
    g = make({"units": units, "tracks": TRACKS_6, "start": "planning", "wildling_deck": DECK, **extra})
    g.act("stark", {"orders": {"winterfell": "support0"}})
    g.act("lannister", {"orders": lannister_orders})
    assert prompt(g, "lannister").kind == "raven"
    return g


ORDERS = {"lannisport": "march0", "stoney-sept": "support0", "searoad-marches": "raid", "the-golden-sound": "raid*"}


def test_B_RAVEN_01_swap_one_placed_order_for_an_unused_one() -> None:
    g = raven_game(ORDERS)
    swaps = prompt(g, "lannister").choices["swap"]
    assert "march-1" in swaps["lannisport"] and "march0" not in swaps["lannisport"]
    events = g.act("lannister", {"action": "swap", "area": "lannisport", "token": "defense1"})
    assert g.s.orders["lannisport"].token == "defense1"
    assert any(e["type"] == "raven-swapped" and e["old"] == "march0" for e in events)
    # B-RAVEN-05 [DERIVED]: the replacement lies face up (revealed).
    assert g.view("stark")["areas"]["lannisport"]["order"]["token"] == "defense1"


def test_B_RAVEN_01_look_at_the_top_wildling_card_and_put_it_at_the_bottom() -> None:
    g = raven_game(ORDERS)
    g.act("lannister", {"action": "peek"})
    p = prompt(g, "lannister")
    assert p.kind == "raven-wildling" and p.info["card"] == "crow-killers"
    g.act("lannister", "bottom")
    assert g.s.wildling_deck == ["mammoth-riders", "a-king-beyond-the-wall", "crow-killers"]


def test_B_RAVEN_01_look_and_keep_the_card_on_top() -> None:
    g = raven_game(ORDERS)
    g.act("lannister", {"action": "peek"})
    rejected(g, "lannister", "middle", "illegal-choice")
    g.act("lannister", "top")
    assert g.s.wildling_deck == DECK


def test_B_RAVEN_01_swap_and_peek_are_exclusive() -> None:
    g = raven_game(ORDERS)
    g.act("lannister", {"action": "swap", "area": "lannisport", "token": "defense1"})
    # The Raven is spent: the phase moved on to the Action phase.
    assert g.s.raven_used and g.s.phase == "action"
    assert g.prompt_for("lannister") is None or g.prompt_for("lannister").kind != "raven"


def test_B_RAVEN_02_the_card_seen_stays_private() -> None:
    g = raven_game(ORDERS)
    events = g.act("lannister", {"action": "peek"})
    private = [e for e in events if e.get("card") == "crow-killers"]
    assert private and all(e.get("private_to") == "lannister" for e in private)
    assert g.view("lannister")["houses"]["lannister"]["raven_peek"] == "crow-killers"
    for viewer in (None, "stark"):
        text = repr(g.view(viewer))
        assert "crow-killers" not in text
    g.act("lannister", "top")
    assert "crow-killers" not in repr(g.view("stark"))


def test_B_RAVEN_03_the_holder_may_decline() -> None:
    g = raven_game(ORDERS)
    before = dict(g.s.orders)
    events = g.act("lannister", {"action": "none"})
    assert any(e["type"] == "raven-declined" for e in events)
    assert g.s.orders.keys() == before.keys() and not g.s.raven_used
    assert g.s.wildling_deck == DECK


def test_B_RAVEN_04_used_raven_is_face_down_until_action_cleanup() -> None:
    g = raven_game(
        {"lannisport": "defense1", "stoney-sept": "support0", "searoad-marches": "raid", "the-golden-sound": "raid*"}
    )
    g.act("lannister", {"action": "peek"})
    g.act("lannister", "top")
    assert g.s.raven_used
    assert g.view(None)["dominance"]["messenger_raven"] == {"house": "lannister", "used": True}
    # Resolve the two raids (no targets): the Action phase runs to its clean-up.
    g.act("lannister", {"from": "searoad-marches", "target": None})
    g.act("lannister", {"from": "the-golden-sound", "target": None})
    assert not g.s.raven_used  # B-CLEAN-02 turned it face up (round 10: the game then ended)
    assert g.finished


def test_B_RAVEN_04_a_raven_already_used_is_not_offered() -> None:
    # The Raven is face up at every Planning phase's start (turned up at the Action phase's end), so a scenario
    # refuses raven_used there; what is tested is the engine's check of the flag, set on a legal position's state.
    units = {"lannisport": "lannister footman", "winterfell": "stark footman"}
    legal = make({"units": units, "tracks": TRACKS_6, "start": "planning"})
    g = Game.from_json({**legal.to_dict(), "raven_used": True})
    g.act("stark", {"orders": {"winterfell": "support0"}})
    g.act("lannister", {"orders": {"lannisport": "raid"}})
    assert prompt(g, "lannister").kind == "raid"  # straight into the Action phase


def test_B_RAVEN_05_swap_respects_this_rounds_restrictions() -> None:
    g = raven_game(ORDERS, restrictions=["defense"])
    swaps = prompt(g, "lannister").choices["swap"]
    assert all(not t.startswith("defense") for options in swaps.values() for t in options)
    rejected(g, "lannister", {"action": "swap", "area": "lannisport", "token": "defense1"}, "illegal-choice")
    g.act("lannister", {"action": "swap", "area": "lannisport", "token": "consolidate"})


def test_B_RAVEN_05_swap_respects_the_star_limit() -> None:
    # Lannister (King's Court 1st: 3 stars) has placed three starred orders.
    three_stars = {
        "lannisport": "march1*",
        "stoney-sept": "support1*",
        "searoad-marches": "raid",
        "the-golden-sound": "raid*",
    }
    g = raven_game(three_stars)
    swaps = prompt(g, "lannister").choices["swap"]
    # A normal order may not become a fourth star...
    assert not any(t.endswith("*") for t in swaps["searoad-marches"])
    rejected(g, "lannister", {"action": "swap", "area": "searoad-marches", "token": "defense2*"}, "illegal-choice")
    # ...but a star may be exchanged for another star.
    assert "defense2*" in swaps["lannisport"]
    g.act("lannister", {"action": "swap", "area": "lannisport", "token": "defense2*"})
    assert sum(1 for o in g.s.orders.values() if o.house == "lannister" and o.token.endswith("*")) == 3


def test_B_RAVEN_05_only_unused_tokens_can_come_in() -> None:
    both_raids = {
        "lannisport": "raid",
        "stoney-sept": "raid",
        "searoad-marches": "support0",
        "the-golden-sound": "raid*",
    }
    g = raven_game(both_raids)
    swaps = prompt(g, "lannister").choices["swap"]
    assert "raid" not in swaps["searoad-marches"]
    rejected(g, "lannister", {"action": "swap", "area": "searoad-marches", "token": "raid"}, "illegal-choice")


def test_B_RAVEN_illegal_answers_leave_the_state_unchanged() -> None:
    g = raven_game(ORDERS)
    rejected(g, "stark", {"action": "none"}, "not-your-turn")
    rejected(g, "lannister", {"action": "fly"}, "illegal-choice")
    rejected(g, "lannister", {"action": "swap", "area": "winterfell", "token": "raid"}, "raven-bad-area")
    rejected(g, "lannister", {"action": "swap", "area": ["lannisport"], "token": "raid"}, "raven-bad-area")
    rejected(g, "lannister", {"action": "swap", "area": "lannisport"}, "bad-answer")


def test_B_RAVEN_peek_needs_a_wildling_card() -> None:
    g = raven_game(ORDERS, wildling_deck=[])
    assert prompt(g, "lannister").choices["peek"] is False
    rejected(g, "lannister", {"action": "peek"}, "raven-no-deck")
