"""Start-up that explains itself: wait for a database that does not answer yet, saying so in one line, and refuse a
schema newer than the code in one line, before anything opens the store (whose failures would be tracebacks).

A database that does not answer at start is common and mostly passing: PostgreSQL still starting beside the bot (a
compose file, a reboot), a volume not yet mounted. So the bot tries again, waiting longer each time, until the
database answers or ``STARTUP_TIMEOUT_S`` runs out.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from app.config import shown_database
from app.database import is_postgres, sqlite_path

log = logging.getLogger("westeros.startup")

RETRY_S = (0.5, 10.0)  # the first wait between tries, doubling up to the second
CONNECT_TIMEOUT_S = 5  # one try at PostgreSQL gives up after this (an address that drops packets never refuses)


class DatabaseUnavailable(Exception):
    """The database did not answer within the start-up time: the message is the one line to show."""


def reason_of(error: BaseException) -> str:
    """A database error's reason in a few words: libpq's first line ends with it ("...port 1 failed: Connection
    refused"); the address before it is shown by the caller, without credentials."""
    text = str(error).strip()
    if not text:
        return type(error).__name__
    line = text.splitlines()[0].rsplit(" failed: ", 1)[-1]
    return " ".join(line.removeprefix("FATAL:").split())


def database_problem(target: str | Path, *, connect_timeout: float = CONNECT_TIMEOUT_S) -> str | None:
    """Why the database ``target`` names cannot be used right now, in a few words (None: it answers)."""
    if is_postgres(target):
        import psycopg

        try:
            with psycopg.connect(str(target), connect_timeout=max(1, round(connect_timeout))) as connection:
                connection.execute("SELECT 1")
        except psycopg.Error as err:
            return reason_of(err)
        return None
    path = sqlite_path(target)
    folder = path.parent.resolve()
    if not folder.is_dir():
        return f"its folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):  # SQLite writes its journal beside the file
        return f"its folder {folder} is not writable by this user"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "the file is not readable and writable by this user"
    try:
        file = sqlite3.connect(path, timeout=connect_timeout)
        try:
            file.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            file.close()
    except sqlite3.Error as err:
        return reason_of(err)
    return None


def wait_for_database(
    target: str | Path,
    timeout: float,
    *,
    probe: Callable[[str | Path], str | None] = database_problem,
) -> None:
    """Return once the database answers; raise ``DatabaseUnavailable`` after ``timeout`` seconds of trying. The
    first failure is logged in one line; the tries after it are quiet (DEBUG), so a long wait stays two lines."""
    shown = shown_database(target)
    deadline = time.monotonic() + timeout
    delay = RETRY_S[0]
    problem = probe(target)
    if problem is None:
        return
    log.warning(
        "the database %s does not answer (%s); trying again for up to %g s (STARTUP_TIMEOUT_S)", shown, problem, timeout
    )
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise DatabaseUnavailable(
                f"the database {shown} still does not answer after {timeout:g} s ({problem}): giving up;"
                " check that it runs and that DATABASE_URL or DATABASE_PATH names it (docs/deploy.md)"
            )
        time.sleep(min(delay, left))
        delay = min(delay * 2, RETRY_S[1])
        problem = probe(target)
        if problem is None:
            log.info("the database %s answers now", shown)
            return
        log.debug("the database %s still does not answer: %s", shown, problem)
