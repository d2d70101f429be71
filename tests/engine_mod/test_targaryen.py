"""House Targaryen in Mother of Dragons (issue T): who may play it, Essos, the tracks, the Clash hand-out, dragons and
Pentos. Its house cards are proven in tests/engine_mod/test_targaryen_cards.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, RuleError, data, new_game, rules, rulesets, victory
from engine.sim import play_game, with_targaryen

from ..engine_action.helpers import event, fight, march, prompt, rejected, units

MOD = {"ruleset": "mother-of-dragons"}
WESTEROS = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
FOUR = ["stark", "lannister", "arryn", "targaryen"]


def essos(spec: dict[str, Any]) -> Game:
    """A position of eight players (no vassals), round 10 unless given (an Action phase that ends the game), no
    garrisons or neutral forces unless given."""
    return Game.from_scenario({"players": 8, "options": MOD, "garrisons": {}, "neutral": {}, "round": 10, **spec})


def test_M_TARG_01_M_SETUP_02_targaryen_plays_only_with_four_or_more_players() -> None:
    """M-TARG-01, M-SETUP-02: with three players Targaryen cannot be picked; from four it can, and it starts on
    Essos."""
    rs = rulesets.named("mother-of-dragons")
    assert "targaryen" not in rs.choosable_houses(3) and "targaryen" in rs.choosable_houses(4)
    with pytest.raises(RuleError) as info:
        new_game(["stark", "lannister", "targaryen"], options=MOD)
    assert info.value.code == "bad-houses"
    g = new_game(FOUR, options=MOD)
    assert "targaryen" in g.s.players and rules.player_houses(g.s).count("targaryen") == 1
    homes = {a for a, us in g.s.units.items() if us[0].house == "targaryen"}
    assert homes <= set(data.board("mother-of-dragons/board-essos.json").areas) - set(
        data.board("mother-of-dragons/board-westeros.json").areas
    )


@pytest.mark.parametrize(
    ("houses", "vassals"),
    [
        (FOUR, {"baratheon", "martell", "greyjoy", "tyrell"}),
        (["stark", "lannister", "arryn", "tyrell"], {"baratheon", "martell", "greyjoy"}),
        ([*WESTEROS[:6], "targaryen"], {"arryn"}),
        (WESTEROS, set()),
        ([*WESTEROS, "targaryen"], set()),
    ],
)
def test_M_PLAYERS_02_M_PLAYERS_03_M_PLAYERS_04_vassals_are_the_unpicked_houses_of_westeros(
    houses: list[str], vassals: set[str]
) -> None:
    """M-PLAYERS-02, -03, -04, M-SETUP-03: vassals = 7 − the players who did not pick Targaryen; Targaryen is never
    a vassal; eight players leave none."""
    g = new_game(houses, options=MOD)
    assert set(g.s.vassals) == vassals
    assert len(vassals) == 7 - len([h for h in houses if h != "targaryen"])
    assert ("targaryen" in g.s.players) == ("targaryen" in houses)


def test_M_PLAYERS_03_eight_players_hold_every_house() -> None:
    """M-PLAYERS-03: eight players hold the eight houses, and no house is left to be a vassal."""
    g = new_game(8, options=MOD)
    assert sorted(rules.player_houses(g.s)) == sorted([*WESTEROS, "targaryen"]) and g.s.vassals == {}
    assert all(len(g.s.houses[h].hand) == 7 and g.s.houses[h].power == 7 for h in g.s.players)


def test_M_VASSAL_07_targaryen_never_leaves_to_become_a_vassal() -> None:
    """M-VASSAL-07, 003:442: Targaryen is never a vassal, so its player cannot leave the game that way; any other
    house still can."""
    g = new_game(8, options=MOD)
    before = g.to_json()
    with pytest.raises(RuleError) as info:
        g.vassalize("targaryen")
    assert info.value.code == "cannot-leave" and g.to_json() == before
    g.vassalize("stark")
    assert g.s.leaving == ["stark"]


def test_M_ESSOS_02_M_SETUP_06_essos_is_on_the_table_only_when_targaryen_plays() -> None:
    """M-ESSOS-02, M-ESSOS-03, M-SETUP-06, M-SETUP-19: Essos (75 areas, 188 adjacent pairs) joins the board only with
    Targaryen, and with it Braavos's neutral force of 5; without Targaryen the game is as before."""
    without = new_game(4, options=MOD)
    with_ = new_game(FOUR, options=MOD)
    assert without.view(None)["options"]["board"] == "mother-of-dragons"
    assert with_.view(None)["options"]["board"] == "mother-of-dragons-essos"
    assert len(rules.board(without.s).areas) == 61 and len(rules.board(with_.s).areas) == 75
    pairs = sum(len(n) for n in rules.board(with_.s).neighbours.values()) // 2
    assert pairs == 188
    assert without.s.neutral == {"kings-landing": 5}
    assert with_.s.neutral == {"kings-landing": 5, "braavos": 5}
    assert "targaryen" not in without.to_json() and without.s.targaryen == {}


