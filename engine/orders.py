"""The fifteen order tokens every house owns (B-COMP-05) and what each one means."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OrderToken:
    id: str
    type: str  # march | defense | support | raid | consolidate (the expansion adds iron-bank)
    star: bool
    bonus: int
    copies: int
    kind: str = "normal"  # normal | sea | vassal (Mother of Dragons)
    also: tuple[str, ...] = ()  # further order types the token works as (a vassal's Raid/Support, Defense/Muster)


ORDER_TOKENS: dict[str, OrderToken] = {
    t.id: t
    for t in (
        OrderToken("march-1", "march", False, -1, 1),
        OrderToken("march0", "march", False, 0, 1),
        OrderToken("march1*", "march", True, 1, 1),
        OrderToken("defense1", "defense", False, 1, 2),
        OrderToken("defense2*", "defense", True, 2, 1),
        OrderToken("support0", "support", False, 0, 2),
        OrderToken("support1*", "support", True, 1, 1),
        OrderToken("raid", "raid", False, 0, 2),
        OrderToken("raid*", "raid", True, 0, 1),
        OrderToken("consolidate", "consolidate", False, 0, 2),
        OrderToken("consolidate*", "consolidate", True, 0, 1),
    )
}
# Mother of Dragons (M-SEAORD-01): three sea orders per house, resolved only at sea or in a port with its ships.
SEA_TOKENS: dict[str, OrderToken] = {
    t.id: t
    for t in (
        OrderToken("sea-march-minus-1", "march", False, -1, 1, "sea"),
        OrderToken("sea-support", "support", False, 0, 1, "sea"),
        OrderToken("sea-iron-bank", "iron-bank", False, 0, 1, "sea"),
    )
}
# Mother of Dragons (M-VASSAL-09, -13..19): the four faces of a vassal order set. Raid/Support is a Raid that may stay
# as a Support +1; Defense/Muster is a Defense +1 that also musters in the Consolidate Power step.
VASSAL_TOKENS: dict[str, OrderToken] = {
    t.id: t
    for t in (
        OrderToken("vassal-march0", "march", False, 0, 1, "vassal"),
        OrderToken("vassal-raid-support1", "raid", False, 1, 1, "vassal", ("support",)),
        OrderToken("vassal-defense1-muster", "defense", False, 1, 1, "vassal", ("consolidate",)),
        OrderToken("vassal-defense3", "defense", False, 3, 1, "vassal"),
    )
}
VASSAL_ORDERS_MAX = 2  # a liege places at most two of a vassal's four tokens (M-VASSAL-09)
ALL_TOKENS: dict[str, OrderToken] = {**ORDER_TOKENS, **SEA_TOKENS, **VASSAL_TOKENS}
ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate")
TOTAL_TOKENS = sum(t.copies for t in ORDER_TOKENS.values())
assert TOTAL_TOKENS == 15

# Westeros restrictions (B-WCARD-11..16): restriction id -> the tokens it forbids. A sea order works like the base
# order of its type, so a restriction on that type forbids it too; a vassal's combined token is forbidden when either
# of its halves is (M-VASSAL-37): Raid/Support under no-raid and no-support, Defense/Muster under no-defense.
RESTRICTIONS: dict[str, frozenset[str]] = {
    "march-plus-one": frozenset({"march1*"}),
    "defense": frozenset({"defense1", "defense2*", "vassal-defense1-muster", "vassal-defense3"}),
    "raid": frozenset({"raid", "raid*", "vassal-raid-support1"}),
    "consolidate": frozenset({"consolidate", "consolidate*"}),
    "support": frozenset({"support0", "support1*", "sea-support", "vassal-raid-support1"}),
}


def token(token_id: str) -> OrderToken:
    return ALL_TOKENS[token_id]


def acts_as(token_id: str, order_type: str) -> bool:
    """Whether the token works as an order of this type (its own, or a further one a vassal token has)."""
    t = ALL_TOKENS[token_id]
    return t.type == order_type or order_type in t.also


def forbidden_tokens(restrictions: list[str]) -> frozenset[str]:
    out: set[str] = set()
    for r in restrictions:
        out |= RESTRICTIONS[r]
    return frozenset(out)
