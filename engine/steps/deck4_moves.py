"""The two deck IV cards that move loyalty tokens (Mother of Dragons, M-DECK4-02): Scattering Dissent and Word
Spreads Quickly.

After the banner's tokens, each player in turn order (Word Spreads Quickly) or in reverse turn order (Scattering
Dissent) moves one loyalty token from any area into an adjacent area, if he can; right after each move Targaryen may
discard Power (1 for Scattering Dissent, 2 for Word Spreads Quickly) to undo it. The ``deck4-moves`` frame walks the
players and pushes one ``loyalty-move`` frame per move and, after it, a ``loyalty-undo`` frame when Targaryen may
undo it. Decided where the card's text is open:

- Only players move: vassals take no part, Targaryen does (it is a player, last on the Iron Throne track: the first
  to move in reverse order, the last in turn order).
- "An adjacent area" is an adjacent land of the Westeros board that is in play (loyalty tokens lie on Westeros lands,
  M-TARG-03): never a sea or a port, never an Essos land, never an impassable area. A token on an island (Pyke, the
  Arbor, Dragonstone) cannot move.
- "If he can" is an obligation: a player who can move a token must move one (there is no passing). Every player may
  move every token, so when one player cannot move none can, now or later in the card: the card ends there
  (``deck4-nothing``).
- Targaryen is never asked to undo its own move, and is asked only while it has the Power to pay.
- A token moved into an area Targaryen controls is collected at once (M-TARG-05: the ruleset's settle hook runs
  after the move, before anything else is asked). That move cannot be undone: the token is off the board and its
  point is Targaryen's for good (M-TARG-07), so no undo is offered for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rules
from engine.errors import RuleError
from engine.flow import Frame, Step, expect_choice, expect_dict, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.state import GameState
from engine.steps.loyalty import TARGARYEN, deck4_text, spend, tokens_on_board, westeros_lands

if TYPE_CHECKING:
    from engine.game import Game

SCATTERING_DISSENT = "scattering-dissent"
WORD_SPREADS_QUICKLY = "word-spreads-quickly"
# card -> (the players move in reverse turn order, Targaryen's price in Power to undo a move)
CARDS: dict[str, tuple[bool, int]] = {SCATTERING_DISSENT: (True, 1), WORD_SPREADS_QUICKLY: (False, 2)}
UNDO = "undo"
KEEP = "keep"


def legal_moves(s: GameState) -> dict[str, list[str]]:
    """Every move a player may make: area holding loyalty tokens -> the adjacent lands of Westeros in play it may go
    to, both in board order; areas whose tokens cannot move are left out."""
    lands = westeros_lands(s)
    neighbours = rules.board(s).neighbours
    tokens = tokens_on_board(s)
    open_lands = [a for a in lands if not (a in s.neutral and s.neutral[a] is None)]  # impassable: out of play
    moves: dict[str, list[str]] = {}
    for area in lands:
        if tokens.get(area, 0) <= 0:
            continue
        to = [a for a in open_lands if a in neighbours[area]]
        if to:
            moves[area] = to
    return moves


def default_move(s: GameState, house: str, moves: dict[str, list[str]]) -> dict[str, str]:
    """Targaryen's default moves a token into an area it controls (collected at once) when it can; any other house's
    keeps tokens out of Targaryen's areas when it can; otherwise the first move, in board order."""
    pairs = [(a, b) for a, to in moves.items() for b in to]
    if house == TARGARYEN:
        preferred = [p for p in pairs if rules.controller(s, p[1]) == TARGARYEN]
    else:
        preferred = [p for p in pairs if rules.controller(s, p[1]) != TARGARYEN]
    origin, to = (preferred or pairs)[0]
    return {"from": origin, "to": to}


def move_token(s: GameState, origin: str, to: str) -> None:
    tokens = tokens_on_board(s)
    tokens[origin] -= 1
    if tokens[origin] <= 0:
        del tokens[origin]
    tokens[to] = tokens.get(to, 0) + 1


def _start(g: Game, card: str) -> None:
    reverse, cost = CARDS[card]
    houses = rules.player_houses(g.s)  # turn order; vassals take no part
    g.push("deck4-moves", card=card, cost=cost, houses=list(reversed(houses)) if reverse else houses)


for _card in CARDS:
    deck4_text(_card)(_start)


