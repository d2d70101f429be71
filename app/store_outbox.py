"""The store's commands and outbox: a change's statements applied once per command key with the notices it implies,
the notices still to post, and the versions whose consequences are not all published."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from app.batched import Batched
from app.database import Database, IntegrityError, PostgresDatabase, Session, is_connection_lost
from app.store_base import StoreBase, Write, committed

MARKS_MOST = 64  # messages marked sent by one statement at most


@dataclass(frozen=True)
class Notice:
    """A channel line no version implies, as stored in the outbox (``notices``)."""

    id: int
    game_id: int
    after_version: int
    payload: dict[str, Any]
    created_at: float = 0.0  # when its commit wrote it: posted after the publications committed before it


# A publication's own outbox row, by the time it was written (``?`` twice: the time, or NULL for any row of the version)
ROW_WRITTEN_AT = " AND (CAST(? AS DOUBLE PRECISION) IS NULL OR created_at = ?)"
OUTBOX_STEP = (
    "INSERT INTO outbox (game_id, version, kind, created_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (game_id, version, kind) DO UPDATE SET sent = '', created_at = excluded.created_at"
)


# A version whose consequences are not all published: (game, version, kind, parts already sent, when its row was
# written).
Unpublished = tuple[int, int, str, frozenset[str], float]


class Sent(NamedTuple):
    """What a publication finds recorded as it starts (``OutboxStore.sends``)."""

    written_at: float | None  # when its outbox row was written (None: it has none)
    marks: dict[str, int | None]  # the messages it sent already, by their place in it, each with its id
    layout: str | None  # the channel's layout as the last channel part stored it (None: nothing told yet)


class DuplicateCommand(Exception):
    """A command with this idempotency key is already applied (a confirmation pressed twice)."""


# A notice to post after the game's version as it stands (in a commit: the version that commit stores).
ADD_NOTICE = (
    "INSERT INTO notices (game_id, after_version, payload, created_at) SELECT ?, version, ?, ? FROM games WHERE id = ?"
)


def notice_rows(game_id: int, notices: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """``ADD_NOTICE``'s values for each of ``notices``."""
    now = time.time()
    return [(game_id, json.dumps(notice), now, game_id) for notice in notices]


