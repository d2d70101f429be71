"""Who plays well (issue W): the records and the OpenSkill leaderboard from finished games, on SQLite and PostgreSQL.

A finished game is built cheaply and for real: a 3-player game started through the service, its position replaced by a
scenario of round 10's Action phase (``/mod import``) in which one march is left to resolve, and that march answered
by Stark's player: the engine ends the game and its winner follows from the position (the rules' tie-breakers).
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from app.commands import Answer, End, Import, Join, SetSeat, Start
from app.retention import DAY_S, prune_ended
from app.service import GameService, GameSettings
from app.stats import (
    MIN_GAMES_RANKED,
    GameSummary,
    LogEntry,
    Outcome,
    answer_times,
    leaderboard,
    member_record,
    missed_by,
    outcome,
    played_by_bot,
)
from app.store import Source, Store
from app.store_stats import StatsStore
from engine import Game
from testing.finished_games import near_the_end

GUILD, OTHER_GUILD = 501, 502
MOD = 9_000
P = (9_001, 9_002, 9_003, 9_004)
HOUSES = ("stark", "lannister", "baratheon")


async def finished_game(
    service: GameService,
    users: tuple[int, ...],
    winner: str,
    *,
    guild: int = GUILD,
    channel: int = 1,
    missed: bool = False,
    autopilot: bool = False,
    mod: int = MOD,
) -> dict[str, int]:
    """A finished 3-player game of ``users`` that ``winner`` wins; its seats (house -> member). ``missed``: a deadline
    answers one house's orders first; ``autopilot``: a house goes on autopilot for a moment."""
    game_id = await service.create(
        guild_id=guild, channel_id=channel, creator=mod, name=f"g{channel}", settings=GameSettings(players=3, seed=5)
    )
    for user in users:
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    seats = {h: u for h, u in (await service.store.seats(game_id)).items() if u is not None}
    game = await service.load(game_id)
    first, second = game.prompts()[:2]
    await service.execute(Answer(game_id=game_id, house=first.house, answer=first.default, by=seats[first.house]))
    if missed:
        await service.execute(
            Answer(game_id=game_id, house=second.house, answer=second.default, source=Source.DEADLINE,
                   prompt_id=second.id, only_if_unanswered=True, key=f"deadline:{game_id}", missed_by=second.house)
        )  # fmt: skip
    if autopilot:
        house = next(iter(seats))
        for on in (True, False):
            await service.execute(
                SetSeat(game_id=game_id, by=mod, key=f"ap{on}:{game_id}", house=house, user_id=seats[house],
                        autopilot=on)
            )  # fmt: skip
    await service.execute(Import(game_id=game_id, by=mod, key=f"import:{game_id}", spec=near_the_end(winner)))
    march = (await service.load(game_id)).prompt_for("stark")
    assert march is not None
    await service.execute(Answer(game_id=game_id, house="stark", answer=march.default, by=seats["stark"]))
    final = await service.load(game_id)
    assert final.finished and final.state.winner == winner
    return seats


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


def game(game_id: int, places: dict[str, int], seats: dict[str, int | None], *, by_bot: bool = False) -> GameSummary:
    winner = min(places, key=lambda h: places[h])
    return GameSummary(game_id, float(game_id), Outcome(winner, places), by_bot, seats)


def test_the_rating_follows_the_places_leaves_out_the_bots_games_and_ranks_after_the_minimum() -> None:
    a, b, c = 1, 2, 3
    seats = {"stark": a, "lannister": b, "baratheon": c}
    games = [game(i, {"stark": 1, "lannister": 2, "baratheon": 3}, seats) for i in range(1, MIN_GAMES_RANKED + 1)]
    games.append(game(99, {"stark": 3, "lannister": 2, "baratheon": 1}, seats, by_bot=True))  # not rated
    board = leaderboard(games)
    assert [m for m, _ in board.ranked] == [a, b, c]
    assert [r.place for _, r in board.ranked] == [1, 2, 3] and board.ranked[0][1].games == MIN_GAMES_RANKED
    assert (board.rated_games, board.by_bot, board.unranked) == (MIN_GAMES_RANKED, 1, 0)
    assert board.ranked[0][1].ordinal > board.ranked[1][1].ordinal > board.ranked[2][1].ordinal
    # One game fewer: nobody is ranked, all three are counted as rated but unranked.
    short = leaderboard(games[1:])
    assert short.ranked == [] and short.unranked == 3
    # The order the games ended in decides, not the order they are read in: the same board.
    assert leaderboard(list(reversed(games))) == board
    # A forgotten member's house (no member) plays as an anonymous newcomer in each game: the others are still rated.
    anonymous = [
        game(g.game_id, g.outcome.places, {**seats, "baratheon": None}, by_bot=g.by_bot) for g in games if g.outcome
    ]
    kept = leaderboard(anonymous)
    assert c not in kept.ratings and [m for m, _ in kept.ranked] == [a, b]
    # Equal places share the rating's update.
    tied = leaderboard([game(1, {"stark": 1, "lannister": 2, "baratheon": 2}, seats)])
    assert tied.ratings[b].mu == tied.ratings[c].mu < tied.ratings[a].mu


def test_the_places_are_the_engines_standing_and_an_unfinished_game_has_none() -> None:
    spec = near_the_end("baratheon") | {"players": list(HOUSES)}
    g = Game.from_scenario(spec)
    assert outcome(g) is None  # the march is still to resolve
    prompt = g.prompt_for("stark")
    assert prompt is not None
    g.act("stark", prompt.default)
    # Equal castles: the tie-breakers (here the Iron Throne's track) order them, the winner first.
    assert outcome(g) == Outcome("baratheon", {"baratheon": 1, "lannister": 2, "stark": 3})


