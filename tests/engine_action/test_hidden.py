"""Hidden and open information in views (checklist section 33, B-HIDDEN-*; B-PLAN-04; B-HCARD-11; B-RAVEN-02)."""

from __future__ import annotations

import json
from typing import Any

from engine import Game

from .helpers import make, march, prompt

TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}
UNITS = {
    "winterfell": "stark footman knight",
    "white-harbor": "stark footman",
    "lannisport": "lannister footman knight",
    "stoney-sept": "lannister footman",
}
HOUSES = ["stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell"]


def text(view: dict[str, Any]) -> str:
    """The view as text, without the viewer's own prompt (which lists the viewer's own tokens and cards)."""
    return json.dumps({k: v for k, v in view.items() if k != "prompt"}, sort_keys=True)


def planning() -> Game:
    return make({"units": UNITS, "tracks": TRACKS, "start": "planning"})


def test_B_HIDDEN_05_B_PLAN_04_placed_orders_are_face_down_until_the_reveal() -> None:
    g = planning()
    g.act("stark", {"orders": {"winterfell": "march1*", "white-harbor": "raid*"}})
    own = g.view("stark")["areas"]["winterfell"]["order"]
    assert own["token"] == "march1*"
    for viewer in (None, "lannister", "greyjoy"):
        v = g.view(viewer)
        assert v["areas"]["winterfell"]["order"] == {"house": "stark", "hidden": True}
        assert "march1*" not in text(v) and "raid*" not in text(v)
    g.act("lannister", {"orders": {"lannisport": "defense1", "stoney-sept": "consolidate"}})
    # Revealed together: now everybody sees them.
    assert g.view("lannister")["areas"]["winterfell"]["order"]["token"] == "march1*"
    assert g.view(None)["areas"]["lannisport"]["order"]["token"] == "defense1"


def test_B_HIDDEN_01_unused_orders_stay_behind_the_screen() -> None:
    g = planning()
    g.act("stark", {"orders": {"winterfell": "march1*", "white-harbor": "raid*"}})
    # Another house's view has no prompt of Stark's (its usable tokens) and the public view has no prompt at all.
    assert g.view("lannister")["prompt"]["house"] == "lannister"
    assert "prompt" not in g.view(None)
    for viewer in (None, "lannister"):
        assert "orders_left" not in text(g.view(viewer)["houses"]["stark"])


def clash_game() -> Game:
    """Round 3's Westeros phase drawing a Clash of Kings, Stark with 7 Power and Lannister with 2."""
    return make(
        {
            "units": UNITS,
            "tracks": TRACKS,
            "start": "westeros",
            "round": 3,
            "power": {"stark": 7, "lannister": 2},
            "westeros_decks": [["last-days-of-summer"], ["clash-of-kings"], ["sea-of-storms"]],
        }
    )


def test_B_HIDDEN_02_B_HIDDEN_03_available_power_is_public_except_during_a_bid() -> None:
    g = make({"units": UNITS, "tracks": TRACKS, "start": "planning", "power": {"stark": 7, "lannister": 2}})
    assert g.view("greyjoy")["power"]["stark"] == 7 and g.view(None)["power"]["lannister"] == 2
    # A Clash of Kings opens a bid: each house sees only its own available power until the bidding is over.
    g = clash_game()
    assert prompt(g, "stark").kind == "bid"
    assert g.view(None)["power"] == {h: None for h in HOUSES}
    assert g.view("stark")["power"] == {h: (7 if h == "stark" else None) for h in HOUSES}
    g.act("stark", 3)
    assert g.view("lannister")["power"]["stark"] is None  # still hidden after Stark's bid
    for _ in range(60):  # the three tracks: every other house bids 0; ties are ordered by the defaults
        if not any(f["type"] in ("bidding", "clash") for f in g.s.stack):
            break
        p = next(p for p in g.prompts() if not p.answered)
        g.act(p.house, 0 if p.kind == "bid" else p.default)
    assert not any(f["type"] in ("bidding", "clash") for f in g.s.stack)
    power = g.view(None)["power"]
    assert None not in power.values() and power["stark"] == 4  # public again, after paying its bid


