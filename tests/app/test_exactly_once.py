"""Exactly once, whatever fails (issue X), on the real SQLite and PostgreSQL stores with a real scheduler: a command
retried after its commit is answered from the record before any rule check and does what its first application left
undone; the next step's deadline is written in the commit that opens the step; a deadline firer that dies between two
defaults leaves nothing half told; a game whose state no longer loads is quarantined and stops nothing else.

The same faults with real processes killed at chosen statements are in ``tests/bot/test_crash_points.py``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.commands import Answer, Import
from app.deadlines import Deadlines, deadline_step, step_key
from app.notices import from_payload, notice_text
from app.service import GameService, ServiceError
from tests.app.test_deadlines import env, new_running_game

__all__ = ["env"]  # the deadlines' set-up (a store on each database, a running scheduler), shared as a fixture


async def answer_all_but_last(service: GameService, game_id: int) -> tuple[str, Any, str]:
    """Every house's default orders but the last house's; returns the last house, its answer and prompt id."""
    game = await service.load(game_id)
    seats = await service.store.seats(game_id)
    prompts = list(game.prompts())
    for prompt in prompts[:-1]:
        await service.execute(
            Answer(
                game_id=game_id,
                house=prompt.house,
                answer=prompt.default,
                by=seats[prompt.house],
                key=f"k-{prompt.house}",
            )
        )
    last = prompts[-1]
    return last.house, last.default, last.id


async def test_a_retried_answer_that_completed_a_step_is_told_done_and_the_new_step_has_its_deadline(env) -> None:  # type: ignore[no-untyped-def]
    """Fault 1: the answer completing the planning step is committed, then its process dies before anything else.
    The retry (another process: a fresh service on the same database) finds the key before any rule check: it is
    told "already done", not "Nothing is asked of you now", and the new step already had its deadline from the
    commit itself."""
    store, scheduler = env
    first = GameService(store)
    # Its deadlines are another service's on the same store: this one has no listener at all, as if it died right
    # after its commit (the listeners are what used to arm the next deadline).
    first.clock = Deadlines(GameService(store), scheduler)
    game_id = await new_running_game(first)
    house, answer, _ = await answer_all_but_last(first, game_id)
    seats = await store.seats(game_id)
    before = (await store.game(game_id)).version  # type: ignore[union-attr]
    command = Answer(game_id=game_id, house=house, answer=answer, by=seats[house], key="the-last-answer")
    await first.execute(command)
    after = await first.load(game_id)
    assert after.version > before and after.state.orders_revealed
    row = await store.game(game_id)
    assert row is not None
    deadline = await store.db.fetchone("SELECT step_key FROM deadlines WHERE game_id = ?", (game_id,))
    assert deadline is not None and deadline[0] == step_key(after), "the new step's deadline is in the commit"

    # The retry, in another process.
    store.forget(game_id)
    retry_service = GameService(store)
    Deadlines(retry_service, scheduler)
    with pytest.raises(ServiceError) as refused:
        await retry_service.execute(command)
    assert refused.value.code == "already-done"
    assert [a.version for a in await store.answers(game_id) if a.house == house and a.source == "player"] == [
        row.version
    ]


async def test_a_retry_the_new_position_would_accept_is_told_done_and_stores_nothing(env) -> None:  # type: ignore[no-untyped-def]
    """The record is read only when a command does not simply commit: a retry of committed orders, which the rules
    would take again (orders may change until every house has given them), is refused by the commit's unique key and
    told "already done"; the log holds the orders once, and a new command of the same house still commits."""
    store, scheduler = env
    service = GameService(store)
    Deadlines(service, scheduler)
    game_id = await new_running_game(service)
    game = await service.load(game_id)
    prompt = game.prompts()[0]
    seats = await store.seats(game_id)
    command = Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house], key="orders-1")
    await service.execute(command)
    version = (await service.load(game_id)).version
    assert (await service.load(game_id)).prompt_for(prompt.house) is not None, "the orders can still change"

    retry_service = GameService(store)  # another process's retry: its cache is not the first one's
    Deadlines(retry_service, scheduler)
    store.forget(game_id)
    with pytest.raises(ServiceError) as refused:
        await retry_service.execute(command)
    assert refused.value.code == "already-done"
    assert (await service.load(game_id)).version == version
    assert [a.prompt_id for a in await store.answers(game_id) if a.house == prompt.house] == [prompt.id]
    await retry_service.execute(replace(command, key="orders-2"))  # the failed commit left nothing in the way
    assert (await service.load(game_id)).version == version + 1


async def test_a_retry_finishes_what_a_crash_skipped_the_stale_deadline_rearms(env) -> None:  # type: ignore[no-untyped-def]
    """A game left by a crash with a deadline row of a step that is over (from before deadlines were part of the
    commit) is healed: the retry of the command re-arms it, and so does that deadline when it falls due."""
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service)
    await deadlines.arm(game_id)
    stale = await store.db.fetchone("SELECT step_key FROM deadlines WHERE game_id = ?", (game_id,))
    house, answer, _ = await answer_all_but_last(service, game_id)
    seats = await store.seats(game_id)
    await service.execute(Answer(game_id=game_id, house=house, answer=answer, by=seats[house], key="k-last"))
    # As a crash under the old code left it: the step is over, its deadline row still names it.
    assert stale is not None
    await store.write("UPDATE deadlines SET step_key = ? WHERE game_id = ?", (stale[0], game_id))
    store.deadline_cache.pop(game_id, None)
    # The stale deadline falls due: it answers nothing and arms the open step instead.
    assert await deadlines.fire(game_id, str(stale[0])) == []
    now = await store.db.fetchone("SELECT step_key FROM deadlines WHERE game_id = ?", (game_id,))
    assert now is not None and now[0] == step_key(await service.load(game_id))


async def test_a_deadline_firer_that_died_after_its_first_default_leaves_no_house_out(env) -> None:  # type: ignore[no-untyped-def]
    """Fault 10: the firer's first default reached the database, then it died (its claim's lease ran out). The next
    firer answers the others; every house is defaulted once, every player's missed deadline is recorded once, and the
    channel's one line of news names every house."""
    store, scheduler = env
    service = GameService(store)
    deadlines = Deadlines(service, scheduler)
    game_id = await new_running_game(service)
    row = await deadlines.arm(game_id)
    assert row is not None
    game = await service.load(game_id)
    prompts = list(game.prompts())
    step = deadline_step(row.step_key)
    # What the dead firer did: its first default, with its missed deadline, and nothing more.
    first = prompts[0]
    await service.execute(
        Answer(
            game_id=game_id,
            house=first.house,
            answer=first.default,
            prompt_id=first.id,
            source="deadline",  # type: ignore[arg-type]
            only_if_unanswered=True,
            key=f"deadline:{step}:{first.house}",
            missed_by=first.house,
        )
    )
    answered = await deadlines.fire(game_id, row.step_key)
    assert sorted(answered) == sorted(p.house for p in prompts[1:])
    log = [a for a in await store.answers(game_id) if a.source == "deadline"]
    assert sorted(a.house for a in log) == sorted(p.house for p in prompts)
    missed = dict(await store.db.fetchall("SELECT house, in_a_row FROM missed_deadlines WHERE game_id = ?", (game_id,)))
    assert missed == {p.house: 1 for p in prompts}
    news = [n.payload for n in await store.notices(game_id) if n.payload["type"] == "deadline-passed"]
    assert len(news) == 1 and sorted(news[0]["houses"]) == sorted(p.house for p in prompts)
    # Firing the same step again (a third process) changes nothing.
    assert await deadlines.fire(game_id, row.step_key) == []
    assert len(await store.notices(game_id)) == len(await store.notices(game_id))


