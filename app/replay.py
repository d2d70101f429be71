"""The replay of a game (issue W): the public board at the end of any phase, rebuilt from the start position and the
command log, never from the current state, with the phase's lines.

The log says what was answered; replaying it from the start snapshot gives every version again (``positions``). A
phase *ends* at the version whose entry finished it: the entry that revealed the orders and answered the Raven ends
the Planning phase, the last Action answer ends the Action phase (the next round's Westeros phase may have run on
from it until its first question: a version is the finest grain the log has). One entry may pass a whole phase (a
Westeros phase that asked nobody): that phase ends at the same version as the one before it. The phase under way
in a running game "ends" at the game's current version. Everything shown is what a spectator saw at that version:
the public view (``Game.view(None)``) and the public events stored with each entry.

Rebuilding a whole game takes a few hundred milliseconds (``bench/replay.py``), so ``frame`` is plain data in,
plain data out: the bot runs it in its image pool, beside the drawing, never on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from app.narration import PHASE_OF_EVENT, narrate_all, phase_header
from app.queries import LOAD_ERRORS, REPAIR, GameQueries, ServiceError, replay
from app.store import GameRow, GameStatus
from engine import Game

PHASES = ("westeros", "planning", "action")  # the phases of a round, in order (round 1 has no Westeros phase)
ENDED = "ended"  # the state's phase once the game is over

Key = tuple[int, str]  # (round, phase)


@dataclass(frozen=True)
class LogEntry:
    """One logged entry, as a replay applies it: its answer and the public events it caused. A repair carries the
    position it set (its snapshot), since a repair is not replayed but restored."""

    version: int
    house: str
    prompt_id: str
    answer: Any
    events: list[dict[str, Any]]
    repaired: str | None = None


@dataclass(frozen=True)
class GameLog:
    """A game's start position and its whole log: everything a replay reads (plain data, picklable)."""

    game_id: int
    start: str
    entries: tuple[LogEntry, ...]
    ended: bool

    @property
    def version(self) -> int:
        return self.entries[-1].version if self.entries else 0


@dataclass(frozen=True)
class PhaseEnd:
    round: int
    phase: str
    version: int  # the version whose board ends the phase
    done: bool  # False: the phase still under way (a running game's last one)

    @property
    def key(self) -> Key:
        return (self.round, self.phase)


@dataclass
class Timeline:
    """Every phase of a game in order, with the public events of each and the position at each phase's end."""

    phases: list[PhaseEnd] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)  # by phase, in order
    boards: dict[int, str] = field(default_factory=dict)  # version -> the game's JSON there (phase ends only)

    def rounds(self) -> list[int]:
        return sorted({p.round for p in self.phases})

    def index_of(self, round_: int | None, phase: str | None) -> int:
        """The phase asked for: none given, the last; a round alone, that round's last phase. A round or phase the
        game has not played is refused, naming what it has."""
        if not self.phases:
            raise ServiceError("replay-no-history", "This game has no history to replay.")
        if round_ is None:
            if phase is None:
                return len(self.phases) - 1
            round_ = self.phases[-1].round
        found = [i for i, p in enumerate(self.phases) if p.round == round_ and (phase is None or p.phase == phase)]
        if found:
            return found[-1]
        rounds = self.rounds()
        if round_ not in rounds:
            raise ServiceError(
                "replay-no-round", "That round was not played.", round=round_, first=rounds[0], last=rounds[-1]
            )
        raise ServiceError("replay-no-phase", "That phase was not played.", round=round_, phase=phase or "")


@dataclass(frozen=True)
class Frame:
    """One phase's end as a spectator saw it: where it is among the phases, the public view and the phase's lines."""

    game_id: int
    log_version: int  # the log it was rebuilt from (a running game's grows)
    phases: tuple[PhaseEnd, ...]
    index: int
    view: dict[str, Any]
    header: str
    lines: tuple[str, ...]
    picture: bytes = b""

    @property
    def shown(self) -> PhaseEnd:
        return self.phases[self.index]