class OutboxStore(StoreBase):
    """Commands, notices and the outbox."""

    def __init__(self, db: Database, *, shared: bool = False) -> None:
        super().__init__(db, shared=shared)
        # On PostgreSQL, the messages of several publications (a burst's games, published side by side) that Discord
        # accepted while another mark's statement was under way are marked together in the next one: one round trip
        # and one commit where each took its own. Each caller still waits for its own mark's commit before its next
        # send, so a crash never finds a message out and unmarked once the next is sent.
        self.message_marks = Batched(
            self._mark_messages, most=MARKS_MOST, shared=is_connection_lost, what="marking messages sent"
        )

    # ----- commands and notices -----

    async def apply(
        self,
        writes: list[Write],
        *,
        game_id: int | None = None,
        key: str | None = None,
        name: str = "",
        by: int | None = None,
        notices: list[dict[str, Any]] | None = None,
    ) -> None:
        """Run a change's statements in one transaction with the command's key (``DuplicateCommand`` if it was
        applied already: nothing is stored) and the notices it implies, posted after the game's version as the change
        leaves it."""
        if len(writes) == 1 and key is None and not notices:  # one statement commits on its own (deadlines, status)
            await self.write(writes[0].sql, writes[0].params)
            committed(writes)
            return
        try:
            async with self.transaction() as db:
                if key is not None and game_id is not None:
                    await db.execute(
                        "INSERT INTO commands (game_id, key, name, by_user, at) VALUES (?, ?, ?, ?, ?)",
                        (game_id, key, name, by, time.time()),
                    )
                for write in writes:
                    await db.execute(write.sql, write.params)
                if notices and game_id is not None:
                    await self._add_notices(db, game_id, notices)
        except IntegrityError as err:
            if "commands" in str(err):
                raise DuplicateCommand(f"game {game_id} already applied the command {key}") from err
            raise
        committed(writes)

    @staticmethod
    def key_write(game_id: int, key: str, name: str) -> Write:
        """A key of the ``commands`` table written inside another command's commit (a deadline's news, recorded with
        the answer that carries it): a second commit writing it fails (``key_refused``)."""
        return Write(
            "INSERT INTO commands (game_id, key, name, by_user, at) VALUES (?, ?, ?, NULL, ?)",
            (game_id, key, name, time.time()),
        )

    @staticmethod
    def key_refused(err: IntegrityError) -> bool:
        """Whether a commit failed on a key of the ``commands`` table (``key_write``)."""
        return "commands" in str(err)

    @staticmethod
    async def _add_notices(db: Session, game_id: int, notices: list[dict[str, Any]]) -> None:
        await db.executemany(ADD_NOTICE, notice_rows(game_id, notices))

    async def add_notices(self, game_id: int, notices: list[dict[str, Any]]) -> None:
        """Notices no change of the game goes with (a deadline's news)."""
        async with self.transaction() as db:
            await self._add_notices(db, game_id, notices)

    async def notices(self, game_id: int | None = None) -> list[Notice]:
        """The notices still to post, of one game or of all, each game's in the order they were written."""
        sql = "SELECT id, game_id, after_version, payload, created_at FROM notices"
        params: tuple[Any, ...] = ()
        if game_id is not None:
            sql += " WHERE game_id = ?"
            params = (game_id,)
        rows = await self.db.fetchall(sql + " ORDER BY game_id, id", params)
        return [Notice(int(r[0]), int(r[1]), int(r[2]), json.loads(r[3]), float(r[4])) for r in rows]

    async def notice_posted(self, notice_id: int) -> None:
        await self.write("DELETE FROM notices WHERE id = ?", (notice_id,))

    # ----- the outbox -----

    async def unpublished(self) -> list[Unpublished]:
        """(game, version, kind, parts already sent, when the row was written) of every version whose consequences
        are not all published, each game's in the order they were committed."""
        return (await self.drainable())[0]

    async def drainable(self) -> tuple[list[Unpublished], list[Notice]]:
        """``unpublished()`` and every notice still to post (``notices()``), read in one statement: the publisher's
        drain reads both each time it looks, and a round trip each was a statement per look more. One snapshot, too:
        a notice and the publications written before and after it are seen together."""
        rows = await self.db.fetchall(
            "SELECT 0, game_id, version, kind, sent, created_at, NULL FROM outbox"
            " WHERE game_id NOT IN (SELECT id FROM games WHERE broken_reason IS NOT NULL)"  # parked until repaired
            " UNION ALL SELECT 1, game_id, after_version, NULL, payload, created_at, id FROM notices"
        )
        versions = [
            (int(r[1]), int(r[2]), str(r[3]), frozenset(p for p in str(r[4]).split(",") if p), float(r[5]))
            for r in rows
            if int(r[0]) == 0
        ]
        versions.sort(key=lambda row: (row[0], row[4], row[1]))  # each game's in the order they were committed
        notices = [Notice(int(r[6]), int(r[1]), int(r[2]), json.loads(r[4]), float(r[5])) for r in rows if int(r[0])]
        notices.sort(key=lambda notice: (notice.game_id, notice.id))  # each game's in the order they were written
        return versions, notices

    async def published_part(
        self, game_id: int, version: int, part: str, kind: str = "step", *, written_at: float | None = None
    ) -> None:
        """Note that one part of a version's consequences is out (a restart must not send it again). ``written_at``:
        the publication's row (``sends``); a row written anew since (an undo, and the version committed again) is
        another publication's, and not marked."""
        await self.write(
            "UPDATE outbox SET sent = sent || ',' || ? WHERE game_id = ? AND version = ? AND kind = ?" + ROW_WRITTEN_AT,
            (part, game_id, version, kind, written_at, written_at),
        )

    async def sends(self, game_id: int, version: int, kind: str = "step") -> Sent:
        """The outbox row's time of writing (None: no row) and the messages its publication already sent, by their
        place in it (``outbox_sends``), each with its message's id; and the channel's layout as the last channel part
        stored it (``channel_layout``), which the publication plans into: one read where each took its own."""
        rows = await self.db.fetchall(
            "SELECT o.created_at, s.part, s.message_id, p.channel FROM (SELECT ? AS game_id) g"
            " LEFT JOIN outbox o ON o.game_id = g.game_id AND o.version = ? AND o.kind = ?"
            " LEFT JOIN outbox_sends s ON s.game_id = o.game_id AND s.version = o.version AND s.kind = o.kind"
            " LEFT JOIN publisher_state p ON p.game_id = g.game_id",
            (game_id, version, kind),
        )
        layout = str(rows[0][3]) if rows[0][3] is not None else None  # the one-row table joined: a row at least
        if rows[0][0] is None:
            return Sent(None, {}, layout)
        sent = {str(r[1]): (int(r[2]) if r[2] is not None else None) for r in rows if r[1] is not None}
        return Sent(float(rows[0][0]), sent, layout)

    async def sent_message(
        self, game_id: int, version: int, kind: str, part: str, message_id: int | None, *, written_at: float
    ) -> None:
        """Discord accepted one message of a version's publication (its row written at ``written_at``): a retry of
        that publication skips it. A publication whose row an undo took out marks nothing: the mark would hold for
        the version committed again after it, whose publication is another and has not sent that message."""
        mark = (part, message_id, time.time(), game_id, version, kind, written_at)
        # Batched on PostgreSQL only: there each mark was a round trip and a commit of its own. Through SQLite the
        # batches cost the one process more than they spared (bench/bot.py --runs 3, two alternated pairs: 2.51 and
        # 2.32 ms of main CPU per answer batched, 2.32 and 2.22 not).
        if isinstance(self.db, PostgresDatabase):
            await self.message_marks(mark)
            return
        await self.write(
            "INSERT INTO outbox_sends (game_id, version, kind, part, message_id, at)"
            " SELECT game_id, version, kind, ?, CAST(? AS BIGINT), ? FROM outbox"
            " WHERE game_id = ? AND version = ? AND kind = ? AND created_at = ?"
            " ON CONFLICT (game_id, version, kind, part) DO UPDATE SET message_id = excluded.message_id",
            mark,
        )

    async def _mark_messages(self, marks: list[tuple[Any, ...]]) -> list[None]:
        """``sent_message``'s marks in one statement (PostgreSQL), each made only where its publication's row still
        is. In the order of their games, as every batch: two batches lock their rows in one order."""
        ordered = sorted(marks, key=lambda mark: (int(mark[3]), int(mark[4]), str(mark[0])))
        values = ", ".join(
            ["(?, CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT), CAST(? AS INTEGER), ?,"
             " CAST(? AS DOUBLE PRECISION))"] * len(ordered)
        )  # fmt: skip
        await self.write(
            "INSERT INTO outbox_sends (game_id, version, kind, part, message_id, at)"
            " SELECT o.game_id, o.version, o.kind, m.part, m.message_id, m.at FROM (VALUES " + values + ")"
            " AS m(part, message_id, at, game_id, version, kind, written_at) JOIN outbox o ON o.game_id = m.game_id"
            " AND o.version = m.version AND o.kind = m.kind AND o.created_at = m.written_at"
            " ON CONFLICT (game_id, version, kind, part) DO UPDATE SET message_id = excluded.message_id",
            tuple(value for mark in ordered for value in mark),
        )
        return [None] * len(marks)

    async def channel_done(
        self, game_id: int, version: int, kind: str, layout: str | None, *, written_at: float | None = None
    ) -> None:
        """A publication's channel part is out (its posts, edits and log lines): marked in its outbox row in one
        commit with the channel's layout as it leaves it (``layout``: the publisher's JSON; None: unchanged), so a
        retry of it, or the next publication after a crash, plans from what the channel really shows. The mark goes
        on the publication's own row only (``written_at``, as ``published_part``); the layout is the channel's
        whichever publication left it."""
        mark = (
            "UPDATE outbox SET sent = sent || ',channel' WHERE game_id = ? AND version = ? AND kind = ?"
            + ROW_WRITTEN_AT
        )
        marked = (game_id, version, kind, written_at, written_at)
        if layout is None:
            await self.write(mark, marked)
            return
        keep = (
            "INSERT INTO publisher_state (game_id, channel) SELECT id, ? FROM games WHERE id = ?"
            " ON CONFLICT (game_id) DO UPDATE SET channel = excluded.channel"
        )
        if isinstance(self.db, PostgresDatabase):  # one statement: its two parts commit together
            await self.write(f"WITH marked AS ({mark} RETURNING 1) {keep}", (*marked, layout, game_id))
            return
        async with self.transaction() as db:
            await db.execute(mark, marked)
            await db.execute(keep, (layout, game_id))

    async def channel_layout(self, game_id: int) -> str | None:
        """The channel's layout as the last publication's channel part left it (None: nothing told yet)."""
        row = await self.db.fetchone("SELECT channel FROM publisher_state WHERE game_id = ?", (game_id,))
        return str(row[0]) if row is not None and row[0] is not None else None

    async def status_shown(self, game_id: int) -> tuple[str | None, int | None]:
        """The pinned status's text as last shown (None: not known), and the version of the latest publication whose
        status edit is not known to be out (None: none is due)."""
        row = await self.db.fetchone(
            "SELECT status_text, status_due FROM publisher_state WHERE game_id = ?", (game_id,)
        )
        if row is None:
            return None, None
        return (str(row[0]) if row[0] is not None else None), (int(row[1]) if row[1] is not None else None)

    async def status_told(self, game_id: int, text: str, version: int) -> None:
        """The pinned status shows ``text``, the game at ``version``: a status due for that version or an earlier
        one is no longer due."""
        await self.write(
            "INSERT INTO publisher_state (game_id, status_text) SELECT id, ? FROM games WHERE id = ?"
            " ON CONFLICT (game_id) DO UPDATE SET status_text = excluded.status_text,"
            " status_due = CASE WHEN publisher_state.status_due <= ? THEN NULL ELSE publisher_state.status_due END",
            (text, game_id, version),
        )

    async def statuses_due(self) -> list[int]:
        """The games whose latest publications' status edit is not known to be out (a crash came first)."""
        rows = await self.db.fetchall(
            "SELECT game_id FROM publisher_state WHERE status_due IS NOT NULL"
            " AND game_id NOT IN (SELECT id FROM games WHERE broken_reason IS NOT NULL) ORDER BY 1"  # parked
        )
        return [int(r[0]) for r in rows]

    async def published(
        self, game_id: int, version: int, kind: str = "step", *, written_at: float | None = None
    ) -> None:
        """Everything a version implies is out, and so is everything of the game's earlier versions (published in
        order) but what failed and waits for a retry (``retry``), or met a lost database and waits to go again
        (``again``). The version's own row goes even when it was marked for a retry (this was the retry: left, it
        would stay forever). The marks of single messages go with their rows (and so do
        those of rows an undo took out). The game's pinned status is due for this version from the same commit: it is
        edited a moment later, and a crash meanwhile leaves it for the next start.

        ``written_at``: the publication's own row (``sends``; None: whatever row the version has). Only that row goes,
        and of an earlier version's undo (its ``reset`` row) only one written before it: an undo made while this
        publication went out wrote its reset row, and the version committed again its own, after it; those are still
        to publish. (Other rows of earlier versions go whenever they were written: the times of two processes' clocks
        need not agree, and only an undo writes an earlier version after a later one.)"""
        due = (  # a game deleted meanwhile (/mod delete) has no row to hold it
            "INSERT INTO publisher_state (game_id, status_due) SELECT id, ? FROM games WHERE id = ?"
            " ON CONFLICT (game_id) DO UPDATE SET status_due = excluded.status_due"
        )
        gone = (
            "DELETE FROM outbox WHERE game_id = ? AND ((version = ? AND kind = ?" + ROW_WRITTEN_AT + ")"
            " OR (version < ? AND sent NOT LIKE '%retry%' AND sent NOT LIKE '%again%'"
            " AND (kind != 'reset' OR CAST(? AS DOUBLE PRECISION) IS NULL OR created_at <= ?)))"
        )
        params = (version, game_id, game_id, version, kind, written_at, written_at, version, written_at, written_at)
        if isinstance(self.db, PostgresDatabase):
            # One statement, where a transaction of three took five round trips: its parts share one snapshot, so the
            # marks that go are those of the rows it deletes, besides those whose rows were gone already.
            await self.write(
                f"WITH due AS ({due} RETURNING 1), gone AS ({gone} RETURNING version, kind)"
                " DELETE FROM outbox_sends s WHERE s.game_id = ? AND (EXISTS (SELECT 1 FROM gone"
                " WHERE gone.version = s.version AND gone.kind = s.kind) OR NOT EXISTS (SELECT 1 FROM outbox o"
                " WHERE o.game_id = s.game_id AND o.version = s.version AND o.kind = s.kind))",
                (*params, game_id),
            )
            return
        async with self.transaction() as db:
            await db.execute(due, params[:2])
            await db.execute(gone, params[2:])
            await db.execute(
                "DELETE FROM outbox_sends WHERE game_id = ? AND NOT EXISTS (SELECT 1 FROM outbox o"
                " WHERE o.game_id = outbox_sends.game_id AND o.version = outbox_sends.version"
                " AND o.kind = outbox_sends.kind)",
                (game_id,),
            )