async def test_a_game_whose_state_no_longer_loads_is_quarantined_and_stops_nothing_else(env) -> None:  # type: ignore[no-untyped-def]
    """Faults 8 and 9: one game's stored state is broken by hand. A process starting (``restore``) quarantines it,
    tells its channel once, and arms every other game; a player's answer to it is refused with the reason in words;
    a moderator's import of a repaired position brings it back."""
    store, scheduler = env
    service = GameService(store)
    Deadlines(service, scheduler)
    broken = await new_running_game(service, channel=1)
    healthy = await new_running_game(service, channel=2)
    await store.write("UPDATE games SET state = ? WHERE id = ?", ('{"version": 3}', broken))
    await store.write("DELETE FROM deadlines")
    store.forget(broken)

    # A new process starts: it must not fail, and the healthy game gets its deadline.
    fresh = GameService(store)
    restarted = Deadlines(fresh, scheduler)
    await restarted.restore(sweep_every=None)
    assert await store.db.fetchone("SELECT 1 FROM deadlines WHERE game_id = ?", (healthy,)) is not None
    assert await store.db.fetchone("SELECT 1 FROM deadlines WHERE game_id = ?", (broken,)) is None
    reason = await store.db.fetchone("SELECT broken_reason FROM games WHERE id = ?", (broken,))
    assert reason is not None and "KeyError" in str(reason[0])
    told = [n for n in await store.notices(broken) if n.payload["type"] == "game-broken"]
    assert len(told) == 1
    for lang in ("en", "ru"):
        text = notice_text(from_payload(told[0].payload), lang)
        assert "/mod import" in text and "KeyError" in text and "{" not in text
    # A second start tells nobody again; the quarantined game is left out of what is active.
    await Deadlines(GameService(store), scheduler).restore(sweep_every=None)
    assert len([n for n in await store.notices(broken) if n.payload["type"] == "game-broken"]) == 1
    assert [g.id for g in await store.active_games()] == [healthy]

    # Its player is refused in words; the healthy game plays on.
    seats = await store.seats(broken)
    house = sorted(seats)[0]
    with pytest.raises(ServiceError) as refused:
        await fresh.execute(Answer(game_id=broken, house=house, answer=None, by=seats[house], key="x1"))
    assert refused.value.code == "game-broken"
    healthy_game = await fresh.load(healthy)
    prompt = healthy_game.prompts()[0]
    healthy_seats = await store.seats(healthy)
    await fresh.execute(
        Answer(game_id=healthy, house=prompt.house, answer=prompt.default, by=healthy_seats[prompt.house], key="h1")
    )

    # A moderator exports it as it is stored, then imports a repaired position: the game is back, with its seats and
    # a deadline.
    stored_version = (await store.game(broken)).version  # type: ignore[union-attr]
    exported = await fresh.export(broken, by=999)
    assert exported["state"] == {"version": 3}
    applied = await fresh.execute(Import(game_id=broken, by=999, key="repair", spec={}))
    assert applied.game.version == stored_version + 1
    assert (await store.db.fetchone("SELECT broken_reason FROM games WHERE id = ?", (broken,))) == (None,)
    assert await store.seats(broken) == seats
    assert await store.db.fetchone("SELECT 1 FROM deadlines WHERE game_id = ?", (broken,)) is not None


