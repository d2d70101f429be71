"""The vassal deck's texts (Mother of Dragons, M-VASSAL-22, -24) and the base cards that meet a vassal.

Four players hold Stark, Lannister, Baratheon and Greyjoy; Tyrell, Martell and Arryn are vassals, commanded as
``LIEGES`` says unless a test names others. Positions are built with ``Game.from_scenario`` in the Action phase of
round 10; every combat is driven through ``g.act``. A vassal's three cards are dealt at random when its combat
reaches the cards; ``play`` replaces that hand with the three cards a test names (all from the vassal deck), so a
test fights with the card it is about.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, data, rules
from engine.prompts import Prompt

from .helpers import combat_frame, event, events_of, march, result
from .helpers import play as play_combat

PLAYERS = ["stark", "lannister", "baratheon", "greyjoy"]
HOUSES = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
LIEGES = {"tyrell": "baratheon", "martell": "stark", "arryn": "greyjoy"}
VASSAL_DECK = sorted(c.id for c in data.house_cards().values() if c.house == data.VASSAL_DECK_HOUSE)

# A March order of Arryn, last in turn order, keeps the Action phase (and the routed units) going after the combat.
KEEP_UNITS = {"the-eyrie": "arryn footman"}
KEEP_ORDERS = {"the-eyrie": "vassal-march0"}

VARYS = "vassal-varys"
SYRIO = "vassal-syrio-forel"
JAQEN = "vassal-jaqen-h-ghar"
JANOS = "vassal-janos-slynt"
JON = "vassal-jon-connington"
BERIC = "vassal-beric-dondarrion"
BRONN = "vassal-bronn"


def position(
    units: dict[str, str],
    orders: dict[str, str],
    *,
    players: list[str] | None = None,
    lieges: dict[str, str] | None = None,
    keep: bool = True,
    **extra: Any,
) -> Game:
    if keep:
        units = {**units, **KEEP_UNITS}
        orders = {**orders, **KEEP_ORDERS}
    g = Game.from_scenario(
        {
            "players": players or PLAYERS,
            "options": {"ruleset": "mother-of-dragons"},
            "units": units,
            "orders": orders,
            "supply": dict.fromkeys(HOUSES, 6),
            "garrisons": {},
            "round": 10,
            "start": "march",
            **extra,
        }
    )
    g.state.vassals.update(lieges or LIEGES)
    return g


def play(
    g: Game,
    answers: dict[tuple[str, str], Any] | None = None,
    *,
    hands: dict[str, list[str]] | None = None,
    seen: list[Prompt] | None = None,
) -> list[dict[str, Any]]:
    """Answer every prompt of the combat under way until it ends; return the events. ``hands`` replaces the cards
    dealt to a vassal; support defaults to "none", offered support is accepted, the Blade is kept; any other
    prompt the script does not name fails the test."""

    def deal(game: Game) -> None:
        for house, cards in (hands or {}).items():
            assert len(cards) == 3 and set(cards) <= set(VASSAL_DECK) and house in game.state.vassals
            game.state.houses[house].hand = sorted(cards)

    return play_combat(g, answers, seen, at_cards=deal)


def units_in(g: Game, area: str) -> list[tuple[str, str, bool]]:
    return sorted((u.house, u.type, u.routed) for u in g.state.units.get(area, []))


def lannister_attacks_the_reach(tyrell: str = "tyrell footman", attackers: str = "knight knight", **kw: Any) -> Game:
    """Lannister marches from the Searoad Marches on the vassal Tyrell in the Reach."""
    units = {"searoad-marches": f"lannister {attackers}", "the-reach": tyrell, **kw.pop("units", {})}
    orders = {"searoad-marches": "march0", **kw.pop("orders", {})}
    g = position(units, orders, **kw)
    march(g, "lannister", "searoad-marches", {"the-reach": attackers.split()})
    return g


# ----- Varys -----


@pytest.mark.parametrize("won", [False, True])
def test_M_VASSAL_24_varys_moves_the_vassal_to_the_top_of_fiefdoms(won: bool) -> None:
    """vassal-varys: after the combat, won or lost, Tyrell takes space 1 of the Fiefdoms track and the houses ahead
    of it move down one; the Blade stays with the highest player (a vassal never holds it)."""
    if won:
        g = lannister_attacks_the_reach("tyrell footman footman", "footman", orders={"the-reach": "vassal-defense3"})
        script: dict[tuple[str, str], Any] = {("lannister", "house-card"): "cersei-lannister"}
    else:
        g = lannister_attacks_the_reach()
        script = {("lannister", "house-card"): "the-hound", ("tyrell", "retreat"): "highgarden"}
    assert g.state.tracks["fiefdoms"] == ["greyjoy", "stark", "baratheon", "lannister", "tyrell", "martell", "arryn"]
    events = play(g, {("tyrell", "house-card"): VARYS, **script}, hands={"tyrell": [VARYS, JANOS, BRONN]})
    assert result(events)["winner"] == ("tyrell" if won else "lannister")
    assert g.state.tracks["fiefdoms"] == ["tyrell", "greyjoy", "stark", "baratheon", "lannister", "martell", "arryn"]
    assert {"type": "house-card-ability", "house": "tyrell", "card": VARYS, "window": "after"} in events
    moved = event(events, "track-moved")
    assert (moved["track"], moved["house"], moved["old"], moved["new"], moved["reason"]) == (
        "fiefdoms",
        "tyrell",
        5,
        1,
        VARYS,
    )
    assert rules.holder(g.state, "fiefdoms") == "greyjoy"
    kinds = [e["type"] for e in events]
    assert kinds.index("track-moved") < kinds.index("combat-ended")


def test_M_VASSAL_24_varys_on_space_one_already_does_nothing() -> None:
    g = lannister_attacks_the_reach(
        tracks={"fiefdoms": ["tyrell", "greyjoy", "stark", "baratheon", "lannister", "martell", "arryn"]}
    )
    events = play(
        g,
        {
            ("tyrell", "house-card"): VARYS,
            ("lannister", "house-card"): "the-hound",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [VARYS, JANOS, BRONN]},
    )
    assert not events_of(events, "track-moved") and not events_of(events, "house-card-ability")
    assert g.state.tracks["fiefdoms"][0] == "tyrell"


# ----- Syrio Forel -----


def test_M_VASSAL_24_syrio_forel_defending_makes_every_footman_of_a_player_worth_nothing() -> None:
    """vassal-syrio-forel: Tyrell defends. Lannister's fighting and supporting footmen count 0, and so does the
    footman its own liege Baratheon sends in support; Tyrell's own footman still counts 1."""
    g = lannister_attacks_the_reach(
        "tyrell footman",
        "knight footman",
        units={"blackwater": "lannister footman", "kingswood": "baratheon footman"},
        orders={"blackwater": "support0", "kingswood": "support0"},
    )
    events = play(
        g,
        {
            ("tyrell", "house-card"): SYRIO,
            ("lannister", "house-card"): "cersei-lannister",
            ("baratheon", "support"): "defender",
            ("lannister", "support"): "attacker",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [SYRIO, JANOS, BRONN]},
    )
    strength = result(events)["strength"]
    assert (strength["attacker"]["units"], strength["attacker"]["support"]) == (2, 0)
    assert (strength["defender"]["units"], strength["defender"]["support"], strength["defender"]["card"]) == (1, 0, 1)


