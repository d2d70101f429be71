"""The Iron Bank's state (``state.bank``, only in games with Targaryen) and what the rules read from it: the rules
themselves are in ``engine.steps.iron_bank``. Kept apart so the ruleset, which every module imports, can read the
bank (its development tokens shape the board) without importing the steps."""

from __future__ import annotations

from typing import Any

from engine import data
from engine.rng import Rng
from engine.state import GameState

SLOTS = 3
RIGHT = SLOTS - 1
DEVELOPMENT_TOKENS = ("barrel", "crown", "stronghold")
DECLINED_SYMBOLS = ("castle",)


def loan_card(loan: str) -> dict[str, Any]:
    """A loan card's record: id, names, texts, effect and what the effect needs (units, power, develop)."""
    card: dict[str, Any] = data.loan_cards()[loan]
    return card


def new_bank(rng: Rng) -> dict[str, Any]:
    """M-SETUP-21: the twelve loans shuffled face down, the top one revealed onto the right slot."""
    deck = list(data.loan_cards())
    rng.shuffle(deck)
    slots: list[str | None] = [None] * SLOTS
    slots[RIGHT] = deck.pop(0)
    return {"deck": deck, "slots": slots, "loans": {}, "braavos": None, "developed": {}, "declined": {}}


def loans_of(s: GameState, house: str) -> list[str]:
    held: list[str] = s.bank.get("loans", {}).get(house, [])
    return held


def braavos_holder(s: GameState) -> str | None:
    holder: str | None = s.bank.get("braavos")
    return holder


def payment(s: GameState, house: str, slot: int) -> int:
    """M-BANK-02, -06, -08: the slot's initial payment, one less for the holder of the Braavos token."""
    conf = data.iron_bank()
    base = int(conf["slot_payments"][slot])
    if braavos_holder(s) == house:
        base -= int(conf["braavos_discount"])
    return max(0, base)


def offers(s: GameState, house: str) -> list[dict[str, Any]]:
    """Every card in the bank, left to right, with what ``house`` would pay for it."""
    return [
        {"slot": i, "loan": loan, "payment": payment(s, house, i)}
        for i, loan in enumerate(s.bank["slots"])
        if loan is not None
    ]


def affordable(s: GameState, house: str) -> list[dict[str, Any]]:
    power = s.houses[house].power
    return [o for o in offers(s, house) if o["payment"] <= power]


def board_marks(s: GameState) -> tuple[tuple[str, str, int], ...]:
    """The development and decline tokens on the board as a hashable key: (area, token or symbol, count)."""
    bank = s.bank
    if not bank or not (bank["developed"] or bank["declined"]):
        return ()  # most of a game: every rule reads the board, so this is the hot path
    marks = [(a, t, n) for a, tokens in bank["developed"].items() for t, n in tokens.items()]
    marks += [(a, symbol, -1) for a, symbols in bank["declined"].items() for symbol in symbols]
    return tuple(sorted(marks))
