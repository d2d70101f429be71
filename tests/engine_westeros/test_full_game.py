"""Whole games through prompts only, for 3 to 6 players (B-ROUND-01..05 end to end; prompts' contract:
defaults always legal, prompts() pure, the state round-trips through JSON at every step)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine import Game, RuleError, invariants, new_game
from engine.agents import RandomAgent
from engine.prompts import Prompt

WESTEROS_KINDS = {"bid", "tie-order", "muster", "westeros-choice", "wildling-tie"}


class WesterosRandomAgent(RandomAgent):
    """RandomAgent plus random (often illegal) answers to the Westeros-phase prompts."""

    def _muster(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        plan: dict[str, list[dict[str, str]]] = {}
        for area, opt in prompt.choices["areas"].items():
            actions = [{"recruit": t} for t in opt["recruit"] if t != "ship"]
            actions += [{"recruit": "ship", "to": to} for to in opt["ship_to"]]
            actions += [{"upgrade": t} for t in opt["upgrade"]]
            if actions and self.random.random() < 0.7:
                plan[area] = [self.random.choice(actions) for _ in range(self.random.randint(1, opt["points"]))]
        return plan

    def _reconcile(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        need = sum(len(ts) for ts in prompt.default["destroy"].values())
        pool = [(a, t) for a, ts in prompt.choices["armies"].items() for t in ts]
        self.random.shuffle(pool)
        out: dict[str, list[str]] = {}
        for a, t in pool[: need + self.random.randint(0, 1)]:
            out.setdefault(a, []).append(t)
        return {"destroy": out}

    def _tie_order(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        bids = prompt.choices["bids"]
        return sorted(bids, key=lambda h: (-bids[h], self.random.random()))

    def _wildling_destroy(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        pool = prompt.choices["units"]
        n = prompt.choices["count"]
        if prompt.choices["one_area"]:
            area = self.random.choice(sorted(pool))
            return {"destroy": {area: self.random.sample(pool[area], min(n, len(pool[area])))}}
        flat = [(a, t) for a, ts in pool.items() for t in ts]
        out: dict[str, list[str]] = {}
        for a, t in self.random.sample(flat, min(n, len(flat))):
            out.setdefault(a, []).append(t)
        return {"destroy": out}

    def _wildling_upgrade(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        flat = [a for a, n in prompt.choices["footmen"].items() for _ in range(n)]
        return {"areas": self.random.sample(flat, self.random.randint(0, min(len(flat), prompt.choices["max"])))}

    def _wildling_downgrade(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        flat = [a for a, n in prompt.choices["knights"].items() for _ in range(n)]
        return {"areas": self.random.sample(flat, prompt.choices["count"])}


def play(players: int, seed: int, agent: RandomAgent | None, *, check: bool = False) -> tuple[Game, Counter[str]]:
    g = new_game(players, seed=seed)
    seen: Counter[str] = Counter()
    steps = 0
    while not g.finished:
        steps += 1
        assert steps < 5000, "the game does not end"
        before = g.to_json()
        prompts = [p for p in g.prompts() if not p.answered]
        assert g.to_json() == before, "prompts() changed the state"
        assert prompts, "nobody is asked anything but the game has not ended"
        for q in g.prompts():
            json.dumps(q.to_dict())  # choices, default and info are JSON
        p = prompts[0]
        seen[p.kind] += 1
        if agent is None:
            g.act(p.house, p.default)
        else:
            try:
                g.act(p.house, agent.answer(p, g.view(p.house)), prompt_id=p.id)
            except RuleError:
                assert g.to_json() == before, "a refused answer changed the state"
                g.act(p.house, p.default, prompt_id=p.id)
        if check:
            invariants.check(g)  # supply settled before planning, views keep secrets, JSON round trip
        elif steps % 7 == 0 or p.kind in WESTEROS_KINDS:
            assert Game.from_json(g.to_json()) == g
    return g, seen


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_B_ROUND_01_whole_game_with_default_answers(players: int) -> None:
    """B-ROUND-01, B-ROUND-02, B-ROUND-03, B-ROUND-04, B-ROUND-05:
    ten rounds through prompts answered with their defaults end with a winner."""
    g, seen = play(players, seed=players, agent=None)
    assert g.finished and g.s.winner in g.s.players
    assert g.s.ended_reason in ("round-limit", "seven-castles")
    assert g.s.round == 10 or g.s.ended_reason == "seven-castles"
    assert seen["bid"] > 0 and seen["orders"] > 0
    assert Game.from_json(g.to_json()) == g


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4), (6, 5)])
def test_B_ROUND_01_whole_game_with_random_answers(players: int, seed: int) -> None:
    """B-ROUND-01, B-ROUND-02, B-ROUND-03, B-ROUND-04, B-ROUND-05:
    seeded random answers (refused ones replaced by the default) still reach a winner."""
    agent = WesterosRandomAgent(seed)
    g, seen = play(players, seed=seed * 101, agent=agent, check=True)
    assert g.finished and g.s.winner in g.s.players
    assert seen["bid"] > 0


def test_westeros_prompts_are_all_exercised_by_random_games() -> None:
    """Across a few random games every Westeros prompt kind shows up and each one's default is accepted."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        _, s = play(3 + seed % 4, seed=1000 + seed, agent=WesterosRandomAgent(seed))
        seen += s
    assert {"bid", "muster", "westeros-choice", "tie-order"} <= set(seen)
