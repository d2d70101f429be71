"""Every test here that opens a store runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import pytest

from tests.conftest import STORES


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database" in metafunc.fixturenames:
        metafunc.parametrize("database", STORES, indirect=True)