@register
class Deck4Moves(Step):
    """Scattering Dissent, Word Spreads Quickly: one move per player in the card's order, each followed by
    Targaryen's chance to undo it. Asks nothing itself: it pushes a ``loyalty-move`` or ``loyalty-undo`` frame."""

    type = "deck4-moves"

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        last = f.pop("last", None)
        if last is not None:  # the move was made, and the tokens Targaryen controls collected since
            if (
                last["house"] != TARGARYEN
                and tokens_on_board(s).get(last["to"], 0) > 0
                and s.houses[TARGARYEN].power >= f["cost"]
            ):
                g.push("loyalty-undo", card=f["card"], cost=f["cost"], **last)
            return
        if not f["houses"]:
            g.pop(f)
            return
        house = f["houses"].pop(0)
        if not legal_moves(s):  # nobody can move any token, now or later in this card
            g.emit("deck4-nothing", card=f["card"], house=house)
            g.pop(f)
            return
        g.push("loyalty-move", card=f["card"], cost=f["cost"], house=house, parent=f["id"])


@register
class LoyaltyMove(Step):
    """One player's move of one loyalty token. Choices ``{from_area: [to_areas]}`` (areas holding a token that can
    move, each with the adjacent lands of Westeros it may go to); answer ``{"from": area, "to": area}`` among them.
    No passing: a player asked can move, and must."""

    type = "loyalty-move"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "move" in f:
            return []
        s = g.s
        moves = legal_moves(s)
        return [
            Prompt(
                id=prompt_id(f, PromptKind.LOYALTY_MOVE, f["house"]),
                house=f["house"],
                kind=PromptKind.LOYALTY_MOVE,
                choices=moves,
                default=default_move(s, f["house"], moves),
                info={"card": f["card"], "tokens": dict(tokens_on_board(s)), "undo_cost": f["cost"]},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        answer = expect_dict(answer, "from", "to")
        origin, to = answer["from"], answer["to"]
        moves = legal_moves(g.s)
        if not isinstance(origin, str) or origin not in moves:
            raise RuleError(
                "loyalty-no-token", "Move a loyalty token from an area holding one that can move.", areas=list(moves)
            )
        if not isinstance(to, str) or to not in moves[origin]:
            raise RuleError(
                "loyalty-not-adjacent",
                "A loyalty token moves into an adjacent land of Westeros.",
                area=origin,
                to=str(to),
                areas=moves[origin],
            )
        f["move"] = {"from": origin, "to": to}

    def advance(self, g: Game, f: Frame) -> None:
        origin, to = f["move"]["from"], f["move"]["to"]
        move_token(g.s, origin, to)
        g.emit("loyalty-moved", house=f["house"], card=f["card"], origin=origin, to=to)
        parent = next(p for p in g.s.stack if p["id"] == f["parent"])
        parent["last"] = {"house": f["house"], "origin": origin, "to": to}
        g.pop(f)


@register
class LoyaltyUndo(Step):
    """Targaryen's chance to undo another player's move right after it, for the card's price in Power. Choices
    ``["undo", "keep"]``; answer one of them (default ``"keep"``: nothing is paid)."""

    type = "loyalty-undo"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "undo" in f:
            return []
        return [
            Prompt(
                id=prompt_id(f, PromptKind.LOYALTY_UNDO, TARGARYEN),
                house=TARGARYEN,
                kind=PromptKind.LOYALTY_UNDO,
                choices=[UNDO, KEEP],
                default=KEEP,
                info={
                    "card": f["card"],
                    "cost": f["cost"],
                    "mover": f["house"],
                    "origin": f["origin"],
                    "to": f["to"],
                    "tokens": dict(tokens_on_board(g.s)),
                },
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        undo = expect_choice(answer, [UNDO, KEEP], "answer") == UNDO
        power = g.s.houses[TARGARYEN].power  # it may have given Power away since it was asked (M-GIFT-01)
        if undo and power < f["cost"]:
            raise RuleError("deck4-power", f"This costs {f['cost']} Power; you have {power}.", cost=f["cost"])
        f["undo"] = undo

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
        if not f["undo"]:
            g.emit("deck4-declined", card=f["card"], house=TARGARYEN)
            return
        spend(g, TARGARYEN, f["cost"], f["card"])
        move_token(g.s, f["to"], f["origin"])
        g.emit("loyalty-move-undone", house=TARGARYEN, card=f["card"], origin=f["origin"], to=f["to"])
