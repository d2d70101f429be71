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
    kind: str = "normal"  # normal | sea (Mother of Dragons; later vassal and Iron Bank faces)


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
ALL_TOKENS: dict[str, OrderToken] = {**ORDER_TOKENS, **SEA_TOKENS}
ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate")
TOTAL_TOKENS = sum(t.copies for t in ORDER_TOKENS.values())
assert TOTAL_TOKENS == 15

# Westeros restrictions (B-WCARD-11..16): restriction id -> the tokens it forbids. A sea order works like the base
# order of its type, so a restriction on that type forbids it too.
RESTRICTIONS: dict[str, frozenset[str]] = {
    "march-plus-one": frozenset({"march1*"}),
    "defense": frozenset({"defense1", "defense2*"}),
    "raid": frozenset({"raid", "raid*"}),
    "consolidate": frozenset({"consolidate", "consolidate*"}),
    "support": frozenset({"support0", "support1*", "sea-support"}),
}


def token(token_id: str) -> OrderToken:
    return ALL_TOKENS[token_id]


def forbidden_tokens(restrictions: list[str]) -> frozenset[str]:
    out: set[str] = set()
    for r in restrictions:
        out |= RESTRICTIONS[r]
    return frozenset(out)
