"""Deck IV's two cards that move loyalty tokens (Mother of Dragons, issue Y): Scattering Dissent (reverse turn order,
1 Power to undo a move) and Word Spreads Quickly (turn order, 2 Power), engine/steps/deck4_moves.py.

Decisions tested here (the card text is open on them): only players move, Targaryen too, vassals never; a token moves
into an adjacent land of Westeros in play (no sea, port, Essos land nor impassable area); a player who can move must
(no passing), and when one cannot, nobody can and the card ends; Targaryen is never offered to undo its own move,
and is asked only while it has the Power; a token moved into an area Targaryen controls is collected before the
next decision, and that move is not offered for undoing.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, rules
from engine.steps.deck4_moves import legal_moves

from ..engine_action.helpers import event, prompt, rejected

MOD = {"ruleset": "mother-of-dragons"}
SCATTERING = "scattering-dissent"
WORD = "word-spreads-quickly"
MOVE = "loyalty-move"
UNDO = "loyalty-undo"
EIGHT = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn", "targaryen"]


def at_card(card: str, **spec: Any) -> Game:
    """Round 2, eight players unless given, deck IV's ``card`` about to be resolved (its banner tokens not yet
    placed); no loyalty token on the board unless given."""
    base: dict[str, Any] = {
        "players": 8,
        "options": MOD,
        "round": 2,
        "start": {"westeros": 4, "card": card},
        "loyalty_tokens": {},
    }
    return Game.from_scenario({**base, **spec})


def open_kind(g: Game) -> tuple[str, str] | None:
    """The open deck IV decision, (house, kind), or None once the card is over."""
    prompts = [p for p in g.prompts() if p.kind in (MOVE, UNDO)]
    assert len(prompts) <= 1
    return (prompts[0].house, prompts[0].kind) if prompts else None


def play_card(g: Game, answers: dict[tuple[str, str], Any] | None = None) -> list[tuple[str, str]]:
    """Answer the card's decisions until it is over (a move by its default, an undo "keep", unless ``answers`` says
    otherwise); the decisions met, in order."""
    answers = answers or {}
    met: list[tuple[str, str]] = []
    while (decision := open_kind(g)) is not None:
        met.append(decision)
        house, kind = decision
        default = prompt(g, house).default if kind == MOVE else "keep"
        g.act(house, answers.get(decision, default))
    return met


def tokens(g: Game) -> dict[str, int]:
    return dict(g.s.targaryen["loyalty_tokens"])


# ----- the order of the players -----


def test_M_D4CARD_20_M_DECK4_02_scattering_dissent_banner_tokens_then_one_move_each_in_reverse_turn_order() -> None:
    """M-DECK4-02: Karhold and Oldtown get their tokens, then each player, Targaryen first (last on the Iron Throne
    track), moves one token: eight moves, one per player, in reverse Iron Throne order."""
    g = at_card(SCATTERING, power={"targaryen": 0})
    assert tokens(g) == {"karhold": 1, "oldtown": 1}
    met = play_card(g)
    assert met == [(h, MOVE) for h in reversed(EIGHT)]
    assert list(reversed(EIGHT)) == list(reversed(rules.turn_order(g.s)))
    assert sum(tokens(g).values()) == 2  # moved, none lost
    assert open_kind(g) is None and g.prompts()[0].kind == "orders"  # the Westeros phase is over


def test_M_D4CARD_21_M_DECK4_02_word_spreads_quickly_banner_tokens_then_one_move_each_in_turn_order() -> None:
    """M-DECK4-02: Crackclaw Point and Three Towers get their tokens, then the players move in Iron Throne order,
    Targaryen last."""
    g = at_card(WORD, power={"targaryen": 0})
    assert tokens(g) == {"crackclaw-point": 1, "three-towers": 1}
    assert play_card(g) == [(h, MOVE) for h in EIGHT]


def test_M_DECK4_02_vassals_take_no_part_in_the_moves() -> None:
    """Decided: "each player" moves; a vassal is no player. Four players: only they move, Targaryen among them."""
    g = at_card(WORD, players=["stark", "lannister", "arryn", "targaryen"], power={"targaryen": 0})
    players = rules.player_houses(g.s)
    assert sorted(players) == ["arryn", "lannister", "stark", "targaryen"] and g.s.vassals
    assert play_card(g) == [(h, MOVE) for h in players]
    g = at_card(SCATTERING, players=["stark", "lannister", "arryn", "targaryen"], power={"targaryen": 0})
    assert play_card(g) == [(h, MOVE) for h in reversed(rules.player_houses(g.s))]


# ----- the move -----


def test_M_DECK4_02_a_move_takes_one_token_into_an_adjacent_land_of_westeros() -> None:
    """A move takes one token (of several in an area) into an adjacent land; the token count on the board stays."""
    g = at_card(WORD, loyalty_tokens={"winterfell": 2}, power={"targaryen": 0})
    p = prompt(g, "baratheon")
    assert p.choices["winterfell"] == ["castle-black", "karhold", "moat-cailin", "the-stony-shore", "white-harbor"]
    events = g.act("baratheon", {"from": "winterfell", "to": "karhold"})
    assert event(events, "loyalty-moved") == {
        "type": "loyalty-moved",
        "house": "baratheon",
        "card": WORD,
        "origin": "winterfell",
        "to": "karhold",
    }
    assert tokens(g) == {"winterfell": 1, "karhold": 1, "crackclaw-point": 1, "three-towers": 1}
    assert prompt(g, "lannister").kind == MOVE


def test_M_DECK4_02_tokens_move_only_into_lands_of_westeros_in_play() -> None:
    """Decided: an adjacent area is an adjacent land of the Westeros board: never a sea nor a port (Karhold borders
    the Shivering Sea, Oldtown its port), never an impassable area; a token on an island cannot move."""
    g = at_card(SCATTERING, loyalty_tokens={"pyke": 1}, neutral={"castle-black": "impassable"}, power={"targaryen": 0})
    moves = prompt(g, "targaryen").choices
    assert moves == legal_moves(g.s)
    assert moves["karhold"] == ["winterfell"]  # not the Shivering Sea, not impassable Castle Black
    assert moves["oldtown"] == ["dornish-marches", "highgarden", "three-towers"]  # not its port nor the Redwyne Straits
    assert "pyke" not in moves  # an island: no land beside it
    lands = {a for area, to in moves.items() for a in [area, *to]}
    board = rules.board(g.s)
    assert all(board.areas[a].is_land for a in lands)
    rejected(g, "targaryen", {"from": "karhold", "to": "the-shivering-sea"}, "loyalty-not-adjacent")
    rejected(g, "targaryen", {"from": "karhold", "to": "castle-black"}, "loyalty-not-adjacent")
    rejected(g, "targaryen", {"from": "oldtown", "to": "port-of-oldtown"}, "loyalty-not-adjacent")
    rejected(g, "targaryen", {"from": "pyke", "to": "greywater-watch"}, "loyalty-no-token")


def test_M_DECK4_02_a_player_who_can_move_must_move() -> None:
    """Decided: "moves ... if he can" is an obligation: no pass, no empty answer; every refusal leaves the state as it
    was, and the default is a legal move."""
    g = at_card(WORD, power={"targaryen": 0})
    answers: list[Any] = [None, {}, [], "pass", {"from": None, "to": None}, {"from": "karhold"}, {"pass": True}]
    for answer in answers:
        rejected(g, "baratheon", answer)
    rejected(g, "baratheon", {"from": "winterfell", "to": "karhold"}, "loyalty-no-token")  # no token in Winterfell
    rejected(g, "baratheon", {"from": "crackclaw-point", "to": "oldtown"}, "loyalty-not-adjacent")
    rejected(g, "lannister", {"from": "crackclaw-point", "to": "harrenhal"}, "not-your-turn")
    events = g.act("baratheon", prompt(g, "baratheon").default)
    assert event(events, "loyalty-moved")["house"] == "baratheon"


def before_card(card: str, **spec: Any) -> Game:
    """Deck III's Put to the Sword waiting for its holder's choice, deck IV's ``card`` drawn next (so the events of
    the deck IV card come back from ``act``)."""
    decks = [["supply"], ["game-of-thrones"], ["put-to-the-sword"], [card]]
    start = {"westeros": 3, "card": "put-to-the-sword"}
    return at_card(card, start=start, westeros_decks=decks, **spec)


def resolve_put_to_the_sword(g: Game) -> list[dict[str, Any]]:
    p = g.prompts()[0]
    assert p.info["card"] == "put-to-the-sword"
    return g.act(p.house, "none")


def test_M_DECK4_02_when_no_token_can_move_nobody_is_asked_and_the_card_ends() -> None:
    """Decided: a player who cannot move is not asked; as every player may move every token, nobody else can either:
    the card ends at once (``deck4-nothing``). Here both banner tokens fall in areas Targaryen controls and are
    collected at once; the only token left lies on Pyke, an island."""
    g = before_card(
        SCATTERING, loyalty_tokens={"pyke": 1}, power_tokens={"karhold": "targaryen", "oldtown": "targaryen"}
    )
    events = resolve_put_to_the_sword(g)
    types = [e["type"] for e in events]
    assert types.count("loyalty-collected") == 2 and "loyalty-moved" not in types
    assert event(events, "deck4-nothing") == {"type": "deck4-nothing", "card": SCATTERING, "house": "targaryen"}
    assert open_kind(g) is None and g.prompts()[0].kind == "orders"
    assert tokens(g) == {"pyke": 1} and g.s.targaryen["loyalty"] == 2


# ----- the undo -----


@pytest.mark.parametrize(("card", "cost"), [(SCATTERING, 1), (WORD, 2)])
def test_M_DECK4_02_M_TARG_17_targaryen_pays_the_cards_price_to_undo_a_move(card: str, cost: int) -> None:
    """M-D4CARD-20, M-D4CARD-21, M-TARG-17: right after another player's move, Targaryen may discard 1 Power
    (Scattering Dissent) or 2 (Word Spreads Quickly) to the pool to undo it: the token goes back where it came
    from; then the next player moves."""
    g = at_card(card, loyalty_tokens={"winterfell": 1, "karhold": 1}, power={"targaryen": 5})
    mover = "arryn" if card == SCATTERING else "baratheon"
    if card == SCATTERING:
        g.act("targaryen", {"from": "oldtown", "to": "three-towers"})
        assert prompt(g, "arryn").kind == MOVE  # its own move is never offered for undoing
    pool, before = g.s.houses["targaryen"].power, tokens(g)
    g.act(mover, {"from": "karhold", "to": "winterfell"})
    assert tokens(g)["winterfell"] == 2 and tokens(g).get("karhold", 0) == before["karhold"] - 1
    p = prompt(g, "targaryen")
    assert p.kind == UNDO and p.choices == ["undo", "keep"] and p.default == "keep"
    assert p.info == {
        "card": card,
        "cost": cost,
        "mover": mover,
        "origin": "karhold",
        "to": "winterfell",
        "tokens": tokens(g),
    }
    events = g.act("targaryen", "undo")
    assert event(events, "power-spent") == {"type": "power-spent", "house": "targaryen", "power": cost, "card": card}
    assert event(events, "loyalty-move-undone") == {
        "type": "loyalty-move-undone",
        "house": "targaryen",
        "card": card,
        "origin": "karhold",
        "to": "winterfell",
    }
    assert g.s.houses["targaryen"].power == pool - cost
    assert tokens(g) == before  # one token back to Karhold, the other stays in Winterfell
    assert open_kind(g) is not None and open_kind(g) != ("targaryen", UNDO)  # the next player's move


def test_M_DECK4_02_keeping_a_move_costs_nothing() -> None:
    """Answering "keep" (the default) pays nothing and leaves the token where the player put it."""
    g = at_card(WORD, power={"targaryen": 5})
    g.act("baratheon", {"from": "crackclaw-point", "to": "harrenhal"})
    events = g.act("targaryen", prompt(g, "targaryen").default)
    assert event(events, "deck4-declined") == {"type": "deck4-declined", "card": WORD, "house": "targaryen"}
    assert g.s.houses["targaryen"].power == 5 and tokens(g) == {"harrenhal": 1, "three-towers": 1}
    assert prompt(g, "lannister").kind == MOVE


def test_M_GIFT_01_an_undo_paid_with_power_given_away_meanwhile_is_refused() -> None:
    """Targaryen was asked with 2 Power, then gave one away (M-GIFT-01): undoing now is refused and changes nothing;
    keeping the move is still accepted."""
    g = at_card(WORD, power={"targaryen": 2})
    g.act("baratheon", {"from": "crackclaw-point", "to": "harrenhal"})
    assert prompt(g, "targaryen").kind == UNDO
    g.gift("targaryen", "stark", 1)
    rejected(g, "targaryen", "undo", "deck4-power")
    g.act("targaryen", "keep")
    assert g.s.houses["targaryen"].power == 1 and tokens(g) == {"harrenhal": 1, "three-towers": 1}


def test_M_DECK4_02_targaryen_is_asked_to_undo_only_with_the_power_to_pay() -> None:
    """Decided: with less Power than the price, Targaryen is not asked: 1 Power undoes under Scattering Dissent but
    not under Word Spreads Quickly."""
    g = at_card(WORD, power={"targaryen": 1})
    met = play_card(g)
    assert ("targaryen", UNDO) not in met and len(met) == 8
    g = at_card(SCATTERING, power={"targaryen": 1})
    g.act("targaryen", {"from": "oldtown", "to": "three-towers"})
    g.act("arryn", {"from": "three-towers", "to": "oldtown"})
    assert open_kind(g) == ("targaryen", UNDO)
    g.act("targaryen", "undo")
    assert g.s.houses["targaryen"].power == 0 and tokens(g) == {"karhold": 1, "three-towers": 1}
    met = play_card(g)  # no Power left: no more undo
    assert met == [(h, MOVE) for h in ["tyrell", "greyjoy", "martell", "stark", "lannister", "baratheon"]]


def test_M_DECK4_02_targaryens_own_move_is_never_offered_for_undoing() -> None:
    """Targaryen moves like every player (last in turn order, first in reverse), and its move is never followed by
    an undo decision, whatever its Power; every other player's is."""
    g = at_card(WORD, power={"targaryen": 20})
    met = play_card(g)
    assert met == [d for h in EIGHT[:-1] for d in ((h, MOVE), ("targaryen", UNDO))] + [("targaryen", MOVE)]
    g = at_card(SCATTERING, power={"targaryen": 20})
    met = play_card(g)
    assert met[:2] == [("targaryen", MOVE), ("arryn", MOVE)] and met.count(("targaryen", MOVE)) == 1