async def test_a_version_published_on_its_retry_leaves_the_outbox(env) -> None:  # type: ignore[no-untyped-def]
    """Fault 6: a publication that failed is marked for a retry; once the retry is out, its row goes (it stayed
    forever), while an earlier version still waiting for its own retry stays."""
    store, _ = env
    service = GameService(store)
    game_id = await new_running_game(service)
    started = (await store.game(game_id)).version  # type: ignore[union-attr]
    game = await service.load(game_id)
    prompt = game.prompts()[0]
    seats = await store.seats(game_id)
    await service.execute(
        Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house], key="a1")
    )
    await store.published_part(game_id, started, "retry")
    await store.published_part(game_id, started + 1, "retry")
    await store.published(game_id, started + 1)
    left = await store.db.fetchall("SELECT version FROM outbox WHERE game_id = ? ORDER BY version", (game_id,))
    assert [int(r[0]) for r in left] == [started]  # the earlier one waits for its own retry
    await store.published(game_id, started)
    assert await store.db.fetchall("SELECT version FROM outbox WHERE game_id = ?", (game_id,)) == []


async def test_a_version_that_met_a_lost_database_is_not_taken_out_by_a_later_ones_publication(env) -> None:  # type: ignore[no-untyped-def]
    """Fault 6: a publication that lost its database connection is no try of its own (``again``, not ``retry``): the
    next version of its game, published meanwhile, leaves its row, which goes with its own publication."""
    store, _ = env
    service = GameService(store)
    game_id = await new_running_game(service)
    started = (await store.game(game_id)).version  # type: ignore[union-attr]
    game = await service.load(game_id)
    prompt = game.prompts()[0]
    seats = await store.seats(game_id)
    await service.execute(
        Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house], key="a1")
    )
    await store.published_part(game_id, started, "again")
    await store.published(game_id, started + 1)
    left = await store.db.fetchall("SELECT version, sent FROM outbox WHERE game_id = ?", (game_id,))
    assert [(int(r[0]), str(r[1]).split(",")[-1]) for r in left] == [(started, "again")]
    await store.published(game_id, started)
    assert await store.db.fetchall("SELECT version FROM outbox WHERE game_id = ?", (game_id,)) == []


