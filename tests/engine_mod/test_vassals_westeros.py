"""Mother of Dragons vassals outside the Action phase: Clash of Kings, wildlings, Power, supply, mustering, victory,
players leaving, seats replaced mid-state, and whole games (M-VASSAL-27..36, M-LEAVE-01, M-PLAYERS-01/02).

Every position is built in code (``Game.from_scenario`` / ``new_game``) and played through ``g.act``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, new_game, rules
from engine.prompts import Prompt
from engine.sim import play_game
from engine.victory import final_winner
from tests.engine_westeros.helpers import decks, events_of, setup_events, westeros

MOD = {"ruleset": "mother-of-dragons"}
# 4 players with the expansion play the base game's houses for 4; the other three of the seven are vassals.
PLAYERS4 = ["baratheon", "lannister", "stark", "greyjoy"]
VASSALS4 = ["martell", "tyrell", "arryn"]
QUIET_I, QUIET_II, QUIET_III = "last-days-of-summer", "last-days-of-summer", "rains-of-autumn"


def mod_westeros(spec: dict[str, Any], cards: tuple[str, str, str]) -> Game:
    """A 4-player Mother of Dragons game at the start of round 2's Westeros phase with these three cards."""
    return westeros({"players": 4, "options": MOD, **spec}, cards)


def open_prompts(g: Game) -> list[Prompt]:
    return [p for p in g.prompts() if not p.answered]


def prompt_dicts(g: Game) -> list[dict[str, Any]]:
    return [p.to_dict() for p in g.prompts()]


def first(g: Game) -> Prompt:
    prompts = open_prompts(g)
    assert prompts, f"nothing is asked and the game has not ended: {prompt_dicts(g)}"
    return prompts[0]


def until_claim(g: Game, seen: list[Prompt] | None = None, cap: int = 500) -> list[dict[str, Any]]:
    """Answer defaults until the next Planning phase opens with the vassal claim; returns every event."""
    events: list[dict[str, Any]] = []
    for _ in range(cap):
        p = first(g)
        if p.kind == "vassal-claim" or (g.s.phase == "planning" and p.kind == "orders"):
            return events
        if seen is not None:
            seen.append(p)
        events += g.act(p.house, p.default, prompt_id=p.id)
    raise AssertionError(f"no Planning phase after {cap} answers")


def play_defaults(g: Game, cap: int = 6000) -> list[dict[str, Any]]:
    """Answer every prompt with its default until the game ends (at most ``cap`` answers); returns every event."""
    events: list[dict[str, Any]] = []
    for _ in range(cap):
        if g.finished:
            assert not g.prompts() and not g.awaiting()
            return events
        p = first(g)
        events += g.act(p.house, p.default, prompt_id=p.id)
    raise AssertionError(f"the game did not end after {cap} default answers")


def vassal_units(g: Game) -> dict[str, list[tuple[str, str, bool]]]:
    return {
        a: sorted((u.house, u.type, u.routed) for u in us)
        for a, us in sorted(g.s.units.items())
        if us and us[0].house in g.s.vassals
    }


def refused(g: Game, code: str, call: Any) -> None:
    """``call`` raises ``RuleError(code)`` and changes nothing."""
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        call()
    assert info.value.code == code
    assert g.to_json() == before


# ----- Clash of Kings -----


def test_M_VASSAL_27_vassals_bid_zero_and_can_move_on_the_tracks() -> None:
    """M-VASSAL-27: vassals are never asked to bid and count as 0; the Iron Throne holder (a player) orders them
    among the other 0 bids, so they move on the tracks. M-VASSAL-28: a vassal on space 1 holds no dominance token."""
    g = mod_westeros(
        {"power": {"baratheon": 2, "lannister": 3, "stark": 3, "greyjoy": 2}},
        (QUIET_I, "clash-of-kings", QUIET_III),
    )
    assert sorted(g.s.vassals) == sorted(VASSALS4)
    old_tracks = {t: list(o) for t, o in g.s.tracks.items()}
    assert {p.house for p in g.prompts()} == set(PLAYERS4)
    assert all(p.kind == "bid" for p in g.prompts())
    for v in VASSALS4:
        assert g.prompt_for(v) is None and v not in g.awaiting()

    g.act("stark", 2)
    g.act("lannister", 1)
    g.act("greyjoy", 0)
    events = g.act("baratheon", 0)
    (revealed,) = events_of(events, "bids-revealed")
    assert revealed["track"] == "iron_throne"
    assert revealed["bids"] == {
        "baratheon": 0,
        "lannister": 1,
        "stark": 2,
        "martell": 0,
        "greyjoy": 0,
        "tyrell": 0,
        "arryn": 0,
    }
    tie = first(g)
    assert (tie.house, tie.kind) == ("baratheon", "tie-order")  # the old Iron Throne holder, a player
    assert tie.choices["tied"] == [["baratheon", "martell", "greyjoy", "tyrell", "arryn"]]
    throne = ["stark", "lannister", "arryn", "martell", "baratheon", "tyrell", "greyjoy"]
    events = g.act("baratheon", throne)
    (track_set,) = events_of(events, "track-set")
    assert track_set["order"] == throne and track_set["tie_broken_by"] == "baratheon"
    assert g.s.tracks["iron_throne"] == throne != old_tracks["iron_throne"]
    assert rules.position(g.s, "iron_throne", "arryn") < old_tracks["iron_throne"].index("arryn")

    # Fiefdoms: everybody bids 0; Stark, the new holder, puts a vassal on space 1.
    assert {p.house for p in g.prompts()} == set(PLAYERS4)
    for house in ("stark", "lannister", "baratheon", "greyjoy"):
        g.act(house, 0)
    tie = first(g)
    assert (tie.house, tie.kind) == ("stark", "tie-order")
    fiefdoms = ["tyrell", "greyjoy", "stark", "martell", "baratheon", "lannister", "arryn"]
    events = g.act("stark", fiefdoms)
    assert events_of(events, "track-set")[0]["order"] == fiefdoms
    assert g.s.tracks["fiefdoms"] == fiefdoms
    assert rules.holder(g.s, "fiefdoms") == "greyjoy"  # M-VASSAL-28: the first player on the track
    for v in VASSALS4:
        assert g.s.houses[v].power == 0