def test_M_VASSAL_24_syrio_forel_attacking_changes_no_footman() -> None:
    g = position(
        {"the-reach": "tyrell footman", "searoad-marches": "lannister footman"},
        {"the-reach": "vassal-march0"},
    )
    march(g, "tyrell", "the-reach", {"searoad-marches": ["footman"]})
    events = play(
        g,
        {
            ("tyrell", "house-card"): SYRIO,
            ("lannister", "house-card"): "cersei-lannister",
            ("lannister", "retreat"): "lannisport",
        },
        hands={"tyrell": [SYRIO, JANOS, BRONN]},
    )
    strength = result(events)["strength"]
    assert strength["attacker"]["units"] == 1 and strength["defender"]["units"] == 1


# ----- Jaqen H'ghar -----


def _jaqen_against_lannister(seed: int) -> tuple[Game, list[dict[str, Any]]]:
    g = lannister_attacks_the_reach(seed=seed)
    events = play(
        g,
        {
            ("tyrell", "house-card"): JAQEN,
            ("lannister", "house-card"): "tywin-lannister",
            ("lannister", "tyrion-cancel"): "keep",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [JAQEN, JANOS, VARYS]},
    )
    return g, events


def test_M_VASSAL_24_jaqen_h_ghar_cancels_the_card_and_draws_the_opponents_at_random() -> None:
    """vassal-jaqen-h-ghar: Tywin goes back to Lannister's hand and a card drawn at random from the whole hand
    (Tywin included) fights instead; the draw comes from the game's seeded generator, so it replays."""
    hand = sorted(c.id for c in data.house_cards().values() if c.house == "lannister")
    drawn_by_seed = {}
    for seed in range(8):
        g, events = _jaqen_against_lannister(seed)
        assert {
            "type": "house-card-cancelled",
            "house": "lannister",
            "card": "tywin-lannister",
            "by": "tyrell",
        } in events
        revealed = event(events, "house-card-revealed")
        drawn = revealed["card"]
        assert revealed == {
            "type": "house-card-revealed",
            "area": "the-reach",
            "house": "lannister",
            "side": "attacker",
            "card": drawn,
        }
        assert drawn in hand
        assert event(events, "house-cards-revealed")["attacker"] == "tywin-lannister"
        lannister = g.state.houses["lannister"]
        assert drawn in lannister.discards and drawn not in lannister.hand
        assert sorted(lannister.hand + lannister.discards) == hand
        assert result(events)["strength"]["attacker"]["card"] == data.house_cards()[drawn].strength
        assert _jaqen_against_lannister(seed)[1] == events  # the same seed draws the same card
        drawn_by_seed[seed] = drawn
    assert len(set(drawn_by_seed.values())) > 1  # random, not a fixed pick


