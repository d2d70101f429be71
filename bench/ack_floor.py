"""The acknowledgement floor: how fast discord.py alone acknowledges a burst of clicks on this machine.

    python bench/ack_floor.py [--clicks 300] [--runs 1] [--json]

``bench/bot.py`` measures the bot; this measures what no bot can beat without changing discord.py. A client
that does nothing but ``interaction.response.defer()`` (bench/ack_floor_client.py, in its own process, with the
bot's intents and HTTP pool) posts one message shaped like an orders form; ``--clicks`` members press its Submit
at the same instant, and each acknowledgement is timed as bench/bot.py times it (from the event's frame being
written to the client's socket to the callback's bytes arriving back). ``cpu_ms_per_click``: the client's CPU
time over the burst divided by the clicks. With ``--runs N`` the figures are the medians of N fresh runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bot import cpu_seconds, median_of, percentile
from testing.fake_discord import FakeDiscord

CLIENT = Path(__file__).resolve().parent / "ack_floor_client.py"


async def run(clicks: int) -> dict[str, Any]:
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Floor", locale="en-US")
        channel = fake.add_text_channel(guild, "floor")
        members = [fake.add_member(guild, f"m{i}") for i in range(clicks)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env.update(
            DISCORD_TOKEN=fake.token,
            DISCORD_API_BASE=f"{fake.base_url}/api/v10",
            DISCORD_GATEWAY_URL=fake.gateway_url,
            FLOOR_CHANNEL=str(channel.id),
        )
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(CLIENT), env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        try:
            message = await fake.world.wait_until(
                lambda: next((m for m in fake.world.messages.values() if m.channel_id == channel.id), None),
                60,
                "the floor client's form",
            )
            await fake.wait_idle(quiet=2.0, timeout=30)
            cpu_before = cpu_seconds(proc.pid)

            async def click(member: Any) -> float:
                pressed = await fake.click(member, message, "floor:submit")
                await pressed.wait_ack(timeout=10)
                return float(pressed.acked_after) * 1000

            gc.collect()
            gc.disable()  # as bench/bot.py: the harness's own collections are not the client's
            try:
                started = time.perf_counter()
                acks = await asyncio.gather(*[click(m) for m in members])
                elapsed = time.perf_counter() - started
            finally:
                gc.enable()
            await fake.wait_idle(quiet=1.0, timeout=30)
            cpu = cpu_seconds(proc.pid) - cpu_before
        finally:
            proc.terminate()
            await proc.wait()
    return {
        "clicks": clicks,
        "ack_p50_ms": round(statistics.median(acks), 2),
        "ack_p99_ms": round(percentile(acks, 0.99), 2),
        "ack_max_ms": round(max(acks), 2),
        "burst_s": round(elapsed, 2),
        "cpu_ms_per_click": round(cpu * 1000 / clicks, 3),
        "failed_interactions": len(fake.failed_interactions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=300, help="members pressing Submit at once")
    parser.add_argument("--runs", type=int, default=1, help="repeat on fresh processes (medians reported)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.clicks <= 2000 or not 1 <= args.runs <= 10:
        parser.error("--clicks must be 1-2000 and --runs 1-10")
    runs = [asyncio.run(asyncio.wait_for(run(args.clicks), timeout=300)) for _ in range(args.runs)]
    figures = median_of(runs, digits=3)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            if key not in ("runs", "spread"):
                print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
