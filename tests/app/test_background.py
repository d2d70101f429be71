"""Map drawing runs beside the event loop at a lower CPU priority (app/background.py)."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from app.background import NICENESS, Background


def own_priority() -> tuple[str, int]:
    return threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread priorities are a Linux feature")
async def test_background_work_runs_off_the_loop_at_a_lower_priority() -> None:
    background = Background(workers=1)
    try:
        name, priority = await background.run(own_priority)
    finally:
        background.close()
    assert name.startswith("background")
    loop_priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert priority == min(19, loop_priority + NICENESS)
    assert loop_priority == os.getpriority(os.PRIO_PROCESS, 0)  # the event loop's own priority is untouched