def test_M_ESSOS_01_a_ship_sails_from_a_westeros_sea_into_an_essos_sea() -> None:
    """M-ESSOS-01: the boards are one; a Westeros sea borders the Essos seas next to it."""
    g = essos(
        {
            "units": {"shipbreaker-bay": "stark ship", "the-narrow-sea": "lannister ship"},
            "orders": {"shipbreaker-bay": "march0", "the-narrow-sea": "defense1"},
            "start": "march",
        }
    )
    assert "bay-of-pentos" in prompt(g, "stark").choices["shipbreaker-bay"]["destinations"]["ship"]
    march(g, "stark", "shipbreaker-bay", {"sea-of-myrth": ["ship"]})
    assert units(g, "sea-of-myrth") == ["stark ship"]


def test_M_SETUP_17_M_TARG_08_targaryen_sets_up_on_essos() -> None:
    """M-SETUP-17, M-SETUP-18, M-TARG-08, M-COMP-03: Targaryen's units on Essos, the Pentos garrison of 2, supply 4,
    7 Power, one Victory point for Pentos, and the card set the game's option names (A unless told)."""
    g = new_game(FOUR, options=MOD)
    mine = {a: sorted(u.type for u in us) for a, us in g.s.units.items() if us[0].house == "targaryen"}
    assert mine == {
        "pentos": ["footman", "knight"],
        "port-of-pentos": ["ship"],
        "bay-of-pentos": ["ship", "ship"],
        "myr": ["knight"],
        "norvos": ["dragon"],
        "the-rhoyne": ["dragon", "dragon"],
    }
    hs = g.s.houses["targaryen"]
    assert (g.s.garrisons["pentos"], hs.supply, hs.power) == (2, 4, 7)
    assert rules.victory_points(g.s)["targaryen"] == 1 == g.view(None)["victory"]["targaryen"]
    sets = {data.house_cards()[c].set for c in hs.hand}
    assert sets == {"a"} and len(hs.hand) == 7
    b = new_game(FOUR, options={**MOD, "targaryen_cards": "b"})
    assert {data.house_cards()[c].set for c in b.s.houses["targaryen"].hand} == {"b"}
    with pytest.raises(RuleError):
        new_game(FOUR, options={**MOD, "targaryen_cards": "c"})


def test_M_TARG_16_targaryen_keeps_space_8_and_three_stars() -> None:
    """M-TARG-16, M-SETUP-13, M-COMP-02: Targaryen stands on space 8 of every track, after the vassals' shift too
    (a position, no influence token of its own), and may place three special orders."""
    g = new_game(FOUR, options=MOD)
    for track in data.TRACKS:
        assert g.s.tracks[track][-1] == "targaryen" and len(g.s.tracks[track]) == 8
        assert all(h not in g.s.vassals for h in g.s.tracks[track][:3])
    assert g.view("targaryen")["houses"]["targaryen"]["stars_allowed"] == 3


