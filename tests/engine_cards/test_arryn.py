"""House Arryn's cards (Mother of Dragons, M-ARRYN-02): the five texts in the existing timing windows."""

from __future__ import annotations

from typing import Any

from engine import Game

from .helpers import event, events_of, play, result

HOUSES = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]


def vale(arryn_order: str = "defense1", *, attacker: str = "lannister footman", **extra: Any) -> Game:
    """Lannister marches from the Mountains of the Moon on Arryn's knight in the Vale of Arryn."""
    units = {"the-mountains-of-the-moon": attacker, "the-vale-of-arryn": "arryn knight", **extra.pop("units", {})}
    orders = {"the-mountains-of-the-moon": "march0", "the-vale-of-arryn": arryn_order, **extra.pop("orders", {})}
    g = Game.from_scenario(
        {
            "players": 7,
            "options": {"ruleset": "mother-of-dragons"},
            "units": units,
            "orders": orders,
            "supply": dict.fromkeys(HOUSES, 6),
            "round": 10,
            "start": "march",
            **extra,
        }
    )
    moving = attacker.split()[1:]
    g.act("lannister", {"from": "the-mountains-of-the-moon", "moves": [{"to": "the-vale-of-arryn", "units": moving}]})
    return g


def test_lysa_arryn_a_winning_defender_with_its_defense_order_may_keep_her() -> None:
    """lysa-arryn-mod: 2 + 1 + 4 against 1 + 2: Arryn wins defending with its Defense order and keeps Lysa."""
    g = vale()
    events = play(
        g,
        {
            ("arryn", "house-card"): "lysa-arryn-mod",
            ("lannister", "house-card"): "the-hound",
            ("arryn", "lysa-keep"): "keep",
        },
    )
    assert result(events)["winner"] == "arryn"
    assert {
        "type": "hand-returned",
        "house": "arryn",
        "cards": ["lysa-arryn-mod"],
        "reason": "lysa-arryn-mod",
    } in events
    assert "lysa-arryn-mod" in g.s.houses["arryn"].hand and "lysa-arryn-mod" not in g.s.houses["arryn"].discards


def test_lysa_arryn_without_a_defense_order_goes_to_the_discard_pile() -> None:
    g = vale("consolidate")
    events = play(g, {("arryn", "house-card"): "lysa-arryn-mod", ("lannister", "house-card"): "the-hound"})
    assert result(events)["winner"] == "arryn" and not events_of(events, "hand-returned")
    assert g.s.houses["arryn"].discards == ["lysa-arryn-mod"]


def test_ser_vardis_egen_against_a_weak_card_gains_strength_and_fortifications() -> None:
    """ser-vardis-egen: against Ser Jaime (printed 2) Vardis counts 3 with two fortifications, which stop Jaime's
    sword; against Ser Gregor (printed 3) he is a plain 2."""
    weak = play(
        vale(), {("arryn", "house-card"): "ser-vardis-egen", ("lannister", "house-card"): "ser-jaime-lannister"}
    )
    assert result(weak)["strength"]["defender"]["card"] == 3
    strong = play(
        vale(attacker="lannister knight knight"),
        {("arryn", "house-card"): "ser-vardis-egen", ("lannister", "house-card"): "ser-gregor-clegane"},
    )
    assert result(strong)["strength"]["defender"]["card"] == 2
    assert event(strong, "units-destroyed")["house"] == "arryn"


def test_godric_borrell_defending_a_sea_counts_the_lands_around_it() -> None:
    """godric-borrell: Arryn defends the Bite; it holds the Fingers and the Twins next to it: 1 + 2."""
    g = Game.from_scenario(
        {
            "players": 7,
            "options": {"ruleset": "mother-of-dragons"},
            "units": {
                "the-bite": "arryn ship",
                "the-fingers": "arryn footman",
                "the-twins": "arryn footman",
                "the-narrow-sea": "stark ship ship",
            },
            "orders": {"the-bite": "defense1", "the-narrow-sea": "march0"},
            "supply": dict.fromkeys(HOUSES, 6),
            "round": 10,
            "start": "march",
        }
    )
    g.act("stark", {"from": "the-narrow-sea", "moves": [{"to": "the-bite", "units": ["ship", "ship"]}]})
    events = play(g, {("arryn", "house-card"): "godric-borrell", ("stark", "house-card"): "the-blackfish"})
    assert result(events)["strength"]["defender"]["card"] == 3


def test_anya_waynwood_the_winner_and_its_supporters_gain_three_power() -> None:
    """anya-waynwood: Stark's ship supports Arryn; Arryn wins: Arryn and Stark take 3 Power each from the pool."""
    g = vale(units={"the-narrow-sea": "stark ship"}, orders={"the-narrow-sea": "support0"})
    before = {h: g.s.houses[h].power for h in ("arryn", "stark", "lannister")}
    events = play(
        g,
        {
            ("stark", "support"): "defender",
            ("arryn", "house-card"): "anya-waynwood",
            ("lannister", "house-card"): "the-hound",
        },
    )
    assert result(events)["winner"] == "arryn"
    gained = {e["house"]: e["gained"] for e in events_of(events, "power-gained")}
    assert gained == {"arryn": 3, "stark": 3}
    assert g.s.houses["lannister"].power == before["lannister"]
    assert g.s.houses["stark"].power == before["stark"] + 3


def test_robert_arryn_removes_himself_and_the_weakest_discarded_card_from_the_game() -> None:
    """robert-arryn: defending, after the combat, Arryn removes Robert and Cersei (0), the weakest card of
    Lannister's discard pile; both are out for good."""
    g = vale(
        hands={"lannister": ["the-hound", "ser-jaime-lannister", "tyrion-lannister"]},
        discards={"lannister": ["cersei-lannister", "tywin-lannister"]},
    )
    lannister_hand = list(g.s.houses["lannister"].hand)
    events = play(
        g,
        {
            ("arryn", "house-card"): "robert-arryn",
            ("lannister", "house-card"): "the-hound",
            ("arryn", "robert-remove"): "cersei-lannister",
            ("arryn", "retreat"): "the-eyrie",
        },
    )
    assert event(events, "house-cards-removed")["cards"] == {
        "arryn": ["robert-arryn"],
        "lannister": ["cersei-lannister"],
    }
    hs = g.s.houses
    assert "robert-arryn" not in hs["arryn"].hand + hs["arryn"].discards
    assert "cersei-lannister" not in hs["lannister"].hand + hs["lannister"].discards
    assert sorted(hs["lannister"].hand + hs["lannister"].discards) == sorted(
        [c for c in lannister_hand if c != "the-hound"] + ["tywin-lannister", "the-hound"]
    )
