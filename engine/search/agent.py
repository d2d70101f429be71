"""``SearchAgent``: an agent that compares its candidate answers by playing them out.

It gets what every agent gets, the prompt and its own house's view, and nothing else. For orders and marches it
builds positions consistent with that view (``position.determinize``: the hidden parts drawn by a seed), plays
each candidate answer (``candidates``) in each position to the end of the round, every decision after it by the
heuristic agent, and scores the end (``evaluate.score``). The candidate with the best mean over the positions all
candidates were played in is the answer. Battles' house cards are weighed against the cards the opponent may play;
every other prompt is answered as the heuristic agent answers it.

Budget: ``budget_ms`` of CPU per decision. The search counts its work in engine steps (``STEPS_PER_MS`` of them per
millisecond, measured on the reference machine), so a seed gives the same answers on any machine; the CPU clock
(``clock``, ``time.process_time`` by default) is only a safety stop, at ``CLOCK_STOP`` times the budget, on a slower
or busier one (``clock_stops`` counts them); ``clock=None`` leaves the allowance alone.
Memory is bounded: one position and one rollout copy live at a time, and the candidates are a short list.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine import data
from engine.agents import Agent, HeuristicAgent
from engine.errors import RuleError
from engine.game import Game
from engine.prompts import Prompt
from engine.search import candidates, evaluate
from engine.search.position import determinize

STEPS_PER_MS = 1.1  # work units (an engine step of a rollout) per CPU millisecond, measured on the reference machine
POSITION_COST = 2  # building a position, in work units
ROLLOUT_COST = 2  # copying a position and scoring a rollout's end, in work units
CLOCK_STOP = 1.25  # the clock stops a search at this share of the budget (the work allowance should come first)
BASE_HOUSES = 6  # a step of a game with more houses costs more (bigger views and prompts, more of them): the square
MAX_ROLLOUT_STEPS = 1500  # a safety net: a round takes a few hundred steps
ORDER_CANDIDATES = 10
MARCH_CANDIDATES = 8


class SearchAgent(Agent):
    name = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget_ms: float = 200.0,
        clock: Callable[[], float] | None = time.process_time,
        max_positions: int = 64,
    ) -> None:
        super().__init__(seed)
        self.budget_ms = budget_ms
        self.clock = clock
        self.max_positions = max_positions
        self.fallback = HeuristicAgent(seed)
        self.rollouts = 0  # played in the last decision (for benches and tests)
        self.steps = 0  # engine steps the last decision's rollouts played
        self.searched = 0  # decisions answered by a search
        self.clock_stops = 0  # searches the clock ended before the work allowance did (their answer may vary)

    def answer(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        heuristic = self.fallback.answer(prompt, view)
        self.rollouts = self.steps = 0
        # A kind it plays better than the heuristic agent has a method of its name (as engine/agents.py's do): a
        # kind is named by the step that opens it and its registration only (tests/app/test_kind_homes.py).
        better = getattr(self, "_" + prompt.kind.replace("-", "_"), None)
        return heuristic if better is None else better(prompt, view, heuristic)

    def _orders(self, prompt: Prompt, view: dict[str, Any], heuristic: Any) -> Any:
        if view.get("viewer") != prompt.house:
            return heuristic
        options = candidates.order_candidates(prompt, view, self.random, ORDER_CANDIDATES)
        return self._searched(prompt, view, "planning", options, heuristic)

    def _march(self, prompt: Prompt, view: dict[str, Any], heuristic: Any) -> Any:
        if view.get("viewer") != prompt.house:
            return heuristic
        heuristic = _safe_march(prompt, view, heuristic)
        options = candidates.march_candidates(prompt, view, heuristic, MARCH_CANDIDATES)
        return self._searched(prompt, view, "march", options, heuristic)

    def _searched(self, prompt: Prompt, view: dict[str, Any], start: str, options: list[Any], fallback: Any) -> Any:
        if len(options) < 2:
            return options[0] if options else fallback
        return self._search(prompt, view, start, options, fallback)

    # ----- the search -----

    def _search(self, prompt: Prompt, view: dict[str, Any], start: str, options: list[Any], fallback: Any) -> Any:
        allowance = self.budget_ms * STEPS_PER_MS
        clock = self.clock
        stop_at = clock() + CLOCK_STOP * self.budget_ms / 1000 if clock is not None else None
        work = 0.0
        step_cost = max(1.0, len(view["players"]) / BASE_HOUSES) ** 2
        totals = [0.0] * len(options)
        counts = [0] * len(options)
        alive = [True] * len(options)
        settled: tuple[list[float], list[int]] | None = (
            None  # the sums over the positions every candidate was played in
        )
        seeds = [self.random.getrandbits(48) for _ in range(self.max_positions)]
        for seed in seeds:
            if work >= allowance:
                break
            game = determinize(view, start, seed, turn_of=None if start == "planning" else prompt.house)
            work += POSITION_COST
            if game is None:
                break
            opened = game.prompt_for(prompt.house)
            if opened is None or opened.kind != prompt.kind or opened.choices != prompt.choices:
                break  # the position is not the one the prompt was asked in
            for i, option in enumerate(options):
                if not alive[i]:
                    continue
                if work >= allowance:
                    return self._best(options, settled or (totals, counts), alive, fallback)
                if clock is not None and stop_at is not None and clock() >= stop_at:
                    self.clock_stops += 1
                    return self._best(options, settled or (totals, counts), alive, fallback)
                value, steps = self._rollout(game.copy(), prompt.house, option, seed, stop_at)
                if steps < 0:  # stopped by the clock: not a result
                    self.clock_stops += 1
                    return self._best(options, settled or (totals, counts), alive, fallback)
                work += steps * step_cost + ROLLOUT_COST
                self.steps += steps
                self.rollouts += 1
                if value is None:
                    alive[i] = False
                else:
                    totals[i] += value
                    counts[i] += 1
            settled = (list(totals), list(counts))
        return self._best(options, settled or (totals, counts), alive, fallback)

    def _best(self, options: list[Any], sums: tuple[list[float], list[int]], alive: list[bool], fallback: Any) -> Any:
        """The best mean among the candidates played in as many positions as the most played (ties: the earlier).
        ``sums`` are over the positions every candidate was played in, when there is one: a candidate played once
        more than the others in a position left unfinished is not compared on a different footing."""
        totals, counts = sums
        played = [i for i in range(len(options)) if alive[i] and counts[i] > 0]
        if not played:
            return fallback
        self.searched += 1
        most = max(counts[i] for i in played)
        full = [i for i in played if counts[i] == most]
        return options[max(full, key=lambda i: (totals[i] / counts[i], -i))]

    def _rollout(
        self, game: Game, house: str, answer: Any, seed: int, stop_at: float | None
    ) -> tuple[float | None, int]:
        """Play ``answer`` then the rest of the round by the heuristic agent; the end's score and the steps taken
        (None when the engine refuses the answer; -1 steps when the clock passed ``stop_at`` on the way)."""
        clock = self.clock
        try:
            game.act(house, answer)
        except RuleError:
            return None, 1
        players = list(game.s.players)
        agents = {h: HeuristicAgent(seed + 7919 * i) for i, h in enumerate(players)}
        first_round = game.s.round
        steps = 1
        while not game.finished and game.s.round == first_round and steps < MAX_ROLLOUT_STEPS:
            if clock is not None and stop_at is not None and steps % 8 == 0 and clock() >= stop_at:
                return None, -1
            prompt = next((p for p in game.prompts() if not p.answered), None)
            if prompt is None:
                break
            reply = agents[prompt.house].answer(prompt, game.view(prompt.house))
            try:
                game.act(prompt.house, reply)
            except RuleError:
                game.act(prompt.house, prompt.default)
            steps += 1
        return evaluate.score(game, house), steps

    # ----- battles -----

    def _house_card(self, prompt: Prompt, view: dict[str, Any], fallback: Any) -> Any:
        """The card that wins against most of the cards the opponent may still play, the cheapest of those that win
        as often: strength on the board is public (``battle.components``), both hands are public, only the
        opponent's pick is hidden, and it is weighed uniformly over its hand."""
        battle = view.get("battle")
        cards: list[str] = [c for c in prompt.choices if isinstance(c, str)]
        if not battle or not cards:
            return fallback
        side = "attacker" if battle["attacker"] == prompt.house else "defender"
        other = "defender" if side == "attacker" else "attacker"
        opponent = battle[other]
        theirs = list((view["houses"].get(opponent) or {}).get("hand") or []) or [None]
        strengths = data.house_cards()
        mine = float(battle["components"][side]["total"])
        against = float(battle["components"][other]["total"])
        tie_wins = _wins_ties(view, prompt.house, opponent)

        def strength(card: str | None) -> int:
            return int(strengths[card].strength) if card in strengths else 0

        def value(card: str) -> tuple[float, float]:
            wins = 0.0
            for their in theirs:
                diff = mine + strength(card) - against - strength(their)
                wins += 1.0 if diff > 0 or (diff == 0 and tie_wins) else 0.0
            # A stronger card spent is missing from later battles: a small price per point of strength.
            return wins / len(theirs) - 0.04 * strength(card), -strength(card)

        return max(sorted(cards), key=value)

    def _support(self, prompt: Prompt, view: dict[str, Any], fallback: Any) -> Any:
        """A house in the battle supports itself (as the heuristic agent does); a bystander supports whoever fights
        the leader on the victory track, if that leader is ahead of it, else stays out."""
        info = prompt.info
        attacker, defender = info.get("attacker"), info.get("defender")
        if prompt.house in (attacker, defender) or not isinstance(prompt.choices, list):
            return fallback
        points = view.get("victory") or {}
        mine = points.get(prompt.house, 0)
        for side, rival, friend in (("defender", attacker, defender), ("attacker", defender, attacker)):
            leads = rival is not None and points.get(rival, 0) > max(mine, points.get(friend, 0))
            if leads and side in prompt.choices:
                return side
        return fallback


def _safe_march(prompt: Prompt, view: dict[str, Any], answer: Any) -> Any:
    """The heuristic agent's march, unless it goes against a neutral force (which the engine refuses when the army
    is too weak, and only a search can check): then the prompt's default, which the engine always accepts."""
    moves = answer.get("moves", []) if isinstance(answer, dict) else []
    if any(isinstance(view["areas"][m["to"]].get("neutral"), int) for m in moves):
        return prompt.default
    return answer


def _wins_ties(view: dict[str, Any], house: str, opponent: str) -> bool:
    """B-COMBAT ties go to the higher place on the Fiefdoms track."""
    fiefdoms = view["tracks"].get("fiefdoms") or []
    if house in fiefdoms and opponent in fiefdoms:
        return fiefdoms.index(house) < fiefdoms.index(opponent)
    return False
