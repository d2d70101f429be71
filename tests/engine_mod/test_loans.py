"""The Iron Bank's loans (Mother of Dragons, issue Z; engine/steps/loans.py): each loan's effect as its taker resolves
it in round 10's Consolidate Power step (the game then ends, so nothing after the loan touches the position), and the
development and decline tokens as the rest of the game reads them (M-DEV-01, -02, M-LOAN-10). Every refusal leaves
the state exactly as it was.
"""

from __future__ import annotations

import json
from typing import Any

from engine import Game, rules
from engine.steps.mustering import muster_choices

from ..engine_action.helpers import event, prompt, rejected

MOD = {"ruleset": "mother-of-dragons"}
FOUR = ["stark", "lannister", "baratheon", "targaryen"]
CASTLES = [
    "crackclaw-point",
    "flints-finger",
    "harrenhal",
    "moat-cailin",
    "starfall",
    "storms-end",
    "the-reach",
    "white-harbor",
    "yronwood",
    "braavos",
    "the-vale-of-arryn",
]


def at_loan(
    loan: str,
    units: dict[str, str] | None = None,
    *,
    taker: str = "stark",
    sea: str = "the-shivering-sea",
    orders: dict[str, str] | None = None,
    bank: dict[str, Any] | None = None,
    **spec: Any,
) -> tuple[Game, list[dict[str, Any]]]:
    """Round 10's Consolidate Power step: ``taker``'s ship in ``sea`` holds an Iron Bank order and takes ``loan`` from
    the left slot (1 Power of his 10). Returns the game and the events of taking it."""
    g = Game.from_scenario(
        {
            "players": FOUR,
            "options": MOD,
            "round": 10,
            "garrisons": {},
            "units": {sea: f"{taker} ship", **(units or {})},
            "orders": {sea: "sea-iron-bank", **(orders or {})},
            "bank": {"slots": [loan, None, None], **(bank or {})},
            "power": {taker: 10},
            "start": "consolidate",
            **spec,
        }
    )
    assert prompt(g, taker).kind == "loan"
    return g, g.act(taker, loan)


def area(g: Game, area_id: str) -> Any:
    return rules.board(g.s).areas[area_id]


def units_of(g: Game, area_id: str) -> list[str]:
    return sorted(f"{u.house} {u.type}" for u in g.s.units.get(area_id, []))


# ===== The Faceless Men (M-LOAN-01) =====


def test_M_LOAN_01_faceless_men_destroys_a_knight_and_a_footman_elsewhere() -> None:
    """Any house's units, the taker's own and a vassal's included; an emptied area loses its order, and ships in the
    port of a land nobody controls any more go (B-PORT-10)."""
    g, _ = at_loan(
        "the-faceless-men",
        {
            "white-harbor": "stark knight",
            "port-of-white-harbor": "stark ship",
            "riverrun": "baratheon footman",
            "lannisport": "lannister knight footman",
            "the-reach": "tyrell knight",
        },
        orders={"riverrun": "defense1"},
    )
    p = prompt(g, "stark")
    assert p.kind == "loan-faceless"
    assert sorted(p.choices["knight"]) == ["lannisport", "the-reach", "white-harbor"]
    assert sorted(p.choices["footman"]) == ["lannisport", "riverrun"]
    assert p.info["loan"] == "the-faceless-men"
    assert p.info["units"]["lannisport"] == {"house": "lannister", "knight": 1, "footman": 1}
    assert p.info["units"]["the-reach"] == {"house": "tyrell", "knight": 1, "footman": 0}
    events = g.act("stark", {"knight": "white-harbor", "footman": "riverrun"})
    assert event(events, "loan-faceless") == {
        "type": "loan-faceless",
        "house": "stark",
        "loan": "the-faceless-men",
        "knight": "white-harbor",
        "footman": "riverrun",
    }
    assert "white-harbor" not in g.s.units and "riverrun" not in g.s.units
    assert "port-of-white-harbor" not in g.s.units  # its land is lost
    assert "riverrun" not in g.s.orders
    assert units_of(g, "lannisport") == ["lannister footman", "lannister knight"]
    reasons = {(e["area"], e["reason"]) for e in events if e["type"] == "units-destroyed"}
    assert reasons == {
        ("white-harbor", "faceless-men"),
        ("riverrun", "faceless-men"),
        ("port-of-white-harbor", "port-lost"),
    }


