"""Every change to a game is one of these typed commands, applied by ``GameService.execute`` on one path: who may,
validate, apply, commit (with the command's idempotency key and the channel notices it implies, in one transaction),
publish.

``by`` is the member who gave the command (None: the bot itself, as a deadline or an answer with a single choice);
``key`` is the command's idempotency key, the id of the Discord interaction that gave it: a second command with the
same key is refused and changes nothing. ``moderator``: the Discord layer checked the member's moderator role (the
application cannot see roles); the seat rules a moderator who also plays must follow are checked here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.store import GameRow, Source, Write
from engine import Game

# (the game as it starts, house -> member, None for an AI seat) before anyone else is told: the lobby shows the seats
# first
Announce = Callable[[Game, dict[str, int | None]], Awaitable[None]]


@dataclass(frozen=True, kw_only=True)
class Command:
    game_id: int
    by: int | None = None
    key: str | None = None

    @property
    def name(self) -> str:
        """The command's name in the log of commands and in its audit line (``mod.did.<name>``)."""
        return type(self).__name__.lower()


@dataclass(frozen=True, kw_only=True)
class ModeratorCommand(Command):
    """A command only a moderator may give; its audit line is posted in the game's channel."""

    consented_by: int | None = None  # the house's player who agreed to it (a seated moderator's handover)


# ----- the lobby -----


@dataclass(frozen=True, kw_only=True)
class Join(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class LeaveLobby(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class PickHouse(Command):
    """A lobby player chooses the house he will play (``house``), or leaves it to be dealt at the start (None)."""

    house: str | None


@dataclass(frozen=True, kw_only=True)
class AddAi(Command):
    """The creator or a moderator (checked by the Discord layer) fills an open lobby seat with the agent (app/ai.py)."""


@dataclass(frozen=True, kw_only=True)
class RemoveAi(Command):
    """The creator or a moderator (checked by the Discord layer) frees a lobby seat the agent was to fill."""


@dataclass(frozen=True, kw_only=True)
class Start(Command):
    announce: Announce | None = field(default=None, compare=False)


# ----- commands that log an entry and make a new version -----


@dataclass(frozen=True, kw_only=True)
class Answer(Command):
    house: str
    answer: Any
    prompt_id: str | None = None
    source: Source = Source.PLAYER
    only_if_unanswered: bool = False
    # A deadline's answer: the player whose missed deadline it records, and the channel's news of the deadline, both
    # written in the answer's own commit (a firer that dies between two answers leaves nothing half told).
    missed_by: str | None = None
    news: tuple[dict[str, Any], ...] = ()
    # The key the news is recorded under in the same commit (``deadline-news:<step>``): a second answer carrying it
    # is refused (``IntegrityError`` on the ``commands`` table, ``OutboxStore.key_refused``), so it is told once.
    news_key: str | None = None


@dataclass(frozen=True, kw_only=True)
class Gift(Command):
    to: str
    amount: int
    house: str | None = None  # the house the confirmation was asked for (refused if the member no longer plays it)


@dataclass(frozen=True, kw_only=True)
class SetSeat(ModeratorCommand):
    """A change of player (``new``: the member must hold no house in the game yet) or of a house's autopilot."""

    house: str
    user_id: int | None
    autopilot: bool = False
    new: bool = False

    @property
    def name(self) -> str:
        if self.new:
            return "replace" if self.user_id is not None else "replace-ai"  # a member, or the agent (app/ai.py)
        return "autopilot-on" if self.autopilot else "autopilot-off"


@dataclass(frozen=True, kw_only=True)
class Vassalize(ModeratorCommand):
    house: str


# ----- commands that set the position -----


@dataclass(frozen=True, kw_only=True)
class Undo(ModeratorCommand):
    expected_version: int | None = None  # the version the confirmation was asked at


@dataclass(frozen=True, kw_only=True)
class Import(ModeratorCommand):
    spec: dict[str, Any] = field(default_factory=dict)


# ----- commands on the game's table: its status and its clock -----


@dataclass(frozen=True, kw_only=True)
class Pause(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class Resume(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class Extend(ModeratorCommand):
    seconds: float


@dataclass(frozen=True, kw_only=True)
class SetDeadlines(ModeratorCommand):
    durations: dict[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return "deadlines"


@dataclass(frozen=True, kw_only=True)
class Force(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class End(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class Delete(ModeratorCommand):
    """Remove the game and every row of it (``/mod delete``, after a confirmation whose message is its key). A
    moderator who holds a house may delete the game only once it has ended (or while it is a lobby): never to escape
    a game he is playing."""


@dataclass(frozen=True, kw_only=True)
class Export(ModeratorCommand):
    """Changes nothing; logged and audited because the table should know who downloaded the game."""


@dataclass(frozen=True, kw_only=True)
class Vacation(Command):
    days: float


# ----- what a table command does, and what it tells -----


@dataclass(frozen=True)
class Plan:
    """A change to a game's table worked out by its owner (the deadlines): the statements the command's
    transaction runs, what to do once they are committed (the scheduler follows the table), and the facts its
    audit line tells."""

    writes: list[Write]
    then: Callable[[], Awaitable[None]] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    until: float | None = None  # when what was set ends: a deadline's new due time, a vacation's end
    notices: list[dict[str, Any]] | None = None  # what the channel is told, when it is not a moderator's audit line


@dataclass(frozen=True)
class Done:
    """What a table command did."""

    houses: list[str] = field(default_factory=list)  # a forced deadline: the houses answered for
    until: float | None = None
    durations: dict[str, int] = field(default_factory=dict)  # the game's deadline durations after SetDeadlines


@dataclass(frozen=True)
class Arming:
    """A new step's deadline, as statements of the commit that opens the step, and what to do once it committed
    (the scheduler mirrors the table)."""

    writes: list[Write]
    committed: Callable[[], None]


class Clock(Protocol):
    """The deadlines, as the service drives them (``app/deadlines.py``)."""

    async def arming(self, game_id: int, game: Game, row: GameRow) -> Arming | None: ...

    async def arm(self, game_id: int, game: Game | None = None, *, recompute: bool = False) -> object: ...

    async def plan_extend(self, game_id: int, seconds: float) -> Plan: ...

    async def plan_pause(self, game_id: int) -> Plan: ...

    async def plan_resume(self, game_id: int) -> Plan: ...

    async def plan_vacation(self, game_id: int, house: str, days: float) -> Plan: ...

    async def force(self, game_id: int) -> list[str]: ...

    async def disarm(self, game_id: int) -> None: ...
