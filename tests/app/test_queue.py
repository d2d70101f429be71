"""The queue between a gateway and its workers (PostgreSQL): outcomes, refusals, a retried command, and an answer
nobody applied in time, which is given up and never applied behind the player's back."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.commands import Answer, Join, Start
from app.database import PostgresDatabase
from app.queries import GameSettings, ServiceError
from app.queue import CommandFailed, CommandQueue, Outcomes, ReplyTo, command_of, payload_of
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


async def started_in(service: GameService, channel_id: int) -> int:
    """A 3-player game started in ``channel_id`` (one game per channel)."""
    game_id = await service.create(
        guild_id=1, channel_id=channel_id, creator=100, name="test", settings=GameSettings(players=3, seed=5)
    )
    for user in range(100, 103):
        await service.execute(Join(game_id=game_id, by=user))
    await service.execute(Start(game_id=game_id))
    return game_id


async def first_answers(service: GameService, channels: range, key: str) -> list[Answer]:
    """A 3-player game started in each channel, and its first decision answered with its default (key
    ``<key>-<channel>``)."""
    commands = []
    for channel_id in channels:
        game_id = await started_in(service, channel_id)
        prompt = (await service.load(game_id)).prompts()[0]
        seats = await service.store.seats(game_id)
        commands.append(Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house],
                               key=f"{key}-{channel_id}"))  # fmt: skip
    return commands


async def queue_of(store: Store) -> CommandQueue:
    assert isinstance(store.db, PostgresDatabase)
    return CommandQueue(store.db)


async def outcomes_within(queue: CommandQueue, queued: list[int], seconds: float) -> list[dict[str, Any] | None]:
    """The outcomes of the ``queued`` commands once every one is recorded, or as they stand after ``seconds``."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while any([await queue.outcome(queue_id) is None for queue_id in queued]) and loop.time() < until:
        await asyncio.sleep(0.02)
    return [await queue.outcome(queue_id) for queue_id in queued]


async def assert_each_answered_once(store: Store, commands: list[Answer]) -> None:
    for command in commands:
        assert [a.house for a in await store.answers(command.game_id)] == [command.house]


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


@dataclass
class WorkerPair:
    """A gateway's store and two workers, each on a store of its own (two processes'), noting the games it applies
    (``applied_by``: (worker, game) in order), with the gateway's side of the queue."""

    gateway: Store
    stores: list[Store]
    services: list[GameService]
    workers: list[Any]
    outcomes: Outcomes
    applied_by: list[tuple[str, int]]

    @staticmethod
    async def open(
        database: Path | str, names: tuple[str, str], leads: Callable[[str], bool] | None = None
    ) -> WorkerPair:
        """``leads(name)``: whether that worker leads now (``Workers.leads``); None: both do."""
        from app.queue import Workers

        gateway = await Store.open(database, shared=True)
        stores = [await Store.open(database, shared=True) for _ in names]
        applied_by: list[tuple[str, int]] = []

        def applying(name: str, service: GameService) -> Any:
            async def apply(command: Answer) -> None:
                applied_by.append((name, command.game_id))
                await service.answer(command)

            return apply

        services = [GameService(store) for store in stores]
        workers = [
            Workers(
                await queue_of(store),
                applying(name, service),
                slots=2,
                name=name,
                leads=(lambda: True) if leads is None else functools.partial(leads, name),
            )
            for name, store, service in zip(names, stores, services, strict=True)
        ]
        return WorkerPair(gateway, stores, services, workers, Outcomes(await queue_of(gateway)), applied_by)

    async def start(self) -> None:
        self.outcomes.start()
        for worker in self.workers:
            worker.start()
        await asyncio.sleep(0.5)  # the listeners are connected

    async def answer_next(self, game_id: int, key: str) -> float:
        """The game's next decision answered with its default through the queue: how long its outcome took."""
        game = await GameService(self.gateway).load(game_id)
        prompt = next(p for p in game.prompts() if not p.answered)
        seats = await self.gateway.seats(game_id)
        command = Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house], key=key)
        started_at = asyncio.get_running_loop().time()
        await self.outcomes.submit(command, timeout=30)
        return asyncio.get_running_loop().time() - started_at

    async def close(self) -> None:
        for worker in self.workers:
            await worker.stop()
        await self.outcomes.stop()
        for store in (self.gateway, *self.stores):
            await store.close()


