"""What the metrics hooks cost on the answer path: microseconds per call, with metrics off (``HEALTH_PORT`` unset) and
on. Figures, never assertions (a test times nothing).

    python bench/metrics.py [--calls 200000] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import metrics


def per_call(hook: Callable[[], object], calls: int) -> float:
    """The fastest of three timings of ``calls`` calls, in microseconds per call."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(calls):
            hook()
        best = min(best, time.perf_counter() - started)
    return round(best / calls * 1e6, 3)


def measure(calls: int) -> dict[str, dict[str, float]]:
    hooks: dict[str, Callable[[], object]] = {
        "answer": lambda: metrics.answer_applied("player"),
        "receipt": metrics.receipt_sent,
    }
    off = {name: per_call(hook, calls) for name, hook in hooks.items()}
    metrics.enable(queue=False)
    try:
        metrics.click_arrived()
        on = {name: per_call(hook, calls) for name, hook in hooks.items()}
    finally:
        metrics.disable()
    return {"us_per_call_off": off, "us_per_call_on": on}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.calls)
    if args.json:
        print(json.dumps(figures))
    else:
        for kind, values in figures.items():
            print(kind, ", ".join(f"{k} {v} µs" for k, v in values.items()))


if __name__ == "__main__":
    main()
