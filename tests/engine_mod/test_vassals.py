"""Mother of Dragons vassals: setup, the claim, vassal orders, marching and support, combat (M-VASSAL-*, M-SETUP-*).

The Westeros phase, Power, victory and leaving players are in test_vassals_westeros.py; the vassal cards' texts in
tests/engine_cards/test_vassal_cards.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, data, new_game, rules
from engine.orders import VASSAL_TOKENS
from engine.rulesets.mother_of_dragons import shift_vassals
from engine.steps.planning import vassal_tokens
from tests.engine_action.helpers import event, prompt, rejected

MOD = {"ruleset": "mother-of-dragons"}
WESTEROS = {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn"}
FOUR = ["stark", "lannister", "greyjoy", "baratheon"]  # the vassals: tyrell, martell, arryn


def make(spec: dict[str, Any]) -> Game:
    """A Mother of Dragons position for four players, in round 10 (the game ends after its Action phase)."""
    spec = {"players": FOUR, "options": MOD, "garrisons": {}, "neutral": {}, "round": 10, **spec}
    return Game.from_scenario(spec)


def play(g: Game, script: dict[tuple[str, str], Any] | None = None, *, until: str | None = None) -> list[Any]:
    """Answer open prompts from ``script`` (``(house, kind) -> answer``, a list is a queue), else by default, until
    the game ends or a prompt of kind ``until`` opens. Returns every event."""
    script = {k: list(v) if isinstance(v, list) and k[1] != "casualties" else v for k, v in (script or {}).items()}
    events: list[Any] = []
    for _ in range(300):
        if g.finished:
            return events
        p = next(p for p in g.prompts() if not p.answered)
        if until is not None and p.kind == until:
            return events
        answer = script.get((p.house, p.kind), p.default)
        if isinstance(answer, list) and (p.house, p.kind) in script and p.kind != "casualties":
            queue = script[(p.house, p.kind)]
            answer = queue.pop(0) if queue else p.default
        events += g.act(p.house, answer)
    raise AssertionError("the game did not settle")


def of(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e["type"] == kind]


# ----- who is a vassal, and its setup -----


def test_M_SETUP_03_M_PLAYERS_01_M_PLAYERS_02_M_PLAYERS_03_M_PLAYERS_04_every_unpicked_house_is_a_vassal() -> None:
    """M-SETUP-03, M-PLAYERS-01..04: every house of Westeros nobody picked is a vassal; players may pick any of the
    seven; seven players leave no vassal; with three players Targaryen cannot be picked (with four or more it can,
    and is never a vassal: tests/engine_mod/test_targaryen.py)."""
    for players in (3, 4, 5, 6):
        g = new_game(players, options=MOD)
        assert len(g.s.vassals) == 7 - players
        assert set(g.s.vassals) | set(rules.player_houses(g.s)) == WESTEROS == set(g.s.players)
        assert all(liege is None for liege in g.s.vassals.values())
    g = new_game(["arryn", "martell", "stark", "tyrell"], options=MOD)
    assert set(g.s.vassals) == {"lannister", "greyjoy", "baratheon"}
    assert new_game(7, options=MOD).s.vassals == {}
    for bad in (["stark", "stark", "lannister"], ["stark", "lannister", "targaryen"]):
        with pytest.raises(RuleError) as info:
            new_game(bad, options=MOD)
        assert info.value.code == "bad-houses"


def test_M_SETUP_07_M_SETUP_11_a_vassal_is_set_up_from_its_preparation_card() -> None:
    """M-SETUP-07, M-SETUP-11: a vassal has its preparation card's units and garrison, its supply on 4 whatever it
    controls, no Power and no house cards."""
    g = new_game(FOUR, options=MOD)
    martell = {a: sorted(u.type for u in us) for a, us in g.s.units.items() if us[0].house == "martell"}
    assert martell == {
        "sunspear": ["footman"],
        "salt-shore": ["footman"],
        "starfall": ["footman"],
        "yronwood": ["footman", "knight"],
        "sea-of-dorne": ["ship"],
        "east-summer-sea": ["ship", "ship"],
    }
    assert g.s.garrisons["sunspear"] == 2 and g.s.garrisons["the-eyrie"] == 4
    for vassal in ("tyrell", "martell", "arryn"):
        hs = g.s.houses[vassal]
        assert (hs.power, hs.supply, hs.hand, hs.discards) == (0, 4, [], [])
    assert all(g.s.houses[p].power == 7 and len(g.s.houses[p].hand) == 7 for p in FOUR)


def test_M_SETUP_13_vassals_on_the_first_three_spaces_go_to_the_end_of_the_track() -> None:
    """M-SETUP-13 (the reference's example without Targaryen): on each track separately, if a vassal stands on
    spaces 1-3 every vassal leaves it, the others close up, and the vassals fill the end in their former order."""
    g = new_game(["lannister", "stark", "arryn"], options=MOD)
    assert g.s.tracks["iron_throne"] == ["lannister", "stark", "arryn", "baratheon", "martell", "greyjoy", "tyrell"]
    vassals = {"tyrell", "baratheon"}
    untouched = ["greyjoy", "stark", "lannister", "tyrell", "baratheon"]
    assert shift_vassals(untouched, vassals) == untouched
    assert shift_vassals(["stark", "tyrell", "lannister", "baratheon"], vassals) == [
        "stark",
        "lannister",
        "tyrell",
        "baratheon",
    ]


def test_M_SETUP_14_M_VASSAL_28_a_vassal_first_on_a_track_never_holds_its_dominance_token() -> None:
    """M-SETUP-14, M-VASSAL-28 (known edge case: a vassal on top of a track never takes its token): the next house
    on the track that is a player holds it, and the Blade's and Raven's decisions go to that player."""
    g = make(
        {
            "units": {"winterfell": "stark footman", "highgarden": "tyrell footman", "lannisport": "lannister footman"},
            "tracks": {
                "fiefdoms": ["tyrell", "martell", "greyjoy", "stark", "lannister", "baratheon", "arryn"],
                "kings_court": ["arryn", "lannister", "stark", "greyjoy", "baratheon", "tyrell", "martell"],
            },
            "start": "planning",
        }
    )
    view = g.view(None)
    assert view["dominance"]["valyrian_steel_blade"]["house"] == "greyjoy"
    assert view["dominance"]["messenger_raven"]["house"] == "lannister"
    assert rules.holder(g.s, "fiefdoms") == "greyjoy"


# ----- the claim -----


def test_M_SETUP_15_M_SETUP_16_M_PLAYERS_01_M_VASSAL_02_three_players_the_leader_holds_two_sets() -> None:
    """M-SETUP-15, M-SETUP-16, M-PLAYERS-01, M-VASSAL-02: one vassal order set per vassal, dealt from the top of the
    Iron Throne track; with three players and four vassals the leader holds two, so he is asked twice."""
    g = new_game(["lannister", "stark", "arryn"], options=MOD)
    first = prompt(g, "lannister")
    assert first.kind == "vassal-claim" and first.info["sets"] == 2
    assert first.choices == ["baratheon", "martell", "greyjoy", "tyrell", "pass"]
    g.act("lannister", "tyrell")
    second = prompt(g, "lannister")
    assert second.info["sets"] == 1 and second.id != first.id and "tyrell" not in second.choices
    g.act("lannister", "martell")
    assert prompt(g, "stark").kind == "vassal-claim"


def test_M_VASSAL_04_M_VASSAL_05_M_VASSAL_06_pick_or_pass_the_last_takes_the_rest() -> None:
    """M-VASSAL-01, M-VASSAL-03, M-VASSAL-04, M-VASSAL-05, M-VASSAL-06, M-VASSAL-08: in turn order each holder picks a
    vassal or passes his set to the next player down (who may then hold several); the last player is never asked and
    commands every vassal left. All sets have the same faces, so a set is just a count. Commanders change once, when the
    claim ends; then planning goes on."""
    g = new_game(FOUR, options=MOD)
    order = rules.player_houses(g.s)
    assert order == ["baratheon", "lannister", "stark", "greyjoy"]
    assert prompt(g, "baratheon").info["sets"] == 1
    events = g.act("baratheon", "arryn")
    assert of(events, "vassal-claimed") == [{"type": "vassal-claimed", "house": "baratheon", "vassal": "arryn"}]
    assert g.s.vassals == {"tyrell": None, "martell": None, "arryn": None}  # nothing changes until the end
    assert g.prompt_for("baratheon") is None
    events = g.act("lannister", "pass")
    assert of(events, "vassal-passed") == [{"type": "vassal-passed", "house": "lannister", "receiver": "stark"}]
    assert prompt(g, "stark").info["sets"] == 2
    rejected(g, "lannister", "tyrell", "not-your-turn")
    rejected(g, "stark", "arryn", "illegal-choice")
    g.act("stark", "tyrell")
    events = g.act("stark", "pass")  # the set reaches the last player, who takes Martell unasked
    assert of(events, "vassal-claimed") == [{"type": "vassal-claimed", "house": "greyjoy", "vassal": "martell"}]
    assert g.s.vassals == {"tyrell": "stark", "martell": "greyjoy", "arryn": "baratheon"}
    assert of(events, "vassals-commanded")[0]["commanders"] == g.s.vassals
    assert {p.kind for p in g.prompts()} == {"orders"}
    assert rules.commander(g.s, "martell") == "greyjoy" and rules.vassals_of(g.s, "stark") == ["tyrell"]


def test_M_VASSAL_06_everyone_passing_leaves_every_vassal_to_the_last_player() -> None:
    """M-VASSAL-06: when every holder passes, the last player commands them all (he cannot pass)."""
    g = new_game(FOUR, options=MOD)
    passing = {(h, "vassal-claim"): ["pass"] * 3 for h in ("baratheon", "lannister", "stark")}
    play(g, passing, until="orders")
    assert g.s.vassals == {"tyrell": "greyjoy", "martell": "greyjoy", "arryn": "greyjoy"}


def test_the_claims_default_keeps_a_vassal_never_hands_the_set_on() -> None:
    """Issue U, fault 5: one careless tap (or a missed deadline) must not give a vassal away: the claim's default is a
    vassal, the one the house commanded last round when it is still free."""
    g = new_game(FOUR, options=MOD)
    first = next(p for p in g.prompts() if not p.answered)
    assert first.kind == "vassal-claim" and first.default != "pass" and first.default in first.choices
    play(g, until="orders")  # every claim by its default
    assert sorted(g.s.vassals.values()) == ["baratheon", "lannister", "stark"]  # each set kept by whom it was dealt
    g.s.vassals = {"tyrell": "stark", "martell": "baratheon", "arryn": "lannister"}  # last round's commanders
    from engine.steps.vassals import claim_default

    assert claim_default(g.s, "lannister", ["tyrell", "martell", "arryn"]) == "arryn"
    assert claim_default(g.s, "greyjoy", ["tyrell", "martell"]) == "tyrell"
    assert claim_default(g.s, "greyjoy", []) == "pass"


# ----- vassal orders -----


def planning_with_vassals(tracks: dict[str, list[str]] | None = None, **extra: Any) -> Game:
    """Round 10's Planning phase: Stark commands Tyrell, Lannister Martell (claimed by script)."""
    iron_throne = ["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn"]
    g = make(
        {
            "units": {
                "winterfell": "stark footman",
                "lannisport": "lannister footman",
                "pyke": "greyjoy footman",
                "storms-end": "baratheon footman",
                "highgarden": "tyrell footman knight",
                "oldtown": "tyrell footman",
                "redwyne-straights": "tyrell ship",
                "sunspear": "martell footman",
                "the-eyrie": "arryn knight",
            },
            "tracks": {"iron_throne": iron_throne, **(tracks or {})},
            "start": "planning",
            **extra,
        }
    )
    claims = {("stark", "vassal-claim"): "tyrell", ("lannister", "vassal-claim"): "martell"}
    play(g, {**claims, ("greyjoy", "vassal-claim"): "pass"}, until="orders")  # Arryn goes down to Baratheon
    return g


def place_player_orders(g: Game) -> None:
    for house, area in (("stark", "winterfell"), ("lannister", "lannisport"), ("greyjoy", "pyke")):
        g.act(house, {"orders": {area: "defense1"}})
    g.act("baratheon", {"orders": {"storms-end": "defense1"}})


def test_M_VASSAL_09_M_VASSAL_10_vassal_orders_follow_the_players_in_turn_order_two_at_most() -> None:
    """M-VASSAL-09, M-VASSAL-10 (known edge case: vassal orders are placed in turn order): once every player has placed
    his own orders, each liege in turn order gives his vassals at most two of the four tokens, each once, only where the
    vassal has units; areas may stay without an order."""
    g = planning_with_vassals()
    assert g.s.vassals["tyrell"] == "stark" and g.s.vassals["martell"] == "lannister"
    assert {p.house for p in g.prompts()} == {"stark", "lannister", "greyjoy", "baratheon"}
    place_player_orders(g)
    first = prompt(g, "tyrell")
    assert [p.house for p in g.prompts()] == ["tyrell"]  # one vassal at a time, Stark's before Lannister's
    assert first.kind == "vassal-orders" and first.secret and first.default == {"orders": {}}
    assert first.choices == {
        "areas": ["highgarden", "oldtown", "redwyne-straights"],
        "tokens": list(VASSAL_TOKENS),
        "max": 2,
    }
    three = {"highgarden": "vassal-march0", "oldtown": "vassal-defense3", "redwyne-straights": "vassal-raid-support1"}
    rejected(g, "tyrell", {"orders": three}, "too-many-vassal-orders")
    rejected(g, "tyrell", {"orders": {"highgarden": "vassal-march0", "oldtown": "vassal-march0"}}, "order-overused")
    rejected(g, "tyrell", {"orders": {"winterfell": "vassal-march0"}}, "order-area-empty")
    rejected(g, "tyrell", {"orders": {"highgarden": "march0"}}, "unknown-order")
    g.act("tyrell", {"orders": {"highgarden": "vassal-march0", "oldtown": "vassal-defense3"}})
    assert prompt(g, "martell").kind == "vassal-orders"
    assert g.view("martell")["areas"]["highgarden"]["order"] == {"house": "tyrell", "hidden": True}
    g.act("martell", {"orders": {}})
    assert g.s.vassals["arryn"] == "baratheon" and prompt(g, "arryn").kind == "vassal-orders"
    events = g.act("arryn", {"orders": {}})
    revealed = of(events, "orders-revealed")[0]["orders"]
    assert revealed["highgarden"] == ["tyrell", "vassal-march0"] and "sunspear" not in revealed
    assert "redwyne-straights" not in g.s.orders


def test_M_VASSAL_37_westeros_restrictions_forbid_a_combined_token_if_either_half_is_forbidden() -> None:
    """M-VASSAL-37 (and the known edge case: Raid/Support is forbidden under Sea of Storms and Web of Lies)."""
    g = planning_with_vassals(restrictions=["raid"], round=9)
    assert "vassal-raid-support1" not in vassal_tokens(g.s)
    g.s.restrictions = ["support"]
    assert "vassal-raid-support1" not in vassal_tokens(g.s)
    g.s.restrictions = ["defense"]
    assert vassal_tokens(g.s) == ["vassal-march0", "vassal-raid-support1"]
    g.s.restrictions = ["march-plus-one", "consolidate"]
    assert vassal_tokens(g.s) == list(VASSAL_TOKENS)


def test_M_VASSAL_12_the_raven_never_swaps_a_vassal_order() -> None:
    """M-VASSAL-12: the Raven's holder swaps only his own orders, never those of the vassals he commands."""
    g = planning_with_vassals(
        tracks={"kings_court": ["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn"]}
    )
    place_player_orders(g)
    g.act("tyrell", {"orders": {"highgarden": "vassal-march0"}})
    g.act("martell", {"orders": {"sunspear": "vassal-defense3"}})
    g.act("arryn", {"orders": {}})
    raven = prompt(g, "stark")
    assert raven.kind == "raven" and set(raven.choices["swap"]) == {"winterfell"}
    rejected(g, "stark", {"action": "swap", "area": "highgarden", "token": "vassal-defense3"}, "raven-bad-area")


# ----- the Action phase -----


def action(units: dict[str, str], orders: dict[str, str], **extra: Any) -> Game:
    """Round 10's Action phase; Stark commands Tyrell and Martell, Lannister commands Arryn."""
    spec: dict[str, Any] = {
        "units": units,
        "orders": orders,
        "vassals": {"tyrell": "stark", "martell": "stark", "arryn": "lannister"},
        "start": "raid",
        **extra,
    }
    return make(spec)


def test_M_VASSAL_11_vassal_orders_resolve_at_the_vassals_own_place_in_turn_order() -> None:
    """M-VASSAL-11: a vassal's orders resolve like a player's, at the vassal's own Iron Throne position."""
    g = action(
        {"highgarden": "tyrell footman", "lannisport": "lannister footman", "winterfell": "stark footman"},
        {"highgarden": "vassal-raid-support1", "lannisport": "raid", "winterfell": "raid"},
        tracks={"iron_throne": ["lannister", "tyrell", "stark", "greyjoy", "baratheon", "martell", "arryn"]},
    )
    seen = []
    for _ in range(3):
        p = next(p for p in g.prompts() if not p.answered)
        seen.append(p.house)
        g.act(p.house, p.default)
    assert seen == ["lannister", "tyrell", "stark"]


def test_M_VASSAL_13_a_vassal_never_marches_into_a_port_nor_into_its_familys_areas() -> None:
    """M-VASSAL-13 (known edge case: vassals cannot march into ports, PR #1451): no port, even its own; no area its
    liege or a fellow vassal controls; other houses' areas are open."""
    g = action(
        {
            "highgarden": "tyrell knight",
            "oldtown": "martell footman",
            "redwyne-straights": "tyrell ship",
            "the-reach": "stark footman",
            "dornish-marches": "lannister footman",
            "winterfell": "stark footman",
        },
        {"highgarden": "vassal-march0", "redwyne-straights": "vassal-raid-support1"},
        start="march",
        power_tokens={"searoad-marches": "stark"},
    )
    march = prompt(g, "tyrell")
    destinations = march.choices["highgarden"]["destinations"]["knight"]
    assert "dornish-marches" in destinations  # Lannister's: open
    assert not {"oldtown", "the-reach", "searoad-marches"} & set(destinations)  # Martell's and Stark's
    rejected(g, "tyrell", {"from": "highgarden", "moves": [{"to": "the-reach", "units": ["knight"]}]}, "not-adjacent")
    ships = rules.move_destinations(g.s, "tyrell", "redwyne-straights", "ship")
    assert not any(rules.board(g.s).areas[a].is_port for a in ships) and "west-summer-sea" in ships
    assert "port-of-oldtown" in rules.board(g.s).neighbours["redwyne-straights"]


def test_M_VASSAL_31_M_VASSAL_36_a_liege_never_enters_his_vassals_areas_but_may_enter_anothers() -> None:
    """M-VASSAL-31: a liege may not move into areas his vassals control (units or a power token); M-VASSAL-36
    [DERIVED]: the areas of another liege's vassal are open to him."""
    g = action(
        {
            "the-reach": "stark footman footman",
            "highgarden": "tyrell footman",
            "the-eyrie": "arryn knight",
            "the-mountains-of-the-moon": "stark knight",
        },
        {"the-reach": "march0", "the-mountains-of-the-moon": "march1*"},
        start="march",
        power_tokens={"dornish-marches": "martell"},
        garrisons={"the-eyrie": 4},
    )
    reach = rules.move_destinations(g.s, "stark", "the-reach", "footman")
    assert "highgarden" not in reach and "dornish-marches" not in reach and "kingswood" in reach
    assert "the-eyrie" in rules.move_destinations(g.s, "stark", "the-mountains-of-the-moon", "knight")


def test_M_VASSAL_14_M_VASSAL_16_raid_support_raids_or_stays_as_a_support_plus_one() -> None:
    """M-VASSAL-14, M-VASSAL-16: at the vassal's raid turn its liege raids with Raid/Support (then it is gone) or gives
    it no target, and it stays as a Support order worth +1 for the round."""
    g = action(
        {
            "highgarden": "tyrell footman",
            "the-reach": "stark knight",
            "dornish-marches": "lannister footman",
            "searoad-marches": "lannister footman",
        },
        {
            "highgarden": "vassal-raid-support1",
            "the-reach": "march0",
            "dornish-marches": "support0",
            "searoad-marches": "consolidate",
        },
    )
    raid = prompt(g, "tyrell")
    assert raid.info["stays_as_support"] == ["highgarden"]
    assert raid.choices == {"highgarden": ["dornish-marches", "searoad-marches"]}
    events = g.act("tyrell", {"from": "highgarden", "target": None})
    assert of(events, "raid-kept-as-support") and g.s.orders["highgarden"].token == "vassal-raid-support1"
    assert g.prompt_for("tyrell") is None  # decided: no second raid turn
    g.act("stark", {"from": "the-reach", "moves": [{"to": "dornish-marches", "units": ["knight"]}]})
    support = prompt(g, "tyrell")
    assert support.kind == "support" and support.choices == ["attacker", "none"]  # never against its liege
    events = play(g, {("tyrell", "support"): "attacker", ("stark", "house-card"): "eddard-stark"})
    result = of(events, "combat-result")[0]
    assert result["strength"]["attacker"]["support"] == 1 + 1  # a footman and the token's +1


def test_M_VASSAL_14_a_raid_by_raid_support_removes_it() -> None:
    g = action(
        {"highgarden": "tyrell footman", "dornish-marches": "lannister footman"},
        {"highgarden": "vassal-raid-support1", "dornish-marches": "support0"},
    )
    events = g.act("tyrell", {"from": "highgarden", "target": "dornish-marches"})
    assert of(events, "raid")[0]["victim"] == "lannister"
    assert "highgarden" not in g.s.orders and "dornish-marches" not in g.s.orders


def test_M_VASSAL_15_vassals_support_their_liege_against_a_neutral_force_never_against_family() -> None:
    """M-VASSAL-15 and known edge case #837: a vassal's Support helps its liege take a neutral force's area (and
    counts when checking the attack could win); a liege's Support never helps against his own vassal."""
    g = action(
        {"the-reach": "stark knight knight", "blackwater": "tyrell footman"},
        {"the-reach": "march0", "blackwater": "vassal-raid-support1"},
        neutral={"kings-landing": 5},
        start="march",
    )
    events = g.act("stark", {"from": "the-reach", "moves": [{"to": "kings-landing", "units": ["knight", "knight"]}]})
    support = prompt(g, "tyrell")
    assert support.choices == ["attacker", "none"]
    events = g.act("tyrell", "attacker")
    neutral = of(events, "neutral-attack")[0]
    assert neutral["strength"] == 2 + 2 + 1 + 1 and neutral["won"]

    g = action(
        {"highgarden": "tyrell footman", "dornish-marches": "lannister knight", "the-reach": "stark footman"},
        {"dornish-marches": "march0", "the-reach": "support0"},
        start="march",
    )
    g.act("lannister", {"from": "dornish-marches", "moves": [{"to": "highgarden", "units": ["knight"]}]})
    assert prompt(g, "stark").choices == ["defender", "none"]


def test_M_VASSAL_17_M_VASSAL_18_defense_muster_musters_in_a_castle_and_never_stalls() -> None:
    """M-VASSAL-17, M-VASSAL-18 (known edge case: Defense/Muster with nothing to muster must not stall the game): in the
    Consolidate Power step the vassal musters in that castle under the normal rules; in a land without a castle,
    or with nothing it could muster, nothing is asked and the game goes on. Only a special Raid removes it."""
    g = action(
        {"highgarden": "tyrell footman", "dornish-marches": "tyrell footman", "searoad-marches": "lannister footman"},
        {"highgarden": "vassal-defense1-muster", "dornish-marches": "vassal-defense3", "searoad-marches": "raid"},
    )
    assert prompt(g, "lannister").choices == {"searoad-marches": []}  # a normal raid cannot take a Defense order
    events = g.act("lannister", {"from": "searoad-marches", "target": None})
    assert event(events, "vassal-muster")["area"] == "highgarden"  # told as the vassal's order, not a Consolidate
    assert not [e for e in events if e["type"] == "consolidate-muster"]
    muster = prompt(g, "tyrell")
    assert muster.kind == "muster" and list(muster.choices["areas"]) == ["highgarden"]
    g.act("tyrell", {"highgarden": [{"recruit": "knight"}]})
    assert sorted(u.type for u in g.s.units["highgarden"]) == ["footman", "knight"]

    full = action(
        {"dornish-marches": "tyrell footman", "highgarden": "tyrell footman"},
        {"dornish-marches": "vassal-defense1-muster"},
    )
    assert full.finished  # a land without a castle: nothing asked, the round (and game) ends

    knights = ("dornish-marches", "three-towers", "the-arbor", "searoad-marches", "the-reach")
    nothing = action(
        {
            "highgarden": "tyrell footman footman",
            "oldtown": "tyrell footman footman",
            **dict.fromkeys(knights, "tyrell knight"),
            "blackwater": "tyrell siege-engine",
            "kingswood": "tyrell siege-engine",
            "redwyne-straights": "lannister ship",
            "west-summer-sea": "lannister ship",
        },
        {"highgarden": "vassal-defense1-muster"},
        supply={"tyrell": 0},
    )
    assert nothing.finished  # supply 0 allows no bigger army and no new one: no prompt, no stall


def test_M_VASSAL_19_defense_three_and_a_special_raid() -> None:
    """M-VASSAL-19: Defense 3 adds 3 like any Defense order; M-VASSAL-18: a special Raid may remove it."""
    g = action(
        {"highgarden": "tyrell footman", "searoad-marches": "lannister footman", "the-reach": "lannister knight"},
        {"highgarden": "vassal-defense3", "searoad-marches": "raid*", "the-reach": "march0"},
    )
    assert prompt(g, "lannister").choices == {"searoad-marches": ["highgarden"]}
    g.act("lannister", {"from": "searoad-marches", "target": None})
    g.act("lannister", {"from": "the-reach", "moves": [{"to": "highgarden", "units": ["knight"]}]})
    events = play(g, {("lannister", "house-card"): "cersei-lannister"}, until=None)
    assert of(events, "combat-result")[0]["strength"]["defender"]["defense"] == 3


# ----- combat -----


def duel(fiefdoms: list[str], **extra: Any) -> Game:
    """Tyrell (Stark's vassal) attacks Lannister's knight in the Dornish Marches with a knight."""
    return action(
        {"highgarden": "tyrell knight", "dornish-marches": "lannister knight", "winterfell": "stark footman"},
        {"highgarden": "vassal-march0"},
        start="march",
        tracks={"fiefdoms": fiefdoms},
        **extra,
    )


def to_cards(g: Game) -> None:
    g.act("tyrell", {"from": "highgarden", "moves": [{"to": "dornish-marches", "units": ["knight"]}]})


def test_M_VASSAL_21_M_VASSAL_22_M_VASSAL_23_M_VASSAL_24_a_vassal_draws_three_cards_and_returns_them() -> None:
    """M-VASSAL-21, M-VASSAL-22, M-VASSAL-23, M-VASSAL-24: a vassal fights with 3 of the 7 vassal cards, drawn at random
    when the cards are chosen (the deck is public and whole before the draw); after the combat all three go back to the
    deck, none is discarded, and the next combat draws from all seven again."""
    deck = [c for c in data.house_cards().values() if c.house == data.VASSAL_DECK_HOUSE]
    assert sorted(c.strength for c in deck) == [0, 1, 1, 2, 2, 3, 4]
    g = duel(["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn"])
    events = g.act("tyrell", {"from": "highgarden", "moves": [{"to": "dornish-marches", "units": ["knight"]}]})
    drawn = of(events, "vassal-cards-drawn")[0]["cards"]
    assert len(drawn) == 3 and set(drawn) <= {c.id for c in deck}
    card = prompt(g, "tyrell")
    assert card.kind == "house-card" and card.choices == drawn and g.s.houses["tyrell"].hand == drawn
    events = play(g, {("tyrell", "house-card"): drawn[0], ("lannister", "house-card"): "ser-jaime-lannister"})
    assert of(events, "vassal-cards-returned") == [{"type": "vassal-cards-returned", "house": "tyrell"}]
    assert g.s.houses["tyrell"].hand == [] and g.s.houses["tyrell"].discards == []
    assert "ser-jaime-lannister" in g.s.houses["lannister"].discards


def test_M_VASSAL_22_two_vassals_draw_from_one_shuffle() -> None:
    g = action(
        {"highgarden": "tyrell knight", "oldtown": "arryn knight"},
        {"highgarden": "vassal-march0"},
        start="march",
    )
    events = g.act("tyrell", {"from": "highgarden", "moves": [{"to": "oldtown", "units": ["knight"]}]})
    hands = [e["cards"] for e in of(events, "vassal-cards-drawn")]
    assert len(hands) == 2 and not set(hands[0]) & set(hands[1])


def _tie(g: Game) -> list[Any]:
    """Play the duel so that both sides reach the same total: Lannister plays a card as strong as Tyrell's."""
    to_cards(g)
    hand = g.s.houses["tyrell"].hand
    by_strength = {2: "ser-jaime-lannister", 3: "ser-gregor-clegane", 4: "tywin-lannister", 1: "ser-kevan-lannister"}
    plain = [c for c in hand if c not in ("vassal-jaqen-h-ghar", "vassal-bronn", "vassal-varys")]
    assert plain, hand
    card = plain[0]
    answer = by_strength[data.house_cards()[card].strength]
    return play(g, {("tyrell", "house-card"): card, ("lannister", "house-card"): answer})


@pytest.mark.parametrize("tyrell_first", [True, False])
def test_M_VASSAL_25_a_tie_is_broken_by_the_vassals_own_fiefdoms_position(tyrell_first: bool) -> None:
    """Known edge case: the Blade for a vassal breaks ties by the vassal's position, not its liege's (Stark leads
    the track but takes no part; Tyrell wins the tie only when it stands above Lannister)."""
    order = ["stark", "tyrell", "lannister"] if tyrell_first else ["stark", "lannister", "tyrell"]
    g = duel([*order, "greyjoy", "baratheon", "martell", "arryn"], blade_used=True)
    events = _tie(g)
    result = of(events, "combat-result")[0]
    assert result["tie_broken_by_fiefdoms"]
    assert result["winner"] == ("tyrell" if tyrell_first else "lannister")


def test_M_VASSAL_25_M_VASSAL_26_the_liege_lends_his_vassal_the_blade_and_takes_power_for_its_victory() -> None:
    """M-VASSAL-25: the liege holding an unused Blade may give his fighting vassal +1 whatever its own position;
    M-VASSAL-26: when the vassal wins, its liege takes 1 Power from the pool."""
    g = duel(["stark", "lannister", "greyjoy", "baratheon", "tyrell", "martell", "arryn"], power={"stark": 3})
    to_cards(g)
    hand = g.s.houses["tyrell"].hand
    card = max(hand, key=lambda c: data.house_cards()[c].strength if c != "vassal-jaqen-h-ghar" else -1)
    events = play(
        g,
        {("tyrell", "house-card"): card, ("lannister", "house-card"): "cersei-lannister", ("stark", "blade"): True},
        until="blade",
    )
    blade = prompt(g, "stark")
    assert blade.kind == "blade" and blade.info["for"] == "tyrell"
    events = play(g, {("stark", "blade"): True, ("lannister", "bronn-zero"): "keep"})
    result = of(events, "combat-result")[0]
    assert result["strength"]["attacker"]["blade"] == 1 and result["winner"] == "tyrell"
    reward = [e for e in of(events, "power-gained") if e.get("reason") == "vassal-victory"]
    assert reward == [
        {"type": "power-gained", "house": "stark", "gained": 1, "reason": "vassal-victory", "vassal": "tyrell"}
    ]
    assert g.s.houses["stark"].power == 4 and g.s.houses["tyrell"].power == 0


def test_M_VASSAL_26_a_vassal_winning_in_defense_rewards_its_liege() -> None:
    g = action(
        {"highgarden": "tyrell knight knight", "dornish-marches": "lannister footman"},
        {"dornish-marches": "march0", "highgarden": "vassal-defense3"},
        start="march",
        power={"stark": 0},
    )
    g.act("lannister", {"from": "dornish-marches", "moves": [{"to": "highgarden", "units": ["footman"]}]})
    events = play(g, {("lannister", "house-card"): "cersei-lannister"})
    assert of(events, "combat-result")[0]["winner"] == "tyrell"
    assert g.s.houses["stark"].power == 1 and g.s.houses["tyrell"].power == 0


def test_M_VASSAL_36_a_vassal_may_raid_its_family() -> None:
    """M-VASSAL-36 [OPEN]: the rulebook forbids only Support between a liege and his vassals; a raid on the liege's
    order stays legal (docs/engine.md, decisions where the rules are silent)."""
    g = action(
        {"highgarden": "tyrell footman", "the-reach": "stark footman"},
        {"highgarden": "vassal-raid-support1", "the-reach": "support0"},
    )
    assert prompt(g, "tyrell").choices == {"highgarden": ["the-reach"]}