def test_M_LOAN_01_faceless_men_refuses_a_missing_knight_or_footman_and_one_area_for_both() -> None:
    """The text is mandatory: a knight whenever there is one, a footman whenever one stands outside the knight's
    area; never both from one area. Taking the knight from the only area with footmen leaves no footman to take."""
    g, _ = at_loan("the-faceless-men", {"lannisport": "lannister knight footman", "harrenhal": "stark knight"})
    p = prompt(g, "stark")
    assert p.default == {"knight": "harrenhal", "footman": "lannisport"}
    rejected(g, "stark", {"knight": None, "footman": "lannisport"}, "faceless-knight")
    rejected(g, "stark", {"knight": "lannisport", "footman": "lannisport"}, "faceless-same-area")
    rejected(g, "stark", {"knight": "harrenhal", "footman": None}, "faceless-footman")
    rejected(g, "stark", {"knight": "riverrun", "footman": "lannisport"}, "illegal-choice")
    rejected(g, "stark", {"knight": "harrenhal"}, "bad-answer")
    g.act("stark", {"knight": "lannisport", "footman": None})
    assert units_of(g, "lannisport") == ["lannister footman"]
    assert units_of(g, "harrenhal") == ["stark knight"]


def test_M_LOAN_01_faceless_men_with_no_knight_or_footman_anywhere_asks_nothing() -> None:
    g, events = at_loan("the-faceless-men", {"the-golden-sound": "lannister ship"})
    assert event(events, "loan-nothing")["loan"] == "the-faceless-men"
    assert g.prompt_for("stark") is None
    assert units_of(g, "the-golden-sound") == ["lannister ship"]


# ===== Customs Officer (M-LOAN-02) =====


def test_M_LOAN_02_customs_officer_gives_ten_power() -> None:
    g, events = at_loan("customs-officer")
    assert event(events, "loan-power")["gained"] == 10
    assert g.s.houses["stark"].power == 10 - 1 + 10


# ===== development loans (M-LOAN-03..06) =====


def test_M_LOAN_03_loyal_maester_puts_a_barrel_in_two_lands_of_any_board() -> None:
    g, _ = at_loan("loyal-maester", {"winterfell": "stark footman"})
    p = prompt(g, "stark")
    assert p.kind == "loan-areas"
    assert p.choices["count"] == 2 and p.choices["token"] == "barrel"
    assert {"winterfell", "lannisport", "pentos", "braavos"} <= set(p.choices["areas"])
    assert "bay-of-ice" not in p.choices["areas"] and "port-of-winterfell" not in p.choices["areas"]
    assert p.info == {"loan": "loyal-maester", "power": 0, "supply": 0}
    barrels = rules.barrels(g.s, "stark")
    rejected(g, "stark", ["winterfell", "winterfell"], "loan-areas-distinct")
    rejected(g, "stark", ["winterfell"], "loan-areas-count")
    rejected(g, "stark", ["winterfell", "bay-of-ice"], "illegal-choice")
    rejected(g, "stark", "winterfell", "bad-answer")
    events = g.act("stark", ["winterfell", "pentos"])
    assert [(e["area"], e["token"]) for e in events if e["type"] == "area-developed"] == [
        ("winterfell", "barrel"),
        ("pentos", "barrel"),
    ]
    assert area(g, "winterfell").supply == 2 and area(g, "pentos").supply == 2
    assert g.s.bank["developed"] == {"winterfell": {"barrel": 1}, "pentos": {"barrel": 1}}
    assert rules.barrels(g.s, "stark") == barrels + 1


