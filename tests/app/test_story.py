"""The end of a game, told (issue W): the story's data worked out from a whole agent game played through the game
service on a real SQLite store, against what the service stored (the views of the rounds' ends, the engine's final
standing, the logged events), and its words in both languages. Its pictures are checked where the bot posts them
(tests/bot/test_story.py). One game for the whole module."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.background import Background
from app.commands import Answer, Join, Start
from app.queries import Applied
from app.replay import GameLog, Refusal, read_log, timeline
from app.service import GameService, GameSettings, ServiceError
from app.store import Store
from app.story import dm_text, story, story_lines, told_in_pool
from cogs.warm import STORY_FROM_ROUND, Warmer
from engine import Game, RuleError, new_game
from engine.agents import AGENTS
from engine.victory import standing

CHANNEL = 700
USERS = [300, 301, 302]
SEED = 11  # a fixed game whose houses fight


async def play_to_the_end(path: Path, *, stop_before_end: bool = False) -> tuple[GameLog, dict[int, str]]:
    """A 3-player base game of heuristic agents through the service, its log read as the replay reads it, and the
    state stored for each version."""
    store = await Store.open(path)
    try:
        service = GameService(store)
        settings = GameSettings(players=3, seed=SEED)
        game_id = await service.create(guild_id=1, channel_id=CHANNEL, creator=USERS[0], name="s", settings=settings)
        states: dict[int, str] = {}

        async def stored(applied: Applied) -> None:
            states[applied.game.version] = applied.game.to_json()

        service.subscribe(stored)
        for user in USERS:
            await service.execute(Join(game_id=game_id, by=user))
        await service.execute(Start(game_id=game_id))
        seats = await service.seats(game_id)
        agents = {h: AGENTS["heuristic"](SEED * 31 + i) for i, h in enumerate(sorted(seats))}
        while not (game := await service.load(game_id)).finished:
            prompt = next(p for p in game.prompts() if not p.answered)
            by = seats.get(prompt.house)
            answer = agents[prompt.house].answer(prompt, game.view(prompt.house))
            try:
                await service.execute(Answer(game_id=game_id, house=prompt.house, answer=answer, by=by))
            except (RuleError, ServiceError):
                await service.execute(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=by))
            if stop_before_end:
                break
        return await read_log(service, game_id, CHANNEL), states
    finally:
        await store.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameLog, dict[int, str]]:
    return asyncio.run(play_to_the_end(tmp_path_factory.mktemp("story") / "games.sqlite3"))


def test_the_series_are_the_public_views_at_the_start_and_each_rounds_end(played: tuple[GameLog, Any]) -> None:
    log, states = played
    told, views = story(log)
    line = timeline(log)
    assert told.rounds == tuple(range(0, line.phases[-1].round + 1))
    assert len(told.frames) == len(told.rounds) == len(views)
    assert told.frames[0] == 0
    for round_, version in zip(told.rounds[1:], told.frames[1:], strict=True):
        # a round's end is its last phase's end, the board the replay shows there
        assert version == max(p.version for p in line.phases if p.round == round_)
    for index, version in enumerate(told.frames):
        stored = Game.from_json(states[version]).view(None)
        assert views[index] == stored and views[index]["viewer"] is None  # the public view, nothing private
        for house in told.houses:
            assert told.victory[house][index] == stored["victory"][house]
            assert told.supply[house][index] == stored["supply"][house]
            shown = stored["power"][house]  # hidden while a bid is open: then the Power announced as it opened
            assert told.power[house][index] == (shown if shown is not None else stored["power_announced"][house])


def test_the_standing_is_the_engines_and_the_battles_add_up(played: tuple[GameLog, Any]) -> None:
    log, states = played
    told, _ = story(log)
    end = Game.from_json(states[log.version])
    assert end.finished and told.winner == end.state.winner and told.reason == end.state.ended_reason
    others = [h for h in told.houses if h != told.winner]
    keys = [standing(end.state, h) for h in others]
    assert keys == sorted(keys, reverse=True)  # victory points, then the rulebook's tie-breakers
    assert [line.place for line in told.lines] == list(range(1, len(told.lines) + 1))
    # What the log's public events say, counted apart.
    events = [e for entry in log.entries for e in entry.events if "private_to" not in e]
    ended = [e for e in events if e["type"] == "combat-ended"]
    assert ended, "the seeded game has battles"
    assert sum(line.battles for line in told.lines) == 2 * len(ended)
    assert sum(line.won for line in told.lines) == len(ended)
    assert Counter({line.house: line.won for line in told.lines if line.won}) == Counter(e["winner"] for e in ended)
    lost = Counter[str]()
    for e in events:
        if e["type"] == "units-destroyed":
            lost[e["house"]] += len(e["units"])
    assert {line.house: line.units_lost for line in told.lines if line.units_lost} == dict(lost)
    assert sum(line.units_destroyed for line in told.lines) <= sum(lost.values())
    assert len(told.battles) == len(ended)
    assert told.biggest is not None and told.biggest.fallen == max(b.fallen for b in told.battles)
    for line in told.lines:  # castles taken and lost, phase by phase, add up to the victory track's move
        assert line.castles_taken - line.castles_lost == told.victory[line.house][-1] - told.victory[line.house][0]


def test_the_words_in_both_languages_name_every_house_and_no_id(played: tuple[GameLog, Any]) -> None:
    log, _ = played
    told, _ = story(log)
    english = "\n".join(story_lines(told, "Test", "en"))
    russian = "\n".join(story_lines(told, "Test", "ru"))
    assert "The story of Test" in english and "Final standing" in english
    assert "История партии Test" in russian and "Итоговые места" in russian
    names = {
        "stark": ("Stark", "Старк"),
        "lannister": ("Lannister", "Ланнистер"),
        "baratheon": ("Baratheon", "Баратеон"),
    }
    for house in told.houses:
        en, ru = names[house]
        assert en in english and ru in russian
        mine = dm_text(told, house, "Test", "ru")
        assert ru in mine and "Партия **Test** окончена" in mine
    for text in (english, russian):
        assert "story." not in text and "{" not in text and "_" not in text  # no key, no field, no id


def test_a_running_game_has_no_story(tmp_path: Path) -> None:
    log, _ = asyncio.run(play_to_the_end(tmp_path / "running.sqlite3", stop_before_end=True))
    refused = told_in_pool(log, "en")
    assert isinstance(refused, Refusal) and refused.code == "story-not-ended"


async def test_the_image_workers_are_warmed_once_for_the_boards_and_the_story_games_need() -> None:
    """cogs/warm.py: a job per worker for a board not yet warm (the base board is warm from every worker's start),
    and for the story once a game reaches its last rounds; never twice."""
    sent: list[tuple[tuple[str, ...], bool]] = []

    def job(boards: tuple[str, ...], story: bool) -> None:
        sent.append((boards, story))

    pool = Background(2)
    warmer = Warmer(pool, job)
    try:
        warmer.needs(new_game(3, seed=1))
        essos = new_game(8, seed=1, options={"ruleset": "mother-of-dragons"})
        warmer.needs(essos)
        warmer.needs(essos)
        late = new_game(4, seed=1)
        late.state.round = STORY_FROM_ROUND
        warmer.needs(late)
        warmer.needs(late)
        while warmer.tasks:
            await asyncio.gather(*warmer.tasks)
    finally:
        pool.close()
    assert sent == [(("mother-of-dragons-essos",), False), ((), True)]  # a thread pool: one job each