async def test_a_games_next_command_goes_to_the_worker_that_applied_its_last_and_to_another_once_it_is_gone(
    database: Path | str,
) -> None:
    """Scale-out that pays (issue X): a game's commands are meant for the worker that applied its last one, whose
    caches hold the game; only that worker is woken, and a wake-up costs one claim, not one plus a claim that finds
    nothing. Once that worker is gone, another takes its commands after ``HANDOFF_S``: nothing waits for a dead one.
    (Both workers lead here, as two publishing workers would; see the next test for one leading.)"""
    from app.queue import HANDOFF_S, POLL_S

    pair = await WorkerPair.open(database, ("w1", "w2"))
    workers, applied_by = pair.workers, pair.applied_by
    try:
        games = [await started_in(pair.services[0], channel_id) for channel_id in (10, 11)]
        await pair.start()

        async def answer_six_decisions(game_id: int) -> None:
            for n in range(6):  # the planning step's orders, then what comes next
                await pair.answer_next(game_id, f"{game_id}-{n}")

        claims_before = sum(worker.claims for worker in workers)  # the slots' first looks, and the polling's
        started_at = asyncio.get_running_loop().time()
        await asyncio.gather(*(answer_six_decisions(game_id) for game_id in games))
        elapsed = asyncio.get_running_loop().time() - started_at
        for game_id in games:
            names = [name for name, game in applied_by if game == game_id]
            assert len(names) == 6 and len(set(names)) == 1, names  # after its first command, always the same worker
        claims = sum(worker.claims for worker in workers) - claims_before
        # One claim per command; besides, the other worker's claim of each game's first command (woken too: that
        # command was meant for any), the polling slots' looks, and a margin of two. Before, each command woke both
        # workers and each wake-up ended with a claim that found nothing: at least 36 claims.
        assert claims <= 12 + 2 + 2 * (elapsed / POLL_S + 1) + 2, (claims, elapsed)

        # The worker that holds the first game stops: its next command is another's after HANDOFF_S.
        holder = next(name for name, game in applied_by if game == games[0])
        gone = next(worker for worker in workers if worker.name == holder)
        await gone.stop()
        waited = await pair.answer_next(games[0], "late")
        assert applied_by[-1] == (next(w.name for w in workers if w is not gone), games[0])
        assert waited >= HANDOFF_S * 0.9  # it was meant for the gone one
    finally:
        await pair.close()


async def test_the_leading_worker_applies_what_it_keeps_up_with_and_another_takes_over_what_waits(
    database: Path | str,
) -> None:
    """Scale-out that pays (issue X): the publishing worker leads the claims. It publishes each version it applied from
    the game as it applied it, where a version another worker applied it rebuilds from the log, so the answers it
    keeps up with are its own: a command meant for no worker is the leading one's at once, and another worker takes it
    only once it waited ``HANDOFF_S``. A worker that does not lead announces no name, so the game's next command is
    meant for none again (the leading one's), not for it. When the leader is gone, nothing waits longer than
    ``HANDOFF_S``; when another leads, the commands are its own at once."""
    from app.queue import HANDOFF_S

    leading = {"lead": True, "other": False}
    pair = await WorkerPair.open(database, ("lead", "other"), leads=leading.__getitem__)
    applied_by, outcomes = pair.applied_by, pair.outcomes
    try:
        games = [await started_in(pair.services[0], channel_id) for channel_id in (20, 21)]
        await pair.start()

        async def six(game_id: int) -> None:
            for n in range(6):
                await pair.answer_next(game_id, f"{game_id}-{n}")

        await asyncio.gather(*(six(game_id) for game_id in games))
        assert [name for name, _ in applied_by] == ["lead"] * 12, applied_by
        assert all(outcomes.applied_by.get(game_id) == "lead" for game_id in games)

        # The leader is gone: its game's next command waits HANDOFF_S, then the other takes it, and names nobody.
        await pair.workers[0].stop()
        waited = await pair.answer_next(games[0], "after-the-leader")
        assert applied_by[-1] == ("other", games[0])
        assert waited >= HANDOFF_S * 0.9, waited
        assert outcomes.applied_by.get(games[0]) is None
        waited = await pair.answer_next(games[0], "no-leader-yet")  # meant for none, and nobody leads: HANDOFF_S again
        assert applied_by[-1] == ("other", games[0]) and waited >= HANDOFF_S * 0.9, waited

        # The other worker takes the publish lock: it leads, and what is meant for none is its own at once.
        leading["other"] = True
        waited = await pair.answer_next(games[0], "new-leader")
        assert applied_by[-1] == ("other", games[0]) and waited < HANDOFF_S * 0.9, waited
        assert outcomes.applied_by.get(games[0]) == "other"
        for game_id in games:
            answers = await pair.gateway.answers(game_id)
            assert len({a.version for a in answers}) == len(answers)  # each applied once
    finally:
        await pair.close()


