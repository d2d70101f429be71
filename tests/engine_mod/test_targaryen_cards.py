"""House Targaryen's house cards (Mother of Dragons): the nine texts of sets A and B in the base game's timing windows
(engine/cards_targaryen.py), M-TCARD-01..10 in the Mother of Dragons coverage report.

Every battle is fought in Essos or next to it in round 10 by an eight-player game, where every house is a player. A
test's Targaryen card is checked against what the same position gives without its text where that is the point.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import Game, data
from engine.abilities import ability_of
from engine.agents import AGENTS
from engine.coverage import CHECKLISTS, PROJECT_IDS_MOD, build_report
from engine.prompts import Prompt, PromptKind

from ..engine_action.helpers import combat_frame, event, march, result

HOUSES = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn", "targaryen"]
SET_A = ["arstan-whitebeard", "daenerys-targaryen-a", "illyrio-mopatis", "khal-drogo", "ser-jorah-mormont"]
SET_A += ["viserys-targaryen", "xaro-xhoan-daxos"]
SET_B = ["captain-groleo", "daario-naharis", "daenerys-targaryen-b", "grey-worm", "missandei", "rakharo"]
SET_B += ["strong-belwas"]
# Decisions every battle asks that these tests leave to their defaults.
ROUTINE = {"support", "support-refusal", "blade", "casualties", "retreat", "port-capture"}


def essos(units: dict[str, str], orders: dict[str, str], *, cards: str = "a", **extra: Any) -> Game:
    """Round 10's Action phase at its marches, no garrisons, every supply at 6, Targaryen playing set ``cards``."""
    return Game.from_scenario(
        {
            "players": HOUSES,
            "options": {"ruleset": "mother-of-dragons", "targaryen_cards": cards},
            "units": units,
            "orders": orders,
            "supply": dict.fromkeys(HOUSES, 6),
            "garrisons": {},
            "round": 10,
            "start": "march",
            **extra,
        }
    )


def disputed_lands(attackers: str, defenders: str = "martell footman", **extra: Any) -> Game:
    """Targaryen marches every unit of ``attackers`` from Myr into the Disputed Lands, held by Martell."""
    units = {"myr": f"targaryen {attackers}", "the-disputed-lands": defenders, **extra.pop("units", {})}
    orders = {"myr": "march0", **extra.pop("orders", {})}
    g = essos(units, orders, **extra)
    march(g, "targaryen", "myr", {"the-disputed-lands": attackers.split()})
    return g


def fight(g: Game, script: dict[tuple[str, str], Any]) -> tuple[list[dict[str, Any]], list[Prompt]]:
    """Answer the combat under way until it ends: ``script[(house, kind)]`` (a tuple is a queue of answers), routine
    decisions by their defaults; any other prompt fails the test. Returns the events and every prompt answered."""
    script = dict(script)
    events: list[dict[str, Any]] = []
    seen: list[Prompt] = []
    for _ in range(60):
        if combat_frame(g) is None:
            return events, seen
        p = next(p for p in g.prompts() if not p.answered)
        seen.append(p)
        key = (p.house, p.kind)
        if key in script:
            answer = script[key]
            if isinstance(answer, tuple):
                answer, script[key] = answer[0], answer[1:]
        elif p.kind in ROUTINE:
            answer = p.default
        else:  # pragma: no cover - a test met a decision it did not expect
            raise AssertionError(f"unexpected prompt {p.to_dict()}")
        events += g.act(p.house, answer)
    raise AssertionError("the combat did not end")


def cards_of(g: Game, house: str = "targaryen") -> tuple[list[str], list[str]]:
    hs = g.s.houses[house]
    return sorted(hs.hand), sorted(hs.discards)


def removed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "house-cards-removed"]


def kinds(prompts: list[Prompt]) -> list[str]:
    return [p.kind for p in prompts]


# ===== the catalogue =====