def test_M_VASSAL_24_jaqen_h_ghar_against_a_vassal_draws_from_its_three_cards() -> None:
    """Tyrell (Baratheon's vassal) attacks Martell (Stark's vassal): Jaqen sends Janos back and one of Martell's
    three cards is drawn."""
    g = position(
        {"dornish-marches": "tyrell knight", "the-boneway": "martell footman"},
        {"dornish-marches": "vassal-march0"},
    )
    march(g, "tyrell", "dornish-marches", {"the-boneway": ["knight"]})
    martell = [JANOS, JON, BERIC]
    events = play(
        g,
        {("tyrell", "house-card"): JAQEN, ("martell", "house-card"): JANOS, ("martell", "retreat"): "yronwood"},
        hands={"tyrell": [JAQEN, VARYS, BRONN], "martell": martell},
    )
    assert {"type": "house-card-cancelled", "house": "martell", "card": JANOS, "by": "tyrell"} in events
    drawn = event(events, "house-card-revealed")["card"]
    assert drawn in martell
    assert g.state.houses["martell"].hand == [] and g.state.houses["martell"].discards == []


# ----- Jon Connington -----


def test_M_VASSAL_24_jon_connington_musters_a_knight_where_the_beaten_vassal_retreated() -> None:
    """vassal-jon-connington: Tyrell loses the Reach and retreats to the Blackwater; its liege may muster a Knight
    of Tyrell there or in Highgarden, its home."""
    g = lannister_attacks_the_reach()
    seen: list[Prompt] = []
    events = play(
        g,
        {
            ("tyrell", "house-card"): JON,
            ("lannister", "house-card"): "the-hound",
            ("tyrell", "retreat"): "blackwater",
            ("tyrell", "connington-knight"): "blackwater",
        },
        hands={"tyrell": [JON, JANOS, VARYS]},
        seen=seen,
    )
    assert result(events)["winner"] == "lannister"
    ask = next(p for p in seen if p.kind == "connington-knight")
    assert ask.house == "tyrell" and ask.choices == ["blackwater", "highgarden", None]
    assert ask.default == "blackwater"
    assert units_in(g, "blackwater") == [("tyrell", "footman", True), ("tyrell", "knight", False)]
    assert {"type": "mustered", "house": "tyrell", "plan": {"blackwater": [{"recruit": "knight"}]}} in events
    assert rules.commander(g.state, "tyrell") == "baratheon"


