"""Targaryen's loyalty tokens and Westeros deck IV (Mother of Dragons, 003:369-383).

- Loyalty tokens (M-TARG-02..07): twenty of them; those on the board lie in ``state.targaryen["loyalty_tokens"]``
  (area -> count), the rest are Targaryen's reserve. They affect nobody, coexist with everything and never decide
  control. Whenever, outside a battle, Targaryen controls an area holding tokens it collects them (``collect``, run
  by the ruleset's settle hook after every step): they go back to the reserve and each is one Victory point for good
  (``state.targaryen["loyalty"]``); seven points win at once.
  Decided where the rulebook is silent: a token a card would place while the reserve is empty is not placed (the
  box holds twenty); a token placed in an area Targaryen already controls is collected at once (the rule says
  "whenever").
- Deck IV (M-DECK4-01..04, M-SETUP-09): with Targaryen a fourth Westeros deck is drawn with decks I-III and resolved
  after them (``state.westeros_decks[3]``); its card puts one loyalty token in each area of its banner
  (``deck4-card``), then its text acts: each text registers itself here (``deck4_text``) and asks through its own
  step, most through ``loyalty-areas`` (pay, then choose where tokens go).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.errors import RuleError
from engine.flow import Ask, Frame, Question, Step, phase_rule, register
from engine.prompts import PromptKind
from engine.state import GameState
from engine.steps.westeros import westeros_effect

if TYPE_CHECKING:
    from engine.game import Game

TARGARYEN = "targaryen"
DECK_IV = 4

# Each deck IV card's text, by card id: called once its banner's tokens are placed; it may push a step of its own.
DECK4_TEXTS: dict[str, Callable[[Game, str], None]] = {}


def deck4_text(card: str) -> Callable[[Callable[[Game, str], None]], Callable[[Game, str], None]]:
    def add(text: Callable[[Game, str], None]) -> Callable[[Game, str], None]:
        if card in DECK4_TEXTS:
            raise ValueError(f"deck IV text {card!r} registered twice")
        DECK4_TEXTS[card] = text
        return text

    return add


def deck4_card(card: str) -> dict[str, Any]:
    found: dict[str, Any] = data.westeros_deck4()[f"{DECK_IV}:{card}"]
    return found


def total_tokens() -> int:
    count: int = data.read("mother-of-dragons/setup.json")["loyalty_tokens"]
    return count


def tokens_on_board(s: GameState) -> dict[str, int]:
    """The loyalty tokens on the board (area -> count), the state's own dict: the setup of every game with Targaryen
    puts it there, so reading it never changes the state."""
    tokens: dict[str, int] = s.targaryen["loyalty_tokens"]
    return tokens


def reserve(s: GameState) -> int:
    """Loyalty tokens not on the board (collected ones come back here, M-TARG-05)."""
    return total_tokens() - sum(tokens_on_board(s).values())


def place(g: Game, area: str, card: str, by: str = TARGARYEN) -> bool:
    """One loyalty token from the reserve into ``area`` (M-DECK4-02); none is left: nothing is placed."""
    if reserve(g.s) <= 0:
        g.emit("loyalty-reserve-empty", area=area, card=card)
        return False
    tokens = tokens_on_board(g.s)
    tokens[area] = tokens.get(area, 0) + 1
    g.emit("loyalty-placed", area=area, card=card, house=by)
    return True


def spend(g: Game, house: str, power: int, card: str) -> None:
    """A deck IV text's price in Power, discarded to the pool (M-TARG-17)."""
    if power <= 0:
        return
    g.s.houses[house].power -= power
    g.emit("power-spent", house=house, power=power, card=card)


@phase_rule("collect-loyalty")
def collect(g: Game) -> None:
    """M-TARG-05, -06, -07: Targaryen collects the tokens of every area it controls; each is a point kept for good,
    and seven points win at once."""
    s = g.s
    tokens = tokens_on_board(s)
    for area in sorted(tokens):
        if rules.controller(s, area) != TARGARYEN:
            continue
        count = tokens.pop(area)
        s.targaryen["loyalty"] += count
        g.emit("loyalty-collected", house=TARGARYEN, area=area, tokens=count, points=s.targaryen["loyalty"])


def westeros_lands(s: GameState) -> list[str]:
    """The lands of the Westeros board (loyalty tokens are placed on Westeros, M-TARG-03), in board order."""
    essos = set(rules.board(s).areas) - set(data.board("mother-of-dragons/board-westeros.json").areas)
    return [a for a, area in rules.board(s).areas.items() if area.is_land and a not in essos]


def _reveal(g: Game, card: str) -> None:
    g.push("deck4-card", card=card)


for _id in [c["id"] for c in data.westeros_deck4().values()]:
    westeros_effect(_id)(_reveal)