def test_every_targaryen_text_has_its_ability_and_the_others_none() -> None:
    """Nine of the fourteen cards carry a text, each registered under its card id (M-TCARD-01, M-TCARD-02,
    M-TCARD-03, M-TCARD-04, M-TCARD-05, M-TCARD-06, M-TCARD-07, M-TCARD-08, M-TCARD-09); every card has a Russian
    name, and a Russian text where it has an English one."""
    cards = {c.id: c for c in data.house_cards().values() if c.house == "targaryen"}
    assert sorted(cards) == sorted(SET_A + SET_B)
    with_text = sorted(c for c in cards if cards[c].ability)
    assert with_text == sorted(
        [
            "khal-drogo",
            "xaro-xhoan-daxos",
            "daenerys-targaryen-a",
            "viserys-targaryen",
            "illyrio-mopatis",
            "daenerys-targaryen-b",
            "captain-groleo",
            "rakharo",
            "missandei",
        ]
    )
    for card in cards:
        ab = ability_of(card)
        assert (ab.card if ab else None) == cards[card].ability
        assert cards[card].names["ru"] and bool(cards[card].text_ru) == bool(cards[card].text_en)


# ===== set A =====


def test_khal_drogo_adds_strength_and_a_sword_per_fighting_knight() -> None:
    """M-TCARD-01: two Knights attack, a third supports from Volantis: 4 + 2 strength and 2 swords, so Martell loses
    two footmen to casualties (Darkstar has no fortification). Without the text the card would count 4 and no sword
    would kill anything."""
    g = disputed_lands(
        "knight knight footman",
        "martell footman footman footman",
        units={"volantis": "targaryen knight"},
        orders={"volantis": "support0"},
    )
    events, _ = fight(
        g,
        {
            ("targaryen", "house-card"): "khal-drogo",
            ("martell", "house-card"): "darkstar",
            ("targaryen", "support"): "attacker",
        },
    )
    strength = result(events)["strength"]["attacker"]
    assert strength["card"] == 6 and strength["support"] == 2
    casualties = [e for e in events if e["type"] == "units-destroyed" and e["reason"] == "casualties"]
    assert [u for e in casualties for u in e["units"]] == ["footman", "footman"]


def test_khal_drogo_defending_counts_standing_knights_only() -> None:
    """M-TCARD-01: defending Myr with a Knight and a routed Knight: +1 for the standing one only (a routed unit does
    not fight)."""
    g = essos(
        {"myr": "targaryen knight routed-knight", "the-disputed-lands": "martell knight knight"},
        {"the-disputed-lands": "march0"},
    )
    march(g, "martell", "the-disputed-lands", {"myr": ["knight", "knight"]})
    events, _ = fight(g, {("targaryen", "house-card"): "khal-drogo", ("martell", "house-card"): "areo-hotah"})
    assert result(events)["strength"]["defender"]["card"] == 5


@pytest.mark.parametrize("attackers", ["knight knight knight", "footman"])
def test_khal_drogo_leaves_the_game_after_the_combat_won_or_lost(attackers: str) -> None:
    """M-TCARD-01, M-TCARD-10: after the combat Khal Drogo is in neither the hand nor the discard pile."""
    g = disputed_lands(attackers, "martell knight knight")
    before_hand, _ = cards_of(g)
    events, _ = fight(g, {("targaryen", "house-card"): "khal-drogo", ("martell", "house-card"): "the-red-viper"})
    hand, discards = cards_of(g)
    assert "khal-drogo" not in hand + discards
    assert hand == [c for c in before_hand if c != "khal-drogo"] and discards == []
    assert removed(events) == [
        {"type": "house-cards-removed", "house": "targaryen", "cards": {"targaryen": ["khal-drogo"]}, "by": "targaryen"}
    ]
    assert event(events, "house-card-ability")["window"] == "after"