# ----- wildlings -----

WILDLING_CARDS = [
    "rattleshirts-raiders",
    "crow-killers",
    "mammoth-riders",
    "a-king-beyond-the-wall",
    "the-horde-descends",
    "skinchanger-scout",
    "massing-on-the-milkwater",
    "preemptive-raid",
]


def wildling_attack(card: str) -> Game:
    """Deck III's Wildlings Attack at strength 8 with ``card`` on top of the wildling deck; the vassals hold knights,
    footmen in castles and strongholds, ships, and a Supply position the penalties could lower."""
    rest = [c for c in ("silence-at-the-wall", "crow-killers", "mammoth-riders") if c != card]
    return mod_westeros(
        {
            "wildling_threat": 4,
            "wildling_deck": [card, *rest],
            "supply": {"tyrell": 4, "martell": 3, "arryn": 2},
        },
        (QUIET_I, QUIET_II, "wildlings-attack"),
    )


@pytest.mark.parametrize("won", [False, True], ids=["wildlings-win", "nights-watch-wins"])
@pytest.mark.parametrize("card", WILDLING_CARDS)
def test_M_VASSAL_29_vassals_take_no_part_in_wildling_attacks(card: str, won: bool) -> None:
    """M-VASSAL-29, M-VASSAL-34: vassals do not bid, are ignored when finding the highest and lowest bidder (a 0
    would otherwise make one the lowest), suffer no penalty (not even "everyone else"'s) and get no reward."""
    g = wildling_attack(card)
    (attack,) = events_of(setup_events(g), "wildlings-attack")
    assert attack["houses"] == PLAYERS4 and attack["strength"] == 8
    assert {p.house for p in g.prompts()} == set(PLAYERS4)
    units_before = vassal_units(g)
    supply_before = {v: g.s.houses[v].supply for v in VASSALS4}
    order_before = {t: [h for h in o if h in g.s.vassals] for t, o in g.s.tracks.items()}
    bids = (
        {"baratheon": 2, "lannister": 2, "stark": 1, "greyjoy": 2}
        if not won
        else {
            "baratheon": 3,
            "lannister": 2,
            "stark": 2,
            "greyjoy": 2,
        }
    )
    events: list[dict[str, Any]] = []
    for house, bid in bids.items():
        events += g.act(house, bid)
    seen: list[Prompt] = []
    events += until_claim(g, seen)

    revealed = events_of(events, "bids-revealed")[0]  # Preemptive Raid's reward may bring a second attack
    assert revealed["bids"] == bids
    result = events_of(events, "wildlings-result")[0]
    assert result["winner"] == ("nights-watch" if won else "wildlings") and set(result["bids"]) == set(PLAYERS4)
    bidder = events_of(events, "wildling-bidder")
    assert [e["house"] for e in bidder][:1] == (["baratheon"] if won else ["stark"])
    assert all(p.house in PLAYERS4 for p in seen), [p.to_dict() for p in seen if p.house not in PLAYERS4]
    if not won:  # the penalty reached the lowest bidder and everyone else among the players
        hit = {e["house"] for e in events if e["type"] in ("wildling-effect", "supply-adjusted", "track-moved")}
        assert hit == set(PLAYERS4)
    touched = [e for e in events if e.get("house") in VASSALS4 or e.get("victim") in VASSALS4]
    assert touched == []
    assert vassal_units(g) == units_before
    assert {v: g.s.houses[v].supply for v in VASSALS4} == supply_before
    assert {t: [h for h in o if h in g.s.vassals] for t, o in g.s.tracks.items()} == order_before
    assert all(g.s.houses[v].power == 0 for v in VASSALS4)


