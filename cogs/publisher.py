"""Publishing what a committed version implies: the channel's narration and images, the decision DMs it opened, the
open forms it changed, the pinned status; and the outbox's notices. Each game's posts go out in order, after the
receipt of the answer behind them; at start-up what a crash left in the outbox goes out first.

What the channel sees is built only from the public view and public events.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import io
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from app import metrics
from app.background import Background, ImagePool, PoolBusy
from app.channel_posts import SECRET_ANSWERS, Entry, Layout, Post, Table, battle_outcomes, plan_step
from app.database import is_connection_lost
from app.labels import awaited_text, house_mark, house_name
from app.leases import LostLease
from app.lru import Bounded
from app.narration import Item, continuing, group_line, last_phase, narrate_all, phase_header, trailing_items
from app.notices import from_payload, notice_text
from app.queries import OutboxKey
from app.service import Applied, GameService, ServiceError, opened_by, outbox_kind
from app.store import GameRow, Source
from app.store_outbox import Notice
from cogs.acks import AckFirst
from cogs.channels import Channels
from cogs.dms import DecisionDMs, deadline_text
from cogs.forms import MEMORY_GAMES, FormController
from cogs.story import STORY, StoryTeller
from cogs.text import MESSAGE_LIMIT, NAME_LIMIT, fit, shown, split
from engine import Game
from i18n import t

log = logging.getLogger("westeros.play")

FILES_PER_MESSAGE = 10  # Discord's limit
RETRY = "retry"  # an outbox part: this version's publication failed; its next try is its last
# An outbox part: this version's publication met a lost database or an unreachable Discord, which is no try of it; it
# goes again, and no later version's publication takes its row out meanwhile (it would drop what is still to send).
AGAIN = "again"
# One process: what failed to publish goes again this long after (it waited for the next start-up); the publishing
# worker of several drains the outbox every second anyway (cogs/pump.py).
RETRY_AFTER_S = 30.0
# The publishing worker: a version whose publication failed waits this long before its next try (an outage of Discord
# is not met with a request a second for each game).
FAILED_PAUSE_S = 5.0
MARK_PAUSE_S = (0.5, 10.0)  # the first wait before marking a failed publication again, doubling up to the second
# A publication's mark, made before it asks Discord for the game's log thread: a try that finds it looks for a thread
# Discord may have opened without the answer reaching the bot.
THREAD_OPENING = "thread:opening"


def failed(sent: frozenset[str]) -> bool:
    """Whether a version's publication failed (its outbox row is marked for another try)."""
    return RETRY in sent or AGAIN in sent


def out_of_reach(error: BaseException) -> bool:
    """The database or Discord could not be reached (a dropped connection, Discord's 5xx after discord.py's own
    tries): nothing about the publication itself, which must go again however long that lasts."""
    return is_connection_lost(error) or isinstance(
        error, discord.DiscordServerError | aiohttp.ClientConnectionError | ConnectionError
    )


class Sends:
    """The messages one version's publication sends, each marked in the outbox (``outbox_sends``) as soon as Discord
    accepted it, by its place in the publication: a retry (after a failure, or a crash and a restart) skips those,
    and sends each new message with a nonce of its own, so that Discord answers a send it already took (a crash
    between its answer and the mark) with the message it created then, within its nonce window. Read from the
    database at the first send only: a quiet step costs nothing."""

    def __init__(self, service: GameService, applied: Applied) -> None:
        self.service = service
        self.applied = applied
        self._written_at: float | None = None
        self._sent: dict[str, int | None] | None = None
        self._layout: str | None = None

    async def _marks(self) -> dict[str, int | None]:
        if self._sent is None:
            self._written_at, self._sent, self._layout = await self.service.sends(self.applied)
            own = self.applied.written_at
            if own is not None and self._written_at != own:
                # The version's row is another publication's: an undo took this one's out and the version was
                # committed again. This one marks nothing there (its marks and its end match its own row only).
                self._written_at, self._sent = own, {}
        return self._sent

    async def layout(self) -> str | None:
        """The channel's layout as the last channel part stored it (read with the marks: the channel part plans into
        it before its first send)."""
        await self._marks()
        return self._layout

    async def recorded(self, part: str) -> tuple[bool, int | None]:
        """Whether ``part`` went out already, and its message's id."""
        marks = await self._marks()
        return part in marks, marks.get(part)

    async def nonce(self, part: str) -> str:
        """The nonce of ``part``'s message: the same at every try of this publication, and another for the same
        version committed again after an undo (its outbox row is written anew)."""
        await self._marks()
        applied = self.applied
        key = f"{applied.game_id}:{applied.game.version}:{outbox_kind(applied)}:{self._written_at!r}:{part}"
        return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()  # 24 characters: Discord takes up to 25

    async def key(self) -> str:
        """This publication's name: the same at every try of it, another for the same version committed again after
        an undo (its outbox row is written anew)."""
        applied = self.applied
        return f"{applied.game_id}:{applied.game.version}:{outbox_kind(applied)}:{await self.written_at()!r}"

    async def written_at(self) -> float | None:
        """When this publication's outbox row was written (None: it has none)."""
        await self._marks()
        return self._written_at

    def any_out(self) -> bool:
        """Whether a message of this publication is marked out, by this try or an earlier one, as far as its marks
        were read: a try that read none asked for no part (no DM, no channel post) of a publication that sent one."""
        return bool(self._sent)

    async def mark(self, part: str, message_id: int | None) -> None:
        written_at = await self.written_at()
        if written_at is not None:  # else an undo took this publication's row out: nothing of it is retried
            await self.service.sent_message(self.applied, part, message_id, written_at=written_at)
        (await self._marks())[part] = message_id