def test_M_TCARD_10_a_card_removed_from_the_game_never_comes_back_with_the_refill() -> None:
    """M-TCARD-10: Khal Drogo leaves the game in a first battle; in a second one Targaryen plays the last card of its
    hand and takes its discards back (B-HCARD-07): Khal Drogo is not among them."""
    g = essos(
        {
            "myr": "targaryen knight",
            "the-disputed-lands": "martell footman",
            "norvos": "targaryen knight",
            "the-rhoyne": "martell footman",
        },
        {"myr": "march0", "norvos": "march1*"},
        hands={"targaryen": ["khal-drogo", "arstan-whitebeard"]},
        discards={"targaryen": [c for c in SET_A if c not in ("khal-drogo", "arstan-whitebeard")]},
    )
    march(g, "targaryen", "myr", {"the-disputed-lands": ["knight"]})
    fight(g, {("targaryen", "house-card"): "khal-drogo", ("martell", "house-card"): "obara-sand"})
    assert cards_of(g)[0] == ["arstan-whitebeard"]
    march(g, "targaryen", "norvos", {"the-rhoyne": ["knight"]})
    events, _ = fight(g, {("targaryen", "house-card"): "arstan-whitebeard", ("martell", "house-card"): "darkstar"})
    assert event(events, "hand-returned")["house"] == "targaryen"
    hand, discards = cards_of(g)
    assert hand == sorted(c for c in SET_A if c not in ("khal-drogo", "arstan-whitebeard"))
    assert discards == ["arstan-whitebeard"]


def sea_of_myrth(targaryen_ships: int, martell_ships: int, **extra: Any) -> Game:
    """Targaryen's ships sail from the Bay of Pentos into the Sea of Myrth, held by Martell's."""
    units = {
        "bay-of-pentos": "targaryen" + " ship" * targaryen_ships,
        "sea-of-myrth": "martell" + " ship" * martell_ships,
        **extra.pop("units", {}),
    }
    g = essos(units, {"bay-of-pentos": "march0", **extra.pop("orders", {})}, **extra)
    march(g, "targaryen", "bay-of-pentos", {"sea-of-myrth": ["ship"] * targaryen_ships})
    return g


def test_xaro_xhoan_daxos_doubles_the_ships_of_the_stronger_fleet() -> None:
    """M-TCARD-02: three ships against two count 2 each; a ship supporting from Shipbreaker Bay keeps its 1."""
    g = sea_of_myrth(3, 2, units={"shipbreaker-bay": "targaryen ship"}, orders={"shipbreaker-bay": "support0"})
    events, _ = fight(
        g,
        {
            ("targaryen", "house-card"): "xaro-xhoan-daxos",
            ("martell", "house-card"): "darkstar",
            ("targaryen", "support"): "attacker",
        },
    )
    strength = result(events)["strength"]["attacker"]
    assert (strength["units"], strength["support"], strength["card"]) == (6, 1, 2)


def test_xaro_xhoan_daxos_without_more_ships_changes_nothing() -> None:
    """M-TCARD-02: two ships against two: "more" is not met, each ship counts 1."""
    events, _ = fight(
        sea_of_myrth(2, 2), {("targaryen", "house-card"): "xaro-xhoan-daxos", ("martell", "house-card"): "darkstar"}
    )
    assert result(events)["strength"]["attacker"]["units"] == 2


def test_daenerys_a_gains_two_with_a_dragon_in_the_embattled_area() -> None:
    """M-TCARD-03: a Dragon attacks with a Knight: 1 + 2; the same attack without the Dragon: 1."""
    with_dragon, _ = fight(
        disputed_lands("knight dragon", dragon_strength=2),
        {("targaryen", "house-card"): "daenerys-targaryen-a", ("martell", "house-card"): "darkstar"},
    )
    strength = result(with_dragon)["strength"]["attacker"]
    assert (strength["card"], strength["units"]) == (3, 4)
    without, _ = fight(
        disputed_lands("knight"),
        {("targaryen", "house-card"): "daenerys-targaryen-a", ("martell", "house-card"): "darkstar"},
    )
    assert result(without)["strength"]["attacker"]["card"] == 1


