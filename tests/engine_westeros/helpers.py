"""Shared helpers for the Westeros-phase tests (issue C).

``westeros(spec)`` builds a position with ``Game.from_scenario`` that starts with the Westeros phase of
``round`` (default 2). Unless the spec says otherwise the three decks hold only quiet cards and the threat starts
at 0, so that a test sees just the card it puts on top of a deck.
"""

from __future__ import annotations

from typing import Any

from engine import Game, data
from engine.prompts import Prompt

# Top cards that do nothing but move the threat (one icon each) or forbid an order nobody will miss.
QUIET = ("last-days-of-summer", "last-days-of-summer", "rains-of-autumn")
FILLER = (
    ["supply", "mustering", "a-throne-of-blades", "mustering", "supply"],
    ["game-of-thrones", "clash-of-kings", "game-of-thrones", "dark-wings-dark-words"],
    ["put-to-the-sword", "storm-of-swords", "sea-of-storms", "web-of-lies"],
)


def decks(i: str = QUIET[0], ii: str = QUIET[1], iii: str = QUIET[2]) -> list[list[str]]:
    """Decks with the given top cards (the rest is filler that a single Westeros phase never reaches).

    A deck never holds a card more often than the game has copies of it: when the top card is also filler and
    the game has no copy left (Storm of Swords, Sea of Storms and Web of Lies exist once), that filler card is
    replaced by the deck's first card that still has a copy left.
    """
    return [_deck(n, top, FILLER[n - 1]) for n, top in ((1, i), (2, ii), (3, iii))]


def _deck(number: int, top: str, filler: list[str]) -> list[str]:
    copies = {c["id"]: c["copies"] for c in data.westeros_cards().values() if c["deck"] == number}
    deck = [top]
    for card in filler:
        if deck.count(card) >= copies[card]:
            card = next(c for c in copies if deck.count(c) < copies[c] and c not in (top, *filler))
        deck.append(card)
    return deck


def westeros(spec: dict[str, Any], cards: tuple[str, str, str] | None = None) -> Game:
    spec = dict(spec)
    spec.setdefault("players", 3)
    spec.setdefault("round", 2)
    spec.setdefault("start", "westeros")
    spec.setdefault("wildling_threat", 0)
    if cards is not None:
        spec["westeros_decks"] = decks(*cards)
    spec.setdefault("westeros_decks", decks())
    return Game.from_scenario(spec)


def prompt(g: Game, house: str | None = None, kind: str | None = None) -> Prompt:
    open_ = [p for p in g.prompts() if not p.answered and (house is None or p.house == house)]
    assert open_, f"nothing asked of {house}; prompts: {[p.to_dict() for p in g.prompts()]}"
    p = open_[0]
    if kind is not None:
        assert p.kind == kind, f"expected a {kind} prompt, got {p.to_dict()}"
    return p


def answer(g: Game, house: str, kind: str, value: Any) -> list[dict[str, Any]]:
    p = prompt(g, house, kind)
    return g.act(house, value, prompt_id=p.id)


def kinds(g: Game) -> list[tuple[str, str]]:
    return [(p.house, p.kind) for p in g.prompts() if not p.answered]


def in_planning(g: Game) -> bool:
    """The Westeros phase is over and the Planning phase asks for orders."""
    return g.s.phase == "planning" and bool(g.prompts()) and all(p.kind == "orders" for p in g.prompts())


def bid_all(g: Game, bids: dict[str, int]) -> list[dict[str, Any]]:
    """Answer every open bid prompt; returns the events of the last answer."""
    events: list[dict[str, Any]] = []
    for house, amount in bids.items():
        p = g.prompt_for(house)
        if p is None or p.kind != "bid":  # no power: the house bids 0 without being asked
            assert amount == 0, f"{house} was not asked to bid"
            continue
        events = g.act(house, amount)
    return events


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def setup_events(g: Game) -> list[dict[str, Any]]:
    """Events emitted while ``from_scenario`` ran the game up to its first question."""
    return list(g._events)


def units(g: Game, area: str) -> list[str]:
    return sorted(u.type for u in g.s.units.get(area, []))
