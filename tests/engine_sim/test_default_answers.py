"""Every prompt's default is an answer ``act()`` accepts, in every position (issue Q).

The default is what a deadline applies to a house that did not answer: if the engine refused it, the deadline could
not move the game on and the game would stall. These tests look at every open prompt of every position they reach
and apply its default to a copy of the game:

* generated Planning positions of both rulesets (B-PLAN-06, 002:1364-1392: when a house has at least as many order
  tokens as areas, every area gets an order; M-SEAORD-01, 003:141: sea orders add tokens; B-PLAN-07: sequential
  planning when a house has fewer), played on by defaults through the round;
* whole games between agents in both rulesets, Tides of Battle included, with gifts and players leaving now and then;
* a fixed corpus that reaches every declared prompt kind (``PromptKind``) at least once.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, invariants, new_game, rules, rulesets
from engine.agents import AGENTS
from engine.orders import RESTRICTIONS
from engine.prompts import PROMPT_KINDS, Prompt
from engine.search_agent import SearchAgent
from engine.steps.planning import max_placeable, order_areas
from tests.engine_action.helpers import make, march
from tests.engine_action.test_casualties import action as casualties_action
from tests.engine_action.test_ports import capture
from tests.engine_action.test_raven import ORDERS as RAVEN_ORDERS
from tests.engine_action.test_raven import raven_game
from tests.engine_cards.helpers import battle
from tests.engine_cards.test_arryn import vale
from tests.engine_cards.test_vassal_cards import BERIC, JANOS, VARYS, lannister_attacks_the_reach
from tests.engine_mod.test_iron_bank import loan_race
from tests.engine_mod.test_loans import at_loan
from tests.engine_mod.test_targaryen_cards import missandei as targaryen_missandei
from tests.engine_mod.test_vassals_westeros import QUIET_II, QUIET_III, mod_westeros

MOD = {"ruleset": "mother-of-dragons"}
MOD_DECK4: dict[str, Any] = {"players": 8, "options": MOD, "round": 2}  # deck IV plays: Targaryen is in
DECK4_PLAYERS = ("fire-made-flesh", "playing-with-fire", "the-long-plan")  # engine/steps/deck4_players.py
SETUPS: list[tuple[int | list[str], dict[str, Any]]] = [
    (3, {}),
    (4, {}),
    (5, {"tides_of_battle": True}),
    (6, {}),
    (3, MOD),
    (4, MOD),
    (7, MOD),
    (6, {**MOD, "tides_of_battle": True}),
    (8, MOD),
    (["stark", "lannister", "greyjoy", "arryn", "targaryen"], {**MOD, "targaryen_cards": "b"}),
]


def check_defaults(g: Game, seen: set[str] | None = None) -> None:
    """Every open prompt's default is accepted by ``act()`` (on a copy, so that ``g`` is not changed)."""
    for p in g.prompts():
        if seen is not None:
            seen.add(p.kind)
        try:
            g.copy().act(p.house, p.default, prompt_id=p.id)
        except RuleError as err:
            raise AssertionError(
                f"the default of {p.kind} for {p.house} is refused ({err.code}: {err.message}) "
                f"in round {g.s.round}, phase {g.s.phase}: {p.to_dict()}"
            ) from err


# What is checked at every position of a game played on: every open prompt (and the kinds met, when given a set).
Check = Callable[[Game, "set[str] | None"], None]


def first_open(g: Game) -> Prompt:
    prompts = [p for p in g.prompts() if not p.answered]
    assert prompts, "the game waits for nobody but has not ended"
    return prompts[0]


def play_by_defaults(g: Game, steps: int, seen: set[str] | None = None, check: Check | None = None) -> None:
    """Check every open default (or what ``check`` checks), apply the first one, and go on for ``steps`` answers or
    until the game ends."""
    for _ in range(steps):
        if g.finished:
            return
        (check or check_defaults)(g, seen)
        p = first_open(g)
        g.act(p.house, p.default, prompt_id=p.id)


# ----- the example -----

NORTH_LANDS = ["winterfell", "the-stony-shore", "white-harbor", "widows-watch", "karhold", "castle-black"]
MORE_LANDS = ["moat-cailin", "greywater-watch", "flints-finger", "the-twins"]
NORTH_SEAS = ["bay-of-ice", "the-shivering-sea", "the-narrow-sea"]