# ----- Power -----


def test_M_VASSAL_30_game_of_thrones_gives_vassals_and_lieges_nothing_for_vassal_lands() -> None:
    """M-VASSAL-30: Game of Thrones: a vassal takes no Power for its crowns; its liege gains only for his own lands
    and ports."""
    g = mod_westeros(
        {"vassals": {"martell": "stark", "tyrell": "stark", "arryn": "lannister"}},
        (QUIET_I, "game-of-thrones", QUIET_III),
    )
    assert any(rules.crowns(g.s, v) > 0 for v in VASSALS4)
    events = setup_events(g) + until_claim(g)  # the card resolved while the position was built
    gained = {e["house"]: e for e in events_of(events, "power-gained")}
    for v in VASSALS4:
        on_board = sum(1 for h in g.s.power_tokens.values() if h == v)
        assert g.s.houses[v].power == 0 and rules.power_in_pool(g.s, v) == 20 - on_board
        assert v not in gained or gained[v]["gained"] == 0
    for liege in ("stark", "lannister"):
        own = gained[liege]
        assert own["crowns"] == rules.crowns(g.s, liege)
        assert own["gained"] == own["crowns"] + own["ports"]
        assert g.s.houses[liege].power == 7 + own["gained"]


def test_M_VASSAL_30_a_vassal_raid_on_consolidate_power_pillages_nothing() -> None:
    """M-VASSAL-30: a vassal removing a Consolidate Power order by a raid takes no Power (nor does its liege); the
    victim loses its token to the pool as with any raid (B-RAID pillage)."""
    g = Game.from_scenario(
        {
            "players": 4,
            "options": MOD,
            "units": {"highgarden": "tyrell footman", "dornish-marches": "lannister footman"},
            "orders": {"highgarden": "vassal-raid-support1", "dornish-marches": "consolidate"},
            "vassals": {"tyrell": "stark"},
            "power": {"lannister": 3, "stark": 4},
            "start": "raid",
        }
    )
    p = first(g)
    assert (p.house, p.kind) == ("tyrell", "raid") and rules.commander(g.s, "tyrell") == "stark"
    assert p.choices == {"highgarden": ["dornish-marches"]}
    pool = rules.power_in_pool(g.s, "tyrell")
    events = g.act("tyrell", {"from": "highgarden", "target": "dornish-marches"})
    assert events_of(events, "pillage") == [
        {"type": "pillage", "house": "tyrell", "victim": "lannister", "gained": 0, "lost": 1}
    ]
    assert "dornish-marches" not in g.s.orders
    assert g.s.houses["tyrell"].power == 0 and rules.power_in_pool(g.s, "tyrell") == pool
    assert g.s.houses["stark"].power == 4
    assert g.s.houses["lannister"].power == 2


def vassal_march(origin: str, dest: str) -> tuple[Game, list[dict[str, Any]]]:
    g = Game.from_scenario(
        {
            "players": 4,
            "options": MOD,
            "units": {origin: "tyrell footman", "winterfell": "stark footman"},
            "orders": {origin: "vassal-march0", "winterfell": "defense1"},
            "vassals": {"tyrell": "stark"},
            "start": "march",
        }
    )
    p = first(g)
    assert (p.house, p.kind) == ("tyrell", "march")
    assert p.choices[origin]["can_leave_power"] is False  # no choice and no available Power: the token is automatic
    return g, g.act("tyrell", {"from": origin, "moves": [{"to": dest, "units": ["footman"]}]})


def test_M_VASSAL_30_a_vassal_leaving_a_land_marks_it_with_a_pool_token() -> None:
    """M-VASSAL-30: a vassal marching out of a land leaves a Power token of its colour taken from the pool (it has
    no available Power to spend), so it keeps the land."""
    g = Game.from_scenario({"players": 4, "options": MOD, "units": {"three-towers": "tyrell footman"}})
    pool = rules.power_in_pool(g.s, "tyrell")
    g, events = vassal_march("three-towers", "princes-pass")
    assert rules.power_in_pool(g.s, "tyrell") == pool - 1
    assert events_of(events, "power-token-placed") == [
        {"type": "power-token-placed", "house": "tyrell", "area": "three-towers"}
    ]
    assert g.s.power_tokens["three-towers"] == "tyrell" and rules.controller(g.s, "three-towers") == "tyrell"
    assert g.s.houses["tyrell"].power == 0 and g.s.houses["stark"].power == 7


def test_M_VASSAL_30_a_vassal_leaving_its_home_places_no_token() -> None:
    """M-VASSAL-30: the home's printed crest already keeps it; no token is placed there."""
    g, events = vassal_march("highgarden", "the-reach")
    assert events_of(events, "power-token-placed") == []
    assert "highgarden" not in g.s.power_tokens and rules.controller(g.s, "highgarden") == "tyrell"


