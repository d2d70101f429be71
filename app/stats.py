"""Who plays well (issue W): a member's record on a server and the server's leaderboard, computed from the stored games
only (nothing is written for them). Pure: ``app.store_stats`` reads the rows, this works them out.

- **A game's outcome** (``outcome``): for a game that *finished* (the engine ended it: a winner by the rules, at round
  ten or by an instant win), each player house's place, read from the engine: the winner first, then the others by
  ``engine.victory.standing`` (victory points, then the rulebook's tie-breakers); equal standings share a place. A game
  a moderator ended (``/mod end``) has no winner: it counts as played, not finished.
- **Played by the bot** (``played_by_bot``): a game in which any house was on autopilot at any time (at its start, by a
  seat change, or at its end; a house with no member on autopilot is an AI seat), in which the agent answered for a
  house (an entry of source ``ai``), or in which a deadline was answered by an agent (the game's
  ``autopilot`` setting ``ai`` or ``simple``), is left out of the rating, and counted apart.
- **The rating** (``leaderboard``): OpenSkill's Plackett-Luce model, a rating for free-for-all games of many players,
  over the rated games in the order they ended (then by id): deterministic. A member is ranked once he has played
  ``MIN_GAMES_RANKED`` rated games; the board is ordered by the rating's ordinal (mu - 3 sigma), a cautious estimate.
  A house whose member asked to be forgotten plays as an anonymous newcomer in each of its games, so the others'
  ratings hold and he is never shown.
- **Answer times** (``answer_times``): the log keeps when each answer was committed, not when its decision opened. A
  decision's opening is taken as the commit time of the entry before it in the log, except that the answers of one
  step taken at once (the same frame and kind of decision: orders, bids, the cards of a battle) share the step's
  opening, the entry before the first of them. A gift, a seat change or a house leaving opens nothing and is
  passed over; a repair (``/mod import``) opens the decisions of its position.
  The first decisions of a game have no entry before them and are not timed. Only a member's own answers are timed
  (a deadline's or an automatic answer is not his).
- **Deadlines missed**: the entries a deadline answered for a house, counted for the member who held it then (the
  seats at the start, then every seat change in the log).
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from engine import Game, rules, victory

MIN_GAMES_RANKED = 3  # rated games a member must have finished before the leaderboard ranks him
LEADERBOARD_SHOWN = 20  # members listed on the leaderboard (the best ones)

SEAT_CHANGE = "seat"  # app.queries' prompt ids of the log's entries that answer no decision
AI = "ai"  # the source of an answer the agent gave for a house it plays (app/ai.py)
# A game's ``autopilot`` settings in which a deadline is answered by an agent, not by the defaults ("agent": the name
# of "simple" before issue 42).
AGENT_AUTOPILOTS = frozenset({"ai", "simple", "agent"})
OUT_OF_BAND = frozenset({SEAT_CHANGE, "gift", "vassalize"})  # open no decision (a repair opens its position's)


class LogEntry(NamedTuple):
    """What the statistics read of one entry of a game's log (``answers``): a tuple, as a whole game's log is read."""

    version: int
    house: str
    user_id: int | None
    prompt_id: str
    source: str
    at: float
    seat: str | None = None  # a seat change: the new seat (a member's id as text, or None)
    autopilot: bool = False  # a seat change: whether the house is now on autopilot


@dataclass(frozen=True)
class Outcome:
    """A finished game's result, naming houses only (the members are read from its seats when needed)."""

    winner: str
    places: dict[str, int]  # player house -> 1 for the first place; equal standings share a place


@dataclass(frozen=True)
class GameSummary:
    """What the statistics keep of one started game."""

    game_id: int
    ended_at: float | None  # None while it runs
    outcome: Outcome | None  # None unless the engine finished it
    by_bot: bool
    seats: dict[str, int | None]  # house -> the member who holds it now (None: nobody, or a forgotten member)
    version: int = 0  # the game's version when it was read


@dataclass(frozen=True)
class HouseRecord:
    played: int = 0
    finished: int = 0
    won: int = 0


@dataclass(frozen=True)
class Rated:
    ordinal: float
    mu: float
    sigma: float
    games: int
    place: int | None  # on the leaderboard; None until ranked


@dataclass(frozen=True)
class MemberRecord:
    played: int
    finished: int
    won: int
    by_house: dict[str, HouseRecord]
    median_answer_s: float | None
    answers_timed: int
    missed: int
    rating: Rated | None
    by_bot: int  # of his finished games, those left out of the rating

    @property
    def empty(self) -> bool:
        return self.played == 0


@dataclass(frozen=True)
class Leaderboard:
    ranked: list[tuple[int, Rated]]  # (member, rating), best first
    unranked: int  # members with rated games, fewer than MIN_GAMES_RANKED
    rated_games: int
    by_bot: int  # finished games left out: played by the bot
    ratings: dict[int, Rated] = field(default_factory=dict)  # every member with a rated game


def outcome(game: Game) -> Outcome | None:
    """The places of a finished game's player houses, from the engine's winner and standing; None if unfinished."""
    s = game.state
    if not game.finished or s.winner is None:
        return None
    houses = rules.player_houses(s)
    key = {h: (h == s.winner, victory.standing(s, h)) for h in houses}
    order = sorted(houses, key=lambda h: key[h], reverse=True)
    places: dict[str, int] = {}
    for i, house in enumerate(order):
        tied = i > 0 and key[house] == key[order[i - 1]]
        places[house] = places[order[i - 1]] if tied else i + 1
    return Outcome(s.winner, places)