def stark_spread_over(lands: list[str], seas: list[str]) -> Game:
    """Round 3's Planning phase with seven players; Stark, 6th on King's Court (no special order), holds one unit in
    each of these areas."""
    units = {a: "stark footman" for a in lands} | {a: "stark ship" for a in seas}
    units["lannisport"] = "lannister footman"
    return Game.from_scenario(
        {
            "players": 7,
            "options": MOD,
            "units": units,
            "garrisons": {},
            "neutral": {},
            "round": 3,
            "start": "planning",
            "tracks": {
                "kings_court": ["lannister", "baratheon", "greyjoy", "tyrell", "martell", "stark", "arryn"],
            },
        }
    )


def test_B_PLAN_06_M_SEAORD_01_the_default_orders_cover_twelve_areas_with_twelve_tokens() -> None:
    """B-PLAN-06 (002:1364-1392), M-SEAORD-01 (003:141): Stark holds no special order and twelve areas; with the two
    usable sea orders it has twelve tokens, so every area must take one. The default gave ten orders before (the
    normal tokens only) and the engine refused it with ``orders-missing``: the deadline could not apply."""
    g = stark_spread_over([*NORTH_LANDS, *MORE_LANDS[:3]], NORTH_SEAS)
    p = next(p for p in g.prompts() if p.house == "stark")
    assert len(p.choices["areas"]) == 12 and p.choices["stars"] == 0 and p.choices["must_cover_all"]
    assert sorted(p.default["orders"]) == p.choices["areas"]
    assert {"sea-march-minus-1", "sea-support"} <= set(p.default["orders"].values())
    g.act("stark", p.default, prompt_id=p.id)
    assert g.prompt_for("stark") is None or g.prompt_for("stark").answered  # type: ignore[union-attr]


def test_B_PLAN_07_M_SEAORD_01_sequential_planning_defaults_to_every_token_the_house_can_place() -> None:
    """B-PLAN-07 (002:1364-1392): with thirteen areas and twelve tokens Stark is short, planning goes in turn order,
    and the default places all twelve."""
    g = stark_spread_over([*NORTH_LANDS, *MORE_LANDS], NORTH_SEAS)
    assert len(order_areas(g.s, "stark")) == 13 and max_placeable(g.s, "stark") == 12
    for _ in range(20):
        if g.s.orders_revealed:
            break
        check_defaults(g)
        p = first_open(g)
        g.act(p.house, p.default, prompt_id=p.id)
    stark_orders = [o for o in g.s.orders.values() if o.house == "stark"]
    assert len(stark_orders) == 12


# ----- generated Planning positions -----