def test_daenerys_a_counts_a_defending_dragon_but_not_a_supporting_one() -> None:
    """M-TCARD-03, decided: "a Dragon" is any dragon fighting in the embattled area (only Targaryen has dragons); a
    dragon supporting from next door is not in it."""
    defending = essos(
        {"myr": "targaryen footman dragon", "the-disputed-lands": "martell knight knight"},
        {"the-disputed-lands": "march0"},
        dragon_strength=0,
    )
    march(defending, "martell", "the-disputed-lands", {"myr": ["knight", "knight"]})
    events, _ = fight(
        defending, {("targaryen", "house-card"): "daenerys-targaryen-a", ("martell", "house-card"): "darkstar"}
    )
    assert result(events)["strength"]["defender"]["card"] == 3
    supported = disputed_lands("knight", units={"volantis": "targaryen dragon"}, orders={"volantis": "support0"})
    events, _ = fight(
        supported,
        {
            ("targaryen", "house-card"): "daenerys-targaryen-a",
            ("martell", "house-card"): "darkstar",
            ("targaryen", "support"): "attacker",
        },
    )
    strength = result(events)["strength"]["attacker"]
    assert strength["support"] == 5 and strength["card"] == 1


def viserys_battle(hand: list[str], *, attackers: str = "knight", defenders: str = "martell footman") -> Game:
    discards = [c for c in SET_A if c not in hand]
    return disputed_lands(attackers, defenders, hands={"targaryen": hand}, discards={"targaryen": discards})


def test_viserys_discards_a_card_of_the_hand_to_add_its_printed_strength() -> None:
    """M-TCARD-04: once the cards are revealed Targaryen is asked (by default it keeps its hand); it discards Arstan
    Whitebeard (3): Viserys counts 1 + 3. Arstan goes to the discard pile; Viserys, victorious, joins it."""
    g = viserys_battle(["viserys-targaryen", "arstan-whitebeard", "ser-jorah-mormont"], attackers="knight knight")
    events, seen = fight(
        g,
        {
            ("targaryen", "house-card"): "viserys-targaryen",
            ("martell", "house-card"): "darkstar",
            ("targaryen", "viserys-discard"): "arstan-whitebeard",
        },
    )
    ask = next(p for p in seen if p.kind == PromptKind.VISERYS_DISCARD)
    assert ask.choices == ["arstan-whitebeard", "ser-jorah-mormont", None] and ask.default is None
    assert ask.info == {"card": "viserys-targaryen", "area": "the-disputed-lands"}
    assert kinds(seen).index("viserys-discard") > kinds(seen).index("house-card")
    assert result(events)["strength"]["attacker"]["card"] == 4 and result(events)["winner"] == "targaryen"
    assert {
        "type": "house-card-discarded",
        "house": "targaryen",
        "card": "arstan-whitebeard",
        "by": "targaryen",
        "reason": "viserys-targaryen",
    } in events
    hand, discards = cards_of(g)
    assert hand == ["ser-jorah-mormont"]
    assert "arstan-whitebeard" in discards and "viserys-targaryen" in discards and not removed(events)


def test_viserys_asks_before_the_strengths_are_compared() -> None:
    """M-TCARD-04, decided: the choice belongs to the "immediately" window, like Aeron Damphair's: the combat is at
    its reveal when Targaryen is asked, and the result follows the answer."""
    g = viserys_battle(["viserys-targaryen", "arstan-whitebeard"])
    g.act("targaryen", "viserys-targaryen")
    g.act("martell", "darkstar")
    frame = combat_frame(g)
    assert frame is not None and frame["stage"] == "reveal" and frame["strength"] is None
    assert g.prompt_for("targaryen") is not None and g.prompt_for("targaryen").kind == "viserys-discard"  # type: ignore[union-attr]


def test_viserys_declined_adds_nothing() -> None:
    """M-TCARD-04: keeping the hand, Viserys fights with its printed 1."""
    g = viserys_battle(["viserys-targaryen", "arstan-whitebeard"])
    events, _ = fight(
        g,
        {
            ("targaryen", "house-card"): "viserys-targaryen",
            ("martell", "house-card"): "darkstar",
            ("targaryen", "viserys-discard"): None,
        },
    )
    assert result(events)["strength"]["attacker"]["card"] == 1
    assert {"type": "ability-declined", "house": "targaryen", "card": "viserys-targaryen"} in events
    assert cards_of(g)[0] == ["arstan-whitebeard"]


