"""The store's side of keeping data only as long as it should be: an ended game's command log pruned after the
retention period (``app.retention``), a game removed entirely (``/mod delete``), and what is kept about one member,
shown to him and removed on his request (``/privacy``). docs/privacy.md says the same in plain words."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from app.database import Session
from app.store_base import StoreBase

# An ended game's command log: every row of these goes after the retention period; the game's row (with its final
# state and standing), its seats and one snapshot of its final state stay.
LOG_TABLES = (
    "answers",
    "outbox",
    "outbox_sends",
    "notices",
    "commands",
    "command_queue",
    "missed_deadlines",
    "vacations",
    "deadlines",
    "publisher_state",  # what the channel shows (revision 0017): an ended game's publishing is over
)
PRUNED = "pruned_at"  # the key in an ended game's settings once its log has gone (it is pruned once)
FORMER_MEMBER = 0  # ``games.created_by`` of a game whose creator asked to be forgotten (the column is NOT NULL)


@dataclass(frozen=True)
class PrunableGame:
    id: int
    state: str | None
    settings: dict[str, Any]


@dataclass(frozen=True)
class MemberSeat:
    game_id: int
    name: str
    status: str
    house: str


@dataclass(frozen=True)
class MemberData:
    """Everything the bot keeps about one member (``/privacy``)."""

    seats: list[MemberSeat] = field(default_factory=list)
    answers: int = 0
    first_answer_at: float | None = None
    last_answer_at: float | None = None
    locale: str | None = None
    dm_closed: bool | None = None  # None: nothing kept
    missed: list[tuple[str, str, int]] = field(default_factory=list)  # (game name, house, deadlines missed in a row)
    lobby: list[tuple[str, str | None]] = field(default_factory=list)  # (game name, house picked or None)
    vacations: list[tuple[str, str, float]] = field(default_factory=list)  # (game name, house, days used)

    @property
    def empty(self) -> bool:
        kept = (self.seats, self.answers, self.locale, self.dm_closed is not None, self.missed, self.lobby)
        return not any(kept) and not self.vacations


class PrivacyStore(StoreBase):
    """Retention, deletion and a member's own data."""

    # ----- retention -----

    async def ended_unpruned(self, ended_before: float) -> list[PrunableGame]:
        """Ended games whose last change is older than ``ended_before`` and whose log has not been pruned yet."""
        rows = await self.db.fetchall(
            "SELECT id, state, settings FROM games WHERE status = 'ended' AND updated_at < ? ORDER BY id",
            (ended_before,),
        )
        games = [PrunableGame(int(r[0]), r[1], json.loads(r[2])) for r in rows]
        return [g for g in games if PRUNED not in g.settings]

    async def prune_ended_game(self, game_id: int, settings: dict[str, Any]) -> int:
        """Remove an ended game's command log in one transaction, keep one snapshot of its final state, and write
        ``settings`` (holding its final standing); how many rows went. Nothing happens to a game that is not ended."""
        async with self.transaction() as db:
            row = await db.fetchone("SELECT version, state FROM games WHERE id = ? AND status = 'ended'", (game_id,))
            if row is None:
                return 0
            version, state = int(row[0]), row[1]
            removed: int = 0
            for table in LOG_TABLES:
                removed += await db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            removed += await db.execute("DELETE FROM snapshots WHERE game_id = ? AND version <> ?", (game_id, version))
            if state is not None:  # the one snapshot kept is the final state itself
                await db.execute(
                    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, version) DO UPDATE SET state = excluded.state",
                    (game_id, version, state),
                )
            # updated_at stays: it is when the game ended
            await db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))
        self.forget(game_id)
        return removed

    # ----- deletion -----

    async def delete_game(self, game_id: int) -> bool:
        """Remove a game and every row of it, table by table (not left to ON DELETE CASCADE: a SQLite file from
        before Alembic may lack it); False if it was gone already."""
        async with self.transaction() as db:
            for table in (*LOG_TABLES, "snapshots", "lobby_picks", "lobby", "seats"):
                await db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            gone: int = await db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        self.forget(game_id)
        return gone == 1

    # ----- a member's data -----

    async def member_data(self, user_id: int) -> MemberData:
        db = self.db
        seats = [
            MemberSeat(int(r[0]), str(r[1]), str(r[2]), str(r[3]))
            for r in await db.fetchall(
                "SELECT g.id, g.name, g.status, s.house FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.user_id = ? ORDER BY g.id, s.house",
                (user_id,),
            )
        ]
        answered = await db.fetchone("SELECT count(*), min(at), max(at) FROM answers WHERE user_id = ?", (user_id,))
        assert answered is not None
        locale = await db.fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
        dm = await db.fetchone("SELECT closed FROM dm_status WHERE user_id = ?", (user_id,))
        missed = await db.fetchall(
            "SELECT g.name, m.house, m.in_a_row FROM missed_deadlines m"
            " JOIN seats s ON s.game_id = m.game_id AND s.house = m.house JOIN games g ON g.id = m.game_id"
            " WHERE s.user_id = ? ORDER BY g.id",
            (user_id,),
        )
        lobby = await db.fetchall(
            "SELECT g.name, p.house FROM lobby l JOIN games g ON g.id = l.game_id"
            " LEFT JOIN lobby_picks p ON p.game_id = l.game_id AND p.user_id = l.user_id"
            " WHERE l.user_id = ? AND g.status = 'lobby' ORDER BY g.id",
            (user_id,),
        )
        vacations = await db.fetchall(
            "SELECT g.name, v.house, v.days_used FROM vacations v"
            " JOIN seats s ON s.game_id = v.game_id AND s.house = v.house JOIN games g ON g.id = v.game_id"
            " WHERE s.user_id = ? ORDER BY g.id",
            (user_id,),
        )
        return MemberData(
            seats=seats,
            answers=int(answered[0]),
            first_answer_at=float(answered[1]) if answered[1] is not None else None,
            last_answer_at=float(answered[2]) if answered[2] is not None else None,
            locale=str(locale[0]) if locale else None,
            dm_closed=bool(dm[0]) if dm else None,
            missed=[(str(r[0]), str(r[1]), int(r[2])) for r in missed],
            lobby=[(str(r[0]), str(r[1]) if r[1] is not None else None) for r in lobby],
            vacations=[(str(r[0]), str(r[1]), float(r[2])) for r in vacations],
        )

    async def active_games_seating(self, user_id: int) -> list[str]:
        """The names of the running or paused games in which the member holds a house."""
        return await self._seated_in_active(self.db, user_id)

    async def forget_member(self, user_id: int) -> list[str]:
        """Remove everything kept about a member, in one transaction: his locale and DM status, his lobby places,
        and his id wherever a started game holds it (his seats and answers stay, anonymous, so the games' history
        holds). Refused (nothing changes) while he holds a house in a running or paused game: the names of those
        games are returned, and he must be replaced there first."""
        async with self.transaction() as db:
            running = await self._seated_in_active(db, user_id)
            if running:
                return running
            await db.execute("DELETE FROM user_locales WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM dm_status WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM lobby WHERE user_id = ?", (user_id,))  # his picks go with his places
            await db.execute("UPDATE seats SET user_id = NULL WHERE user_id = ?", (user_id,))
            await db.execute("UPDATE answers SET user_id = NULL WHERE user_id = ?", (user_id,))
            await db.execute("UPDATE commands SET by_user = NULL WHERE by_user = ?", (user_id,))
            await db.execute("UPDATE games SET created_by = ? WHERE created_by = ?", (FORMER_MEMBER, user_id))
            # The engine keeps a house's seat as a JSON string (a seat change logs it too): an empty seat is null.
            quoted = json.dumps(str(user_id))
            for table, column in (("games", "state"), ("snapshots", "state"), ("answers", "answer"),
                                  ("answers", "events")):  # fmt: skip
                await db.execute(
                    f"UPDATE {table} SET {column} = REPLACE({column}, ?, 'null') WHERE {column} LIKE ?",
                    (quoted, f"%{quoted}%"),
                )
            # Channel lines still to post that name him (an audit line, a mention) and commands handled for him:
            # dropped, as posting them would name him again.
            for table, column in (("notices", "payload"), ("command_queue", "payload"), ("command_queue", "reply")):
                await db.execute(f"DELETE FROM {table} WHERE {column} LIKE ?", (f"%{user_id}%",))
        self.lost_track()  # his id left rows of many games: nothing cached of them holds
        return []

    @staticmethod
    async def _seated_in_active(db: Session, user_id: int) -> list[str]:
        rows = await db.fetchall(
            "SELECT DISTINCT g.id, g.name FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status IN ('running', 'paused') ORDER BY g.id",
            (user_id,),
        )
        return [str(r[1]) for r in rows]
