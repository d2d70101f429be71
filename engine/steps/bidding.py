"""Secret simultaneous bids (B-INFL-03, B-WILD-03, B-DIPLO-04) and Clash of Kings (B-INFL-01..10, B-WCARD-08).

A ``bidding`` frame collects one bid from every house of ``houses``: an integer from 0 to its available power,
replaceable until the last house has bid. Houses without power bid 0 without being asked. On the reveal every bid
goes to the Power Pool (B-INFL-06, B-WILD-07) and the bids are written into the frame below (its ``bids``), which
carries on. While a ``bidding`` frame is on top, views hide everyone's available power (B-HIDDEN-02/03).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.errors import RuleError
from engine.flow import Frame, Step, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.rulesets import ruleset
from engine.state import GameState

if TYPE_CHECKING:
    from engine.game import Game

TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}


def push_bidding(g: Game, parent: Frame, houses: list[str], **info: Any) -> None:
    g.push("bidding", parent=parent["id"], houses=list(houses), bids={}, info=info, announced=announced_power(g.s))


def announced_power(s: GameState) -> dict[str, int]:
    """Every house's available Power as the bidding round opens: what the players announce before hiding their tokens
    (B-HIDDEN-02), public while the bids that follow are hidden. A Clash of Kings is one bidding round: its three
    tracks keep the totals announced before the first."""
    clash = next((f for f in s.stack if f.get("type") == "clash" and "announced" in f), None)
    if clash is not None:
        return dict(clash["announced"])
    return {h: s.houses[h].power for h in s.players}


@register
class Bidding(Step):
    type = "bidding"

    def _bidders(self, s: GameState, f: Frame) -> list[str]:
        return [h for h in f["houses"] if s.houses[h].power > 0]

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        s = g.s
        bidders = self._bidders(s, f)
        if all(h in f["bids"] for h in bidders):
            return []
        return [
            Prompt(
                id=prompt_id(f, PromptKind.BID, house),
                house=house,
                kind=PromptKind.BID,
                choices={"min": 0, "max": s.houses[house].power},
                default=0,
                info=dict(f["info"]),
                answered=house in f["bids"],
                secret=True,
            )
            for house in bidders
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        power = g.s.houses[house].power
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise RuleError("bad-bid", "A bid is a whole number of Power tokens.")
        if not 0 <= answer <= power:
            raise RuleError("bad-bid", f"You can bid from 0 to {power} Power.", max=power, bid=answer)
        f["bids"][house] = answer
        g.emit("bid-submitted", house=house)
        g.emit("bid-recorded", house=house, bid=answer, private_to=house)

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        bids = {h: int(f["bids"].get(h, 0)) for h in f["houses"]}
        for house, bid in bids.items():
            s.houses[house].power -= bid  # to the Power Pool
        g.emit("bids-revealed", bids=bids, **f["info"])
        g.pop(f)
        parent = s.stack[-1]
        assert parent["id"] == f["parent"], "a bidding frame must sit on the frame that asked for it"
        parent["bids"] = bids


def ranked_bids(s: GameState, f: Frame) -> dict[str, int]:
    """The bids that decide a track's order: every house's but one a ruleset pins to its space (M-TARG-16)."""
    pinned = ruleset(s).pinned_on_tracks(s)
    bids: dict[str, int] = f["bids"]
    return {h: b for h, b in bids.items() if h not in pinned}


def default_track_order(s: GameState, track: str, bids: dict[str, int]) -> list[str]:
    """Highest bid first; ties keep the order those houses had on this track before the bid."""
    return sorted(bids, key=lambda h: (-bids[h], rules.position(s, track, h)))


def tie_groups(bids: dict[str, int], order: list[str]) -> list[list[str]]:
    groups: dict[int, list[str]] = {}
    for h in order:
        groups.setdefault(bids[h], []).append(h)
    return [hs for _, hs in sorted(groups.items(), key=lambda kv: -kv[0]) if len(hs) > 1]


@register
class Clash(Step):
    """Clash of Kings: Iron Throne, then Fiefdoms, then King's Court; the Iron Throne holder orders ties.

    Stages per track: ``bid`` (push a bidding frame) -> ``order`` (ties?) -> ``ties`` (prompt) -> ``apply``.
    The Iron Throne track is written only after its own bid is settled, so its old holder orders its ties and the
    new holder those of the two later tracks (B-INFL-08).
    """

    type = "clash"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if f["stage"] != "ties":
            return []
        s = g.s
        track = data.TRACKS[f["index"]]
        bids = ranked_bids(s, f)
        chooser = rules.holder(s, "iron_throne")
        default = default_track_order(s, track, bids)
        return [
            Prompt(
                id=prompt_id(f, f"tie-order-{track}", chooser),
                house=chooser,
                kind=PromptKind.TIE_ORDER,
                choices={"track": track, "bids": dict(bids), "tied": tie_groups(bids, default)},
                default=default,
                info={"track": track},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        bids = ranked_bids(g.s, f)
        if not isinstance(answer, list) or sorted(answer) != sorted(bids) or len(set(answer)) != len(answer):
            raise RuleError("bad-order", "List every house once, position 1 first.", houses=sorted(bids))
        for a, b in pairwise(answer):
            if bids[a] < bids[b]:
                raise RuleError("order-ignores-bids", f"{b} bid more than {a} and must stand higher.", low=a, high=b)
        f["order"] = list(answer)
        f["tie_broken_by"] = house
        f["stage"] = "apply"

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        if f["stage"] == "start":
            g.emit("clash-of-kings")
            f["stage"] = "bid"
        if f["index"] >= len(data.TRACKS):
            g.pop(f)
            return
        track = data.TRACKS[f["index"]]
        if f["stage"] == "bid":
            f["stage"] = "order"
            push_bidding(g, f, rules.turn_order(s), purpose="clash-of-kings", track=track)
            return
        if f["stage"] == "order":
            if ruleset(s).clash_bids_revealed(g, f):
                return  # a ruleset's step changes the bids first (Targaryen's hand-out, M-TARG-18)
            ranked = ranked_bids(s, f)
            order = default_track_order(s, track, ranked)
            if tie_groups(ranked, order):
                f["stage"] = "ties"
                return
            f["order"] = order
            f["stage"] = "apply"
        # apply: a house pinned to its space (Targaryen on 8, M-TARG-16) is not ranked; set_track puts it back
        order = rules.set_track(s, track, [*f["order"], *ruleset(s).pinned_on_tracks(s)])
        handout = {"handout": dict(f["handout"])} if f.get("handout") is not None else {}
        g.emit(
            "track-set",
            track=track,
            order=list(order),
            bids=dict(f["bids"]),
            tie_broken_by=f.get("tie_broken_by"),
            holder=order[0],
            **handout,
        )
        f["index"] += 1
        f["stage"] = "bid"
        for key in ("bids", "order", "tie_broken_by", "handout"):
            f.pop(key, None)
