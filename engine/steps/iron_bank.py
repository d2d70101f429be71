"""The Iron Bank of Braavos (Mother of Dragons with Targaryen, 003:445-489, 505, 509-520; issue Z).

The bank comes with Essos: a game with Targaryen has ``state.bank``, every other game has none and saves as before.

- **The bank** (M-BANK-03, -08, M-SETUP-21): three slots whose initial payments are 1, 4 and 7 from left to right
  (``bank["slots"]``, a loan card id or None each) and the face-down loan deck (``bank["deck"]``, top first). The
  setup reveals the top card onto the right slot. At the start of every round but the first, every card moves one
  slot left, the card pushed off the left slot goes under the deck, then the top card is revealed onto the right slot.
  A slot a loan emptied stays empty until then. Decided: with the deck empty (every other loan is held) the right
  slot stays empty; a card pushed under an empty deck is the one revealed again.
- **A loan** (M-BANK-01, -02, M-SEAORD-03): the Iron Bank order is resolved in the Consolidate Power step, in turn
  order with the Consolidate Power orders, a house holding both choosing which it resolves first
  (``engine.steps.action``), and asks ``loan``: one of the bank's cards the house can pay for, or none. The initial
  payment is discarded to the Power Pool, the card's effect is resolved at once (``loan_effect`` registry;
  ``engine.steps.loans``), and the card stays with its taker (``bank["loans"]``). A house that cannot pay for any
  card is not asked: its order is removed unused.
- **Interest** (M-BANK-04, -05, -10): at the start of every Westeros phase, in turn order, each player pays 1 Power
  per loan he holds. For each Power he cannot pay, one of his units anywhere is destroyed, chosen by the holder of
  the Valyrian Steel Blade; if the debtor holds it, the next house on the Fiefdoms track chooses. Vassals are
  skipped (M-BANK-10, decided): a vassal has no player of its own. The destruction is settled as any Westeros phase
  loss: ships in the port of a land their house no longer controls go (B-PORT-10) and a seventh castle wins.
- **Braavos** (M-BANK-06, -07): whoever controls Braavos holds its token (``bank["braavos"]``) and pays one Power
  less for every loan (never below 0; interest is not reduced). Its neutral force holds Braavos until it is beaten,
  so the first player to beat it is the first holder; when control passes the token passes, and while nobody (or a
  vassal, who takes no loans) controls Braavos it lies aside.
- **Start of a round** (M-BANK-09, decided): the round marker moves and the dragon tokens with it, then the bank
  shifts, then the Westeros phase begins with interest, before any card is drawn.
- **Development and decline** (M-DEV-01, -02): ``bank["developed"]`` (area -> token -> count; tokens ``barrel``,
  ``crown``, ``stronghold``) and ``bank["declined"]`` (area -> covered symbols; only ``castle`` so far). The board a
  game is played on reads them (``developed_board``): a barrel adds one to the area's supply, a crown one to its
  Power, a stronghold turns its castle into a stronghold, a declined castle is gone; everything that reads the board
  (supply, mustering, consolidating, castles for victory, sieges) reads the developed area.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.bank import (
    DECLINED_SYMBOLS,
    DEVELOPMENT_TOKENS,
    RIGHT,
    affordable,
    braavos_holder,
    loan_card,
    loans_of,
    offers,
    payment,
)
from engine.errors import RuleError
from engine.flow import Ask, Frame, Question, expect_choice, phase_rule, register
from engine.prompts import PromptKind
from engine.state import GameState
from engine.steps.supply import area_counts, default_destroy, destroy_picks, parse_picks, units_by_area

if TYPE_CHECKING:
    from engine.game import Game


# A loan's effect, by the ``effect`` its card names in data/mother-of-dragons/iron_bank.json: called once the loan is
# paid for and the card is in its taker's hands; it may push a step of its own.
LOAN_EFFECTS: dict[str, Callable[[Game, str, str], None]] = {}


def loan_effect(effect: str) -> Callable[[Callable[[Game, str, str], None]], Callable[[Game, str, str], None]]:
    def add(handler: Callable[[Game, str, str], None]) -> Callable[[Game, str, str], None]:
        if effect in LOAN_EFFECTS:
            raise ValueError(f"loan effect {effect!r} registered twice")
        LOAN_EFFECTS[effect] = handler
        return handler

    return add


# ----- the start of a round: the bank shifts (M-BANK-03) -----


def shift_bank(g: Game) -> None:
    s = g.s
    bank = s.bank
    slots: list[str | None] = bank["slots"]
    returned = slots[0]
    if returned is not None:
        bank["deck"].append(returned)
    slots[:] = [*slots[1:], None]
    revealed = bank["deck"].pop(0) if bank["deck"] else None
    slots[RIGHT] = revealed
    g.emit("bank-shifted", returned=returned, revealed=revealed, slots=list(slots))


# ----- interest (M-BANK-04, -05, -10) -----


def interest_chooser(s: GameState, debtor: str) -> str | None:
    """The holder of the Valyrian Steel Blade, or the next house on the Fiefdoms track when the debtor holds it;
    vassals are passed over (M-BANK-10)."""
    return next((h for h in s.tracks["fiefdoms"] if h != debtor and h not in s.vassals), None)


def pay_interest(g: Game) -> None:
    """Each player with loans pays, in turn order; whoever cannot pay in full loses units, decided afterwards in the
    same order (``interest-units``)."""
    s = g.s
    per_loan = int(data.iron_bank()["interest_per_loan"])
    debts: list[tuple[str, int, int, int]] = []
    for house in rules.player_houses(s):
        held = len(loans_of(s, house))
        if not held:
            continue
        due = held * per_loan
        paid = rules.lose_power(s, house, due)
        g.emit("interest-paid", house=house, loans=held, due=due, paid=paid, unpaid=due - paid)
        count = min(due - paid, sum(area_counts(s, house).values()))
        if count:
            debts.append((house, count, due, paid))
    for house, count, due, paid in reversed(debts):  # the stack runs the last pushed first: the first debtor first
        chooser = interest_chooser(s, house)
        if chooser is None:  # pragma: no cover - every game has a second player
            continue
        g.push("interest-units", debtor=house, chooser=chooser, count=count, due=due, paid=paid)


@register
class InterestUnits(Question):
    """A debtor's unpaid interest: the chooser picks ``count`` of the debtor's units anywhere on the board. Answer
    ``{area: [unit types]}`` naming exactly ``count`` of the debtor's units (the default takes them from his biggest
    armies, weakest first)."""

    type = "interest-units"
    kind = PromptKind.INTEREST_UNITS

    def asked(self, g: Game, f: Frame) -> str:
        return str(f["chooser"])

    def ask(self, g: Game, f: Frame) -> Ask:
        s = g.s
        debtor, count = f["debtor"], f["count"]
        return Ask(
            choices={"debtor": debtor, "count": count, "units": units_by_area(s, debtor)},
            default=default_destroy(s, debtor, count),
            info={
                "debtor": debtor,
                "count": count,
                "loans": len(loans_of(s, debtor)),
                "due": f["due"],
                "paid": f["paid"],
                "blade": f["chooser"] == rules.holder(s, "fiefdoms"),
            },
        )

    def check(self, g: Game, f: Frame, answer: Any) -> dict[str, list[str]]:
        picks = parse_picks(g.s, f["debtor"], answer, "the units to destroy")
        chosen = sum(len(ts) for ts in picks.values())
        if chosen != f["count"]:
            raise RuleError(
                "interest-count", f"Choose exactly {f['count']} units; you chose {chosen}.", count=f["count"]
            )
        return picks

    def apply(self, g: Game, f: Frame, chosen: dict[str, list[str]]) -> None:
        blade = f["chooser"] == rules.holder(g.s, "fiefdoms")
        g.emit("interest-units", debtor=f["debtor"], chooser=f["chooser"], count=f["count"], blade=blade)
        destroy_picks(g, f["debtor"], chosen, "interest")


# ----- Braavos's token (M-BANK-06, -07) -----


def settle_braavos(g: Game) -> None:
    s = g.s
    area = str(data.iron_bank()["braavos"])
    controller = rules.controller(s, area)
    holder = controller if controller is not None and controller not in s.vassals else None
    previous = braavos_holder(s)
    if holder != previous:
        s.bank["braavos"] = holder
        g.emit("braavos-token", house=holder, previous=previous)


# ----- the Iron Bank order: taking a loan (M-BANK-01, -02, M-SEAORD-03) -----


def resolve_iron_bank_order(g: Game, house: str, area: str) -> bool:
    """The house's Iron Bank order in ``area`` is resolved: True when it asks which loan (the Consolidate Power step
    waits for the answer), False when the house can pay for none and the order is simply removed."""
    s = g.s
    del s.orders[area]
    if not s.bank or not affordable(s, house):
        g.emit("loan-unaffordable", house=house, area=area, power=s.houses[house].power)
        return False
    g.push("loan", house=house, area=area)
    return True


@register
class TakeLoan(Question):
    """The Iron Bank order's question. Answer a loan card id among the choices (those the house can pay for) or
    None (the default: no loan)."""

    type = "loan"
    kind = PromptKind.LOAN

    def ask(self, g: Game, f: Frame) -> Ask:
        s, house = g.s, f["house"]
        return Ask(
            choices=[o["loan"] for o in affordable(s, house)] + [None],
            default=None,
            info={
                "area": f["area"],
                "power": s.houses[house].power,
                "offers": offers(s, house),
                "loans": len(loans_of(s, house)),
                "braavos": braavos_holder(s) == house,
            },
        )

    def check(self, g: Game, f: Frame, answer: Any) -> str | None:
        if answer is None:
            return None
        s = g.s
        on_offer = {o["loan"]: o["payment"] for o in offers(s, f["house"])}
        expect_choice(answer, list(on_offer), "loan")
        power = s.houses[f["house"]].power
        if on_offer[answer] > power:  # a gift may have taken Power since the question was asked (M-GIFT-01)
            raise RuleError(
                "loan-power", f"This loan costs {on_offer[answer]} Power; you have {power}.", cost=on_offer[answer]
            )
        return str(answer)

    def apply(self, g: Game, f: Frame, chosen: str | None) -> None:
        if chosen is None:
            g.emit("loan-declined", house=f["house"], area=f["area"])
            return
        take_loan(g, f["house"], chosen)


def take_loan(g: Game, house: str, loan: str) -> None:
    """M-BANK-02: pay the slot's initial payment, keep the card, resolve its effect."""
    s = g.s
    slot = s.bank["slots"].index(loan)
    paid = rules.lose_power(s, house, payment(s, house, slot))
    s.bank["slots"][slot] = None
    s.bank["loans"].setdefault(house, []).append(loan)
    g.emit("loan-taken", house=house, loan=loan, slot=slot, payment=paid)
    LOAN_EFFECTS[loan_card(loan)["effect"]](g, house, loan)


