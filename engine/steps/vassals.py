"""Vassals (Mother of Dragons): who commands them each round, and the orders their lieges give them.

``vassal-claim`` opens every Planning phase of a game with vassals (M-VASSAL-02..08). The vassal order sets go to the
players from the top of the Iron Throne track, one set each (the leader takes a second with three players,
M-SETUP-16); in turn order each holder picks a vassal or passes the set down the track; the last player cannot pass
and takes every vassal left. The new commanders take effect together when the step ends, so a house's commander never
changes in the middle of a phase.

Frame: ``{"type": "vassal-claim", "sets": {player: n}, "claims": {vassal: player}}``, pushed by ``start_claim``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rules
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, phase_rule, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.state import GameState

if TYPE_CHECKING:
    from engine.game import Game

PASS = "pass"


def deal_sets(players: list[str], vassals: int) -> dict[str, int]:
    """One set per vassal, dealt from the top of the Iron Throne track down, starting again at the top when the
    players run out (three players, four vassals: the leader holds two, M-SETUP-15, -16)."""
    sets = dict.fromkeys(players, 0)
    for i in range(vassals):
        sets[players[i % len(players)]] += 1
    return sets


def unclaimed(s: GameState, f: Frame) -> list[str]:
    return [h for h in rules.turn_order(s) if h in s.vassals and h not in f["claims"]]


def claimant(s: GameState, f: Frame) -> str | None:
    """The highest player on the Iron Throne track still holding a set, unless that is the last player, who
    takes what is left without being asked (M-VASSAL-06)."""
    players = rules.player_houses(s)
    holder = next((p for p in players if f["sets"].get(p, 0) > 0), None)
    return None if holder is None or holder == players[-1] else holder


def make_vassal(g: Game, house: str) -> None:
    """M-LEAVE-01: a player's house becomes a vassal: its Power goes back to the pool, its house cards leave the
    game (a vassal draws from the vassal deck), and its seat is empty. The vassals it commanded have no liege until
    the claim, like the house itself (a vassal never commands another). Decided: its loans go face down under the
    Iron Bank's deck (a vassal holds none and pays no interest)."""
    s = g.s
    loans = s.bank.get("loans", {}).pop(house, []) if s.bank else []
    if loans:
        s.bank["deck"].extend(loans)
        g.emit("loans-returned", house=house, loans=list(loans))
    hs = s.houses[house]
    hs.power = 0
    hs.hand = []
    hs.discards = []
    hs.seat = None
    hs.autopilot = False
    for vassal, liege in s.vassals.items():
        if liege == house:
            s.vassals[vassal] = None
    s.vassals[house] = None
    g.emit("house-vassalized", house=house)


@phase_rule("vassalize-leavers")
def vassalize_leavers(g: Game) -> None:
    """M-LEAVE-01 (003:442): a player who leaves between rounds turns his house into a vassal, so the houses of the
    players who left become vassals as a round starts, before its Westeros phase. Each is a vassal in everything from
    then on; it has no liege until that round's claim, and what it decides until then is its default (``Game.run``)."""
    s = g.s
    for house in list(s.leaving):
        if house not in s.vassals and len(rules.player_houses(s)) > 1:
            make_vassal(g, house)
    s.leaving = []


@phase_rule("start-claim")
def start_claim(g: Game) -> None:
    """Open a Planning phase's claim: one order set per vassal is dealt to the players."""
    s = g.s
    if not s.vassals:
        return
    sets = deal_sets(rules.player_houses(s), len(s.vassals))
    g.push("vassal-claim", sets=sets, claims={})
    g.emit("vassal-claim-started", sets={h: n for h, n in sets.items() if n})


def claim_default(s: GameState, house: str, free: list[str]) -> str:
    """The careful default (issue U): keep a vassal, never hand the set to another house unasked. The one this house
    commanded last round if it is still free, else the first free one (M-VASSAL-02)."""
    return next((v for v in free if s.vassals.get(v) == house), free[0] if free else PASS)


@register
class VassalClaim(Step):
    type = "vassal-claim"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        s = g.s
        house = claimant(s, f)
        if house is None:
            return []
        free = unclaimed(s, f)
        return [
            Prompt(
                id=prompt_id(f, f"vassal-claim{len(f['claims'])}-{f['sets'][house]}", house),
                house=house,
                kind=PromptKind.VASSAL_CLAIM,
                choices=[*free, PASS],
                default=claim_default(s, house, free),
                info={"sets": f["sets"][house], "claims": dict(f["claims"]), "next": self._next_down(s, house)},
            )
        ]

    @staticmethod
    def _next_down(s: GameState, house: str) -> str:
        players = rules.player_houses(s)
        return players[players.index(house) + 1]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        s = g.s
        if claimant(s, f) != house:
            raise RuleError("not-your-turn", f"Nothing is asked of {house} now.", house=house)
        choice = expect_choice(answer, [*unclaimed(s, f), PASS], "vassal")
        f["sets"][house] -= 1
        if choice == PASS:
            receiver = self._next_down(s, house)
            f["sets"][receiver] += 1
            g.emit("vassal-passed", house=house, receiver=receiver)
        else:
            f["claims"][choice] = house
            g.emit("vassal-claimed", house=house, vassal=choice)

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        last = rules.player_houses(s)[-1]
        for vassal in unclaimed(s, f):
            f["claims"][vassal] = last
            g.emit("vassal-claimed", house=last, vassal=vassal)
        s.vassals = {v: f["claims"][v] for v in rules.turn_order(s) if v in s.vassals}
        g.emit("vassals-commanded", commanders=dict(s.vassals))
        g.pop(f)
