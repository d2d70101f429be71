"""Suite-wide settings. Under CI (CI=true) hypothesis is derandomised, so a failing run always reproduces;
locally it keeps exploring new examples on every run.

``database``: where a test's store lives. SQLite (a file in the test's folder) unless the test is parametrised over
``STORES`` or ``WESTEROS_TEST_STORE=postgres`` runs the suite on PostgreSQL (a fresh schema per test,
``testing/postgres.py``). Without a reachable PostgreSQL those tests skip with the reason, and fail instead under
``WESTEROS_REQUIRE_POSTGRES=1`` (``.ci/run``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from testing import postgres

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

STORES = ("sqlite", "postgres")


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


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """A SQLite file's path or a PostgreSQL address (a new schema), for ``Store.open``."""
    kind = getattr(request, "param", None) or default_store()
    if kind == "sqlite":
        yield tmp_path / "games.sqlite3"
        return
    require_postgres()
    with postgres.fresh_schema() as url:
        yield url