def test_viserys_losing_leaves_the_game_and_the_refill_brings_back_the_discarded_card() -> None:
    """M-TCARD-04, M-TCARD-10: Viserys and Arstan are the whole hand; Arstan is discarded for strength, Targaryen still
    loses: after the combat Viserys leaves the game, and the empty hand takes back every discard, Arstan included."""
    g = viserys_battle(["viserys-targaryen", "arstan-whitebeard"], defenders="martell knight knight")
    events, _ = fight(
        g,
        {
            ("targaryen", "house-card"): "viserys-targaryen",
            ("martell", "house-card"): "the-red-viper",
            ("targaryen", "viserys-discard"): "arstan-whitebeard",
        },
    )
    assert result(events)["winner"] == "martell"
    assert removed(events)[0]["cards"] == {"targaryen": ["viserys-targaryen"]}
    hand, discards = cards_of(g)
    assert hand == sorted(c for c in SET_A if c != "viserys-targaryen") and discards == []


def illyrio(power: int, *, defenders: str = "martell footman", attackers: str = "knight knight") -> Game:
    return disputed_lands(attackers, defenders, power={"targaryen": power})


def test_illyrio_mopatis_gains_the_difference_and_stays_below_five_power() -> None:
    """M-TCARD-05: 4 + 0 against 1 + 2: Targaryen wins by 1 and takes 1 Power; with 2 it keeps Illyrio."""
    g = illyrio(1)
    events, _ = fight(g, {("targaryen", "house-card"): "illyrio-mopatis", ("martell", "house-card"): "obara-sand"})
    totals = result(events)["strength"]
    difference = totals["attacker"]["total"] - totals["defender"]["total"]
    assert difference == 1
    assert {"type": "power-gained", "house": "targaryen", "gained": 1, "reason": "illyrio-mopatis"} in events
    assert g.s.houses["targaryen"].power == 2 and "illyrio-mopatis" in cards_of(g)[1] and not removed(events)


def test_illyrio_mopatis_also_pays_a_loser_and_leaves_the_game_at_five_power() -> None:
    """M-TCARD-05: losing 2 against 3 + 4 by 5, Targaryen still takes 5 Power; holding 7 it removes Illyrio."""
    g = illyrio(2, defenders="martell knight footman", attackers="knight")
    events, _ = fight(g, {("targaryen", "house-card"): "illyrio-mopatis", ("martell", "house-card"): "the-red-viper"})
    assert result(events)["winner"] == "martell"
    assert event(events, "power-gained")["gained"] == 5
    assert g.s.houses["targaryen"].power == 7
    assert removed(events)[0]["cards"] == {"targaryen": ["illyrio-mopatis"]}
    hand, discards = cards_of(g)
    assert "illyrio-mopatis" not in hand + discards


def test_illyrio_mopatis_gains_only_what_the_power_pool_holds() -> None:
    """M-TCARD-05, decided as Tywin Lannister's gain (B-OPEN-06): with 18 of its 20 tokens in hand Targaryen's pool
    holds 2, so a win by 3 brings 2."""
    g = illyrio(18, attackers="knight knight knight")
    events, _ = fight(g, {("targaryen", "house-card"): "illyrio-mopatis", ("martell", "house-card"): "darkstar"})
    totals = result(events)["strength"]
    assert totals["attacker"]["total"] - totals["defender"]["total"] == 3
    assert event(events, "power-gained")["gained"] == 2 and g.s.houses["targaryen"].power == 20
    assert removed(events)


def test_illyrio_mopatis_taken_first_by_robert_arryn_is_removed_once() -> None:
    """M-TCARD-05, M-TCARD-10: Arryn, defending the Vale with Robert Arryn, acts first after the combat (Targaryen is
    last in turn order) and removes Illyrio, the weakest discarded card, with Robert; Illyrio still pays out, and
    with 7 Power there is nothing left for it to remove."""
    g = essos(
        {"the-mountains-of-the-moon": "targaryen knight knight", "the-vale-of-arryn": "arryn footman"},
        {"the-mountains-of-the-moon": "march0"},
        power={"targaryen": 6},
    )
    march(g, "targaryen", "the-mountains-of-the-moon", {"the-vale-of-arryn": ["knight", "knight"]})
    events, _ = fight(
        g,
        {
            ("targaryen", "house-card"): "illyrio-mopatis",
            ("arryn", "house-card"): "robert-arryn",
            ("arryn", "robert-remove"): "illyrio-mopatis",
        },
    )
    assert removed(events) == [
        {
            "type": "house-cards-removed",
            "house": "arryn",
            "cards": {"arryn": ["robert-arryn"], "targaryen": ["illyrio-mopatis"]},
            "by": "arryn",
        }
    ]
    assert event(events, "power-gained")["gained"] == 3 and g.s.houses["targaryen"].power == 9
    hand, discards = cards_of(g)
    assert "illyrio-mopatis" not in hand + discards


