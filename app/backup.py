"""Backups and restores of the bot's database (``python bot.py backup`` and ``restore``, and the running bot's
automatic backups). No Discord here.

SQLite: a backup is a consistent copy taken through SQLite's online backup API while the bot writes (its WAL lets the
copy read one moment of the file without stopping the bot). A restore writes the copy back through the same API, so
the target's old journal files cannot outlive it.

PostgreSQL: a backup is ``pg_dump``'s custom format of the deployment's schema; a restore is ``pg_restore`` of it in
one transaction. Without the tools on PATH, the command to run is printed instead. The password is never in the
command: it goes to the tools in the environment (PGPASSWORD).

A restore refuses while a bot uses the database. The one-process bot on SQLite holds an exclusive ``flock`` on a file
beside the database (``<database>.lock``) for as long as it runs; the kernel lets go of it when the process ends,
however it ends, so a crashed bot never leaves a stale lock behind. On PostgreSQL every process of the bot holds leases
(app/leases.py): a restore refuses while any is unexpired.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shlex
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote, urlsplit, urlunsplit

from app import migrate
from app.config import Config, shown_database
from app.database import is_postgres, sqlite_path

log = logging.getLogger("westeros.backup")

NAME_PREFIX = "westeros-"
SQLITE_SUFFIX = ".sqlite3"
POSTGRES_SUFFIX = ".pgdump"


class BackupError(Exception):
    """A backup or restore that cannot be done: the message is one line for the operator."""


# ----- who uses the database -----


def lock_path(database: Path) -> Path:
    """The file whose lock the one-process bot holds while it uses the SQLite ``database``."""
    return database.with_name(database.name + ".lock")


def try_lock(database: Path) -> IO[str] | None:
    """The SQLite database's lock, held until the returned file is closed (or the process ends); None: another
    process holds it."""
    handle = lock_path(database).open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


@contextlib.contextmanager
def database_unused(target: str | Path) -> Iterator[None]:
    """Hold the database against bots starting while a restore runs; ``BackupError`` if a bot uses it now."""
    if is_postgres(target):
        holders = live_lease_holders(str(target))
        if holders:
            raise BackupError(
                f"refusing to restore: the bot uses {shown_database(target)} ({', '.join(holders)} hold leases);"
                " stop every process of it first"
            )
        yield
        return
    path = sqlite_path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = try_lock(path)
    if handle is None:
        raise BackupError(
            f"refusing to restore: a running bot uses {path} (it holds {lock_path(path).name}); stop it first"
        )
    try:
        yield
    finally:
        handle.close()


def live_lease_holders(url: str) -> list[str]:
    """The processes holding an unexpired lease in the deployment's schema (none if it has no lease table yet)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        try:
            rows = connection.execute(
                "SELECT DISTINCT coalesce(nullif(info, ''), holder) FROM leases WHERE expires_at > %s", (time.time(),)
            ).fetchall()
        except psycopg.errors.UndefinedTable:
            return []
    return sorted(str(row[0]) for row in rows)


def lease_epochs(url: str) -> dict[str, int]:
    """Each lease's epoch now (none before revision 0014)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        try:
            rows = connection.execute("SELECT name, epoch FROM leases").fetchall()
        except psycopg.errors.UndefinedTable:
            return {}
    return {str(name): int(epoch) for name, epoch in rows}


def free_restored_leases(url: str, epochs_before: dict[str, int]) -> None:
    """A copy taken while the bot ran holds its leases as they were: none of their holders lives now (the restore
    made sure), so they are freed at once, and each epoch (a fencing token) is kept above the one it had before the
    restore, so it never goes back."""
    import psycopg

    with psycopg.connect(url) as connection, connection.transaction():
        found = connection.execute("SELECT to_regclass('leases')").fetchone()
        if found is None or found[0] is None:  # a copy from before revision 0014: the upgrade makes the table
            return
        connection.execute("UPDATE leases SET expires_at = 0")
        for name, epoch in epochs_before.items():
            connection.execute("UPDATE leases SET epoch = greatest(epoch, %s + 1) WHERE name = %s", (epoch, name))


# ----- PostgreSQL's tools -----


@dataclass(frozen=True)
class ToolCommand:
    """``pg_dump`` or ``pg_restore`` with its arguments; the password (if the address had one) only in ``env``."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)

    def shown(self) -> str:
        prefix = "PGPASSWORD=... " if "PGPASSWORD" in self.env else ""
        return prefix + shlex.join(self.argv)

    def available(self) -> bool:
        return shutil.which(self.argv[0]) is not None

    def run(self) -> str:
        """Run it; its output. ``BackupError`` with the tool's last line when it fails."""
        done = subprocess.run(
            self.argv, env={**os.environ, **self.env}, capture_output=True, text=True, check=False, timeout=3600
        )
        if done.returncode != 0:
            lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
            raise BackupError(f"{self.argv[0]} failed: {lines[-1] if lines else f'exit status {done.returncode}'}")
        return done.stdout