async def test_commands_queued_behind_an_earlier_one_of_their_game_wake_no_worker_and_are_all_applied(
    database: Path | str,
) -> None:
    """Scale-out that pays (issue X): a burst's commands of one game, queued before any is applied, wake the workers
    once: none could claim one behind an earlier command of its game, and the worker that finishes that one claims
    again. Every command is applied, once and in order, with about one claim each (each woke both workers before)."""
    from app.listen import Listener
    from app.queue import QUEUED, Workers

    gateway = await Store.open(database, shared=True)
    stores = [await Store.open(database, shared=True) for _ in range(2)]
    services = [GameService(store) for store in stores]
    applied: list[str] = []

    def applying(service: GameService) -> Any:
        async def apply(command: Answer) -> None:
            applied.append(str(command.key))
            await service.answer(command)

        return apply

    workers = [
        Workers(await queue_of(store), applying(service), slots=2, name=name)
        for name, store, service in zip(("w1", "w2"), stores, services, strict=True)
    ]
    wake_ups: list[str] = []
    assert isinstance(gateway.db, PostgresDatabase)
    listener = Listener(gateway.db.url, QUEUED, wake_ups.append)
    queue = await queue_of(gateway)
    try:
        game_id = await started_in(services[0], 12)
        game = await GameService(gateway).load(game_id)
        seats = await gateway.seats(game_id)
        orders = [p for p in game.prompts() if not p.answered]  # the planning step: every house at once
        assert len(orders) == 3
        listener.start()
        await asyncio.sleep(0.5)  # the listener is connected
        commands = [
            Answer(game_id=game_id, house=p.house, answer=p.default, by=seats[p.house], key=f"burst-{n}")
            for n, p in enumerate(orders)
        ]
        queued = [await queue.enqueue(command) for command in commands]  # all queued before any worker runs
        await asyncio.sleep(0.3)  # any further notification would have come
        assert wake_ups == [""]  # the first command's, meant for any worker; none for the two behind it

        for worker in workers:
            worker.start()  # each slot looks once on starting, as after the wake-up it would have had
        loop = asyncio.get_running_loop()
        until = loop.time() + 30
        while any([await queue.outcome(queue_id) is None for queue_id in queued]) and loop.time() < until:
            await asyncio.sleep(0.05)
        assert [await queue.outcome(queue_id) for queue_id in queued] == [{"ok": True}] * 3
        assert applied == [c.key for c in commands]
        assert {a.house for a in await gateway.answers(game_id)} == {p.house for p in orders}
        # Three commands applied one after another: the first by a slot's first look, each next by its claim again
        # after the one before it; besides, the other slots' first looks (four slots) and a polling slot's.
        assert sum(worker.claims for worker in workers) <= 3 + 4 + 2
    finally:
        for worker in workers:
            await worker.stop()
        await listener.stop()
        for store in (gateway, *stores):
            await store.close()


