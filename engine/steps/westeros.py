"""The Westeros phase (B-WEST-01..08) and the Westeros cards (B-WCARD-01..18).

The ``westeros`` frame draws the top card of decks I, II and III (and deck IV when Targaryen plays; index 0 of each
list in ``state.westeros_decks``), records them in ``state.westeros_drawn`` (one id per deck), moves the wildling threat
by their icons — an attack at once if it reaches 12 — and then resolves the three cards in deck order. A resolved
card goes to the bottom of its deck (B-WEST-07). Winter Is Coming is resolved in its turn: it is shuffled back into
its deck and a new card is drawn instead (again, if Winter Is Coming comes up again); an icon on that replacement
moves the threat at once, attacking before the replacement is resolved if the threat reaches 12 (B-OPEN-04).

``westeros-choice`` asks the named token holder the choice on A Throne of Blades, Dark Wings Dark Words and
Put to the Sword (B-WCARD-05/09/16/18).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import data, rules
from engine.flow import Frame, Step, expect_choice, prompt_id, register
from engine.prompts import Prompt, PromptKind
from engine.steps.bidding import announced_power
from engine.steps.supply import adjust_supply
from engine.steps.wildlings import advance_threat, start_attack

if TYPE_CHECKING:
    from engine.game import Game

WINTER_IS_COMING = "winter-is-coming"

# Cards that only forbid orders in the coming Planning phase (B-WCARD-11..15).
RESTRICTION_OF_CARD = {
    "storm-of-swords": "defense",
    "rains-of-autumn": "march-plus-one",
    "sea-of-storms": "raid",
    "feast-for-crows": "consolidate",
    "web-of-lies": "support",
}

# Cards whose token holder chooses: card -> (track of the token, options; the last option is "no effect").
CHOICE_CARDS: dict[str, tuple[str, list[str]]] = {
    "a-throne-of-blades": ("iron_throne", ["supply", "mustering", "nothing"]),
    "dark-wings-dark-words": ("kings_court", ["clash-of-kings", "game-of-thrones", "nothing"]),
    "put-to-the-sword": ("fiefdoms", ["defense", "march-plus-one", "none"]),
}


def icons(deck: int, card: str) -> int:
    """Wildling icons on a card of deck ``deck`` (0-based)."""
    return int(data.all_westeros_cards()[f"{deck + 1}:{card}"]["icons"])


def add_restriction(g: Game, restriction: str, card: str) -> None:
    if restriction not in g.s.restrictions:
        g.s.restrictions.append(restriction)
    g.emit("restriction", restriction=restriction, card=card)


def game_of_thrones(g: Game) -> None:
    """B-WCARD-06/07: in turn order, 1 Power per crown in controlled lands and per own port with own ships and no
    enemy ship in its sea. Power tokens on the board are not crowns. The 20-token limit caps the gain (B-OPEN-06)."""
    s = g.s
    board = rules.board(g.s)
    for house in rules.turn_order(s):
        crowns = rules.crowns(s, house)
        ports = 0
        for a in board.areas.values():
            if not a.is_port or rules.occupant(s, a.id) != house or rules.controller(s, a.id) != house:
                continue
            assert a.port_sea is not None
            if rules.occupant(s, a.port_sea) in (None, house):
                ports += 1
        gained = rules.gain_power(s, house, crowns + ports)
        g.emit("power-gained", house=house, crowns=crowns, ports=ports, gained=gained, reason="game-of-thrones")


# Effects of cards a ruleset adds (Mother of Dragons' deck IV), registered by the module that plays them.
CARD_EFFECTS: dict[str, Callable[[Game, str], None]] = {}


def westeros_effect(card: str) -> Callable[[Callable[[Game, str], None]], Callable[[Game, str], None]]:
    def add(effect: Callable[[Game, str], None]) -> Callable[[Game, str], None]:
        if card in CARD_EFFECTS:
            raise ValueError(f"Westeros card effect {card!r} registered twice")
        CARD_EFFECTS[card] = effect
        return effect

    return add


def resolve_effect(g: Game, effect: str, card: str) -> None:
    """Carry out a card's effect (or a chosen option of a choice card)."""
    s = g.s
    if effect in CARD_EFFECTS:
        CARD_EFFECTS[effect](g, card)
    elif effect == "supply":
        adjust_supply(g)
    elif effect == "mustering":
        # M-VASSAL-35: a vassal musters only in its home, and only while it controls it.
        homes = {v: [rules.home(s, v)] for v in s.vassals}
        g.push("muster", houses=rules.turn_order(s), reason=card, **({"areas": homes} if homes else {}))
    elif effect == "clash-of-kings":
        g.push("clash", stage="start", index=0, announced=announced_power(g.s))
    elif effect == "game-of-thrones":
        game_of_thrones(g)
    elif effect == "wildlings-attack":
        start_attack(g, "card")  # B-WCARD-10
    elif effect in ("defense", "march-plus-one"):
        add_restriction(g, effect, card)
    elif effect in RESTRICTION_OF_CARD:
        add_restriction(g, RESTRICTION_OF_CARD[effect], card)
    elif effect in CHOICE_CARDS:
        track, options = CHOICE_CARDS[effect]
        g.push("westeros-choice", card=card, house=rules.holder(s, track), options=list(options))
    elif effect in ("last-days-of-summer", "nothing", "none"):
        g.emit("nothing-happens", card=card)
    else:  # pragma: no cover - unknown card id in the data
        raise RuntimeError(f"unknown Westeros card or option {effect!r}")


