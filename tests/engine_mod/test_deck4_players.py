"""Three deck IV cards (Mother of Dragons, issue Y; engine/steps/deck4_players.py): Fire Made Flesh (M-D4CARD-01),
Playing With Fire (M-D4CARD-02) and The Long Plan (M-D4CARD-03), each resolved as the Westeros phase of round 2 (or
10) reaches it in an eight-player game: its banner's loyalty tokens first (M-DECK4-02), then its text. Every decision
taken where a text is open has its test; every refusal leaves the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine import Game, invariants, rules
from engine.coverage import CHECKLISTS, PROJECT_IDS_MOD, build_report
from engine.invariants import InvariantError
from engine.steps.loyalty import reserve, tokens_on_board, westeros_lands

from ..engine_action.helpers import event, prompt, rejected

MOD = {"ruleset": "mother-of-dragons"}
T = "targaryen"


def setup_units() -> dict[str, str]:
    """The eight-player setup's units, as a scenario writes them (to change a few areas)."""
    g = Game.from_scenario({"players": 8, "options": MOD, "round": 2})
    return {a: " ".join([us[0].house, *(u.type for u in us)]) for a, us in g.state.units.items()}


def at_card(card: str, *, units: Mapping[str, str | None] | None = None, round_: int = 2, **spec: Any) -> Game:
    """Round ``round_``'s Westeros phase at deck IV's ``card``: the setup's units with ``units`` changed (None
    empties an area), and any other scenario keys."""
    board = setup_units()
    for area, words in (units or {}).items():
        if words is None:
            board.pop(area, None)
        else:
            board[area] = words
    return Game.from_scenario(
        {
            "players": 8,
            "options": MOD,
            "round": round_,
            "units": board,
            "start": {"westeros": 4, "card": card},
            **spec,
        }
    )


def dragons_in(g: Game) -> dict[str, int]:
    counts: dict[str, int] = {}
    for area, us in g.state.units.items():
        for u in us:
            if u.type == "dragon":
                counts[area] = counts.get(area, 0) + 1
    return counts


def at_planning(g: Game) -> bool:
    """The card asked nothing: the game went on to the Planning phase."""
    return {p.kind for p in g.prompts()} == {"orders"}


def checked_act(g: Game, house: str, answer: Any) -> list[dict[str, Any]]:
    """``act`` with the simulations' dragon invariant checked across it (engine/invariants.py)."""
    before = invariants.dragons(g)
    events = g.act(house, answer)
    invariants.check(g)
    invariants.check_dragons(before, g, events)
    return events


# ===== Fire Made Flesh (M-D4CARD-01) =====


def test_M_DECK4_02_M_D4CARD_01_fire_made_flesh_places_its_banner_token_then_offers_each_dragon_and_token() -> None:
    g = at_card("fire-made-flesh")
    assert tokens_on_board(g.state)["the-reach"] == 1  # the banner first
    p = prompt(g, T)
    assert p.kind == "fire-made-flesh"
    assert p.info["dragon_strength"] == 1 and p.info["dragon_rounds"] == [4, 6, 8, 10]
    expected = [{"option": "destroy", "area": a, "round": r} for a in ("norvos", "the-rhoyne") for r in (4, 6, 8, 10)]
    assert p.choices == [*expected, {"option": "nothing"}]  # all three dragons stand: nothing to bring back
    assert p.default == {"option": "nothing"}


def test_M_D4CARD_01_M_TARG_13_a_destroyed_dragon_moves_the_chosen_token_onto_the_dragon_track_at_once() -> None:
    g = at_card("fire-made-flesh")
    events = checked_act(g, T, {"option": "destroy", "area": "the-rhoyne", "round": 8})
    assert event(events, "units-destroyed") == {
        "type": "units-destroyed",
        "area": "the-rhoyne",
        "house": T,
        "units": ["dragon"],
        "reason": "fire-made-flesh",
    }
    assert event(events, "dragon-token-moved")["round"] == 8
    assert g.state.targaryen["dragon_strength"] == 2  # every dragon +1 now
    assert g.state.targaryen["dragon_rounds"] == [4, 6, 10]  # round 8's space is empty
    assert dragons_in(g) == {"norvos": 1, "the-rhoyne": 1}


