"""A process names its PostgreSQL connections by its role, so that a host reading pg_stat_activity or the server's
log tells a gateway's statements from a worker's; a name the host gave (PGAPPNAME) is kept."""

from __future__ import annotations

import pytest

from app.database import PostgresDatabase, name_connections
from testing import postgres
from tests.conftest import require_postgres


async def application_name(url: str) -> str:
    db = await PostgresDatabase.open(url, pool_size=(1, 1))
    try:
        row = await db.fetchone("SELECT current_setting('application_name')")
        assert row is not None
        return str(row[0])
    finally:
        await db.close()


async def test_a_workers_connections_say_so_and_a_hosts_own_name_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    require_postgres()
    with postgres.fresh_schema("names") as url:
        monkeypatch.setenv("PGAPPNAME", "placeholder")
        monkeypatch.delenv("PGAPPNAME")  # recorded, so that the name set below is taken back after the test
        name_connections("worker")
        assert await application_name(url) == "westeros-worker"
        monkeypatch.setenv("PGAPPNAME", "the-hosts-name")
        name_connections("gateway")
        assert await application_name(url) == "the-hosts-name"
