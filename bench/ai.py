"""The searching agent against the heuristic agent (issue 42): whole games, one seat searching.

    python bench/ai.py [--games N] [--budget-ms B] [--players 6] [--ruleset base|mother-of-dragons] [--self-play]
                       [--seed S] [--rounds R] [--workers W] [--json]

Game i (seed S + i) gives the searching agent the house at place i of the game's houses, so the seat rotates over
the houses; every other seat is the heuristic agent. Printed: ``win_rate`` of the searching seat with its 95 %
Wilson interval (a heuristic seat's share is 1 / players), the mean victory points of the searching seat and of the
heuristic seats at the end, the CPU time of the searching seat's decisions (p50, p99, max), and the answers the
engine refused (the target is none). ``--self-play``: every seat searches, to show the games stay sound (every
invariant checked after every step, no stall). ``clock_stops`` counts the searches the CPU clock ended before their
work allowance (see docs/engine.md); while it is 0 every game depends on its seed alone. ``--rounds R`` stops a game
after round R (the smoke test's short games; a game so cut has no winner). ``--workers`` plays games in parallel
processes, the results kept in the games' order, so with no clock stop the figures, CPU times aside, are the same
with any number of workers. ``--log FILE`` appends each game's outcome as it ends, and a rerun with the same
arguments plays only the games not yet there (a long run survives being stopped). Figures, never assertions.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import invariants, rules, rulesets
from engine.agents import Agent, HeuristicAgent
from engine.errors import RuleError
from engine.game import Game, new_game
from engine.search_agent import SearchAgent
from engine.sim import with_targaryen

MAX_STEPS = 20_000
Z95 = 1.959964


@dataclass
class Setup:
    players: int
    ruleset: str
    budget_ms: float
    self_play: bool
    rounds: int | None


@dataclass
class Outcome:
    seed: int
    searcher: str | None
    winner: str | None
    finished: bool
    rounds: int
    points: dict[str, int]
    decision_ms: list[float] = field(default_factory=list)
    searched: int = 0
    clock_stops: int = 0
    refused: int = 0
    error: str | None = None


def houses_for(setup: Setup) -> list[str] | int:
    if setup.ruleset != rulesets.DEFAULT and setup.players == 8:
        return with_targaryen(8, setup.ruleset)
    return setup.players


# Called after every applied answer with the game, the house that answered, and the events it caused (bench/ai_game.py).
Watch = Callable[[Game, str, list[dict[str, Any]]], None]


def new_bench_game(setup: Setup, seed: int) -> Game:
    """Game ``seed`` of the bench's setup, before any answer."""
    options: dict[str, Any] = {} if setup.ruleset == rulesets.DEFAULT else {"ruleset": setup.ruleset}
    return new_game(houses_for(setup), seed=seed, options=options)