def test_M_LOAN_04_savvy_steward_adds_a_barrel_then_one_space_on_the_supply_track() -> None:
    g, _ = at_loan("savvy-steward", supply={"stark": 2})
    p = prompt(g, "stark")
    assert p.choices["count"] == 1 and p.info == {"loan": "savvy-steward", "power": 0, "supply": 1}
    before = area(g, "the-reach").supply
    events = g.act("stark", ["the-reach"])
    assert area(g, "the-reach").supply == before + 1
    assert g.s.bank["developed"] == {"the-reach": {"barrel": 1}}
    assert g.s.houses["stark"].supply == 3
    assert event(events, "loan-supply") == {
        "type": "loan-supply",
        "house": "stark",
        "loan": "savvy-steward",
        "old": 2,
        "supply": 3,
    }


def test_M_LOAN_04_savvy_steward_never_goes_past_the_top_of_the_supply_track() -> None:
    g, _ = at_loan("savvy-steward", supply={"stark": 6})
    events = g.act("stark", ["winterfell"])
    assert g.s.houses["stark"].supply == 6 and event(events, "loan-supply")["supply"] == 6


def test_M_LOAN_05_master_at_arms_makes_two_castles_strongholds() -> None:
    g, _ = at_loan("master-at-arms", {"white-harbor": "stark footman"})
    p = prompt(g, "stark")
    assert sorted(p.choices["areas"]) == sorted(CASTLES)
    assert p.choices["count"] == 2 and p.choices["token"] == "stronghold"
    castles = rules.castles_controlled(g.s, "stark")
    rejected(g, "stark", ["winterfell", "white-harbor"], "illegal-choice")  # already a stronghold
    g.act("stark", ["white-harbor", "moat-cailin"])
    assert area(g, "white-harbor").fortification == 2 and area(g, "moat-cailin").fortification == 2
    assert rules.strongholds_controlled(g.s, "stark") == 2  # Winterfell and White Harbor
    assert rules.castles_controlled(g.s, "stark") == castles  # still one area each on the victory track


def test_M_LOAN_05_master_at_arms_with_no_castle_left_asks_nothing() -> None:
    developed = {c: {"stronghold": 1} for c in CASTLES[:6]}
    declined = {c: ["castle"] for c in CASTLES[6:]}
    g, events = at_loan("master-at-arms", bank={"developed": developed, "declined": declined})
    assert event(events, "loan-nothing")["loan"] == "master-at-arms"
    assert g.prompt_for("stark") is None
    assert g.s.bank["developed"] == developed


def test_M_LOAN_06_expert_artificer_adds_a_crown_then_eight_power() -> None:
    g, _ = at_loan("expert-artificer", {"winterfell": "stark footman"})
    p = prompt(g, "stark")
    assert p.choices["token"] == "crown" and p.info == {"loan": "expert-artificer", "power": 8, "supply": 0}
    crowns = rules.crowns(g.s, "stark")
    events = g.act("stark", ["winterfell"])
    assert area(g, "winterfell").crowns == 2
    assert rules.crowns(g.s, "stark") == crowns + 1
    assert event(events, "loan-power")["gained"] == 8
    assert g.s.houses["stark"].power == 10 - 1 + 8


# ===== Pyromancer (M-LOAN-07) =====


def test_M_LOAN_07_M_DEV_02_pyromancer_burns_a_castle_and_leaves_a_token() -> None:
    """The castle is gone: no victory point, no mustering; the chosen barrel takes its place."""
    g, _ = at_loan("pyromancer", {"white-harbor": "stark footman", "winterfell": "stark footman"})
    p = prompt(g, "stark")
    assert p.kind == "loan-pyromancer"
    assert sorted(p.choices["areas"]) == sorted(CASTLES) and p.choices["tokens"] == ["crown", "barrel"]
    assert p.info == {"loan": "pyromancer"}
    assert rules.castles_controlled(g.s, "stark") == 2
    assert "white-harbor" in muster_choices(g.s, "stark")["areas"]
    rejected(g, "stark", {"area": "winterfell", "token": "crown"}, "illegal-choice")
    rejected(g, "stark", {"area": "white-harbor", "token": "stronghold"}, "illegal-choice")
    rejected(g, "stark", {"area": "white-harbor"}, "bad-answer")
    supply = area(g, "white-harbor").supply
    events = g.act("stark", {"area": "white-harbor", "token": "barrel"})
    assert event(events, "area-declined")["area"] == "white-harbor"
    assert area(g, "white-harbor").fortification == 0 and area(g, "white-harbor").supply == supply + 1
    assert g.s.bank["declined"] == {"white-harbor": ["castle"]}
    assert rules.castles_controlled(g.s, "stark") == 1
    assert "white-harbor" not in muster_choices(g.s, "stark")["areas"]