def clash(bids: dict[str, int]) -> Game:
    g = Game.from_scenario({"players": 8, "options": MOD, "round": 2, "start": {"clash": "iron_throne"}})
    for house in rules.turn_order(g.s):
        g.act(house, bids.get(house, 0))
    return g


def test_M_TARG_18_M_TARG_21_targaryen_hands_out_every_token_it_bid_before_ties() -> None:
    """M-TARG-18, M-TARG-21, M-TARG-16: once the bids are revealed Targaryen hands out all it bid, each token
    raising another house's bid by one (even from 0); the tokens stay in the Power Pool; the ties are settled on
    the raised bids, and Targaryen stays on space 8 however much it bid."""
    g = clash({"targaryen": 4, "stark": 2, "lannister": 2})
    p = prompt(g, "targaryen")
    assert p.kind == "bid-handout" and p.choices["amount"] == 4
    assert "targaryen" not in p.choices["houses"] and len(p.choices["houses"]) == 7
    rejected(g, "targaryen", {"stark": 3}, "handout-incomplete")
    rejected(g, "targaryen", {"stark": 5, "lannister": -1}, "bad-handout")
    rejected(g, "targaryen", {"targaryen": 4}, "bad-handout-house")
    power = {h: g.s.houses[h].power for h in g.s.players}
    events = g.act("targaryen", {"lannister": 1, "arryn": 3})
    handout = event(events, "bid-handout")
    assert handout["handout"] == {"lannister": 1, "arryn": 3}
    assert handout["bids"]["arryn"] == 3 and handout["bids"]["lannister"] == 3 and handout["bids"]["stark"] == 2
    tie = prompt(g, rules.holder(g.s, "iron_throne"))
    assert tie.kind == "tie-order" and tie.choices["bids"] == {
        h: b for h, b in handout["bids"].items() if h != "targaryen"
    }
    events = g.act(tie.house, tie.default)
    track = event(events, "track-set")
    assert set(track["order"][:2]) == {"lannister", "arryn"} and track["order"][2] == "stark"
    assert track["order"][-1] == "targaryen" and track["handout"] == {"lannister": 1, "arryn": 3}
    assert {h: g.s.houses[h].power for h in g.s.players} == power  # nobody received Power: it raised bids


def test_M_TARG_18_a_tie_after_the_handout_is_ordered_without_targaryen() -> None:
    """M-TARG-16, M-TARG-18: the holder of the Iron Throne orders the ties of the raised bids; Targaryen is never part
    of a tie, whatever it bid."""
    g = clash({"targaryen": 1, "stark": 1})
    g.act("targaryen", {"lannister": 1})
    tie = g.prompts()[0]
    assert tie.kind == "tie-order" and "targaryen" not in tie.choices["bids"]
    assert all("targaryen" not in group for group in tie.choices["tied"])
    g.act(tie.house, tie.default)
    assert g.s.tracks["iron_throne"][-1] == "targaryen"


def test_M_TARG_18_nothing_to_hand_out_when_targaryen_bid_nothing() -> None:
    """M-TARG-18: a bid of 0 asks Targaryen nothing."""
    g = clash({"stark": 3})
    assert all(p.kind != "bid-handout" for p in g.prompts())
    assert g.s.tracks["iron_throne"][0] == "stark" or g.prompts()[0].kind == "tie-order"


def test_M_TARG_19_targaryen_bids_against_the_wildlings_like_any_house() -> None:
    """M-TARG-19: in a wildling attack Targaryen bids like every other player."""
    g = Game.from_scenario({"players": FOUR, "options": MOD, "round": 2, "wildling_threat": 10, "start": "westeros"})
    bidders = {p.house for p in g.prompts() if p.kind == "bid"}
    assert "targaryen" in bidders and bidders == {h for h in FOUR if g.s.houses[h].power > 0}