def test_M_VASSAL_30_gifts_to_and_from_vassals_are_refused() -> None:
    """M-VASSAL-30, M-GIFT-01: a vassal can neither give nor receive Power."""
    g = new_game(4, seed=11, options=MOD)
    assert sorted(g.s.vassals) == sorted(VASSALS4)
    refused(g, "gift-vassal", lambda: g.gift("stark", "martell", 1))
    refused(g, "gift-vassal", lambda: g.gift("tyrell", "stark", 1))
    refused(g, "gift-vassal", lambda: g.gift("arryn", "tyrell", 1))


# ----- supply -----


def test_M_VASSAL_33_34_supply_moves_a_vassal_and_its_liege_reconciles() -> None:
    """M-VASSAL-33: the Supply card moves a vassal's Supply token to its barrels; armies over the new limit are
    reduced. M-VASSAL-34: the reconcile prompt names the vassal; its liege answers it."""
    g = mod_westeros(
        {
            "units": {
                "the-eyrie": "arryn knight footman footman",
                "the-vale-of-arryn": "arryn knight footman footman",
                "winterfell": "stark footman",
                "lannisport": "lannister footman",
            },
            "supply": {"arryn": 4},
            "vassals": {"arryn": "lannister"},
        },
        ("supply", QUIET_II, QUIET_III),
    )
    adjusted = {e["house"]: e for e in events_of(setup_events(g), "supply-adjusted")}
    assert adjusted["arryn"]["old"] == 4 and adjusted["arryn"]["new"] == rules.barrels(g.s, "arryn") == 1
    assert g.s.houses["arryn"].supply == 1
    p = first(g)
    assert (p.house, p.kind) == ("arryn", "reconcile")
    assert rules.commander(g.s, "arryn") == "lannister"
    events = g.act("arryn", {"destroy": {"the-vale-of-arryn": ["footman"]}})
    assert events_of(events, "supply-reconciled") == [
        {"type": "supply-reconciled", "house": "arryn", "destroyed": {"the-vale-of-arryn": ["footman"]}}
    ]
    assert sorted(u.type for u in g.s.units["the-vale-of-arryn"]) == ["footman", "knight"]
    assert rules.supply_ok(g.s, "arryn")


def test_M_VASSAL_36_lieges_chosen_in_planning_command_through_the_next_westeros_phase() -> None:
    """M-VASSAL-36 [DERIVED]: the claim of round 1's Planning phase holds through round 2's Westeros phase; a
    vassal's Westeros prompt (Mustering) is answered by that liege; the next claim opens round 2's Planning."""
    g = Game.from_scenario(
        {
            "players": 4,
            "options": MOD,
            "westeros_decks": [["mustering", "supply"], ["last-days-of-summer"], ["rains-of-autumn"]],
        }
    )
    p = first(g)
    assert (p.house, p.kind) == ("baratheon", "vassal-claim")
    g.act("baratheon", "arryn")
    g.act("lannister", "martell")
    events = g.act("stark", "pass")  # Greyjoy, last, takes Tyrell without being asked
    claims = {"martell": "lannister", "tyrell": "greyjoy", "arryn": "baratheon"}
    assert events_of(events, "vassals-commanded")[0]["commanders"] == claims
    assert g.s.vassals == claims

    seen: list[Prompt] = []
    for _ in range(1000):
        p = first(g)
        if p.kind == "vassal-claim":
            break
        assert g.s.vassals == claims, (g.s.round, g.s.phase)
        if g.s.round == 2 and g.s.phase == "westeros":
            seen.append(p)
        g.act(p.house, p.default, prompt_id=p.id)
    assert g.s.round == 2 and g.s.phase == "planning"
    musters = {p.house: p for p in seen if p.kind == "muster"}
    assert set(VASSALS4) <= set(musters), sorted(musters)
    for v in VASSALS4:
        assert rules.commander(g.s, v) == claims[v]
        assert list(musters[v].choices["areas"]) == [rules.home(g.s, v)]


# ----- mustering -----


