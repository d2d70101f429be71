"""Gifts of Power (Mother of Dragons, M-GIFT-01/02): a house gives some of its available Power to another.

A gift is not an answer to a prompt: like a seat change it may come at any moment, so it is checked against the
whole game as it stands. The giver's tokens go back to the pool and the receiver takes as many of its own.
"""

from __future__ import annotations

from typing import Any

from engine import rules
from engine.errors import RuleError
from engine.rulesets import ruleset
from engine.state import GameState

GIFT_IN_COMBAT_STAGES = ("support", "refusal")  # the call for support (M-GIFT-02)


def check_gift(s: GameState, giver: str, receiver: str, amount: Any) -> int:
    """The amount, if the rules allow this gift now; otherwise a RuleError saying why."""
    if not ruleset(s).allows_gifts:
        raise RuleError("gifts-not-allowed", "Power can be given only in Mother of Dragons games.")
    if s.phase == "ended":
        raise RuleError("game-over", "The game has ended.")
    for house in (giver, receiver):
        if house not in s.players:
            raise RuleError("unknown-house", f"{house} does not play in this game.", house=house)
        if house in s.vassals:
            raise RuleError("gift-vassal", f"{house} is a vassal and can neither give nor take Power.", house=house)
    if giver == receiver:
        raise RuleError("gift-to-self", "A house cannot give Power to itself.", house=giver)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise RuleError("bad-gift", "A gift is a whole number of Power tokens, at least 1.", amount=str(amount))
    have = s.houses[giver].power
    if amount > have:
        raise RuleError("gift-too-large", f"{giver} has only {have} available Power.", house=giver, power=have)
    room = rules.power_in_pool(s, receiver)
    if amount > room:
        if rules.bid_open(s):  # the receiver's pool would give its hidden Power away (B-HIDDEN-02/03)
            raise RuleError("gift-pool-empty", f"{receiver}'s pool cannot take that many tokens now.", house=receiver)
        raise RuleError(
            "gift-pool-empty",
            f"Only {room} of {receiver}'s Power tokens are left in the pool.",
            house=receiver,
            pool=room,
        )
    for frame in s.stack:
        if frame["type"] == "combat" and frame["stage"] not in GIFT_IN_COMBAT_STAGES:
            raise RuleError(
                "gift-in-combat",
                "During a combat, Power can be given only while support is called.",
                area=frame["area"],
            )
        if frame["type"] == "bidding" and frame["bids"].get(giver, 0) > have - amount:
            raise RuleError(
                "gift-below-bid",
                f"{giver}'s bid would be more than the Power it keeps.",
                house=giver,
                keeps=have - amount,
            )
    return amount


def give(s: GameState, giver: str, receiver: str, amount: int) -> None:
    s.houses[giver].power -= amount
    s.houses[receiver].power += amount