def test_M_SETUP_10_M_TARG_12_M_TARG_13_dragons_grow_as_the_round_marker_reaches_a_token() -> None:
    """M-SETUP-10, M-TARG-12, M-TARG-13: strength tokens on rounds 2, 4, 6, 8, 10 move onto the dragon track when the
    round marker reaches them: every dragon's strength in rounds 1-10 is 0, 1, 1, 2, 2, 3, 3, 4, 4, 5."""
    expected = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 9: 4, 10: 5}
    seen: dict[int, int] = {}
    grew: list[int] = []

    def watch(g: Game, _prompt: object, events: list[dict[str, Any]]) -> None:
        seen.setdefault(g.s.round, g.view(None)["targaryen"]["dragon_strength"])
        grew.extend(e["round"] for e in events if e["type"] == "dragon-strength")

    result = play_game(with_targaryen(5, "mother-of-dragons"), 3, "heuristic", options=MOD, on_step=watch)
    assert result.error is None
    assert seen == {r: expected[r] for r in seen} and len(seen) == result.rounds
    assert grew == [r for r in (2, 4, 6, 8, 10) if r <= result.rounds]


def test_M_TARG_11_M_TARG_12_a_dragon_fights_and_supports_with_the_dragon_strength() -> None:
    """M-TARG-11, M-TARG-12: a dragon is a land unit as strong as the dragon track, in attack and in support."""
    g = essos(
        {
            "units": {
                "myr": "targaryen dragon",
                "the-rhoyne": "targaryen dragon",
                "volantis": "stark footman",
            },
            "orders": {"myr": "march0", "the-rhoyne": "support0", "volantis": "defense1"},
            "dragon_strength": 3,
            "hands": {"targaryen": ["arstan-whitebeard"], "stark": ["the-blackfish"]},
            "start": "march",
        }
    )
    march(g, "targaryen", "myr", {"volantis": ["dragon"]})
    events = fight(
        g, cards={"targaryen": "arstan-whitebeard", "stark": "the-blackfish"}, support={"targaryen": "attacker"}
    )
    strength = event(events, "combat-result")["strength"]["attacker"]
    assert strength["units"] == 3 and strength["support"] == 3
    assert units(g, "volantis") == ["targaryen dragon"]


def test_M_TARG_14_a_dragon_flies_to_any_land_alone() -> None:
    """M-TARG-14: a dragon with a March order may fly to any land of both boards, never to a sea; the footman beside
    it marches only where it could before."""
    g = essos(
        {
            "units": {"the-rhoyne": "targaryen dragon footman", "winterfell": "stark footman"},
            "orders": {"the-rhoyne": "march0", "winterfell": "defense1"},
            "start": "march",
        }
    )
    options = prompt(g, "targaryen").choices["the-rhoyne"]["destinations"]
    lands = {a for a, area in rules.board(g.s).areas.items() if area.is_land} - {"the-rhoyne"}
    assert set(options["dragon"]) == lands
    assert set(options["footman"]) == {"myr", "norvos", "volantis"}
    rejected(g, "targaryen", {"from": "the-rhoyne", "moves": [{"to": "the-eyrie", "units": ["footman"]}]})
    rejected(g, "targaryen", {"from": "the-rhoyne", "moves": [{"to": "sea-of-myrth", "units": ["dragon"]}]})
    march(g, "targaryen", "the-rhoyne", {"the-eyrie": ["dragon"]})
    assert units(g, "the-eyrie") == ["targaryen dragon"] and units(g, "the-rhoyne") == ["targaryen footman"]