async def test_a_connection_lost_under_a_workers_commit_is_applied_again_and_never_told_not_recorded(
    database: Path | str,
) -> None:
    """A worker's commit whose connection drops under it may have gone through or not: the worker applies the command
    again (its key finds it recorded if it was) and records it done, never "failed" (the player would read "NOT
    recorded" of an answer that counts). Still dropping after ``APPLY_TRIES``, the claim rolls back: the command waits,
    unanswered, for the next claim."""
    import psycopg

    from app.queue import APPLY_TRIES

    store = await Store.open(database, shared=True)
    try:
        service, answer = await first_answer(store, "dropped-ack")
        queue = await queue_of(store)
        tries = 0

        async def committed_then_dropped(command: Answer) -> None:  # the commit went through; its answer was lost
            nonlocal tries
            tries += 1
            await service.answer(command)
            raise psycopg.OperationalError("server closed the connection unexpectedly")

        queue_id = await queue.enqueue(answer)
        assert await queue.apply_next(committed_then_dropped)
        assert tries == 2  # the second try found it recorded
        assert await queue.outcome(queue_id) == {"ok": True}
        assert [a.house for a in await store.answers(answer.game_id)] == [answer.house]

        async def always_dropped(command: Answer) -> None:
            raise psycopg.OperationalError("the server is gone")

        later = Answer(game_id=answer.game_id, house=answer.house, answer=answer.answer, by=answer.by, key="later")
        later_id = await queue.enqueue(later)
        with pytest.raises(psycopg.OperationalError):
            await queue.apply_next(always_dropped)
        assert await queue.outcome(later_id) is None  # not done: nobody was told anything
        assert await queue.apply_next(service.answer)  # the next claim applies it
        assert await queue.outcome(later_id) is not None
        assert APPLY_TRIES >= 2
    finally:
        await store.close()


async def test_an_outcome_announced_while_the_gateways_listener_was_away_is_read_when_it_listens_again(
    database: Path | str,
) -> None:
    """The gateway hears outcomes through LISTEN and reads the table only as a net (``OUTCOME_POLL_S``): an outcome
    announced while its listening connection was cut is lost, so each reconnection makes every waiter read its own
    once. The player hears of it then, not at the net's next look."""
    import psycopg

    from app.queue import OUTCOME_POLL_S
    from testing import postgres

    store = await Store.open(database, shared=True)
    try:
        service, answer = await first_answer(store, "while-away")
        queue = await queue_of(store)
        outcomes = Outcomes(queue)
        outcomes.start()
        try:
            schema = await queue.schema()
            await asyncio.sleep(0.5)  # listening
            waiting = asyncio.ensure_future(outcomes.submit(answer, timeout=60))
            while not await store.db.fetchone("SELECT 1 FROM command_queue"):
                await asyncio.sleep(0.01)
            with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
                cut = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE %s",
                    (f'%LISTEN "westeros_done_{schema_hash(schema)}"%',),
                ).fetchall()
            assert cut == [(True,)]
            assert await queue.apply_next(service.answer)  # announced while nobody listens
            await asyncio.wait_for(waiting, timeout=OUTCOME_POLL_S - 3)  # read at the reconnection, not by the net
            assert [a.house for a in await store.answers(answer.game_id)] == [answer.house]
        finally:
            await outcomes.stop()
    finally:
        await store.close()


def schema_hash(schema: str) -> str:
    import hashlib

    return hashlib.md5(schema.encode()).hexdigest()[:8]


