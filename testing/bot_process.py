"""Run the real ``bot.py`` in its own process against the local fake Discord (restart and load tests).

Only configuration differs from production: the token, the API base and the gateway URL come from the
environment, exactly as an operator would set them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from testing.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        database: Path | str,
        *,
        profile: Path | None = None,
        log_path: Path | None = None,
        role: str = "all",
        env: dict[str, str] | None = None,
    ) -> None:
        """``role``: ``bot.py --role`` (a worker holds no gateway session: it is ready when its log says so);
        ``env``: more settings, as an operator would give them."""
        self.role = role
        self.extra_env = env or {}
        self.profile = profile
        self.fake = fake
        self.database = database
        self.proc: asyncio.subprocess.Process | None = None
        self.log_path = log_path or Path(str(database)).with_suffix(".log")

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_BASE=f"{self.fake.base_url}/api/v10",
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            DATABASE_URL=str(self.database),
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    async def sync_commands(self) -> None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bot.py"), "--sync-commands", cwd=ROOT, env=self.env(),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        if await asyncio.wait_for(proc.wait(), timeout=60) != 0:
            raise RuntimeError("bot.py --sync-commands failed")

    async def start(self, timeout: float = 30.0, *, sessions: int = 1) -> None:
        """``sessions``: the gateway sessions the process opens before it counts as connected (one per shard it holds;
        discord.py opens a process's shards 5 seconds apart)."""
        before = self.fake.gateway.identify_count
        before_ready = self.output().count("worker ready")
        await self._spawn()
        if self.role == "worker":
            await self.fake.world.wait_until(
                lambda: self.output().count("worker ready") > before_ready, timeout, "the worker to be ready", poll=0.05
            )
            return
        await self.fake.world.wait_until(
            lambda: (
                self.fake.gateway.identify_count >= before + sessions and bool(self.fake.gateway.connected_sessions)
            ),
            timeout,
            "the bot process to connect",
        )
        # discord.py marks itself ready a moment after the guilds arrive; let it settle.
        await asyncio.sleep(2.5)

    async def _spawn(self) -> None:
        log = self.log_path.open("ab")
        profiling = ["-m", "testing.cpu_profile", str(self.profile)] if self.profile else []
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, *profiling, str(ROOT / "bot.py"), "--role", self.role, cwd=ROOT, env=self.env(),
            stdout=log, stderr=log,
        )  # fmt: skip
        log.close()

    async def exit_status(self, timeout: float = 60.0) -> int:
        """Start a process expected to stop by itself (refused at start, say) and wait for it: its exit status. One
        still running after ``timeout`` seconds is killed, and that is an error."""
        await self._spawn()
        assert self.proc is not None
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout=timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(
                f"bot.py --role {self.role} still ran after {timeout} s:\n{self.output()[-3000:]}"
            ) from None

    async def kill(self) -> None:
        """SIGKILL: no clean shutdown, as in a crash or an OOM kill."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        if self.role != "worker":
            await self.fake.world.wait_until(
                lambda: not self.fake.gateway.connected_sessions, 10, "the session to drop"
            )

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), timeout=10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
