"""Settings from the environment: which database, and what of it a log may show."""

from __future__ import annotations

from pathlib import Path

from app.config import load_config


def test_the_database_is_a_sqlite_file_unless_database_url_names_one(tmp_path: Path) -> None:
    assert load_config(tmp_path, {}).database == tmp_path / "westeros.sqlite3"
    assert load_config(tmp_path, {"DATABASE_PATH": "/data/games.sqlite3"}).database == Path("/data/games.sqlite3")
    url = "postgresql://bot:hunter2@db.example:5432/westeros"
    assert load_config(tmp_path, {"DATABASE_URL": url, "DATABASE_PATH": "/ignored"}).database == url


def test_a_postgresql_password_never_reaches_the_log(tmp_path: Path) -> None:
    config = load_config(
        tmp_path, {"DISCORD_TOKEN": "t0ken", "DATABASE_URL": "postgresql://bot:hunter2@db.example:5432/westeros"}
    )
    shown = repr(config)
    assert "hunter2" not in shown and "bot:" not in shown and "t0ken" not in shown
    assert "db.example:5432/westeros" in shown


def test_worker_and_deadline_settings_are_bounded(tmp_path: Path) -> None:
    config = load_config(tmp_path, {"WORKER_SLOTS": "1000", "DEADLINE_SWEEP_S": "x", "DEADLINE_LEASE_S": "-5"})
    assert config.worker_slots == 32 and config.deadline_sweep_s == 30.0 and config.deadline_lease_s == 0.1
