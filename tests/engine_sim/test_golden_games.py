"""Whole games for fixed seeds must play out exactly as recorded (issue R, then the ruleset layer of M1).

A refactor of the engine's insides must not change one answer's effect. Each recorded game is played by
the agents from its seed; the record keeps the winner, the round, the number of answers and battles, and a
digest of every event and of the final state. Regenerate the record only for a rule change, and say in the
commit which games changed and why:

    .venv/bin/python -m tests.engine_sim.test_golden_games > tests/engine_sim/golden_games.json
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine.agents import AGENTS
from engine.errors import RuleError
from engine.game import new_game

RECORD = Path(__file__).with_name("golden_games.json")

CASES: list[dict[str, Any]] = [
    {"players": players, "seed": seed, "agent": agent, "tides": tides}
    for players in (3, 4, 5, 6)
    for seed, agent, tides in [(seed, "heuristic", seed % 2 == 0) for seed in range(11, 19)]
    + [(19, "random", False), (20, "random", True)]
]


def case_key(case: dict[str, Any]) -> str:
    tides = "tides" if case["tides"] else "plain"
    return f"{case['players']}p-seed{case['seed']}-{case['agent']}-{tides}"


def play(case: dict[str, Any]) -> dict[str, Any]:
    g = new_game(case["players"], seed=case["seed"], options={"tides_of_battle": case["tides"]})
    agents = {h: AGENTS[case["agent"]](case["seed"] * 31 + i) for i, h in enumerate(g.state.players)}
    events_digest = hashlib.sha256()
    answers = battles = 0
    while not g.finished:
        prompt = next(p for p in g.prompts() if not p.answered)
        answer = agents[prompt.house].answer(prompt, g.view(prompt.house))
        try:
            events = g.act(prompt.house, answer)
        except RuleError:
            events = g.act(prompt.house, prompt.default)
        answers += 1
        battles += sum(1 for e in events if e["type"] == "combat-started")
        events_digest.update(json.dumps(events, sort_keys=True).encode())
    return {
        "winner": g.state.winner,
        "round": g.state.round,
        "answers": answers,
        "battles": battles,
        "events": events_digest.hexdigest()[:16],
        "final_state": hashlib.sha256(g.to_json().encode()).hexdigest()[:16],
    }


@pytest.mark.parametrize("case", CASES, ids=case_key)
def test_recorded_game_plays_out_identically(case: dict[str, Any]) -> None:
    recorded = json.loads(RECORD.read_text())[case_key(case)]
    assert play(case) == recorded


if __name__ == "__main__":
    print(json.dumps({case_key(c): play(c) for c in CASES}, indent=1, sort_keys=True))
