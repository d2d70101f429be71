"""The public face of the engine: ``Game`` and ``new_game``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from engine import gifts, rules, scenario
from engine.errors import RuleError
from engine.events import EventType
from engine.flow import STEPS, Frame
from engine.prompts import Prompt
from engine.rng import Rng
from engine.rulesets import ruleset, setup_state
from engine.state import GameState, copy_state
from engine.views import build_view

# Importing the step modules registers their frame types.
from engine import steps as _steps  # noqa: F401  isort: skip

MAX_STEPS_PER_ACT = 10_000


class Game:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self._events: list[dict[str, Any]] = []
        self._rng: Rng | None = None

    # ----- construction and persistence -----

    @staticmethod
    def from_json(text: str | dict[str, Any]) -> Game:
        raw = json.loads(text) if isinstance(text, str) else text
        state = GameState.from_dict(raw)
        for frame in state.stack:
            STEPS[frame["type"]].upgrade(frame)
        return Game(state)

    def copy(self) -> Game:
        """An independent game at the same position (nothing mutable is shared)."""
        return Game(copy_state(self.state))

    def to_json(self) -> str:
        return json.dumps(self.state.to_dict(), separators=(",", ":"), sort_keys=True)

    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()

    @staticmethod
    def from_scenario(spec: dict[str, Any]) -> Game:
        """Any position from a scenario (docs/scenario-format.md); a spec the rules forbid raises ``RuleError``."""
        state, start = scenario.build_state(spec)
        game = Game(state)
        scenario.push_start(game, start)
        game.run()
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.state.to_dict() == other.state.to_dict()

    def __hash__(self) -> int:  # pragma: no cover - games are mutable; hashing by identity
        return id(self)

    # ----- the contract -----

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def finished(self) -> bool:
        return self.state.phase == "ended"

    # ----- what every player may know, without reaching into the state -----

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def winner(self) -> str | None:
        return self.state.winner

    @property
    def houses(self) -> list[str]:
        """Every house in play, players and vassals."""
        return list(self.state.players)

    def liege_of(self, house: str) -> str | None:
        """The house commanding ``house`` if it is a vassal (None: not a vassal, or not claimed yet)."""
        return self.state.vassals.get(house)

    def prompts(self) -> list[Prompt]:
        if not self.state.stack or self.finished:
            return []
        top = self.state.stack[-1]
        return STEPS[top["type"]].prompts(self, top)

    def prompt_for(self, house: str) -> Prompt | None:
        """``house``'s open decision, or None; works out that house's prompt only."""
        if not self.state.stack or self.finished:
            return None
        top = self.state.stack[-1]
        return STEPS[top["type"]].prompt_for(self, top, house)

    def prompt_ids(self) -> list[str]:
        """The ids of the open prompts, in ``prompts()``'s order, without working out what each offers: which step
        is open (a deadline's key, the decisions a version opened)."""
        if not self.state.stack or self.finished:
            return []
        top = self.state.stack[-1]
        return STEPS[top["type"]].prompt_ids(self, top)

    def awaiting(self) -> list[str]:
        """The houses whose answer the game waits for now (a house that answered a simultaneous step early is not
        among them, though it may still change its answer)."""
        if not self.state.stack or self.finished:
            return []
        top = self.state.stack[-1]
        return STEPS[top["type"]].awaiting(self, top)

    def act(self, house: str, answer: Any, *, prompt_id: str | None = None) -> list[dict[str, Any]]:
        """Apply ``house``'s answer to its open prompt; return the events it caused.

        On a ``RuleError`` (or any other failure) the state is left exactly as it was.
        """
        if self.finished:
            raise RuleError("game-over", "The game has ended.")
        prompt = self.prompt_for(house)
        if prompt is None:
            raise RuleError("not-your-turn", f"Nothing is asked of {house} now.", house=house)
        if prompt_id is not None and prompt_id != prompt.id:
            raise RuleError("stale-prompt", "That decision is closed; a newer one is open.", prompt=prompt_id)
        top = self.state.stack[-1]
        return self._change_then_run(lambda: STEPS[top["type"]].answer(self, top, house, answer))

    def set_seat(self, house: str, seat: str | None, *, autopilot: bool = False) -> list[dict[str, Any]]:
        """Change who plays ``house`` (a replacement, or autopilot on/off). Valid in every state.

        Prompts belong to houses, not players, so nothing in progress (a bid, a battle, a card's
        ability, mustering) depends on who sits behind the house: the open prompts stay as they are.
        """
        if house not in self.state.players:
            raise RuleError("unknown-house", f"{house} does not play in this game.", house=house)
        hs = self.state.houses[house]
        hs.seat = seat
        hs.autopilot = autopilot
        self.state.version += 1
        return [{"type": "seat-changed", "house": house, "seat": seat, "autopilot": autopilot}]

    def vassalize(self, house: str) -> list[dict[str, Any]]:
        """The player of ``house`` leaves the game (M-LEAVE-01, 003:442): as the next round starts, before its Westeros
        phase, the house becomes a vassal; its liege is chosen at that round's claim. Until then it plays on as before
        (seated or on autopilot).

        Refused in a ruleset without vassals, for a vassal or a house already leaving, and when it would leave fewer
        than two players."""
        s = self.state
        if not ruleset(s).allows_vassals:
            raise RuleError("vassals-not-allowed", "Only Mother of Dragons games have vassals.")
        if self.finished:
            raise RuleError("game-over", "The game has ended.")
        if house not in s.players:
            raise RuleError("unknown-house", f"{house} does not play in this game.", house=house)
        if house in s.vassals or house in s.leaving:
            raise RuleError("already-vassal", f"{house} is already a vassal or leaving.", house=house)
        if not ruleset(s).can_leave(house):  # Targaryen never becomes a vassal (003:442, M-VASSAL-07)
            raise RuleError("cannot-leave", f"{house} cannot leave the game: it never becomes a vassal.", house=house)
        if len(rules.player_houses(s)) - len(s.leaving) <= 2:
            raise RuleError("too-few-players", "At least two players must stay in the game.", house=house)

        def leave() -> None:
            s.leaving.append(house)
            self.emit("house-leaving", house=house)

        return self._change_then_run(leave)

    def gift(self, giver: str, receiver: str, amount: int) -> list[dict[str, Any]]:
        """``giver`` gives ``amount`` of its available Power to ``receiver`` (Mother of Dragons, M-GIFT-01/02).

        Not an answer to a prompt: valid at any moment the rules allow (outside a combat, or while its support is
        called, and never leaving a recorded bid above what the giver keeps); otherwise a RuleError and no change.
        """
        gifts.check_gift(self.state, giver, receiver, amount)

        def give() -> None:
            gifts.give(self.state, giver, receiver, amount)
            self.emit("power-given", house=giver, receiver=receiver, amount=amount)

        # A house left without Power no longer bids: the bid it was the last to owe may now be complete.
        return self._change_then_run(give)

    def _change_then_run(self, change: Callable[[], None]) -> list[dict[str, Any]]:
        """Apply ``change``, count a new version and run on to the next decision; return the events. On any failure
        the state is left exactly as it was."""
        snapshot = self.state.to_dict()
        self._events = []
        try:
            change()
            self.state.version += 1
            self.run()
        except BaseException:
            self.state = GameState.from_dict(snapshot)
            self._rng = None
            self._events = []
            raise
        events, self._events = self._events, []
        return events

    def view(self, house: str | None = None) -> dict[str, Any]:
        return build_view(self, house)

    # ----- helpers for steps -----

    @property
    def s(self) -> GameState:
        return self.state

    @property
    def rng(self) -> Rng:
        if self._rng is None:
            self._rng = _StateRng(self.state)
        return self._rng

    def emit(self, event_type: EventType, **fields: Any) -> None:
        """Record an event. ``private_to`` marks an event only that house may see."""
        self._events.append({"type": event_type, **fields})

    def new_frame(self, frame_type: str, **fields: Any) -> Frame:
        self.state.frame_counter += 1
        return {"type": frame_type, "id": self.state.frame_counter, **fields}

    def push(self, frame_type: str, **fields: Any) -> Frame:
        frame = self.new_frame(frame_type, **fields)
        self.state.stack.append(frame)
        return frame

    def pop(self, f: Mapping[str, Any]) -> None:
        top = self.state.stack.pop()
        assert top is f or top["id"] == f["id"], "popped a frame that was not on top"

    def run(self) -> None:
        """Advance until some frame asks a question or the game ends. The ruleset's settle hook runs first (an
        answer may have changed the position: a march resolves inside its answer) and after every step, never inside
        a battle."""
        self._settle()
        for _ in range(MAX_STEPS_PER_ACT):
            if self.finished or not self.state.stack:
                return
            top = self.state.stack[-1]
            step = STEPS[top["type"]]
            if step.asks(self, top):
                if self._answer_for_a_vassal_without_liege(top):
                    continue
                return
            step.advance(self, top)
            self._settle()
        raise RuntimeError("the game did not settle: a step loops without asking anything")

    def _settle(self) -> None:
        if not self.finished and not any(f["type"] == "combat" for f in self.state.stack):
            ruleset(self.state).settle(self)

    def _answer_for_a_vassal_without_liege(self, top: Frame) -> bool:
        """A house that became a vassal as the round started has nobody to decide for it until the claim
        (M-LEAVE-01): its open decision takes its default at once, so the game never waits for an empty seat."""
        s = self.state
        if None not in s.vassals.values():
            return False
        step = STEPS[top["type"]]
        unled = (p for p in step.prompts(self, top) if not p.answered and s.vassals.get(p.house, "") is None)
        prompt = next(unled, None)
        if prompt is None:
            return False
        step.answer(self, top, prompt.house, prompt.default)
        return True

    def end_game(self, winner: str, reason: str) -> None:
        self.state.phase = "ended"
        self.state.winner = winner
        self.state.ended_reason = reason
        self.state.stack.clear()
        self.emit("game-over", winner=winner, reason=reason)

    def check_instant_win(self) -> bool:
        """B-ROUND-03 / B-VICTORY-01: seven castle/stronghold areas (the ruleset's victory points) win at once."""
        points = rules.victory_points(self.state)
        threshold = ruleset(self.state).instant_win_at
        for house in rules.player_houses(self.state):  # a vassal never wins (M-VASSAL-32)
            if points[house] >= threshold:
                self.end_game(house, ruleset(self.state).win_reason(self.state, house))
                return True
        return False


class _StateRng(Rng):
    """An Rng that writes its state back into the game state after every draw."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state.rng)
        self._game_state = state

    def next_u64(self) -> int:
        self.state = self._game_state.rng
        value = super().next_u64()
        self._game_state.rng = self.state
        return value


def new_game(
    players: int | list[str],
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> Game:
    """A game at its official setup, run on to its first decision (the Planning phase of round 1)."""
    game = Game(setup_state(players, seed=seed, options=options or {}))
    game.push("game", next="planning")
    game.run()
    return game