@pytest.mark.parametrize("card", ["mustering", "a-throne-of-blades"])
def test_M_VASSAL_35_a_vassal_musters_only_in_its_home_and_not_without_it(card: str) -> None:
    """M-VASSAL-35 (and the known edge case "a vassal whose home is lost gets no muster prompt"): Mustering (or A
    Throne of Blades' mustering) lets Tyrell muster only in Highgarden though it holds Oldtown and the Reach; Arryn,
    whose Eyrie Lannister took, is not asked at all, and the game moves on."""
    g = mod_westeros(
        {
            "units": {
                "highgarden": "tyrell footman",
                "oldtown": "tyrell footman",
                "the-reach": "tyrell footman",
                "the-vale-of-arryn": "arryn footman",
                "the-eyrie": "lannister footman",
                "winterfell": "stark footman",
            },
            "garrisons": {},
            "vassals": {"tyrell": "stark", "arryn": "stark"},
        },
        (card, QUIET_II, QUIET_III),
    )
    if card == "a-throne-of-blades":
        p = first(g)
        assert (p.house, p.kind) == ("baratheon", "westeros-choice")
        g.act("baratheon", "mustering")
    assert rules.controller(g.s, "the-eyrie") == "lannister"
    assert rules.controller(g.s, "the-vale-of-arryn") == "arryn"
    seen: list[Prompt] = []
    events: list[dict[str, Any]] = []
    for _ in range(50):
        p = first(g)
        if p.kind == "vassal-claim":
            break
        assert p.kind == "muster", p.to_dict()
        seen.append(p)
        answer: Any = p.default
        if p.house == "tyrell":
            assert list(p.choices["areas"]) == ["highgarden"]
            assert rules.commander(g.s, "tyrell") == "stark"
            answer = {"highgarden": [{"recruit": "knight"}]}
        events += g.act(p.house, answer, prompt_id=p.id)
    asked = [p.house for p in seen]
    assert "arryn" not in asked and "tyrell" in asked
    for p in seen:
        if p.house in g.s.vassals:
            assert set(p.choices["areas"]) <= {rules.home(g.s, p.house)}
    assert {"type": "mustered", "house": "tyrell", "plan": {"highgarden": [{"recruit": "knight"}]}} in events
    assert not any(e["type"] == "mustered" and e["house"] == "arryn" for e in events)
    assert sorted(u.type for u in g.s.units["the-vale-of-arryn"]) == ["footman"]
    assert g.s.phase == "planning"


# ----- victory -----

SEVEN_CASTLES = {
    "highgarden": "tyrell footman",
    "oldtown": "tyrell footman",
    "the-reach": "tyrell footman footman",
    "storms-end": "tyrell footman",
    "yronwood": "tyrell footman",
    "starfall": "tyrell footman",
    "winterfell": "stark footman",
}


def test_M_VASSAL_32_a_vassal_taking_its_seventh_castle_does_not_win() -> None:
    """M-VASSAL-32: a vassal's march to its seventh castle or stronghold ends nothing."""
    g = Game.from_scenario(
        {
            "players": 4,
            "options": MOD,
            "round": 9,
            "units": SEVEN_CASTLES,
            "neutral": {},
            "orders": {"the-reach": "vassal-march0", "winterfell": "defense1"},
            "vassals": {"tyrell": "stark"},
            "start": "march",
        }
    )
    assert rules.castles_controlled(g.s, "tyrell") == 6
    events = g.act("tyrell", {"from": "the-reach", "moves": [{"to": "kings-landing", "units": ["footman"]}]})
    assert rules.castles_controlled(g.s, "tyrell") == 7
    assert events_of(events, "game-over") == [] and not g.finished and g.s.winner is None


def test_M_VASSAL_32_the_final_winner_is_always_a_player() -> None:
    """M-VASSAL-32: at the end of round 10 the vassal with the most castles does not win; the best player does."""
    units = {**SEVEN_CASTLES, "kings-landing": "tyrell footman", "the-reach": "tyrell footman"}
    g = Game.from_scenario(
        {
            "players": 4,
            "options": MOD,
            "round": 10,
            "units": {**units, "winterfell": "stark footman footman"},
            "neutral": {},
            "orders": {"winterfell": "march0"},
            "vassals": {"tyrell": "stark"},
            "start": "march",
        }
    )
    assert rules.castles_controlled(g.s, "tyrell") == 7 and not g.finished
    assert final_winner(g.s) in PLAYERS4
    events = g.act("stark", {"from": "winterfell", "moves": []})
    over = events_of(events, "game-over")
    assert len(over) == 1 and over[0]["reason"] == "round-limit"
    assert over[0]["winner"] in PLAYERS4 and over[0]["winner"] == g.s.winner == final_winner(g.s)
    assert g.finished


# ----- a player leaves -----


