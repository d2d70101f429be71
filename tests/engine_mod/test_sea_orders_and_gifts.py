"""Mother of Dragons: sea orders (M-SEAORD-01/02/05) and gifts of Power (M-GIFT-01/02)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, new_game, rules

MOD = {"ruleset": "mother-of-dragons"}


def planning(units: dict[str, str], **extra: Any) -> Game:
    return Game.from_scenario({"players": 7, "options": MOD, "units": units, "round": 10, **extra})


def orders(g: Game, house: str, placed: dict[str, str]) -> list[dict[str, Any]]:
    return g.act(house, {"orders": placed})


def test_M_SEAORD_02_sea_orders_on_land_are_removed_after_the_raven() -> None:
    """M-SEAORD-02: a sea order may lie on land as a bluff; once the Raven is used or declined, before any order
    resolves, it is removed without effect. The same order at sea stays."""
    g = planning(
        {"the-vale-of-arryn": "arryn knight", "port-of-the-eyrie": "arryn ship", "lannisport": "lannister footman"}
    )
    orders(g, "arryn", {"the-vale-of-arryn": "sea-support", "port-of-the-eyrie": "sea-march-minus-1"})
    orders(g, "lannister", {"lannisport": "defense1"})
    assert g.s.orders["the-vale-of-arryn"].token == "sea-support"  # revealed like any order
    raven = g.prompt_for("lannister")
    assert raven is not None and raven.kind == "raven"
    events = g.act("lannister", {"action": "none"})
    removed = [e for e in events if e["type"] == "order-removed"]
    assert removed == [
        {
            "type": "order-removed",
            "area": "the-vale-of-arryn",
            "house": "arryn",
            "token": "sea-support",
            "reason": "sea-order-on-land",
        }
    ]
    assert "the-vale-of-arryn" not in g.s.orders
    assert g.s.orders["port-of-the-eyrie"].token == "sea-march-minus-1"


def test_M_SEAORD_01_a_sea_order_at_sea_works_like_its_base_order() -> None:
    """M-SEAORD-01: Sea March -1 moves ships like a March -1 (and a ship's support at sea like a Support +0)."""
    g = planning({"the-bite": "arryn ship", "the-narrow-sea": "arryn ship", "lannisport": "lannister footman"})
    orders(g, "arryn", {"the-bite": "sea-march-minus-1", "the-narrow-sea": "sea-support"})
    orders(g, "lannister", {"lannisport": "defense1"})
    g.act("lannister", {"action": "none"})
    march = g.prompt_for("arryn")
    assert march is not None and march.kind == "march" and list(march.choices) == ["the-bite"]
    g.act("arryn", {"from": "the-bite", "moves": [{"to": "the-narrow-sea", "units": ["ship"]}]})
    assert [u.type for u in g.s.units["the-narrow-sea"]] == ["ship", "ship"] and "the-bite" not in g.s.orders


def test_M_SEAORD_05_sea_orders_are_no_special_orders_and_follow_restrictions() -> None:
    """M-SEAORD-05: the set is Sea March -1, Sea Support and the Iron Bank order (not offered until the Iron Bank
    exists); none is special, so a house with no star may use them; a Westeros card that forbids Support forbids
    Sea Support too."""
    g = planning({"the-bite": "greyjoy ship", "lannisport": "lannister footman"})
    p = g.prompt_for("greyjoy")
    assert p is not None and p.choices["stars"] == 0
    assert {"sea-march-minus-1", "sea-support"} <= set(p.choices["tokens"]) and "sea-iron-bank" not in p.choices[
        "tokens"
    ]
    orders(g, "greyjoy", {"the-bite": "sea-support"})  # accepted with no star
    restricted = planning({"the-bite": "greyjoy ship"}, restrictions=["support"])
    tokens = restricted.prompt_for("greyjoy").choices["tokens"]  # type: ignore[union-attr]
    assert "sea-support" not in tokens and "support0" not in tokens and "sea-march-minus-1" in tokens


def test_M_GIFT_01_a_house_gives_power_at_any_moment() -> None:
    """M-GIFT-01: the giver returns tokens to the pool, the receiver takes as many of its own; a gift is no answer to
    a prompt and may come while others are deciding."""
    g = new_game(7, seed=3, options=MOD)
    before = {h: (g.s.houses[h].power, rules.power_in_pool(g.s, h)) for h in ("arryn", "stark")}
    events = g.gift("arryn", "stark", 3)
    assert events == [{"type": "power-given", "house": "arryn", "receiver": "stark", "amount": 3}]
    assert (g.s.houses["arryn"].power, rules.power_in_pool(g.s, "arryn")) == (
        before["arryn"][0] - 3,
        before["arryn"][1] + 3,
    )
    assert (g.s.houses["stark"].power, rules.power_in_pool(g.s, "stark")) == (
        before["stark"][0] + 3,
        before["stark"][1] - 3,
    )
    assert g.view(None)["power"]["stark"] == 10


@pytest.mark.parametrize(
    ("giver", "receiver", "amount", "code"),
    [
        ("arryn", "arryn", 1, "gift-to-self"),
        ("arryn", "stark", 0, "bad-gift"),
        ("arryn", "stark", True, "bad-gift"),
        ("arryn", "stark", 8, "gift-too-large"),
        ("arryn", "targaryen", 1, "unknown-house"),
    ],
)
def test_M_GIFT_01_a_gift_the_rules_forbid_changes_nothing(giver: str, receiver: str, amount: Any, code: str) -> None:
    g = new_game(7, seed=3, options=MOD)
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.gift(giver, receiver, amount)
    assert info.value.code == code and g.to_json() == before


def test_M_GIFT_01_gifts_belong_to_the_expansion() -> None:
    g = new_game(6, seed=3)
    with pytest.raises(RuleError) as info:
        g.gift("stark", "lannister", 1)
    assert info.value.code == "gifts-not-allowed"


def battle() -> Game:
    """Lannister attacks Arryn's knight in the Vale; a Stark ship in the Narrow Sea could support."""
    g = Game.from_scenario(
        {
            "players": 7,
            "options": MOD,
            "units": {
                "the-mountains-of-the-moon": "lannister knight knight",
                "the-vale-of-arryn": "arryn knight",
                "the-narrow-sea": "stark ship",
            },
            "orders": {
                "the-mountains-of-the-moon": "march0",
                "the-vale-of-arryn": "defense1",
                "the-narrow-sea": "support0",
            },
            "round": 10,
            "start": "march",
        }
    )
    g.act(
        "lannister",
        {"from": "the-mountains-of-the-moon", "moves": [{"to": "the-vale-of-arryn", "units": ["knight", "knight"]}]},
    )
    return g


def test_M_GIFT_02_in_a_combat_only_while_support_is_called() -> None:
    """M-GIFT-02: during the call for support a gift is allowed; once the cards are being chosen it is refused."""
    g = battle()
    assert g.prompt_for("stark").kind == "support"  # type: ignore[union-attr]
    g.gift("arryn", "stark", 1)
    g.act("stark", "defender")
    g.gift("stark", "arryn", 1)  # the offer may still be refused: support is still being called
    g.act("arryn", "accept")
    assert g.prompt_for("arryn").kind == "house-card"  # type: ignore[union-attr]
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.gift("arryn", "stark", 1)
    assert info.value.code == "gift-in-combat" and g.to_json() == before


def test_M_GIFT_01_a_gift_never_leaves_a_recorded_bid_above_the_givers_power() -> None:
    """A bid already recorded stays payable: the giver may give only what its bid leaves."""
    g = Game.from_scenario({"players": 7, "options": MOD, "round": 2, "start": {"clash": "iron_throne"}})
    g.act("arryn", 5)
    with pytest.raises(RuleError) as info:
        g.gift("arryn", "stark", 3)
    assert info.value.code == "gift-below-bid"
    g.gift("arryn", "stark", 2)
    assert g.s.houses["arryn"].power == 5


def test_M_GIFT_01_a_house_that_gives_all_its_power_bids_nothing_and_the_bid_goes_on() -> None:
    """A house left without Power has nothing to bid: when it was the last one owing a bid, its gift completes the
    bid, which is revealed at once."""
    g = Game.from_scenario({"players": 7, "options": MOD, "round": 2, "start": {"clash": "iron_throne"}})
    for house in g.s.players:
        if house != "arryn":
            g.act(house, 1)
    assert g.awaiting() == ["arryn"]
    events = g.gift("arryn", "stark", 7)
    assert events[0] == {"type": "power-given", "house": "arryn", "receiver": "stark", "amount": 7}
    revealed = next(e for e in events if e["type"] == "bids-revealed")
    assert revealed["bids"]["arryn"] == 0 and revealed["track"] == "iron_throne"
