"""Every test here that opens a store runs once on SQLite and once on PostgreSQL; a test of several processes writing
one database (``@pytest.mark.several_processes``) runs on PostgreSQL only, the one store that set-up supports
(``bot.py --role`` refuses SQLite)."""

from __future__ import annotations

import pytest

from tests.conftest import STORES


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database" in metafunc.fixturenames:
        several = metafunc.definition.get_closest_marker("several_processes") is not None
        metafunc.parametrize("database", ("postgres",) if several else STORES, indirect=True)