def without_password(url: str) -> tuple[str, dict[str, str]]:
    """The address without its password, and the environment that gives the tools the password instead."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, {}
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.netloc.rsplit("@", 1)[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{host}")), {"PGPASSWORD": unquote(parts.password)}


def schema_of_url(url: str) -> str:
    """The schema the bot's connections work in (the deployment's: one database may hold several)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute("SELECT current_schema()").fetchone()
    if row is None or row[0] is None:
        raise BackupError(f"the search_path of {shown_database(url)} names no schema that exists")
    return str(row[0])


def pg_dump_command(url: str, destination: Path, schema: str) -> ToolCommand:
    address, env = without_password(url)
    return ToolCommand(
        ["pg_dump", "--format=custom", "--no-owner", f"--schema={schema}", f"--file={destination}", address], env
    )


def pg_restore_command(url: str, copy: Path) -> ToolCommand:
    """All or nothing: every object of the copy's schema dropped and made again in one transaction."""
    address, env = without_password(url)
    return ToolCommand(
        [
            "pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error",
            f"--dbname={address}", str(copy),
        ],
        env,
    )  # fmt: skip


# ----- backups -----


def default_backup_dir(target: str | Path, root: Path) -> Path:
    """``backups/`` beside the SQLite file, or beside the bot for PostgreSQL."""
    return (root if is_postgres(target) else sqlite_path(target).resolve().parent) / "backups"


def backup_dir(config: Config, root: Path) -> Path:
    return config.backup_dir or default_backup_dir(config.database, root)


def backup_name(target: str | Path, when: float | None = None) -> str:
    """A name that sorts by time: ``westeros-20260128-031500.sqlite3`` (UTC)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if when is None else when))
    return f"{NAME_PREFIX}{stamp}{POSTGRES_SUFFIX if is_postgres(target) else SQLITE_SUFFIX}"


def backup_sqlite(source: Path, destination: Path) -> None:
    """A consistent copy of ``source`` while another process writes it, as one self-contained file (no WAL)."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")  # never mistaken for a backup if this dies
    partial.unlink(missing_ok=True)
    reading = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        writing = sqlite3.connect(partial)
        try:
            reading.backup(writing)
            writing.execute("PRAGMA journal_mode=DELETE")
        finally:
            writing.close()
    finally:
        reading.close()
    os.replace(partial, destination)


@dataclass(frozen=True)
class BackupResult:
    """A backup written to ``path``, or (PostgreSQL without ``pg_dump``) the ``command`` to run instead."""

    path: Path
    command: ToolCommand | None = None

    @property
    def written(self) -> bool:
        return self.command is None


def backup(target: str | Path, destination: Path) -> BackupResult:
    """Back the database up to ``destination`` (a file; its folder is made)."""
    if is_postgres(target):
        url = str(target)
        destination.parent.mkdir(parents=True, exist_ok=True)
        schema = schema_of_url(url)
        command = pg_dump_command(url, destination, schema)
        if not command.available():
            return BackupResult(destination, command)
        partial = destination.with_name(destination.name + ".partial")  # never mistaken for a backup if this dies
        pg_dump_command(url, partial, schema).run()
        os.replace(partial, destination)
        return BackupResult(destination)
    backup_sqlite(sqlite_path(target), destination)
    return BackupResult(destination)


def prune(folder: Path, keep: int, suffix: str) -> list[Path]:
    """Remove all but the ``keep`` newest backups (by name, which sorts by time) in ``folder``; the removed."""
    backups = sorted(folder.glob(f"{NAME_PREFIX}*{suffix}"))
    removed = backups[: max(0, len(backups) - keep)]
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def scheduled_backup(target: str | Path, folder: Path, keep: int) -> None:
    """One automatic backup and its log line; a failure is logged, never raised (the next one tries again)."""
    started = time.monotonic()
    try:
        result = backup(target, folder / backup_name(target))
    except Exception as err:  # a full disk, a dropped connection: say so and carry on serving the games
        log.error("backup of %s failed: %s", shown_database(target), str(err).strip().splitlines()[0])
        return
    if not result.written:
        assert result.command is not None
        log.error("backup skipped: pg_dump is not on PATH; install it, or run: %s", result.command.shown())
        return
    removed = prune(folder, keep, result.path.suffix)
    log.info(
        "backup written: %s (%.1f MB in %.1f s; %s older removed, keeping the newest %s)",
        result.path,
        result.path.stat().st_size / 1e6,
        time.monotonic() - started,
        len(removed),
        keep,
    )