def test_M_VASSAL_24_jon_connington_a_beaten_attacker_may_muster_at_home() -> None:
    g = position(
        {"the-reach": "tyrell footman", "searoad-marches": "lannister footman footman"},
        {"the-reach": "vassal-march0"},
    )
    march(g, "tyrell", "the-reach", {"searoad-marches": ["footman"]})
    seen: list[Prompt] = []
    events = play(
        g,
        {
            ("tyrell", "house-card"): JON,
            ("lannister", "house-card"): "tywin-lannister",
            ("tyrell", "connington-knight"): "highgarden",
        },
        hands={"tyrell": [JON, JANOS, VARYS]},
        seen=seen,
    )
    assert result(events)["winner"] == "lannister"
    assert next(p for p in seen if p.kind == "connington-knight").choices == ["the-reach", "highgarden", None]
    assert units_in(g, "highgarden") == [("tyrell", "knight", False)]
    assert units_in(g, "the-reach") == [("tyrell", "footman", True)]


def test_M_VASSAL_24_jon_connington_is_optional_and_needs_a_knight_in_reserve() -> None:
    declined = lannister_attacks_the_reach()
    events = play(
        declined,
        {
            ("tyrell", "house-card"): JON,
            ("lannister", "house-card"): "the-hound",
            ("tyrell", "retreat"): "blackwater",
            ("tyrell", "connington-knight"): None,
        },
        hands={"tyrell": [JON, JANOS, VARYS]},
    )
    assert {"type": "ability-declined", "house": "tyrell", "card": JON} in events
    assert units_in(declined, "blackwater") == [("tyrell", "footman", True)]
    # Every one of Tyrell's five knights is on the board: nothing to muster, nothing asked.
    spent = lannister_attacks_the_reach(
        units={"oldtown": "tyrell knight knight", "three-towers": "tyrell knight knight", "highgarden": "tyrell knight"}
    )
    events = play(
        spent,
        {("tyrell", "house-card"): JON, ("lannister", "house-card"): "the-hound", ("tyrell", "retreat"): "blackwater"},
        hands={"tyrell": [JON, JANOS, VARYS]},
    )
    assert not events_of(events, "house-card-ability") and not events_of(events, "mustered")


# ----- Beric Dondarrion -----


def test_M_VASSAL_24_beric_dondarrion_a_winning_defender_loses_one_of_its_units() -> None:
    """vassal-beric-dondarrion: Tyrell wins the Reach; after the casualties its liege must destroy one of the
    Tyrell units that fought there (it picks the type)."""
    g = lannister_attacks_the_reach("tyrell knight footman", "footman", orders={"the-reach": "vassal-defense3"})
    seen: list[Prompt] = []
    events = play(
        g,
        {
            ("tyrell", "house-card"): BERIC,
            ("lannister", "house-card"): "cersei-lannister",
            ("tyrell", "beric-unit"): "knight",
        },
        hands={"tyrell": [BERIC, JANOS, VARYS]},
        seen=seen,
    )
    assert result(events)["winner"] == "tyrell"
    ask = next(p for p in seen if p.kind == "beric-unit")
    assert ask.house == "tyrell" and ask.choices == ["footman", "knight"] and ask.default == "footman"
    assert units_in(g, "the-reach") == [("tyrell", "footman", False)]
    assert {
        "type": "units-destroyed",
        "area": "the-reach",
        "house": "tyrell",
        "units": ["knight"],
        "reason": BERIC,
    } in events
    kinds = [e["type"] for e in events]
    assert kinds.index("retreat") < kinds.index("units-destroyed")  # after the battle is over