# ===== set B =====


def test_daenerys_b_makes_the_opponent_discard_the_difference() -> None:
    """M-TCARD-06: 4 + 2 against 1 + 2: Martell, beaten by 3, discards 3 of its 5 available Power to the pool."""
    g = disputed_lands("knight", cards="b", power={"martell": 5})
    events, _ = fight(g, {("targaryen", "house-card"): "daenerys-targaryen-b", ("martell", "house-card"): "obara-sand"})
    assert {
        "type": "power-lost",
        "house": "martell",
        "lost": 3,
        "reason": "daenerys-targaryen-b",
        "by": "targaryen",
    } in events
    assert g.s.houses["martell"].power == 2


def test_daenerys_b_acts_won_or_lost_and_takes_no_more_than_the_opponent_has() -> None:
    """M-TCARD-06: Targaryen loses 4 + 2 against 4 + 6 by 4; Martell holds only 1 Power and discards it."""
    g = disputed_lands("knight", "martell knight knight knight", cards="b", power={"martell": 1})
    events, _ = fight(
        g, {("targaryen", "house-card"): "daenerys-targaryen-b", ("martell", "house-card"): "the-red-viper"}
    )
    assert result(events)["winner"] == "martell"
    assert event(events, "power-lost")["lost"] == 1 and g.s.houses["martell"].power == 0


def kingswood(**extra: Any) -> Game:
    """Targaryen's Knight sails from Myr to the Kingswood along its ships in the Sea of Myrth and Shipbreaker Bay;
    another Targaryen ship lies in Blackwater Bay, also next to the Kingswood."""
    units = {
        "myr": "targaryen knight",
        "sea-of-myrth": "targaryen ship",
        "shipbreaker-bay": "targaryen ship",
        "blackwater-bay": "targaryen ship",
        "kingswood": "baratheon footman",
        **extra.pop("units", {}),
    }
    g = essos(units, {"myr": "march0"}, cards="b", **extra)
    march(g, "targaryen", "myr", {"kingswood": ["knight"]})
    return g


def test_captain_groleo_after_sea_transport_counts_the_ships_around_the_embattled_land() -> None:
    """M-TCARD-07: the Knight landed by sea; two Targaryen ships lie next to the Kingswood (the one in the Sea of
    Myrth does not): 1 + 2."""
    events, _ = fight(
        kingswood(), {("targaryen", "house-card"): "captain-groleo", ("baratheon", "house-card"): "melisandre"}
    )
    assert result(events)["strength"]["attacker"]["card"] == 3


def test_captain_groleo_does_nothing_after_a_march_over_land() -> None:
    """M-TCARD-07, decided: a march across a land border is no sea transport, even with Targaryen ships next to both
    areas (the Sea of Myrth touches Myr and the Disputed Lands)."""
    g = disputed_lands("knight", cards="b", units={"sea-of-myrth": "targaryen ship ship"})
    events, _ = fight(g, {("targaryen", "house-card"): "captain-groleo", ("martell", "house-card"): "darkstar"})
    assert result(events)["strength"]["attacker"]["card"] == 1


