"""Targaryen's loyalty tokens and Westeros deck IV (issue Y): setup, the fourth deck, placing, collecting, the
seven-point win, and the cards whose text only chooses areas. The other deck IV cards are proven in
tests/engine_mod/test_deck4_players.py and tests/engine_mod/test_deck4_moves.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, data, new_game, rules
from engine.steps.loyalty import reserve

from ..engine_action.helpers import event, march, prompt, rejected

MOD = {"ruleset": "mother-of-dragons"}
QUIET = ["last-days-of-summer", "last-days-of-summer", "rains-of-autumn"]  # decks I-III: nothing that asks


def deck4(card: str, **spec: Any) -> Game:
    """Round 2's Westeros phase of an 8-player game, at deck IV's card (decks I-III resolved)."""
    return Game.from_scenario(
        {"players": 8, "options": MOD, "round": 2, "start": {"westeros": 4, "card": card}, **spec}
    )


def essos(**spec: Any) -> Game:
    return Game.from_scenario({"players": 8, "options": MOD, "round": 10, "garrisons": {}, "neutral": {}, **spec})


def tokens(g: Game) -> dict[str, int]:
    held: dict[str, int] = g.view(None)["targaryen"]["loyalty_tokens"]
    return held


def test_M_SETUP_20_M_SETUP_09_M_DECK4_04_one_token_in_kings_landing_and_a_fourth_deck() -> None:
    """M-SETUP-20, M-SETUP-09, M-DECK4-04, M-SETUP-05: with Targaryen one loyalty token starts in King's Landing
    (19 in the reserve) and deck IV (ten cards, one each, no wildling icon) lies beside deck III, shuffled; without
    Targaryen neither exists."""
    g = new_game(8, seed=3, options=MOD)
    assert tokens(g) == {"kings-landing": 1} and g.view(None)["targaryen"]["loyalty_reserve"] == 19
    assert len(g.s.westeros_decks) == 4
    fourth = g.s.westeros_decks[3]
    cards = list(data.westeros_deck4().values())
    assert sorted(fourth) == sorted(c["id"] for c in cards) and len(fourth) == 10
    assert all(c["icons"] == 0 and c["copies"] == 1 for c in cards)
    assert fourth != sorted(fourth) and new_game(8, seed=4, options=MOD).s.westeros_decks[3] != fourth
    seven = new_game(7, seed=3, options=MOD)
    assert len(seven.s.westeros_decks) == 3 and "targaryen" not in seven.view(None)


def test_M_DECK4_01_deck_four_is_revealed_with_the_others_and_resolved_after_them() -> None:
    """M-DECK4-01, M-DECK4-02, M-TARG-03: the Westeros phase reveals four cards; decks I-III resolve, then deck IV:
    its banner's tokens first."""
    g = Game.from_scenario(
        {
            "players": 8,
            "options": MOD,
            "round": 2,
            "start": "westeros",
            "westeros_decks": [[QUIET[0]], [QUIET[1]], [QUIET[2]], ["playing-with-fire"]],
        }
    )
    kinds = [e["type"] for e in g._events]
    revealed = event(g._events, "westeros-cards")
    assert revealed["cards"] == [*QUIET, "playing-with-fire"]
    decks = [e["deck"] for e in g._events if e["type"] == "westeros-card"]
    assert decks == [1, 2, 3, 4]
    assert kinds.index("loyalty-placed") > max(
        i for i, k in enumerate(kinds) if k == "westeros-card" and i < len(kinds)
    )
    placed = [e["area"] for e in g._events if e["type"] == "loyalty-placed"]
    assert placed == ["riverrun", "the-arbor"]
    assert tokens(g) == {"kings-landing": 1, "riverrun": 1, "the-arbor": 1}
    assert g.view(None)["westeros_cards"] == [*QUIET, "playing-with-fire"]


def test_M_DECK4_03_empty_promises_the_rulebooks_example() -> None:
    """M-DECK4-03, M-DECK4-02, M-TARG-17: Empty Promises puts a token on The Stony Shore, then Targaryen may pay 1
    Power for one on The Mountains of the Moon or Moat Cailin; the Power goes to the pool."""
    g = deck4("empty-promises", power={"targaryen": 3})
    assert tokens(g)["the-stony-shore"] == 1
    p = prompt(g, "targaryen")
    assert p.kind == "loyalty-areas" and p.choices["areas"] == ["the-mountains-of-the-moon", "moat-cailin"]
    assert (p.choices["count"], p.choices["cost"], p.choices["optional"], p.default) == (1, 1, True, [])
    pool = rules.power_in_pool(g.s, "targaryen")
    events = g.act("targaryen", ["moat-cailin"])
    assert event(events, "power-spent")["power"] == 1 and g.s.houses["targaryen"].power == 2
    assert rules.power_in_pool(g.s, "targaryen") == pool + 1
    assert tokens(g)["moat-cailin"] == 1