async def test_a_publication_ends_as_one_commit_of_its_rows_its_marks_and_the_status_due(env) -> None:  # type: ignore[no-untyped-def]
    """What ``published`` and ``channel_done`` leave, the same on both stores (PostgreSQL says it in one statement
    each, where a transaction took five and four round trips): the publication's own row goes with the earlier ones
    but one waiting for its retry, the marks of the rows that went go with them and no others, the status is due for
    its version; the channel part is marked on its own row, with the layout it leaves, or alone when it left none."""
    store, _ = env
    service = GameService(store)
    game_id = await new_running_game(service)
    started = (await store.game(game_id)).version  # type: ignore[union-attr]
    for n in range(2):
        game = await service.load(game_id)
        prompt = next(p for p in game.prompts() if not p.answered)
        seats = await store.seats(game_id)
        await service.execute(
            Answer(game_id=game_id, house=prompt.house, answer=prompt.default, by=seats[prompt.house], key=f"p{n}")
        )
    rows = await store.db.fetchall(
        "SELECT version, created_at FROM outbox WHERE game_id = ? ORDER BY version", (game_id,)
    )
    written = {int(r[0]): float(r[1]) for r in rows}
    assert sorted(written) == [started, started + 1, started + 2]
    for version in written:
        await store.sent_message(game_id, version, "step", "dm:Stark", 100 + version, written_at=written[version])
    await store.published_part(game_id, started, "retry")  # the start's publication failed: it waits for its retry

    await store.channel_done(game_id, started + 1, "step", None, written_at=written[started + 1])
    await store.channel_done(game_id, started + 2, "step", '{"layout": 2}', written_at=written[started + 2])
    await store.channel_done(game_id, started + 2, "step", '{"layout": 3}', written_at=written[started + 2] + 1)
    assert await store.channel_layout(game_id) == '{"layout": 3}'  # the channel's, whichever publication left it
    sent = await store.db.fetchall("SELECT version, sent FROM outbox WHERE game_id = ? ORDER BY version", (game_id,))
    assert [(int(r[0]), str(r[1]).split(",").count("channel")) for r in sent] == [
        (started, 0), (started + 1, 1), (started + 2, 1),  # another row's time marks nothing
    ]  # fmt: skip

    await store.published(game_id, started + 1, written_at=written[started + 1])
    left = await store.db.fetchall("SELECT version FROM outbox WHERE game_id = ? ORDER BY version", (game_id,))
    assert [int(r[0]) for r in left] == [started, started + 2]
    marks = await store.db.fetchall(
        "SELECT version, message_id FROM outbox_sends WHERE game_id = ? ORDER BY version", (game_id,)
    )
    assert [(int(r[0]), int(r[1])) for r in marks] == [(started, 100 + started), (started + 2, 102 + started)]
    assert await store.status_shown(game_id) == (None, started + 1)

    await store.published(game_id, started + 2, written_at=written[started + 2])
    assert [int(r[0]) for r in await store.db.fetchall("SELECT version FROM outbox WHERE game_id = ?", (game_id,))] == [
        started
    ]
    marks = await store.db.fetchall("SELECT version FROM outbox_sends WHERE game_id = ?", (game_id,))
    assert [int(r[0]) for r in marks] == [started]
    assert await store.status_shown(game_id) == (None, started + 2)