def test_captain_groleo_does_nothing_for_dragons_that_flew_or_for_a_defender() -> None:
    """M-TCARD-07, decided: a dragon needs no ship, so dragons alone from afar are taken to have flown; and a
    defender never counts ships."""
    flown = essos(
        {"norvos": "targaryen dragon", "shipbreaker-bay": "targaryen ship", "kingswood": "baratheon footman"},
        {"norvos": "march0"},
        cards="b",
    )
    march(flown, "targaryen", "norvos", {"kingswood": ["dragon"]})
    events, _ = fight(flown, {("targaryen", "house-card"): "captain-groleo", ("baratheon", "house-card"): "melisandre"})
    assert result(events)["strength"]["attacker"]["card"] == 1
    defending = essos(
        {"myr": "targaryen footman", "sea-of-myrth": "targaryen ship", "the-disputed-lands": "martell knight"},
        {"the-disputed-lands": "march0"},
        cards="b",
    )
    march(defending, "martell", "the-disputed-lands", {"myr": ["knight"]})
    events, _ = fight(defending, {("targaryen", "house-card"): "captain-groleo", ("martell", "house-card"): "darkstar"})
    assert result(events)["strength"]["defender"]["card"] == 1


def test_rakharo_knights_count_four_in_a_land_without_castle() -> None:
    """M-TCARD-08: two Knights in the Disputed Lands count 8; a Knight supporting from Volantis keeps its 2."""
    g = disputed_lands(
        "knight knight", cards="b", units={"volantis": "targaryen knight"}, orders={"volantis": "support0"}
    )
    events, _ = fight(
        g,
        {
            ("targaryen", "house-card"): "rakharo",
            ("martell", "house-card"): "darkstar",
            ("targaryen", "support"): "attacker",
        },
    )
    strength = result(events)["strength"]["attacker"]
    assert (strength["units"], strength["support"]) == (8, 2)


def test_rakharo_changes_nothing_against_a_stronghold() -> None:
    """M-TCARD-08: Volantis holds a stronghold: two Knights count 4."""
    g = essos({"myr": "targaryen knight knight", "volantis": "martell footman"}, {"myr": "march0"}, cards="b")
    march(g, "targaryen", "myr", {"volantis": ["knight", "knight"]})
    events, _ = fight(g, {("targaryen", "house-card"): "rakharo", ("martell", "house-card"): "darkstar"})
    assert result(events)["strength"]["attacker"]["units"] == 4


def missandei(*, attackers: str = "knight", hand: tuple[str, ...] = ("missandei", "grey-worm")) -> Game:
    """Targaryen's Knight (2) and Missandei (0) attack Martell's footman (1) in the Disputed Lands."""
    discards = [c for c in SET_B if c not in hand]
    return disputed_lands(attackers, cards="b", hands={"targaryen": list(hand)}, discards={"targaryen": discards})


def test_missandei_losing_by_two_takes_another_discarded_card_back() -> None:
    """M-TCARD-09: 2 + 0 against 1 + 3: lost by 2. After the combat, Missandei in the discard pile, Targaryen takes
    Daario back (by default it would take its strongest discard, Daenerys)."""
    g = missandei()
    events, seen = fight(
        g,
        {
            ("targaryen", "house-card"): "missandei",
            ("martell", "house-card"): "areo-hotah",
            ("targaryen", "missandei-return"): "daario-naharis",
        },
    )
    totals = result(events)["strength"]
    assert totals["defender"]["total"] - totals["attacker"]["total"] == 2
    ask = next(p for p in seen if p.kind == PromptKind.MISSANDEI_RETURN)
    others = sorted(c for c in SET_B if c not in ("missandei", "grey-worm"))
    assert ask.choices == [*others, None] and ask.default == "daenerys-targaryen-b"
    assert ask.info == {"card": "missandei", "margin": 2}
    assert {"type": "hand-returned", "house": "targaryen", "cards": ["daario-naharis"], "reason": "missandei"} in events
    hand, discards = cards_of(g)
    assert hand == ["daario-naharis", "grey-worm"] and "missandei" in discards


def test_missandei_does_nothing_losing_by_three_or_winning() -> None:
    """M-TCARD-09: lost by 3 (against the Red Viper's 4) nothing is asked, nor when Targaryen wins (two Knights
    against Darkstar)."""
    g = missandei()
    events, seen = fight(g, {("targaryen", "house-card"): "missandei", ("martell", "house-card"): "the-red-viper"})
    totals = result(events)["strength"]
    assert totals["defender"]["total"] - totals["attacker"]["total"] == 3 and "missandei-return" not in kinds(seen)
    g = missandei(attackers="knight knight")
    events, seen = fight(g, {("targaryen", "house-card"): "missandei", ("martell", "house-card"): "darkstar"})
    assert result(events)["winner"] == "targaryen" and "missandei-return" not in kinds(seen)