def test_M_TARG_23_a_dragon_flies_into_a_neutral_force_and_fights_it() -> None:
    """M-TARG-23 (decided: yes, and it is the order's one combat): a dragon may fly into King's Landing and must beat
    its neutral force under the neutral rules (here a dragon of strength 5 and a March +1 against its 5)."""
    g = essos(
        {
            "units": {"the-rhoyne": "targaryen dragon"},
            "orders": {"the-rhoyne": "march1*"},
            "neutral": {"kings-landing": 5},
            "dragon_strength": 5,
            "start": "march",
        }
    )
    assert "kings-landing" in prompt(g, "targaryen").choices["the-rhoyne"]["destinations"]["dragon"]
    march(g, "targaryen", "the-rhoyne", {"kings-landing": ["dragon"]})
    assert units(g, "kings-landing") == ["targaryen dragon"] and "kings-landing" not in g.s.neutral


def dragon_flies_to_winterfell(stark_card: str) -> Game:
    """Round 10's March step: Targaryen's lone dragon (strength 1) may fly from the Rhoyne to Winterfell, held by
    two Stark knights on a special Defense; Stark holds only ``stark_card``."""
    return essos(
        {
            "units": {"the-rhoyne": "targaryen dragon", "winterfell": "stark knight knight"},
            "orders": {"the-rhoyne": "march0", "winterfell": "defense2*"},
            "dragon_strength": 1,
            "hands": {"targaryen": ["ser-jorah-mormont"], "stark": [stark_card]},
            "start": "march",
        }
    )


def stark_attacks_a_dragon(stark_card: str) -> Game:
    """Round 10's March step: Stark may march from Myr on Targaryen's lone dragon (strength 0) in the Rhoyne; Stark
    holds only ``stark_card``."""
    return essos(
        {
            "units": {"myr": "stark knight knight footman", "the-rhoyne": "targaryen dragon"},
            "orders": {"myr": "march0", "the-rhoyne": "defense1"},
            "dragon_strength": 0,
            "hands": {"stark": [stark_card], "targaryen": ["ser-jorah-mormont"]},
            "start": "march",
        }
    )


def test_M_TARG_15_a_beaten_dragon_goes_back_to_where_it_flew_from() -> None:
    """M-TARG-15: a dragon that flew in and lost goes back, routed, to the area it flew from (there is no other way
    back: it does not fly when retreating, but an attacker always returns where it marched from)."""
    g = dragon_flies_to_winterfell("greatjon-umber")
    march(g, "targaryen", "the-rhoyne", {"winterfell": ["dragon"]})
    events = fight(g, cards={"targaryen": "ser-jorah-mormont", "stark": "greatjon-umber"})
    assert event(events, "combat-result")["winner"] == "stark"
    assert event(events, "retreat")["to"] == "the-rhoyne"
    assert units(g, "the-rhoyne") == ["targaryen dragon"]  # the last combat of round 10: the game is over


def test_M_TARG_15_a_defending_dragon_retreats_only_to_an_adjacent_area() -> None:
    """M-TARG-15: a beaten dragon defending retreats by the normal rules, to an adjacent area it may enter (never
    where the attack came from), never flying."""
    g = stark_attacks_a_dragon("greatjon-umber")
    march(g, "stark", "myr", {"the-rhoyne": ["knight", "knight", "footman"]})
    answers = {"stark": "greatjon-umber", "targaryen": "ser-jorah-mormont"}
    while (p := next(x for x in g.prompts() if not x.answered)).kind != "retreat":
        g.act(p.house, answers[p.house] if p.kind == "house-card" else p.default)
    assert p.house == "targaryen" and sorted(p.choices) == ["norvos", "volantis"]
    events = g.act("targaryen", "volantis")
    assert event(events, "retreat")["to"] == "volantis" and units(g, "volantis") == ["targaryen dragon"]


