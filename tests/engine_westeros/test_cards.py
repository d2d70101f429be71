"""Every Westeros card (B-WCARD-02..18) and Game of Thrones' power (B-OPEN-06)."""

from __future__ import annotations

import pytest

from engine import RuleError
from engine.orders import RESTRICTIONS
from tests.engine_westeros.helpers import (
    answer,
    events_of,
    in_planning,
    kinds,
    prompt,
    setup_events,
    westeros,
)

GOT_POSITION = {
    "units": {
        "winterfell": "stark footman",
        "port-of-winterfell": "stark ship",
        "lannisport": "lannister footman",
        "port-of-lannisport": "lannister ship",
        "the-golden-sound": "baratheon ship",
        "dragonstone": "baratheon footman",
    },
    "power_tokens": {"kingswood": "baratheon", "searoad-marches": "lannister"},
    "power": {"stark": 0, "lannister": 0, "baratheon": 0},
}


def test_B_WCARD_02_last_days_of_summer_does_nothing() -> None:
    """B-WCARD-02: nothing happens besides its icon; play goes on to the Planning phase."""
    g = westeros({"supply": {"stark": 0}}, ("last-days-of-summer", "last-days-of-summer", "put-to-the-sword"))
    assert len(events_of(setup_events(g), "nothing-happens")) == 2
    p = prompt(g, kind="westeros-choice")
    g.act(p.house, "none")
    assert in_planning(g)
    assert g.s.houses["stark"].supply == 0  # no Supply was resolved


def test_B_WCARD_03_mustering_asks_houses_in_turn_order() -> None:
    """B-WCARD-03: Mustering gives every house with something to muster a muster prompt, in turn order."""
    g = westeros({}, ("mustering", "last-days-of-summer", "rains-of-autumn"))
    seen = []
    while not in_planning(g):
        p = prompt(g, kind="muster")
        seen.append(p.house)
        g.act(p.house, {})
    assert seen == ["baratheon", "lannister", "stark"]


def test_B_WCARD_04_supply_moves_every_supply_token() -> None:
    """B-WCARD-04: Supply sets every house to its barrel count."""
    g = westeros({"supply": {"stark": 0, "lannister": 6, "baratheon": 6}}, ("supply", "game-of-thrones", "web-of-lies"))
    assert in_planning(g)
    assert {h: g.s.houses[h].supply for h in g.s.players} == {"stark": 1, "lannister": 2, "baratheon": 2}


@pytest.mark.parametrize("choice", ["supply", "mustering", "nothing"])
def test_B_WCARD_05_throne_of_blades_iron_throne_holder_chooses(choice: str) -> None:
    """B-WCARD-05, B-WCARD-18: the Iron Throne holder must pick supply, mustering or nothing."""
    g = westeros({"supply": {"stark": 4}}, ("a-throne-of-blades", "last-days-of-summer", "rains-of-autumn"))
    p = prompt(g, kind="westeros-choice")
    assert p.house == "baratheon" and p.choices == ["supply", "mustering", "nothing"]
    assert p.default == "nothing" and p.info == {"card": "a-throne-of-blades"}
    g.act("baratheon", choice)
    if choice == "mustering":
        assert kinds(g)[0] == ("baratheon", "muster")
    else:
        assert in_planning(g)
        assert g.s.houses["stark"].supply == (1 if choice == "supply" else 4)


def test_B_WCARD_06_game_of_thrones_crowns_and_trading_ports() -> None:
    """B-WCARD-06: one Power per crown in controlled areas, plus one per own port holding own ships whose sea holds
    no enemy ship (Lannister's port is blockaded by a Baratheon ship; Dragonstone's port is empty)."""
    g = westeros(GOT_POSITION, ("last-days-of-summer", "game-of-thrones", "rains-of-autumn"))
    gains = {e["house"]: (e["crowns"], e["ports"]) for e in events_of(setup_events(g), "power-gained")}
    assert gains == {"stark": (1, 1), "lannister": (0, 0), "baratheon": (2, 0)}
    assert [e["house"] for e in events_of(setup_events(g), "power-gained")] == ["baratheon", "lannister", "stark"]
    assert {h: g.s.houses[h].power for h in g.s.players} == {"stark": 2, "lannister": 0, "baratheon": 2}


def test_B_WCARD_07_power_tokens_are_not_crowns() -> None:
    """B-WCARD-07: a Power token holds an area (Kingswood's crown counts for Baratheon) but is not a crown itself:
    Lannister's token on Searoad Marches (no crown) brings nothing."""
    g = westeros(GOT_POSITION, ("last-days-of-summer", "game-of-thrones", "rains-of-autumn"))
    assert g.s.houses["lannister"].power == 0
    assert g.s.houses["baratheon"].power == 2  # Dragonstone + Kingswood


def test_B_OPEN_06_power_gain_stops_at_twenty_tokens() -> None:
    """B-OPEN-06, B-COMP-04: with 19 tokens in use Stark gains only 1 of the 2 Power Game of Thrones gives."""
    spec = {**GOT_POSITION, "power": {"stark": 19, "lannister": 0, "baratheon": 0}}
    g = westeros(spec, ("last-days-of-summer", "game-of-thrones", "rains-of-autumn"))
    gained = {e["house"]: e["gained"] for e in events_of(setup_events(g), "power-gained")}
    assert gained["stark"] == 1 and g.s.houses["stark"].power == 20
    spec["power"] = {"stark": 20, "lannister": 0, "baratheon": 0}
    g = westeros(spec, ("last-days-of-summer", "game-of-thrones", "rains-of-autumn"))
    assert g.s.houses["stark"].power == 20


