"""Play whole games between agents and report what happened.

    python -m engine.sim --games 200 --players 6 --seed 1 [--agent random|heuristic] [--json]
    python -m engine.sim --ruleset mother-of-dragons --players 7 --games 200

Every failure (an exception, a default answer refused, an invariant broken) is reported with the
game's seed and the step number, so ``--games 1 --seed <seed>`` replays it exactly.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine import invariants, rules, rulesets
from engine.agents import AGENTS, Agent
from engine.errors import RuleError
from engine.game import Game, new_game

MAX_STEPS = 20_000
TARGARYEN = "targaryen"


@dataclass
class GameResult:
    seed: int
    finished: bool
    rounds: int
    winner: str | None
    steps: int
    battles: int
    error: dict[str, Any] | None = None
    slowest_step_ms: float = 0.0
    act_ms: list[float] = field(default_factory=list)
    gifts: int = 0  # gifts of Power made (Mother of Dragons)
    reason: str | None = None  # why the game ended: round-limit, seven-castles, seven-loyalty
    loans: int = 0  # loans taken from the Iron Bank
    interest_units: int = 0  # units destroyed for unpaid interest


GIFT_CHANCE = 0.03  # where the rules allow gifts of Power, now and then a house gives one


def try_a_gift(g: Game, giver: str, rng: random.Random) -> int:
    """A gift of 1 Power to another house, when the rules allow one now (a refused gift changes nothing)."""
    receiver = rng.choice([h for h in rules.player_houses(g.state) if h != giver])
    with contextlib.suppress(RuleError):
        g.gift(giver, receiver, 1)
        return 1
    return 0


def play_game(
    players: int | list[str],
    seed: int,
    agent: str = "random",
    *,
    check_invariants: bool = True,
    options: dict[str, Any] | None = None,
    on_step: Any = None,
) -> GameResult:
    g = new_game(players, seed=seed, options=options or {})
    agents: dict[str, Agent] = {h: AGENTS[agent](seed * 31 + i) for i, h in enumerate(g.state.players)}
    gifts = random.Random(seed) if rulesets.ruleset(g.state).allows_gifts else None
    steps = battles = given = loans = interest_units = 0
    act_ms: list[float] = []
    try:
        while not g.finished:
            prompts = [p for p in g.prompts() if not p.answered]
            if not prompts:
                raise RuntimeError("the game waits for nobody but has not ended")
            if steps >= MAX_STEPS:
                raise RuntimeError(f"no end after {MAX_STEPS} steps")
            prompt = prompts[0]
            if gifts is not None and gifts.random() < GIFT_CHANCE:
                given += try_a_gift(g, prompt.house, gifts)
                # A gift may open or close a decision (a house left without Power bids nothing).
                prompt = next((p for p in g.prompts() if not p.answered), prompt)
            answer = agents[prompt.house].answer(prompt, g.view(prompt.house))
            commanders = dict(g.state.vassals)
            dragons = invariants.dragons(g)
            start = time.perf_counter()
            try:
                events = g.act(prompt.house, answer)
            except RuleError:
                start = time.perf_counter()
                try:
                    events = g.act(prompt.house, prompt.default)
                except RuleError as exc:
                    raise RuntimeError(f"default answer refused for {prompt.kind}: {exc}") from exc
            act_ms.append((time.perf_counter() - start) * 1000)
            steps += 1
            battles += sum(1 for e in events if e["type"] == "combat-started")
            loans += sum(1 for e in events if e["type"] == "loan-taken")
            interest_units += sum(
                len(e["units"]) for e in events if e["type"] == "units-destroyed" and e.get("reason") == "interest"
            )
            if on_step is not None:
                on_step(g, prompt, events)
            if check_invariants:
                invariants.check(g)
                invariants.check_commanders(commanders, g, events)
                invariants.check_dragons(dragons, g, events)
    except Exception as exc:  # report, never crash the sweep
        return GameResult(
            seed=seed,
            finished=False,
            rounds=g.state.round,
            winner=None,
            steps=steps,
            battles=battles,
            error={
                "seed": seed,
                "step": steps,
                "message": f"{type(exc).__name__}: {exc}",
                "trace": traceback.format_exc(limit=6),
            },
            slowest_step_ms=max(act_ms, default=0.0),
            act_ms=act_ms,
            gifts=given,
            loans=loans,
            interest_units=interest_units,
        )
    return GameResult(
        seed=seed,
        finished=True,
        rounds=g.state.round,
        winner=g.state.winner,
        steps=steps,
        battles=battles,
        slowest_step_ms=max(act_ms, default=0.0),
        act_ms=act_ms,
        gifts=given,
        reason=g.state.ended_reason,
        loans=loans,
        interest_units=interest_units,
    )


def sweep(
    games: int,
    players: int,
    seed: int,
    agent: str,
    *,
    check_invariants: bool = True,
    options: dict[str, Any] | None = None,
    targaryen: bool = False,
) -> dict[str, Any]:
    seats: int | list[str] = players
    if targaryen:
        seats = with_targaryen(players, (options or {}).get("ruleset", rulesets.DEFAULT))
    results = [
        play_game(seats, seed + i, agent, check_invariants=check_invariants, options=options) for i in range(games)
    ]
    slowest = max(results, key=lambda r: r.slowest_step_ms, default=None)
    return {
        "games": games,
        "players": players,
        "agent": agent,
        "finished": sum(r.finished for r in results),
        "errors": [{k: v for k, v in r.error.items() if k != "trace"} for r in results if r.error],
        "rounds": sum(r.rounds for r in results),
        "rounds_per_game": round(sum(r.rounds for r in results) / max(1, games), 2),
        "winners": dict(Counter(r.winner for r in results if r.winner)),
        "endings": dict(Counter(r.reason for r in results if r.reason)),
        "battles": sum(r.battles for r in results),
        "steps": sum(r.steps for r in results),
        "slowest_step": {"ms": round(slowest.slowest_step_ms, 3), "seed": slowest.seed} if slowest else None,
        "iron_bank": {
            "games_with_loans": sum(1 for r in results if r.loans),
            "loans": sum(r.loans for r in results),
            "games_with_interest_units": sum(1 for r in results if r.interest_units),
            "interest_units": sum(r.interest_units for r in results),
        },
    }


def with_targaryen(players: int, ruleset: str) -> list[str]:
    """The houses for ``players`` with Targaryen among them: the default houses of one player fewer, and Targaryen
    (Mother of Dragons, 4 to 8 players)."""
    rs = rulesets.named(ruleset)
    houses = [*rs.houses_for(players - 1), TARGARYEN] if players > 1 else []
    if players not in rs.player_counts() or not rs.accepts_houses(houses):
        raise ValueError(f"Targaryen cannot play in a {ruleset} game of {players} players")
    return houses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play whole games between agents.")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=6, choices=[3, 4, 5, 6, 7, 8])
    parser.add_argument("--ruleset", default=rulesets.DEFAULT, choices=sorted(rulesets.RULESETS))
    parser.add_argument("--tides", action="store_true", help="play with Tides of Battle")
    parser.add_argument(
        "--targaryen", action="store_true", help="Mother of Dragons, 4-8 players: Targaryen plays in every game"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agent", default="random", choices=sorted(AGENTS))
    parser.add_argument("--no-invariants", action="store_true", help="skip the per-step checks (faster)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    counts = rulesets.named(args.ruleset).player_counts()
    if args.players not in counts:
        parser.error(f"the {args.ruleset} ruleset is played by {', '.join(map(str, counts))} players")
    # A base game's options name no ruleset, as every game before the expansion did.
    options: dict[str, Any] = {} if args.ruleset == rulesets.DEFAULT else {"ruleset": args.ruleset}
    if args.tides:
        options["tides_of_battle"] = True
    try:
        targaryen = args.targaryen or args.players == 8  # eight players hold every house
        if targaryen:
            with_targaryen(args.players, args.ruleset)
    except ValueError as exc:
        parser.error(str(exc))
    summary = sweep(
        args.games,
        args.players,
        args.seed,
        args.agent,
        check_invariants=not args.no_invariants,
        options=options,
        targaryen=targaryen and args.players < 8,
    )
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['finished']}/{summary['games']} games finished, {summary['rounds']} rounds, "
            f"{summary['battles']} battles, {len(summary['errors'])} errors"
        )
        print(f"winners: {summary['winners']}")
        print(f"endings: {summary['endings']}")
        if summary["iron_bank"]["loans"]:
            print(f"iron bank: {summary['iron_bank']}")
        print(f"slowest step: {summary['slowest_step']}")
        for e in summary["errors"][:10]:
            print(f"  seed {e['seed']} step {e['step']}: {e['message']}")
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