def test_M_TARG_15_M_TARG_10_a_dragon_may_be_a_casualty_and_is_never_mustered() -> None:
    """M-TARG-15, M-TARG-10: Targaryen may choose a dragon as a casualty; a destroyed dragon never comes back, and
    no dragon is ever offered at mustering."""
    g = essos(
        {
            "units": {"myr": "stark knight knight footman", "the-rhoyne": "targaryen dragon footman"},
            "orders": {"myr": "march0", "the-rhoyne": "defense1"},
            "dragon_strength": 0,
            "hands": {"stark": ["eddard-stark"], "targaryen": ["ser-jorah-mormont"]},
            "start": "march",
        }
    )
    march(g, "stark", "myr", {"the-rhoyne": ["knight", "knight", "footman"]})
    events = fight(
        g,
        cards={"stark": "eddard-stark", "targaryen": "ser-jorah-mormont"},
        casualties={"targaryen": ["dragon"]},
        retreat={"targaryen": "volantis"},
    )
    assert "dragon" in event(events, "units-destroyed")["units"]
    assert units(g, "volantis") == ["targaryen footman"]
    assert rules.units_on_board(g.s, "targaryen", "dragon") == 0
    muster = essos(
        {
            "units": {"pentos": "targaryen footman"},
            "orders": {"pentos": "consolidate*"},
            "start": "consolidate",
        }
    )
    muster.act("targaryen", "muster")
    choices = prompt(muster, "targaryen").choices
    assert "dragon" not in choices["available"] and "dragon" not in choices["areas"]["pentos"]["recruit"]


def test_M_TARG_09_losing_pentos_costs_its_point_and_taking_it_back_restores_the_garrison() -> None:
    """M-TARG-08, M-TARG-09: while another house holds Pentos, Targaryen has no point for it; when Pentos is
    Targaryen's again (here its crest takes it back as the last enemy leaves) the point returns and so does the
    garrison of 2."""
    g = essos(
        {
            "units": {"pentos": "stark footman", "norvos": "stark footman", "myr": "targaryen knight"},
            "orders": {"pentos": "march0", "norvos": "defense1"},
            "start": "march",
        }
    )
    assert rules.victory_points(g.s)["targaryen"] == 0 and "pentos" not in g.s.garrisons
    events = march(g, "stark", "pentos", {"braavos": ["footman"]})
    regained = event(events, "pentos-regained")
    assert regained["garrison"] == 2 and g.s.garrisons["pentos"] == 2
    assert rules.victory_points(g.s)["targaryen"] == 1 == g.view(None)["victory"]["targaryen"]


def test_M_TARG_09_a_march_into_an_empty_pentos_takes_its_point() -> None:
    """M-TARG-09: Pentos taken without a battle (no garrison, nobody home) costs Targaryen its point at once."""
    g = essos(
        {
            "units": {"norvos": "stark footman", "myr": "targaryen knight"},
            "orders": {"norvos": "march0", "myr": "defense1"},
            "start": "march",
        }
    )
    assert rules.victory_points(g.s)["targaryen"] == 1
    events = march(g, "stark", "norvos", {"pentos": ["footman"]})
    assert event(events, "pentos-lost")["by"] == "stark"
    assert rules.victory_points(g.s)["targaryen"] == 0 and g.s.targaryen["holds_pentos"] is False


def test_M_TARG_02_targaryen_scores_no_castles() -> None:
    """M-TARG-02: castles and strongholds Targaryen controls are no Victory points; its point is Pentos's token."""
    g = essos(
        {
            "units": {
                "volantis": "targaryen footman",
                "braavos": "targaryen footman",
                "winterfell": "targaryen footman",
                "pentos": "targaryen footman",
            },
        }
    )
    assert rules.castles_controlled(g.s, "targaryen") == 4
    assert rules.victory_points(g.s)["targaryen"] == 1


