"""The queue between a gateway and its workers (PostgreSQL): outcomes, refusals, a retried command, and an answer
nobody applied in time, which is given up and never applied behind the player's back."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from app.commands import Answer
from app.database import PostgresDatabase
from app.queries import ServiceError
from app.queue import CommandFailed, CommandQueue, Outcomes
from app.service import GameService
from app.store import Store
from cogs.replies import failure_text
from engine import RuleError
from tests.app.test_service import started

pytestmark = pytest.mark.several_processes


async def first_answer(store: Store, key: str) -> tuple[GameService, Answer]:
    """A service on ``store``, a game started in it, and its first decision answered with its default."""
    service = GameService(store)
    game_id = await started(service)
    prompt = (await service.load(game_id)).prompts()[0]
    seats = await store.seats(game_id)
    return service, Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house], key=key)


async def queue_of(store: Store) -> CommandQueue:
    assert isinstance(store.db, PostgresDatabase)
    return CommandQueue(store.db)


async def test_an_answer_goes_through_the_queue_once_and_a_retry_is_reported_done(database: Path | str) -> None:
    store = await Store.open(database, shared=True)
    try:
        service, answer = await first_answer(store, "interaction-1")
        game_id, house = answer.game_id, answer.house
        queue = await queue_of(store)
        outcomes = Outcomes(queue)
        outcomes.start()
        try:
            for _ in range(2):  # the second: a worker that died after the commit, before recording the outcome
                await queue.enqueue(answer)
                assert await queue.apply_next(service.answer)
            assert not await queue.apply_next(service.answer)
            assert [a.house for a in await store.answers(game_id)] == [house]
            assert await queue.outcome(1) == {"ok": True} and await queue.outcome(2) == {"ok": True}
            # A refusal travels back as itself, to be worded in the player's language.
            wrong = Answer(game_id=game_id, house=house, answer=answer.answer, by=12345, key="interaction-2")
            waiting = asyncio.ensure_future(outcomes.submit(wrong, timeout=30))
            while not await queue.apply_next(service.answer):  # a worker, once the gateway has enqueued it
                await asyncio.sleep(0.01)
            with pytest.raises(ServiceError) as refused:
                await waiting
            assert refused.value.code == "not-your-house"
        finally:
            await outcomes.stop()
    finally:
        await store.close()


async def test_an_answer_nobody_applied_in_time_is_given_up_and_never_applied(database: Path | str) -> None:
    store = await Store.open(database, shared=True)
    try:
        service, answer = await first_answer(store, "k")
        outcomes = Outcomes(await queue_of(store))
        outcomes.start()
        try:
            with pytest.raises(CommandFailed) as failed:
                await outcomes.submit(answer, timeout=0)  # no worker runs
            assert "NOT recorded" in failure_text(failed.value, "en")
            assert not await outcomes.queue.apply_next(service.answer)  # a worker starting later finds nothing
            assert await store.answers(answer.game_id) == []
        finally:
            await outcomes.stop()
    finally:
        await store.close()


def test_a_rule_refusal_and_a_failure_cross_the_queue() -> None:
    from app.queue import outcome_of, raise_outcome

    with pytest.raises(RuleError) as rule:
        raise_outcome(outcome_of(RuleError("not-your-turn", "Nothing is asked.", house="stark")))
    assert rule.value.params == {"house": "stark"}
    with pytest.raises(CommandFailed):
        raise_outcome(outcome_of(OSError("disk")))


async def test_an_outcome_in_another_schema_of_the_database_is_not_taken_for_ours(database: Path | str) -> None:
    """A NOTIFY channel belongs to the whole database, and each schema's queue numbers its commands from 1: a gateway
    took another schema's outcome for its own command 1 and told the player "Recorded" before anything was applied
    (seen with CI's bot tests running side by side in one database)."""
    from testing import postgres

    store = await Store.open(database, shared=True)
    try:
        _, answer = await first_answer(store, "a")
        outcomes = Outcomes(await queue_of(store))
        outcomes.start()
        try:
            with postgres.fresh_schema("other") as elsewhere:
                other = await Store.open(elsewhere, shared=True)
                try:
                    other_service, theirs = await first_answer(other, "b")
                    other_queue = await queue_of(other)
                    await other_queue.enqueue(theirs)
                    await asyncio.sleep(0.5)  # the gateway's listener is connected
                    waiting = asyncio.ensure_future(outcomes.submit(answer, timeout=3))
                    await asyncio.sleep(0.3)  # our command 1 is enqueued, not applied
                    assert await other_queue.apply_next(other_service.answer)  # their command 1 is applied
                    with pytest.raises(CommandFailed):  # no worker of ours ran: never "Recorded"
                        await waiting
                    assert await store.answers(answer.game_id) == []
                finally:
                    await other.close()
        finally:
            await outcomes.stop()
    finally:
        await store.close()


async def test_players_told_at_once_are_marked_told_together_and_each_waits_for_his_mark(database: Path | str) -> None:
    """The gateway marks each player told after his receipt, so that a restart does not tell him again: the marks of a
    burst go in one statement (they share its time) and each caller returns once his own is written."""
    from app.queue import ReplyTo

    store = await Store.open(database, shared=True)
    try:
        service, answer = await first_answer(store, "burst-0")
        queue = await queue_of(store)
        outcomes = Outcomes(queue)
        outcomes.start()
        reply = ReplyTo(application_id=1, token="t", expires_at=2e9, user_id=answer.by or 0, locale="en")
        try:
            keys = [f"burst-{n}" for n in range(5)]
            for key in keys:  # each enqueued as a gateway does (with a way to reach the player), then applied
                command = Answer(
                    game_id=answer.game_id, house=answer.house, answer=answer.answer, by=answer.by, key=key
                )
                waiting = asyncio.ensure_future(outcomes.submit(command, timeout=30, reply=reply))
                while not await queue.apply_next(service.answer):
                    await asyncio.sleep(0.01)
                with contextlib.suppress(RuleError, ServiceError):  # the later ones: nothing is asked of him now
                    await waiting
            await asyncio.gather(*(outcomes.told(key) for key in keys))
            marks = await store.db.fetchall("SELECT told_at FROM command_queue WHERE gateway IS NOT NULL")
            assert len(marks) == 5 and None not in {m[0] for m in marks}
            assert len({m[0] for m in marks}) == 1  # one statement
        finally:
            await outcomes.stop()
    finally:
        await store.close()