def test_M_D4CARD_01_M_TARG_13_the_round_whose_token_moved_early_adds_nothing_when_it_starts() -> None:
    """Round 4's token moves in round 2; round 4 then starts without a dragon-strength event, and round 6 adds one."""
    g = at_card("fire-made-flesh")
    g.act(T, {"option": "destroy", "area": "norvos", "round": 4})
    grown: list[dict[str, Any]] = []
    while g.state.round < 6:
        p = next(p for p in g.prompts() if not p.answered)
        grown += [e for e in g.act(p.house, p.default) if e["type"] == "dragon-strength"]
    assert [e["round"] for e in grown] == [6]
    assert g.state.targaryen["dragon_strength"] == 3 and g.state.targaryen["dragon_rounds"] == [8, 10]


def test_M_TARG_10_M_D4CARD_01_fire_made_flesh_puts_a_destroyed_dragon_back_into_pentos() -> None:
    g = at_card("fire-made-flesh", units={"the-rhoyne": "targaryen dragon"})  # one dragon was destroyed
    p = prompt(g, T)
    assert {"option": "revive", "area": "pentos"} in p.choices and p.info["dragons_destroyed"] == 1
    events = checked_act(g, T, {"option": "revive", "area": "pentos"})
    assert event(events, "unit-placed") == {
        "type": "unit-placed",
        "house": T,
        "area": "pentos",
        "unit": "dragon",
        "card": "fire-made-flesh",
    }
    assert dragons_in(g) == {"norvos": 1, "the-rhoyne": 1, "pentos": 1}
    assert g.state.targaryen["dragon_strength"] == 1  # the track is untouched


def test_M_TARG_10_M_D4CARD_01_no_dragon_comes_back_to_a_pentos_targaryen_does_not_control() -> None:
    garrisons = {a: n for a, n in Game.from_scenario({"players": 8, "options": MOD}).state.garrisons.items()}
    del garrisons["pentos"]  # Martell took it
    g = at_card(
        "fire-made-flesh",
        units={"the-rhoyne": "targaryen dragon", "pentos": "martell footman", "port-of-pentos": None},
        garrisons=garrisons,
    )
    assert rules.controller(g.state, "pentos") == "martell"
    p = prompt(g, T)
    assert all(c["option"] != "revive" for c in p.choices)
    rejected(g, T, {"option": "revive", "area": "pentos"}, "illegal-choice")


def test_M_TARG_11_M_D4CARD_01_no_dragon_comes_back_where_it_would_break_targaryens_supply() -> None:
    """Decided: a revived dragon obeys supply as every unit (M-TARG-11); the base game never puts a unit where it
    breaks supply, so the revival is not offered when Pentos's army could not grow."""
    crowded = {"the-rhoyne": "targaryen dragon", "pentos": "targaryen knight footman", "myr": "targaryen knight knight"}
    crowded["bay-of-pentos"] = "targaryen ship"
    g = at_card("fire-made-flesh", units=crowded, supply={T: 0})  # level 0: two armies of 2
    assert all(c["option"] != "revive" for c in prompt(g, T).choices)
    rejected(g, T, {"option": "revive", "area": "pentos"}, "illegal-choice")
    roomy = at_card("fire-made-flesh", units=crowded, supply={T: 1})  # level 1: 3 and 2
    assert {"option": "revive", "area": "pentos"} in prompt(roomy, T).choices


def test_M_D4CARD_01_in_round_ten_no_token_is_left_so_no_dragon_is_destroyed() -> None:
    """Decided: (a) needs a token still on the round track; a dragon is never destroyed for nothing."""
    g = at_card("fire-made-flesh", units={"the-rhoyne": "targaryen dragon"}, round_=10)
    assert prompt(g, T).choices == [{"option": "revive", "area": "pentos"}, {"option": "nothing"}]
    rejected(g, T, {"option": "destroy", "area": "norvos", "round": 10}, "illegal-choice")


def test_M_D4CARD_01_with_nothing_but_nothing_to_choose_nobody_is_asked() -> None:
    g = at_card("fire-made-flesh", round_=10)  # three dragons, no token left
    assert at_planning(g)
    assert not at_planning(at_card("fire-made-flesh", units={"the-rhoyne": "targaryen dragon"}, round_=10))
    assert g.state.targaryen["dragon_strength"] == 5 and dragons_in(g) == {"norvos": 1, "the-rhoyne": 2}


