"""The order of a burst's work in one event loop (cogs/acks.py): acknowledgements first, then the clicks' own work
(answers, receipts), then publishing; no lane starved by a steady stream above it. Plain asyncio, real timings."""

from __future__ import annotations

import asyncio

from cogs.acks import AckFirst


async def _ack(order: AckFirst, log: list[str], name: str, took: float) -> None:
    async with order.acknowledging():
        await asyncio.sleep(took)  # the acknowledgement's round trip to Discord
    log.append(name)


async def test_a_clicks_work_waits_until_the_burst_of_acknowledgements_is_over() -> None:
    """Clicks arrive a frame at a time: between two of them no acknowledgement is under way for an instant, and the
    work of the first must still wait for the last one's acknowledgement."""
    order = AckFirst(quiet=0.02, max_wait=5.0)
    log: list[str] = []

    async def click(i: int) -> None:
        await asyncio.sleep(0.005 * i)  # the frames of a burst, 5 ms apart
        await _ack(order, log, f"ack{i}", 0.002)
        async with order.working():
            log.append(f"work{i}")

    await asyncio.gather(*(click(i) for i in range(10)))
    assert log[:10] == [f"ack{i}" for i in range(10)], log
    assert sorted(log[10:]) == sorted(f"work{i}" for i in range(10))


async def test_publishing_waits_for_the_clicks_work() -> None:
    """A burst's receipts go out before what its answers imply: a publication that becomes ready while clicks' work
    waits or runs starts after it."""
    order = AckFirst(quiet=0.005, max_wait=5.0)
    log: list[str] = []

    async def work(i: int) -> None:
        async with order.working():
            await asyncio.sleep(0.01)  # committing the answer
            log.append(f"receipt{i}")

    async def publish() -> None:
        await asyncio.sleep(0.001)  # ready while the clicks' work is under way
        async with order.publishing():
            log.append("post")

    await asyncio.gather(*(work(i) for i in range(6)), publish(), _ack(order, log, "ack", 0.002))
    assert log[0] == "ack" and log[-1] == "post", log


async def test_no_lane_is_starved_by_a_steady_stream_above_it() -> None:
    """Acknowledgements that never stop for ``quiet`` seconds hold a click's work back for ``max_wait`` at most, and
    clicks' work that never stops holds publishing back for ``max_publish_wait`` at most."""
    order = AckFirst(quiet=0.05, max_wait=0.1, max_publish_wait=0.2)
    loop = asyncio.get_running_loop()
    stop = loop.time() + 0.6
    log: list[str] = []

    async def stream() -> None:
        while loop.time() < stop:
            await _ack(order, log, "ack", 0.01)

    async def work() -> float:
        await asyncio.sleep(0.02)
        started = loop.time()
        # Publishing nested in a click's work keeps the slot held: nothing waits again.
        async with order.working(), order.publishing():
            return loop.time() - started

    async def publish() -> float:
        await asyncio.sleep(0.02)
        started = loop.time()
        async with order.publishing():
            return loop.time() - started

    async def clicks_working() -> None:
        while loop.time() < stop:
            async with order.working():
                await asyncio.sleep(0.01)

    streaming = asyncio.ensure_future(stream())
    waited = await work()
    await streaming
    assert 0.09 <= waited < 0.4, waited

    stop = loop.time() + 0.6
    busy = asyncio.ensure_future(clicks_working())
    published = await publish()
    await busy
    assert 0.19 <= published < 0.5, published


async def test_the_lanes_say_when_clicks_start_and_when_both_lanes_are_idle_again() -> None:
    """``on_clicks`` (the AI pauses meanwhile): True once an acknowledgement starts, False once no acknowledgement has
    been under way for ``quiet`` and no click's work waits or runs; told once per change."""
    order = AckFirst(quiet=0.01)
    told: list[bool] = []
    order.on_clicks = told.append
    async with order.acknowledging():
        pass
    async with order.working():
        assert told == [True]
    await asyncio.sleep(0.05)
    assert told == [True, False]