def test_M_VASSAL_24_beric_dondarrion_a_winning_attacker_loses_a_unit_that_fought() -> None:
    """Tyrell attacks from the Reach with a knight and a footman and leaves a knight behind; the unit destroyed is
    one that moved into the Searoad Marches, never the knight that stayed."""
    g = position(
        {"the-reach": "tyrell knight knight footman", "searoad-marches": "lannister footman"},
        {"the-reach": "vassal-march0"},
    )
    march(g, "tyrell", "the-reach", {"searoad-marches": ["knight", "footman"]})
    events = play(
        g,
        {
            ("tyrell", "house-card"): BERIC,
            ("lannister", "house-card"): "cersei-lannister",
            ("lannister", "retreat"): "lannisport",
            ("tyrell", "beric-unit"): "footman",
        },
        hands={"tyrell": [BERIC, JANOS, VARYS]},
    )
    assert result(events)["winner"] == "tyrell"
    assert units_in(g, "searoad-marches") == [("tyrell", "knight", False)]
    assert units_in(g, "the-reach") == [("tyrell", "knight", False)]
    assert ("tyrell", "searoad-marches", ["footman"], BERIC) in [
        (e["house"], e["area"], e["units"], e["reason"]) for e in events_of(events, "units-destroyed")
    ]


def test_M_VASSAL_24_beric_dondarrion_with_one_type_left_asks_nothing_and_a_loser_keeps_its_units() -> None:
    g = lannister_attacks_the_reach("tyrell footman footman", "footman", orders={"the-reach": "vassal-defense3"})
    events = play(
        g,
        {("tyrell", "house-card"): BERIC, ("lannister", "house-card"): "cersei-lannister"},
        hands={"tyrell": [BERIC, JANOS, VARYS]},
    )
    assert units_in(g, "the-reach") == [("tyrell", "footman", False)]
    assert event(events, "units-destroyed")["reason"] == BERIC
    lost = lannister_attacks_the_reach("tyrell footman")
    events = play(
        lost,
        {
            ("tyrell", "house-card"): BERIC,
            ("lannister", "house-card"): "tywin-lannister",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [BERIC, JANOS, VARYS]},
    )
    assert result(events)["winner"] == "lannister"
    assert not any(e["reason"] == BERIC for e in events_of(events, "units-destroyed"))
    assert units_in(lost, "highgarden") == [("tyrell", "footman", True)]


# ----- Bronn -----


@pytest.mark.parametrize("pay", [True, False])
def test_M_VASSAL_24_bronn_the_opponent_may_pay_two_power_to_make_him_zero(pay: bool) -> None:
    """vassal-bronn: Lannister, holding 7 Power, is asked; paying 2 makes Bronn's strength 0."""
    g = lannister_attacks_the_reach()
    seen: list[Prompt] = []
    events = play(
        g,
        {
            ("tyrell", "house-card"): BRONN,
            ("lannister", "house-card"): "ser-jaime-lannister",
            ("lannister", "bronn-pay"): "pay" if pay else "decline",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [BRONN, JANOS, VARYS]},
        seen=seen,
    )
    ask = next(p for p in seen if p.kind == "bronn-pay")
    assert ask.house == "lannister" and ask.choices == ["pay", "decline"] and ask.default == "decline"
    assert result(events)["strength"]["defender"]["card"] == (0 if pay else 4)
    assert g.state.houses["lannister"].power == (5 if pay else 7)
    if pay:
        assert {
            "type": "card-strength-zeroed",
            "area": "the-reach",
            "house": "lannister",
            "card": BRONN,
            "owner": "tyrell",
            "power": 2,
        } in events
    else:
        assert {"type": "ability-declined", "house": "lannister", "card": BRONN} in events