def test_M_LEAVE_01_a_leaving_house_plays_out_its_round_then_becomes_a_vassal_as_the_next_round_starts() -> None:
    """M-LEAVE-01 (003:442: a player who leaves between rounds turns his house into a vassal; a round is Westeros,
    Planning, Action, 002:559-582): in a 5-player game, ``vassalize`` lets the house play out the round it is in; as
    the next round starts, before its Westeros phase, it becomes a vassal (Power back to the pool, no house cards, no
    seat) with no liege, and it is claimed like any vassal at that round's Planning phase."""
    g = new_game(5, seed=21, options=MOD)
    players = ["baratheon", "lannister", "stark", "greyjoy", "tyrell"]
    assert rules.player_houses(g.s) == players and sorted(g.s.vassals) == ["arryn", "martell"]
    g.set_seat("greyjoy", "player-5")
    before = prompt_dicts(g)
    events = g.vassalize("greyjoy")
    assert events == [{"type": "house-leaving", "house": "greyjoy"}]
    assert prompt_dicts(g) == before
    assert "greyjoy" not in g.s.vassals and g.s.houses["greyjoy"].seat == "player-5"

    seen: list[Prompt] = []
    events = []
    # Round 1: the claim, then Greyjoy places its orders and plays its Action phase like any player.
    while g.s.round == 1:
        p = first(g)
        seen.append(p)
        assert "greyjoy" not in g.s.vassals
        events = g.act(p.house, p.default, prompt_id=p.id)
    assert ("greyjoy", "orders") in [(p.house, p.kind) for p in seen]
    # The act that ended round 1 started round 2 and made Greyjoy a vassal before any Westeros card was drawn.
    types = [e["type"] for e in events]
    assert types.index("round-started") < types.index("house-vassalized") < types.index("westeros-cards")
    assert {"type": "house-vassalized", "house": "greyjoy"} in events
    gs = g.s.houses["greyjoy"]
    assert g.s.phase == "westeros" and g.s.vassals["greyjoy"] is None
    assert gs.power == 0 and gs.hand == [] and gs.discards == [] and gs.seat is None
    on_board = sum(1 for h in g.s.power_tokens.values() if h == "greyjoy")
    assert rules.power_in_pool(g.s, "greyjoy") == 20 - on_board
    assert g.s.leaving == []
    assert rules.player_houses(g.s) == [h for h in g.s.tracks["iron_throne"] if h in players and h != "greyjoy"]

    play_until_round(g, 2)
    claim = first(g)
    assert "greyjoy" in claim.choices
    events = g.act(claim.house, "greyjoy")
    assert {"type": "vassal-claimed", "house": claim.house, "vassal": "greyjoy"} in events
    for _ in range(10):
        p = first(g)
        if p.kind != "vassal-claim":
            break
        events += g.act(p.house, "pass")
    (commanded,) = events_of(events, "vassals-commanded")
    assert commanded["commanders"]["greyjoy"] == claim.house and sorted(commanded["commanders"]) == sorted(
        ["arryn", "martell", "greyjoy"]
    )
    assert rules.commander(g.s, "greyjoy") == claim.house
    assert g.prompt_for("greyjoy") is None or g.prompt_for("greyjoy").kind == "vassal-orders"  # type: ignore[union-attr]


def test_M_LEAVE_01_M_VASSAL_28_the_leaver_first_on_the_iron_throne_gives_up_its_token_as_the_round_starts() -> None:
    """M-LEAVE-01, M-VASSAL-28: ``house-vassalized`` follows ``round-started`` and comes before the Westeros cards;
    the leaver, first on the Iron Throne track, no longer holds its dominance token from then on, and the claim deals
    one set per vassal to the players left."""
    g = Game.from_scenario({"players": 5, "options": MOD, "round": 3, "start": "planning"})
    assert rules.holder(g.s, "iron_throne") == "baratheon"
    g.vassalize("baratheon")
    events = play_until_round(g, 4)
    types = [e["type"] for e in events]
    assert types.index("round-started") < types.index("house-vassalized") < types.index("westeros-cards")
    assert types.index("house-vassalized") < types.index("vassal-claim-started")
    assert {"type": "house-vassalized", "house": "baratheon"} in events
    (started,) = events_of(events, "vassal-claim-started")
    assert sum(started["sets"].values()) == 3 and "baratheon" not in started["sets"]
    holder = rules.holder(g.s, "iron_throne")
    assert holder != "baratheon" and holder in rules.player_houses(g.s)
    claim = first(g)
    assert claim.house == holder and "baratheon" in claim.choices


def play_until_round(g: Game, round_: int, cap: int = 1000) -> list[dict[str, Any]]:
    """Answer defaults until the vassal claim of ``round_``'s Planning phase is asked; returns every event."""
    events: list[dict[str, Any]] = []
    for _ in range(cap):
        p = first(g)
        if p.kind == "vassal-claim" and g.s.round == round_:
            return events
        events += g.act(p.house, p.default, prompt_id=p.id)
    raise AssertionError("the round never came")


