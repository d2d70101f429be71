"""bench/scale.py's ``postgres_socket_gateway_2_workers``: the address it gives the bot reaches the same database, as
the same user, in the same schema and with the same settings, over the server's Unix socket instead of TCP."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import psycopg
import pytest

from testing import postgres
from tests.conftest import require_postgres

BENCH = Path(__file__).resolve().parents[2] / "bench" / "scale.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_scale", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    return bench


def test_the_socket_address_reaches_the_same_schema_over_the_unix_socket() -> None:
    require_postgres()
    bench = load_bench()
    if bench.socket_directory() is None:
        pytest.skip("the test server is not on this machine, or listens on no Unix socket")
    with postgres.fresh_schema("sock", durable=True) as url:
        over = bench.over_socket(url)
        assert over.startswith("postgresql://") and "127.0.0.1" not in over
        with psycopg.connect(url) as tcp, psycopg.connect(over) as unix:
            asked = "SELECT inet_server_addr() IS NULL, current_user, current_database(), current_schema()," + (
                " current_setting('synchronous_commit')"
            )
            over_tcp, over_unix = tcp.execute(asked).fetchone(), unix.execute(asked).fetchone()
        assert over_tcp is not None and over_unix is not None
        assert over_tcp[0] is False and over_unix[0] is True  # a socket connection has no server address
        assert over_unix[1:] == over_tcp[1:]  # same user, database, schema and durability
