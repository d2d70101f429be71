"""House Targaryen's own rules (Mother of Dragons, 003:355-438), added through the ruleset's hooks.

- Dragons (M-TARG-10..15): land units whose strength is the number of dragon strength tokens on the Essos board's
  track. A token lies on each of round spaces 2, 4, 6, 8 and 10 and moves onto the track when the round marker
  reaches it (``dragons-grow``, run as a round starts). A dragon with a March order may also fly to any land area
  (its unit type ``flies``: ``rules.move_destinations``); it never flies when it retreats, except that a beaten
  attacker returns where it marched from, which the combat already does for every attacker.
- Pentos (M-TARG-08, -09): the printed loyalty token is one Victory point while Targaryen controls Pentos; taking it
  back restores the Pentos garrison (``pentos``, run after every step outside a battle).
- The Clash of Kings hand-out (M-TARG-18, -21): once the bids are revealed, Targaryen must hand every Power token it
  bid to other houses, each raising that house's bid by one, before ties are settled (the ``bid-handout`` step). The
  tokens stay in the Power Pool, where every bid goes (M-TARG-21 decided: they raise bids, they are not gifts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.errors import RuleError
from engine.flow import Frame, Step, frame_rule, phase_rule, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.rulesets import ruleset
from engine.state import GameState

if TYPE_CHECKING:
    from engine.game import Game

TARGARYEN = "targaryen"
PENTOS = "pentos"
DRAGON = "dragon"


def initial(dragon_rounds: list[int]) -> dict[str, Any]:
    """What a game with Targaryen keeps beside the board (M-SETUP-10, M-TARG-08): every strength token still on the
    round track, dragons of strength 0, no loyalty point collected yet, Pentos held."""
    return {"dragon_rounds": sorted(dragon_rounds), "dragon_strength": 0, "loyalty": 0, "holds_pentos": True}


def dragon_strength(s: GameState) -> int:
    """M-TARG-12: every dragon's strength, the tokens on the dragon track."""
    return int(s.targaryen.get("dragon_strength", 0))


@phase_rule("dragons-grow")
def dragons_grow(g: Game) -> None:
    """M-TARG-13: the round marker has reached a space holding a strength token: it moves onto the dragon track."""
    t = g.s.targaryen
    if g.s.round not in t.get("dragon_rounds", []):
        return
    t["dragon_rounds"].remove(g.s.round)
    t["dragon_strength"] += 1
    g.emit("dragon-strength", house=TARGARYEN, strength=t["dragon_strength"], round=g.s.round)


@phase_rule("pentos")
def pentos(g: Game) -> None:
    """M-TARG-09: losing Pentos costs its Victory point; taking it back regains the point and its garrison."""
    s = g.s
    t = s.targaryen
    held = rules.controller(s, PENTOS) == TARGARYEN
    if not t or held == t["holds_pentos"]:
        return
    t["holds_pentos"] = held
    if not held:
        g.emit("pentos-lost", house=TARGARYEN, area=PENTOS, by=rules.controller(s, PENTOS))
        return
    strength = ruleset(s).houses()[TARGARYEN].garrison
    s.garrisons[PENTOS] = strength
    g.emit("pentos-regained", house=TARGARYEN, area=PENTOS, garrison=strength)


def handout_houses(s: GameState, bids: dict[str, int]) -> list[str]:
    """Who may receive Targaryen's tokens: every other house in the bid, players and vassals alike."""
    return [h for h in rules.turn_order(s) if h in bids and h != TARGARYEN]


@frame_rule("bid-handout")
def push_handout(g: Game, parent: Frame) -> bool:
    """M-TARG-18: a Clash of Kings bid has been revealed; if Targaryen bid anything, it hands it out first."""
    bids: dict[str, int] = parent["bids"]
    if bids.get(TARGARYEN, 0) <= 0 or parent.get("handout") is not None:
        return False
    g.push("bid-handout", parent=parent["id"], track=data.TRACKS[parent["index"]], amount=bids[TARGARYEN])
    return True


def default_handout(s: GameState, bids: dict[str, int], amount: int, track: str | None) -> dict[str, int]:
    """Every token to the house lowest on this track: a legal answer that changes the least at the top."""
    receivers = handout_houses(s, bids)
    last = max(receivers, key=lambda h: rules.position(s, track, h)) if track else receivers[-1]
    return {last: amount}


@register
class BidHandout(Step):
    """M-TARG-18: Targaryen hands out the Power it bid; each token raises another house's bid by one. The answer is
    ``{house: tokens}`` over the other houses in the bid, adding up to Targaryen's bid exactly (all of it must go)."""

    type = "bid-handout"

    def _parent(self, g: Game, f: Frame) -> Frame:
        parent: Frame = next(p for p in g.s.stack if p["id"] == f["parent"])
        return parent

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "handout" in f:
            return []
        s = g.s
        bids: dict[str, int] = self._parent(g, f)["bids"]
        return [
            Prompt(
                id=prompt_id(f, PromptKind.BID_HANDOUT, TARGARYEN),
                house=TARGARYEN,
                kind=PromptKind.BID_HANDOUT,
                choices={"amount": f["amount"], "houses": handout_houses(s, bids), "bids": dict(bids)},
                default=default_handout(s, bids, f["amount"], f.get("track")),
                info={"track": f.get("track")},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        bids: dict[str, int] = self._parent(g, f)["bids"]
        receivers = handout_houses(g.s, bids)
        if not isinstance(answer, dict) or not all(isinstance(h, str) for h in answer):
            raise RuleError("bad-handout", "Hand out your bid as {house: tokens}.", houses=receivers)
        for receiver, tokens in answer.items():
            if receiver not in receivers:
                raise RuleError("bad-handout-house", f"{receiver} cannot receive your tokens.", house=receiver)
            if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0:
                raise RuleError("bad-handout", "Each house receives a whole number of tokens.", house=receiver)
        given = sum(answer.values())
        if given != f["amount"]:
            raise RuleError(
                "handout-incomplete", f"Hand out all {f['amount']} tokens you bid.", amount=f["amount"], given=given
            )
        f["handout"] = {h: int(n) for h, n in answer.items() if n}

    def advance(self, g: Game, f: Frame) -> None:
        parent = self._parent(g, f)
        handout: dict[str, int] = f["handout"]
        bids: dict[str, int] = parent["bids"]
        for receiver, tokens in handout.items():
            bids[receiver] += tokens
        parent["handout"] = dict(handout)
        g.emit("bid-handout", house=TARGARYEN, handout=dict(handout), bids=dict(bids), track=f.get("track"))
        g.pop(f)
