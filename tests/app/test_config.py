"""Settings from the environment: which database, and what of it a log may show; the gateway's shards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.config import ConfigError, load_config


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


def test_a_gateways_wait_for_an_outcome_never_outlasts_the_interactions_token(tmp_path: Path) -> None:
    """OUTCOME_TIMEOUT_S (10 minutes unless set) is held under the token's 15 minutes, so that the receipt can still
    be edited; UNTOLD_SWEEP_S is how often a running gateway looks for outcomes it could not read in time."""
    default = load_config(tmp_path, {})
    assert (default.outcome_timeout_s, default.untold_sweep_s) == (600.0, 30.0)
    set_ = load_config(tmp_path, {"OUTCOME_TIMEOUT_S": "5", "UNTOLD_SWEEP_S": "1"})
    assert (set_.outcome_timeout_s, set_.untold_sweep_s) == (5.0, 1.0)
    assert load_config(tmp_path, {"OUTCOME_TIMEOUT_S": "3600"}).outcome_timeout_s == 840.0


def test_shards_unset_mean_one_unsharded_connection(tmp_path: Path) -> None:
    config = load_config(tmp_path, {}, role="gateway")
    assert config.shard_count is None and config.shard_ids is None


def test_a_gateway_holds_the_shards_shard_ids_names_or_all_of_shard_count(tmp_path: Path) -> None:
    def shards(env: dict[str, str], role: str = "gateway") -> tuple[int | None, tuple[int, ...] | None]:
        config = load_config(tmp_path, env, role=role)
        return config.shard_count, config.shard_ids

    assert shards({"SHARD_COUNT": "2", "SHARD_IDS": "0"}) == (2, (0,))
    assert shards({"SHARD_COUNT": "2", "SHARD_IDS": "1"}) == (2, (1,))
    assert shards({"SHARD_COUNT": " 8 ", "SHARD_IDS": "6, 0-2"}) == (8, (0, 1, 2, 6))
    assert shards({"SHARD_COUNT": "2"}) == (2, (0, 1))
    # The one-process bot holds every shard in one process.
    assert shards({"SHARD_COUNT": "2"}, role="all") == (2, (0, 1))
    assert shards({"SHARD_COUNT": "2", "SHARD_IDS": "0,1"}, role="all") == (2, (0, 1))


@pytest.mark.parametrize(
    ("env", "role", "message"),
    [
        ({"SHARD_COUNT": "two"}, "gateway", "SHARD_COUNT must be a whole number from 1 to 1024, not 'two'"),
        ({"SHARD_COUNT": "0"}, "gateway", "SHARD_COUNT must be a whole number from 1 to 1024, not '0'"),
        ({"SHARD_COUNT": "5000"}, "all", "SHARD_COUNT must be a whole number from 1 to 1024, not '5000'"),
        ({"SHARD_IDS": "1"}, "gateway", "SHARD_IDS=1 needs SHARD_COUNT"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "2"},
            "gateway",
            "names shard 2, but SHARD_COUNT=2 numbers the shards 0 to 1",
        ),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,1,1"}, "gateway", "SHARD_IDS names shard 1 twice"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "gateway", "SHARD_IDS must be shard ids separated by commas"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "gateway", "the range '3-1' holds no shard"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "0"}, "all", "SHARD_IDS=0 leaves shards 1, 2 to no process"),
    ],
)
def test_shard_settings_a_gateway_cannot_hold_are_refused_with_what_to_set(
    tmp_path: Path, env: dict[str, str], role: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(tmp_path, env, role=role)


def test_a_worker_holds_no_gateway_and_ignores_the_shard_settings(tmp_path: Path) -> None:
    for env in ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, {"SHARD_COUNT": "two", "SHARD_IDS": "9"}):
        config = load_config(tmp_path, env, role="worker")
        assert config.shard_count is None and config.shard_ids is None


def test_bot_py_stops_on_a_refused_shard_setting_and_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot

    monkeypatch.setenv("DISCORD_TOKEN", "t0ken")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "2")
    assert bot.main(["--role", "gateway"]) == bot.EX_CONFIG
    err = capsys.readouterr().err
    assert "SHARD_IDS names shard 2" in err and "t0ken" not in err
