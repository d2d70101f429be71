"""The early acknowledgement path: its HTTP/1.1 pool against a real local server, and the scheduler that
puts acknowledgements before work. The bot-level behaviour is in tests/bot/test_early_ack.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp import web

from app.ack_first import AckFirst
from app.early_ack import CallbackPool


@dataclass
class Server:
    url: str
    bodies: list[dict[str, object]] = field(default_factory=list)
    peers: set[object] = field(default_factory=set)
    mode: str = "ok"  # "ok", "close" (answer, then close), "drop" (close without answering), "slow"


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    state = Server("")

    async def callback(request: web.Request) -> web.StreamResponse:
        state.peers.add(request.transport)
        state.bodies.append(json.loads(await request.read()))
        if state.mode == "drop":
            assert request.transport is not None
            request.transport.close()
            await asyncio.sleep(0.05)
        if state.mode == "slow":
            await asyncio.sleep(1)
        response = web.Response(status=204)
        if state.mode == "close":
            response.force_close()
        return response

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    state.url = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10"
    yield state
    await runner.cleanup()


async def test_a_burst_shares_a_few_kept_alive_connections(server: Server) -> None:
    pool = CallbackPool(server.url, user_agent="test", max_connections=4)
    futures = [
        pool.post(f"/interactions/{i}/tok/callback", json.dumps({"type": 5, "n": i}).encode()) for i in range(50)
    ]
    assert await asyncio.gather(*futures) == [204] * 50
    assert sorted(b["n"] for b in server.bodies) == list(range(50))  # every body arrived, whole
    assert len(server.peers) <= 4 and pool.connections_made <= 4
    # The connections stay open for the next burst.
    assert await pool.post("/interactions/99/tok/callback", b"{}") == 204
    assert pool.connections_made <= 4
    pool.close()


async def test_a_connection_the_server_closes_is_replaced(server: Server) -> None:
    server.mode = "close"
    pool = CallbackPool(server.url, user_agent="test", max_connections=2)
    assert [await pool.post(f"/interactions/{i}/tok/callback", b"{}") for i in range(3)] == [204, 204, 204]
    assert pool.connections_made == 3  # each answer came with "Connection: close"
    pool.close()


async def test_a_dropped_request_fails_so_the_caller_can_fall_back(server: Server) -> None:
    server.mode = "drop"
    pool = CallbackPool(server.url, user_agent="test", max_connections=2)
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(pool.post("/interactions/1/tok/callback", b"{}"), 5)
    server.mode = "ok"
    assert await pool.post("/interactions/2/tok/callback", b"{}") == 204  # and the pool recovers
    pool.close()


async def test_an_unreachable_discord_fails_every_waiting_request() -> None:
    pool = CallbackPool("http://127.0.0.1:9/api/v10", user_agent="test", max_connections=2)  # port 9: discard
    futures = [pool.post(f"/interactions/{i}/tok/callback", b"{}") for i in range(3)]
    results = await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), 5)
    assert all(isinstance(r, OSError) for r in results), results


async def test_kept_open_connections_are_opened_ahead_and_reopened_when_closed(server: Server) -> None:
    pool = CallbackPool(server.url, user_agent="test", max_connections=4, keep_open=3)
    pool.top_up()
    for _ in range(50):
        if pool.connections_made == 3:
            break
        await asyncio.sleep(0.01)
    assert pool.connections_made == 3  # before any request
    server.mode = "close"  # the server closes each connection after answering (as idle timeouts do)
    assert await pool.post("/interactions/1/tok/callback", b"{}") == 204
    for _ in range(300):
        if pool.connections_made == 4:
            break
        await asyncio.sleep(0.01)
    assert pool.connections_made == 4  # the closed one was replaced
    pool.close()


async def test_reconnecting_to_an_unreachable_discord_backs_off() -> None:
    pool = CallbackPool("http://127.0.0.1:9/api/v10", user_agent="test", max_connections=2, keep_open=2)
    pool.top_up()
    await asyncio.sleep(1.6)
    # Attempts at 0 s and 1 s (then 2 s, 4 s...): the retry pause doubles, so a dead server is not hammered.
    assert pool._retry_after >= 4.0
    pool.close()


async def test_a_request_without_an_answer_times_out(server: Server) -> None:
    server.mode = "slow"
    pool = CallbackPool(server.url, user_agent="test", max_connections=1, timeout=0.2)
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(pool.post("/interactions/1/tok/callback", b"{}"), 5)
    pool.close()


async def test_work_waits_for_pending_acknowledgements() -> None:
    order = AckFirst(slots=2, max_wait=5)
    log: list[str] = []
    release = asyncio.Event()

    async def ack(name: str) -> None:
        async with order.acknowledging():
            await release.wait()
            log.append(f"ack {name}")

    async def work(name: str) -> None:
        async with order.working():
            log.append(f"work {name}")

    tasks = [asyncio.create_task(ack("a")), asyncio.create_task(ack("b"))]
    await asyncio.sleep(0)
    workers = [asyncio.create_task(work(n)) for n in "xyz"]
    await asyncio.sleep(0.05)
    assert log == []  # no work while clicks wait for their acknowledgement
    release.set()
    await asyncio.gather(*tasks, *workers)
    assert log[:2] == ["ack a", "ack b"] and sorted(log[2:]) == ["work x", "work y", "work z"]


async def test_work_is_not_starved_and_nested_work_keeps_its_slot() -> None:
    order = AckFirst(slots=1, max_wait=0.05)
    never = asyncio.Event()

    async def stuck_ack() -> None:
        async with order.acknowledging():
            await never.wait()

    stuck = asyncio.create_task(stuck_ack())
    await asyncio.sleep(0)
    done: list[str] = []
    # The first waits at most max_wait for the stuck acknowledgement; the second, in the same task, takes no
    # second slot (with one slot, it would otherwise wait for itself forever).
    async with order.working(), order.working():
        done.append("nested")
    assert done == ["nested"]
    stuck.cancel()
