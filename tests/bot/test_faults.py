"""Faults: a failing database, Discord rate limits and server errors. Nothing acknowledged is lost."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from cogs.play import Play
from testing.forms import form_control
from tests.bot.conftest import Table
from tests.bot.test_lobby_and_orders import start_game


async def open_and_submit(table: Table, player, game_id: int, house: str) -> list[str]:  # type: ignore[no-untyped-def]
    fake = table.fake
    opened = await fake.slash(player, table.channel, "decide")
    form = await opened.wait_response(timeout=10)
    submitted = await fake.click(player, form, form_control(form, game_id, house))
    await submitted.wait_reply(timeout=10)  # the form turned into a receipt, or a followup says what went wrong
    await fake.wait_idle(timeout=10)
    return [m.text() for m in [submitted.response, *submitted.followups] if m is not None]


async def test_a_failing_database_records_nothing_and_says_so(table: Table) -> None:
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    house, user = next(iter(seats.items()))
    player = next(p for p in table.players if p.id == user)
    before = (await table.service.load(game_id)).to_json()
    # A real database failure: every write is refused (SQLite's query_only, PostgreSQL's read-only transactions).
    await table.service.store.db.set_read_only(True)
    replies = await open_and_submit(table, player, game_id, house)
    assert any("NOT recorded" in r for r in replies), replies
    assert not any("Recorded:" in r for r in replies)
    await table.service.store.db.set_read_only(False)
    assert (await table.service.load(game_id)).to_json() == before
    assert await table.service.store.answers(game_id) == []
    # Once the disk is back, the same button works.
    replies = await open_and_submit(table, player, game_id, house)
    assert any("Recorded" in r for r in replies), replies
    assert [a.house for a in await table.service.store.answers(game_id)] == [house]


async def test_rate_limited_dms_still_arrive(table: Table) -> None:
    fake = table.fake
    rule = fake.faults.rate_limit("POST /channels/{channel_id}/messages", times=3, retry_after=0.05)
    mark = fake.mark()
    game_id = await start_game(table, 3)
    for player in table.players[:3]:
        dm = await fake.wait_for_dm(player, since=mark, timeout=10)
        assert f"dec:{game_id}:" in str(dm.components) and dm.text().count("Orders") >= 1  # the form came
    assert rule.remaining == 0  # the 429s were served and discord.py retried
    assert fake.failed_interactions == []


async def test_a_server_error_on_an_interaction_reply_is_retried(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    house, user = next(iter(seats.items()))
    player = next(p for p in table.players if p.id == user)
    # The decision form is sent as a followup (POST /webhooks/...): that request fails once with a 500.
    rule = fake.faults.server_error("POST /webhooks/{webhook_id}/{webhook_token}", times=1)
    replies = await open_and_submit(table, player, game_id, house)
    assert rule.hits == 1
    assert any("Recorded" in r for r in replies), replies
    assert [a.house for a in await table.service.store.answers(game_id)] == [house]


async def test_closed_dms_are_remembered_and_the_player_answers_in_the_channel(table: Table) -> None:
    """Discord's 403/50007: ping in the game channel instead, stop trying DMs, answer ephemerally there."""
    fake = table.fake
    table.players[1].user.dms_closed = True
    game_id = await start_game(table, 3)
    closed = table.players[1]
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    house = seats[closed.id]
    ping = await fake.wait_for_message(
        lambda m: f"<@{closed.id}>" in m.content and "DMs are closed" in m.content, channel=table.channel, timeout=10
    )
    assert await table.service.store.dm_closed(closed.id)
    refused_dms = fake.requests.count("POST /channels/{channel_id}/messages", status=403)
    assert refused_dms == 1
    opened = await fake.click(closed, ping, f"decide:{game_id}:{house}")
    form = await opened.wait_response(timeout=10)
    assert form.flags & 64  # ephemeral: only this player sees the form in the channel
    submitted = await fake.click(closed, form, form_control(form, game_id, house))
    await submitted.wait_reply()
    await fake.wait_idle()
    assert any("Recorded" in m.text() for m in [submitted.response, *submitted.followups] if m is not None)
    # The other two answer; the next decision (the Raven, if it is this player's) never retries the closed DM.
    for p in table.players[:3]:
        if p.id != closed.id:
            await open_and_submit(table, p, game_id, seats[p.id])
    await fake.wait_idle()
    assert fake.requests.count("POST /channels/{channel_id}/messages", status=403) == refused_dms


