"""An open decision: who must answer, what kind of answer, which answers are legal, and the default."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class PromptKind(StrEnum):
    """Every kind of decision the engine can open, in both rulesets; a prompt of any other kind is a bug."""

    ORDERS = "orders"
    VASSAL_ORDERS = "vassal-orders"
    VASSAL_CLAIM = "vassal-claim"
    RAVEN = "raven"
    RAVEN_WILDLING = "raven-wildling"
    RAID = "raid"
    MARCH = "march"
    CONSOLIDATE = "consolidate"
    CONSOLIDATE_ORDER = "consolidate-order"  # ["consolidate", "iron-bank"]: which kind of order the house resolves now
    SUPPORT = "support"
    SUPPORT_REFUSAL = "support-refusal"
    HOUSE_CARD = "house-card"
    BLADE = "blade"
    CASUALTIES = "casualties"
    RETREAT = "retreat"
    PORT_CAPTURE = "port-capture"
    TYRION_CANCEL = "tyrion-cancel"
    DORAN_TRACK = "doran-track"
    AERON_SWAP = "aeron-swap"
    MACE_FOOTMAN = "mace-footman"
    QUEEN_OF_THORNS = "queen-of-thorns"
    RENLY_KNIGHT = "renly-knight"
    CERSEI_ORDER = "cersei-order"
    PATCHFACE_DISCARD = "patchface-discard"
    LYSA_KEEP = "lysa-keep"
    ROBERT_REMOVE = "robert-remove"
    BRONN_PAY = "bronn-pay"
    BERIC_UNIT = "beric-unit"
    CONNINGTON_KNIGHT = "connington-knight"
    VISERYS_DISCARD = "viserys-discard"
    MISSANDEI_RETURN = "missandei-return"
    WESTEROS_CHOICE = "westeros-choice"
    RECONCILE = "reconcile"
    MUSTER = "muster"
    BID = "bid"
    BID_HANDOUT = "bid-handout"
    LOYALTY_AREAS = "loyalty-areas"
    FIRE_MADE_FLESH = "fire-made-flesh"
    PLAYING_WITH_FIRE = "playing-with-fire"
    LOYALTY_UNIT = "loyalty-unit"
    LOYALTY_PLAYER = "loyalty-player"
    LOYALTY_MOVE = "loyalty-move"  # {from_area: [to_areas]}; answer {"from": area, "to": area}
    LOYALTY_UNDO = "loyalty-undo"  # ["undo", "keep"]; answer one of them
    LOAN = "loan"  # the Iron Bank order: [loan ids the house can pay for..., None]; answer one of them
    INTEREST_UNITS = "interest-units"  # unpaid interest: {area: [unit types]} of the debtor's units
    LOAN_FACELESS = "loan-faceless"
    LOAN_AREAS = "loan-areas"
    LOAN_PYROMANCER = "loan-pyromancer"
    LOAN_SPY_DECK = "loan-spy-deck"
    LOAN_SPY_ARRANGE = "loan-spy-arrange"
    LOAN_UNITS = "loan-units"
    TIE_ORDER = "tie-order"
    WILDLING_TIE = "wildling-tie"
    PREEMPTIVE_RAID = "preemptive-raid"
    TRACK = "track"
    DISCARD_HOUSE_CARD = "discard-house-card"
    RETURN_HOUSE_CARD = "return-house-card"
    WILDLING_DESTROY = "wildling-destroy"
    WILDLING_UPGRADE = "wildling-upgrade"
    WILDLING_DOWNGRADE = "wildling-downgrade"


PROMPT_KINDS = frozenset(PromptKind)


@dataclass(frozen=True)
class Prompt:
    id: str  # stable while the decision is open: "<frame id>:<kind>:<house>"
    house: str
    kind: str
    choices: Any  # JSON-able description of the legal answers (documented per kind in docs/engine.md)
    default: Any  # the answer applied when a deadline passes
    info: dict[str, Any] = field(default_factory=dict)  # context for the player (JSON-able)
    answered: bool = False  # simultaneous steps: an answer is on record and may still be replaced
    secret: bool = False  # the answer stays hidden from other houses until the step resolves

    def __post_init__(self) -> None:
        if self.kind not in PROMPT_KINDS:
            raise ValueError(f"{self.kind!r} is not a declared PromptKind")

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "house": self.house,
            "kind": self.kind,
            "choices": self.choices,
            "default": self.default,
            "info": self.info,
            "answered": self.answered,
            "secret": self.secret,
        }