def test_M_D4CARD_01_nothing_changes_nothing() -> None:
    g = at_card("fire-made-flesh")
    before = (dict(dragons_in(g)), dict(g.state.targaryen))
    events = checked_act(g, T, {"option": "nothing"})
    assert event(events, "deck4-declined")["card"] == "fire-made-flesh"
    assert (dragons_in(g), g.state.targaryen) == before


@pytest.mark.parametrize(
    "answer",
    [
        "nothing",
        None,
        {"option": "destroy", "area": "norvos"},  # no round
        {"option": "destroy", "area": "norvos", "round": 2},  # its token moved as round 2 began
        {"option": "destroy", "area": "myr", "round": 4},  # no dragon there
        {"option": "revive", "area": "pentos"},  # every dragon stands
        {"option": "burn"},
    ],
)
def test_M_D4CARD_01_an_illegal_answer_changes_nothing(answer: Any) -> None:
    g = at_card("fire-made-flesh")
    assert prompt(g, T).kind == "fire-made-flesh"
    rejected(g, T, answer)


def test_M_D4CARD_01_a_dragon_alone_in_a_land_takes_the_ships_of_its_port_with_it() -> None:
    """Destroying the only unit of a land leaves it to nobody: Targaryen's ships in its port go (B-PORT-10)."""
    g = at_card(
        "fire-made-flesh", units={"norvos": None, "oldtown": "targaryen dragon", "port-of-oldtown": "targaryen ship"}
    )
    events = checked_act(g, T, {"option": "destroy", "area": "oldtown", "round": 10})
    lost = [e for e in events if e["type"] == "units-destroyed" and e["reason"] == "port-lost"]
    assert lost == [
        {"type": "units-destroyed", "area": "port-of-oldtown", "house": T, "units": ["ship"], "reason": "port-lost"}
    ]


def test_M_TARG_10_M_TARG_13_the_dragon_invariant_lets_only_fire_made_flesh_revive_a_dragon_or_move_a_token() -> None:
    """engine/invariants.py's ``check_dragons`` accepts the card's events, and refuses the same change without them."""
    g = at_card("fire-made-flesh", units={"the-rhoyne": "targaryen dragon"})
    before = invariants.dragons(g)
    events = g.act(T, {"option": "revive", "area": "pentos"})
    invariants.check_dragons(before, g, events)
    with pytest.raises(InvariantError):
        invariants.check_dragons(before, g, [e for e in events if e["type"] != "unit-placed"])
    with pytest.raises(InvariantError):
        invariants.check_dragons(before, g, [{**e, "card": "empty-promises"} for e in events])

    g = at_card("fire-made-flesh")
    before = invariants.dragons(g)
    events = g.act(T, {"option": "destroy", "area": "norvos", "round": 6})
    invariants.check_dragons(before, g, events)
    with pytest.raises(InvariantError):  # a token moved early without the dragon the card destroys
        invariants.check_dragons(before, g, [e for e in events if e["type"] != "units-destroyed"])
    with pytest.raises(InvariantError):  # the track rose without any event
        invariants.check_dragons(before, g, [e for e in events if e["type"] != "dragon-token-moved"])


# ===== Playing With Fire (M-D4CARD-02) =====


def test_M_DECK4_02_M_D4CARD_02_playing_with_fire_offers_the_lands_nobody_controls_and_the_other_players() -> None:
    g = at_card("playing-with-fire", units={"moat-cailin": "stark footman"}, power_tokens={"seagard": "greyjoy"})
    s = g.state
    assert tokens_on_board(s)["riverrun"] == 1 and tokens_on_board(s)["the-arbor"] == 1  # the banner first
    p = prompt(g, T)
    assert p.kind == "playing-with-fire" and p.default is None and p.choices["cost"] == 1
    areas = p.choices["areas"]
    assert areas == [a for a in westeros_lands(s) if rules.controller(s, a) is None and a != "kings-landing"]
    assert "riverrun" in areas  # a loyalty token decides no control
    for held in ("moat-cailin", "seagard", "winterfell", "kings-landing", "pentos"):
        assert held not in areas  # units, a Power token, a home, a neutral force, Essos
    assert p.choices["houses"] == ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
    assert p.info["units"]["stark"] == ["footman", "siege-engine", "knight"]  # weakest first