def test_M_VASSAL_24_M_VASSAL_30_bronn_against_a_vassal_cannot_be_paid_by_its_liege() -> None:
    """Tyrell plays Bronn against Martell, Stark's vassal: Martell has no Power and Stark, holding 7, may not pay
    for it; nothing is asked and Bronn counts 4. Nor is anyone asked whose Power is short."""
    g = position(
        {"dornish-marches": "tyrell knight", "the-boneway": "martell footman"},
        {"dornish-marches": "vassal-march0"},
    )
    march(g, "tyrell", "dornish-marches", {"the-boneway": ["knight"]})
    events = play(
        g,
        {("tyrell", "house-card"): BRONN, ("martell", "house-card"): JANOS, ("martell", "retreat"): "yronwood"},
        hands={"tyrell": [BRONN, VARYS, SYRIO], "martell": [JANOS, JON, BERIC]},
    )
    assert result(events)["strength"]["attacker"]["card"] == 4
    assert g.state.houses["stark"].power == 7 and g.state.houses["martell"].power == 0
    poor = lannister_attacks_the_reach(power={"lannister": 1})
    events = play(
        poor,
        {
            ("tyrell", "house-card"): BRONN,
            ("lannister", "house-card"): "tywin-lannister",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [BRONN, JANOS, VARYS]},
    )
    assert result(events)["strength"]["defender"]["card"] == 4


# ----- base cards against a vassal -----


def test_M_VASSAL_30_aeron_damphair_is_paid_by_greyjoy_never_for_a_vassal() -> None:
    """Greyjoy swaps Aeron for Euron against the vassal Tyrell and pays with its own Power; Tyrell's liege pays
    nothing. When Greyjoy is itself a vassal, it fights with vassal cards only: Aeron never comes to a vassal's
    hand, so no Power is ever asked of it or spent for it."""
    g = position(
        {"searoad-marches": "greyjoy knight knight", "the-reach": "tyrell footman"}, {"searoad-marches": "march0"}
    )
    march(g, "greyjoy", "searoad-marches", {"the-reach": ["knight", "knight"]})
    events = play(
        g,
        {
            ("greyjoy", "house-card"): "aeron-damphair",
            ("greyjoy", "aeron-swap"): "euron-crows-eye",
            ("tyrell", "house-card"): JANOS,
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [JANOS, VARYS, BRONN]},
    )
    assert event(events, "house-card-swapped")["to"] == "euron-crows-eye"
    assert g.state.houses["greyjoy"].power == 5
    assert g.state.houses["baratheon"].power == 7 and g.state.houses["tyrell"].power == 0

    vassal = position(
        {"searoad-marches": "lannister knight", "the-reach": "greyjoy footman"},
        {"searoad-marches": "march0"},
        players=["stark", "lannister", "baratheon", "tyrell"],
        lieges={"greyjoy": "baratheon", "martell": "stark", "arryn": "stark"},
    )
    march(vassal, "lannister", "searoad-marches", {"the-reach": ["knight"]})
    seen: list[Prompt] = []
    events: list[dict[str, Any]] = []
    while combat_frame(vassal) is not None:
        p = next(p for p in vassal.prompts() if not p.answered)
        seen.append(p)
        events += vassal.act(p.house, p.default)
    card = next(p for p in seen if p.house == "greyjoy" and p.kind == "house-card")
    assert len(card.choices) == 3 and set(card.choices) <= set(VASSAL_DECK)
    assert not any(p.kind == "aeron-swap" for p in seen)
    assert vassal.state.houses["baratheon"].power == 7 + (result(events)["winner"] == "greyjoy")