def leaving_in_round_3(cards: tuple[str, str, str], **spec: Any) -> tuple[Game, list[dict[str, Any]], list[Prompt]]:
    """A 5-player game in round 3's Planning phase; Greyjoy (with 6 Power and its castles) leaves, and the game is
    played by defaults up to round 4's claim, whose Westeros phase draws ``cards``. Returns the game, the events from
    the start of round 4 and the prompts asked from then on."""
    g = Game.from_scenario(
        {
            "players": 5,
            "options": MOD,
            "round": 3,
            "start": "planning",
            "power": {"greyjoy": 6, "stark": 6, "lannister": 6, "baratheon": 6, "tyrell": 6},
            "westeros_decks": decks(*cards),
            **spec,
        }
    )
    g.vassalize("greyjoy")
    events: list[dict[str, Any]] = []
    asked: list[Prompt] = []
    for _ in range(1000):
        p = first(g)
        if p.kind == "vassal-claim" and g.s.round == 4:
            return g, events, asked
        # Round 3's claim: every holder passes, so the last player (Greyjoy, who leaves) takes every vassal.
        answer = "pass" if p.kind == "vassal-claim" and "pass" in p.choices else p.default
        new = g.act(p.house, answer, prompt_id=p.id)
        if g.s.round == 4:
            if not events:
                new = new[[e["type"] for e in new].index("round-started") :]
            events += new
            asked += open_prompts(g)
    raise AssertionError("round 4's claim never came")


def test_M_LEAVE_01_M_VASSAL_27_a_house_that_left_bids_nothing_in_the_next_clash_of_kings() -> None:
    """M-LEAVE-01 (003:442), M-VASSAL-27 (003:340, 352: a vassal bids 0 and holds no Power): the house that left in
    round 3 is a vassal when round 4's Clash of Kings opens: it is never asked to bid, its bid is 0 on every track,
    and its 6 Power went back to the pool instead of into the bids."""
    g, events, asked = leaving_in_round_3((QUIET_I, "clash-of-kings", QUIET_III))
    assert [p for p in asked if p.house == "greyjoy"] == []
    kinds = {p.kind for p in asked if p.kind != "vassal-claim"}
    assert "bid" in kinds and kinds <= {"bid", "tie-order"}
    revealed = events_of(events, "bids-revealed")
    assert len(revealed) == 3 and all(r["bids"].get("greyjoy", 0) == 0 for r in revealed)
    assert g.s.houses["greyjoy"].power == 0


def test_M_LEAVE_01_M_VASSAL_29_M_VASSAL_30_a_house_that_left_takes_no_game_of_thrones_power_and_no_wildling_bid() -> (
    None
):
    """M-LEAVE-01 (003:442), M-VASSAL-29 (003:346-348), M-VASSAL-30 (003:352): in round 4's Westeros phase the house
    that left gains no Power from Game of Thrones, whatever its crowns, and bids nothing against the wildlings."""
    g, events, asked = leaving_in_round_3((QUIET_I, "game-of-thrones", "wildlings-attack"), wildling_threat=4)
    gained = {e["house"]: e["gained"] for e in events_of(events, "power-gained")}
    assert gained.get("greyjoy", 0) == 0 and any(gained[h] > 0 for h in ("stark", "lannister", "baratheon", "tyrell"))
    assert events_of(events, "wildlings-attack")
    assert [p for p in asked if p.house == "greyjoy"] == []
    assert all(r["bids"].get("greyjoy", 0) == 0 for r in events_of(events, "bids-revealed"))
    assert g.s.houses["greyjoy"].power == 0


def test_M_LEAVE_01_M_VASSAL_35_a_house_that_left_musters_by_its_default_before_any_claim() -> None:
    """M-LEAVE-01, M-VASSAL-35: when round 4 opens with Mustering, the house that left is already a vassal with no
    liege: nobody is asked for it, it takes its default (nothing mustered), and the players muster as usual."""
    _, events, asked = leaving_in_round_3(("mustering", QUIET_II, QUIET_III))
    assert [p for p in asked if p.house == "greyjoy"] == []
    assert "muster" in {p.kind for p in asked}
    mustered = {e["house"]: e["plan"] for e in events_of(events, "mustered")}
    assert mustered.get("greyjoy", {}) in ({}, [])
    assert events_of(events, "house-vassalized") == [{"type": "house-vassalized", "house": "greyjoy"}]


def test_M_LEAVE_01_vassalize_is_refused_and_changes_nothing() -> None:
    """M-LEAVE-01: refused in a base game (``vassals-not-allowed``), for a vassal or a house already leaving
    (``already-vassal``), and when fewer than two players would stay (``too-few-players``)."""
    base = new_game(5, seed=3)
    refused(base, "vassals-not-allowed", lambda: base.vassalize("stark"))

    g = new_game(5, seed=3, options=MOD)
    refused(g, "already-vassal", lambda: g.vassalize("martell"))
    g.vassalize("stark")
    refused(g, "already-vassal", lambda: g.vassalize("stark"))
    g.vassalize("lannister")
    g.vassalize("greyjoy")
    assert g.s.leaving == ["stark", "lannister", "greyjoy"]
    refused(g, "too-few-players", lambda: g.vassalize("baratheon"))
    refused(g, "too-few-players", lambda: g.vassalize("tyrell"))

    three = new_game(3, seed=3, options=MOD)
    assert rules.player_houses(three.s) == ["baratheon", "lannister", "stark"]
    three.vassalize("lannister")
    refused(three, "too-few-players", lambda: three.vassalize("stark"))