def test_M_D4CARD_02_a_loyalty_token_and_the_picked_players_unit_of_his_choice_go_into_the_land() -> None:
    g = at_card("playing-with-fire")
    events = checked_act(g, T, {"area": "harrenhal", "house": "stark"})
    assert event(events, "power-spent")["power"] == 1 and g.state.houses[T].power == 6
    assert event(events, "deck4-player-picked")["player"] == "stark"
    assert tokens_on_board(g.state)["harrenhal"] == 1
    p = prompt(g, "stark")
    assert p.kind == "loyalty-unit" and p.choices == ["footman", "siege-engine", "knight"]
    assert p.info["area"] == "harrenhal" and p.default == "footman"
    events = checked_act(g, "stark", "knight")
    assert event(events, "unit-placed") == {
        "type": "unit-placed",
        "house": "stark",
        "area": "harrenhal",
        "unit": "knight",
        "card": "playing-with-fire",
    }
    assert [u.type for u in g.state.units["harrenhal"]] == ["knight"]
    assert rules.controller(g.state, "harrenhal") == "stark"
    assert tokens_on_board(g.state)["harrenhal"] == 1 and g.state.targaryen["loyalty"] == 0  # not Targaryen's


def test_M_D4CARD_02_a_player_with_one_unit_type_left_is_not_asked() -> None:
    """Stark has every knight and siege engine on the board: only a footman can go, without a question."""
    stark = {"winterfell": "stark knight knight", "white-harbor": "stark knight knight", "karhold": "stark knight"}
    stark |= {"castle-black": "stark siege-engine", "widows-watch": "stark siege-engine"}
    g = at_card("playing-with-fire", units=stark)
    assert prompt(g, T).info["units"]["stark"] == ["footman"]
    events = checked_act(g, T, {"area": "harrenhal", "house": "stark"})
    assert event(events, "unit-placed")["unit"] == "footman" and at_planning(g)


def test_M_D4CARD_02_a_player_without_a_land_unit_in_reserve_cannot_be_picked() -> None:
    """Decided: the text has the player put a unit; one with none left in his reserve is not offered."""
    stark = {"winterfell": "stark knight knight footman footman", "white-harbor": "stark knight knight footman"}
    stark |= {"karhold": "stark knight footman", "castle-black": "stark siege-engine footman"}
    stark |= {"widows-watch": "stark siege-engine footman"}
    stark |= {a: "stark footman" for a in ("the-stony-shore", "moat-cailin", "greywater-watch", "flints-finger")}
    g = at_card("playing-with-fire", units=stark, supply={"stark": 6})  # every figure on the board
    assert "stark" not in prompt(g, T).choices["houses"]
    rejected(g, T, {"area": "harrenhal", "house": "stark"}, "illegal-choice")


def test_M_D4CARD_02_B_SUPPLY_02_the_lone_unit_never_breaks_supply() -> None:
    """Decided: the land is empty, so the unit stands alone, and a lone unit is no army: a house whose armies fill
    its lowest supply level still takes it."""
    g = at_card(
        "playing-with-fire",
        units={"winterfell": "stark knight footman", "white-harbor": "stark footman footman"},
        supply={"stark": 0},
    )
    assert rules.army_sizes(g.state, "stark") == [2, 2]  # level 0 holds exactly two armies of 2
    g.act(T, {"area": "harrenhal", "house": "stark"})
    checked_act(g, "stark", "footman")
    assert rules.supply_ok(g.state, "stark") and rules.army_sizes(g.state, "stark") == [2, 2]


def test_M_D4CARD_02_B_ROUND_03_a_seventh_castle_so_placed_wins_at_once() -> None:
    castles = ["crackclaw-point", "flints-finger", "moat-cailin", "seagard", "starfall"]
    g = at_card("playing-with-fire", units={a: "lannister footman" for a in castles})
    assert rules.castles_controlled(g.state, "lannister") == 6
    g.act(T, {"area": "harrenhal", "house": "lannister"})
    events = g.act("lannister", "footman")
    assert event(events, "game-over") == {"type": "game-over", "winner": "lannister", "reason": "seven-castles"}
    assert g.finished


