"""Group commit (issue X, scale-out that pays): writes that arrive while one is under way share the next statement,
each caller with its own outcome (``app/batched.py``; the gateway's enqueues and a worker's answer commits)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.batched import Batched
from app.service import GameService
from app.store import Source, Store, VersionConflict
from tests.app.test_queue import first_answers


class Lost(Exception):
    """Stands for a dropped connection: the batch's failure, each caller's to handle."""


async def test_calls_at_once_share_a_batch_a_lone_one_waits_for_nobody_and_each_gets_its_own_result() -> None:
    runs: list[list[int]] = []

    async def double(items: list[int]) -> list[int]:
        runs.append(items)
        await asyncio.sleep(0.01)  # under way while more calls come
        return [item * 2 for item in items]

    batched = Batched(double, most=3, shared=lambda error: isinstance(error, Lost), what="doubling")
    assert await batched(1) == 2
    first = asyncio.ensure_future(batched(2))
    await asyncio.sleep(0.005)  # the first is under way: the next four wait for it, three then one
    rest = await asyncio.gather(*(batched(n) for n in range(3, 7)))
    assert await first == 4 and rest == [6, 8, 10, 12]
    assert runs == [[1], [2], [3, 4, 5], [6]]


async def test_a_failed_batch_runs_each_alone_unless_its_failure_is_every_callers() -> None:
    runs: list[list[int]] = []

    async def refuse_odd(items: list[int]) -> list[int]:
        runs.append(items)
        if any(item % 2 for item in items):
            raise ValueError(f"odd among {items}")
        return items

    batched = Batched(refuse_odd, most=10, shared=lambda error: isinstance(error, Lost), what="evens")
    results = await asyncio.gather(*(batched(n) for n in (2, 3, 4)), return_exceptions=True)
    assert results[0] == 2 and results[2] == 4
    assert isinstance(results[1], ValueError) and str(results[1]) == "odd among [3]"
    assert runs == [[2, 3, 4], [2], [3], [4]]

    async def lose(items: list[int]) -> list[int]:
        runs.append(items)
        raise Lost()

    runs.clear()
    batched = Batched(lose, most=10, shared=lambda error: isinstance(error, Lost), what="lost")
    results = await asyncio.gather(*(batched(n) for n in (1, 2)), return_exceptions=True)
    assert all(isinstance(result, Lost) for result in results)
    assert runs == [[1, 2]]  # not tried again here: each caller looks his own up


async def test_a_cancelled_caller_is_left_out_of_the_next_batch() -> None:
    runs: list[list[int]] = []

    async def slow(items: list[int]) -> list[int]:
        runs.append(items)
        await asyncio.sleep(0.02)
        return items

    batched = Batched(slow, most=10, shared=lambda error: False, what="slow")
    under_way = asyncio.ensure_future(batched(1))
    await asyncio.sleep(0.005)
    given_up = asyncio.ensure_future(batched(2))
    kept = asyncio.ensure_future(batched(3))
    await asyncio.sleep(0)
    given_up.cancel()
    assert await under_way == 1 and await kept == 3
    assert runs == [[1], [3]]


@pytest.mark.several_processes
async def test_answers_applied_side_by_side_commit_together_and_a_stale_one_alone_is_refused(
    database: Path | str,
) -> None:
    """A worker's answers of several games, applied side by side, reach their commits together: they share
    statements, each is recorded once. One of them checked against a version that moved on is refused as a lone
    commit would be (``VersionConflict``, then applied again to the game as it stands), and the others land."""
    store = await Store.open(database, shared=True)
    try:
        service = GameService(store)
        commands = await first_answers(service, range(60, 66), "side-by-side")
        before = store.answer_commits.batches
        await asyncio.gather(*(service.answer(command) for command in commands))
        assert store.answer_commits.batches - before < len(commands)
        for command in commands:
            assert [a.house for a in await store.answers(command.game_id)] == [command.house]

        # Straight at the store: three commits given together, one of them at a version its game left.
        games = [await service.load(command.game_id) for command in commands[:3]]
        expected = [games[0].version, games[1].version - 1, games[2].version]
        before = store.answer_commits.batches
        results = await asyncio.gather(
            *(
                store.commit_answer(
                    command.game_id,
                    expected_version=version,
                    new_version=version + 1,
                    new_state=game.to_json(),
                    house=house,
                    user_id=None,
                    prompt_id="test",
                    answer=None,
                    source=Source.PLAYER,
                )
                for command, game, version, house in zip(commands, games, expected, "xyz", strict=False)
            ),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], VersionConflict)
        assert store.answer_commits.batches - before == 4  # together (refused), then each alone
        assert [a.house for a in await store.answers(commands[0].game_id)][-1] == "x"
        assert [a.house for a in await store.answers(commands[1].game_id)] == [commands[1].house]
        assert [a.house for a in await store.answers(commands[2].game_id)][-1] == "z"
    finally:
        await store.close()


@pytest.mark.several_processes
async def test_messages_of_several_publications_marked_at_once_share_statements_each_on_its_own_row(
    database: Path | str,
) -> None:
    """A burst's publications, published side by side, mark each message Discord accepted (``sent_message``, the
    mark a retry reads to skip it). Marks made together share statements, each caller waiting for its own commit;
    each lands once, on its publication's own row only (a row written at another time, an undo's, takes none), and
    one made twice in one statement (which PostgreSQL refuses as one) still ends with its last message."""
    store = await Store.open(database, shared=True)
    try:
        service = GameService(store)
        commands = await first_answers(service, range(70, 76), "marks")
        await asyncio.gather(*(service.answer(command) for command in commands))
        rows = {
            command.game_id: await store.db.fetchone(
                "SELECT version, created_at FROM outbox WHERE game_id = ? ORDER BY version DESC LIMIT 1",
                (command.game_id,),
            )
            for command in commands
        }
        marks = [
            (game_id, int(row[0]), f"dm:{house}", 1000 * game_id + n, float(row[1]))
            for game_id, row in rows.items()
            if row is not None
            for n, house in enumerate(("Stark", "Lannister", "Baratheon"))
        ]
        before = store.message_marks.batches
        await asyncio.gather(
            *(
                store.sent_message(game_id, version, "step", part, message_id, written_at=written_at)
                for game_id, version, part, message_id, written_at in marks
            )
        )
        assert store.message_marks.batches - before < len(marks)
        for game_id, version, _, _, _ in marks:
            sent = await store.sends(game_id, version)
            assert sent.marks == {part: message_id for g, _, part, message_id, _ in marks if g == game_id}

        # A row written at another time (an undo wrote it anew) takes none; the same part twice in one statement is
        # marked with its last message.
        game_id, version, _, _, written_at = marks[0]
        before = store.message_marks.batches
        await asyncio.gather(
            store.sent_message(game_id, version, "step", "post:x", 1, written_at=written_at + 1),
            store.sent_message(game_id, version, "step", "post:y", 2, written_at=written_at),
            store.sent_message(game_id, version, "step", "post:y", 3, written_at=written_at),
        )
        parts = (await store.sends(game_id, version)).marks
        assert "post:x" not in parts and parts["post:y"] in (2, 3)
    finally:
        await store.close()


@pytest.mark.several_processes
async def test_statements_sent_together_commit_together_or_not_at_all_with_their_values_as_given(
    database: Path | str,
) -> None:
    """``execute_together``: one round trip, all or nothing, and values (quotes, percent signs, question marks,
    None) reach the database as they were given, never read as SQL."""
    from app.database import IntegrityError, PostgresDatabase

    db = await PostgresDatabase.open(str(database), pool_size=(1, 2))
    try:
        await db.execute("CREATE TABLE together (a INT PRIMARY KEY, b TEXT)")
        tricky = "it's 50% done; DROP TABLE together; -- ?"
        await db.execute_together(
            [("INSERT INTO together VALUES (?, ?)", (1, tricky)), ("INSERT INTO together VALUES (?, ?)", (2, None))]
        )
        with pytest.raises(IntegrityError):
            await db.execute_together(
                [("INSERT INTO together VALUES (?, ?)", (3, "x")), ("INSERT INTO together VALUES (?, ?)", (1, "y"))]
            )
        assert await db.fetchall("SELECT a, b FROM together ORDER BY a") == [(1, tricky), (2, None)]
    finally:
        await db.close()


@pytest.mark.several_processes
async def test_a_steps_last_answer_and_its_deadline_commit_together_or_neither_does(database: Path | str) -> None:
    """The commit of an answer with what it implies (the next step's deadline) is one statement on PostgreSQL: a
    version that moved on stores neither the answer nor the deadline."""
    from app.store_deadlines import DeadlineRow, DeadlineStore

    store = await Store.open(database, shared=True)
    try:
        service = GameService(store)
        (command,) = await first_answers(service, range(70, 71), "step")
        game = await service.load(command.game_id)
        deadlines = DeadlineStore(store)
        await deadlines.clear(command.game_id)

        def deadline(due: float) -> DeadlineRow:
            return DeadlineRow(command.game_id, "next-step", "orders", 1.0, due, None)

        async def commit(expected: int, due: float) -> None:
            await store.commit_answer(
                command.game_id,
                expected_version=expected,
                new_version=expected + 1,
                new_state=game.to_json(),
                house=command.house,
                user_id=None,
                prompt_id="test",
                answer=None,
                source=Source.PLAYER,
                writes=[deadlines.put_write(deadline(due))],
            )

        with pytest.raises(VersionConflict):
            await commit(game.version - 1, 111.0)
        store.forget(command.game_id)
        assert await deadlines.get(command.game_id) is None
        assert await store.answers(command.game_id) == []
        await commit(game.version, 222.0)
        store.forget(command.game_id)
        row = await deadlines.get(command.game_id)
        assert row is not None and row.due_at == 222.0
        assert [a.version for a in await store.answers(command.game_id)] == [game.version + 1]
    finally:
        await store.close()