@st.composite
def planning_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A Planning phase in which one house spreads over many areas: 1 to 21 of them, lands and seas (no ports), any
    King's Court position, any of the round's restrictions, either ruleset and any player count."""
    ruleset = draw(st.sampled_from(["base", "mother-of-dragons"]))
    rs = rulesets.named(ruleset)
    count = draw(st.sampled_from(rs.player_counts()))
    houses = rs.houses_for(count)
    # Mother of Dragons puts every house of Westeros on the board, the ones nobody plays as vassals, and Targaryen
    # with Essos when it plays (eight players).
    targaryen = "targaryen" in houses
    in_play = houses if ruleset == "base" else [h for h in rs.houses() if h != "targaryen" or targaryen]
    house = draw(st.sampled_from(houses))
    homes = {rs.houses()[h].home for h in in_play}
    board = rulesets.board_named("mother-of-dragons-essos" if targaryen else next(iter(rs.boards)))
    lands = sorted(a.id for a in board.areas.values() if a.is_land and not a.is_port and a.id not in homes)
    seas = sorted(a.id for a in board.areas.values() if not a.is_land and not a.is_port)
    chosen_lands = draw(st.lists(st.sampled_from(lands), unique=True, max_size=15))
    chosen_seas = draw(st.lists(st.sampled_from(seas), unique=True, max_size=6))
    if not chosen_lands and not chosen_seas:
        chosen_lands = [lands[0]]
    limits = rs.houses()[house].unit_limits  # Targaryen owns fewer footmen than the houses of Westeros
    chosen_lands = chosen_lands[: limits["footman"] + limits["knight"]]
    knights = draw(st.integers(0, min(limits["knight"], len(chosen_lands))))
    footmen_needed = len(chosen_lands) - knights
    if footmen_needed > limits["footman"]:
        knights, footmen_needed = len(chosen_lands) - limits["footman"], limits["footman"]
    units: dict[str, str] = {}
    for i, area in enumerate(chosen_lands):
        units[area] = f"{house} {'knight' if i < knights else 'footman'}"
    for area in chosen_seas:
        units[area] = f"{house} ship"
    for other in in_play:
        if other != house:
            units[rs.houses()[other].home] = f"{other} footman"
    court = [h for h in draw(st.permutations(in_play)) if h not in (house, "targaryen")]
    if house != "targaryen":
        court.insert(draw(st.integers(0, len(court))), house)
    court += ["targaryen"] if targaryen else []  # M-TARG-16: always on the last space
    restrictions = draw(st.lists(st.sampled_from(sorted(RESTRICTIONS)), unique=True, max_size=2))
    options = {} if ruleset == "base" else {"ruleset": ruleset}
    return {
        "players": count,
        "options": options,
        "seed": draw(st.integers(0, 2**32)),
        "units": units,
        "garrisons": {},
        "neutral": {},
        "round": draw(st.integers(2, 10)),
        "start": "planning",
        "tracks": {"kings_court": court},
        "restrictions": restrictions,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planning_positions())
def test_B_PLAN_06_B_PLAN_07_every_default_is_accepted_in_generated_planning_positions(spec: dict[str, Any]) -> None:
    """B-PLAN-06, B-PLAN-07, M-SEAORD-01, M-VASSAL-09: whatever the spread, the star limit, the restrictions and the
    ruleset, every prompt's default is accepted, through Planning and on by defaults to the end of the round; an
    orders default covers every area it can."""
    g = Game.from_scenario(spec)
    for p in g.prompts():
        if p.kind == "orders":
            covered = min(len(p.choices["areas"]), max_placeable(g.s, p.house))
            assert len(p.default["orders"]) == covered
    play_by_defaults(g, 200)


# ----- whole games -----


def play_checking_defaults(
    players: int | list[str],
    options: dict[str, Any],
    seed: int,
    agent: str,
    steps: int,
    *,
    leave_chance: float = 0.004,
    check: Check | None = None,
) -> set[str]:
    """A game between agents; before every answer every open default is checked (or what ``check`` checks), and
    after it every invariant. Now and then a house gives Power or its player leaves, where the rules allow it.
    Returns the prompt kinds met."""
    g = new_game(players, seed=seed, options=options)
    agents = {h: AGENTS[agent](seed * 31 + i) for i, h in enumerate(g.state.players)}
    chance = random.Random(seed)
    rs = rulesets.ruleset(g.state)
    seen: set[str] = set()
    for _ in range(steps):
        if g.finished:
            break
        (check or check_defaults)(g, seen)
        p = first_open(g)
        if rs.allows_vassals and chance.random() < leave_chance:
            leaver = chance.choice(rules.player_houses(g.state))
            with contextlib.suppress(RuleError):
                g.vassalize(leaver)
            continue
        if rs.allows_gifts and chance.random() < 0.03:
            receiver = chance.choice(rules.player_houses(g.state))
            with contextlib.suppress(RuleError):
                g.gift(p.house, receiver, 1)
            continue
        commanders = dict(g.state.vassals)
        try:
            events = g.act(p.house, agents[p.house].answer(p, g.view(p.house)), prompt_id=p.id)
        except RuleError:
            events = g.act(p.house, p.default, prompt_id=p.id)
        invariants.check(g)
        invariants.check_commanders(commanders, g, events)
    return seen


@pytest.mark.slow  # whole games: make test runs them, make check skips them
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 2**32),
    agent=st.sampled_from(sorted(AGENTS)),
)
def test_every_default_is_accepted_in_games_between_agents(
    setup: tuple[int | list[str], dict[str, Any]], seed: int, agent: str
) -> None:
    """Every prompt kind either ruleset opens in a game, Tides of Battle, gifts and players leaving included: its
    default is accepted wherever it opens."""
    players, options = setup
    play_checking_defaults(players, options, seed, agent, 1500, leave_chance=0.01)


# ----- every kind at least once -----


def rare_positions() -> list[Game]:
    """Positions that open the decisions agents' games seldom reach: the Raven's look at the wildlings, Mace Tyrell,
    the Queen of Thorns, Lysa Arryn, a loser's casualties, a captured port, Beric Dondarrion, a vassal's
    reconcile, Cersei Lannister, Robert Arryn, Missandei, a loyalty token moved by Word Spreads Quickly (then
    Targaryen's undo), and deck IV's Fire Made Flesh, Playing With Fire (and its player's unit) and The Long Plan."""
    raven = raven_game(RAVEN_ORDERS)
    raven.act("lannister", {"action": "peek"})

    mace = battle(
        {"searoad-marches": "tyrell knight", "stoney-sept": "lannister footman routed-footman"},
        {"searoad-marches": "march0", "stoney-sept": "defense1"},
    )
    march(mace, "tyrell", "searoad-marches", {"stoney-sept": ["knight"]})
    mace.act("tyrell", "mace-tyrell")
    mace.act("lannister", "the-hound")

    thorns = battle(
        {
            "searoad-marches": "tyrell knight knight",
            "stoney-sept": "lannister footman",
            "harrenhal": "lannister footman",
            "blackwater": "lannister footman",
        },
        {"searoad-marches": "march0", "stoney-sept": "defense1", "harrenhal": "support0", "blackwater": "consolidate"},
    )
    march(thorns, "tyrell", "searoad-marches", {"stoney-sept": ["knight", "knight"]})
    thorns.act("lannister", "defender")
    thorns.act("tyrell", "queen-of-thorns")
    thorns.act("lannister", "ser-jaime-lannister")

    lysa = vale()
    lysa.act("arryn", "lysa-arryn-mod")
    lysa.act("lannister", "the-hound")

    losses = casualties_action(
        {"lannisport": "lannister knight knight knight", "stoney-sept": "stark footman knight knight"},
        {"lannisport": "march0", "stoney-sept": "consolidate"},
    )
    march(losses, "lannister", "lannisport", {"stoney-sept": ["knight", "knight", "knight"]})
    losses.act("lannister", "ser-jaime-lannister")
    losses.act("stark", "greatjon-umber")

    port = capture()
    port.act("lannister", "searoad-marches")

    beric = lannister_attacks_the_reach("tyrell knight footman", "footman", orders={"the-reach": "vassal-defense3"})
    beric.state.houses["tyrell"].hand = sorted([BERIC, JANOS, VARYS])
    beric.act("tyrell", BERIC)
    beric.act("lannister", "cersei-lannister")

    supply = mod_westeros(
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
    cersei = battle(
        {"lannisport": "lannister knight knight", "stoney-sept": "stark footman", "winterfell": "stark footman"},
        {"lannisport": "march0", "stoney-sept": "defense1", "winterfell": "consolidate*"},
    )
    march(cersei, "lannister", "lannisport", {"stoney-sept": ["knight", "knight"]})
    until_kind(cersei, {"lannister": "cersei-lannister", "stark": "ser-rodrick-cassel"}, "cersei-order")

    robert = vale(
        hands={"lannister": ["the-hound", "ser-jaime-lannister", "tyrion-lannister"]},
        discards={"lannister": ["cersei-lannister", "tywin-lannister"]},
    )
    until_kind(robert, {"arryn": "robert-arryn", "lannister": "the-hound"}, "robert-remove")
    missandei = targaryen_missandei()
    until_kind(missandei, {"targaryen": "missandei", "martell": "areo-hotah"}, "missandei-return")
    spreads = Game.from_scenario(
        {**MOD_DECK4, "start": {"westeros": 4, "card": "word-spreads-quickly"}, "power": {"targaryen": 3}}
    )
    # Fire Made Flesh, Playing With Fire (declined by default, so also once past Targaryen's pick), The Long Plan
    deck4 = {c: Game.from_scenario({**MOD_DECK4, "start": {"westeros": 4, "card": c}}) for c in DECK4_PLAYERS}
    picked = Game.from_scenario({**MOD_DECK4, "start": {"westeros": 4, "card": "playing-with-fire"}})
    picked.act("targaryen", {"area": "harrenhal", "house": "stark"})  # the loyalty-unit decision is open
    positions = [raven, mace, thorns, lysa, losses, port, beric, supply, cersei, robert, missandei, spreads]
    return [*positions, *deck4.values(), picked, *iron_bank_positions()]


def iron_bank_positions() -> list[Game]:
    """The Iron Bank order's question, each loan effect that asks (the Spymaster's arrangement follows its deck),
    unpaid interest, and a house holding both a Consolidate Power and an Iron Bank order (which it resolves first)."""
    effects = [
        at_loan("the-faceless-men", {"winterfell": "stark knight", "lannisport": "lannister footman"})[0],
        *(at_loan(loan)[0] for loan in ("loyal-maester", "pyromancer", "spymaster", "full-host")),
    ]
    four: dict[str, Any] = {"players": ["stark", "lannister", "baratheon", "targaryen"], "options": MOD}
    order = Game.from_scenario(
        {
            **four,
            "round": 10,
            "start": "consolidate",
            "power": {"stark": 5},
            "units": {"bay-of-ice": "stark ship"},
            "orders": {"bay-of-ice": "sea-iron-bank"},
            "bank": {"slots": ["spymaster", None, None]},
        }
    )
    interest = Game.from_scenario(
        {
            **four,
            "round": 3,
            "start": "westeros",
            "power": {"stark": 0},
            "units": {"winterfell": "stark footman footman"},
            "bank": {"slots": [None, None, None], "loans": {"stark": ["spymaster"]}},
        }
    )
    return [*effects, order, interest, loan_race()]


def until_kind(g: Game, cards: dict[str, str], kind: str) -> None:
    """Play the combat under way (these house cards, every other decision by default) until a ``kind`` prompt
    opens."""
    for _ in range(40):
        p = first_open(g)
        if p.kind == kind:
            return
        g.act(p.house, cards[p.house] if p.kind == "house-card" else p.default, prompt_id=p.id)
    raise AssertionError(f"no {kind} prompt opened")


@pytest.mark.slow  # whole games: make test runs them, make check skips them
def test_every_declared_prompt_kind_is_reached_its_default_accepted_and_the_searching_agents_answer_accepted() -> None:
    """The corpus (eight seeded games of each setup, and the rare positions played on by defaults) opens every kind
    in ``PromptKind``, so the checks above are not blind to any of them; at every prompt it opens, the default is
    accepted, and so is the searching agent's answer (a zero budget: every answer that needs no rollout; its searched
    answers are checked in tests/engine_sim/test_search_agent.py). One pass over the corpus serves both claims: it
    is the suite's longest."""
    quick = SearchAgent(1, budget_ms=0.0, clock=None)
    answered: set[str] = set()

    def defaults_and_search(g: Game, seen: set[str] | None = None) -> None:
        check_defaults(g, seen)
        for p in g.prompts():
            answer = quick.answer(p, g.view(p.house))
            try:
                g.copy().act(p.house, answer, prompt_id=p.id)
            except RuleError as err:
                raise AssertionError(f"the searching agent's {p.kind} answer refused ({err.code}): {answer!r}") from err
            answered.add(p.kind)

    seen: set[str] = set()
    for i in range(8):
        for players, options in SETUPS:
            agent = "random" if i % 2 else "heuristic"
            seen |= play_checking_defaults(players, options, 100 + i, agent, 3000, check=defaults_and_search)
    for g in rare_positions():
        play_by_defaults(g, 300, seen, check=defaults_and_search)
    assert seen == set(PROMPT_KINDS), f"never reached: {sorted(set(PROMPT_KINDS) - seen)}"
    assert answered == set(PROMPT_KINDS), (
        f"never answered by the searching agent: {sorted(set(PROMPT_KINDS) - answered)}"
    )


def test_an_undeclared_prompt_kind_cannot_be_opened() -> None:
    """A new kind must be declared in ``PromptKind`` (and so be checked here and registered by the application)."""
    try:
        Prompt(id="1:x:stark", house="stark", kind="made-up", choices=[], default=None)
    except ValueError as err:
        assert "made-up" in str(err)
    else:  # pragma: no cover - the check is missing
        raise AssertionError("a prompt of an undeclared kind was built")
    assert make({"players": 3}).prompts()[0].kind in PROMPT_KINDS