def test_M_DECK4_02_an_undo_answer_must_be_undo_or_keep() -> None:
    g = at_card(WORD, power={"targaryen": 5})
    g.act("baratheon", {"from": "crackclaw-point", "to": "harrenhal"})
    for answer in ("maybe", None, True, {"undo": True}):
        rejected(g, "targaryen", answer)
    rejected(g, "lannister", {"from": "harrenhal", "to": "riverrun"}, "not-your-turn")


# ----- collection between moves -----


def test_M_TARG_05_a_token_moved_into_an_area_targaryen_controls_is_collected_before_the_next_move() -> None:
    """M-TARG-05: Targaryen moves the Karhold token into Castle Black, which it controls (a Power token): it is
    collected at once, a loyalty point, before the next player is asked, whose choices no longer hold it."""
    g = at_card(SCATTERING, power_tokens={"castle-black": "targaryen"}, power={"targaryen": 5})
    p = prompt(g, "targaryen")
    assert p.default == {"from": "karhold", "to": "castle-black"}  # Targaryen's default collects when it can
    events = g.act("targaryen", p.default)
    types = [e["type"] for e in events]
    assert types.index("loyalty-moved") < types.index("loyalty-collected")
    assert event(events, "loyalty-collected") == {
        "type": "loyalty-collected",
        "house": "targaryen",
        "area": "castle-black",
        "tokens": 1,
        "points": 1,
    }
    assert g.s.targaryen["loyalty"] == 1 and tokens(g) == {"oldtown": 1}
    assert prompt(g, "arryn").choices == {"oldtown": ["dornish-marches", "highgarden", "three-towers"]}


