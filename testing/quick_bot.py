"""The real bot for runs against the local fake Discord in this process (the bot tests, ``bench/channel.py``):
discord.py's start-up waits shortened through its client options, never patched."""

from __future__ import annotations

from typing import Any

from cogs.client import WesterosBot


class QuickBot(WesterosBot):
    """``status_delay``: the pinned status's coalescing window (the tests wait for an idle bot and keep it short; a
    benchmark of answers that come one at a time sends each status edit at once)."""

    def __init__(self, *args: Any, status_delay: float = 0.05, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.status_delay = status_delay

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    async def on_ready(self) -> None:
        await self.tree.sync()

    async def setup_hook(self) -> None:
        await super().setup_hook()
        self.play.publisher.status_delay = self.status_delay
