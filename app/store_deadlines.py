"""The store's deadlines: each game's running deadline (cached in the store), who fires it, the reminders sent,
the runs of missed deadlines and the vacations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.store_base import Write

if TYPE_CHECKING:
    from app.store import Store

DEADLINE_COLUMNS = "game_id, step_key, category, opened_at, due_at, paused_remaining"


@dataclass(frozen=True)
class DeadlineRow:
    game_id: int
    step_key: str
    category: str
    opened_at: float
    due_at: float
    paused_remaining: float | None


class DeadlineStore:
    """The deadline table, kept apart from the game tables it refers to; writes go through the store's lock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    async def get(self, game_id: int) -> DeadlineRow | None:
        cache = self.store.deadline_cache
        if game_id not in cache:
            seen = self.store.changes.get(game_id, 0)
            row = await self.db.fetchone(f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id = ?", (game_id,))
            found = _deadline_row(row) if row else None
            if self.store.changes.get(game_id, 0) == seen:
                cache[game_id] = found
            return found
        return cache[game_id]

    async def claim(self, game_id: int, key: str, *, now: float, lease: float) -> bool:
        """Take the firing of the game's deadline for step ``key`` until ``now + lease``: False if it is paused, its
        step moved on, or another process holds it (a holder that died lets go when its lease runs out)."""
        taken = await self.store.write(
            "UPDATE deadlines SET claimed_until = ? WHERE game_id = ? AND step_key = ? AND paused_remaining IS NULL"
            " AND (claimed_until IS NULL OR claimed_until < ?)",
            (now + lease, game_id, key, now),
        )
        return taken == 1

    async def release(self, game_id: int, key: str) -> None:
        await self.store.write(
            "UPDATE deadlines SET claimed_until = NULL WHERE game_id = ? AND step_key = ?", (game_id, key)
        )

    async def overdue(self, now: float) -> list[tuple[int, str]]:
        """(game, step key) of every running deadline past its time that no process holds."""
        rows = await self.db.fetchall(
            "SELECT game_id, step_key FROM deadlines WHERE paused_remaining IS NULL AND due_at <= ?"
            " AND (claimed_until IS NULL OR claimed_until < ?)"
            " AND game_id NOT IN (SELECT id FROM games WHERE broken_reason IS NOT NULL) ORDER BY due_at",
            (now, now),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def first_to_remind(self, game_id: int, key: str, which: str) -> bool:
        """Note that the reminder ``which`` of step ``key`` goes out: True for the one process that notes it first."""
        noted = await self.store.write(
            "UPDATE deadlines SET reminded = reminded || ? WHERE game_id = ? AND step_key = ? AND reminded NOT LIKE ?",
            (f",{which}", game_id, key, f"%,{which}%"),
        )
        return noted == 1

    async def all(self) -> list[DeadlineRow]:
        """Every stored deadline, read from the database (start-up); refreshes the cache."""
        rows = [
            _deadline_row(r)
            for r in await self.db.fetchall(f"SELECT {DEADLINE_COLUMNS} FROM deadlines ORDER BY due_at")
        ]
        self.store.deadline_cache.clear()
        self.store.deadline_cache.update((row.game_id, row) for row in rows)
        return rows

    def put_write(self, row: DeadlineRow) -> Write:
        def after() -> None:
            self.store.wrote(row.game_id)
            self.store.deadline_cache[row.game_id] = row

        return Write(
            "INSERT INTO deadlines (game_id, step_key, category, opened_at, due_at, paused_remaining)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET step_key = excluded.step_key,"
            " category = excluded.category, opened_at = excluded.opened_at, due_at = excluded.due_at,"
            " paused_remaining = excluded.paused_remaining, claimed_until = NULL,"
            " reminded = CASE WHEN deadlines.step_key = excluded.step_key AND deadlines.due_at = excluded.due_at"
            " THEN deadlines.reminded ELSE '' END",
            (row.game_id, row.step_key, row.category, row.opened_at, row.due_at, row.paused_remaining),
            after,
        )

    async def put(self, row: DeadlineRow) -> None:
        await self.store.apply([self.put_write(row)])

    def clear_write(self, game_id: int) -> Write:
        def after() -> None:
            self.store.wrote(game_id)
            self.store.deadline_cache[game_id] = None

        return Write("DELETE FROM deadlines WHERE game_id = ?", (game_id,), after)

    async def clear(self, game_id: int) -> None:
        await self.store.write("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
        self.store.wrote(game_id)
        self.store.deadline_cache[game_id] = None

    async def record_missed(self, game_id: int, house: str) -> int:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO missed_deadlines (game_id, house, in_a_row) VALUES (?, ?, 1)"
                " ON CONFLICT (game_id, house) DO UPDATE SET in_a_row = missed_deadlines.in_a_row + 1",
                (game_id, house),
            )
            row = await db.fetchone(
                "SELECT in_a_row FROM missed_deadlines WHERE game_id = ? AND house = ?", (game_id, house)
            )
        (await self.store.missed_houses(game_id)).add(house)
        return int(row[0]) if row else 0

    async def vacations(self, game_id: int) -> dict[str, tuple[float, float]]:
        """house -> (until, days used so far in this game)."""
        rows = await self.db.fetchall("SELECT house, until, days_used FROM vacations WHERE game_id = ?", (game_id,))
        return {str(r[0]): (float(r[1]), float(r[2])) for r in rows}

    def vacation_write(self, game_id: int, house: str, until: float, days_used: float) -> Write:
        return Write(
            "INSERT INTO vacations (game_id, house, until, days_used) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, house) DO UPDATE SET until = excluded.until, days_used = excluded.days_used",
            (game_id, house, until, days_used),
        )


def _deadline_row(row: tuple[Any, ...]) -> DeadlineRow:
    """A row of ``DEADLINE_COLUMNS``."""
    game_id, step_key, category, opened_at, due_at, paused_remaining = row
    return DeadlineRow(
        game_id=int(game_id),
        step_key=str(step_key),
        category=str(category),
        opened_at=float(opened_at),
        due_at=float(due_at),
        paused_remaining=float(paused_remaining) if paused_remaining is not None else None,
    )