def schedule_backups(scheduler: Any, config: Config, root: Path) -> None:
    """Back up every ``config.backup_every_hours`` on the bot's scheduler (a thread: the event loop never waits)."""
    import asyncio

    folder = backup_dir(config, root)

    async def run() -> None:
        await asyncio.to_thread(scheduled_backup, config.database, folder, config.backup_keep)

    scheduler.add_job(
        run,
        "interval",
        hours=config.backup_every_hours,
        id="backup",
        max_instances=1,
        coalesce=True,
        replace_existing=True,
    )
    log.info(
        "backing %s up every %g h into %s, keeping the newest %s",
        shown_database(config.database),
        config.backup_every_hours,
        folder,
        config.backup_keep,
    )


# ----- restores -----


def sqlite_copy_revision(copy: Path) -> str | None:
    """Check a SQLite copy (it opens, ``PRAGMA integrity_check`` passes) and return its schema revision."""
    if not copy.is_file():
        raise BackupError(f"there is no backup at {copy}")
    try:
        file = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
        try:
            problems = [str(row[0]) for row in file.execute("PRAGMA integrity_check").fetchall()]
            if problems != ["ok"]:
                raise BackupError(f"refusing to restore {copy}: it is damaged ({problems[0]})")
            tables = {str(row[0]) for row in file.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "alembic_version" in tables:
                row = file.execute("SELECT version_num FROM alembic_version").fetchone()
                return str(row[0]) if row else None
            number = int(file.execute("PRAGMA user_version").fetchone()[0] or 0)  # a file from before Alembic
            if not number and "games" not in tables:
                raise BackupError(f"refusing to restore {copy}: it holds no games database")
            return f"{number:04d}" if number else None
        finally:
            file.close()
    except sqlite3.DatabaseError as err:
        raise BackupError(f"refusing to restore {copy}: it is not a sound SQLite database ({err})") from None


def postgres_copy_revision(copy: Path, schema: str) -> str | None:
    """Check a ``pg_dump`` archive (``pg_restore`` reads its table of contents, and its tables are in ``schema``, the
    target's: a restore recreates them in the schema they were dumped from, which may be another deployment's) and
    return its schema revision."""
    if not copy.is_file():
        raise BackupError(f"there is no backup at {copy}")
    try:
        contents = ToolCommand(["pg_restore", "--list", str(copy)]).run()
        data = ToolCommand(["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(copy)]).run()
    except BackupError as err:
        raise BackupError(f"refusing to restore {copy}: it is not a sound pg_dump archive ({err})") from None
    entries = [line.split() for line in contents.splitlines() if line.strip() and not line.startswith(";")]
    # An entry: ``<id>; <table oid> <oid> TABLE <schema> <name> <owner>`` (``TABLE DATA`` for its rows).
    schemas = {
        entry[5] if entry[4] == "DATA" else entry[4] for entry in entries if len(entry) > 6 and entry[3] == "TABLE"
    }
    if schemas != {schema}:
        raise BackupError(
            f"refusing to restore {copy}: its tables are in the schema {', '.join(sorted(schemas)) or '(none)'},"
            f" and the database's address works in {schema}: a restore recreates them where they were dumped from"
        )
    lines = data.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("COPY ") and number + 1 < len(lines) and lines[number + 1] != "\\.":
            return lines[number + 1].strip()
    return None


@dataclass(frozen=True)
class RestoreResult:
    """What a restore did: the copy's revision and the one the database stands at now (upgraded when older); or
    (PostgreSQL without ``pg_restore``) the ``command`` to run."""

    copied: str | None
    now: str | None
    command: ToolCommand | None = None


def restore(target: str | Path, copy: Path) -> RestoreResult:
    """Restore ``copy`` into the database: refused while a bot uses it, for a damaged copy, and for a copy newer than
    this code; a copy older than the code is upgraded after it is restored."""
    if is_postgres(target):
        url = str(target)
        command = pg_restore_command(url, copy)
        if not command.available():
            return RestoreResult(None, None, command)
        with database_unused(url):
            revision = postgres_copy_revision(copy, schema_of_url(url))
            migrate.refuse_if_ahead(copy, revision)
            epochs = lease_epochs(url)
            command.run()
            free_restored_leases(url, epochs)
            migrate.upgrade(url)
        return RestoreResult(revision, migrate.current_revision(url))
    with database_unused(target):
        revision = sqlite_copy_revision(copy)
        migrate.refuse_if_ahead(copy, revision)
        reading = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
        try:
            writing = sqlite3.connect(sqlite_path(target), timeout=30)
            try:
                reading.backup(writing)
            finally:
                writing.close()
        finally:
            reading.close()
        migrate.upgrade(target)
    return RestoreResult(revision, migrate.current_revision(target))