def test_M_VASSAL_22_tyrion_against_a_vassal_leaves_it_its_other_two_cards() -> None:
    """Tyrion cancels Bronn before his text acts; Tyrell chooses again, in the open, from its two other cards."""
    g = lannister_attacks_the_reach()
    seen: list[Prompt] = []
    events = play(
        g,
        {
            ("lannister", "house-card"): "tyrion-lannister",
            ("tyrell", "house-card"): (BRONN, JANOS),
            ("lannister", "tyrion-cancel"): "cancel",
            ("tyrell", "retreat"): "highgarden",
        },
        hands={"tyrell": [BRONN, JANOS, VARYS]},
        seen=seen,
    )
    again = [p for p in seen if p.house == "tyrell" and p.kind == "house-card"][-1]
    assert again.choices == [JANOS, VARYS] and again.info["cancelled"] == BRONN
    assert {"type": "house-card-cancelled", "house": "tyrell", "card": BRONN, "by": "lannister"} in events
    assert result(events)["strength"]["defender"]["card"] == 2
    assert not any(p.kind == "bronn-pay" for p in seen)
    assert g.state.houses["tyrell"].hand == [] and g.state.houses["tyrell"].discards == []


def test_M_VASSAL_22_patchface_against_a_vassal_discards_from_its_three_card_hand() -> None:
    """Baratheon's Patchface names one of the two cards Tyrell kept; after the combat all three go back to the
    vassal deck anyway."""
    g = position(
        {"searoad-marches": "baratheon knight knight", "the-reach": "tyrell footman"},
        {"searoad-marches": "march0"},
        lieges={"tyrell": "stark", "martell": "stark", "arryn": "greyjoy"},
    )
    march(g, "baratheon", "searoad-marches", {"the-reach": ["knight", "knight"]})
    seen: list[Prompt] = []
    events = play(
        g,
        {
            ("baratheon", "house-card"): "patchface",
            ("tyrell", "house-card"): JANOS,
            ("tyrell", "retreat"): "highgarden",
            ("baratheon", "patchface-discard"): SYRIO,
        },
        hands={"tyrell": [JANOS, SYRIO, VARYS]},
        seen=seen,
    )
    ask = next(p for p in seen if p.kind == "patchface-discard")
    assert ask.choices == [SYRIO, VARYS, None]
    assert {
        "type": "house-card-discarded",
        "house": "tyrell",
        "card": SYRIO,
        "by": "baratheon",
        "reason": "patchface",
    } in events
    assert g.state.houses["tyrell"].hand == [] and g.state.houses["tyrell"].discards == []


def test_M_VASSAL_22_a_vassals_cards_are_never_discarded() -> None:
    """Two combats against the vassal Tyrell in one Action phase, for several seeds: after each, no vassal card is
    in any hand or discard pile; the card played in the first is dealt again in a later one, and every card of the
    deck is dealt at the second combat."""
    again = False
    second_hands: set[str] = set()
    for seed in range(12):
        g = position(
            {
                "blackwater": "lannister knight knight",
                "the-reach": "tyrell footman",
                "searoad-marches": "lannister knight knight",
                "highgarden": "tyrell footman",
            },
            {"blackwater": "march0", "searoad-marches": "march-1"},
            keep=False,
            seed=seed,
        )
        march(g, "lannister", "blackwater", {"the-reach": ["knight", "knight"]})
        played = _drive_defaults(g)[0]
        for house in HOUSES:
            hs = g.state.houses[house]
            assert not set(hs.hand + hs.discards) & set(VASSAL_DECK)
        march(g, "lannister", "searoad-marches", {"highgarden": ["knight", "knight"]})
        hand = _drive_defaults(g)[1]
        second_hands |= set(hand)
        again = again or played in hand
        assert g.state.houses["tyrell"].hand == [] and g.state.houses["tyrell"].discards == []
    assert again and second_hands == set(VASSAL_DECK)


def _drive_defaults(g: Game) -> tuple[str, list[str]]:
    """Answer the combat under way with the defaults; return Tyrell's card and the hand it was dealt."""
    played, hand = "", []
    while combat_frame(g) is not None:
        p = next(p for p in g.prompts() if not p.answered)
        if p.house == "tyrell" and p.kind == "house-card" and not hand:
            hand = list(p.choices)
        for e in g.act(p.house, p.default):
            if e["type"] == "house-cards-revealed":
                played = e["defender"]
    return played, hand
