"""Deadlines and reminders with APScheduler, the database being the source of truth.

Every open step of a running game has one deadline row (``deadlines`` table): its *step key* (the ids of
the open prompts), its category and due time. The scheduler only mirrors those rows; at start-up
``restore()`` re-arms them all and overdue ones fire at once. When a deadline fires, the default answer
(or the autopilot agent's answer) is applied to every house that has not answered — but only while the
game still shows the same step key, so a deadline and a last answer arriving together advance the game
exactly once (the answer path and the deadline path both go through the game's lock and the version
compare-and-set in the store).

Several processes may run deadlines on one database, each with its own scheduler: a deadline is fired by the process
that claims it in the table (``DeadlineStore.claim``), for a lease; one that dies while firing lets go when the lease
runs out. Every process also sweeps the table now and then for overdue deadlines nobody holds, so a deadline armed by
a process that died still fires. A reminder goes out from the process that notes it first.

A process without the AI's pool beside processes that have one (the gateway of workers: ``ai_elsewhere``) fires no
deadline of a game whose ``autopilot`` is ``ai``: it leaves the row unclaimed and a worker's timer or sweep fires it, so
such a deadline's answers are always the searching agent's, in every deployment.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from app import metrics
from app.ai import ai_seat
from app.ai_think import SEARCHING
from app.commands import Answer, Arming, Plan
from app.database import IntegrityError
from app.kinds.registry import DeadlineCategory, registered
from app.notices import AbsentPlayer, ChannelNotice, DeadlinePassed, VacationTaken, to_payload
from app.service import Applied, GameService, GameSettings, ServiceError
from app.store import ACTIVE, DeadlineRow, DeadlineStore, GameRow, GameStatus, Source
from engine import Game, RuleError, rules
from engine.agents import HeuristicAgent
from engine.prompts import Prompt, PromptKind

log = logging.getLogger("westeros.deadlines")


# Each kind's category is its registration's (``app/kinds/``); ``tests/app/test_deadlines.py`` holds it total.
CATEGORY_OF_KIND: dict[PromptKind, DeadlineCategory] = {spec.kind: spec.category for spec in registered()}
# When decisions of several categories are open at once, the step waits as long as the first of them here says.
CATEGORY_PRECEDENCE = (DeadlineCategory.ORDERS, DeadlineCategory.BIDS, DeadlineCategory.BATTLE, DeadlineCategory.OTHER)
MAX_DEADLINE_S = 7 * 24 * 3600  # no deadline, set or extended, lies further out than this
MIN_DEADLINE_S = 60
FLAG_AFTER_MISSES = 3
CLAIM_LEASE_S = 300.0  # how long a process holds a deadline it fires, before another may take it over
SWEEP_EVERY_S = 30.0  # how often each process looks for overdue deadlines nobody holds


@dataclass(frozen=True)
class Reminder:
    """The houses still awaited, reminded at half time (``which``) or an hour before the deadline."""

    game_id: int
    houses: list[str]
    due_at: float
    which: str


def news_key_of(step: str) -> str:
    return f"deadline-news:{step}"


# A deadline's news for the channel (DeadlinePassed, AbsentPlayer) goes to the outbox with ``GameService.notice``;
# a reminder is a DM of the moment, which a restart may skip without loss (the next one, or the deadline, follows).
Notify = Callable[[Reminder], Awaitable[None]]
# (agent kind, game, prompt, budget ms) -> the agent's answer, worked out off the event loop (``AiPlayers.autopilot``)
Think = Callable[[str, Game, Prompt, float], Awaitable[Any]]


def step_key(game: Game) -> str:
    return "|".join(sorted(game.prompt_ids()))


def deadline_step(key: str) -> str:
    """A short name of a step for the keys of its deadline's commands (a step key can be long)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def category(game: Game) -> DeadlineCategory:
    open_ = {CATEGORY_OF_KIND[PromptKind(p.kind)] for p in game.prompts()}
    return next((c for c in CATEGORY_PRECEDENCE if c in open_), DeadlineCategory.OTHER)


