"""app/metrics.py (issue O): the hooks do nothing while metrics are off, count when they are on, and cost little either
way; the gauges are read from a real database at a scrape, and what the registry shows parses with the client
library's own parser."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app import metrics
from app.config import ConfigError, load_config
from app.store import Store


@pytest.fixture
def on() -> Iterator[metrics.Metrics]:
    yield metrics.enable(queue=True)
    metrics.disable()


def samples(m: metrics.Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(m.exposition().decode())
        for s in family.samples
    }


async def two_images() -> list[bytes]:
    await asyncio.sleep(0.01)
    return [b"png", b"png"]


async def test_O_every_hook_does_nothing_while_metrics_are_off() -> None:
    assert metrics.current is None
    metrics.answer_applied("player")
    metrics.click_arrived()
    metrics.receipt_sent()
    metrics.deadline_fired(["stark"])
    metrics.refused("not-your-turn")
    metrics.failed(RuntimeError("boom"))
    assert await metrics.images_drawn(two_images()) == [b"png", b"png"]
    assert metrics.current is None


async def test_O_the_hooks_count_what_happens(on: metrics.Metrics) -> None:
    for source in ("player", "player", "deadline"):
        metrics.answer_applied(source)
    metrics.deadline_fired([])  # a deadline that answered for nobody (the step moved on) is not counted
    metrics.deadline_fired(["stark", "lannister"])
    metrics.receipt_sent()  # no click arrived in this context: nothing to measure
    metrics.click_arrived()
    metrics.receipt_sent()
    assert await metrics.images_drawn(two_images()) == [b"png", b"png"]
    metrics.refused("not-your-turn")
    metrics.failed(TimeoutError())
    got = samples(on)
    assert got[("westeros_answers_applied_total", (("source", "player"),))] == 2
    assert got[("westeros_answers_applied_total", (("source", "deadline"),))] == 1
    assert got[("westeros_deadlines_fired_total", ())] == 1
    assert got[("westeros_receipt_latency_seconds_count", ())] == 1
    assert got[("westeros_image_draw_seconds_count", ())] == 1
    assert got[("westeros_image_draw_seconds_sum", ())] >= 0.01
    assert got[("westeros_images_drawn_total", ())] == 2
    assert got[("westeros_errors_total", (("kind", "refusal"), ("name", "not-your-turn")))] == 1
    assert got[("westeros_errors_total", (("kind", "failure"), ("name", "TimeoutError")))] == 1


async def test_O_the_gauges_are_read_from_the_database_at_a_scrape(on: metrics.Metrics, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "games.sqlite3")
    try:
        game_id = await store.create_game(guild_id=1, channel_id=2, name="g", created_by=3, settings={})
        await store.create_game(guild_id=1, channel_id=4, name="h", created_by=3, settings={})
        await store.write("UPDATE games SET status = 'running' WHERE id = ?", (game_id,))
        written = time.time() - 120  # a version committed two minutes ago and not yet published
        await store.write(
            "INSERT INTO outbox (game_id, version, kind, created_at) VALUES (?, 1, 'step', ?)", (game_id, written)
        )
        await on.refresh(store.db)
    finally:
        await store.close()
    got = samples(on)
    assert got[("westeros_outbox_backlog", ())] == 1
    assert 119 <= got[("westeros_outbox_oldest_age_seconds", ())] < 180
    assert got[("westeros_games", (("status", "running"),))] == 1
    assert got[("westeros_games", (("status", "lobby"),))] == 1
    assert got[("westeros_games", (("status", "ended"),))] == 0
    assert got[("westeros_queue_depth", ())] == 0


def test_O_health_port_is_off_unless_set_and_refused_when_it_is_no_port(tmp_path: Path) -> None:
    assert load_config(tmp_path, {}).health_port is None
    config = load_config(tmp_path, {"HEALTH_PORT": "9101"})
    assert (config.health_port, config.health_host) == (9101, "127.0.0.1")
    assert load_config(tmp_path, {"HEALTH_PORT": "9101", "HEALTH_HOST": "0.0.0.0"}).health_host == "0.0.0.0"
    for wrong in ("http", "0", "70000"):
        with pytest.raises(ConfigError, match="HEALTH_PORT"):
            load_config(tmp_path, {"HEALTH_PORT": wrong})
