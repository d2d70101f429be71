"""Operating the bot (docs/deploy.md, "Operating it"), each through the real ``bot.py`` in its own process: backups of
a running game and their restores, refusals (a running bot, a damaged copy, a schema newer than the code),
``migrate [--check]``, a database that does not answer at start, and JSON logs."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app import migrate
from app.backup import live_lease_holders
from app.store import Store
from testing import postgres
from testing.bot_process import ROOT, BotProcess
from testing.fake_discord import FakeDiscord
from testing.forms import form_control
from tests.bot.test_restart import members, running_game, start_game
from tests.conftest import STORES, require_postgres

BOTH_STORES = pytest.mark.parametrize("database", STORES, indirect=True)


def operator_env(database: Path | str, **settings: str) -> dict[str, str]:
    """The environment an operator runs ``bot.py`` with: this machine's, none of the bot's own settings but these."""
    own = ("DISCORD_", "DATABASE_", "BACKUP_", "LOG_", "STARTUP_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(own)}
    env.update(DATABASE_URL=str(database), PYTHONUNBUFFERED="1", **settings)
    return env


async def cli(
    database: Path | str, *args: str, timeout: float = 120, **settings: str
) -> subprocess.CompletedProcess[str]:
    """``python bot.py <args>`` run to its end, as an operator runs it beside the bot (a thread: the fake Discord and
    the bot's process go on meanwhile)."""
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, str(ROOT / "bot.py"), *args],
        cwd=ROOT,
        env=operator_env(database, **settings),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


async def standing(database: Path | str) -> tuple[Any, ...]:
    """Game 1 as the database keeps it: its status, version and state, its seats, its log (answers) and events."""
    store = await Store.open(database)
    try:
        game = await store.game(1)
        assert game is not None
        return (
            game.status,
            game.version,
            game.state,
            await store.seats(1),
            await store.answers(1),
            await store.events_by_version(1),
        )
    finally:
        await store.close()


async def answer_once(fake: FakeDiscord, store: Store, player: Any) -> None:
    """``player`` submits his planning form as it stands; his receipt is the acknowledgement."""
    seat = {u: h for h, u in (await store.seats(1)).items()}[player.id]
    dm = await fake.wait_for_dm(player, timeout=10)
    receipt = await (await fake.click(player, dm, form_control(dm, 1, seat))).wait_response(timeout=10)
    assert "Recorded" in receipt.text()


@BOTH_STORES
async def test_backup_of_a_running_game_restores_its_state(database: Path | str, tmp_path: Path) -> None:
    """A backup taken while the bot serves a game, restored after the game moved on: the game, its seats and its log
    are as they were at the backup. A restore is refused while the bot runs."""
    copy = tmp_path / "copy.backup"
    async with running_game(database, tmp_path, "Backed up") as run:
        first, second, third = run.players
        await answer_once(run.fake, run.store, first)
        before = await standing(database)
        done = await cli(database, "backup", str(copy))
        if isinstance(database, str) and shutil.which("pg_dump") is None:
            assert done.returncode == 1 and "pg_dump --format=custom" in done.stderr, done.stderr
            pytest.skip("pg_dump is not installed here: only the command it prints was checked")
        assert done.returncode == 0, done.stderr
        assert "backed" in done.stdout and str(copy) in done.stdout
        await answer_once(run.fake, run.store, second)
        assert await standing(database) != before
        refused = await cli(database, "restore", str(copy))
        assert refused.returncode == 1
        assert refused.stderr.startswith("refusing to restore") and len(refused.stderr.splitlines()) == 1
        assert await standing(database) != before  # the refusal changed nothing
        # A backup taken while an answer is being applied holds the game either before it or after it.
        during = tmp_path / "during.backup"
        middle = await standing(database)
        done, _ = await asyncio.gather(cli(database, "backup", str(during)), answer_once(run.fake, run.store, third))
        assert done.returncode == 0, done.stderr
        after = await standing(database)
        if isinstance(database, Path):  # into fresh files, beside the running bot
            fresh = tmp_path / "fresh" / "games.sqlite3"
            restored = await cli(fresh, "restore", str(copy))
            assert restored.returncode == 0, restored.stderr
            assert await standing(fresh) == before
            assert restored.stdout.startswith(f"restored {copy} (schema revision {migrate.HEAD}) into {fresh}")
            other = tmp_path / "other.sqlite3"
            assert (await cli(other, "restore", str(during))).returncode == 0
            assert await standing(other) in (middle, after)
            return
        await run.bot.stop()  # PostgreSQL: into the deployment's own schema, once its bot stopped
        assert live_lease_holders(database) == []
        restored = await cli(database, "restore", str(during))
        assert restored.returncode == 0, restored.stderr
        assert await standing(database) in (middle, after)
        restored = await cli(database, "restore", str(copy))
        assert restored.returncode == 0, restored.stderr
        assert await standing(database) == before
        await run.bot.start()  # and the bot starts again on it