def _rank(key: Key) -> int:
    return key[0] * len(PHASES) + PHASES.index(key[1])


def _between(after: Key, before: Key) -> list[Key]:
    """The phases strictly between two, in order (round 1 has no Westeros phase)."""
    out = []
    for rank in range(_rank(after) + 1, _rank(before)):
        key = (rank // len(PHASES), PHASES[rank % len(PHASES)])
        if key != (1, "westeros"):
            out.append(key)
    return out


def _apply(game: Game, entry: LogEntry) -> Game:
    """The game after one entry: a repair's position restored, anything else replayed."""
    if entry.prompt_id == REPAIR:
        if entry.repaired is None:
            raise ServiceError("replay-no-history", "This game's history is incomplete.")
        return Game.from_json(entry.repaired)
    replay(game, entry.prompt_id, entry.house, entry.answer)
    return game


def positions(log: GameLog) -> Iterator[tuple[LogEntry | None, Game]]:
    """The game at its start and after each entry of its log, in order (the same object, moved on: copy to keep)."""
    game = Game.from_json(log.start)
    yield None, game
    for entry in log.entries:
        game = _apply(game, entry)
        if game.version != entry.version:
            raise ServiceError("replay-mismatch", "Replaying the log did not reach the expected version.")
        yield entry, game


def _event_key(event: dict[str, Any], current: Key) -> Key | None:
    """The phase an event says the game is in (None: it belongs to whichever phase is under way)."""
    if event.get("type") == "round-started":
        return (int(event["round"]), "westeros")
    phase = PHASE_OF_EVENT.get(str(event.get("type")))
    return (current[0], phase) if phase is not None else None


def timeline(log: GameLog) -> Timeline:
    """Replay the whole log once and mark where each phase ends."""
    out = Timeline()
    current: Key | None = None
    events: list[dict[str, Any]] = []

    def close(version: int, board: Game) -> None:
        assert current is not None
        out.phases.append(PhaseEnd(current[0], current[1], version, True))
        out.events.append(events.copy())
        events.clear()
        if version not in out.boards:
            out.boards[version] = board.to_json()

    def move_to(key: Key, version: int, board: Game) -> None:
        nonlocal current
        assert current is not None
        close(version, board)
        for passed in _between(current, key):  # phases an entry went through without stopping
            current = passed
            close(version, board)
        current = key

    repairs = any(e.prompt_id == REPAIR for e in log.entries)
    previous: Game | None = None  # the position before the entry (kept only when a repair may need it)
    for entry, game in positions(log):
        state_key = (game.state.round, game.state.phase)
        if entry is None:
            current = state_key
            previous = game.copy() if repairs else None
            continue
        assert current is not None
        if entry.prompt_id == REPAIR:  # the position was replaced: the phase under way ends on the board before it
            if previous is not None:
                close(entry.version - 1, previous)
            current = state_key if game.state.phase != ENDED else current
        for event in entry.events:
            if "private_to" in event:  # the log keeps public events only; never show another
                continue
            key = _event_key(event, current)
            if key is not None and key[1] != ENDED and _rank(key) > _rank(current):
                move_to(key, entry.version, game)
            events.append(event)
        if game.state.phase == ENDED:
            close(entry.version, game)
            current = None
            break
        if _rank(state_key) > _rank(current):
            move_to(state_key, entry.version, game)
        previous = game.copy() if repairs else None
    if current is not None:  # the phase under way: its board so far
        last = log.version
        out.phases.append(PhaseEnd(current[0], current[1], last, False))
        out.events.append(events.copy())
        if last not in out.boards:
            out.boards[last] = game.to_json()
    return out


def frame(
    log: GameLog,
    round_: int | None,
    phase: str | None,
    lang: str,
    draw: Callable[[dict[str, Any], str], bytes] | None = None,
) -> Frame:
    """The end of one phase (see ``Timeline.index_of``) rebuilt from the log, with its lines in ``lang`` and, with
    ``draw`` (the renderer), its picture. Plain data in and out: it runs in the bot's image pool."""
    try:
        line = timeline(log)
    except LOAD_ERRORS as err:  # a log the engine no longer replays (an old, hand-edited or damaged one)
        raise ServiceError("replay-no-history", f"The log cannot be replayed: {type(err).__name__}") from err
    index = line.index_of(round_, phase)
    shown = line.phases[index]
    view = Game.from_json(line.boards[shown.version]).view(None)
    lines = narrate_all(line.events[index], lang)
    picture = draw(view, lang) if draw is not None else b""
    return Frame(
        log.game_id,
        log.version,
        tuple(line.phases),
        index,
        view,
        phase_header(shown.round, shown.phase, lang),
        tuple(lines),
        picture,
    )


def replayed_game(row: GameRow | None, channel_id: int) -> GameRow:
    """The game a replay in ``channel_id`` may show: it must be this channel's, and started."""
    if row is None:
        raise ServiceError("no-game-here", "There is no game in this channel.")
    if row.channel_id != channel_id:
        raise ServiceError("replay-other-channel", "That game is played in another channel.")
    if row.status == GameStatus.LOBBY:
        raise ServiceError("replay-no-history", "This game has not started: it has no history yet.")
    return row


async def replay_row(queries: GameQueries, game_id: int, channel_id: int) -> GameRow:
    """The stored row of a game a replay in ``channel_id`` may show (see ``replayed_game``)."""
    return replayed_game(await queries.store.game(game_id), channel_id)


async def latest_game_in(queries: GameQueries, channel_id: int) -> GameRow:
    """The channel's latest started game, running, paused or ended (a lobby has nothing to replay)."""
    rows = await queries.store.games_in_channel(channel_id, active_only=False)
    started = [r for r in rows if r.status != GameStatus.LOBBY]
    if not started:
        raise ServiceError("no-game-here", "There is no game in this channel.")
    return started[-1]


async def read_log(queries: GameQueries, game_id: int, channel_id: int) -> GameLog:
    """The game's start position and its whole log, for a replay asked for in ``channel_id``. Refused for a game of
    another channel, and for one without its history (not started, or its log removed after it ended)."""
    store = queries.store
    row = await replay_row(queries, game_id, channel_id)
    snapshots = await store.snapshot_versions(game_id)
    start = await store.latest_snapshot(game_id, at_most=0) if snapshots and snapshots[0] == 0 else None
    if start is None:
        raise ServiceError("replay-no-history", "This game's history is no longer kept.")
    answers = await store.answers(game_id)
    events = await store.events_by_version(game_id)
    entries = []
    for expected, a in enumerate(answers, start=1):
        if a.version != expected:
            raise ServiceError("replay-no-history", "This game's history is incomplete.")
        repaired = None
        if a.prompt_id == REPAIR:
            snap = await store.latest_snapshot(game_id, at_most=a.version)
            repaired = snap[1] if snap is not None and snap[0] == a.version else None
        entries.append(LogEntry(a.version, a.house, a.prompt_id, a.answer, events.get(a.version, []), repaired))
    if (entries[-1].version if entries else 0) != row.version:
        raise ServiceError("replay-no-history", "This game's history is incomplete.")
    return GameLog(game_id, start[1], tuple(entries), row.status == GameStatus.ENDED)


@dataclass(frozen=True)
class Refusal:
    """A ``ServiceError`` as plain data: what the image pool hands back instead of raising (an exception with its
    own constructor does not cross a process boundary)."""

    code: str
    message: str
    params: dict[str, Any]

    def error(self) -> ServiceError:
        return ServiceError(self.code, self.message, **self.params)


def frame_in_pool(
    log: GameLog,
    round_: int | None,
    phase: str | None,
    lang: str,
    draw: Callable[[dict[str, Any], str], bytes] | None = None,
) -> Frame | Refusal:
    """``frame`` as the image pool runs it: a refusal comes back as a value, and the view stays in the worker (the
    picture shows it; sending it back would only cost the event loop its unpickling)."""
    try:
        return replace(frame(log, round_, phase, lang, draw), view={})
    except ServiceError as err:
        return Refusal(err.code, err.message, dict(err.params))