class Deadlines:
    def __init__(
        self,
        service: GameService,
        scheduler: AsyncIOScheduler,
        *,
        clock: Callable[[], float] = time.time,
        notify: Notify | None = None,
        flag_after: int = FLAG_AFTER_MISSES,
        lease: float = CLAIM_LEASE_S,
        ai_elsewhere: bool = False,
    ) -> None:
        self.flag_after = flag_after
        # The gateway of workers has no AI pool: the deadlines of games the AI answers are left to the workers'.
        self.ai_elsewhere = ai_elsewhere
        self._left: dict[int, str] = {}  # game -> the step this process last left to the workers (logged once)
        self.lease = lease
        self.service = service
        self.scheduler = scheduler
        self.table = DeadlineStore(service.store)
        self.clock = clock
        self.notify = notify
        self.think: Think | None = None  # the AI's pool, once it is wired (app/ai.py); else the heuristic agent here
        service.subscribe(self.on_applied)
        service.clock = self  # moderators' and players' commands on the clock go through the service

    # ----- keeping the table in step with the games -----

    async def on_applied(self, applied: Applied) -> None:
        await self.arm(applied.game_id, applied.game)

    async def arm(self, game_id: int, game: Game | None = None, *, recompute: bool = False) -> DeadlineRow | None:
        """Make the deadline row match the game's open step (new step: new deadline; same step: keep)."""
        row = await self.service.row(game_id)
        if row.status not in ACTIVE:
            await self.disarm(game_id)
            return None
        game = game or await self.service.load(game_id)
        if game.finished or not game.prompt_ids():
            await self.disarm(game_id)
            return None
        current = await self.table.get(game_id)
        if current is not None and current.step_key == step_key(game) and not recompute:
            return current
        new = await self._next(game_id, game, row, current)
        await self.table.put(new)
        self._schedule(new)
        return new

    async def arming(self, game_id: int, game: Game, row: GameRow) -> Arming | None:
        """The deadline ``game`` (a new version of the game of ``row``, not yet committed) needs, as statements of the
        commit that makes it (None: the stored row already fits it)."""
        current = await self.table.get(game_id)
        if row.status not in ACTIVE or game.finished or not game.prompt_ids():
            if current is None:
                return None
            return Arming([self.table.clear_write(game_id)], lambda: self._unschedule(game_id))
        if current is not None and current.step_key == step_key(game):
            return None
        new = await self._next(game_id, game, row, current)
        return Arming([self.table.put_write(new)], lambda: self._schedule(new))

    async def _next(self, game_id: int, game: Game, row: GameRow, current: DeadlineRow | None) -> DeadlineRow:
        """The deadline of the game's open step: its category's duration from when the step opened (now, for a new
        step), the daily time if the game keeps one, and the vacations of the houses awaited."""
        key = step_key(game)
        settings = GameSettings.from_dict(row.settings)
        cat = category(game)
        duration = _clamp(settings.deadlines.get(cat, settings.deadlines.get("other", 12 * 3600)))
        now = current.opened_at if current is not None and current.step_key == key else self.clock()
        due = now + duration
        if settings.daily_at:
            due = next_daily(now, settings.daily_at, settings.timezone)
        # A player on vacation is waited for until the vacation ends (never beyond the cap), and so are the vassals
        # he commands: a vacation is taken in the liege's own house's name.
        vacations = await self.table.vacations(game_id)
        awaited = {rules.commander(game.state, p.house) for p in game.prompts() if not p.answered}
        away = [until for house, (until, _) in vacations.items() if house in awaited and until > due]
        if away:
            due = min(max(away), self.clock() + MAX_DEADLINE_S)
        return DeadlineRow(
            game_id, key, cat, now, due, max(0.0, due - now) if row.status == GameStatus.PAUSED else None
        )

    async def disarm(self, game_id: int) -> None:
        await self.table.clear(game_id)
        self._unschedule(game_id)

    async def restore(self, *, sweep_every: float | None = SWEEP_EVERY_S) -> int:
        """Re-arm every stored deadline (called at start-up); overdue ones fire at once. Then sweep the table every
        ``sweep_every`` seconds (None: never)."""
        rows = await self.table.all()
        for row in rows:
            self._schedule(row)
        for game in await self.service.store.active_games():
            # Every open step gets its deadline, and every decision with one answer is answered: what a commit
            # implied and a crash may have skipped. A game that no longer loads is quarantined; the others go on.
            try:
                loaded = await self.service.load(game.id)
                await self.arm(game.id, loaded)
                if game.status == GameStatus.RUNNING and not loaded.finished:
                    await self.service.answer_forced(game.id, loaded)
            except ServiceError as err:
                log.warning("game %s was not re-armed: %s", game.id, err.message)
        if sweep_every is not None:
            self.scheduler.add_job(
                self.sweep, "interval", seconds=sweep_every, id="deadline-sweep", replace_existing=True,
                coalesce=True, max_instances=1,
            )  # fmt: skip
        return len(rows)

    async def sweep(self) -> int:
        """Fire every overdue deadline no process holds (its scheduler's process died, or never knew it); how many."""
        fired = 0
        for game_id, key in await self.table.overdue(self.clock()):
            try:
                if await self.fire(game_id, key):
                    fired += 1
            except ServiceError as err:  # one game that cannot be played (quarantined) stops no other
                log.warning("the deadline of game %s was not fired: %s", game_id, err.message)
        return fired

    # ----- what commands do to the clock (``GameService.execute`` commits each plan with its command) -----

    async def plan_extend(self, game_id: int, seconds: float) -> Plan:
        """Move the current deadline by ``seconds`` (negative shortens); never beyond MAX_DEADLINE_S from now."""
        row = await self.table.get(game_id)
        if row is None:
            raise ServiceError("no-deadline", "Nothing is awaited in this game.")
        now = self.clock()
        due = min(max(row.due_at + seconds, now), now + MAX_DEADLINE_S)
        new = DeadlineRow(row.game_id, row.step_key, row.category, row.opened_at, due, row.paused_remaining)

        async def schedule() -> None:
            self._schedule(new)

        # A true minus sign (U+2212), as every number players read.
        params = {"hours": f"{seconds / 3600:+g}".replace("-", "\u2212"), "due": f"<t:{int(due)}:R>"}
        return Plan([self.table.put_write(new)], schedule, params, until=due)

    async def plan_vacation(self, game_id: int, house: str, days: float) -> Plan:
        """Start (or extend) a house's vacation. Each player has the game's allowance."""
        row = await self.service.row(game_id)
        settings = GameSettings.from_dict(row.settings)
        until, used = (await self.table.vacations(game_id)).get(house, (0.0, 0.0))
        if days <= 0 or used + days > settings.vacation_days:
            raise ServiceError(
                "vacation-allowance",
                "That is more vacation than this game allows.",
                left=f"{settings.vacation_days - used:g}",
            )
        end = max(self.clock(), until) + days * 24 * 3600

        async def rearm() -> None:
            await self.arm(game_id, recompute=True)

        told = [to_payload(VacationTaken(house, end))]
        return Plan([self.table.vacation_write(game_id, house, end, used + days)], rearm, until=end, notices=told)

    async def force(self, game_id: int) -> list[str]:
        """Apply the deadline now (the moderator's 'force'); the houses answered for."""
        row = await self.table.get(game_id)
        if row is None:
            raise ServiceError("no-deadline", "Nothing is awaited in this game.")
        if await self._left_to_workers(game_id, row.step_key):
            return await self._due_now(game_id, row)
        return await self.fire(game_id, row.step_key)

    async def _due_now(self, game_id: int, row: DeadlineRow) -> list[str]:
        """The gateway's force of a game the AI answers: the deadline falls due now and a worker's sweep fires it
        (within ``DEADLINE_SWEEP_S``); the houses it is to answer for. A paused game's deadline stays as it is (a
        force there answers nothing, as ``fire``'s claim refuses it)."""
        if row.paused_remaining is not None:
            return []
        due = min(row.due_at, self.clock())
        await self.table.put(DeadlineRow(game_id, row.step_key, row.category, row.opened_at, due, None))
        self._unschedule(game_id)
        game = await self.service.load(game_id)
        return sorted({p.house for p in game.prompts() if not p.answered})

    async def plan_pause(self, game_id: int) -> Plan:
        writes = [self.service.store.status_write(game_id, GameStatus.PAUSED)]
        row = await self.table.get(game_id)
        if row is not None:
            remaining = max(0.0, row.due_at - self.clock())
            paused = DeadlineRow(row.game_id, row.step_key, row.category, row.opened_at, row.due_at, remaining)
            writes.append(self.table.put_write(paused))

        async def unschedule() -> None:
            self._unschedule(game_id)

        return Plan(writes, unschedule)

    async def plan_resume(self, game_id: int) -> Plan:
        writes = [self.service.store.status_write(game_id, GameStatus.RUNNING)]
        row = await self.table.get(game_id)
        if row is not None and row.paused_remaining is not None:
            now = self.clock()
            new = DeadlineRow(row.game_id, row.step_key, row.category, row.opened_at, now + row.paused_remaining, None)
            writes.append(self.table.put_write(new))

            async def schedule() -> None:
                self._schedule(new)

            return Plan(writes, schedule)

        async def arm() -> None:
            await self.arm(game_id)

        return Plan(writes, arm)

    # ----- firing -----

    async def when_due(self, game_id: int, key: str, due_at: float) -> list[str]:
        """The scheduler's call at the due time it was given. Another process may have moved the deadline since (an
        extension, a pause): then the table's row is mirrored again instead."""
        self.table.store.deadline_cache.pop(game_id, None)
        row = await self.table.get(game_id)
        if row is None or row.step_key != key:
            return []
        if row.due_at != due_at or row.paused_remaining is not None:
            self._schedule(row)
            return []
        return await self.fire(game_id, key)

    async def fire(self, game_id: int, key: str) -> list[str]:
        """Answer for every house still awaited in step ``key``, if this process is the one to claim it (``[]``
        otherwise); returns the houses answered for."""
        if await self._left_to_workers(game_id, key):
            return []
        if not await self.table.claim(game_id, key, now=self.clock(), lease=self.lease):
            return []
        try:
            answered = await self._fire(game_id, key)
            metrics.deadline_fired(answered)
            return answered
        finally:
            await self.table.release(game_id, key)

    async def _left_to_workers(self, game_id: int, key: str) -> bool:
        """Whether this process (a gateway, ``ai_elsewhere``) leaves the deadline of step ``key`` to the workers: the
        game's autopilot is the searching agent, which only they can run."""
        if not self.ai_elsewhere:
            return False
        try:
            row = await self.service.row(game_id)
        except ServiceError:
            return False  # no such game: ``fire`` finds nothing to claim
        if GameSettings.from_dict(row.settings).autopilot != SEARCHING:
            return False
        if self._left.get(game_id) != key:
            self._left[game_id] = key
            log.info("the deadline of game %s is left to the workers (the AI answers it)", game_id)
        return True

    async def _fire(self, game_id: int, key: str) -> list[str]:
        """Each house's default is a command of its own, keyed by the step and the house, and carries its missed
        deadline in its commit; the last one carries the deadline's news, naming every house the deadline answered for
        (those an earlier firer answered before it died too). A firer that dies at any point leaves a state the next
        one completes: no house answered twice, none left out of the news or the record."""
        answered: list[str] = []
        row = await self.service.row(game_id)
        if row.status != GameStatus.RUNNING:
            return answered
        settings = GameSettings.from_dict(row.settings)
        game = await self.service.load(game_id)
        if step_key(game) != key:
            await self.arm(game_id, game)  # the step moved on: this deadline is stale, the open step gets its own
            return answered
        step = deadline_step(key)
        earlier = await self.service.store.keyed_houses(game_id, f"deadline:{step}:")
        todo = [p for p in game.prompts() if not p.answered]
        for number, prompt in enumerate(todo):
            answer = await self._autopilot(settings, game, prompt)
            player = rules.commander(game.state, prompt.house)  # a vassal's missed decision is its liege's
            # An AI seat's decision the AI did not answer in time (its queue full, say) is answered here too, but nobody
            # missed it: no record, no news (app/ai.py's seat with no member behind it).
            missed = None if ai_seat(game.state, player) else player
            news: tuple[dict[str, Any], ...] = ()
            if number == len(todo) - 1:
                houses = sorted(set(earlier) | {*answered, prompt.house})
                news = await self._news(game_id, settings, houses, game, last_player=missed)
            command = Answer(game_id=game_id, house=prompt.house, answer=answer, prompt_id=prompt.id,
                             source=Source.DEADLINE, only_if_unanswered=True, key=f"deadline:{step}:{prompt.house}",
                             missed_by=missed, news=news)  # fmt: skip
            try:
                await self._answer(command, prompt.default, step)
            except (ServiceError, RuleError) as err:
                # Someone answered in the meantime, or the step changed: that answer stands.
                log.info("deadline for game %s, %s skipped: %s", game_id, prompt.house, err)
                # The news was to ride on this answer: it goes on its own, under the key a firer's answer that carried
                # the news recorded in its commit, so it is told once whichever firer (or none) told it first.
                if news:
                    await self.service.notice_once(game_id, news_key_of(step), list(news))
                continue
            answered.append(prompt.house)
        return answered

    async def _answer(self, command: Answer, default: Any, step: str) -> None:
        """A deadline's answer on the one path; one that carries the news records its key in its commit. Two firers
        (one whose lease ran out while the AI thought) may each carry the news on a different last house when a
        member answered between their reads: the second commit is refused by the key, and goes again without it."""
        if not command.news:
            await self.service.execute_or_default(command, default)
            return
        try:
            await self.service.execute_or_default(replace(command, news_key=news_key_of(step)), default)
            return
        except IntegrityError as err:
            if not self.service.store.key_refused(err):
                raise
            log.info("game %s: the deadline's news was told by another firer", command.game_id)
        await self.service.execute_or_default(replace(command, news=()), default)

    async def _autopilot(self, settings: GameSettings, game: Game, prompt: Prompt) -> Any:
        """An absent house's answer: the default, or the agent the game's ``autopilot`` setting names (``ai``: the
        searching agent, ``simple``: the heuristic one), worked out in the AI's pool when there is one."""
        if settings.autopilot not in ("ai", "simple"):
            return prompt.default
        if self.think is not None:
            try:
                return await self.think(settings.autopilot, game, prompt, settings.ai_budget_ms)
            except Exception:
                log.exception("the autopilot could not answer %s: the heuristic agent does", prompt.id)
        return HeuristicAgent(game.state.seed + game.version).answer(prompt, game.view(prompt.house))

    async def _news(
        self, game_id: int, settings: GameSettings, houses: list[str], game: Game, *, last_player: str | None
    ) -> tuple[dict[str, Any], ...]:
        """What the channel is told of a deadline that answered for ``houses``: the houses, and each player whose run
        of missed deadlines reaches the flag with this one (``last_player``'s miss is recorded with the news). The
        AI seats' houses (and their vassals) are left out: nobody was absent there; none left, nothing is told."""
        houses = [h for h in houses if not ai_seat(game.state, rules.commander(game.state, h))]
        if not houses:
            return ()
        told: list[ChannelNotice] = []
        players = sorted({rules.commander(game.state, h) for h in houses})
        for player in players:
            misses = await self.service.store.missed_in_a_row(game_id, player) + (player == last_player)
            if misses >= self.flag_after:
                told.append(AbsentPlayer(game_id, player, misses))
        told.append(DeadlinePassed(game_id, houses, settings.autopilot))
        return tuple(to_payload(n) for n in told)

    async def remind(self, game_id: int, key: str, which: str) -> None:
        if self.notify is None:
            return
        game = await self.service.load(game_id)
        if step_key(game) != key:
            return
        row = await self.table.get(game_id)
        houses = [p.house for p in game.prompts() if not p.answered]
        if houses and row is not None and await self.table.first_to_remind(game_id, key, which):
            await self.notify(Reminder(game_id, houses, row.due_at, which))

    # ----- the scheduler mirrors the table -----

    def _schedule(self, row: DeadlineRow) -> None:
        self._unschedule(row.game_id)
        if row.paused_remaining is not None:
            return
        when = datetime.fromtimestamp(row.due_at, tz=UTC)
        self.scheduler.add_job(
            self.when_due, "date", run_date=when, args=[row.game_id, row.step_key, row.due_at],
            id=f"deadline:{row.game_id}",
            replace_existing=True, misfire_grace_time=None, coalesce=True,
        )  # fmt: skip
        now = self.clock()
        length = row.due_at - row.opened_at
        for which, at in (("half", row.opened_at + length / 2), ("hour", row.due_at - 3600)):
            if at > now and at > row.opened_at:
                self.scheduler.add_job(
                    self.remind, "date", run_date=datetime.fromtimestamp(at, tz=UTC),
                    args=[row.game_id, row.step_key, which], id=f"remind-{which}:{row.game_id}",
                    replace_existing=True, misfire_grace_time=600,
                )  # fmt: skip

    def _unschedule(self, game_id: int) -> None:
        for job_id in (f"deadline:{game_id}", f"remind-half:{game_id}", f"remind-hour:{game_id}"):
            if self.scheduler.get_job(job_id) is not None:
                self.scheduler.remove_job(job_id)


DAILY_MIN_GAP_S = 3600  # a daily deadline is never less than an hour away


def next_daily(now: float, daily_at: str, timezone: str, *, min_gap: float = DAILY_MIN_GAP_S) -> float:
    """The first ``daily_at`` (HH:MM, local time in ``timezone``) at least ``min_gap`` seconds after ``now``.

    Computed in local time so that it stays at 20:00 across daylight-saving changes.
    """
    hour, minute = (int(x) for x in daily_at.split(":"))
    zone = ZoneInfo(timezone)
    earliest = datetime.fromtimestamp(now + min_gap, tz=zone)
    candidate = earliest.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if candidate < earliest:
        candidate = (candidate + timedelta(days=1)).replace(hour=hour, minute=minute)
    return candidate.timestamp()


def _clamp(seconds: float) -> float:
    return max(MIN_DEADLINE_S, min(MAX_DEADLINE_S, float(seconds)))