async def test_one_claim_takes_the_waiting_commands_of_several_games_and_records_each_outcome_once(
    database: Path | str,
) -> None:
    """Scale-out that pays (issue X): the first commands of three games, waiting together, are taken by one claim and
    applied side by side; each outcome is its own (one is a refusal), announced once. A command that cannot be applied
    (its connection keeps dropping) rolls the whole claim back: nobody is told anything, and the next claim applies
    them again, the answers recorded the first time found by their keys and told as recorded."""
    import psycopg

    from app.listen import Listener
    from app.queue import DONE

    store = await Store.open(database, shared=True)
    announced: list[str] = []
    assert isinstance(store.db, PostgresDatabase)
    listener = Listener(store.db.url, DONE, announced.append)
    try:
        service = GameService(store)
        queue = await queue_of(store)
        commands = []
        for n, channel_id in enumerate((20, 21, 22)):
            game_id = await started_in(service, channel_id)
            prompt = (await service.load(game_id)).prompts()[0]
            seats = await store.seats(game_id)
            answer = prompt.default if n != 1 else {"orders": {}}  # the second game's: refused by the rules
            commands.append(Answer(game_id=game_id, house=prompt.house, answer=answer, by=seats[prompt.house],
                                   key=f"batch-{n}"))  # fmt: skip
        queued = [await queue.enqueue(command) for command in commands]
        listener.start()
        await asyncio.sleep(0.5)  # listening

        applied: list[str] = []
        taken: list[int] = []

        async def third_drops(command: Answer) -> None:
            applied.append(str(command.key))
            if command.key == "batch-2":
                raise psycopg.OperationalError("the server is gone")
            await service.answer(command)

        with pytest.raises(psycopg.OperationalError):
            await queue.apply_next(third_drops, most=8, on_claimed=taken.append)
        assert taken == [3]  # one claim took the three
        assert [await queue.outcome(queue_id) for queue_id in queued] == [None] * 3  # rolled back: nobody told
        first = await store.answers(commands[0].game_id)
        assert [a.house for a in first] == [commands[0].house]  # its commit stood: the key finds it below

        applied.clear()
        claimed = await queue.apply_next(service.answer, most=8)
        assert claimed is not None and claimed.queue_ids == tuple(queued)
        outcomes = [await queue.outcome(queue_id) for queue_id in queued]
        assert outcomes[0] == {"ok": True} and outcomes[2] == {"ok": True}
        assert outcomes[1] is not None and outcomes[1].get("refused") == "rule"
        assert [a.house for a in await store.answers(commands[0].game_id)] == [commands[0].house]  # once
        assert not await store.answers(commands[1].game_id)
        assert [a.house for a in await store.answers(commands[2].game_id)] == [commands[2].house]
        await asyncio.sleep(0.3)
        told = sorted(json.loads(payload)["id"] for payload in announced)
        assert told == sorted(queued)  # each announced once, by the claim that recorded it
        assert await queue.apply_next(service.answer, most=8) is None
    finally:
        await listener.stop()
        await store.close()


async def test_a_worker_claims_a_bursts_commands_several_at_a_time_within_its_slots(database: Path | str) -> None:
    """Scale-out that pays (issue X): six games' commands waiting for a worker of four slots are taken by two claims
    (four, then the two left once slots are free), not one claim each; each is applied once, and no more than four
    at a time."""
    from app.queue import Workers

    store = await Store.open(database, shared=True)
    workers: Workers | None = None
    try:
        service = GameService(store)
        queue = await queue_of(store)
        commands = await first_answers(service, range(30, 36), "slots")
        queued = [await queue.enqueue(command) for command in commands]
        at_once, most_at_once = 0, 0

        async def apply(command: Answer) -> None:
            nonlocal at_once, most_at_once
            at_once += 1
            most_at_once = max(most_at_once, at_once)
            try:
                await asyncio.sleep(0.2)  # the four applied side by side
                await service.answer(command)
            finally:
                at_once -= 1

        workers = Workers(queue, apply, slots=4, name="w")
        workers.start()
        assert await outcomes_within(queue, queued, 30) == [{"ok": True}] * 6
        assert workers.applied == 6 and most_at_once == 4
        await assert_each_answered_once(store, commands)
        # Two claims took them; a third may have looked after the second was applied (or the poll's look).
        assert workers.claims <= 4, workers.claims
    finally:
        if workers is not None:
            await workers.stop()
        await store.close()


