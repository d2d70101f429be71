"""Engine benchmark: time per act(), one whole game, JSON (de)serialisation of a late-game state, and the reads a
bot makes between answers (every prompt, one house's prompt, who is awaited, a view, the seven-castle check).

    python bench/engine.py [--games N] [--players P] [--ruleset mother-of-dragons] [--json]

Mother of Dragons with 8 players puts Targaryen on Essos in every game (``--players 8 --ruleset
mother-of-dragons``); ``--targaryen`` does so for 4 to 7 players.

Figures, never assertions: compare them with the targets in the issues (median act < 1 ms,
a whole 6-player random game < 2 s, a late-game state < 64 KB of JSON).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import rulesets
from engine.game import Game
from engine.sim import play_game, with_targaryen


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_reads(games: list[Game], reps: int = 5) -> dict[str, float]:
    """Mean time of each read over positions sampled from the games (each position read ``reps`` times)."""
    reads: dict[str, Callable[[Game], object]] = {
        "prompts_ms": lambda g: g.prompts(),
        "prompt_for_ms": lambda g: g.prompt_for(g.state.players[0]),
        "awaiting_ms": lambda g: g.awaiting(),
        "public_view_ms": lambda g: g.view(None),
        "private_view_ms": lambda g: g.view(g.state.players[0]),
        "instant_win_check_ms": lambda g: Game.from_json(g.to_json()).check_instant_win(),
        "copy_ms": lambda g: Game.from_json(g.to_json()),
    }
    times: dict[str, list[float]] = {name: [] for name in reads}
    for g in games:
        for _ in range(reps):
            for name, read in reads.items():  # interleaved, so machine noise hits every figure alike
                start = time.perf_counter()
                read(g)
                times[name].append((time.perf_counter() - start) * 1000)
    out = {name: statistics.fmean(values) if values else 0.0 for name, values in times.items()}
    # The check runs on a fresh copy (it may end the game); its own cost is what the copy does not explain.
    out["instant_win_check_ms"] = max(0.0, out["instant_win_check_ms"] - out.pop("copy_ms"))
    return {name: round(value, 4) for name, value in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default=rulesets.DEFAULT, choices=sorted(rulesets.RULESETS))
    parser.add_argument("--targaryen", action="store_true", help="Mother of Dragons: Targaryen plays (4-7 players)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options: dict[str, object] = {} if args.ruleset == rulesets.DEFAULT else {"ruleset": args.ruleset}
    seats: int | list[str] = with_targaryen(args.players, args.ruleset) if args.targaryen else args.players

    act_ms: list[float] = []
    game_s: list[float] = []
    finished = 0
    last_state: dict[str, Game] = {}

    largest = {"bytes": 0, "round": 0}
    positions: list[str] = []

    def keep_last(g: Game, *_: object) -> None:
        last_state["g"] = g
        if len(positions) < 400 and not g.finished and g.state.version % 7 == 0:
            positions.append(g.to_json())
        if g.state.round >= 9:  # the late game: measure the state after every answer
            size = len(g.to_json().encode())
            if size > largest["bytes"]:
                largest.update(bytes=size, round=g.state.round)
                last_state["largest"] = Game.from_json(g.to_json())

    for i in range(args.games):
        start = time.perf_counter()
        result = play_game(
            seats, args.seed + i, "random", check_invariants=False, options=dict(options), on_step=keep_last
        )
        game_s.append(time.perf_counter() - start)
        act_ms.extend(result.act_ms)
        finished += result.finished
    g = last_state.get("largest", last_state["g"])
    text = g.to_json()
    reps = 200
    start = time.perf_counter()
    for _ in range(reps):
        g.to_json()
    to_json_ms = (time.perf_counter() - start) * 1000 / reps
    start = time.perf_counter()
    for _ in range(reps):
        Game.from_json(text)
    from_json_ms = (time.perf_counter() - start) * 1000 / reps
    reads = time_reads([Game.from_json(p) for p in positions])
    figures = {
        "games": args.games,
        "finished": finished,
        "players": args.players,
        "ruleset": args.ruleset,
        "targaryen": "targaryen" in g.state.players,
        "acts": len(act_ms),
        "act_median_ms": round(statistics.median(act_ms), 4),
        "act_p99_ms": round(percentile(act_ms, 0.99), 4),
        "game_s": round(statistics.median(game_s), 4),
        "to_json_ms": round(to_json_ms, 4),
        "from_json_ms": round(from_json_ms, 4),
        "state_bytes": largest["bytes"] or len(text.encode()),
        "state_round": g.state.round,
        "final_state_bytes": len(last_state["g"].to_json().encode()),
        "positions": len(positions),
        **reads,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>14}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