def test_M_TARG_05_M_TARG_07_a_move_whose_token_was_collected_is_not_offered_for_undoing() -> None:
    """Decided: another player's move into an area Targaryen controls is collected at once (M-TARG-05) and its point
    is never lost (M-TARG-07), so Targaryen is not asked to undo it; the next player moves."""
    g = at_card(WORD, loyalty_tokens={"karhold": 1}, power_tokens={"castle-black": "targaryen"}, power={"targaryen": 5})
    default = prompt(g, "baratheon").default
    assert rules.controller(g.s, default["to"]) != "targaryen"  # the others' default keeps out of its areas
    events = g.act("baratheon", {"from": "karhold", "to": "castle-black"})
    assert event(events, "loyalty-collected")["area"] == "castle-black"
    assert g.s.targaryen["loyalty"] == 1 and "karhold" not in tokens(g)
    assert open_kind(g) == ("lannister", MOVE) and g.s.houses["targaryen"].power == 5


def test_M_TARG_05_when_the_last_movable_token_is_collected_the_card_ends() -> None:
    """Oldtown's banner token is collected as it is placed; Targaryen moves Karhold's into Castle Black and collects
    it: no token is left, so Arryn, next, cannot move and the card ends there."""
    g = before_card(SCATTERING, power_tokens={"castle-black": "targaryen", "oldtown": "targaryen"})
    resolve_put_to_the_sword(g)
    assert g.s.targaryen["loyalty"] == 1 and tokens(g) == {"karhold": 1}
    events = g.act("targaryen", {"from": "karhold", "to": "castle-black"})
    assert event(events, "deck4-nothing") == {"type": "deck4-nothing", "card": SCATTERING, "house": "arryn"}
    assert g.s.targaryen["loyalty"] == 2 and tokens(g) == {}
    assert open_kind(g) is None and g.prompts()[0].kind == "orders"


def test_M_TARG_06_a_collected_move_can_win_the_game_in_the_middle_of_the_card() -> None:
    """M-TARG-06: the collection that brings Targaryen to seven points (five loyalty points and Pentos's) wins at
    once; nobody moves after it."""
    g = at_card(SCATTERING, loyalty=5, power_tokens={"castle-black": "targaryen"})
    events = g.act("targaryen", {"from": "karhold", "to": "castle-black"})
    assert event(events, "game-over")["winner"] == "targaryen" and g.finished
    assert g.prompts() == []


# ----- defaults, saving -----


def test_M_DECK4_02_every_default_is_accepted_and_a_game_saved_mid_card_resumes_the_same() -> None:
    """Each decision's default is legal (a deadline moves the card on); a game saved between two decisions of the
    card loads equal and goes on the same way."""
    g = at_card(WORD, loyalty_tokens={"winterfell": 2, "riverrun": 1}, power={"targaryen": 7})
    g.act("baratheon", prompt(g, "baratheon").default)
    copy = Game.from_json(g.to_json())
    assert copy == g and copy.prompts() == g.prompts()
    met = play_card(g)
    assert play_card(copy) == met and copy == g
    assert len([d for d in met if d[1] == MOVE]) == 7