async def test_claims_open_at_once_are_capped_so_the_smallest_pool_still_applies_them(database: Path | str) -> None:
    """Scale-out that pays (issue X): a worker's claim holds a pooled connection while its commands are applied, and
    applying needs connections of the same pool. Commands arriving one at a time, each claimed alone, once took a
    connection each: a pool of ``CLAIMS_AT_ONCE + 1`` held entirely by claims left their commands no connection, and
    nothing moved until the pool's timeout. The worker keeps at most ``CLAIMS_AT_ONCE`` claims open, so the one
    connection left applies them all, each once; and a worker's pool is sized from its slots with room for both."""
    from app.queue import CLAIMS_AT_ONCE, Workers, worker_connections

    assert worker_connections(8) == 5 and worker_connections(1) == CLAIMS_AT_ONCE + 2
    assert worker_connections(32) == CLAIMS_AT_ONCE + 9
    store = await Store.open(database, shared=True, connections=CLAIMS_AT_ONCE + 1)
    workers: Workers | None = None
    try:
        service = GameService(store)
        queue = await queue_of(store)
        commands = await first_answers(service, range(60, 66), "capped")
        claims_open, most_claims_open = 0, 0
        real_apply_next = queue.apply_next

        async def counted_apply_next(*args: Any, **kwargs: Any) -> Any:
            nonlocal claims_open, most_claims_open
            claims_open += 1
            most_claims_open = max(most_claims_open, claims_open)
            try:
                return await real_apply_next(*args, **kwargs)
            finally:
                claims_open -= 1

        queue.apply_next = counted_apply_next  # type: ignore[method-assign]

        async def apply(command: Answer) -> None:
            await asyncio.sleep(0.3)  # still applying when the next command arrives: its claim is another
            await service.answer(command)  # statements of its own, on the pool the claims hold connections of

        workers = Workers(queue, apply, slots=6, name="w")
        workers.start()
        queued = []
        for command in commands:  # one at a time, each claimed alone while the earlier ones are applied
            queued.append(await queue.enqueue(command, for_worker="w"))
            await asyncio.sleep(0.08)
        # The pool's timeout is 30 s: a pool held by claims would not be done within 20.
        assert await outcomes_within(queue, queued, 20) == [{"ok": True}] * 6
        assert most_claims_open == CLAIMS_AT_ONCE, most_claims_open  # the cap was reached, never passed
        await assert_each_answered_once(store, commands)
    finally:
        if workers is not None:
            await workers.stop()
        await store.close()


async def test_a_busy_workers_wake_ups_a_moment_apart_share_one_claim(database: Path | str) -> None:
    """Scale-out that pays (issue X): while a worker applies a command, the next commands of a burst arrive a few
    milliseconds apart, each with its wake-up; the worker waits ``GATHER_S`` after the first and claims them together,
    where it made a claim per wake-up. (An idle worker claims at once: the first command below is claimed alone.)"""
    from app.queue import Workers

    store = await Store.open(database, shared=True)
    workers: Workers | None = None
    try:
        service = GameService(store)
        queue = await queue_of(store)
        commands = await first_answers(service, range(50, 54), "gather")
        first_applying, release = asyncio.Event(), asyncio.Event()

        async def apply(command: Answer) -> None:
            if command.key == commands[0].key:
                first_applying.set()
                await release.wait()  # the worker stays busy with it
            await service.answer(command)

        workers = Workers(queue, apply, slots=4, name="w")
        workers.start()
        await asyncio.sleep(0.6)  # its first looks (and a poll's) found nothing
        queued = [await queue.enqueue(commands[0])]
        await asyncio.wait_for(first_applying.wait(), timeout=10)
        claims_before = workers.claims
        for command in commands[1:]:  # a burst: three wake-ups, a moment apart
            queued.append(await queue.enqueue(command))
        loop = asyncio.get_running_loop()
        until = loop.time() + 10
        while any([await queue.outcome(q) is None for q in queued[1:]]) and loop.time() < until:
            await asyncio.sleep(0.01)
        assert [await queue.outcome(q) for q in queued[1:]] == [{"ok": True}] * 3
        assert workers.claims - claims_before <= 2, workers.claims - claims_before  # one, or two if the host stalled
        release.set()
        while await queue.outcome(queued[0]) is None and loop.time() < until:
            await asyncio.sleep(0.01)
        assert await queue.outcome(queued[0]) == {"ok": True}
        await assert_each_answered_once(store, commands)
    finally:
        if workers is not None:
            await workers.stop()
        await store.close()