def test_answer_times_share_a_steps_opening_and_pass_over_what_opens_nothing() -> None:
    log = [
        LogEntry(1, "stark", 1, "3:orders:stark", "player", 100.0),  # the game's first step: no opening known
        LogEntry(2, "lannister", 2, "3:orders:lannister", "player", 160.0),
        LogEntry(3, "stark", None, "seat", "moderator", 170.0, seat="1", autopilot=False),  # opens nothing
        LogEntry(4, "stark", 1, "5:march0:stark", "player", 400.0),  # opened by version 2, at 160
        LogEntry(5, "stark", None, "7:bid:stark", "deadline", 500.0),  # opened at 400; not his own answer
        LogEntry(6, "lannister", 2, "7:bid:lannister", "player", 550.0),  # the same step: opened at 400
        LogEntry(7, "lannister", 2, "7:bid:lannister", "player", 560.0),  # changed his answer: counted once
        LogEntry(8, "", 9, "repair", "moderator", 600.0),  # a moderator's import opens its position's decisions
        LogEntry(9, "stark", 1, "2:march0:stark", "player", 630.0),
    ]
    assert answer_times(log) == [(1, 240.0), (2, 150.0), (1, 30.0)]
    assert missed_by({"stark": "1", "lannister": "2"}, log) == Counter({1: 1})
    moved = [LogEntry(3, "stark", None, "seat", "moderator", 170.0, seat="3"), log[4]]
    assert missed_by({"stark": "1"}, moved) == Counter({3: 1})  # the member who held the house at the deadline
    assert not played_by_bot({"houses": {"stark": {}}}, None, log, agent_deadlines=False)
    assert played_by_bot({"houses": {"stark": {}}}, None, log, agent_deadlines=True)  # the agent answered a deadline
    assert played_by_bot(None, {"houses": {"stark": {"autopilot": True, "seat": None}}}, [], agent_deadlines=False)
    on = LogEntry(3, "stark", None, "seat", "moderator", 170.0, seat="1", autopilot=True)
    assert played_by_bot(None, None, [on], agent_deadlines=False)
    assert played_by_bot(None, None, [LogEntry(3, "stark", None, "1:bid:stark", "ai", 1.0)], agent_deadlines=False)


def test_a_member_who_plays_no_house_has_an_empty_record() -> None:
    record = member_record(7, [game(1, {"stark": 1}, {"stark": 1})], [], Counter(), leaderboard([]))
    assert record.empty and record.rating is None


async def test_records_and_leaderboard_from_finished_games_on_the_server_only(service: GameService) -> None:
    trio = P[:3]
    seats = [
        await finished_game(service, trio, "stark", channel=1, missed=True),
        await finished_game(service, trio, "stark", channel=2),
        await finished_game(service, trio, "stark", channel=3),
    ]
    await finished_game(service, trio, "baratheon", channel=4, autopilot=True)  # the bot played: not rated
    await finished_game(service, trio, "baratheon", guild=OTHER_GUILD, channel=5)  # another server's
    # A game a moderator ended (no winner) counts as played, not finished.
    ended = await service.create(guild_id=GUILD, channel_id=6, creator=MOD, name="g6", settings=GameSettings(players=3))
    best = seats[0]["stark"]  # Stark's player wins the three rated games
    other = next(u for u in trio if u != best)
    for user in (best, other, P[3]):
        await service.execute(Join(game_id=ended, by=user))
    await service.execute(Start(game_id=ended))
    await service.execute(End(game_id=ended, by=MOD, key="end:6"))

    stats = StatsStore(service.store.db)
    board = await stats.leaderboard(GUILD)
    assert (board.rated_games, board.by_bot, board.unranked) == (3, 1, 0)
    assert len({s["stark"] for s in seats}) == 1 and board.ranked[0][0] == best
    assert sorted(m for m, _ in board.ranked) == sorted(trio)

    record, _ = await stats.member(GUILD, best)
    assert (record.played, record.finished, record.won) == (5, 4, 3)
    assert record.by_house["stark"].won == 3 and record.rating is not None and record.rating.place == 1
    assert record.by_bot == 1 and record.answers_timed >= 3 and record.median_answer_s is not None
    missed_house = next(h for h, u in seats[0].items() if u != seats[0]["stark"])
    missed_member = seats[0][missed_house]
    # The deadline answered the second house asked in game 1: its player missed one (if not Stark's player).
    total_missed = sum([(await stats.member(GUILD, u))[0].missed for u in trio])
    assert total_missed == 1 and missed_member in trio

    fourth, _ = await stats.member(GUILD, P[3])
    assert (fourth.played, fourth.finished, fourth.won, fourth.rating) == (1, 0, 0, None)
    other_server, _ = await stats.member(OTHER_GUILD, best)
    assert (other_server.played, other_server.finished) == (1, 1)  # its own game only
    nobody, _ = await stats.member(GUILD, 123)
    assert nobody.empty

    # A member forgotten with the rest of his data is gone from the records and the board; the games stay.
    await service.forget_member(best)
    gone, after = await stats.member(GUILD, best)
    assert gone.empty and gone.rating is None and gone.answers_timed == 0 and gone.missed == 0
    assert best not in after.ratings and after.rated_games == 3 and best not in [m for m, _ in after.ranked]

    # Once retention has removed the ended games' logs, the board is the same (whether the bot played in a game was
    # noted before its log went); the answer times and missed deadlines went with the logs.
    await prune_ended(service.store, 1, now=time.time() + 2 * DAY_S)
    fresh = StatsStore(service.store.db)  # nothing kept from before
    assert await fresh.leaderboard(GUILD) == after
    record, _ = await fresh.member(GUILD, other)
    assert (record.played, record.finished, record.answers_timed, record.missed) == (5, 4, 0, 0)