def test_M_LOAN_07_pyromancer_with_no_castle_anywhere_asks_nothing() -> None:
    g, events = at_loan("pyromancer", bank={"declined": {c: ["castle"] for c in CASTLES}})
    assert event(events, "loan-nothing")["loan"] == "pyromancer"
    assert g.prompt_for("stark") is None


# ===== Spymaster (M-LOAN-08) =====


def test_M_LOAN_08_spymaster_puts_one_card_back_on_top_and_one_at_the_bottom() -> None:
    g, _ = at_loan("spymaster")
    p = prompt(g, "stark")
    assert p.kind == "loan-spy-deck" and p.choices == [1, 2, 3, 4]
    assert p.info == {"loan": "spymaster", "sizes": {"1": 10, "2": 10, "3": 10, "4": 10}}
    rejected(g, "stark", 5, "illegal-choice")
    rejected(g, "stark", "2", "bad-answer")
    rejected(g, "stark", True, "bad-answer")
    deck = list(g.s.westeros_decks[1])
    first, second = deck[0], deck[1]
    looked = g.act("stark", 2)
    assert event(looked, "loan-spy-look")["private_to"] == "stark"  # a private look: nobody seated undoes past it
    assert all(first not in json.dumps(e) for e in looked if "private_to" not in e)
    p = prompt(g, "stark")
    assert p.kind == "loan-spy-arrange"
    assert p.choices == {"deck": 2, "cards": [first, second]}
    assert p.info == {"loan": "spymaster", "deck": 2, "cards": [first, second]}
    assert p.default == {"top": [first, second], "bottom": []}
    assert g.prompt_for("lannister") is None
    rejected(g, "stark", {"top": [second], "bottom": []}, "spy-cards")
    rejected(g, "stark", {"top": [second, second], "bottom": [first]}, "spy-cards")
    rejected(g, "stark", {"top": [second]}, "bad-answer")
    events = g.act("stark", {"top": [second], "bottom": [first]})
    assert g.s.westeros_decks[1] == [second, *deck[2:], first]
    assert event(events, "loan-spymaster") == {
        "type": "loan-spymaster",
        "house": "stark",
        "loan": "spymaster",
        "deck": 2,
        "top": 1,
        "bottom": 1,
    }
    public = [e for e in events if "private_to" not in e]
    assert not any(first in json.dumps(e) or second in json.dumps(e) for e in public)
    assert event(events, "loan-spy-placed") == {
        "type": "loan-spy-placed",
        "house": "stark",
        "loan": "spymaster",
        "deck": 2,
        "top": [second],
        "bottom": [first],
        "private_to": "stark",
    }


def test_M_LOAN_08_spymaster_puts_both_at_the_bottom_in_the_order_chosen() -> None:
    g, _ = at_loan("spymaster")
    g.act("stark", 4)
    deck = list(g.s.westeros_decks[3])
    first, second = deck[0], deck[1]
    events = g.act("stark", {"top": [], "bottom": [second, first]})
    assert g.s.westeros_decks[3] == [*deck[2:], second, first]
    assert (event(events, "loan-spymaster")["top"], event(events, "loan-spymaster")["bottom"]) == (0, 2)


# ===== unit loans (M-LOAN-09) =====


