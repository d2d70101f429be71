"""The searching agent (issue 42): legal answers to every prompt kind of both rulesets, fair play (it sees its view
and its prompt only, and answers the same whatever the view hides), determinism for a seed, and whole games in
which the engine refuses none of its answers.

The searches here run with ``clock=None``: only the work allowance ends them, so every answer is reproducible and
no test depends on the machine's speed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Game, RuleError, invariants, new_game, rules
from engine.agents import HeuristicAgent
from engine.game import Game as GameClass
from engine.prompts import Prompt
from engine.search.position import determinize, spec_from_view
from engine.search_agent import SearchAgent
from engine.sim import with_targaryen
from engine.state import GameState
from tests.engine_sim.test_default_answers import SETUPS, first_open, rare_positions

MOD = {"ruleset": "mother-of-dragons"}
SMALL = 15.0  # a budget that lets a search play a rollout or two: enough to exercise it, cheap enough for a test


def searcher(seed: int = 7, budget_ms: float = SMALL) -> SearchAgent:
    return SearchAgent(seed, budget_ms=budget_ms, clock=None)


def accepted(g: Game, prompt: Prompt, answer: Any) -> None:
    """``answer`` is accepted by ``act()`` on a copy of ``g``."""
    try:
        g.copy().act(prompt.house, answer, prompt_id=prompt.id)
    except RuleError as err:
        raise AssertionError(f"{prompt.kind} answer refused ({err.code}: {err.message}): {answer!r}") from err


def play_checking_search(
    players: int | list[str], options: dict[str, Any], seed: int, steps: int, seats: set[str] | None = None
) -> set[str]:
    """A game in which the houses of ``seats`` (all when None) are searching agents and the others heuristic agents;
    every searching answer must be accepted as it is. Returns the prompt kinds the searching agents answered."""
    g = new_game(players, seed=seed, options=options)
    agents = {
        h: searcher(seed * 31 + i) if seats is None or h in seats else HeuristicAgent(seed * 31 + i)
        for i, h in enumerate(g.state.players)
    }
    seen: set[str] = set()
    for _ in range(steps):
        if g.finished:
            break
        p = first_open(g)
        agent = agents[p.house]
        answer = agent.answer(p, g.view(p.house))
        commanders = dict(g.state.vassals)
        if isinstance(agent, SearchAgent):
            seen.add(p.kind)
            accepted(g, p, answer)
            events = g.act(p.house, answer, prompt_id=p.id)
        else:
            try:
                events = g.act(p.house, answer, prompt_id=p.id)
            except RuleError:
                events = g.act(p.house, p.default, prompt_id=p.id)
        invariants.check(g)
        invariants.check_commanders(commanders, g, events)
    return seen


# ----- positions built from a view -----


@pytest.mark.parametrize(("players", "options"), [(6, {}), (with_targaryen(8, "mother-of-dragons"), MOD)])
def test_a_position_built_from_a_view_opens_the_prompt_the_view_was_asked(
    players: int | list[str], options: dict[str, Any]
) -> None:
    """At every orders, raid and march prompt of a game, the position built from the house's view (its hidden parts
    drawn by another seed) asks that house the same question with the same legal answers."""
    g = new_game(players, seed=3, options=options)
    agents = {h: HeuristicAgent(i) for i, h in enumerate(g.state.players)}
    built = 0
    for _ in range(250):
        if g.finished:
            break
        p = first_open(g)
        view = g.view(p.house)
        if p.kind in ("orders", "raid", "march"):
            start = "planning" if p.kind == "orders" else p.kind
            position = determinize(view, start, 99, turn_of=None if p.kind == "orders" else p.house)
            assert position is not None, spec_from_view(view, start, 99)
            opened = position.prompt_for(p.house)
            assert opened is not None and opened.kind == p.kind and opened.choices == p.choices
            built += 1
        try:
            g.act(p.house, agents[p.house].answer(p, view))
        except RuleError:
            g.act(p.house, p.default)
    assert built >= 20


# ----- every prompt kind -----


def test_every_prompt_kind_of_the_rare_positions_is_answered_legally() -> None:
    """The fixed corpus of test_default_answers (the Raven, the house cards' abilities, captured ports, deck IV,
    the Iron Bank's loans...): at every prompt it opens, played on by the searching agent, its answer is accepted."""
    seen: set[str] = set()
    for g in rare_positions():
        agent = searcher(5)
        for _ in range(120):
            if g.finished:
                break
            p = first_open(g)
            answer = agent.answer(p, g.view(p.house))
            accepted(g, p, answer)
            seen.add(p.kind)
            g.act(p.house, answer, prompt_id=p.id)
    assert len(seen) >= 25, sorted(seen)


@pytest.mark.slow  # whole games: make test runs them, make check skips them
def test_the_searching_agent_in_every_seat_of_each_setup_gives_only_accepted_answers() -> None:
    """Both rulesets and Tides of Battle: the searching agent plays every seat of a seeded game of each setup of
    test_default_answers (orders and marches searched), and every answer it gives is accepted as it is. That every
    declared kind is answered legally by it is proved at every prompt of test_default_answers' corpus, in the same
    pass as the defaults (test_every_declared_prompt_kind_is_reached_its_default_accepted_and_the_searching_agents_
    answer_accepted)."""
    seen: set[str] = set()
    for players, options in SETUPS:
        seen |= play_checking_search(players, options, 200, 3000)
    assert {"orders", "march", "house-card"} <= seen, sorted(seen)


@pytest.mark.parametrize(
    ("players", "options", "rounds"),
    [(6, {}, 3), (with_targaryen(8, "mother-of-dragons"), MOD, 2), (4, {"tides_of_battle": True}, 3)],
)
def test_a_searching_seat_plays_rounds_of_a_game_and_no_answer_is_refused(
    players: int | list[str], options: dict[str, Any], rounds: int
) -> None:
    """One searching seat among heuristic ones, in both rulesets: every answer it gives is accepted as it is."""
    g = new_game(players, seed=21, options=options)
    seat = rules.player_houses(g.state)[1]
    seat_agent = searcher(40)
    agents = {h: seat_agent if h == seat else HeuristicAgent(i) for i, h in enumerate(g.state.players)}
    searched = 0
    while not g.finished and g.state.round <= rounds:
        p = first_open(g)
        agent = agents[p.house]
        answer = agent.answer(p, g.view(p.house))
        if agent is seat_agent:
            accepted(g, p, answer)
            g.act(p.house, answer, prompt_id=p.id)
            searched += p.kind in ("orders", "march")
            continue
        try:
            g.act(p.house, answer, prompt_id=p.id)
        except RuleError:
            g.act(p.house, p.default, prompt_id=p.id)
        invariants.check(g)
    assert searched >= rounds and seat_agent.searched >= 1


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [(6, {}), (with_targaryen(8, "mother-of-dragons"), MOD)])
def test_whole_games_where_every_seat_searches_end_soundly(players: int | list[str], options: dict[str, Any]) -> None:
    """Self-play: every seat searches; the game ends (no stall), every invariant holds after every step, and no
    answer is refused."""
    play_checking_search(players, options, 5, 20_000)