def test_M_TARG_20_targaryen_establishes_control_with_power_when_it_leaves_a_land() -> None:
    """M-TARG-20: like any house, Targaryen may leave a Power token in a land its March order empties."""
    g = essos({"units": {"myr": "targaryen knight"}, "orders": {"myr": "march0"}, "start": "march"})
    assert prompt(g, "targaryen").choices["myr"]["can_leave_power"] is True
    march(g, "targaryen", "myr", {"the-disputed-lands": ["knight"]}, leave_power=True)
    assert g.s.power_tokens["myr"] == "targaryen" and rules.controller(g.s, "myr") == "targaryen"


def test_a_game_without_targaryen_saves_as_before() -> None:
    """Issue T: state is added only when present: a game without Targaryen has no Targaryen block in its save, its
    view or its options."""
    g = new_game(7, seed=5, options=MOD)
    assert '"targaryen"' not in g.to_json() and "targaryen" not in g.view(None)
    g8 = new_game(8, seed=5, options=MOD)
    assert Game.from_json(g8.to_json()) == g8
    assert g8.view(None)["targaryen"] == {
        "dragon_strength": 0,
        "dragon_rounds": [2, 4, 6, 8, 10],
        "loyalty": 0,
        "loyalty_tokens": {"kings-landing": 1},  # M-SETUP-20
        "loyalty_reserve": 19,
    }
    assert g8.view(None)["options"]["targaryen_cards"] == "a"


def test_M_TARG_22_after_round_ten_targaryens_loyalty_points_stand_against_castles() -> None:
    """M-TARG-22 (decided): after round 10 the Victory track decides, Targaryen's place being its loyalty points
    (and Pentos); the base tie-breakers follow unchanged, so a tie on points goes to the house with more
    strongholds."""
    g = essos(
        {
            "units": {
                "winterfell": "stark footman",
                "white-harbor": "stark footman",
                "moat-cailin": "stark footman",
                "pentos": "targaryen footman",
                "volantis": "targaryen footman",
            },
        }
    )
    s = g.s
    assert rules.victory_points(s)["stark"] == 3 and rules.victory_points(s)["targaryen"] == 1
    assert victory.final_winner(s) == "stark"
    s.targaryen["loyalty"] = 2
    assert rules.victory_points(s)["targaryen"] == 3
    # 3 each: Stark holds one stronghold (Winterfell), Targaryen two (Pentos, Volantis) -- castles it cannot score
    # still count as strongholds in the tie-breaker, as the base rules have it.
    assert victory.final_winner(s) == "targaryen"
    s.targaryen["loyalty"] = 3
    assert victory.final_winner(s) == "targaryen"


def test_M_TARG_15_robb_stark_against_dragons() -> None:
    """Known edge case "Daenerys and Robb against dragons": when Robb Stark wins, his owner chooses where the loser
    retreats, but a dragon's retreat stays a dragon's. A beaten dragon that flew in goes back where it flew from,
    with no choice to make; a beaten defending dragon goes only to an adjacent land, as Robb's owner picks."""
    flew = dragon_flies_to_winterfell("robb-stark")
    march(flew, "targaryen", "the-rhoyne", {"winterfell": ["dragon"]})
    events = fight(flew, cards={"targaryen": "ser-jorah-mormont", "stark": "robb-stark"})
    assert event(events, "combat-result")["winner"] == "stark"
    assert event(events, "retreat")["to"] == "the-rhoyne"  # far from Winterfell: it flew, it does not fly back

    defending = stark_attacks_a_dragon("robb-stark")
    march(defending, "stark", "myr", {"the-rhoyne": ["knight", "knight", "footman"]})
    cards = {"stark": "robb-stark", "targaryen": "ser-jorah-mormont"}
    while (p := next(x for x in defending.prompts() if not x.answered)).kind != "retreat":
        defending.act(p.house, cards[p.house] if p.kind == "house-card" else p.default)
    assert p.house == "stark" and sorted(p.choices) == ["norvos", "volantis"]  # Robb's owner, adjacent lands only
    rejected(defending, "stark", "pentos", "illegal-choice")