async def test_a_second_bot_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """The lock a restore looks at is held by the running bot: a second one on the same file is refused in one
    line, and once the first stops, restores go through."""
    database = tmp_path / "games.sqlite3"
    async with FakeDiscord.start(point_discord_py=False) as fake:
        bot = BotProcess(fake, database, log_path=tmp_path / "first.log")
        await bot.sync_commands()
        await bot.start()
        try:
            second = BotProcess(fake, database, log_path=tmp_path / "second.log")
            assert await second.exit_status(timeout=60) == 3
            assert "refusing to start: another bot process uses" in second.output()
            assert "Traceback" not in second.output()
        finally:
            await bot.stop()
    copy = tmp_path / "copy.sqlite3"
    assert (await cli(database, "backup", str(copy))).returncode == 0
    assert (await cli(database, "restore", str(copy))).returncode == 0


async def test_damaged_copies_are_refused(tmp_path: Path) -> None:
    """A file that is no database, and a backup with a page overwritten: each refused in one line; the database
    is untouched."""
    database = tmp_path / "games.sqlite3"
    async with FakeDiscord.start(point_discord_py=False) as fake:
        channel, moderator, players = members(fake, 3)
        bot = BotProcess(fake, database, log_path=tmp_path / "bot.log")
        await bot.sync_commands()
        await bot.start()
        try:
            await start_game(fake, channel, moderator, players, "Damaged")
        finally:
            await bot.stop()
    before = await standing(database)
    copy = tmp_path / "good.sqlite3"
    assert (await cli(database, "backup", str(copy))).returncode == 0
    not_a_database = tmp_path / "notes.sqlite3"
    not_a_database.write_bytes(b"these are not the games you are looking for\n" * 200)
    overwritten = tmp_path / "damaged.sqlite3"
    pages = bytearray(copy.read_bytes())
    page_size = int.from_bytes(pages[16:18], "big")
    for page in range(2, len(pages) // page_size):  # every page's b-tree header and cells, not the file's header
        start = page * page_size + 8
        pages[start : start + 64] = bytes(range(64))
    overwritten.write_bytes(bytes(pages))
    for bad in (not_a_database, overwritten, tmp_path / "missing.sqlite3"):
        refused = await cli(database, "restore", str(bad))
        assert refused.returncode == 1, refused.stdout
        assert len(refused.stderr.splitlines()) == 1 and "Traceback" not in refused.stderr, refused.stderr
        assert str(bad) in refused.stderr
    assert await standing(database) == before
    good = await cli(database, "restore", str(copy))
    assert good.returncode == 0, good.stderr
    assert await standing(database) == before


async def test_a_damaged_pg_dump_is_refused(tmp_path: Path) -> None:
    """A truncated archive, and one of another schema (its restore would overwrite that deployment's): refused."""
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed here")
    require_postgres()
    with postgres.fresh_schema() as url:
        migrate.upgrade(url)
        copy = tmp_path / "copy.pgdump"
        assert (await cli(url, "backup", str(copy))).returncode == 0
        with postgres.fresh_schema() as elsewhere:  # another deployment's schema: pg_restore would recreate url's
            migrate.upgrade(elsewhere, "0009")
            refused = await cli(elsewhere, "restore", str(copy))
            assert refused.returncode == 1
            assert "its tables are in the schema t_" in refused.stderr and "Traceback" not in refused.stderr
            assert migrate.current_revision(elsewhere) == "0009"
        copy.write_bytes(copy.read_bytes()[: copy.stat().st_size // 2])
        refused = await cli(url, "restore", str(copy))
        assert refused.returncode == 1
        assert refused.stderr.startswith(f"refusing to restore {copy}: it is not a sound pg_dump archive")
        assert migrate.current_revision(url) == migrate.HEAD


async def test_without_pg_dump_the_command_is_printed_without_the_password(tmp_path: Path) -> None:
    """No pg_dump on PATH: the command to run is printed, the password left to PGPASSWORD, never shown."""
    require_postgres()
    with postgres.fresh_schema() as url:
        with_password = url.replace("postgres@", "postgres:sekrit-word@", 1)  # the test server trusts local users
        migrate.upgrade(url)
        done = await cli(with_password, "backup", str(tmp_path / "copy.pgdump"), PATH=str(tmp_path))
        assert done.returncode == 1
        assert "sekrit" not in done.stdout + done.stderr
        command = done.stderr.splitlines()[-1].strip()
        assert command.startswith("PGPASSWORD=... pg_dump --format=custom --no-owner --schema=t_")
        assert f"--file={tmp_path / 'copy.pgdump'}" in command and "postgresql://postgres@127.0.0.1" in command


@BOTH_STORES
@pytest.mark.empty_database
async def test_migrate_check_and_migrate(database: Path | str) -> None:
    """``migrate --check`` tells an old database from a current one; ``migrate`` upgrades; a schema newer than the
    code is refused by both, and by the bot's start, in one line."""
    await asyncio.to_thread(migrate.upgrade, database, "0009")
    old = await cli(database, "migrate", "--check")
    assert old.returncode == 1 and old.stdout == ""
    assert old.stderr.splitlines() == [old.stderr.strip()] and "schema revision 0009" in old.stderr
    upgraded = await cli(database, "migrate")
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"from schema revision 0009 to {migrate.HEAD}" in upgraded.stdout
    current = await cli(database, "migrate", "--check")
    assert current.returncode == 0 and current.stderr == "" and migrate.HEAD in current.stdout
    await set_revision(database, "0099")
    for args, status in ((("migrate", "--check"), 1), (("migrate",), 65), ((), 65)):
        newer = await cli(database, *args, DISCORD_TOKEN="not-used")
        assert newer.returncode == status, newer.stderr
        assert "newer than this code's" in newer.stderr and "Traceback" not in newer.stderr, newer.stderr
        assert len(newer.stderr.strip().splitlines()) == 1
    assert migrate.current_revision(database) == "0099"


async def set_revision(database: Path | str, revision: str) -> None:
    """As a newer version of the bot would have left it."""
    if isinstance(database, str):
        import psycopg

        with psycopg.connect(database, autocommit=True) as connection:
            connection.execute("UPDATE alembic_version SET version_num = %s", (revision,))
        return
    with sqlite3.connect(database) as file:
        file.execute("UPDATE alembic_version SET version_num = ?", (revision,))
    file.close()


async def test_an_unreachable_database_gives_one_line_and_gives_up() -> None:
    """PostgreSQL refusing connections: one line naming it (no password), tries until STARTUP_TIMEOUT_S, one line
    more, a non-zero status and no traceback."""
    url = "postgresql://postgres:sekrit-word@127.0.0.1:1/nothing"
    started = time.monotonic()
    done = await cli(url, DISCORD_TOKEN="not-used", STARTUP_TIMEOUT_S="3", timeout=60)
    took = time.monotonic() - started
    output = done.stdout + done.stderr
    assert done.returncode == 69, output
    assert "Traceback" not in output and "sekrit" not in output
    lines = output.strip().splitlines()
    assert len(lines) == 2, output
    assert "the database postgresql://127.0.0.1:1/nothing does not answer (Connection refused)" in lines[0]
    assert "still does not answer after 3 s" in lines[1]
    assert 3 <= took < 30


async def test_a_missing_folder_is_waited_for(tmp_path: Path) -> None:
    """A SQLite file whose folder is not there yet (a volume not yet mounted): named in one line, and the command
    goes on once the folder appears."""
    database = tmp_path / "volume" / "games.sqlite3"
    running = asyncio.ensure_future(cli(database, "migrate", STARTUP_TIMEOUT_S="30"))
    await asyncio.sleep(2)
    assert not running.done()
    database.parent.mkdir()
    done = await running
    assert done.returncode == 0, done.stderr
    assert f"does not answer (its folder {database.parent} does not exist)" in done.stderr
    assert "answers now" in done.stderr and "Traceback" not in done.stderr
    assert migrate.current_revision(database) == migrate.HEAD


async def test_log_level_and_format(tmp_path: Path) -> None:
    """LOG_LEVEL=ERROR leaves the start-up's warning out and keeps its error, as JSON; a level that is none is refused
    at start in one line."""
    database = tmp_path / "nowhere" / "games.sqlite3"
    done = await cli(database, "migrate", STARTUP_TIMEOUT_S="1", LOG_LEVEL="error", LOG_FORMAT="json")
    assert done.returncode == 69
    (line,) = done.stderr.splitlines()
    entry = json.loads(line)
    assert entry["level"] == "ERROR" and entry["logger"] == "westeros.bot"
    assert entry["message"].startswith(f"the database {database} still does not answer after 1 s")
    wrong = await cli(database, "migrate", LOG_LEVEL="loud")
    assert wrong.returncode == 78
    assert wrong.stderr.strip() == "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'loud'"


async def test_json_logs_and_automatic_backups(tmp_path: Path) -> None:
    """LOG_FORMAT=json: every line the bot writes is one JSON object; BACKUP_EVERY_HOURS writes a backup at each
    interval with a line in the log, keeping the BACKUP_KEEP newest."""
    database = tmp_path / "games.sqlite3"
    backups = tmp_path / "kept"
    settings = {
        "LOG_FORMAT": "json",
        "BACKUP_EVERY_HOURS": "0.0005",  # every 1.8 s
        "BACKUP_KEEP": "2",
        "BACKUP_DIR": str(backups),
    }
    async with FakeDiscord.start(point_discord_py=False) as fake:
        channel, moderator, players = members(fake, 3)
        bot = BotProcess(fake, database, log_path=tmp_path / "bot.log", env=settings)
        await bot.sync_commands()
        await bot.start()
        try:
            await start_game(fake, channel, moderator, players, "Logged")
            await fake.world.wait_until(
                lambda: bot.output().count("backup written") >= 3, 30, "three automatic backups", poll=0.2
            )
        finally:
            await bot.stop()
    entries = [json.loads(line) for line in bot.output().splitlines() if line.strip()]
    assert entries and all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    written = [e for e in entries if e["message"].startswith("backup written")]
    assert all(e["logger"] == "westeros.backup" and e["level"] == "INFO" for e in written)
    kept = sorted(backups.glob("westeros-*.sqlite3"))
    assert len(kept) == 2
    for path in kept:
        with sqlite3.connect(path) as file:
            assert file.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert file.execute("SELECT count(*) FROM games").fetchone() == (1,)
        file.close()


def test_json_formatter_keeps_a_traceback_in_one_field() -> None:
    import logging

    from bot import JsonFormatter

    try:
        raise ValueError("bad answer")
    except ValueError:
        record = logging.LogRecord("westeros.test", logging.ERROR, __file__, 1, "failed %s", ("once",), sys.exc_info())
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "failed once" and entry["level"] == "ERROR" and entry["logger"] == "westeros.test"
    assert "ValueError: bad answer" in entry["exc_info"] and entry["exc_info"].startswith("Traceback")
