"""What the Submit check costs a pick (issue U): ``app.decisions.refusal`` on the picks of every decision's form.

    python bench/form_check.py [--games 6] [--json]

After every pick the form reads its picks as an answer and gives it to a copy of the game as it stands
(``refusal``); Submit stays unavailable while that answer would be refused. This plays seeded Mother of Dragons games
of 4 and 7 players (``--games`` of each) with random players and, at every decision, times the check on the form as it
opens (the least of three timings: the machine may be shared), by kind. It also counts the forms whose pre-filled picks
would be refused (there should be none: Submit is available as every form opens). Figures, never assertions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.decisions import build_form, refusal
from app.queries import SharedGame
from engine import RuleError, new_game
from engine.agents import RandomAgent

TRIES = 3


def measure(games: int) -> dict[str, Any]:
    costs: dict[str, list[float]] = defaultdict(list)
    refused = 0
    for players in (4, 7):
        for seed in range(1, games + 1):
            g = new_game(players, seed=seed, options={"ruleset": "mother-of-dragons"})
            agents = {h: RandomAgent(seed * 10 + i) for i, h in enumerate(g.state.players)}
            while not g.finished:
                prompt = next(p for p in g.prompts() if not p.answered)
                shared = SharedGame(g.state)
                form = build_form(prompt, shared.view(prompt.house), "en")
                picks = {f.key: list(f.selected) for f in form.fields}
                timings = []
                for _ in range(TRIES):
                    start = time.perf_counter()
                    reason = refusal(shared, prompt, picks)
                    timings.append((time.perf_counter() - start) * 1000)
                costs[prompt.kind].append(min(timings))
                refused += reason is not None
                try:
                    g.act(prompt.house, agents[prompt.house].answer(prompt, g.view(prompt.house)))
                except RuleError:
                    g.act(prompt.house, prompt.default)
    every = sorted(c for kind in costs.values() for c in kind)

    def at(q: float) -> float:
        return round(every[min(len(every) - 1, int(len(every) * q))], 3)

    return {
        "games": 2 * games,
        "forms": len(every),
        "prefilled_refused": refused,
        "median_ms": round(statistics.median(every), 3),
        "p90_ms": at(0.9),
        "p99_ms": at(0.99),
        "max_ms": round(every[-1], 3),
        "by_kind_median_ms": {k: round(statistics.median(v), 3) for k, v in sorted(costs.items())},
        "by_kind_max_ms": {k: round(max(v), 3) for k, v in sorted(costs.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games of each player count")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.games)
    if args.json:
        print(json.dumps(figures))
        return 0
    counts = f"{figures['games']} games, {figures['forms']} forms"
    print(f"{counts}, pre-filled forms refused: {figures['prefilled_refused']}")
    print(
        f"the check: median {figures['median_ms']} ms, p90 {figures['p90_ms']} ms, p99 {figures['p99_ms']} ms, "
        f"max {figures['max_ms']} ms"
    )
    slowest = sorted(figures["by_kind_max_ms"].items(), key=lambda kv: -kv[1])[:5]
    print("slowest kinds: " + ", ".join(f"{k} {v} ms (median {figures['by_kind_median_ms'][k]})" for k, v in slowest))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