def test_M_D4CARD_02_declining_pays_nothing_and_places_nothing() -> None:
    g = at_card("playing-with-fire")
    tokens = dict(tokens_on_board(g.state))
    events = checked_act(g, T, None)
    assert event(events, "deck4-declined")["card"] == "playing-with-fire"
    assert g.state.houses[T].power == 7 and tokens_on_board(g.state) == tokens and at_planning(g)


@pytest.mark.parametrize(
    "answer",
    [
        {"area": "winterfell", "house": "stark"},  # Stark's home
        {"area": "kings-landing", "house": "stark"},  # its neutral force
        {"area": "pentos", "house": "stark"},  # Essos
        {"area": "harrenhal", "house": "targaryen"},  # no other player
        {"area": "harrenhal"},
        {"area": "harrenhal", "house": "stark", "unit": "knight"},
        "harrenhal",
    ],
)
def test_M_D4CARD_02_an_illegal_pick_changes_nothing(answer: Any) -> None:
    g = at_card("playing-with-fire")
    assert prompt(g, T).kind == "playing-with-fire"
    rejected(g, T, answer)


def test_M_D4CARD_02_the_picked_player_chooses_only_among_his_reserve() -> None:
    g = at_card("playing-with-fire")
    g.act(T, {"area": "harrenhal", "house": "stark"})
    for answer in ("ship", "dragon", None, ["knight"]):
        rejected(g, "stark", answer, None)


def test_M_GIFT_01_M_D4CARD_02_power_given_away_since_the_question_refuses_the_pick() -> None:
    g = at_card("playing-with-fire")
    g.gift(T, "stark", 7)
    rejected(g, T, {"area": "harrenhal", "house": "stark"}, "deck4-power")
    g.act(T, None)  # declining costs nothing
    assert at_planning(g)


def test_M_VASSAL_01_M_D4CARD_02_M_D4CARD_03_a_vassal_is_never_picked() -> None:
    houses = ["baratheon", "lannister", "stark", "martell", "greyjoy", "arryn", "targaryen"]  # Tyrell is a vassal
    for card, kind in (("playing-with-fire", "playing-with-fire"), ("the-long-plan", "loyalty-player")):
        g = Game.from_scenario({"players": houses, "options": MOD, "round": 2, "start": {"westeros": 4, "card": card}})
        assert "tyrell" in g.state.vassals
        p = prompt(g, T)
        assert p.kind == kind
        offered = p.choices["houses"] if kind == "playing-with-fire" else p.choices
        assert "tyrell" not in offered and "baratheon" in offered


def test_M_D4CARD_02_without_power_or_tokens_nothing_is_asked() -> None:
    poor = at_card("playing-with-fire", power={T: 0})
    assert at_planning(poor) and tokens_on_board(poor.state)["riverrun"] == 1  # the banner still
    spent = at_card("playing-with-fire", loyalty_tokens={"kings-landing": 9, "winterfell": 9})  # 18 + the banner's 2
    assert reserve(spent.state) == 0 and at_planning(spent) and spent.state.houses[T].power == 7
    assert not at_planning(at_card("playing-with-fire", power={T: 1}))  # one Power and a token are enough


# ===== The Long Plan (M-D4CARD-03) =====


def test_M_DECK4_02_M_D4CARD_03_the_long_plan_picks_a_player_who_places_two_tokens() -> None:
    g = at_card("the-long-plan")
    assert tokens_on_board(g.state)["castle-black"] == 1 and tokens_on_board(g.state)["yronwood"] == 1
    p = prompt(g, T)
    assert p.kind == "loyalty-player" and p.default is None
    assert p.choices == ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn", None]
    events = checked_act(g, T, "martell")
    assert event(events, "power-spent")["power"] == 1 and g.state.houses[T].power == 6
    assert event(events, "deck4-player-picked")["player"] == "martell"
    q = prompt(g, "martell")
    assert q.kind == "loyalty-areas"
    assert q.choices == {"areas": westeros_lands(g.state), "count": 2, "exact": True, "cost": 0, "optional": False}
    rejected(g, "martell", [], "loyalty-count")  # he must place them
    rejected(g, "martell", ["sunspear"], "loyalty-count")
    rejected(g, "martell", ["sunspear", "sunspear"], "loyalty-area")
    rejected(g, "martell", ["sunspear", "pentos"], "loyalty-area")  # Westeros only
    events = checked_act(g, "martell", ["sunspear", "the-eyrie"])
    placed = [(e["area"], e["house"]) for e in events if e["type"] == "loyalty-placed"]
    assert placed == [("sunspear", "martell"), ("the-eyrie", "martell")]
    assert g.state.houses["martell"].power == 7  # Targaryen paid


