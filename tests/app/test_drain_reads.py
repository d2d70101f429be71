"""What the publisher reads as it works, in as few statements as the store can: a drain's look at the outbox and the
notices in one, and a publication's marks with the channel's layout in one (issue X: scale-out that pays for itself;
each was a round trip of its own, a drain's on every commit of a burst)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.service import GameService
from app.store import Store
from tests.app.test_applied_here import answer_next
from tests.app.test_service import started
from tests.app.test_store_reads import counting


@pytest.fixture
async def service(database: Path | str) -> AsyncIterator[GameService]:
    store = await Store.open(database)
    try:
        yield GameService(store)
    finally:
        await store.close()


async def answer_one(service: GameService, game_id: int) -> int:
    """One house's answer (a secret step: its version stays in the outbox); the version it made."""
    await answer_next(service, game_id)
    return (await service.load(game_id)).version


async def test_a_drain_reads_the_outbox_and_the_notices_in_one_statement_each_in_its_order(
    service: GameService,
) -> None:
    store = service.store
    first, second = await started(service), await started(service, channel_id=11)
    await answer_one(service, second)
    await store.add_notices(second, [{"type": "test", "n": 1}])
    await answer_one(service, first)
    await store.add_notices(first, [{"type": "test", "n": 2}, {"type": "test", "n": 3}])
    await store.add_notices(second, [{"type": "test", "n": 4}])
    expected_versions, expected_notices = await store.unpublished(), await store.notices()

    statements = counting(store)
    versions, notices = await store.drainable()
    assert len(statements) == 1
    assert versions == expected_versions
    assert [(v[0], v[1]) for v in versions] == sorted((v[0], v[1]) for v in versions)  # each game's in order
    assert {v[0] for v in versions} == {first, second}
    assert notices == expected_notices
    assert [(n.game_id, n.payload["n"]) for n in notices] == [(first, 2), (first, 3), (second, 1), (second, 4)]

    del statements[:]
    pending, drained_notices = await service.drainable()
    assert [key for key, _applied, _sent in pending] == [(g, v, kind, at) for g, v, kind, _sent, at in versions]
    assert drained_notices == notices
    # One read of the outbox and the notices; the rebuilds read the log's entries (the versions are not cached).
    assert len([s for s in statements if "FROM outbox" in s or "FROM notices" in s]) == 1


async def test_a_publication_reads_its_marks_and_the_channel_layout_in_one_statement(service: GameService) -> None:
    store = service.store
    game_id = await started(service)
    version = await answer_one(service, game_id)
    written_at, marks, layout = await store.sends(game_id, version)
    assert written_at is not None and marks == {} and layout is None  # nothing told in the channel yet

    await store.sent_message(game_id, version, "step", "post:a", 11, written_at=written_at)
    await store.channel_done(game_id, version, "step", '{"layout": 1}', written_at=written_at)
    statements = counting(store)
    sent = await store.sends(game_id, version)
    assert len(statements) == 1
    assert sent.written_at == written_at and sent.marks == {"post:a": 11}
    assert sent.layout == '{"layout": 1}' == await store.channel_layout(game_id)

    # A version with no outbox row (an undo took it out, or it was published): no marks, and the channel's layout,
    # whichever publication left it, all the same.
    gone = await store.sends(game_id, version + 5)
    assert gone.written_at is None and gone.marks == {} and gone.layout == '{"layout": 1}'