def play(setup: Setup, seed: int, index: int, watch: Watch | None = None) -> Outcome:
    """One game; the searching seat is the house at place ``index`` of the game's player houses."""
    g = new_bench_game(setup, seed)
    players = rules.player_houses(g.state)
    searcher = None if setup.self_play else players[index % len(players)]
    agents: dict[str, Agent] = {}
    for i, house in enumerate(g.state.players):
        if setup.self_play or house == searcher:
            agents[house] = SearchAgent(seed * 101 + i, budget_ms=setup.budget_ms)
        else:
            agents[house] = HeuristicAgent(seed * 31 + i)
    outcome = Outcome(seed=seed, searcher=searcher, winner=None, finished=False, rounds=0, points={})
    steps = 0
    try:
        while not g.finished and (setup.rounds is None or g.state.round <= setup.rounds):
            prompt = next((p for p in g.prompts() if not p.answered), None)
            if prompt is None:
                raise RuntimeError("the game waits for nobody but has not ended")
            if steps >= MAX_STEPS:
                raise RuntimeError(f"no end after {MAX_STEPS} steps")
            agent = agents[prompt.house]
            started = time.process_time()
            answer = agent.answer(prompt, g.view(prompt.house))
            searching = isinstance(agent, SearchAgent)
            if searching:
                outcome.decision_ms.append((time.process_time() - started) * 1000)
            commanders = dict(g.state.vassals)
            try:
                events = g.act(prompt.house, answer, prompt_id=prompt.id)
            except RuleError:
                outcome.refused += searching
                events = g.act(prompt.house, prompt.default, prompt_id=prompt.id)
            steps += 1
            if watch is not None:
                watch(g, prompt.house, events)
            invariants.check(g)
            invariants.check_commanders(commanders, g, events)
    except Exception as exc:  # reported, never crashing the bench
        outcome.error = f"{type(exc).__name__}: {exc} (seed {seed}, step {steps})"
    outcome.searched = sum(a.searched for a in agents.values() if isinstance(a, SearchAgent))
    outcome.clock_stops = sum(a.clock_stops for a in agents.values() if isinstance(a, SearchAgent))
    outcome.finished = g.finished
    outcome.winner = g.state.winner
    outcome.rounds = g.state.round
    outcome.points = dict(rules.victory_points(g.state))
    return outcome


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summarise(setup: Setup, outcomes: list[Outcome]) -> dict[str, Any]:
    decisions = [ms for o in outcomes for ms in o.decision_ms]
    scored = [o for o in outcomes if o.error is None and o.searcher is not None]
    wins = sum(1 for o in scored if o.winner == o.searcher)
    low, high = wilson(wins, len(scored))
    searcher_points = [o.points.get(o.searcher or "", 0) for o in scored]
    others = [v for o in scored for h, v in o.points.items() if h != o.searcher and h in o.points]
    summary: dict[str, Any] = {
        "games": len(outcomes),
        "players": setup.players,
        "ruleset": setup.ruleset,
        "budget_ms": setup.budget_ms,
        "self_play": setup.self_play,
        "finished": sum(o.finished for o in outcomes),
        "errors": [o.error for o in outcomes if o.error],
        "refused": sum(o.refused for o in outcomes),
        "decisions": len(decisions),
        "searched_decisions": sum(o.searched for o in outcomes),
        "clock_stops": sum(o.clock_stops for o in outcomes),
        "decision_ms": {
            "p50": round(percentile(decisions, 0.5), 2),
            "p99": round(percentile(decisions, 0.99), 2),
            "max": round(max(decisions, default=0.0), 2),
            "mean": round(statistics.fmean(decisions), 2) if decisions else 0.0,
        },
        "rounds_per_game": round(statistics.fmean(o.rounds for o in outcomes), 2) if outcomes else 0.0,
        "winners": [o.winner for o in outcomes],
    }
    if not setup.self_play:
        summary |= {
            "win_rate": round(wins / len(scored), 3) if scored else 0.0,
            "win_rate_95": [round(low, 3), round(high, 3)],
            "wins": wins,
            "heuristic_share": round(1 / len(rules_players(setup)), 3),
            "victory_points": {
                "searching": round(statistics.fmean(searcher_points), 2) if searcher_points else 0.0,
                "heuristic": round(statistics.fmean(others), 2) if others else 0.0,
            },
            "seats": [o.searcher for o in outcomes],
        }
    return summary


def rules_players(setup: Setup) -> list[str]:
    seats = houses_for(setup)
    return seats if isinstance(seats, list) else rulesets.named(setup.ruleset).houses_for(seats)


def _play_indexed(job: tuple[Setup, int, int]) -> Outcome:
    return play(*job)


def read_log(log: Path | None) -> dict[int, Outcome]:
    """The outcomes a previous run of the same setup appended to ``log``, by seed (a stopped run goes on from them)."""
    if log is None or not log.exists():
        return {}
    kept: dict[int, Outcome] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.strip():
            outcome = Outcome(**json.loads(line))
            kept[outcome.seed] = outcome
    return kept


def run(setup: Setup, games: int, seed: int, workers: int = 1, log: Path | None = None) -> list[Outcome]:
    done = read_log(log)
    jobs = [(setup, seed + i, i) for i in range(games) if seed + i not in done]
    with open(log, "a", encoding="utf-8") if log else contextlib.nullcontext() as sink:

        def keep(outcome: Outcome) -> None:
            done[outcome.seed] = outcome
            if sink is not None:
                sink.write(json.dumps(asdict(outcome)) + "\n")
                sink.flush()

        if workers <= 1:
            for job in jobs:
                keep(_play_indexed(job))
        else:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                for outcome in pool.imap_unordered(_play_indexed, jobs, chunksize=1):
                    keep(outcome)
    return [done[seed + i] for i in range(games)]  # in the games' order, whatever finished first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--budget-ms", type=float, default=200.0, help="CPU per searched decision (quick: 200)")
    parser.add_argument("--players", type=int, default=6, choices=[3, 4, 5, 6, 7, 8])
    parser.add_argument("--ruleset", default=rulesets.DEFAULT, choices=sorted(rulesets.RULESETS))
    parser.add_argument("--self-play", action="store_true", help="every seat searches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=None, help="stop each game after this round")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--outcomes", action="store_true", help="with --json: every game's outcome too")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--log", type=Path, default=None, help="append each game's outcome; a rerun skips those there")
    args = parser.parse_args(argv)
    if args.players not in rulesets.named(args.ruleset).player_counts():
        parser.error(f"the {args.ruleset} ruleset is not played by {args.players} players")
    setup = Setup(args.players, args.ruleset, args.budget_ms, args.self_play, args.rounds)
    outcomes = run(setup, args.games, args.seed, args.workers, args.log)
    summary = summarise(setup, outcomes)
    if args.outcomes:
        summary["outcomes"] = [{k: v for k, v in asdict(o).items() if k != "decision_ms"} for o in outcomes]
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 1 if summary["errors"] or summary["refused"] else 0


if __name__ == "__main__":
    sys.exit(main())