def test_B_WCARD_08_clash_of_kings_starts_the_bidding() -> None:
    """B-WCARD-08: Clash of Kings opens a bid for the Iron Throne track first."""
    g = westeros({}, ("last-days-of-summer", "clash-of-kings", "rains-of-autumn"))
    assert {k for _, k in kinds(g)} == {"bid"}
    assert prompt(g).info == {"purpose": "clash-of-kings", "track": "iron_throne"}


@pytest.mark.parametrize("choice", ["clash-of-kings", "game-of-thrones", "nothing"])
def test_B_WCARD_09_dark_wings_raven_holder_chooses(choice: str) -> None:
    """B-WCARD-09, B-WCARD-18: the Messenger Raven holder picks Clash of Kings, Game of Thrones or nothing."""
    g = westeros(GOT_POSITION, ("last-days-of-summer", "dark-wings-dark-words", "rains-of-autumn"))
    p = prompt(g, kind="westeros-choice")
    assert p.house == "lannister"  # King's Court position 1 in the 3-player setup
    assert p.choices == ["clash-of-kings", "game-of-thrones", "nothing"] and p.default == "nothing"
    events = g.act("lannister", choice)
    if choice == "clash-of-kings":
        # Nobody has Power, so all bid 0 at once and the Iron Throne holder orders the tie.
        assert kinds(g) == [("baratheon", "tie-order")]
    elif choice == "game-of-thrones":
        assert g.s.houses["stark"].power == 2 and events_of(events, "power-gained")
    else:
        assert in_planning(g) and g.s.houses["stark"].power == 0


def test_B_WCARD_10_wildlings_attack_card_uses_the_current_threat() -> None:
    """B-WCARD-10, B-WILD-01, B-WILD-02:
    the card starts an attack whose strength is the threat (8 after 1 icon from 6)."""
    g = westeros({"wildling_threat": 6}, ("last-days-of-summer", "game-of-thrones", "wildlings-attack"))
    attack = events_of(setup_events(g), "wildlings-attack")
    assert [a["strength"] for a in attack] == [8]
    assert {k for _, k in kinds(g)} == {"bid"}


@pytest.mark.parametrize(
    ("card", "restriction"),
    [
        ("rains-of-autumn", "march-plus-one"),  # B-WCARD-11
        ("storm-of-swords", "defense"),  # B-WCARD-12
        ("sea-of-storms", "raid"),  # B-WCARD-13
        ("feast-for-crows", "consolidate"),  # B-WCARD-14
        ("web-of-lies", "support"),  # B-WCARD-15
    ],
)
def test_B_WCARD_11_to_15_restriction_cards_forbid_orders(card: str, restriction: str) -> None:
    """B-WCARD-11, B-WCARD-12, B-WCARD-13, B-WCARD-14, B-WCARD-15:
    each card forbids its orders (special ones included) in the coming Planning phase."""
    g = westeros({}, ("last-days-of-summer", "game-of-thrones", card))
    assert g.s.restrictions == [restriction]
    assert in_planning(g)
    for p in g.prompts():
        assert not set(p.choices["tokens"]) & RESTRICTIONS[restriction]
        assert p.info["restrictions"] == [restriction]
        assert not set(p.default["orders"].values()) & RESTRICTIONS[restriction]


def test_B_WCARD_13_sea_of_storms_forbids_the_special_raid_too() -> None:
    """B-WCARD-13, known edge case "Raid/Support+1 forbidden under Sea of Storms and Web of Lies"."""
    g = westeros({}, ("last-days-of-summer", "game-of-thrones", "sea-of-storms"))
    p = prompt(g, "stark", "orders")
    area = p.choices["areas"][0]
    with pytest.raises(RuleError) as err:
        g.act("stark", {"orders": {**p.default["orders"], area: "raid*"}})
    assert err.value.code == "order-forbidden"


def test_B_WCARD_17_restrictions_last_one_planning_phase() -> None:
    """B-WCARD-17: the restriction binds this Planning phase only (cleared once orders are revealed)."""
    g = westeros({}, ("last-days-of-summer", "game-of-thrones", "storm-of-swords"))
    for p in list(g.prompts()):
        g.act(p.house, p.default)
    assert g.s.restrictions == []
    assert g.s.orders_revealed


@pytest.mark.parametrize(
    ("choice", "expected"), [("defense", ["defense"]), ("march-plus-one", ["march-plus-one"]), ("none", [])]
)
def test_B_WCARD_16_put_to_the_sword_blade_holder_chooses(choice: str, expected: list[str]) -> None:
    """B-WCARD-16, B-WCARD-18: the Valyrian Steel Blade holder picks no Defense, no March +1, or nothing."""
    g = westeros({}, ("last-days-of-summer", "game-of-thrones", "put-to-the-sword"))
    p = prompt(g, kind="westeros-choice")
    assert p.house == "stark"  # Fiefdoms position 1 in the 3-player setup
    assert p.choices == ["defense", "march-plus-one", "none"] and p.default == "none"
    answer(g, "stark", "westeros-choice", choice)
    assert g.s.restrictions == expected
    assert in_planning(g)


def test_B_WCARD_18_the_choice_must_be_one_of_the_three() -> None:
    """B-WCARD-18: only the token holder is asked, and only the card's three options are accepted."""
    g = westeros({}, ("a-throne-of-blades", "last-days-of-summer", "rains-of-autumn"))
    assert kinds(g) == [("baratheon", "westeros-choice")]
    with pytest.raises(RuleError):
        g.act("baratheon", "clash-of-kings")
    with pytest.raises(RuleError) as err:
        g.act("stark", "supply")
    assert err.value.code == "not-your-turn"