def test_M_D4CARD_03_with_one_token_left_the_player_places_that_one() -> None:
    g = at_card("the-long-plan", loyalty_tokens={"kings-landing": 9, "winterfell": 8})  # 17 + the banner's 2
    assert reserve(g.state) == 1
    g.act(T, "stark")
    assert prompt(g, "stark").choices["count"] == 1


def test_M_D4CARD_03_declining_pays_nothing_and_nothing_is_asked_without_power_or_tokens() -> None:
    g = at_card("the-long-plan")
    events = checked_act(g, T, None)
    assert event(events, "deck4-declined")["card"] == "the-long-plan" and g.state.houses[T].power == 7
    assert at_planning(g)
    assert at_planning(at_card("the-long-plan", power={T: 0}))
    assert at_planning(at_card("the-long-plan", loyalty_tokens={"kings-landing": 9, "winterfell": 9}))


@pytest.mark.parametrize("answer", ["targaryen", "tully", {"house": "stark"}, ["stark"]])
def test_M_D4CARD_03_an_illegal_pick_changes_nothing(answer: Any) -> None:
    g = at_card("the-long-plan")
    assert prompt(g, T).kind == "loyalty-player"
    rejected(g, T, answer)


def test_M_GIFT_01_M_D4CARD_03_power_given_away_since_the_question_refuses_the_pick() -> None:
    g = at_card("the-long-plan")
    g.gift(T, "stark", 7)
    rejected(g, T, "stark", "deck4-power")


def test_M_D4CARD_03_a_token_put_where_targaryen_rules_is_collected_at_once() -> None:
    g = at_card("the-long-plan", units={"riverrun": "targaryen footman"})
    g.act(T, "stark")
    events = g.act("stark", ["riverrun", "harrenhal"])
    assert event(events, "loyalty-collected")["area"] == "riverrun"
    assert g.state.targaryen["loyalty"] == 1 and "riverrun" not in tokens_on_board(g.state)


def test_every_deck4_player_prompt_default_is_accepted() -> None:
    """The defaults a deadline applies: Fire Made Flesh's nothing, the declines, the weakest unit."""
    for card in ("fire-made-flesh", "playing-with-fire", "the-long-plan"):
        g = at_card(card)
        p = prompt(g, T)
        g.act(T, p.default)
        assert at_planning(g)
    g = at_card("playing-with-fire")
    g.act(T, {"area": "harrenhal", "house": "stark"})
    p = prompt(g, "stark")
    g.act("stark", p.default)
    assert [u.type for u in g.state.units["harrenhal"]] == ["footman"]


def test_the_coverage_report_lists_the_three_cards_and_this_file_covers_them(tmp_path: Path) -> None:
    """M-D4CARD-01..03 join the Mother of Dragons report (engine/coverage.py), each named by tests here."""
    checklist = tmp_path / "checklist.md"
    checklist.write_text("1. **M-SCOPE-01** A rule.\n", encoding="utf-8")
    kind = CHECKLISTS["mother-of-dragons"]
    report = build_report(checklist, Path(__file__).resolve().parents[1], kind, project_ids=kind.project_ids)
    rows: list[dict[str, Any]] = report["rows"]  # type: ignore[assignment]
    by_id = {r["id"]: r for r in rows}
    for rule_id in ("M-D4CARD-01", "M-D4CARD-02", "M-D4CARD-03"):
        assert rule_id in PROJECT_IDS_MOD and by_id[rule_id]["status"] == "covered", rule_id
        assert any("test_deck4_players.py" in t for t in by_id[rule_id]["tests"]), rule_id
