"""KEEP_ENDED_DAYS (issue O): an ended game's command log goes after the retention period, its final standing and
seats stay; a running game and a recently ended one keep every row. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.commands import Answer, End, Join, Start
from app.config import ConfigError, load_config
from app.retention import DAY_S, FINAL_STANDING, final_standing, prune_ended
from app.service import GameService, GameSettings
from app.store import Store
from app.store_privacy import LOG_TABLES, PRUNED
from engine import new_game, rules

TABLES = (*LOG_TABLES, "snapshots", "seats", "games")


@pytest.fixture
async def service(database: Path | str):  # type: ignore[no-untyped-def]
    store = await Store.open(database)
    yield GameService(store)
    await store.close()


async def played(service: GameService, channel: int, *, end: bool, ended_days_ago: float = 0.0) -> int:
    """A started game of three with a round of answers, a queued command and a moderator's notice; ended (that many
    days ago) if asked."""
    game_id = await service.create(
        guild_id=1, channel_id=channel, creator=100, name=f"g{channel}", settings=GameSettings(players=3, seed=5)
    )
    for user in (100, 101, 102):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    game = await service.load(game_id)
    seats = await service.store.seats(game_id)
    for prompt in game.prompts():
        await service.execute(
            Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house])
        )
    await service.store.write(
        "INSERT INTO command_queue (game_id, payload, enqueued_at, done_at) VALUES (?, '{}', ?, ?)",
        (game_id, time.time(), time.time()),
    )
    if end:
        await service.execute(End(game_id=game_id, by=100, key=f"end:{game_id}"))
        await service.store.write(
            "UPDATE games SET updated_at = ? WHERE id = ?", (time.time() - ended_days_ago * DAY_S, game_id)
        )
    else:  # running for long: its age never matters
        await service.store.write("UPDATE games SET updated_at = ? WHERE id = ?", (time.time() - 999 * DAY_S, game_id))
    return game_id


async def rows_of(store: Store, game_id: int) -> dict[str, int]:
    counts = {}
    for table in TABLES:
        column = "id" if table == "games" else "game_id"
        row = await store.db.fetchone(f"SELECT count(*) FROM {table} WHERE {column} = ?", (game_id,))
        assert row is not None
        counts[table] = int(row[0])
    return counts


async def test_retention_removes_an_old_ended_games_log_and_nothing_else(service: GameService) -> None:
    store = service.store
    old = await played(service, 10, end=True, ended_days_ago=181)
    recent = await played(service, 11, end=True, ended_days_ago=179)
    running = await played(service, 12, end=False)
    before = {g: await rows_of(store, g) for g in (old, recent, running)}
    assert before[old]["answers"] >= 3 and before[old]["commands"] == 1 and before[old]["command_queue"] == 1
    assert before[old]["outbox"] >= 1 and before[old]["notices"] + before[old]["outbox"] >= 2
    old_row = await store.game(old)
    assert old_row is not None

    pruned = await prune_ended(store, 180)

    assert pruned.games == 1 and pruned.rows > 0
    after = await rows_of(store, old)
    assert {t: after[t] for t in LOG_TABLES} == dict.fromkeys(LOG_TABLES, 0)
    assert after["snapshots"] == 1 and after["seats"] == 3 and after["games"] == 1
    kept = await store.game(old)
    assert kept is not None and kept.state == old_row.state and kept.version == old_row.version
    final = await store.latest_snapshot(old, at_most=kept.version)
    assert final == (kept.version, old_row.state)  # the one snapshot left is the final state
    assert set((await store.seats(old)).values()) == {100, 101, 102}
    standing = kept.settings[FINAL_STANDING]
    assert set(standing["houses"]) == {"stark", "lannister", "baratheon"} and standing["round"] == 1
    assert all(h["castles"] >= 1 and h["victory_points"] >= 1 for h in standing["houses"].values())
    assert standing["winner"] is None  # ended by a moderator: nobody won
    assert kept.settings["players"] == 3 and PRUNED in kept.settings  # the game's own settings stay
    # A running game and one that ended within the period keep every row.
    assert await rows_of(store, recent) == before[recent]
    assert await rows_of(store, running) == before[running]
    row = await store.db.fetchone("SELECT updated_at FROM games WHERE id = ?", (old,))
    assert row is not None and float(row[0]) < time.time() - 180 * DAY_S  # still the day it ended

    again = await prune_ended(store, 180)  # a second run (or another process's) finds nothing more
    assert (again.games, again.rows) == (0, 0)
    assert (await service.load(old)).state.round == 1  # the ended game still loads from its final state


async def test_retention_logs_one_line_per_run(service: GameService, caplog: pytest.LogCaptureFixture) -> None:
    await played(service, 10, end=True, ended_days_ago=30)
    with caplog.at_level("INFO", logger="westeros.retention"):
        await prune_ended(service.store, 7)
    lines = [r.getMessage() for r in caplog.records if r.name == "westeros.retention"]
    assert len(lines) == 1 and "of 1 games ended more than 7 days ago" in lines[0]


def test_keep_ended_days_defaults_to_180_and_refuses_nonsense(tmp_path: Path) -> None:
    assert load_config(tmp_path, {}).keep_ended_days == 180
    assert load_config(tmp_path, {"KEEP_ENDED_DAYS": "0"}).keep_ended_days == 0
    assert load_config(tmp_path, {"KEEP_ENDED_DAYS": "30"}).keep_ended_days == 30
    for bad in ("-1", "soon"):
        with pytest.raises(ConfigError, match="KEEP_ENDED_DAYS"):
            load_config(tmp_path, {"KEEP_ENDED_DAYS": bad})


def test_the_final_standing_names_the_winner_and_each_houses_track() -> None:
    game = new_game(3, seed=5)
    game.end_game("lannister", "castles")
    standing = final_standing(game.to_json())
    assert standing["winner"] == "lannister" and standing["reason"] == "castles"
    assert standing["houses"]["lannister"] == {
        "castles": rules.castle_counts(game.state)["lannister"],
        "victory_points": rules.victory_points(game.state)["lannister"],
    }
    assert final_standing(None) == {}  # a game that never started has none