def test_a_deck_four_choice_refused_changes_nothing_and_declining_pays_nothing() -> None:
    g = deck4("southron-ambitions", power={"targaryen": 3})
    rejected(g, "targaryen", ["winterfell"], "loyalty-area")
    rejected(g, "targaryen", ["blackwater", "the-boneway"], "loyalty-count")
    rejected(g, "targaryen", ["blackwater", "blackwater"], "loyalty-area")
    rejected(g, "targaryen", "blackwater", "bad-answer")
    events = g.act("targaryen", [])
    assert event(events, "deck4-declined")["card"] == "southron-ambitions" and g.s.houses["targaryen"].power == 3
    assert tokens(g) == {"kings-landing": 1, "searoad-marches": 1, "dornish-marches": 1}


def test_M_TARG_17_no_power_no_choice() -> None:
    """M-TARG-17: a text Targaryen cannot pay for asks nothing: the banner's token only."""
    g = deck4("strongholds-of-resistance", power={"targaryen": 0})
    assert all(p.kind != "loyalty-areas" for p in g.prompts())
    assert tokens(g) == {"kings-landing": 1, "seagard": 1}


def test_domestic_disputes_puts_tokens_on_up_to_four_other_homes() -> None:
    """Domestic Disputes (M-DECK4-02): after Storm's End's token, 1 Power for a token on the home areas of up to four
    other houses."""
    g = deck4("domestic-disputes", power={"targaryen": 2})
    assert tokens(g)["storms-end"] == 1
    p = prompt(g, "targaryen")
    homes = {rules.home(g.s, h) for h in g.s.players if h != "targaryen"}
    assert set(p.choices["areas"]) == homes and p.choices["count"] == 4 and p.choices["cost"] == 1
    rejected(g, "targaryen", sorted(homes)[:5], "loyalty-count")
    g.act("targaryen", ["winterfell", "lannisport", "pyke"])
    assert g.s.houses["targaryen"].power == 1
    assert {a: n for a, n in tokens(g).items() if a in homes} == {"winterfell": 1, "lannisport": 1, "pyke": 1}


def test_watering_the_seed_costs_the_victory_position_for_two_river_lands() -> None:
    """Watering the Seed: no banner; as much Power as Targaryen's Victory position (1: Pentos) for a token on each
    of two different lands beside a river that it does not control: both or none."""
    g = deck4("watering-the-seed", power={"targaryen": 4}, loyalty=2)
    p = prompt(g, "targaryen")
    assert p.choices["cost"] == 3 and p.choices["count"] == 2 and p.choices["exact"]
    assert "riverrun" in p.choices["areas"] and "pentos" not in p.choices["areas"]
    rejected(g, "targaryen", ["riverrun"], "loyalty-count")
    g.act("targaryen", ["riverrun", "harrenhal"])
    assert g.s.houses["targaryen"].power == 1
    assert tokens(g) == {"kings-landing": 1, "riverrun": 1, "harrenhal": 1}


def test_M_TARG_04_tokens_do_not_decide_control_and_share_areas_with_anything() -> None:
    """M-TARG-04: a loyalty token gives nobody control, lies beside any units, and an army walks in without a fight."""
    g = essos(
        units={"the-reach": "stark footman", "highgarden": "tyrell footman", "pentos": "targaryen footman"},
        orders={"highgarden": "march0"},
        loyalty_tokens={"the-reach": 2, "dornish-marches": 1},
        start="march",
    )
    assert rules.controller(g.s, "the-reach") == "stark" and rules.controller(g.s, "dornish-marches") is None
    events = march(g, "tyrell", "highgarden", {"dornish-marches": ["footman"]})
    assert all(e["type"] != "combat-started" for e in events)
    assert tokens(g) == {"the-reach": 2, "dornish-marches": 1}


def test_M_TARG_05_M_TARG_07_targaryen_collects_the_tokens_of_an_area_it_takes_for_good() -> None:
    """M-TARG-05, M-TARG-07: a dragon flies into an empty land holding two tokens: Targaryen collects both at once
    (two points, two tokens back in the reserve); leaving it later loses nothing."""
    g = essos(
        units={"the-rhoyne": "targaryen dragon", "pentos": "targaryen footman", "myr": "targaryen knight"},
        orders={"the-rhoyne": "march0", "myr": "march-1"},
        loyalty_tokens={"the-reach": 2},
        start="march",
    )
    before = reserve(g.s)
    events = march(g, "targaryen", "the-rhoyne", {"the-reach": ["dragon"]})
    collected = event(events, "loyalty-collected")
    assert (collected["area"], collected["tokens"], collected["points"]) == ("the-reach", 2, 2)
    assert reserve(g.s) == before + 2 and tokens(g) == {}
    assert rules.victory_points(g.s)["targaryen"] == 3  # two tokens and Pentos
    march(g, "targaryen", "myr", {"the-disputed-lands": ["knight"]})
    assert g.s.targaryen["loyalty"] == 2