def test_missandei_losing_a_tie_counts_as_losing_by_nothing() -> None:
    """M-TCARD-09: 2 against 1 + 1, the Fiefdoms track gives Martell the tie: a loss by 0, Missandei acts."""
    g = missandei()
    events, seen = fight(
        g,
        {
            ("targaryen", "house-card"): "missandei",
            ("martell", "house-card"): "arianne-martell",
            ("targaryen", "missandei-return"): None,
        },
    )
    assert result(events)["tie_broken_by_fiefdoms"] and "missandei-return" in kinds(seen)
    assert {"type": "ability-declined", "house": "targaryen", "card": "missandei"} in events


def test_missandei_as_the_last_card_finds_nothing_left_to_take() -> None:
    """M-TCARD-09, decided: Missandei acts after the combat, as Roose Bolton: played as the last card, the refill has
    already taken every other card back, and nothing is asked."""
    g = missandei(hand=("missandei",))
    _, seen = fight(g, {("targaryen", "house-card"): "missandei", ("martell", "house-card"): "areo-hotah"})
    assert "missandei-return" not in kinds(seen)
    hand, discards = cards_of(g)
    assert hand == sorted(c for c in SET_B if c != "missandei") and discards == ["missandei"]


# ===== the new decisions: defaults and agents =====


def open_decision(kind: str) -> tuple[Game, Prompt]:
    if kind == "viserys-discard":
        g = viserys_battle(["viserys-targaryen", "arstan-whitebeard", "ser-jorah-mormont"])
        g.act("targaryen", "viserys-targaryen")
        g.act("martell", "darkstar")
    else:
        g = missandei()
        g.act("targaryen", "missandei")
        g.act("martell", "areo-hotah")
    p = g.prompt_for("targaryen")
    assert p is not None and p.kind == kind
    return g, p


@pytest.mark.parametrize("kind", ["viserys-discard", "missandei-return"])
def test_the_defaults_and_the_agents_answers_are_accepted(kind: str) -> None:
    """M-TCARD-04, M-TCARD-09: the default and every agent's answer are legal (the agents pick among the choices)."""
    for name, agent in sorted(AGENTS.items()):
        for seed in range(4):
            g, p = open_decision(kind)
            answer = agent(seed).answer(p, g.view("targaryen"))
            assert answer in p.choices, name
            g.act("targaryen", answer)
    g, p = open_decision(kind)
    g.act("targaryen", p.default)
    assert all(q.kind != kind for q in g.prompts())


# ===== the coverage report =====


def test_the_mother_of_dragons_report_lists_the_card_ids_and_this_file_covers_them(tmp_path: Path) -> None:
    """The project's M-TCARD IDs join the report on the checklist's, and every one is named by a test here; a
    report built without them is the checklist's alone."""
    checklist = tmp_path / "checklist.md"
    checklist.write_text("1. **M-SCOPE-01** A rule.\n", encoding="utf-8")
    tests = Path(__file__).resolve().parents[1]
    kind = CHECKLISTS["mother-of-dragons"]
    report = build_report(checklist, tests, kind, project_ids=kind.project_ids)
    rows = {r["id"]: r for r in report["rows"]}  # type: ignore[union-attr]
    assert list(rows) == ["M-SCOPE-01", *PROJECT_IDS_MOD]
    card_ids = [i for i in PROJECT_IDS_MOD if i.startswith("M-TCARD-")]  # deck IV's M-D4CARD IDs: their own files
    assert len(card_ids) == 10
    for rule_id in card_ids:
        assert rows[rule_id]["status"] == "covered", rule_id
        assert any("test_targaryen_cards.py" in t for t in rows[rule_id]["tests"]), rule_id
    assert [r["id"] for r in build_report(checklist, tests, kind)["rows"]] == ["M-SCOPE-01"]  # type: ignore[union-attr]
