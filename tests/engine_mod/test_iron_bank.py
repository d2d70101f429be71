"""The Iron Bank of Braavos (issue Z): its setup, the Iron Bank order, taking a loan, the bank's shift, interest and
units lost for it, the Braavos token, and the order of the start of a round. The loans' effects are proven in
tests/engine_mod/test_loans.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, new_game, rules
from engine.steps.planning import usable_tokens, vassal_tokens

from ..engine_action.helpers import event, prompt, rejected

MOD = {"ruleset": "mother-of-dragons"}
FOUR = ["stark", "lannister", "baratheon", "targaryen"]
VASSALS = ["greyjoy", "tyrell", "martell", "arryn"]
TRACKS = {  # every house in play is on each track; Targaryen keeps the last space (M-TARG-16)
    "iron_throne": ["stark", "lannister", "baratheon", *VASSALS, "targaryen"],
    "fiefdoms": ["lannister", "baratheon", "stark", *VASSALS, "targaryen"],
    "kings_court": ["baratheon", "stark", "lannister", *VASSALS, "targaryen"],
}


def game(**spec: Any) -> Game:
    """Four players with Targaryen (the others' houses are vassals), no garrisons or neutral forces unless given."""
    base: dict[str, Any] = {"players": FOUR, "options": MOD, "garrisons": {}, "neutral": {}, "tracks": TRACKS}
    return Game.from_scenario({**base, **spec})


def at_consolidate(power: dict[str, int], orders: dict[str, str], units: dict[str, str], **spec: Any) -> Game:
    """Round 10's Consolidate Power step unless ``round`` says otherwise (finishing round 10's ends the game)."""
    return game(**{"round": 10, **spec}, start="consolidate", power=power, orders=orders, units=units)


BANK = {"slots": ["customs-officer", "spymaster", "pyromancer"]}
STARK_AT_SEA = {"winterfell": "stark footman", "bay-of-ice": "stark ship"}


def test_M_SETUP_21_the_loans_are_shuffled_and_one_is_revealed_on_the_right_slot() -> None:
    """M-SETUP-21, M-BANK-08: with Targaryen the twelve loans are shuffled, the top one lies on the right slot
    (payment 7), the others face down; without Targaryen there is no bank and nothing new is saved."""
    g = new_game(FOUR, seed=5, options=MOD)
    bank = g.view(None)["bank"]
    assert [s["payment"] for s in bank["slots"]] == [1, 4, 7]
    assert bank["slots"][0]["loan"] is None and bank["slots"][1]["loan"] is None
    assert bank["slots"][2]["loan"] is not None and bank["deck"] == 11
    other = new_game(FOUR, seed=6, options=MOD)
    assert [g.s.bank["slots"][2], *g.s.bank["deck"]] != [other.s.bank["slots"][2], *other.s.bank["deck"]]
    plain = new_game(4, seed=5, options=MOD)
    assert "bank" not in plain.view(None) and '"bank"' not in plain.to_json()


def test_M_SEAORD_05_the_iron_bank_order_is_a_sea_order_only_where_the_bank_is() -> None:
    """M-SEAORD-05 (reopened by Z), M-SEAORD-01: each house's third sea order is the Iron Bank order; it is offered
    only in games with the bank (without it the order could do nothing)."""
    with_bank = game(start="planning", units=STARK_AT_SEA)
    assert usable_tokens(with_bank.s, "stark")["sea-iron-bank"] == 1
    without = Game.from_scenario({"players": 4, "options": MOD, "start": "planning"})
    assert "sea-iron-bank" not in usable_tokens(without.s, "stark")


def test_M_SEAORD_03_M_BANK_01_M_BANK_02_the_order_takes_a_loan_in_the_consolidate_power_step() -> None:
    """M-SEAORD-03, M-BANK-01, M-BANK-02: resolved in the Consolidate Power step, the order offers the loans the
    house can pay for; the slot's payment is discarded, the effect resolves at once (Customs Officer: 10 Power) and
    the card stays with its taker; its slot stays empty."""
    g = at_consolidate({"stark": 5}, {"bay-of-ice": "sea-iron-bank"}, STARK_AT_SEA, bank=BANK)
    p = prompt(g, "stark")
    assert p.kind == "loan" and p.default is None
    assert p.choices == ["customs-officer", "spymaster", None]  # the pyromancer's 7 is more than Stark's 5
    assert [o["payment"] for o in p.info["offers"]] == [1, 4, 7] and p.info["power"] == 5
    rejected(g, "stark", "pyromancer", "loan-power")
    rejected(g, "stark", "full-host", "illegal-choice")
    events = g.act("stark", "customs-officer")
    assert event(events, "loan-taken") == {
        "type": "loan-taken",
        "house": "stark",
        "loan": "customs-officer",
        "slot": 0,
        "payment": 1,
    }
    assert event(events, "loan-power")["gained"] == 10
    assert g.s.houses["stark"].power == 5 - 1 + 10
    assert g.s.bank["loans"] == {"stark": ["customs-officer"]} and g.s.bank["slots"][0] is None
    assert "bay-of-ice" not in g.s.orders


def test_M_BANK_02_no_loan_is_a_legal_answer_and_an_unpayable_order_asks_nothing() -> None:
    g = at_consolidate({"stark": 5}, {"bay-of-ice": "sea-iron-bank"}, STARK_AT_SEA, bank=BANK)
    events = g.act("stark", None)
    assert event(events, "loan-declined")["house"] == "stark" and g.s.houses["stark"].power == 5
    assert not g.s.bank["loans"]
    broke = at_consolidate({"stark": 0}, {"bay-of-ice": "sea-iron-bank"}, STARK_AT_SEA, bank=BANK)
    assert broke.finished  # no question: the order is removed and the last round ends
    assert event(broke._events, "loan-unaffordable")["power"] == 0


def test_M_BANK_02_power_is_checked_again_when_the_answer_comes() -> None:
    """A gift of Power may leave since the question was asked (M-GIFT-01): the payment is checked on the answer."""
    g = at_consolidate({"stark": 5}, {"bay-of-ice": "sea-iron-bank"}, STARK_AT_SEA, bank=BANK)
    g.s.houses["stark"].power = 3
    rejected(g, "stark", "spymaster", "loan-power")


def test_B_CP_01_M_SEAORD_03_by_default_consolidate_power_orders_come_first_in_turn_order() -> None:
    """B-CP-01, M-SEAORD-03: a house holding both kinds of order is asked which it resolves first; its default,
    Consolidate Power, lets the Power gained pay for the loan; houses take turns in Iron Throne order."""
    g = at_consolidate(
        {"stark": 3, "lannister": 0},
        {"bay-of-ice": "sea-iron-bank", "winterfell": "consolidate", "lannisport": "consolidate"},
        {**STARK_AT_SEA, "lannisport": "lannister footman"},
        bank=BANK,
    )
    first = prompt(g, "stark")
    assert first.kind == "consolidate-order" and first.default == "consolidate"
    g.act("stark", first.default)
    p = prompt(g, "stark")
    assert p.info["power"] == 3 + 2  # Winterfell's 1 + its crown came first
    assert "spymaster" in p.choices  # 4 Power: affordable only after consolidating
    assert g.s.houses["lannister"].power == 1  # Lannister's turn came between Stark's two orders


def loan_race() -> Game:
    """The position of issue V: Baratheon 1st holds a Consolidate Power order, Lannister 2nd one and an Iron Bank
    order, Stark 3rd an Iron Bank order; the bank has one loan (1 Power), which each can pay for."""
    return at_consolidate(
        {"lannister": 3, "stark": 3, "baratheon": 3},
        {
            "dragonstone": "consolidate",
            "lannisport": "consolidate",
            "the-golden-sound": "sea-iron-bank",
            "bay-of-ice": "sea-iron-bank",
        },
        {
            **STARK_AT_SEA,
            "dragonstone": "baratheon footman",
            "lannisport": "lannister footman",
            "the-golden-sound": "lannister ship",
        },
        bank={"slots": ["customs-officer", None, None]},
        tracks={**TRACKS, "iron_throne": ["baratheon", "lannister", "stark", *VASSALS, "targaryen"]},
    )


def test_B_CP_01_M_SEAORD_03_a_house_may_resolve_its_iron_bank_order_before_its_consolidate_power() -> None:
    """B-CP-01 (002:1836-1846): each house in turn resolves one order of its choice; M-SEAORD-03, M-BANK-01
    (003:505): the Iron Bank order is one of them. Lannister (2nd) takes the only loan before Stark (3rd) can; Stark
    then can pay for nothing, and Lannister's Consolidate Power order, the only kind it has left, asks nothing."""
    g = loan_race()
    p = prompt(g, "lannister")
    assert p.kind == "consolidate-order"
    assert p.choices == ["consolidate", "iron-bank"] and p.default == "consolidate"
    assert p.info == {"consolidate": ["lannisport"], "iron_bank": ["the-golden-sound"], "power": 3}
    assert g.s.houses["baratheon"].power == 3 + 2  # Baratheon, 1st, consolidated without being asked
    rejected(g, "lannister", "raid", "illegal-choice")
    g.act("lannister", "iron-bank")
    loan = prompt(g, "lannister")
    assert loan.kind == "loan" and loan.choices == ["customs-officer", None]
    events = g.act("lannister", "customs-officer")
    assert event(events, "loan-taken")["house"] == "lannister"
    assert event(events, "loan-unaffordable")["house"] == "stark"  # the bank had nothing left for Stark
    assert event(events, "consolidate")["house"] == "lannister"  # its next turn: one kind left, nothing asked
    assert g.s.bank["loans"] == {"lannister": ["customs-officer"]}
    assert g.s.houses["lannister"].power == 3 - 1 + 10 + 1  # the payment, the Customs Officer, Lannisport
    assert not g.s.orders


def test_B_CP_01_M_SEAORD_03_the_default_consolidates_first_and_leaves_the_loan_to_the_next_house() -> None:
    """B-CP-01, M-SEAORD-03: in the same position the default (Consolidate Power first) keeps the engine's former
    order: Stark, 3rd, is asked for the loan before Lannister's Iron Bank order comes round."""
    g = loan_race()
    g.act("lannister", prompt(g, "lannister").default)
    assert g.s.houses["lannister"].power == 3 + 1  # Lannisport (no crown)
    p = prompt(g, "stark")
    assert p.kind == "loan"  # Stark holds only an Iron Bank order: asked for the loan, not which order
    events = g.act("stark", "customs-officer")
    assert event(events, "loan-taken")["house"] == "stark"
    assert event(events, "loan-unaffordable")["house"] == "lannister"
    assert g.s.bank["loans"] == {"stark": ["customs-officer"]}


def test_M_SEAORD_04_raiding_the_iron_bank_order_is_no_pillage() -> None:
    """M-SEAORD-04: a raid removes the Iron Bank order; no Power changes hands."""
    g = game(
        round=10,
        start="raid",
        power={"stark": 5, "lannister": 5},
        units={**STARK_AT_SEA, "sunset-sea": "lannister ship"},
        orders={"bay-of-ice": "sea-iron-bank", "sunset-sea": "raid"},
        bank=BANK,
    )
    p = prompt(g, "lannister")
    assert "bay-of-ice" in p.choices["sunset-sea"]
    events = g.act("lannister", {"from": "sunset-sea", "target": "bay-of-ice"})
    assert event(events, "raid")["order"] == "sea-iron-bank"
    assert not [e for e in events if e["type"] == "pillage"]
    assert g.s.houses["stark"].power == 5 and g.s.houses["lannister"].power == 5
    assert "bay-of-ice" not in g.s.orders


def westeros(round_: int = 3, **spec: Any) -> Game:
    """The start of round ``round_``: its Westeros phase is next."""
    return game(round=round_, start="westeros", **spec)


def test_M_BANK_03_the_bank_shifts_left_and_reveals_a_card_every_round_but_the_first() -> None:
    """M-BANK-03: every card moves one slot left, the one pushed off the left slot goes under the deck, the top
    card is revealed onto the right slot; an emptied slot stays empty until then."""
    g = westeros(power={"stark": 5}, units=STARK_AT_SEA, bank={"slots": ["customs-officer", None, "pyromancer"]})
    shifted = event(g._events, "bank-shifted")
    assert shifted["returned"] == "customs-officer" and shifted["revealed"] not in (None, "customs-officer")
    assert g.s.bank["slots"] == [None, "pyromancer", shifted["revealed"]]
    assert g.s.bank["deck"][-1] == "customs-officer" and len(g.s.bank["deck"]) == 10


def test_M_BANK_03_with_the_deck_empty_the_right_slot_stays_empty() -> None:
    """Decided: when every other loan is held the deck is empty; a card pushed off the left slot goes under the
    (empty) deck and is the card revealed."""
    held = ["loyal-maester", "savvy-steward", "master-at-arms", "expert-artificer", "the-faceless-men"]
    more = ["full-host", "vanguard-cavalry", "siege-engineers", "sea-raiders"]
    spec: dict[str, Any] = {
        "power": {"stark": 20, "lannister": 20},
        "units": {**STARK_AT_SEA, "lannisport": "lannister footman"},
    }
    g = westeros(
        **spec,
        bank={"slots": ["customs-officer", "spymaster", "pyromancer"], "loans": {"stark": held, "lannister": more}},
    )
    assert g.s.bank["slots"] == ["spymaster", "pyromancer", "customs-officer"] and g.s.bank["deck"] == []
    held.append("customs-officer")
    g2 = westeros(
        **spec, bank={"slots": [None, "spymaster", "pyromancer"], "loans": {"stark": held, "lannister": more}}
    )
    assert g2.s.bank["slots"] == ["spymaster", "pyromancer", None]
    assert event(g2._events, "bank-shifted")["revealed"] is None


def test_M_BANK_04_interest_is_paid_in_turn_order_as_the_westeros_phase_begins() -> None:
    """M-BANK-04: one Power per loan held, from every player in turn order, before any Westeros card is drawn."""
    g = westeros(
        power={"stark": 5, "lannister": 1},
        units={**STARK_AT_SEA, "lannisport": "lannister footman"},
        bank={"slots": [None, None, None], "loans": {"stark": ["spymaster", "pyromancer"], "lannister": ["full-host"]}},
    )
    events = g._events
    paid = [(e["house"], e["due"], e["paid"]) for e in events if e["type"] == "interest-paid"]
    assert paid == [("stark", 2, 2), ("lannister", 1, 1)]
    types = [e["type"] for e in events]
    assert types.index("interest-paid") < types.index("westeros-cards")
    assert g.s.houses["stark"].power == 3 and g.s.houses["lannister"].power == 0


def test_M_BANK_05_unpaid_interest_costs_units_chosen_by_the_blade_holder() -> None:
    """M-BANK-05: for each Power Stark cannot pay, Lannister (holding the Valyrian Steel Blade) destroys one of
    Stark's units anywhere; ships in the port of a land Stark no longer controls go with it (B-PORT-10)."""
    g = westeros(
        power={"stark": 1},
        units={
            "winterfell": "stark footman",
            "port-of-winterfell": "stark ship",
            "castle-black": "stark knight footman",
        },
        bank={"slots": [None, None, None], "loans": {"stark": ["spymaster", "pyromancer", "full-host"]}},
    )
    paid = event(g._events, "interest-paid")
    assert (paid["due"], paid["paid"], paid["unpaid"]) == (3, 1, 2)
    p = prompt(g, "lannister")
    assert p.kind == "interest-units" and p.choices["count"] == 2 and p.choices["debtor"] == "stark"
    assert sum(len(ts) for ts in p.default.values()) == 2
    rejected(g, "lannister", {"winterfell": ["footman"]}, "interest-count")
    rejected(g, "lannister", {"winterfell": ["knight"], "castle-black": ["footman"]}, "units-missing")
    events = g.act("lannister", {"winterfell": ["footman"], "castle-black": ["knight"]})
    assert event(events, "interest-units") == {
        "type": "interest-units",
        "debtor": "stark",
        "chooser": "lannister",
        "count": 2,
        "blade": True,
    }
    assert rules.units_in(g.s, "castle-black")[0].type == "footman" and not rules.units_in(g.s, "winterfell")
    # Winterfell is Stark's home: its printed crest keeps it, so the ship in its port stays.
    assert rules.units_in(g.s, "port-of-winterfell")


def test_M_BANK_05_a_lost_land_takes_the_ships_in_its_port() -> None:
    """B-PORT-10 after interest: Stark's last unit on a land that no crest keeps is destroyed, so the ship in its port
    goes too."""
    g = westeros(
        power={"stark": 0},
        units={"winterfell": "stark footman", "white-harbor": "stark footman", "port-of-white-harbor": "stark ship"},
        bank={"slots": [None, None, None], "loans": {"stark": ["spymaster"]}},
    )
    events = g.act("lannister", {"white-harbor": ["footman"]})
    lost = [e for e in events if e["type"] == "units-destroyed"]
    assert [e["area"] for e in lost] == ["white-harbor", "port-of-white-harbor"]


def test_M_BANK_05_M_BANK_10_the_next_player_on_fiefdoms_chooses_for_the_blade_holder() -> None:
    """M-BANK-05: when the debtor holds the Blade the next house on the Fiefdoms track chooses; M-BANK-10 (decided):
    vassals are passed over (Baratheon, second here, is a vassal in this game)."""
    g = westeros(
        players=["stark", "lannister", "targaryen", "greyjoy"],
        tracks={
            "iron_throne": ["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn", "targaryen"],
            "fiefdoms": ["lannister", "baratheon", "greyjoy", "stark", "tyrell", "martell", "arryn", "targaryen"],
            "kings_court": ["greyjoy", "stark", "lannister", "baratheon", "tyrell", "martell", "arryn", "targaryen"],
        },
        power={"lannister": 0},
        units={"lannisport": "lannister footman footman"},
        bank={"slots": [None, None, None], "loans": {"lannister": ["spymaster"]}},
    )
    p = prompt(g, "greyjoy")
    assert p.kind == "interest-units" and p.info["blade"] is False and (p.info["due"], p.info["paid"]) == (1, 0)
    assert g.prompt_for("lannister") is None


def test_M_BANK_06_M_BANK_07_braavos_token_follows_control_and_cuts_payments() -> None:
    """M-BANK-06: the first player to beat Braavos's neutral force (5) takes its token and pays 1 less for every loan
    (0, 3 and 6; interest is not cut); M-BANK-07: while nobody holds Braavos the token lies aside."""
    g = at_consolidate(
        {"stark": 6},
        {"bay-of-ice": "sea-iron-bank"},
        {**STARK_AT_SEA, "braavos": "stark footman"},
        bank=BANK,
    )
    assert g.s.bank["braavos"] == "stark"
    assert event(g._events, "braavos-token") == {"type": "braavos-token", "house": "stark", "previous": None}
    p = prompt(g, "stark")
    assert [o["payment"] for o in p.info["offers"]] == [0, 3, 6] and p.info["braavos"]
    assert p.choices == ["customs-officer", "spymaster", "pyromancer", None]
    g.act("stark", "customs-officer")
    assert g.s.houses["stark"].power == 6 - 0 + 10
    neutral = game(start="planning", units={"winterfell": "stark footman"}, neutral={"braavos": 5})
    assert neutral.s.bank["braavos"] is None  # the neutral force still holds Braavos
    interest = westeros(
        power={"stark": 5},
        units={**STARK_AT_SEA, "braavos": "stark footman"},
        bank={"slots": [None, None, None], "loans": {"stark": ["spymaster"]}},
    )
    assert event(interest._events, "interest-paid")["paid"] == 1  # the token does not cut interest


def test_M_BANK_07_the_token_passes_to_the_new_controller_and_lies_aside_without_one() -> None:
    g = game(
        round=10,
        start="march",
        power={"stark": 5, "lannister": 5},
        units={"braavos": "stark footman", "norvos": "lannister knight knight"},
        orders={"braavos": "consolidate", "norvos": "march0"},
    )
    assert g.s.bank["braavos"] == "stark"
    events = g.act("lannister", {"from": "norvos", "moves": [{"to": "braavos", "units": ["knight", "knight"]}]})
    for _ in range(20):
        if g.s.bank["braavos"] != "stark" or g.finished:
            break
        p = next(p for p in g.prompts() if not p.answered)
        events += g.act(p.house, p.default)
    assert g.s.bank["braavos"] == "lannister"
    assert event(events, "braavos-token") == {"type": "braavos-token", "house": "lannister", "previous": "stark"}
    empty = game(
        round=10,
        start="march",
        units={"braavos": "stark footman", "bay-of-ice": "stark ship"},
        orders={"braavos": "march0"},
    )
    empty.act("stark", {"from": "braavos", "moves": [{"to": "norvos", "units": ["footman"]}]})
    assert empty.s.bank["braavos"] is None


def test_M_BANK_09_a_round_starts_with_the_dragons_then_the_bank_then_interest() -> None:
    """M-BANK-09 (decided): the round marker reaches a dragon token (round 4), then the bank shifts, then interest is
    paid, then the Westeros cards are drawn."""
    g = westeros(
        round_=4,
        dragon_strength=1,
        power={"stark": 5},
        units=STARK_AT_SEA,
        bank={"slots": ["customs-officer", None, None], "loans": {"stark": ["spymaster"]}},
    )
    types = [e["type"] for e in g._events]
    order = [
        types.index(t) for t in ("round-started", "dragon-strength", "bank-shifted", "interest-paid", "westeros-cards")
    ]
    assert order == sorted(order)


def test_M_BANK_vassals_take_no_loans_and_pay_no_interest() -> None:
    """Vassals neither take loans nor pay interest: their order sets hold no Iron Bank order, a scenario cannot give
    them a loan, and interest passes them over."""
    g = game(start="planning", units={"pyke": "greyjoy footman", "ironmans-bay": "greyjoy ship"})
    assert "greyjoy" in g.s.vassals
    assert not [t for t in vassal_tokens(g.s) if "iron-bank" in t]
    with pytest.raises(RuleError):
        game(start="planning", bank={"loans": {"greyjoy": ["spymaster"]}})


def test_M_LEAVE_01_a_player_who_leaves_returns_his_loans_under_the_deck() -> None:
    """Decided: when a player's house becomes a vassal (M-LEAVE-01) its loans go face down under the loan deck: a
    vassal holds none and pays no interest."""
    g = at_consolidate(
        {"stark": 5, "baratheon": 0},
        {"bay-of-ice": "sea-iron-bank"},
        {**STARK_AT_SEA, "dragonstone": "baratheon footman"},
        round=5,
        bank={"slots": ["customs-officer", None, None], "loans": {"baratheon": ["spymaster", "full-host"]}},
    )
    g.vassalize("baratheon")
    events = g.act("stark", None)
    assert event(events, "loans-returned") == {
        "type": "loans-returned",
        "house": "baratheon",
        "loans": ["spymaster", "full-host"],
    }
    assert "baratheon" in g.s.vassals and "baratheon" not in g.s.bank["loans"]
    assert g.s.bank["deck"][-3:] == ["spymaster", "full-host", "customs-officer"]  # then the bank shifted
    assert not [e for e in events if e["type"] == "interest-paid" and e["house"] == "baratheon"]


def test_M_DEV_01_M_LOAN_05_a_developed_area_gives_what_its_tokens_print() -> None:
    """M-DEV-01: development tokens count as printed symbols wherever the board is read: Winterfell's crown token adds
    a Power to its Consolidate Power, and a castle made a stronghold musters 2 points (the special order's question
    says so)."""
    g = at_consolidate(
        {"stark": 0},
        {"winterfell": "consolidate", "white-harbor": "consolidate*"},
        {"winterfell": "stark footman", "white-harbor": "stark footman"},
        bank={"developed": {"winterfell": {"crown": 1}, "white-harbor": {"stronghold": 1}}},
    )
    p = prompt(g, "stark")
    assert p.kind == "consolidate" and p.info["points"] == 2 and p.info["power"] == 1
    events = g.act("stark", "power")
    gained = {e["area"]: e["gained"] for e in events if e["type"] == "consolidate"}
    assert gained == {"winterfell": 3, "white-harbor": 1}  # 1 + its printed crown + the token's


def test_the_heuristic_agent_takes_only_a_loan_it_can_carry_to_the_end() -> None:
    """The heuristic agent answers for absent players (the ``agent`` autopilot): it takes a loan only when its Power
    after paying, with what the card gives, covers the interest on all its loans at every Westeros phase left, so an
    absent player is never left losing units to the bank."""
    from engine.agents import HeuristicAgent

    g = game(
        round=4,
        start="consolidate",
        power={"stark": 5},
        units=STARK_AT_SEA,
        orders={"bay-of-ice": "sea-iron-bank"},
        bank={"slots": ["spymaster", "customs-officer", None]},
    )
    p = prompt(g, "stark")
    assert p.choices == ["spymaster", "customs-officer", None]
    # Spymaster: 5 - 1 = 4 Power, short of 6 phases of interest; Customs Officer: 5 - 4 + 10 = 11, enough.
    assert HeuristicAgent(0).answer(p, g.view("stark")) == "customs-officer"
    late = game(
        round=10,
        start="consolidate",
        power={"stark": 1},
        units=STARK_AT_SEA,
        orders={"bay-of-ice": "sea-iron-bank"},
        bank={"slots": ["spymaster", None, None]},
    )
    assert HeuristicAgent(0).answer(prompt(late, "stark"), late.view("stark")) == "spymaster"  # no phase left


def test_B_CP_01_the_heuristic_agent_takes_a_loan_within_reach_first_and_consolidates_first_otherwise() -> None:
    """B-CP-01, M-SEAORD-03: asked which kind of order first, the heuristic agent visits the bank first when a loan
    it can carry is already within reach (a house after it could take it); with no Power to pay for one it
    consolidates first."""
    from engine.agents import HeuristicAgent

    g = loan_race()
    assert HeuristicAgent(0).answer(prompt(g, "lannister"), g.view("lannister")) == "iron-bank"
    g.s.houses["lannister"].power = 0
    assert HeuristicAgent(0).answer(prompt(g, "lannister"), g.view("lannister")) == "consolidate"