async def test_answers_given_at_once_share_one_enqueueing_statement_each_with_its_own_id(
    database: Path | str,
) -> None:
    """Scale-out that pays (issue X): the gateway's answers of a burst, given at once (or while an enqueueing
    statement is under way), go together in the next statement (one commit) where each took its own; each caller gets
    its own command's id, two answers of one game keep the order they were given, and a lone answer goes at once. A
    command that cannot be queued (its game is gone) refuses no other: the batch is then queued one by one."""
    store = await Store.open(database, shared=True)
    try:
        service = GameService(store)
        queue = await queue_of(store)
        commands = await first_answers(service, range(40, 45), "together")
        game = await service.load(commands[0].game_id)
        other = next(p for p in game.prompts() if p.house != commands[0].house)
        seats = await store.seats(commands[0].game_id)
        same_game = Answer(game_id=commands[0].game_id, house=other.house, answer=other.default,
                           by=seats[other.house], key="together-second")  # fmt: skip
        given = [*commands, same_game]
        queued = [await queue.enqueue(commands[0])]  # alone: at once
        assert queue.enqueued.batches == 1
        queued += await asyncio.gather(*(queue.enqueue(command) for command in given[1:]))
        assert queue.enqueued.batches == 2  # the five given at once in one
        assert len(set(queued)) == len(given)
        for command, queue_id in zip(given, queued, strict=True):
            row = await store.db.fetchone("SELECT payload FROM command_queue WHERE id = ?", (queue_id,))
            assert row is not None and json.loads(str(row[0]))["key"] == command.key
        assert queued[0] < queued[-1]  # the game's first answer is applied first
        for _ in given:
            assert await queue.apply_next(service.answer)
        assert [await queue.outcome(queue_id) for queue_id in queued] == [{"ok": True}] * len(given)
        assert sorted(a.house for a in await store.answers(commands[0].game_id)) == sorted(
            [commands[0].house, other.house]
        )

        # A game deleted meanwhile: its command cannot be queued, and the others given with it are.
        gone = Answer(game_id=10**9, house=commands[1].house, answer=commands[1].answer, by=1, key="together-gone")
        late = [Answer(game_id=c.game_id, house=c.house, answer=c.answer, by=c.by, key=f"{c.key}-late")
                for c in commands[1:4]]  # fmt: skip
        before = queue.enqueued.batches
        results = await asyncio.gather(
            *(queue.enqueue(command) for command in [late[0], gone, late[1], late[2]]), return_exceptions=True
        )
        assert isinstance(results[1], Exception) and "command_queue" in str(results[1])
        assert all(isinstance(result, int) for i, result in enumerate(results) if i != 1)
        assert queue.enqueued.batches == before + 1 + 4  # the four together (failed), then each alone
        for command, late_id in zip(late, [results[0], results[2], results[3]], strict=True):
            row = await store.db.fetchone("SELECT payload FROM command_queue WHERE id = ?", (late_id,))
            assert row is not None and json.loads(str(row[0]))["key"] == command.key
    finally:
        await store.close()


async def test_a_batch_of_commands_is_stored_exactly_as_given_whatever_its_text_holds(database: Path | str) -> None:
    """The enqueueing statement carries its batch as one JSON document (issue X: psycopg's escaping of text arrays was
    most of a gateway's enqueueing CPU): each command's payload, its reply, its time and its worker come back exactly
    as given, quotes, backslashes, line breaks and letters beyond ASCII included, in the order given."""
    store = await Store.open(database, shared=True)
    try:
        service = GameService(store)
        queue = await queue_of(store)
        commands = await first_answers(service, range(60, 63), "exact")
        awkward = 'a "quoted" word, a \\ backslash, a \\" pair,\nтри строки\tи ✓ {"json": [1, 2]}'
        given = [
            Answer(game_id=c.game_id, house=c.house, answer=c.answer, by=c.by, key=f"{c.key}-{awkward}")
            for c in commands
        ]
        replies = [
            ReplyTo(
                application_id=1,
                token=f'tok"en\\{n}',
                expires_at=1e9 + 0.123456789 * n,
                user_id=n,
                locale="ru",
                receipt=awkward,
            )
            for n in range(len(given))
        ]
        queued = await asyncio.gather(
            *(
                queue.enqueue(command, gateway=f'gate"way-{n}', reply=reply, for_worker=None if n else "w\\1")
                for n, (command, reply) in enumerate(zip(given, replies, strict=True))
            )
        )
        assert queue.enqueued.batches == 1  # given at once: one statement, one document
        for n, (command, reply, queue_id) in enumerate(zip(given, replies, queued, strict=True)):
            row = await store.db.fetchone(
                "SELECT payload, reply, gateway, for_worker, enqueued_at, game_id FROM command_queue WHERE id = ?",
                (queue_id,),
            )
            assert row is not None
            assert str(row[0]) == payload_of(command) and command_of(str(row[0])).key == command.key
            assert ReplyTo.of_json(str(row[1])) == reply
            assert row[2] == f'gate"way-{n}' and row[3] == (None if n else "w\\1")
            assert int(row[5]) == command.game_id
        assert queued == sorted(queued)  # in the order given
    finally:
        await store.close()
