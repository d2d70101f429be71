"""A host stops the bot with SIGTERM, and expects it gone within its grace period (Heroku 30 s, ``docker stop`` 10 s)
even while Discord is away: then discord.py sleeps between reconnections, for up to minutes as the outage lasts, and
closing the client does not wake that sleep. The real ``bot.py`` process against the fake Discord, which is stopped
under it; once the library's log says it waits 5 s or more before its next try, SIGTERM must end the process within
3 s, cleanly (status 0)."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path

import pytest

from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord

pytestmark = pytest.mark.slow

RETRY = re.compile(r"Attempting a reconnect in (\d+(?:\.\d+)?)s")
LONG_WAIT_S = 5.0  # a reconnection wait this long, begun just now, outlasts the grace the test gives


async def test_sigterm_ends_the_bot_at_once_while_it_waits_to_reconnect_to_discord(tmp_path: Path) -> None:
    bot: BotProcess | None = None
    async with FakeDiscord.start(point_discord_py=False) as fake:
        fake.add_guild("Westeros", locale="en-US")
        bot = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", env={"IMAGE_WORKERS": "1"})
        await bot.sync_commands()
        await bot.start()
        await fake.stop()  # Discord goes away: every reconnection fails, each wait longer than the last
        try:
            deadline = time.monotonic() + 90
            while not any(float(w) >= LONG_WAIT_S for w in RETRY.findall(bot.output())):
                assert time.monotonic() < deadline, bot.output()[-3000:]
                await asyncio.sleep(0.05)
            assert bot.proc is not None and bot.proc.returncode is None
            asked = time.monotonic()
            bot.proc.send_signal(signal.SIGTERM)
            status = await asyncio.wait_for(bot.proc.wait(), timeout=30)
            took = time.monotonic() - asked
            assert took < 3.0, f"exited {took:.1f} s after SIGTERM"
            assert status == 0, bot.output()[-3000:]
        finally:
            await bot.stop()