def played_by_bot(
    first: dict[str, Any] | None, final: dict[str, Any] | None, log: list[LogEntry], *, agent_deadlines: bool
) -> bool:
    """Whether the bot played a house of the game at any time: on autopilot in its first or last stored state or by a
    seat change, or a deadline answered by the agent (``agent_deadlines``: the game's autopilot setting is the
    agent)."""
    for state in (first, final):
        if state is not None and any(h.get("autopilot") for h in state.get("houses", {}).values()):
            return True
    if any((e.prompt_id == SEAT_CHANGE and e.autopilot) or e.source == AI for e in log):
        return True
    return agent_deadlines and any(e.source == "deadline" for e in log)


def _frame_kind(prompt_id: str) -> tuple[str, str] | None:
    parts = prompt_id.split(":", 2)
    return (parts[0], parts[1]) if len(parts) == 3 else None


def answer_times(log: list[LogEntry]) -> list[tuple[int, float]]:
    """(member, seconds from the decision's opening to his answer) for every member's own first answer of a decision,
    with the opening derived from the log as the module's docstring says. ``log`` in version order."""
    timed: list[tuple[int, float]] = []
    seen: set[str] = set()
    opened_at: float | None = None  # the commit time of the entry that opened the current step
    step: tuple[str, str] | None = None
    last_at: float | None = None
    for entry in log:
        if entry.prompt_id in OUT_OF_BAND:
            continue
        here = _frame_kind(entry.prompt_id)
        if here is None or here != step:
            step, opened_at = here, last_at
        own = entry.source == "player" and entry.user_id is not None and entry.prompt_id not in seen
        if own and entry.user_id is not None and opened_at is not None:
            timed.append((entry.user_id, max(0.0, entry.at - opened_at)))
        seen.add(entry.prompt_id)
        last_at = entry.at
    return timed


def missed_by(first_seats: dict[str, str | None], log: list[LogEntry]) -> Counter[int]:
    """Deadlines missed per member: each entry a deadline answered, for the member who held its house then."""
    holder = dict(first_seats)
    missed: Counter[int] = Counter()
    for entry in log:
        if entry.prompt_id == SEAT_CHANGE:
            holder[entry.house] = entry.seat
        elif entry.source == "deadline":
            seat = holder.get(entry.house)
            if seat is not None and seat.isdigit():
                missed[int(seat)] += 1
    return missed


def first_seats(state: dict[str, Any] | None) -> dict[str, str | None]:
    """The seats of a game's first stored state (as the engine keeps them: a member's id as text, or None)."""
    if state is None:
        return {}
    return {house: h.get("seat") for house, h in state.get("houses", {}).items()}


def leaderboard(games: list[GameSummary], *, min_games: int = MIN_GAMES_RANKED) -> Leaderboard:
    """The rating of every member over the rated games (finished, not played by the bot), in the order they ended."""
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    counts: Counter[int] = Counter()
    rated = by_bot = 0
    order = sorted(
        (g for g in games if g.outcome is not None and g.ended_at is not None), key=lambda g: (g.ended_at, g.game_id)
    )
    for game in order:
        assert game.outcome is not None
        if game.by_bot:
            by_bot += 1
            continue
        houses = sorted(game.outcome.places)
        members = [game.seats.get(h) for h in houses]
        teams = [[ratings[m] if m is not None and m in ratings else model.rating()] for m in members]
        result = model.rate(teams, ranks=[float(game.outcome.places[h]) for h in houses])
        for member, team in zip(members, result, strict=True):
            if member is not None:
                ratings[member] = team[0]
                counts[member] += 1
        rated += 1
    every = {m: Rated(float(r.ordinal()), float(r.mu), float(r.sigma), counts[m], None) for m, r in ratings.items()}
    eligible = sorted((m for m in every if counts[m] >= min_games), key=lambda m: (-every[m].ordinal, m))
    ranked: list[tuple[int, Rated]] = []
    for place, member in enumerate(eligible, start=1):
        every[member] = Rated(every[member].ordinal, every[member].mu, every[member].sigma, counts[member], place)
        ranked.append((member, every[member]))
    return Leaderboard(ranked, len(every) - len(eligible), rated, by_bot, every)


def member_record(
    member: int,
    games: list[GameSummary],
    times: list[tuple[int, float]],
    missed: Counter[int],
    board: Leaderboard,
) -> MemberRecord:
    """A member's record over the server's started games (``games``), his answer times and deadlines missed."""
    by_house: dict[str, HouseRecord] = {}
    played = finished = won = bot = 0
    for game in games:
        house = next((h for h, m in game.seats.items() if m == member), None)
        if house is None:
            continue
        is_finished = game.outcome is not None and house in game.outcome.places
        is_won = is_finished and game.outcome is not None and game.outcome.winner == house
        played += 1
        finished += is_finished
        won += is_won
        bot += is_finished and game.by_bot
        old = by_house.get(house, HouseRecord())
        by_house[house] = HouseRecord(old.played + 1, old.finished + is_finished, old.won + is_won)
    own = [seconds for who, seconds in times if who == member]
    return MemberRecord(
        played=played,
        finished=finished,
        won=won,
        by_house=by_house,
        median_answer_s=statistics.median(own) if own else None,
        answers_timed=len(own),
        missed=missed.get(member, 0),
        rating=board.ratings.get(member),
        by_bot=bot,
    )