def test_M_TARG_05_tokens_in_a_land_of_targaryens_vassal_are_not_collected() -> None:
    """M-TARG-05 (003:383): Targaryen collects the tokens of the areas it controls itself, not those of its vassal.
    Tyrell, Targaryen's vassal, holds Highgarden (two tokens) and marches into Oldtown (one token): none of them is
    collected; Targaryen's dragon then takes the Reach and collects its token, and only that one."""
    g = Game.from_scenario(
        {
            "players": ["stark", "lannister", "baratheon", "targaryen"],
            "options": MOD,
            "round": 10,
            "garrisons": {},
            "neutral": {},
            "vassals": {"tyrell": "targaryen", "greyjoy": "stark", "martell": "lannister", "arryn": "baratheon"},
            "units": {
                "the-rhoyne": "targaryen dragon",
                "pentos": "targaryen footman",
                "highgarden": "tyrell footman footman",
            },
            "orders": {"the-rhoyne": "march0", "highgarden": "vassal-march0"},
            "loyalty_tokens": {"highgarden": 2, "oldtown": 1, "the-reach": 1},
            "start": "march",
        }
    )
    assert tokens(g) == {"highgarden": 2, "oldtown": 1, "the-reach": 1}  # Tyrell's Highgarden: nothing collected
    events = march(g, "tyrell", "highgarden", {"oldtown": ["footman"]})  # Tyrell marches first (Iron Throne)
    assert rules.controller(g.s, "oldtown") == "tyrell" and g.s.vassals["tyrell"] == "targaryen"
    assert not [e for e in events if e["type"] == "loyalty-collected"]
    assert tokens(g) == {"highgarden": 2, "oldtown": 1, "the-reach": 1} and g.s.targaryen["loyalty"] == 0
    events = march(g, "targaryen", "the-rhoyne", {"the-reach": ["dragon"]})
    assert [e["area"] for e in events if e["type"] == "loyalty-collected"] == ["the-reach"]
    assert tokens(g) == {"highgarden": 2, "oldtown": 1} and g.s.targaryen["loyalty"] == 1


def test_M_TARG_06_seven_loyalty_points_win_at_once() -> None:
    """M-TARG-06: five points and Pentos make six; collecting one more wins the game there and then."""
    g = essos(
        units={"the-rhoyne": "targaryen dragon", "pentos": "targaryen footman", "myr": "targaryen knight"},
        orders={"the-rhoyne": "march0", "myr": "march-1"},
        loyalty=5,
        loyalty_tokens={"the-reach": 1},
        start="march",
    )
    events = march(g, "targaryen", "the-rhoyne", {"the-reach": ["dragon"]})
    over = event(events, "game-over")
    assert (over["winner"], over["reason"]) == ("targaryen", "seven-loyalty") and g.finished


def test_a_token_placed_where_targaryen_rules_is_collected_at_once() -> None:
    """Decided (M-TARG-05 says "whenever"): a card's token in an area Targaryen already controls is collected right
    after that step."""
    g = deck4(
        "empty-promises",
        power={"targaryen": 1},
        units={"moat-cailin": "targaryen footman", "pentos": "targaryen footman"},
    )
    events = g.act("targaryen", ["moat-cailin"])
    assert event(events, "loyalty-placed")["area"] == "moat-cailin"
    assert event(events, "loyalty-collected")["area"] == "moat-cailin" and g.s.targaryen["loyalty"] == 1
    assert "moat-cailin" not in tokens(g)


def test_an_empty_reserve_places_nothing() -> None:
    """Decided: the box holds twenty tokens; with all of them on the board a card's token is not placed, and a text
    that would only place tokens asks nothing."""
    g = deck4("strongholds-of-resistance", power={"targaryen": 5}, loyalty_tokens={"winterfell": 20})
    assert [e["area"] for e in g._events if e["type"] == "loyalty-reserve-empty"] == ["seagard"]
    assert "seagard" not in tokens(g) and all(p.kind != "loyalty-areas" for p in g.prompts())
    assert any(e["type"] == "deck4-nothing" for e in g._events)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_loyalty_form_shows_the_card_the_price_and_the_tokens(lang: str) -> None:
    """The form of a deck IV choice: the card and its text, the price and the Power left, the tokens on the board;
    menus of at most 25 areas; never an id."""
    from app.decisions import answer_text, build_form, to_answer
    from app.labels import area_label, westeros_name

    g = deck4("domestic-disputes", power={"targaryen": 2})
    p = prompt(g, "targaryen")
    form = build_form(p, g.view("targaryen"), lang)
    text = "\n".join([form.title, form.ask, *form.lines, *(f.label for f in form.fields)])
    assert westeros_name("domestic-disputes", lang) in text and area_label("storms-end", lang) in text
    assert "domestic-disputes" not in text and "storms-end" not in text
    assert all(len(f.options) <= 25 for f in form.fields)
    picks = {f.key: list(f.selected) for f in form.fields}
    assert to_answer(p, picks) == []
    picks[form.fields[0].key] = [form.fields[0].options[0].value]
    answer = to_answer(p, picks)
    assert answer_text(p.kind, answer, lang, prompt=p) == area_label(answer[0], lang)
    g.act("targaryen", answer)