async def six_forms(table: Table, game_id: int) -> list[tuple[object, object, str]]:
    """Every player's open decision form: (player, form message, house)."""
    seats = {u: h for h, u in (await table.service.store.seats(game_id)).items()}
    out = []
    for player in table.players:
        form = await (await table.fake.slash(player, table.channel, "decide")).wait_response(timeout=10)
        out.append((player, form, seats[player.id]))
    await table.fake.wait_idle()
    return out


def player_answers(answers: list) -> dict[str, int]:  # type: ignore[type-arg]
    counts: dict[str, int] = {}
    for a in answers:
        if a.source == "player":
            counts[a.house] = counts.get(a.house, 0) + 1
    return counts


async def test_a_gateway_disconnect_mid_burst_loses_no_answer_and_applies_none_twice(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 6)
    forms = await six_forms(table, game_id)
    resumes, identifies = fake.gateway.resume_count, fake.gateway.identify_count
    clicks = []
    for index, (player, form, house) in enumerate(forms):
        if index == 3:
            await fake.disconnect_bot()  # the gateway drops; the next clicks wait in Discord's buffer for RESUME
        clicks.append(await fake.click(player, form, form_control(form, game_id, house), wait=False))
    for click in clicks:
        replies = await click.wait_reply(timeout=15)
        assert any("Recorded" in m.text() for m in replies), [m.text() for m in replies]
    await fake.wait_idle()
    assert fake.gateway.resume_count == resumes + 1 and fake.gateway.identify_count == identifies  # resumed
    assert player_answers(await table.service.store.answers(game_id)) == {house: 1 for _, _, house in forms}
    assert fake.failed_interactions == []


async def test_a_run_of_server_errors_loses_no_answer_and_applies_none_twice(table: Table) -> None:
    fake = table.fake
    game_id = await start_game(table, 6)
    forms = await six_forms(table, game_id)
    rules = [
        fake.faults.server_error("POST /interactions/{webhook_id}/{webhook_token}/callback", times=2),
        fake.faults.server_error("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", times=2),
        fake.faults.server_error("POST /webhooks/{webhook_id}/{webhook_token}", times=2),
        fake.faults.server_error("POST /channels/{channel_id}/messages", times=2),
    ]
    clicks = [
        await fake.click(player, form, form_control(form, game_id, house), wait=False) for player, form, house in forms
    ]
    for click in clicks:
        replies = await click.wait_reply(timeout=20)
        assert any("Recorded" in m.text() for m in replies), [m.text() for m in replies]
    await fake.wait_idle(timeout=20)
    assert all(rule.hits >= 1 for rule in rules[:2]), [(r.matcher, r.hits) for r in rules]
    assert player_answers(await table.service.store.answers(game_id)) == {house: 1 for _, _, house in forms}
    await fake.wait_until(lambda: any("Orders are revealed" in m.content for m in fake.transcript), timeout=20)
    assert fake.failed_interactions == []


async def reveal_through(table: Table, arm: Callable[[], object]) -> None:
    """A game's planning step completed with ``arm()``'s fault set just before the last answer, the one process's
    publisher trying again half a second after a failure: the reveal is posted once, the next decisions' DMs go out
    once each, and the outbox empties, all while the bot runs (what failed waited for its next start-up)."""
    fake = table.fake
    table.bot.play.publisher.retry_after = 0.5
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    players = {house: next(p for p in table.players if p.id == user) for house, user in seats.items()}
    for player in players.values():  # the start's DMs are out before the fault is set (a loaded machine sent late)
        await fake.wait_for_dm(player, timeout=30)
    houses = sorted(players)
    for house in houses[:-1]:
        assert any("Recorded" in r for r in await open_and_submit(table, players[house], game_id, house))
    await table.bot.play.publisher.settled()
    await fake.wait_idle(quiet=0.5, timeout=30)
    before = {house: len(fake.dm_messages(player)) for house, player in players.items()}
    arm()
    assert any("Recorded" in r for r in await open_and_submit(table, players[houses[-1]], game_id, houses[-1]))
    for _ in range(300):  # the outbox empties
        if await table.service.store.db.fetchone("SELECT 1 FROM outbox") is None:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the outbox kept what failed")
    await fake.wait_idle(quiet=1.0, timeout=30)
    channel = [m.content for m in fake.messages_in(table.channel)]
    assert sum("Orders are revealed" in text for text in channel) == 1, channel
    game = await table.service.load(game_id)
    awaited = {p.house for p in game.prompts() if not p.answered}
    assert awaited
    for house, player in players.items():
        assert len(fake.dm_messages(player)) - before[house] == (1 if house in awaited else 0), house
    assert fake.internal_errors == []


