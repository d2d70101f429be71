"""The shared listening connection of a process (``app/listen.py``) waits on its own socket: an idle one does not
wake (psycopg's ``notifies()`` woke every 0.1 s, 3 to 5 ms of CPU a second in each idle process of a gateway and
workers), an announcement is delivered as it arrives, a burst of them all at once, and a subscriber that arrives
later is listened to at once, not at the connection's next turn."""

from __future__ import annotations

import asyncio
import time

from app.database import PostgresDatabase, notify_sql
from app.listen import TURN_S, Listener, _hub_for
from testing import postgres
from tests.app.test_queue_looks import wait_for
from tests.conftest import require_postgres


async def test_an_idle_listening_connection_sleeps_and_hears_each_announcement_as_it_comes() -> None:
    require_postgres()
    with postgres.fresh_schema("listen") as url:
        db = await PostgresDatabase.open(url, pool_size=(1, 1))
        first: list[str] = []
        second: list[str] = []
        first_on = asyncio.Event()
        second_on = asyncio.Event()
        listeners = [Listener(url, "westeros_first", first.append, first_on.set)]
        listeners[0].start()
        try:
            await asyncio.wait_for(first_on.wait(), timeout=10)
            hub = _hub_for(url)
            await asyncio.sleep(0.3)
            wakes = hub.wakes
            await asyncio.sleep(1.5)
            assert hub.wakes == wakes  # nothing came: it did not wake

            # A subscriber arriving now is listened to at once, not within TURN_S.
            assert TURN_S >= 10
            listeners.append(Listener(url, "westeros_second", second.append, second_on.set))
            started = time.monotonic()
            listeners[1].start()
            await asyncio.wait_for(second_on.wait(), timeout=TURN_S / 2)
            assert time.monotonic() - started < 1.0

            await db.execute(f"SELECT {notify_sql('?')}", ("westeros_first", "one"))
            assert await wait_for(lambda: first == ["one"], timeout=5) < 1.0
            # Many at once, on both channels, in one statement: every one is delivered, each to its own.
            await db.execute(
                "SELECT " + ", ".join(f"{notify_sql('?')}, {notify_sql('?')}" for _ in range(40)),
                tuple(value for n in range(40) for value in ("westeros_first", f"a{n}", "westeros_second", f"b{n}")),
            )
            await wait_for(lambda: len(first) == 41 and len(second) == 40, timeout=5)
            assert first == ["one", *(f"a{n}" for n in range(40))]
            assert second == [f"b{n}" for n in range(40)]
        finally:
            for listener in listeners:
                await listener.stop()
            await db.close()
