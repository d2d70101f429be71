"""The game service: every change to a game is a typed command (``app/commands.py``) applied by ``execute`` on one
path: who may, validate, apply, commit, publish.

One game's commands are applied one at a time (a per-game lock plus the store's compare-and-set on the version).
A command is committed, with its idempotency key and the channel notices it implies, in one transaction before
anyone is told it was accepted; what a committed version implies is then published from the outbox
(``cogs/publisher.py``), once, even across a crash. The read side is ``app/queries.py``.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, overload

from app import metrics
from app.commands import (
    AddAi,
    Answer,
    Clock,
    Command,
    Delete,
    Done,
    End,
    Export,
    Extend,
    Force,
    Gift,
    Import,
    Join,
    LeaveLobby,
    ModeratorCommand,
    Pause,
    PickHouse,
    Plan,
    RemoveAi,
    Resume,
    SetDeadlines,
    SetSeat,
    Start,
    Undo,
    Vacation,
    Vassalize,
)
from app.decisions import may_force, only_answer
from app.lru import KeyedLocks
from app.notices import AuditLine, ChannelNotice, to_payload
from app.queries import (
    GIFT,
    REPAIR,
    SEAT_CHANGE,
    VASSALIZE,
    Applied,
    BrokenGame,
    GameQueries,
    GameSettings,
    ServiceError,
    SharedGame,
    UndoPreview,
    decider,
    opened_by,
    outbox_kind,
    parse_scenario,
    replay,
    reveals_something,
    seats_held,
)
from app.store import (
    ACTIVE,
    DuplicateCommand,
    GameRow,
    GameStatus,
    HouseTaken,
    MemberData,
    Notice,
    NotInLobby,
    Sent,
    Source,
    Store,
    VersionConflict,
)
from engine import Game, RuleError, new_game, rules, rulesets
from engine.rulesets.mother_of_dragons import TARGARYEN_CARD_SETS
from i18n import LANGUAGES

__all__ = [
    "GIFT",
    "REPAIR",
    "SEAT_CHANGE",
    "VASSALIZE",
    "Applied",
    "GameService",
    "GameSettings",
    "ServiceError",
    "SharedGame",
    "UndoPreview",
    "decider",
    "opened_by",
    "outbox_kind",
    "parse_scenario",
    "replay",
    "reveals_something",
    "seats_held",
]

log = logging.getLogger("westeros.service")

# The settings of /game new that take one of a few values (Discord offers them as choices; a request is checked all
# the same).
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "assignment": ("random", "join-order"),
    "language": LANGUAGES,
    "autopilot": ("ai", "simple", "defaults"),
    "targaryen_cards": TARGARYEN_CARD_SETS,
}
SNAPSHOT_EVERY = 25  # answers between state snapshots of a running game (undo replays at most this many)
VERSION_RETRIES = 3  # how often a command is applied again when another process committed to its game first

Listener = Callable[[Applied], Awaitable[None]]
EndListener = Callable[[int], None]
NoticeListener = Callable[[int], None]

LoggedCommand = Answer | Gift | SetSeat | Vassalize
TableCommand = Pause | Resume | Extend | SetDeadlines | Force | End | Export | Vacation


@dataclass(frozen=True)
class Entry:
    """What a logged command adds to the log: who it is for, how the log names it, what it records, how it changes
    the game (replayed the same way by ``replay``), and the seats it sets."""

    house: str
    log_id: str  # the prompt answered, or GIFT / SEAT_CHANGE / VASSALIZE
    record: Any
    apply: Callable[[Game], list[dict[str, Any]]]
    source: Source
    seats: dict[str, int | None] | None = None


class GameService(GameQueries):
    """Applies commands; a listener's failure is logged and never undoes or hides what is already committed."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self._locks = KeyedLocks()
        self._channel_locks = KeyedLocks()
        self._listeners: list[Listener] = []
        self._end_listeners: list[EndListener] = []
        self._notice_listeners: list[NoticeListener] = []
        self.clock: Clock | None = None  # the deadlines, once they are wired

    # ----- who listens -----

    def subscribe(self, listener: Listener) -> None:
        """``listener(applied)`` after every committed version (and a start, an undo, a repair)."""
        self._listeners.append(listener)

    def subscribe_end(self, listener: EndListener) -> None:
        """``listener(game_id)`` once a game has ended (its last answer, or a moderator's end): drop what is
        kept in memory for it."""
        self._end_listeners.append(listener)

    def subscribe_notices(self, listener: NoticeListener) -> None:
        """``listener(game_id)`` once notices of a game were written to the outbox (they are to be posted)."""
        self._notice_listeners.append(listener)

    def _ended(self, game_id: int) -> None:
        self._parsed.pop(game_id, None)
        self.store.forget(game_id)
        for listener in self._end_listeners:
            try:
                listener(game_id)
            except Exception:
                log.exception("an end listener failed for game %s", game_id)

    async def _notify(self, applied: Applied) -> None:
        for listener in self._listeners:
            try:
                await listener(applied)
            except Exception:
                log.exception("a listener failed after game %s version %s", applied.game_id, applied.game.version)

    def quarantined(self, game_id: int) -> None:
        self._noticed(game_id)  # the moderators' notice waits in the outbox

    def _noticed(self, game_id: int) -> None:
        for listener in self._notice_listeners:
            try:
                listener(game_id)
            except Exception:
                log.exception("a notice listener failed for game %s", game_id)

    async def notice(self, game_id: int, notices: list[ChannelNotice]) -> None:
        """Channel lines no command goes with (a deadline's news): to the outbox, then posted."""
        await self.store.add_notices(game_id, [to_payload(n) for n in notices])
        self._noticed(game_id)

    async def notice_once(self, game_id: int, key: str, notices: list[dict[str, Any]]) -> None:
        """Channel lines written once under ``key``, whoever writes them again (a deadline's news after a crash)."""
        try:
            await self.store.apply([], game_id=game_id, key=key, name="notice", by=None, notices=notices)
        except DuplicateCommand:
            return
        self._noticed(game_id)

    def lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """One game's commands one at a time (the lock leaves memory when nobody holds or awaits it)."""
        return self._locks.hold(game_id)

    # ----- the one path -----

    @overload
    async def execute(self, command: LoggedCommand | Undo | Import | Start) -> Applied: ...

    @overload
    async def execute(self, command: Join | LeaveLobby | AddAi | RemoveAi) -> list[int]: ...

    @overload
    async def execute(self, command: PickHouse) -> dict[int, str]: ...

    @overload
    async def execute(self, command: TableCommand | Delete) -> Done: ...

    async def execute(self, command: Command) -> Applied | list[int] | dict[int, str] | Done:
        """Apply one command: who may, validate, apply, commit (with its key and notices), publish. Raises
        ``RuleError`` when the rules refuse it and ``ServiceError`` when the table does (``already-done``: a command
        with this key was applied already); either way nothing changed. Another process may commit to the same game
        between the read and the commit (several processes on one database): the command is then applied again to the
        game as it now stands, a few times at most."""
        for attempt in range(1, VERSION_RETRIES + 1):
            try:
                return await self._execute(command)
            except VersionConflict:
                if attempt == VERSION_RETRIES:
                    raise
                log.info("game %s moved on under %s; applying it again", command.game_id, command.name)
        raise AssertionError("unreachable")

    async def execute_or_default(self, command: Answer, default: Any) -> Applied:
        """An answer worked out for a house (the agent's, a deadline's) on the one path, or ``default`` (its prompt's)
        if the rules refuse it: a decision answered for someone is never left open by a refused answer. The default
        refused too raises, as ``execute`` does."""
        try:
            return await self.execute(command)
        except RuleError:
            if command.answer == default:
                raise
            return await self.execute(replace(command, answer=default))

    async def _execute(self, command: Command) -> Applied | list[int] | dict[int, str] | Done:
        try:
            if isinstance(command, Answer | Gift | SetSeat | Vassalize):
                return await self._logged(command)
            if isinstance(command, Undo):
                return await self._undo(command)
            if isinstance(command, Import):
                return await self._import(command)
            if isinstance(command, Start):
                return await self._start(command)
            if isinstance(command, Join | LeaveLobby | AddAi | RemoveAi):
                return await self._lobby(command)
            if isinstance(command, PickHouse):
                return await self._pick(command)
            if isinstance(command, TableCommand):
                return await self._table(command)
            if isinstance(command, Delete):
                return await self._delete(command)
        except DuplicateCommand as err:
            raise ServiceError("already-done", "That was already done.") from err
        except BrokenGame as err:
            await self.quarantine(err)
            raise
        raise TypeError(f"no path for {type(command).__name__}")

    async def answer(self, command: Answer) -> None:
        """A player's answer, for a caller that needs only to know it was recorded (a form's Submit): applied like
        any command here; a gateway of several processes hands it to its workers instead (``app/queue.py``)."""
        await self.execute(command)

    def _audit(self, command: Command, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """A moderator's command is told in the channel, after what it changed (its notice, in the outbox)."""
        if not isinstance(command, ModeratorCommand) or command.by is None:
            return []
        houses: dict[str, Any] = {}
        params = dict(params or {})
        if isinstance(command, SetSeat | Vassalize):
            houses["house"] = command.house
        if isinstance(command, SetSeat) and command.new and command.user_id is not None:
            params["member"] = f"<@{command.user_id}>"
        if "houses" in params:
            houses["houses"] = params.pop("houses")
        line = AuditLine(command.by, command.name, params, houses, agreed=command.consented_by is not None)
        return [to_payload(line)]

    async def _active(self, game_id: int, *, player: bool) -> GameRow:
        """The game, if it runs (a player's command is refused while it is paused; a moderator's is not)."""
        row = await self.row(game_id)
        if player and row.status == GameStatus.PAUSED:
            raise ServiceError("paused", "A moderator has paused this game.")
        if row.status not in ACTIVE or row.state is None:
            raise ServiceError("not-running", "This game is not running.")
        return row

    # ----- commands that log an entry -----

    async def _logged(self, command: LoggedCommand) -> Applied:
        game_id = command.game_id
        if isinstance(command, SetSeat | Vassalize) and command.by is not None:
            await self.check_handover(game_id, command.house, moderator=command.by, consented_by=command.consented_by)
        async with self.lock(game_id):
            # A retry of a command already committed (its worker died before recording the outcome) is answered from
            # the record, never from the rules: the position it was checked against is gone. The record is read only
            # when the command does not simply commit (one read less per answer): a retry the new position refuses is
            # looked up then, and one it accepts is refused by the commit's unique key (``DuplicateCommand``), which
            # stores nothing. Either way it ends as a recorded command, exactly as a lookup before the rules did.
            try:
                shared, applied, notices = await self._logged_locked(command)
            except BrokenGame:
                raise
            except (ServiceError, RuleError):
                if command.key is None or not await self.store.command_recorded(game_id, command.key):
                    raise
                recorded = True
            except DuplicateCommand:
                recorded = True
            else:
                recorded = False
        if recorded:
            await self.finish_recorded(game_id)
            raise DuplicateCommand(f"game {game_id} already applied the command {command.key}")
        if isinstance(command, Answer):
            metrics.answer_applied(applied.source)
        await self._notify(applied)
        if notices:
            self._noticed(game_id)
        if shared.finished:
            self._ended(game_id)
        else:
            await self.answer_forced(game_id, shared)
        return applied

    async def _logged_locked(self, command: LoggedCommand) -> tuple[SharedGame, Applied, list[dict[str, Any]]]:
        game_id = command.game_id
        # A paused game takes no player's answer, nor the agent's (app/ai.py answers again on the resume's notice).
        player = isinstance(command, Gift) or (
            isinstance(command, Answer) and command.source in (Source.PLAYER, Source.AI)
        )
        row = await self._active(game_id, player=player)
        before = self._shared(game_id, row)
        entry = await self._entry(command, before, row)
        game = before.copy()  # the command works on its own copy
        version = game.version
        events = entry.apply(game)
        state = game.to_json()
        notices = self._audit(command) + (list(command.news) if isinstance(command, Answer) else [])
        # Readers share the new version from here on; nothing changes it again. (Made before the deadline's arming,
        # which asks for its prompts several times: a shared game works them out once, for everyone after it too.)
        shared = SharedGame(game.state)
        # The next step's deadline is written in the commit itself: a crash after it can never leave the new
        # step without one.
        arming = await self.clock.arming(game_id, shared, row) if self.clock is not None else None
        at = time.time()  # the commit's: its outbox row's too, which names this publication's own row
        writes = list(arming.writes) if arming is not None else []
        if isinstance(command, Answer) and command.missed_by is not None:
            writes.append(self.store.missed_write(game_id, command.missed_by))
        if isinstance(command, Answer) and command.news and command.news_key is not None:
            writes.append(self.store.key_write(game_id, command.news_key, "notice"))
        await self.store.commit_answer(
            game_id,
            expected_version=version,
            new_version=game.version,
            new_state=state,
            house=entry.house,
            user_id=command.by,
            prompt_id=entry.log_id,
            answer=entry.record,
            source=entry.source,
            snapshot=game.version % SNAPSHOT_EVERY == 0 or game.finished,
            status=GameStatus.ENDED if game.finished else None,
            events=events,
            player=rules.commander(game.state, entry.house),
            key=command.key,
            seats=entry.seats,
            notices=notices,
            writes=writes,
            at=at,
        )
        self._parsed[game_id] = (state, shared)
        if arming is not None:
            arming.committed()
        return shared, Applied(game_id, entry.house, entry.source, shared, events, before, written_at=at), notices

    async def _entry(self, command: LoggedCommand, before: SharedGame, row: GameRow) -> Entry:
        """Who may give the command, and whether the table allows it now; the rules are checked as it applies."""
        if isinstance(command, Answer):
            house, by = command.house, command.by
            seats = await self.store.seats(command.game_id) if by is not None else {}
            if by is not None and command.source == Source.PLAYER and decider(before.state, seats, house) != by:
                raise ServiceError("not-your-house", "Only the player seated for this house may answer for it.")
            prompt = before.prompt_for(house)
            if prompt is None:
                raise RuleError("not-your-turn", f"Nothing is asked of {house} now.", house=house)
            if command.only_if_unanswered and prompt.answered:
                raise ServiceError("already-answered", f"{house} has already answered.")
            answer, prompt_id = command.answer, command.prompt_id
            return Entry(house, prompt.id, answer, lambda g: g.act(house, answer, prompt_id=prompt_id), command.source)
        if isinstance(command, Gift):
            if row.status != GameStatus.RUNNING or command.by is None:
                raise ServiceError("not-running", "This game is not running.")
            giver = await self.house_of(command.game_id, command.by)
            if command.house is not None and giver != command.house:
                raise ServiceError("gift-stale", "You no longer play the house this gift was asked for.")
            to, amount = command.to, command.amount
            return Entry(giver, GIFT, {"to": to, "amount": amount}, lambda g: g.gift(giver, to, amount), Source.PLAYER)
        if isinstance(command, Vassalize):
            leaver = command.house
            return Entry(leaver, VASSALIZE, {}, lambda g: g.vassalize(leaver), Source.MODERATOR)
        house, user_id = command.house, command.user_id
        seats = await self.store.seats(command.game_id)
        if house not in seats or house in before.state.vassals:
            raise ServiceError("no-such-house", "No one plays this house in this game.", house=house)
        held = [h for h, u in seats.items() if u is not None and u == user_id and (command.new or h != house)]
        if held:
            raise ServiceError("already-seated", "That member already plays a house here.", house=held[0])
        seat = str(user_id) if user_id is not None else None
        autopilot = command.autopilot
        return Entry(
            house,
            SEAT_CHANGE,
            {"seat": seat, "autopilot": autopilot},
            lambda g: g.set_seat(house, seat, autopilot=autopilot),
            Source.MODERATOR,
            seats={house: user_id},
        )

    async def finish_recorded(self, game_id: int) -> None:
        """What a committed command implied beyond its commit, done again for a retry of it (idempotent): the open
        step's deadline, and the decisions with a single answer, answered."""
        row = await self.row(game_id)
        if row.status not in ACTIVE or row.state is None:
            return
        game = self._shared(game_id, row)
        if self.clock is not None:
            await self.clock.arm(game_id, game)
        if not game.finished and row.status == GameStatus.RUNNING:
            await self.answer_forced(game_id, game)

    async def answer_forced(self, game_id: int, game: Game) -> None:
        """Answer, and log as such, every open prompt that has exactly one legal answer (U: never asked)."""
        if not may_force(game.prompt_ids()):  # orders only (each answer of a Planning phase): nothing to work out
            return
        for prompt in game.prompts():
            only = None if prompt.answered else only_answer(prompt)
            if only is not None:
                forced = Answer(
                    game_id=game_id,
                    house=prompt.house,
                    answer=only[0],
                    prompt_id=prompt.id,
                    source=Source.AUTO,
                    only_if_unanswered=True,
                )
                with contextlib.suppress(RuleError, ServiceError):  # someone answered first, or the step moved on
                    await self.execute(forced)
                return  # the answer above handled what followed

    # ----- commands that set the position -----

    async def _undo(self, command: Undo) -> Applied:
        """Restore the state before the last logged entry by replaying the log from a snapshot. A moderator who holds
        a seat may not take back an entry that showed anything secret (a reveal, a peek): he would then choose again
        knowing it. Undo restores the seats with the state."""
        game_id = command.game_id
        async with self.lock(game_id):
            row = await self.row(game_id)
            if command.expected_version is not None and row.version != command.expected_version:
                raise ServiceError("undo-stale", "The game has moved on since.")
            game, last = await self._replayed_before_last(game_id, row)
            if self._preview(game, last, row, await self.seated(game_id, command.by)).refused:
                raise ServiceError("undo-past-reveal", "A seated player may not undo past a reveal.")
            seats = seats_held(game.state, await self.store.seats(game_id))
            notices = self._audit(command, {"version": row.version})
            written_at = await self.store.truncate_after(
                game_id,
                game.version,
                game.to_json(),
                seats,
                key=command.key,
                by=command.by,
                notices=notices,
            )
            self._parsed.pop(game_id, None)
            shared = await self.load(game_id)
        # Every decision open at the restored version is sent afresh: the forms of the later position are void.
        applied = Applied(game_id, "", Source.RESET, shared, [], written_at=written_at)
        await self._notify(applied)
        if notices:
            self._noticed(game_id)
        return applied

    async def _import(self, command: Import) -> Applied:
        """Replace the position with a scenario (a moderator's repair); the old history stays in the log.

        The scenario must be for this game's houses (left out, they are this game's); anything the engine refuses
        (``RuleError``, or a value of the wrong shape) is a ``bad-scenario`` refusal and nothing is stored."""
        game_id = command.game_id
        async with self.lock(game_id):
            row = await self._active(game_id, player=False)
            assert row.state is not None
            if await self.seated(game_id, command.by):
                raise ServiceError("seated-repair", "A player of this game may not replace its position.")
            # A quarantined game's state does not load: its houses and seats are read from the seats it keeps.
            old = None if row.broken_reason is not None else Game.from_json(row.state)
            stored_seats = await self.store.seats(game_id)
            houses = sorted(rules.player_houses(old.state)) if old is not None else sorted(stored_seats)
            options = old.state.options if old is not None else GameSettings.from_dict(row.settings).options()
            spec = dict(command.spec)
            spec = {**spec, "players": spec.get("players", houses), "options": spec.get("options", options)}
            wanted = spec["players"]
            if not (wanted == len(houses) or (isinstance(wanted, list) and sorted(map(str, wanted)) == houses)):
                raise ServiceError("scenario-players", "The scenario is for other houses.", houses=houses)
            try:
                game = Game.from_scenario(spec)
            except RuleError as err:
                raise ServiceError("bad-scenario", err.message, reason=err.message) from err
            except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
                # The engine validates scenarios; whatever slips through its checks is still a bad scenario.
                raise ServiceError("bad-scenario", str(err), reason=f"{type(err).__name__}: {err}") from err
            if sorted(rules.player_houses(game.state)) != houses:
                raise ServiceError("scenario-players", "The scenario is for other houses.", houses=houses)
            for house in game.state.players:
                if old is not None and house in old.state.houses:
                    game.state.houses[house].seat = old.state.houses[house].seat
                    game.state.houses[house].autopilot = old.state.houses[house].autopilot
                elif old is None and stored_seats.get(house) is not None:
                    game.state.houses[house].seat = str(stored_seats[house])
            game.state.version = row.version + 1
            events = [{"type": "game-repaired"}]
            notices = self._audit(command)
            at = time.time()  # the repair's outbox row's: its publication marks and ends that row only
            await self.store.commit_answer(
                game_id,
                expected_version=row.version,
                new_version=game.version,
                new_state=game.to_json(),
                house="",
                user_id=command.by,
                prompt_id=REPAIR,
                answer=spec,
                source=Source.MODERATOR,
                snapshot=True,
                events=events,
                key=command.key,
                notices=notices,
                writes=[self.store.repaired_write(game_id)] if row.broken_reason is not None else [],
                at=at,
            )
            self._parsed.pop(game_id, None)
            shared = await self.load(game_id)
            if self.clock is not None:
                await self.clock.arm(game_id, shared)
        applied = Applied(game_id, "", Source.MODERATOR, shared, events, written_at=at)
        await self._notify(applied)
        if notices:
            self._noticed(game_id)
        await self.answer_forced(game_id, shared)
        return applied

    # ----- the lobby -----

    async def create(
        self, *, guild_id: int, channel_id: int, creator: int, name: str, settings: GameSettings, key: str | None = None
    ) -> int:
        """A new lobby. A channel holds one game at a time (in its lobby or running): two would make every
        channel command ambiguous. ``key`` (the interaction's id): the same ``/game new`` delivered twice (two gateways
        by mistake, a retry) gets the game the first made, before any check (the channel holds it now)."""
        if key is not None and (made := await self.store.game_created_by(key)) is not None:
            return made
        if settings.ruleset not in rulesets.RULESETS:
            raise RuleError(
                "unknown-ruleset", "No such ruleset.", ruleset=settings.ruleset, known=sorted(rulesets.RULESETS)
            )
        counts = rulesets.named(settings.ruleset).player_counts()
        if settings.players not in counts:
            raise ServiceError(
                f"players-{settings.ruleset}",
                f"This ruleset is played by {min(counts)} to {max(counts)} players.",
                players=settings.players,
                low=min(counts),
                high=max(counts),
            )
        for option, allowed in SETTING_CHOICES.items():
            if getattr(settings, option) not in allowed:
                raise ServiceError("bad-setting", f"{option} is not one of the choices offered.", option=option)
        if not 0 <= settings.ai_seats < settings.players:
            raise ServiceError("ai-seats", "At least one seat is a member's.", players=settings.players)
        settings.complete_houses([])  # the houses are dealt: the ruleset accepts its own defaults
        async with self._channel_locks.hold(channel_id):
            existing = await self.store.games_in_channel(channel_id)
            if existing:
                raise ServiceError(
                    "channel-busy", "This channel already has a game.", name=existing[0].name, game=existing[0].id
                )
            return await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                created_by=creator,
                settings=settings.to_dict(),
                create_key=key,
            )

    async def _lobby(self, command: Join | LeaveLobby | AddAi | RemoveAi) -> list[int]:
        game_id, user_id = command.game_id, command.by
        if user_id is None:
            raise ServiceError("not-joined", "You are not in this game.")
        async with self.lock(game_id):
            row = await self.row(game_id)
            if row.status != GameStatus.LOBBY:
                if isinstance(command, Join | AddAi | RemoveAi):
                    raise ServiceError("game-started", "This game has already started.")
                raise ServiceError("game-started", "The game has started: ask a moderator to replace you.")
            players = await self.store.lobby(game_id)
            ai_seats = int(row.settings.get("ai_seats", 0))
            if isinstance(command, RemoveAi):
                if ai_seats == 0:
                    raise ServiceError("no-ai-seat", "No seat of this game is the AI's.")
                settings = {**row.settings, "ai_seats": ai_seats - 1}
                writes = [self.store.settings_write(game_id, settings)]
                await self.store.apply(writes, game_id=game_id, key=command.key, name=command.name, by=user_id)
                return players
            if len(players) + ai_seats >= row.settings["players"] and not isinstance(command, LeaveLobby):
                if isinstance(command, Join) and user_id in players:
                    raise ServiceError("already-joined", "You are already in this game.")
                raise ServiceError("game-full", "Every seat is taken.")
            if isinstance(command, AddAi):
                # The AI seats are a lobby setting: the start deals them houses nobody chose (``_deal``).
                settings = {**row.settings, "ai_seats": ai_seats + 1}
                writes = [self.store.settings_write(game_id, settings)]
                await self.store.apply(writes, game_id=game_id, key=command.key, name=command.name, by=user_id)
            elif isinstance(command, Join):
                if user_id in players:
                    raise ServiceError("already-joined", "You are already in this game.")
                await self.store.join_lobby(game_id, user_id)
            elif not await self.store.leave_lobby(game_id, user_id):
                raise ServiceError("not-joined", "You are not in this game.")
            return await self.store.lobby(game_id)

    async def _pick(self, command: PickHouse) -> dict[int, str]:
        """A lobby player chooses his house among this game's choices (each house once), or leaves it to the deal
        (``house`` None). Returns every player's pick."""
        game_id, user_id, house = command.game_id, command.by, command.house
        async with self.lock(game_id):
            row = await self.row(game_id)
            if row.status != GameStatus.LOBBY:
                raise ServiceError("pick-after-start", "The game has started: houses are no longer chosen.")
            if user_id is None or user_id not in await self.store.lobby(game_id):
                raise ServiceError("pick-not-joined", "Join the game before you choose a house.")
            if house is None:
                await self.store.unpick_house(game_id, user_id)
                return await self.store.lobby_picks(game_id)
            if house not in GameSettings.from_dict(row.settings).choosable_houses():
                raise ServiceError("house-not-offered", "That house cannot be chosen in this game.")
            try:
                await self.store.pick_house(game_id, user_id, house)
            except HouseTaken as err:
                raise ServiceError("house-taken", "Another player has chosen that house.") from err
            except NotInLobby as err:
                raise ServiceError("pick-not-joined", "Join the game before you choose a house.") from err
            return await self.store.lobby_picks(game_id)

    @staticmethod
    def _deal(
        settings: GameSettings, players: list[int], picks: dict[int, str], seed: int
    ) -> tuple[Game, dict[str, int | None]]:
        """The game with the houses chosen in the lobby and, for the players who chose none, houses dealt from those
        left (at random by the game's seed, or in join order), the AI seats last; and its seats, house -> player (None:
        an AI seat, a house with no member that the agent plays), in turn order."""
        picks = {u: h for u, h in picks.items() if u in players}
        game = new_game(settings.complete_houses(picks.values()), seed=seed, options=settings.options())
        houses = rules.player_houses(game.state)  # vassals have no seat: their lieges decide for them
        left = [h for h in houses if h not in picks.values()]
        if settings.assignment == "random":
            random.Random(seed).shuffle(left)
        members: list[int | None] = [u for u in players if u not in picks]
        dealt = dict(zip(left, members + [None] * settings.ai_seats, strict=True))
        chosen: dict[str, int | None] = {h: u for u, h in picks.items()}
        seats = {h: chosen[h] if h in chosen else dealt[h] for h in houses}
        for house, user in seats.items():
            if user is None:
                game.state.houses[house].autopilot = True  # an AI seat (app/ai.py)
            else:
                game.state.houses[house].seat = str(user)
        return game, seats

    async def _start(self, command: Start) -> Applied:
        """Seat the houses chosen in the lobby, deal the others, and start. ``announce(game, seats)`` runs once the
        start is committed and before anyone else is told (the Discord layer shows the seats to the table before the
        DMs go out)."""
        game_id = command.game_id
        async with self.lock(game_id):
            row = await self.row(game_id)
            if row.status != GameStatus.LOBBY:
                raise ServiceError("game-started", "This game has already started.")
            settings = GameSettings.from_dict(row.settings)
            players = await self.store.lobby(game_id)
            taken = len(players) + settings.ai_seats
            if taken != settings.players:
                raise ServiceError("seats-empty", f"{taken} of {settings.players} seats are taken.", taken=taken)
            seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(2**63)
            game, seats = self._deal(settings, players, await self.store.lobby_picks(game_id), seed)
            state = game.to_json()
            # The first step's deadline is in the start's commit, as every later one is in its answer's: a pause
            # right after the start finds it (to pause it), and a crash cannot leave the first step without one.
            running = replace(row, status=GameStatus.RUNNING)
            arming = await self.clock.arming(game_id, game, running) if self.clock is not None else None
            at = time.time()  # the start's outbox row's: its publication marks and ends that row only
            await self.store.start_game(
                game_id,
                state,
                game.version,
                dict(seats),
                writes=list(arming.writes) if arming is not None else [],
                at=at,
            )
            shared = SharedGame(game.state)  # readers share it from now on
            self._parsed[game_id] = (state, shared)
            if arming is not None:
                arming.committed()
        if command.announce is not None:
            try:
                await command.announce(shared, seats)
            except Exception:
                log.exception("could not announce the start of game %s", game_id)
        started = Applied(game_id, "", Source.START, shared, [], written_at=at)
        await self._notify(started)
        await self.answer_forced(game_id, shared)
        return started

    # ----- commands on the game's table -----

    async def _table(self, command: TableCommand) -> Done:
        game_id = command.game_id
        if isinstance(command, Force):
            return await self._force(command)
        durations: dict[str, int] = {}
        async with self.lock(game_id):
            row = await self.row(game_id)
            if isinstance(command, End | Export):
                plan = Plan([self.store.status_write(game_id, GameStatus.ENDED)] if isinstance(command, End) else [])
            elif isinstance(command, SetDeadlines):
                settings = dict(row.settings)
                settings["deadlines"] = {**settings.get("deadlines", {}), **command.durations}
                durations = {str(k): int(v) for k, v in settings["deadlines"].items()}
                summary = ", ".join(f"{k} {durations[k] / 3600:g} h" for k in ("orders", "bids", "battle", "other"))
                plan = Plan([self.store.settings_write(game_id, settings)], params={"durations": summary})
            else:
                if row.status not in ACTIVE:
                    raise ServiceError("not-running", "This game is not running.")
                plan = await self._plan(command)
            notices = plan.notices if plan.notices is not None else self._audit(command, dict(plan.params))
            await self.store.apply(
                plan.writes, game_id=game_id, key=command.key, name=command.name, by=command.by, notices=notices
            )
        if plan.then is not None:
            await plan.then()
        if isinstance(command, End):
            if self.clock is not None:
                await self.clock.disarm(game_id)
            self._ended(game_id)
        if notices:
            self._noticed(game_id)
        return Done(until=plan.until, durations=durations)

    async def _delete(self, command: Delete) -> Done:
        """Remove a game entirely (``Store.delete_game``) and unschedule its deadline. Nothing of it is left to hold
        the command's key: a second press of the confirmation finds no such game (as any command on a game that is
        not there), and changes nothing."""
        game_id = command.game_id
        async with self.lock(game_id):
            row = await self.row(game_id)
            if row.status in ACTIVE and await self.seated(game_id, command.by):
                raise ServiceError("delete-seated", "You hold a house in this game: delete it once it has ended.")
            if not await self.store.delete_game(game_id):
                raise ServiceError("already-done", "That was already done.")
        if self.clock is not None:
            await self.clock.disarm(game_id)
        self._ended(game_id)
        log.info("game %s (%s) was deleted by a moderator", game_id, row.status)
        return Done()

    async def _plan(self, command: Pause | Resume | Extend | Vacation) -> Plan:
        """The change a command makes to the game's clock, worked out by the deadlines."""
        game_id = command.game_id
        if self.clock is None:  # no deadlines are kept (a bare service): only the status changes
            if isinstance(command, Pause | Resume):
                status = GameStatus.PAUSED if isinstance(command, Pause) else GameStatus.RUNNING
                return Plan([self.store.status_write(game_id, status)])
            raise ServiceError("no-deadline", "Nothing is awaited in this game.")
        if isinstance(command, Pause):
            return await self.clock.plan_pause(game_id)
        if isinstance(command, Resume):
            return await self.clock.plan_resume(game_id)
        if isinstance(command, Extend):
            return await self.clock.plan_extend(game_id, command.seconds)
        house = await self.house_of(game_id, command.by or 0)  # a vacation is taken for the member's own house
        return await self.clock.plan_vacation(game_id, house, command.days)

    async def _force(self, command: Force) -> Done:
        """Apply the deadline now: each answer it gives is a command of its own; then the audit line."""
        if self.clock is None:
            raise ServiceError("no-deadline", "Nothing is awaited in this game.")
        await self._active(command.game_id, player=False)
        houses = await self.clock.force(command.game_id)
        notices = self._audit(command, {"houses": houses})
        await self.store.apply([], game_id=command.game_id, key=command.key, name=command.name, by=command.by,
                               notices=notices)  # fmt: skip
        self._noticed(command.game_id)
        return Done(houses=houses)

    # ----- the Discord layer's bookkeeping (not changes to a game) -----

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self.store.set_status_message(game_id, message_id)

    async def set_log_thread(self, game_id: int, thread_id: int) -> None:
        await self.store.set_log_thread(game_id, thread_id)

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self.store.set_dm_closed(user_id, closed)

    async def member_data(self, user_id: int) -> MemberData:
        """Everything kept about a member (``/privacy``)."""
        return await self.store.member_data(user_id)

    async def forget_member(self, user_id: int) -> None:
        """Remove everything kept about a member (``/privacy forget``; ``Store.forget_member`` says what). Refused
        with ``forget-seated`` while he holds a house in a running or paused game: a moderator replaces him first."""
        running = await self.store.forget_member(user_id)
        if running:
            raise ServiceError(
                "forget-seated",
                "You play in a running game: a moderator must replace you first.",
                name=", ".join(running),
            )
        self._parsed.clear()  # states parsed before may still name him
        log.info("a member asked to be forgotten: done")

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """The Discord locale a user last interacted in (DMs the bot sends them are written in it)."""
        await self.store.set_locale(user_id, locale)

    async def published(self, applied: Applied, *, written_at: float | None = None) -> None:
        """``written_at``: the publication's own outbox row (``sends``), which goes (``OutboxStore.published``)."""
        await self.store.published(applied.game_id, applied.game.version, outbox_kind(applied), written_at=written_at)

    async def published_part(self, applied: Applied, part: str, *, written_at: float | None = None) -> None:
        await self.store.published_part(
            applied.game_id, applied.game.version, part, outbox_kind(applied), written_at=written_at
        )

    async def sends(self, applied: Applied) -> Sent:
        """The outbox row's time of writing, the messages its publication already sent, and the channel's layout
        (``OutboxStore.sends``)."""
        return await self.store.sends(applied.game_id, applied.game.version, outbox_kind(applied))

    async def sent_message(self, applied: Applied, part: str, message_id: int | None, *, written_at: float) -> None:
        await self.store.sent_message(
            applied.game_id, applied.game.version, outbox_kind(applied), part, message_id, written_at=written_at
        )

    async def notice_posted(self, notice_id: int) -> None:
        await self.store.notice_posted(notice_id)

    async def pending_notices(self, game_id: int | None = None) -> list[Notice]:
        """The notices still to post (of one game, or of every game at start-up), in order."""
        return await self.store.notices(game_id)