# ----- replacing a seat mid-state -----


def mid_bid() -> tuple[Game, str]:
    g = mod_westeros({"power": {"lannister": 3}}, (QUIET_I, "clash-of-kings", QUIET_III))
    g.act("lannister", 2)
    return g, "bid"


def mid_house_cards() -> tuple[Game, str]:
    g = battle()
    g.act("lannister", {"from": "lannisport", "moves": [{"to": "riverrun", "units": ["knight", "footman"]}]})
    return g, "house-card"


def mid_ability() -> tuple[Game, str]:
    g = battle()
    g.act("lannister", {"from": "lannisport", "moves": [{"to": "riverrun", "units": ["knight", "footman"]}]})
    g.act("lannister", "tyrion-lannister")
    g.act("stark", "eddard-stark")
    return g, "tyrion-cancel"


def battle() -> Game:
    return Game.from_scenario(
        {
            "players": 4,
            "options": MOD,
            "units": {"lannisport": "lannister knight footman", "riverrun": "stark footman"},
            "orders": {"lannisport": "march0", "riverrun": "defense1"},
            "hands": {
                "lannister": ["tyrion-lannister", "ser-jaime-lannister"],
                "stark": ["eddard-stark", "robb-stark"],
            },
            "start": "march",
        }
    )


@pytest.mark.parametrize("position", [mid_bid, mid_house_cards, mid_ability], ids=["bid", "house-cards", "ability"])
@pytest.mark.parametrize("leaver", ["lannister", "stark"])
def test_M_LEAVE_01_seats_replaced_mid_state_keep_the_game_playable(position: Any, leaver: str) -> None:
    """Known edge case "replacing a seat mid-state": ``set_seat`` and ``vassalize`` while a bid is open, while a
    combat waits for house cards, and while a house-card ability asks, leave every open prompt as it was; the
    game then plays to its end and a player wins."""
    g, kind = position()
    assert kind in {p.kind for p in g.prompts()}
    before = prompt_dicts(g)
    awaiting = g.awaiting()
    assert g.set_seat("stark", "replacement") == [
        {"type": "seat-changed", "house": "stark", "seat": "replacement", "autopilot": False}
    ]
    assert g.set_seat("lannister", None, autopilot=True)[0]["autopilot"] is True
    assert g.vassalize(leaver) == [{"type": "house-leaving", "house": leaver}]
    assert prompt_dicts(g) == before and g.awaiting() == awaiting
    assert Game.from_json(g.to_json()) == g
    events = play_defaults(g)
    assert {"type": "house-vassalized", "house": leaver} in events
    assert g.finished and g.s.winner in rules.player_houses(g.s) and g.s.winner != leaver
    assert leaver in g.s.vassals


# ----- whole games -----


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_M_PLAYERS_01_02_whole_games_with_vassals_finish_without_errors(players: int, agent: str) -> None:
    """M-PLAYERS-01/02, M-VASSAL-*: whole Mother of Dragons games at 3-6 players, every invariant checked after
    every step (the 200-game sweeps are run by hand: ``python -m engine.sim --ruleset mother-of-dragons``)."""
    start = new_game(players, seed=900 + players, options=MOD)
    assert len(start.s.vassals) == 7 - players
    result = play_game(players, 900 + players, agent, check_invariants=True, options=MOD)
    assert result.error is None, result.error
    assert result.finished and result.winner in rules.player_houses(start.s)


def test_M_LEAVE_01_the_vassals_of_a_liege_who_leaves_have_no_liege_until_the_claim() -> None:
    """M-LEAVE-01, M-VASSAL-04: Greyjoy, last on the Iron Throne track, takes both vassals at round 3's claim, then
    its player leaves. As round 4 starts Greyjoy becomes a vassal and its two vassals lose their liege with it (a
    vassal commands nobody): nobody is asked for any of the three during the Westeros phase (their Mustering takes its
    default), and round 4's claim deals three sets to the four players left."""
    iron_throne = ["baratheon", "lannister", "stark", "tyrell", "greyjoy", "martell", "arryn"]
    g, events, asked = leaving_in_round_3(("mustering", QUIET_II, QUIET_III), tracks={"iron_throne": iron_throne})
    assert [p for p in asked if p.house in ("greyjoy", "martell", "arryn")] == []
    assert events_of(events, "house-vassalized") == [{"type": "house-vassalized", "house": "greyjoy"}]
    assert g.s.vassals == {"martell": None, "arryn": None, "greyjoy": None}  # the claim is open: nobody commands yet
    (started,) = events_of(events, "vassal-claim-started")
    assert sum(started["sets"].values()) == 3 and "greyjoy" not in started["sets"]