@register
class WesterosPhase(Step):
    type = "westeros"

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        if f.get("stage", "draw") == "draw":
            cards = []
            for deck in s.westeros_decks:
                if not deck:  # pragma: no cover - a deck always holds ten cards
                    raise RuntimeError("a Westeros deck is empty")
                cards.append(deck.pop(0))  # B-WEST-03
            s.westeros_drawn = list(cards)
            f["cards"] = cards
            f["index"] = 0
            f["stage"] = "resolve"
            g.emit("westeros-cards", round=s.round, cards=list(cards))
            # B-WEST-04/05: all icons at once; reaching 12 attacks before any card is resolved.
            if advance_threat(g, sum(icons(i, c) for i, c in enumerate(cards))):
                start_attack(g, "threat")
            return
        i = f["index"]
        if i >= len(f["cards"]):
            g.pop(f)
            return
        card = f["cards"][i]
        if card == WINTER_IS_COMING:  # B-WCARD-01
            deck = s.westeros_decks[i]
            while card == WINTER_IS_COMING:
                deck.append(card)
                g.rng.shuffle(deck)
                card = deck.pop(0)
                g.emit("winter-is-coming", deck=i + 1, card=card)
            f["cards"][i] = card
            s.westeros_drawn[i] = card
            if advance_threat(g, icons(i, card)):  # B-OPEN-04
                start_attack(g, "threat")
            return
        f["index"] = i + 1
        s.westeros_decks[i].append(card)  # B-WEST-07
        g.emit("westeros-card", deck=i + 1, card=card)
        resolve_effect(g, card, card)


@register
class WesterosChoice(Step):
    type = "westeros-choice"

    def prompts(self, g: Game, f: Frame) -> list[Prompt]:
        if "chosen" in f:
            return []
        return [
            Prompt(
                id=prompt_id(f, PromptKind.WESTEROS_CHOICE, f["house"]),
                house=f["house"],
                kind=PromptKind.WESTEROS_CHOICE,
                choices=list(f["options"]),
                default=f["options"][-1],
                info={"card": f["card"]},
            )
        ]

    def answer(self, g: Game, f: Frame, house: str, answer: Any) -> None:
        f["chosen"] = expect_choice(answer, f["options"], f"choice for {f['card']}")

    def advance(self, g: Game, f: Frame) -> None:
        g.pop(f)
        g.emit("westeros-choice", card=f["card"], house=f["house"], chosen=f["chosen"])
        resolve_effect(g, f["chosen"], f["card"])
