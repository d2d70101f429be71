"""Suite-wide settings. Under CI (CI=true) hypothesis is derandomised, so a failing run always reproduces;
locally it keeps exploring new examples on every run.

``database``: where a test's store lives. SQLite (a file in the test's folder) unless the test is parametrised over
``STORES`` or ``WESTEROS_TEST_STORE=postgres`` runs the suite on PostgreSQL (a fresh schema per test,
``testing/postgres.py``). Without a reachable PostgreSQL those tests skip with the reason, and fail instead under
``WESTEROS_REQUIRE_POSTGRES=1`` (``.ci/run``). It is already at the newest schema revision (a copy of one SQLite file
migrated once per process, or the statements of one PostgreSQL migration sent again): Alembic took a second or more
per test. A test of migrations themselves marks itself ``empty_database``.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from testing import postgres

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

STORES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    """Whatever pool of processes starts this process's fork server first (the bot's image pool, the AI's, a
    test's), it warms the renderer once, as the bot's own does: every image worker of every bot the tests start then
    starts warm, where each spent a second or more of CPU on its warm-up (render/warmed.py)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        multiprocessing.set_forkserver_preload(["render.warmed"])


def default_store() -> str:
    kind = os.environ.get("WESTEROS_TEST_STORE", "sqlite")
    if kind not in STORES:
        raise pytest.UsageError(f"WESTEROS_TEST_STORE must be one of {', '.join(STORES)}, not {kind!r}")
    return kind


def require_postgres() -> None:
    reason = postgres.unreachable()
    if reason is None:
        return
    if os.environ.get("WESTEROS_REQUIRE_POSTGRES"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the newest schema revision, migrated once per process (each xdist worker has its own)."""
    from app import migrate

    path = tmp_path_factory.mktemp("template") / "games.sqlite3"
    migrate.upgrade(path)
    return path


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """A SQLite file's path or a PostgreSQL address (a new schema), for ``Store.open``: at the newest revision, or
    empty for a test marked ``empty_database``."""
    kind = getattr(request, "param", None) or default_store()
    empty = request.node.get_closest_marker("empty_database") is not None
    if kind == "sqlite":
        path = tmp_path / "games.sqlite3"
        if not empty:
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
        yield path
        return
    require_postgres()
    with postgres.fresh_schema() if empty else postgres.migrated_schema() as url:
        yield url