# ----- fair play -----


def planning_with_hidden_orders(seed: int, lannister_orders: str) -> Game:
    """Round 1's Planning phase of a six-player game in which Lannister has already given its (secret) orders."""
    g = new_game(6, seed=seed)
    p = g.prompt_for("lannister")
    assert p is not None
    orders = dict(p.default["orders"])
    if lannister_orders == "marches":
        marches = iter(t for t in ("march1*", "march0", "march-1") if p.choices["tokens"].get(t))
        for area in sorted(orders)[:2]:
            orders[area] = next(marches)
    g.act("lannister", {"orders": orders}, prompt_id=p.id)
    return g


def test_the_same_view_over_different_hidden_states_gets_the_same_answer() -> None:
    """Two games differing in what Stark cannot see (Lannister's secret orders, the order of every deck) show Stark
    the same view; a searching agent with the same seed gives the same orders in both."""
    one = planning_with_hidden_orders(1, "defaults")
    other = planning_with_hidden_orders(2, "marches")
    assert one.state.to_dict() != other.state.to_dict()
    assert one.state.westeros_decks != other.state.westeros_decks
    view_one, view_other = one.view("stark"), other.view("stark")
    assert view_one == view_other
    prompt_one, prompt_other = one.prompt_for("stark"), other.prompt_for("stark")
    assert prompt_one == prompt_other and prompt_one is not None
    answer_one = searcher(11, 60).answer(prompt_one, view_one)
    answer_other = searcher(11, 60).answer(prompt_one, view_other)
    assert answer_one == answer_other
    accepted(one, prompt_one, answer_one)
    accepted(other, prompt_one, answer_other)