def post_part(post: Post, lang: str, taken: set[str]) -> str:
    """A new channel post's place in its step's publication: its kind and first line, which a plan made again after
    a restart (the in-memory table lost) gives the same post, where an index might not."""
    first = post.text(lang).split("\n", 1)[0]
    stem = f"post:{post.kind}:{hashlib.blake2b(first.encode(), digest_size=6).hexdigest()}"
    n = 0
    while f"{stem}:{n}" in taken:
        n += 1
    taken.add(f"{stem}:{n}")
    return f"{stem}:{n}"


def notice_nonce(notice: Notice) -> str:
    """A notice's nonce: posted again after a crash between Discord's answer and its row's deletion, Discord answers
    with the message it made then. Its row's id with what it says (SQLite may give a deleted row's id to the next)."""
    key = f"notice:{notice.game_id}:{notice.id}:{notice.after_version}:{json.dumps(notice.payload, sort_keys=True)}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


def last_line_replaced(held: str, line: str) -> str:
    """A message's text with its last line rewritten into ``line``."""
    kept = held.rpartition("\n")[0]
    return f"{kept}\n{line}" if kept else line


def vassals_line(view: dict[str, Any], lang: str) -> str:
    """The status's line naming the vassals and who commands each this round ("" outside Mother of Dragons)."""
    vassals = view.get("vassals") or {}
    if not vassals:
        return ""
    items = [
        t("status.vassal-liege", lang, vassal=house_mark(v, lang), liege=house_name(liege, lang))
        if liege
        else house_mark(v, lang)
        for v, liege in sorted(vassals.items())
    ]
    return "\n" + t("status.vassals", lang, houses=", ".join(items))


# The publishing worker's own commits kept for its drain, at most (each holds a game's state, and its drain takes them
# within milliseconds; one the drain rebuilt first is forgotten with the oldest).
APPLIED_KEPT = 128


