"""Enqueue benchmark: what queueing a burst's answers costs a gateway's process, on the real PostgreSQL.

    python bench/enqueue.py [--commands 300] [--batch 10] [--runs 3] [--json]

Six-player games are started in a fresh schema, and each seat's planning orders (its prompt's default, as a player's
Submit gives them) are queued ``--batch`` at a time with ``CommandQueue``'s own statement, as the gateway's batched
enqueue does in a burst, and then again with the statement it used before (its rows as six arrays of text, which
psycopg escapes element by element). ``cpu_us_per_command``: this process's CPU time over the statements, divided by
the commands queued; ``wall_ms_per_statement``: their elapsed time each. The figures of both statements are printed
side by side, measured in one run (``--runs N``: the medians of N). Figures, never assertions.
PostgreSQL is ``WESTEROS_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.commands import Answer, Join, Start
from app.database import PostgresDatabase, notify_sql
from app.queries import GameSettings
from app.queue import ENQUEUE_ROWS, QUEUED, ReplyTo, payload_of
from app.service import GameService
from app.store import Store
from bench.bot import median_of
from testing import postgres

# The enqueueing statement before the rows came as one JSON document (the figures' "before").
TEXT_ARRAYS = (
    "WITH queued AS (INSERT INTO command_queue (game_id, payload, enqueued_at, gateway, reply, for_worker)"
    " SELECT game_id, payload, enqueued_at, gateway, reply, for_worker FROM unnest(?::bigint[], ?::text[],"
    " ?::double precision[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY"
    " AS given(game_id, payload, enqueued_at, gateway, reply, for_worker, n) ORDER BY n"
    " RETURNING id, game_id, payload, for_worker) SELECT id, payload, CASE WHEN EXISTS (SELECT 1 FROM"
    " command_queue p WHERE p.game_id = queued.game_id AND p.done_at IS NULL AND p.id < queued.id)"
    f" THEN NULL ELSE {notify_sql('coalesce(queued.for_worker, ?)')}::text END FROM queued"
)


async def answers(service: GameService, count: int) -> list[Answer]:
    """``count`` planning answers of 6-player games started for them, each with the receipt a gateway stores."""
    out: list[Answer] = []
    channel = 0
    while len(out) < count:
        channel += 1
        game_id = await service.create(
            guild_id=1, channel_id=channel, creator=100, name="bench", settings=GameSettings(players=6, seed=channel)
        )
        for user in range(100, 106):
            await service.execute(Join(game_id=game_id, by=user))
        await service.execute(Start(game_id=game_id))
        game = await service.load(game_id)
        seats = await service.store.seats(game_id)
        out += [
            Answer(
                game_id=game_id, house=p.house, answer=p.default, by=seats[p.house], key=f"bench-{game_id}-{p.house}"
            )
            for p in game.prompts()
        ]
    return out[:count]


def reply_of(command: Answer) -> str:
    return ReplyTo(
        application_id=1, token="t" * 180, expires_at=time.time() + 900, user_id=command.by or 0, locale="ru",
        receipt="Приказы приняты: «Старки» ответили.",
    ).to_json()  # fmt: skip


async def measure(db: PostgresDatabase, batches: list[list[Answer]], *, document: bool) -> dict[str, float]:
    await db.execute("DELETE FROM command_queue")
    started, cpu = time.perf_counter(), time.process_time()
    for batch in batches:
        now = time.time()
        if document:
            rows = [
                {"n": n, "game_id": c.game_id, "payload": payload_of(c), "enqueued_at": now, "gateway": "bench",
                 "reply": reply_of(c), "for_worker": None}
                for n, c in enumerate(batch)
            ]  # fmt: skip
            await db.fetchall(ENQUEUE_ROWS, (json.dumps(rows), QUEUED, ""))
        else:
            await db.fetchall(
                TEXT_ARRAYS,
                (
                    [c.game_id for c in batch], [payload_of(c) for c in batch], [now] * len(batch),
                    ["bench"] * len(batch), [reply_of(c) for c in batch], [None] * len(batch), QUEUED, "",
                ),
            )  # fmt: skip
    cpu, wall = time.process_time() - cpu, time.perf_counter() - started
    commands = sum(len(batch) for batch in batches)
    return {
        "cpu_us_per_command": round(cpu * 1e6 / commands, 1),
        "wall_ms_per_statement": round(wall * 1e3 / len(batches), 2),
    }


async def run(commands: int, batch: int) -> dict[str, Any]:
    with postgres.migrated_schema("bench_enqueue") as url:
        store = await Store.open(url, shared=True)
        try:
            assert isinstance(store.db, PostgresDatabase)
            given = await answers(GameService(store), commands)
            batches = [given[i : i + batch] for i in range(0, len(given), batch)]
            await measure(store.db, batches[:3], document=True)  # the statements' first plans, out of the figures
            await measure(store.db, batches[:3], document=False)
            after = await measure(store.db, batches, document=True)
            before = await measure(store.db, batches, document=False)
            return {
                "commands": commands,
                "batch": batch,
                "payload_chars": len(payload_of(given[0])),
                **{f"json_{k}": v for k, v in after.items()},
                **{f"text_arrays_{k}": v for k, v in before.items()},
            }
        finally:
            await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=300, help="answers queued (6 per game started)")
    parser.add_argument("--batch", type=int, default=10, help="answers per enqueueing statement")
    parser.add_argument("--runs", type=int, default=1, help="runs (figures are their medians)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.commands <= 5000 or not 1 <= args.batch <= 100 or not 1 <= args.runs <= 20:
        parser.error("--commands 1-5000, --batch 1-100, --runs 1-20")
    result = median_of([asyncio.run(run(args.commands, args.batch)) for _ in range(args.runs)])
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            if key != "spread":
                print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