def test_M_LOAN_09_full_host_places_units_in_controlled_lands_and_a_ship_in_a_controlled_port() -> None:
    """White Harbor is Stark's by its Power token alone: its land takes units and its port a ship."""
    g, _ = at_loan(
        "full-host",
        {"winterfell": "stark footman", "lannisport": "lannister footman"},
        power_tokens={"white-harbor": "stark"},
        supply={"stark": 1},
    )
    p = prompt(g, "stark")
    assert p.kind == "loan-units"
    assert p.choices["units"] == {"footman": 1, "knight": 1, "siege-engine": 1, "ship": 1}
    assert p.info == {"loan": "full-host", "printed": {"footman": 1, "knight": 1, "siege-engine": 1, "ship": 1}}
    lands = p.choices["areas"]["footman"]
    assert {"winterfell", "white-harbor"} <= set(lands)
    assert not {"lannisport", "moat-cailin", "kings-landing", "the-shivering-sea"} & set(lands)
    ships = p.choices["areas"]["ship"]
    assert {"the-shivering-sea", "port-of-white-harbor", "port-of-winterfell"} <= set(ships)
    assert not {"bay-of-ice", "the-bite", "port-of-lannisport", "white-harbor"} & set(ships)
    events = g.act(
        "stark",
        {"white-harbor": ["footman", "knight"], "winterfell": ["siege-engine"], "port-of-white-harbor": ["ship"]},
    )
    assert units_of(g, "white-harbor") == ["stark footman", "stark knight"]
    assert units_of(g, "winterfell") == ["stark footman", "stark siege-engine"]
    assert units_of(g, "port-of-white-harbor") == ["stark ship"]
    assert event(events, "loan-units-placed")["placed"] == {
        "white-harbor": ["footman", "knight"],
        "winterfell": ["siege-engine"],
        "port-of-white-harbor": ["ship"],
    }


def test_M_LOAN_09_unit_loans_refuse_foreign_neutral_and_shipless_areas_and_extra_units() -> None:
    g, _ = at_loan("full-host", {"winterfell": "stark footman", "lannisport": "lannister footman"})
    rejected(g, "stark", {"lannisport": ["footman"]}, "loan-units-area")
    rejected(g, "stark", {"kings-landing": ["footman"]}, "loan-units-area")  # its neutral force
    rejected(g, "stark", {"moat-cailin": ["footman"]}, "loan-units-area")  # nobody's
    rejected(g, "stark", {"bay-of-ice": ["ship"]}, "loan-units-area")  # no Stark ship there
    rejected(g, "stark", {"the-shivering-sea": ["footman"]}, "loan-units-area")
    rejected(g, "stark", {"winterfell": ["ship"]}, "loan-units-area")
    rejected(g, "stark", {"winterfell": ["knight", "knight"]}, "loan-units-count")
    rejected(g, "stark", {"winterfell": ["dragon"]}, "illegal-choice")
    rejected(g, "stark", ["winterfell"], "bad-answer")


def test_M_LOAN_09_unit_loans_keep_the_whole_placement_within_supply_ships_included() -> None:
    """Supply 1 allows armies of 3 and 2: three ships more at sea make an army of 4; two armies of 2 made apart
    beside Winterfell's make three armies. Each alone would do."""
    g, _ = at_loan(
        "sea-raiders",
        {"winterfell": "stark footman footman", "white-harbor": "stark footman", "moat-cailin": "stark footman"},
        supply={"stark": 1},
    )
    p = prompt(g, "stark")
    assert p.choices["units"] == {"footman": 1, "ship": 3}
    rejected(g, "stark", {"the-shivering-sea": ["ship", "ship", "ship"]}, "supply-exceeded")
    rejected(g, "stark", {"white-harbor": ["footman"], "the-shivering-sea": ["ship"]}, "supply-exceeded")
    g.act("stark", {"the-shivering-sea": ["ship", "ship"]})
    assert units_of(g, "the-shivering-sea") == ["stark ship"] * 3
    assert rules.units_on_board(g.s, "stark", "footman") == 4  # the footman left out stays in the reserve