def holds_a_game(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` reaches a game or a game state through its attributes, mappings or sequences."""
    if isinstance(value, GameClass | GameState):
        return True
    if depth > 6:
        return False
    if isinstance(value, dict):
        return any(holds_a_game(v, depth + 1) for v in value.values())
    if isinstance(value, list | tuple | set):
        return any(holds_a_game(v, depth + 1) for v in value)
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return any(holds_a_game(v, depth + 1) for v in vars(value).values())
    return False


def test_the_agent_is_handed_plain_data_that_holds_no_other_house_secret() -> None:
    """What the agent is given is the prompt and the view: plain JSON data (a JSON round trip changes nothing and
    leads to the same answer), which reaches no game object and shows none of Lannister's secret orders; after
    answering, the agent keeps no game either."""
    g = planning_with_hidden_orders(1, "marches")
    view, prompt = g.view("stark"), g.prompt_for("stark")
    assert prompt is not None
    plain_view = json.loads(json.dumps(view))
    plain_prompt = Prompt(**json.loads(json.dumps(prompt.to_dict())))
    assert plain_view == view and plain_prompt == prompt
    assert not holds_a_game(view) and not holds_a_game(prompt)
    lannister_areas = [a for a, o in g.state.orders.items() if o.house == "lannister"]
    lannister_areas += list(g.state.stack[-1].get("answers", {}).get("lannister", {}))
    assert lannister_areas
    for area in lannister_areas:
        assert view["areas"][area]["order"] == {"house": "lannister", "hidden": True}
    agent = searcher(3, 40)
    assert agent.answer(prompt, view) == searcher(3, 40).answer(plain_prompt, plain_view)
    assert agent.rollouts > 0 and not holds_a_game(agent)


# ----- determinism -----


def test_a_seed_gives_the_same_answers_and_another_seed_may_not() -> None:
    """The same seed, view and prompt give the same answer, orders and marches alike, searched with rollouts."""
    g = new_game(6, seed=8)
    p = g.prompt_for("baratheon")
    assert p is not None
    view = g.view("baratheon")
    first, second = searcher(4, 80), searcher(4, 80)
    assert first.answer(p, view) == second.answer(p, view)
    assert first.rollouts == second.rollouts > 1


def test_a_short_game_is_played_the_same_twice() -> None:
    """A searching seat's whole sequence of answers over two rounds depends only on the seeds."""

    def answers() -> list[str]:
        g = new_game(6, seed=13)
        agents = {h: searcher(70 + i) if h == "greyjoy" else HeuristicAgent(i) for i, h in enumerate(g.state.players)}
        out = []
        while not g.finished and g.state.round <= 2:
            p = first_open(g)
            answer = agents[p.house].answer(p, g.view(p.house))
            if p.house == "greyjoy":
                out.append(json.dumps(answer, sort_keys=True))
            try:
                g.act(p.house, answer, prompt_id=p.id)
            except RuleError:
                g.act(p.house, p.default, prompt_id=p.id)
        return out

    assert answers() == answers()