async def test_X_a_publication_discord_refused_once_goes_again_while_the_bot_runs(table: Table) -> None:
    """A reveal Discord refused (a 400): the publication is tried once more half a second later, not at the next
    start-up, and that try sends it all."""
    rule: list[Any] = []
    await reveal_through(
        table,
        lambda: rule.append(
            table.fake.faults.error(
                "POST /channels/{channel_id}/messages", status=400, code=50035, message="Invalid Form Body"
            )
        ),
    )
    assert rule[0].remaining == 0


async def test_X_a_discord_out_of_reach_is_no_try_of_the_publication(table: Table) -> None:
    """Discord unavailable (503) at the reveal and again at its next try: neither is a try of the publication (the
    second would have been its last, and the rest of its sends dropped); the third sends it all."""
    rule: list[Any] = []
    await reveal_through(
        table,
        lambda: rule.append(
            table.fake.faults.server_error("POST /channels/{channel_id}/messages", times=2, status=503)
        ),
    )
    assert rule[0].remaining == 0


async def test_X_a_quiet_version_that_failed_once_leaves_the_outbox_at_its_next_try(table: Table) -> None:
    """A secret step (one house's orders) tells nothing, so its row waits for the game's next version, which takes
    it out. One whose publication met an unreachable database or Discord is marked ``again``, which that next
    version leaves: its own next try takes it out, quiet as it is, or it would stay in the outbox for good."""
    fake = table.fake
    game_id = await start_game(table, 3)
    seats = await table.service.store.seats(game_id)
    house, user = sorted(seats.items())[0]
    player = next(p for p in table.players if p.id == user)
    assert any("Recorded" in r for r in await open_and_submit(table, player, game_id, house))
    await table.bot.play.publisher.settled()
    quiet = (await table.service.row(game_id)).version
    store = table.service.store
    assert await store.db.fetchone("SELECT 1 FROM outbox WHERE version = ?", (quiet,)) is not None
    await store.published_part(game_id, quiet, "again")  # what the failed try left
    await table.bot.play.publisher.drain(at_start=False, failed_only=True)
    await table.bot.play.publisher.settled()
    assert await store.db.fetchone("SELECT 1 FROM outbox WHERE version = ?", (quiet,)) is None
    await fake.wait_idle(quiet=0.5, timeout=10)
    assert fake.internal_errors == []


async def test_X_a_failed_publication_is_marked_once_the_database_is_back(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord unavailable at the reveal, and the database away when its row is marked to go again (its first two
    tries): the mark waits for the database, the game's later publications behind it, rather than leave the row
    unmarked (the next version's publication would take it out, the one process's retry would not see it)."""
    service = table.service
    real = service.published_part
    refused: list[str] = []

    async def away_twice(applied: Any, part: str, *, written_at: float | None = None) -> None:
        if len(refused) < 2:  # the database cannot be reached: what psycopg raises for a dropped connection
            refused.append(part)
            raise psycopg.OperationalError("the connection is lost")
        await real(applied, part, written_at=written_at)

    def arm() -> None:
        table.fake.faults.server_error("POST /channels/{channel_id}/messages", times=1, status=503)
        monkeypatch.setattr(service, "published_part", away_twice)

    await reveal_through(table, arm)
    assert refused == ["again", "again"]


async def test_X_only_the_publishing_process_tries_again_what_failed(table: Table) -> None:
    """A gateway's publisher, or a worker's before it holds the publish lock, never drains the outbox on its own
    (it would send beside the worker holding the lease): what failed is the publishing worker's, at its next drain."""
    gateway_side = Play(table.bot, table.service, publishing=False).publisher
    assert gateway_side.retry_after is None
    gateway_side.retry_later()
    assert gateway_side.retrying is None
    assert table.bot.play.publisher.retry_after is not None  # the one process does