def test_M_LOAN_09_vanguard_cavalry_offers_only_the_reserve_and_may_place_fewer() -> None:
    knights = {a: "stark knight" for a in ("winterfell", "white-harbor", "moat-cailin", "castle-black")}
    g, _ = at_loan("vanguard-cavalry", knights)
    p = prompt(g, "stark")
    assert p.choices["units"] == {"knight": 1} and p.info["printed"] == {"knight": 3}
    rejected(g, "stark", {"winterfell": ["knight"], "white-harbor": ["knight"]}, "loan-units-count")
    events = g.act("stark", {})
    assert event(events, "loan-units-placed")["placed"] == {}
    assert rules.units_on_board(g.s, "stark", "knight") == 4


def test_M_LOAN_09_the_default_places_every_unit_within_supply() -> None:
    """Supply 0 allows two armies of 2: one unit beside Winterfell's footman, one alone in each land held by a Power
    token."""
    g, _ = at_loan(
        "siege-engineers",
        {"winterfell": "stark footman"},
        supply={"stark": 0},
        power_tokens={"white-harbor": "stark", "moat-cailin": "stark"},
    )
    p = prompt(g, "stark")
    assert sum(len(ts) for ts in p.default.values()) == 3
    g.act("stark", p.default)
    assert rules.supply_ok(g.s, "stark")
    assert rules.units_on_board(g.s, "stark", "siege-engine") == 2


def test_M_LOAN_09_a_unit_loan_with_nothing_placeable_asks_nothing() -> None:
    knights = {a: "stark knight" for a in ("winterfell", "white-harbor", "moat-cailin", "castle-black", "karhold")}
    g, events = at_loan("vanguard-cavalry", knights)
    assert event(events, "loan-nothing")["loan"] == "vanguard-cavalry"
    assert g.prompt_for("stark") is None


# ===== the developed board (M-DEV-01, -02, M-LOAN-10) =====


def supply_card(bank: dict[str, Any] | None = None) -> Game:
    spec: dict[str, Any] = {
        "players": FOUR,
        "options": MOD,
        "round": 2,
        "units": {"winterfell": "stark footman", "white-harbor": "stark footman"},
        "supply": {"stark": 0},
        "start": {"westeros": 1, "card": "supply"},
    }
    if bank is not None:
        spec["bank"] = bank
    return Game.from_scenario(spec)


def test_M_DEV_01_a_barrel_token_counts_at_the_supply_card() -> None:
    plain = supply_card()
    developed = supply_card({"developed": {"white-harbor": {"barrel": 2}}})
    assert developed.s.houses["stark"].supply == plain.s.houses["stark"].supply + 2


def test_M_DEV_02_a_declined_castle_no_longer_counts_for_mustering_or_victory() -> None:
    plain = supply_card()
    declined = supply_card({"declined": {"white-harbor": ["castle"]}})
    assert rules.castles_controlled(plain.s, "stark") == 2
    assert rules.castles_controlled(declined.s, "stark") == 1
    assert rules.victory_points(declined.s)["stark"] == rules.victory_points(plain.s)["stark"] - 1
    assert set(muster_choices(plain.s, "stark")["areas"]) == {"winterfell", "white-harbor"}
    assert set(muster_choices(declined.s, "stark")["areas"]) == {"winterfell"}


def test_M_LOAN_10_master_at_arms_stronghold_musters_two_points() -> None:
    """Baratheon, first in turn order, makes Harrenhal a stronghold; Lannister's special Consolidate Power order
    there then musters with 2 points: a knight."""
    g, _ = at_loan(
        "master-at-arms",
        {"harrenhal": "lannister footman"},
        taker="baratheon",
        sea="shipbreaker-bay",
        orders={"harrenhal": "consolidate*"},
    )
    g.act("baratheon", ["harrenhal", "white-harbor"])
    assert area(g, "harrenhal").fortification == 2
    assert prompt(g, "lannister").kind == "consolidate"
    g.act("lannister", "muster")
    p = prompt(g, "lannister")
    assert p.kind == "muster" and p.choices["areas"]["harrenhal"]["points"] == 2
    g.act("lannister", {"harrenhal": [{"recruit": "knight"}]})
    assert units_of(g, "harrenhal") == ["lannister footman", "lannister knight"]