def test_B_HIDDEN_02_the_totals_announced_before_a_bid_stay_public_through_the_whole_clash() -> None:
    """Issue U, fault 7: the board posted during a bid showed "?" for every house's Power. The players announce their
    totals before hiding their tokens (B-HIDDEN-02): the view shows those, while the Power left stays hidden
    (B-HIDDEN-03) until the three tracks of the Clash of Kings are bid and paid."""
    g = clash_game()
    before = {h: g.s.houses[h].power for h in HOUSES}
    assert before["stark"] == 7 and before["lannister"] == 2
    for viewer in (None, "lannister", "stark"):
        assert g.view(viewer)["power_announced"] == before
    g.act("stark", 3)
    tracks_paid = 0
    for _ in range(60):
        if not any(f["type"] in ("bidding", "clash") for f in g.s.stack):
            break
        assert g.view(None)["power_announced"] == before  # not the Power left after the first track's bids
        assert g.view(None)["power"] == {h: None for h in HOUSES}
        p = next(p for p in g.prompts() if not p.answered)
        tracks_paid += p.kind == "bid"
        g.act(p.house, 0 if p.kind == "bid" else p.default)
    assert tracks_paid >= 2
    assert "power_announced" not in g.view(None)  # the bids are over: the Power itself is public again


def combat_game() -> Game:
    g = make(
        {
            "units": {"lannisport": "lannister knight", "stoney-sept": "stark footman", "the-eyrie": "tyrell footman"},
            "orders": {"lannisport": "march0", "stoney-sept": "defense1", "the-eyrie": "march0"},
            "tracks": TRACKS,
            "start": "action",
            "options": {"tides_of_battle": True},
        }
    )
    march(g, "lannister", "lannisport", {"stoney-sept": ["knight"]})
    return g


def test_B_HIDDEN_04_B_HCARD_11_hands_are_public_but_the_chosen_card_is_secret_until_revealed() -> None:
    g = combat_game()
    assert sorted(g.view("stark")["houses"]["lannister"]["hand"]) == sorted(g.s.houses["lannister"].hand)
    assert g.view(None)["houses"]["lannister"]["discards"] == []
    g.act("lannister", "ser-gregor-clegane")
    mine = g.view("lannister")["battle"]
    assert mine["cards"]["attacker"] == "ser-gregor-clegane"
    for viewer in (None, "stark", "greyjoy"):
        v = g.view(viewer)
        assert v["battle"]["cards"] == {"attacker": None, "defender": None}
        # The hand still shows all seven cards: nothing tells which one was picked.
        assert len(v["houses"]["lannister"]["hand"]) == 7
        assert v["battle"]["tides"] == {"attacker": None, "defender": None}
    assert g.view(None)["awaiting"] == ["stark"]  # who still has to choose, never what was chosen
    events = g.act("stark", "greatjon-umber")
    revealed = next(e for e in events if e["type"] == "house-cards-revealed")
    assert (revealed["attacker"], revealed["defender"]) == ("ser-gregor-clegane", "greatjon-umber")
    assert g.view(None)["houses"]["lannister"]["discards"] == ["ser-gregor-clegane"]


def test_B_HIDDEN_06_raven_card_private_tides_shown_when_drawn() -> None:
    g = make(
        {
            "units": UNITS,
            "tracks": TRACKS,
            "start": "planning",
            "wildling_deck": ["skinchanger-scout", "crow-killers"],
        }
    )
    g.act("stark", {"orders": {"winterfell": "defense1", "white-harbor": "defense1"}})
    g.act("lannister", {"orders": {"lannisport": "defense2*", "stoney-sept": "support0"}})
    g.act("lannister", {"action": "peek"})
    assert g.view("lannister")["houses"]["lannister"]["raven_peek"] == "skinchanger-scout"
    for viewer in (None, "stark"):
        assert "skinchanger-scout" not in text(g.view(viewer))
    # Tides of Battle: drawn after the house cards are revealed and revealed at once (no secret window here).
    g = combat_game()
    g.act("lannister", "the-hound")
    events = g.act("stark", "greatjon-umber")
    drawn = [e for e in events if e["type"] == "tides-drawn"]
    assert drawn and not drawn[0].get("private_to")


def test_B_HIDDEN_07_simultaneous_secret_choices_are_collected_privately() -> None:
    g = planning()
    ps = g.prompts()
    assert {p.kind for p in ps} == {"orders"} and all(p.secret for p in ps)
    events = g.act("stark", {"orders": {"winterfell": "march1*", "white-harbor": "raid*"}})
    # The public event says only that Stark has answered.
    assert events == [{"type": "orders-submitted", "house": "stark"}]
    assert g.view(None)["awaiting"] == ["lannister"]
    # Stark may still change its mind, and nothing is revealed before Lannister answers.
    g.act("stark", {"orders": {"winterfell": "defense1", "white-harbor": "raid*"}})
    assert g.s.orders == {}
    g2 = combat_game()
    assert all(p.secret for p in g2.prompts() if p.kind == "house-card")
    assert g2.act("lannister", "the-hound") == [{"type": "house-card-chosen", "house": "lannister"}]