class Publisher:
    def __init__(
        self,
        service: GameService,
        order: AckFirst,
        channels: Channels,
        dms: DecisionDMs,
        forms: FormController,
        *,
        renderer: Any = None,
        background: Background | ImagePool | None = None,
    ) -> None:
        self.service = service
        self.order = order
        self.channels = channels
        self.dms = dms
        self.forms = forms
        self.renderer = renderer
        # Images are drawn in the bot's image pool (worker processes); without one, in threads.
        self.background: Background | ImagePool = background or Background()
        self.phase_shown: dict[int, str] = Bounded(MEMORY_GAMES)  # the phase whose header the channel saw last
        # Per game, the last message of its log thread: (message id, its content). The next step's lines are added to
        # it by an edit while there is room.
        self.open_text: dict[int, tuple[int, str]] = Bounded(MEMORY_GAMES)  # the log thread's last message
        # Per game, the items of the grouped line the log thread's last message ends with ("Nothing mustered: …"): a
        # next step's items of that group rewrite the line instead of adding one per house.
        self.log_carry: dict[int, list[Item]] = Bounded(MEMORY_GAMES)
        # The channel's layout (app/channel_posts.py), as the publication under way plans into it: loaded from the
        # database at each publication's channel part and stored with its mark (``_channel_part``).
        self.tables: dict[int, Table] = Bounded(MEMORY_GAMES)  # what each game's channel shows
        self.layouts_loaded: dict[int, str] = {}  # the layout as loaded, to store only a changed one
        self.threads: dict[int, int | None] = Bounded(MEMORY_GAMES)  # each game's log thread (None: none could open)
        self.posting: dict[int, asyncio.Task[None]] = {}  # each game's latest channel post, run in order
        self.status_pending: set[int] = set()
        self.statuses_checked = False  # whether the first drain looked for statuses due
        self.status_delay = 2.0  # seconds during which answers share one status edit
        self.status_tasks: set[asyncio.Task[None]] = set()
        # The status text this process showed last, per game, since it began to publish: only the publisher edits a
        # status, so its own last edit is what the channel shows, unread. Another publisher's turn may have edited it
        # since this one's last: forgotten at each turn (``new_turn``, ``end_turn``).
        self.status_known: dict[int, str] = Bounded(MEMORY_GAMES)
        # What ``drain`` has under way or done, so that draining again starts nothing twice.
        self.under_way: set[OutboxKey] = set()
        self.done_quietly: Bounded[OutboxKey, frozenset[str]] = Bounded(MEMORY_GAMES * 4)  # with the row's marks
        self.paused_until: Bounded[OutboxKey, float] = Bounded(MEMORY_GAMES * 4)  # failed: its next try waits
        self.noticing: set[int] = set()  # games whose notices are being posted
        self.last_game: Bounded[int, Game] = Bounded(MEMORY_GAMES)  # each game as its latest drained version left it
        # The publishing worker's own commits, as it applied them (``keep_applied``: while it holds the publish lock,
        # cogs/pump.py), by their outbox row: its drain publishes them without reading their entries back and
        # replaying them. A worker that does not publish keeps none.
        self.applied_here: Bounded[OutboxKey, Applied] = Bounded(APPLIED_KEPT)
        self.keep_applied = False
        # Asked before every send (the publishing worker's lease, cogs/pump.py); None: this process alone publishes.
        self.may_send: Callable[[], Awaitable[bool]] | None = None
        # What else follows a published version (the talks' threads, cogs/talk.py); each never raises.
        self.followers: list[Callable[[Applied], Awaitable[None]]] = []
        # The story of a game that ended (cogs/story.py): a part of its last version's publication.
        self.story = StoryTeller(service, channels, self.background, pictures=renderer is not None)
        # One process: how long after a failure what failed goes again (``retry_later``); None: the outbox is drained
        # often anyway (the publishing worker's pump sets it).
        self.retry_after: float | None = RETRY_AFTER_S
        self.retrying: asyncio.Task[None] | None = None

    async def _fence(self) -> None:
        """Stop (``LostLease``) unless this process may still send: another took the publisher's lease."""
        if self.may_send is not None and not await self.may_send():
            raise LostLease("this process no longer holds the publisher lease")

    # ----- after every accepted answer -----

    async def on_applied(self, applied: Applied) -> None:
        # What the version voids in memory first: the DMs to send again, the forms no longer live.
        self.dms.position_changed(applied)
        self.forms.position_changed(applied)
        if applied.source == Source.RESET:  # an undo: versions after it are made anew, not from what was held
            self.last_game[applied.game_id] = applied.game
        # The answer is committed: its player's receipt must not wait for the channel post, the images or the
        # next decisions' DMs. They run after it, one step after another for each game.
        self.after_answer(applied.game_id, lambda: self.publish(applied))

    async def committed_here(self, applied: Applied) -> None:
        """A worker committed this version: kept as applied while this worker publishes (``keep_applied``)."""
        if self.keep_applied and applied.written_at is not None:
            key = (applied.game_id, applied.game.version, outbox_kind(applied), applied.written_at)
            self.applied_here[key] = applied

    def after_answer(self, game_id: int, work: Callable[[], Awaitable[object]]) -> None:
        """Run ``work()`` once the game's earlier posts are done (posts of one game keep their order)."""
        previous = self.posting.get(game_id)

        async def in_turn() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            try:
                await work()
            except LostLease:  # the lease's next holder publishes it: nothing failed here
                log.info("game %s: this worker no longer publishes; the lease's holder takes it up", game_id)
            except Exception:  # its row stays in the outbox; said here, not by a task nobody awaits
                log.exception("publishing game %s failed", game_id)
                self.retry_later()

        # A fresh context: the work takes its own slot (cogs/acks.py) instead of the answering click's.
        task = asyncio.get_running_loop().create_task(in_turn(), context=contextvars.Context())
        self.posting[game_id] = task

        def finished(done: asyncio.Task[None]) -> None:
            if self.posting.get(game_id) is done:
                del self.posting[game_id]

        task.add_done_callback(finished)

    async def close(self) -> None:
        """Shutting down: the status edits still waiting for their answers to gather are dropped (their marks,
        ``status_due``, hold them for the next start), and so is the wait to publish again what failed (its rows
        hold it), rather than run against a closed database."""
        waiting = [*self.status_tasks, *([self.retrying] if self.retrying is not None else [])]
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    async def settled(self) -> None:
        """Wait until every post that answers have started is done (tests, shutdown)."""
        while self.posting:
            await asyncio.wait(list(self.posting.values()))

    async def drain(self, *, at_start: bool = True, failed_only: bool = False) -> list[int]:
        """Publish, each game in order, what the outbox holds and is not under way here; returns the games concerned.
        At start-up, what versions committed before a crash implied and never sent, one try each (their deadlines
        are re-armed by the caller). In the worker holding the publish lock (``cogs/pump.py``), again and again,
        whoever committed it: a publication that failed is tried once more (its row notes a retry)."""
        skip = self._skipped if not failed_only else lambda key, sent: self._skipped(key, sent) or not failed(sent)
        # The notices to post are read with the outbox, in one statement: the games with notices are below.
        pending, notices = await self.service.drainable(skip=skip, known=self._known, applied_here=self._applied_here)
        # A game's notices written before a publication's commit are posted before it, as they were when nothing
        # crashed (each after the publication of its own commit: a notice is written after its commit's row).
        noticed_before: dict[int, float] = {}
        for key, applied, sent in pending:
            game_id, written_at = applied.game_id, applied.written_at
            if written_at is not None and game_id not in self.noticing:
                earlier = [
                    n
                    for n in notices
                    if n.game_id == game_id and noticed_before.get(game_id, -1.0) <= n.created_at < written_at
                ]
                if earlier:
                    noticed_before[game_id] = written_at
                    self.after_answer(game_id, functools.partial(self.post_notices, game_id, before=written_at))
            self.under_way.add(key)
            self.dms.position_changed(applied)
            self.forms.position_changed(applied)
            self.last_game[applied.game_id] = applied.game
            last_try = at_start or RETRY in sent
            self.after_answer(applied.game_id, functools.partial(self._drained, key, applied, sent, last_try))
        if not self.statuses_checked:  # the statuses a crash left unedited (``OutboxStore.published``)
            self.statuses_checked = True
            for game_id in await self.service.store.statuses_due():
                self.schedule_status(game_id)
        noticed = {notice.game_id for notice in notices} - self.noticing
        for game_id in sorted(noticed):
            self.noticing.add(game_id)
            self.after_answer(game_id, functools.partial(self._noticed, game_id))
        return sorted({applied.game_id for _, applied, _ in pending})

    def _skipped(self, key: OutboxKey, sent: frozenset[str]) -> bool:
        """Under way here, or published quietly here with the marks its row still has, or failed here a moment ago
        (``FAILED_PAUSE_S``). A row marked since (``retry``, ``again``) was tried by another: a process whose turn as
        the publisher ended, a failure on its way out. No later version's publication takes such a row out, so
        skipped as done it would stay in the outbox forever."""
        if key in self.under_way or self.done_quietly.get(key) == sent:
            return True
        return self.paused_until.get(key, 0.0) > time.monotonic()

    def _applied_here(self, key: OutboxKey) -> Applied | None:
        """The version as this worker committed it, taken once (a retry of its publication rebuilds it)."""
        return self.applied_here.pop(key, None)

    def _known(self, game_id: int) -> Game | None:
        """The game as this publisher's latest drained version of it left it: a version after it is rebuilt from it
        and the entries since, not from the last snapshot and the whole log."""
        return self.last_game.get(game_id)

    async def _drained(self, key: OutboxKey, applied: Applied, sent: frozenset[str], last_try: bool) -> None:
        done = False
        try:
            if done := await self.publish(applied, sent, last_try=last_try):
                # Done, though a quiet version (nothing to tell) stays in the outbox until its game's next goes.
                self.done_quietly[key] = sent
                log.debug("version %s of game %s is published (drained)", key[1], key[0])
        finally:
            self.under_way.discard(key)
            if not done and self.retry_after is None:  # the publishing worker's next drains leave it for a while
                self.paused_until[key] = time.monotonic() + FAILED_PAUSE_S

    def retry_later(self) -> None:
        """One process: drain what failed (its row marked ``retry`` or ``again``) ``retry_after`` from now, once for
        all that fail meanwhile. Only what failed: the rest is published by the answers that committed it, and a
        drain of it could start a publication already under way."""
        if self.retry_after is None or (self.retrying is not None and not self.retrying.done()):
            return
        delay = self.retry_after

        async def retry() -> None:
            await asyncio.sleep(delay)
            self.retrying = None  # a failure of this drain's publications arms the next
            try:
                await self.drain(at_start=False, failed_only=True)
            except Exception:
                log.exception("could not look for the publications that failed; trying again later")
                self.retry_later()

        self.retrying = asyncio.get_running_loop().create_task(retry())

    def new_turn(self) -> None:
        """This worker took the publish lock again: whatever another holder did meanwhile is unknown here. A version
        this worker published quietly may have been tried by the other since and marked for a retry (which no later
        version's publication takes out): skipped as done, it would stay in the outbox forever. So the drain looks
        at every row again, and at the statuses a holder left unedited."""
        self.done_quietly.clear()
        self.statuses_checked = False
        self.status_known.clear()
        self.keep_applied = True

    def end_turn(self) -> None:
        """This worker no longer holds the publish lock: what it commits is another's to publish."""
        self.keep_applied = False
        self.applied_here.clear()
        self.status_known.clear()

    async def _noticed(self, game_id: int) -> None:
        try:
            await self.post_notices(game_id)
        finally:
            self.noticing.discard(game_id)

    async def publish(self, applied: Applied, sent: frozenset[str] = frozenset(), *, last_try: bool = False) -> bool:
        """Send what a committed version implies: the channel's lines and images, the DMs of the decisions it opened,
        the status. Each part sent (the channel post, each house's DM) is noted in the outbox. A version that sent
        something takes its game's published rows out with its own; a quiet one (most answers: a secret step, nothing
        to tell) costs no write and goes with the next, since publishing it again sends nothing. A failure keeps its
        row for the next start-up (``last_try``: that was it, the row goes anyway); False then."""
        game_id, version = applied.game_id, applied.game.version
        told = False
        sends = Sends(self.service, applied)  # its row is read at its first send (a quiet step reads nothing)
        try:
            images = await self.step_images(applied) if "channel" not in sent else []
            async with self.order.publishing():  # after the acknowledgements and the receipts (cogs/acks.py)
                if "channel" not in sent:
                    told = await self._channel_part(applied, images, sends)
                # Each decision DM is marked as Discord takes it (``outbox_sends``): a retry sends the rest. A house
                # marked whole (``dm:<house>``) is an outbox row of an earlier release.
                dm_sent = {part.removeprefix("dm:") for part in sent if part.startswith("dm:")}
                houses = opened_by(applied)
                if houses is None:
                    houses = {p.house for p in applied.game.prompts()}
                for house in sorted(houses - dm_sent):
                    await self._fence()
                    publication = await sends.key()
                    if await self.dms.notify_prompts(
                        game_id, applied.game, {house}, publication=publication, sends=sends
                    ):
                        told = True
                await self._fence()
                await self.forms.refresh_forms(game_id, applied.game)
            if applied.game.finished and STORY not in sent:  # drawn off the work slots, in the image pool
                told = await self.story.tell(applied, sends, self._fence) or told
            self.schedule_status(game_id)
            for follower in self.followers:
                await follower(applied)
        except Exception as err:
            if isinstance(err, ServiceError) and err.code == "no-game":  # deleted meanwhile (/mod delete)
                log.info("game %s was deleted before version %s was published", game_id, version)
                return True
            if out_of_reach(err):
                # The database or Discord was out of reach, which says nothing of this publication: no try of its own
                # (two such in a storm dropped the rest of its sends, the second being its last try). It goes again,
                # at the publishing worker's next drain, or ``retry_later`` in one process.
                log.warning("lost the database or Discord while publishing version %s of game %s (%s); it goes again",
                            version, game_id, type(err).__name__)  # fmt: skip
                if AGAIN not in sent:
                    await self._mark_failed(applied, AGAIN, sends)
                self.retry_later()  # once marked: the retry drains only what is
                return False
            what = "post" if isinstance(err, discord.HTTPException) else "publish"
            log.exception("could not %s the result of version %s of game %s", what, version, game_id)
            if not last_try:
                await self._mark_failed(applied, RETRY, sends)
                self.retry_later()
                return False
        # A try that finds every message sent by an earlier one (cut off from the lease after its last DM) tells
        # nothing now, yet its version told: quiet, its row would wait for the game's next told version.
        told = told or "channel" in sent or sends.any_out()
        if told or last_try or applied.game.finished or failed(sent):
            # This publication's own row, and the rows written before it: an undo made meanwhile wrote rows after
            # it that are still to publish. No row left (an undo took it out): nothing of it to take out. A quiet
            # one goes too if an earlier try had marked it: no later version's publication would take it out.
            written_at = await sends.written_at()
            if written_at is not None:
                await self.service.published(applied, written_at=written_at)
        return True

    async def _mark_failed(self, applied: Applied, part: str, sends: Sends) -> None:
        """Mark the publication's row as failed (``again``, ``retry``), however long the database is away: unmarked,
        the next publication of its game would take the row out with what it still has to send. Its game's later
        publications wait meanwhile (they run after this one)."""
        pause = MARK_PAUSE_S[0]
        while True:
            try:
                await self.service.published_part(applied, part, written_at=await sends.written_at())
                return
            except Exception as err:
                if not is_connection_lost(err):
                    raise
                log.warning("could not mark version %s of game %s to go again; trying in %s s",
                            applied.game.version, applied.game_id, pause)  # fmt: skip
            await asyncio.sleep(pause)
            pause = min(pause * 2, MARK_PAUSE_S[1])

    async def _channel_part(self, applied: Applied, images: list[tuple[str, bytes, str]], sends: Sends) -> bool:
        """The channel's part of a publication (``post_to_channel``), marked out in one commit with the layout it
        leaves (``OutboxStore.channel_done``): a retry skips it, and the next publication, in this process or another,
        plans from that layout. A step that told nothing and changed nothing costs no write. Whether it told
        anything."""
        game_id = applied.game_id
        told = await self.post_to_channel(game_id, applied.game, applied.events, images, sends=sends)
        loaded = self.layouts_loaded.pop(game_id, None)
        layout = self._layout(game_id).to_json() if loaded is not None else None
        changed = layout if layout != loaded else None
        if told or changed is not None:
            written_at = await sends.written_at()
            await self.service.store.channel_done(
                game_id, applied.game.version, outbox_kind(applied), changed, written_at=written_at
            )
        return told

    def _layout(self, game_id: int) -> Layout:
        """The game's layout as this publication's working memory holds it."""
        return Layout(
            self.tables.get(game_id) or Layout().table,
            self.phase_shown.get(game_id),
            self.open_text.get(game_id),
            list(self.log_carry.get(game_id) or []),
        )

    async def _load_layout(self, game_id: int, sends: Sends) -> None:
        """The working memory of the channel's layout, as the last publication's channel part stored it: never what
        this process held before (another process may have published since, or a crash cut a publication short)."""
        stored = await sends.layout()
        layout = Layout.from_json(stored) if stored is not None else Layout()
        self.tables[game_id] = layout.table
        if layout.phase_shown is None:
            self.phase_shown.pop(game_id, None)
        else:
            self.phase_shown[game_id] = layout.phase_shown
        if layout.open_text is None:
            self.open_text.pop(game_id, None)
        else:
            self.open_text[game_id] = layout.open_text
        self.log_carry[game_id] = layout.log_carry
        self.layouts_loaded[game_id] = layout.to_json()

    async def step_images(self, applied: Applied) -> list[tuple[str, bytes, str]]:
        """What the channel sees of a step (``render.images_for_step`` without the crops of changes), drawn in the
        image pool: each battle decided, and the whole board where the table looks at it (the start, the orders
        revealed, the end of the Action phase, the end); [] for every other step, without working out a view."""
        if self.renderer is None:
            return []
        from render import images_for_step
        from render.aio import table_shows_something

        game_id = applied.game_id
        public = [e for e in applied.events if "private_to" not in e]
        if not table_shows_something(applied.before is None, public):
            return []
        view_before, view_after = applied.views()
        lang = (await self.service.row(game_id)).settings.get("language", "en")
        outcomes = battle_outcomes(public, lang)  # the battles' losses and retreats in the channel's words
        try:
            # A partial of a module function pickles: the image workers are other processes.
            table_images = functools.partial(images_for_step, crops=False, outcomes=outcomes)
            drawing = self.background.run(table_images, view_before, view_after, public, lang)
            return await metrics.images_drawn(drawing)
        except PoolBusy:
            log.warning("the image queue is full: game %s's step is posted without its images", game_id)
        except Exception:
            log.exception("could not draw the images of game %s's step", game_id)
        return []

    async def post_to_channel(
        self,
        game_id: int,
        game: Game,
        events: list[dict[str, Any]],
        images: list[tuple[str, bytes, str]] | None = None,
        *,
        sends: Sends,
    ) -> bool:
        """What the step shows the table (``app/channel_posts.py``): new messages where the table must look, the
        messages still growing edited in place, the images attached to the messages they show; then every line in the
        log thread. Whether anything was posted. Each new message and each log-thread line is marked as it goes
        (``sends``), and so is each edit (an edit has no nonce, but it sets the whole text again: one repeated after
        a crash before its mark shows nothing new): a retry sends only the rest. The layout planned into is the
        stored one (``_load_layout``), the same at every try; most answers (a house answered a secret step) tell
        nothing, change nothing and read nothing."""
        public = [e for e in events if "private_to" not in e]
        if not images and all(e.get("type") in SECRET_ANSWERS for e in public):
            return False
        row = await self.service.row(game_id)
        lang = row.settings.get("language", "en")
        channel = await self.channels.channel(row.channel_id)
        await self._load_layout(game_id, sends)
        return await self._post_step(game_id, game, public, images or [], sends, row, lang, channel)

    async def _post_step(
        self,
        game_id: int,
        game: Game,
        public: list[dict[str, Any]],
        images: list[tuple[str, bytes, str]],
        sends: Sends,
        row: GameRow,
        lang: str,
        channel: discord.abc.Messageable,
    ) -> bool:
        carry = self.log_carry.get(game_id) or []
        lead, used = continuing(carry, public, lang)
        log_lines = self.narration(game_id, game, public[used:], lang, spoke=bool(used))
        regrouped = group_line(carry + lead, lang) if used else None
        tail = trailing_items(public[used:], lang)
        round_ = game.round - (1 if any(e["type"] == "round-started" for e in public) else 0)
        phase_after = game.view(None)["phase"] if (log_lines or used) and not game.finished else None
        table, posts = plan_step(self.tables.get(game_id) or Layout().table, public, lang, round_=round_,
                                 phase_after=phase_after)  # fmt: skip
        files = self._files_for(posts, images)
        if files.get(None):  # images no message of the step shows (the game's start): one message of their own
            view = game.view(None)
            name = shown(row.name, NAME_LIMIT)
            caption = t("map.caption", lang, game=name, round=view["round"], phase=t(f"phase.{view['phase']}", lang))
            posts.append(Post("board", [Entry(caption)], board=True))
            files[id(posts[-1])] = files.pop(None)
        taken: set[str] = set()
        for post in posts:
            text = fit(post.text(lang))  # a battle's or a board's lines are not split: cut at the limit if ever
            if post.message_id is None:
                part = post_part(post, lang, taken)
                attached = files.get(id(post), [])
                post.message_id = await self._send_once(sends, part, channel, text, attached[:FILES_PER_MESSAGE])
                for start in range(FILES_PER_MESSAGE, len(attached), FILES_PER_MESSAGE):
                    await self._send_once(
                        sends, f"{part}+{start}", channel, None, attached[start : start + FILES_PER_MESSAGE]
                    )
            elif not (await sends.recorded(f"edit:{post.message_id}"))[0]:
                edited = post.message_id
                try:
                    await self._fence()
                    await channel.get_partial_message(post.message_id).edit(content=text)  # type: ignore[attr-defined]
                except discord.NotFound:  # someone deleted it: the lines go out anew
                    post.message_id = await self._send_once(sends, f"repost:{post.message_id}", channel, text, [])
                await sends.mark(f"edit:{edited}", post.message_id)
            else:  # edited before a crash: as it was then (a message deleted meanwhile was posted anew)
                post.message_id = (await sends.recorded(f"edit:{post.message_id}"))[1]
            post.changed = False
        await self.log_to_thread(
            game_id, row.log_thread_id, row.channel_id, row.name, log_lines, lang, sends=sends, regrouped=regrouped
        )
        self.tables[game_id] = table
        self.log_carry[game_id] = carry + lead if tail is None else tail
        return bool(posts or log_lines or regrouped)

    async def _send_once(
        self, sends: Sends, part: str, to: discord.abc.Messageable, text: str | None, files: list[discord.File]
    ) -> int | None:
        """Send one new message of the publication unless it went out already (then its id, as recorded), with its
        nonce; marked as soon as Discord accepted it."""
        done, message_id = await sends.recorded(part)
        if done:
            return message_id
        nonce = await sends.nonce(part)
        await self._fence()
        message = await (to.send(text, files=files, nonce=nonce) if files else to.send(text, nonce=nonce))
        await sends.mark(part, message.id)
        return int(message.id)

    @staticmethod
    def _files_for(posts: list[Post], images: list[tuple[str, bytes, str]]) -> dict[int | None, list[discord.File]]:
        """The step's images by the post that shows them (``id`` of the post; None: no post of the step shows them): a
        battle's image on its battle's message, the board on the message that says why the table looks at it."""
        out: dict[int | None, list[discord.File]] = {}
        battles = {p.area: p for p in posts if p.kind == "battle" and p.message_id is None}
        board = next((p for p in posts if p.board and p.message_id is None), None)
        for name, png, kind in images:
            home: Post | None = None
            if kind == "battle":
                home = next((p for area, p in battles.items() if name.startswith(f"battle-{area}-")), None)
            elif kind == "board":
                home = board
            out.setdefault(id(home) if home is not None else None, []).append(
                discord.File(io.BytesIO(png), filename=name)
            )
        return out

    async def log_to_thread(
        self,
        game_id: int,
        thread_id: int | None,
        channel_id: int,
        game_name: str,
        lines: list[str],
        lang: str,
        *,
        sends: Sends,
        regrouped: str | None = None,
    ) -> None:
        """Every line of the step in the game's log thread, added to its last message while there is room (an edit
        notifies nobody). The thread is opened with the game's first lines; where it cannot be (no permission), the
        channel's messages and ``/game log`` remain. Each chunk of lines is marked once out (``sends``): an edit
        adds to a message, so a retry must not make it again. ``regrouped``: the grouped line the last message ends
        with, rewritten with this step's houses (one line of "Nothing mustered", not one per house)."""
        if not lines and regrouped is None:
            return
        thread = await self._log_thread(game_id, thread_id, channel_id, game_name, lang, sends=sends)
        if thread is None:
            return
        if regrouped is not None:
            done, message_id = await sends.recorded("log:regroup")
            open_ = self.open_text.get(game_id)
            if done and open_ is not None and open_[0] == message_id:  # rewritten before a crash: as it was then
                self.open_text[game_id] = (open_[0], last_line_replaced(open_[1], regrouped))
            elif not done:
                edited = await self._replace_last_line(game_id, thread, regrouped)
                if edited is not None:
                    await sends.mark("log:regroup", edited)
                else:  # no message is open, or it is full: the line goes out with the rest
                    lines = [regrouped, *lines]
        for index, chunk in enumerate(split(lines)):
            part = f"log:{index}"
            done, message_id = await sends.recorded(part)
            if done:  # out before a crash: the open message is what that left (added to it, or a new one)
                open_ = self.open_text.get(game_id)
                if message_id is None:
                    self.open_text.pop(game_id, None)
                elif open_ is not None and open_[0] == message_id:
                    self.open_text[game_id] = (message_id, f"{open_[1]}\n{chunk}")
                else:
                    self.open_text[game_id] = (message_id, chunk)
                continue
            edited = await self._add_to_open_text(game_id, thread, chunk)
            if edited is not None:
                await sends.mark(part, edited)
                continue
            message_id = await self._send_once(sends, part, thread, chunk, [])
            if message_id is not None:
                self.open_text[game_id] = (message_id, chunk)

    async def _replace_last_line(self, game_id: int, thread: discord.abc.Messageable, line: str) -> int | None:
        """Rewrite the last line of the log thread's last message: its id; None: no message is open here, the line
        does not fit, or the message is gone."""
        return await self._rewrite_open_text(game_id, thread, lambda held: last_line_replaced(held, line))

    async def _add_to_open_text(self, game_id: int, thread: discord.abc.Messageable, text: str) -> int | None:
        """Add a step's lines to the log thread's last message when there is room: its id; None: post anew (none is
        open, it is full, or it is gone)."""
        return await self._rewrite_open_text(game_id, thread, lambda held: f"{held}\n{text}")

    async def _rewrite_open_text(
        self, game_id: int, thread: discord.abc.Messageable, rewrite: Callable[[str], str]
    ) -> int | None:
        """Edit the log thread's last message into ``rewrite(what it holds)``: its id; None when no message is open
        here, the new text does not fit, or someone deleted the message."""
        open_ = self.open_text.get(game_id)
        if open_ is None:
            return None
        content = rewrite(open_[1])
        if len(content) > MESSAGE_LIMIT:
            return None
        try:
            await self._fence()
            await thread.get_partial_message(open_[0]).edit(content=content)  # type: ignore[attr-defined]
        except discord.NotFound:
            return None
        self.open_text[game_id] = (open_[0], content)
        return open_[0]

    async def _log_thread(
        self,
        game_id: int,
        thread_id: int | None,
        channel_id: int,
        game_name: str,
        lang: str,
        *,
        sends: Sends,
    ) -> discord.abc.Messageable | None:
        """The game's log thread, opened with its first lines. Discord has no nonce for a new thread: the publication
        marks that it is opening one before it asks (``THREAD_OPENING``), and a try of it that finds the mark (a
        crash came between opening the thread and recording its id, or in the asking) looks for the thread it opened
        among the server's active threads, and does not open a second. A first try lists no threads: the list is
        every active thread of the server, all parsed, a request each game's start made for nothing."""
        thread_id = self.threads.get(game_id, thread_id)
        if thread_id is not None:
            return self.channels.thread(thread_id)
        if game_id in self.threads:
            return None  # it could not be opened: not again until a restart
        try:
            parent = await self.channels.text_channel(channel_id)
            name = t("channel.thread-name", lang, game=shown(game_name, NAME_LIMIT))[:100]
            tried_before, _ = await sends.recorded(THREAD_OPENING)
            since = await sends.written_at() if tried_before else None
            thread = await self._opened_before(parent, name, since)
            if thread is None:
                await self._fence()
                if not tried_before:
                    await sends.mark(THREAD_OPENING, None)
                thread = await parent.create_thread(
                    name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
                )
        except (discord.HTTPException, TypeError):
            log.info("could not open the log thread of game %s (missing permission?)", game_id)
            self.threads[game_id] = None
            return None
        await self.service.set_log_thread(game_id, thread.id)
        self.threads[game_id] = thread.id
        return thread

    async def _opened_before(
        self, parent: discord.TextChannel, name: str, since: float | None
    ) -> discord.Thread | None:
        """The bot's active thread named ``name`` under ``parent`` opened since ``since`` (a crash came before its id
        was recorded), if any."""
        me = self.channels.bot.user
        if since is None or me is None:
            return None
        for thread in await parent.guild.active_threads():
            if (
                thread.parent_id == parent.id
                and thread.name == name
                and thread.owner_id == me.id
                and discord.utils.snowflake_time(thread.id).timestamp() >= since - 1
            ):
                return thread
        return None

    def narration(
        self, game_id: int, game: Game, events: list[dict[str, Any]], lang: str, *, spoke: bool = False
    ) -> list[str]:
        """The step's lines, a header opening each new phase: the events say when a phase begins, and the
        game's phase afterwards opens the one that starts without an event (planning after Westeros). ``spoke``: the
        step said something already (it continued the last grouped line), so a new phase's header may be due."""
        round_ = game.round - (1 if any(e["type"] == "round-started" for e in events) else 0)
        seen = self.phase_shown.get(game_id)
        lines = narrate_all(events, lang, round_=round_, phase=seen)
        seen = last_phase(events, seen)
        if not game.finished and (lines or spoke) and seen is not None:  # most answers narrate nothing: no view
            now = game.view(None)["phase"]
            if now != seen:
                lines.append(phase_header(game.round, now, lang))
                seen = now
        if seen is not None:
            self.phase_shown[game_id] = seen
        return lines

    def forget_game(self, game_id: int) -> None:
        """An ended game leaves every in-memory table (its last posts still go out, in order)."""
        self.dms.forget_game(game_id)
        self.forms.forget_game(game_id)
        self.after_answer(game_id, functools.partial(self._forget_channel, game_id))

    async def _forget_channel(self, game_id: int) -> None:
        """Once the ended game's last posts are out: what its channel and log thread showed."""
        self.phase_shown.pop(game_id, None)
        self.open_text.pop(game_id, None)
        self.log_carry.pop(game_id, None)
        self.tables.pop(game_id, None)
        self.threads.pop(game_id, None)

    # ----- the pinned status -----

    def schedule_status(self, game_id: int) -> None:
        """Coalesce status edits: Discord allows few edits per channel, and a burst of answers needs one."""
        if game_id in self.status_pending:
            return
        self.status_pending.add(game_id)

        async def flush() -> None:
            await asyncio.sleep(self.status_delay)
            self.status_pending.discard(game_id)
            try:
                async with self.order.publishing():
                    await self.update_status(game_id, await self.service.load(game_id))
            except LostLease:  # the lease's next holder edits it (its mark, ``status_due``, stays)
                log.info("game %s: this worker no longer publishes; its status is the lease's holder's", game_id)
            except Exception:  # its mark (``status_due``) stays: the next publication or start edits it
                log.exception("could not update the status message of game %s", game_id)

        task = asyncio.get_running_loop().create_task(flush())
        self.status_tasks.add(task)
        task.add_done_callback(self.status_tasks.discard)

    async def update_status(self, game_id: int, game: Game) -> None:
        """One pinned message per game, edited in place: round, phase, who is awaited, the next deadline."""
        row = await self.service.row(game_id)
        lang = row.settings.get("language", "en")
        view = game.view(None)
        if game.finished:
            text = t(
                "status.pinned.over",
                lang,
                name=shown(row.name, NAME_LIMIT),
                winner=house_mark(game.winner, lang),
            )
        else:
            awaiting = awaited_text(view, lang)
            text = t(
                "status.pinned",
                lang,
                name=shown(row.name, NAME_LIMIT),
                ruleset=t(f"ruleset.{row.settings.get('ruleset', 'base')}", lang),
                vassals=vassals_line(view, lang),
                round=view["round"],
                phase=t(f"phase.{view['phase']}", lang),
                awaiting=awaiting,
                deadline=await deadline_text(self.service, game_id, lang),
            )
        store = self.service.store
        known = self.status_known.get(game_id)
        if known == text:  # nothing changed since this process showed it: its mark of due goes, unread
            await self._status_told(game_id, text, game.version)
            return
        if known is None:
            shown_text, due = await store.status_shown(game_id)  # as stored: another process may have edited it
            if shown_text == text:  # nothing changed: spare Discord an edit
                if due is not None:
                    await self._status_told(game_id, text, game.version)
                else:
                    self.status_known[game_id] = text
                return
        channel = await self.channels.channel(row.channel_id)
        message_id = await self.service.status_message(game_id)
        if message_id is not None:
            try:
                await self._fence()
                await channel.get_partial_message(message_id).edit(content=text)  # type: ignore[attr-defined]
                await self._status_told(game_id, text, game.version)
                return
            except discord.NotFound:
                pass  # someone deleted it: post a new one
        # Sent again after a crash before its id was recorded, Discord answers with the message it made then.
        nonce = hashlib.blake2b(f"status:{game_id}:{message_id}".encode(), digest_size=12).hexdigest()
        await self._fence()
        message = await channel.send(text, nonce=nonce)
        try:
            await self._fence()
            await message.pin()
        except discord.HTTPException:
            log.info("could not pin the status message of game %s (missing permission?)", game_id)
        # Recorded once pinned, so whoever reads the record finds the message as players see it.
        await self.service.set_status_message(game_id, message.id)
        await self._status_told(game_id, text, game.version)

    async def _status_told(self, game_id: int, text: str, version: int) -> None:
        """The status shows ``text`` (as of ``version``): stored, then known here (a failure leaves it unknown)."""
        self.status_known.pop(game_id, None)
        await self.service.store.status_told(game_id, text, version)
        self.status_known[game_id] = text

    # ----- notices -----

    def on_notices(self, game_id: int) -> None:
        """Notices were written to the outbox: they are posted after the game's posts already under way."""
        self.after_answer(game_id, functools.partial(self.post_notices, game_id))

    async def post_notices(self, game_id: int, *, before: float | None = None) -> None:
        """Post the game's notices still in the outbox, in order, each deleted once it is out (a failure keeps it and
        those after it for the next start-up). ``before``: only those written before then (a drain's publication
        committed after them comes next)."""
        pending = [n for n in await self.service.pending_notices(game_id) if before is None or n.created_at < before]
        if not pending:
            return
        row = await self.service.row(game_id)
        lang = row.settings.get("language", "en")
        channel = await self.channels.channel(row.channel_id)
        for notice in pending:
            try:
                text = notice_text(from_payload(notice.payload), lang)
            except (KeyError, TypeError, ValueError):  # a notice no words fit is dropped, not left to block the rest
                log.exception("notice %s of game %s cannot be worded; it is dropped", notice.id, game_id)
                await self.service.notice_posted(notice.id)
                continue
            try:
                await self._fence()
                await channel.send(text, nonce=notice_nonce(notice))
            except discord.HTTPException:
                log.exception("could not post a notice of game %s", game_id)
                self.retry_later()
                return
            await self.service.notice_posted(notice.id)
