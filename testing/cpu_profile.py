"""Run a script under cProfile timed by the process's CPU clock, not the wall clock:

    python -m testing.cpu_profile OUT script.py [args...]

``python -m cProfile`` times by the wall clock, so on a busy machine a process waiting for a core is charged to
whatever it happened to be running (a socket send that wakes PostgreSQL looked like 0.6 ms of work). The benchmarks
ask where CPU goes. With ``PROFILE_WINDOW=1`` in the environment the profiler starts stopped: SIGUSR1 starts it and
SIGUSR2 stops it and writes OUT, so that a benchmark profiles its burst and not the set-up before it.
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
import time
from pathlib import Path
from types import FrameType


def main() -> None:
    out, script, *args = sys.argv[1:]
    sys.argv = [script, *args]
    sys.path.insert(0, str(Path(script).resolve().parent))
    profiler = cProfile.Profile(time.process_time)
    windowed = os.environ.get("PROFILE_WINDOW") == "1"

    def begin(_signum: int, _frame: FrameType | None) -> None:
        profiler.enable()

    def end(_signum: int, _frame: FrameType | None) -> None:
        profiler.disable()
        profiler.dump_stats(out)

    if windowed:
        signal.signal(signal.SIGUSR1, begin)
        signal.signal(signal.SIGUSR2, end)
    else:
        profiler.enable()
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        if not windowed:
            profiler.disable()
            profiler.dump_stats(out)


if __name__ == "__main__":
    main()