# ----- development and decline (M-DEV-01, -02) -----


def develop(g: Game, house: str, area: str, token: str) -> None:
    """A development token in ``area``: for the rest of the game it counts as the printed symbol."""
    if token not in DEVELOPMENT_TOKENS:
        raise ValueError(f"unknown development token {token!r}")
    tokens = g.s.bank["developed"].setdefault(area, {})
    tokens[token] = tokens.get(token, 0) + 1
    g.emit("area-developed", house=house, area=area, token=token)


def decline(g: Game, house: str, area: str, symbol: str) -> None:
    """A decline token over a printed symbol: the symbol is gone for the rest of the game."""
    if symbol not in DECLINED_SYMBOLS:
        raise ValueError(f"unknown declined symbol {symbol!r}")
    covered = g.s.bank["declined"].setdefault(area, [])
    if symbol not in covered:
        covered.append(symbol)
    g.emit("area-declined", house=house, area=area, symbol=symbol)


# ----- the ruleset's hooks -----


@phase_rule("iron-bank-round")
def bank_round(g: Game) -> None:
    """M-BANK-09: after the round marker and the dragons, the bank shifts (every round but the first)."""
    if g.s.bank and g.s.round > 1:
        shift_bank(g)


@phase_rule("iron-bank-westeros")
def bank_westeros(g: Game) -> None:
    """M-BANK-04, -09: interest opens the Westeros phase, before any card is drawn."""
    if g.s.bank:
        pay_interest(g)


@phase_rule("iron-bank-settle")
def bank_settle(g: Game) -> None:
    if g.s.bank:
        settle_braavos(g)


@loan_effect("power")
def loan_power(g: Game, house: str, loan: str) -> None:
    """Customs Officer (M-LOAN-02): Power from the pool, as much as the house's twenty tokens allow."""
    gained = rules.gain_power(g.s, house, int(loan_card(loan)["power"]))
    g.emit("loan-power", house=house, loan=loan, gained=gained)