@register
class Deck4Card(Step):
    """M-DECK4-02: the banner's tokens, then the card's text."""

    type = "deck4-card"

    def advance(self, g: Game, f: Frame) -> None:
        card = f["card"]
        g.pop(f)
        for area in deck4_card(card)["banner_areas"]:
            place(g, area, card)
        text = DECK4_TEXTS.get(card)
        if text is not None:
            text(g, card)


def push_areas(
    g: Game,
    card: str,
    *,
    house: str = TARGARYEN,
    areas: list[str],
    count: int,
    exact: bool = False,
    cost: int = 0,
    optional: bool = True,
) -> None:
    """Ask ``house`` where loyalty tokens go: up to ``count`` of ``areas`` (``exact``: all ``count`` or, when
    ``optional``, none), paying ``cost`` Power when it places any. Nothing is asked when nothing could be placed or
    the price cannot be paid; the card then does nothing."""
    count = min(count, len(areas), reserve(g.s))
    if count <= 0 or (cost > 0 and g.s.houses[house].power < cost):
        g.emit("deck4-nothing", card=card, house=house)
        return
    g.push(
        "loyalty-areas",
        card=card,
        house=house,
        areas=list(areas),
        count=count,
        exact=exact,
        cost=cost,
        optional=optional,
    )


@register
class LoyaltyAreas(Question):
    """A deck IV text's choice of areas for loyalty tokens. Answer: a list of different areas among the choices, at
    most ``count`` (exactly ``count`` when ``exact``); ``[]`` declines when ``optional`` (nothing is paid)."""

    type = "loyalty-areas"
    kind = PromptKind.LOYALTY_AREAS

    def ask(self, g: Game, f: Frame) -> Ask:
        choices = {k: f[k] for k in ("areas", "count", "exact", "cost", "optional")}
        default = [] if f["optional"] else list(f["areas"][: f["count"]])
        return Ask(
            choices=choices,
            default=default,
            info={"card": f["card"], "tokens": dict(tokens_on_board(g.s)), "reserve": reserve(g.s)},
        )

    def check(self, g: Game, f: Frame, answer: Any) -> Any:
        if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
            raise RuleError("bad-answer", "Answer with a list of areas.")
        if len(set(answer)) != len(answer) or any(a not in f["areas"] for a in answer):
            raise RuleError("loyalty-area", "Choose different areas among those the card offers.", areas=f["areas"])
        if not answer and not f["optional"]:
            raise RuleError("loyalty-count", f"Choose {f['count']} areas.", count=f["count"])
        if len(answer) > f["count"] or (answer and f["exact"] and len(answer) != f["count"]):
            raise RuleError("loyalty-count", f"Choose {f['count']} areas.", count=f["count"])
        power = g.s.houses[f["house"]].power  # it may have given Power away since it was asked (M-GIFT-01)
        if answer and power < f["cost"]:
            raise RuleError("deck4-power", f"This costs {f['cost']} Power; you have {power}.", cost=f["cost"])
        return list(answer)

    def apply(self, g: Game, f: Frame, chosen: list[str]) -> None:
        if not chosen:
            g.emit("deck4-declined", card=f["card"], house=f["house"])
            return
        spend(g, f["house"], f["cost"], f["card"])
        for area in chosen:
            place(g, area, f["card"], f["house"])


# ----- the texts that only choose areas -----


def _offer_listed(card: str) -> Callable[[Game, str], None]:
    """Empty Promises, Southron Ambitions, Strongholds of Resistance: 1 Power for a token on one of two areas."""

    def text(g: Game, _card: str) -> None:
        c = deck4_card(card)
        push_areas(g, card, areas=list(c["choosable_areas"]), count=1, cost=int(c["cost"]))

    return text


for _card in ("empty-promises", "southron-ambitions", "strongholds-of-resistance"):
    deck4_text(_card)(_offer_listed(_card))


@deck4_text("domestic-disputes")
def domestic_disputes(g: Game, card: str) -> None:
    """1 Power: a token on the home area of up to four other houses (those of Westeros, vassals included)."""
    s = g.s
    homes = [rules.home(s, h) for h in rules.turn_order(s) if h != TARGARYEN]
    push_areas(g, card, areas=homes, count=4, cost=int(deck4_card(card)["cost"]))


@deck4_text("watering-the-seed")
def watering_the_seed(g: Game, card: str) -> None:
    """As much Power as Targaryen's place on the Victory track: a token on each of two different lands beside a
    river it does not control (both, or none: it pays for two)."""
    s = g.s
    areas = [a for a in deck4_card(card)["choosable_areas"] if rules.controller(s, a) != TARGARYEN]
    cost = rules.victory_points(s)[TARGARYEN]
    push_areas(g, card, areas=areas, count=2, exact=True, cost=cost)
