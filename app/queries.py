"""The read side of the game service: games, seats and who decides for a house, as stored now or at a version.

Nothing here changes a game (``app/service.py`` holds the commands). A parsed game is shared between readers
(``SharedGame``), so every read of one version works out its prompts, views and forms once.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.decisions import Form, build_form
from app.lru import Bounded
from app.notices import GameBroken, to_payload
from app.store import (
    AnswerRow,
    DeadlineRow,
    DeadlineStore,
    EndedGame,
    GameRow,
    GameStatus,
    Notice,
    Source,
    Store,
)
from engine import Game, Prompt, RuleError, gifts, rules, rulesets
from engine.flow import id_house
from engine.rulesets.mother_of_dragons import TARGARYEN
from engine.state import GameState

Entry = tuple[AnswerRow, list[dict[str, Any]]]  # a log entry and the public events it caused

log = logging.getLogger("westeros.service")

SNAPSHOT_EVERY = 25  # answers between state snapshots of a running game (undo replays at most this many)
PARSED_GAMES = 256  # parsed games kept in memory (the most recently used; ended games leave at once)


class ServiceError(Exception):
    """A request the service refuses (not the rules: the table). ``code`` is translated by the bot."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class BrokenGame(ServiceError):
    """A game whose stored state (or history) no longer loads: it is quarantined (``GameQueries.quarantine``) and
    nothing is done with it until a moderator imports a repaired state."""

    def __init__(self, game_id: int, reason: str, error: str = "") -> None:
        super().__init__("game-broken", "This game's saved position cannot be read; its moderators have been told.")
        self.game_id = game_id
        self.reason = reason[:500]
        self.error = error  # the kind of failure (an exception's name): all the channel is told


# What loading a bad row may raise: the engine validates what it builds, and a hand-edited or old row can fail anywhere.
LOAD_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RuleError)


@dataclass(frozen=True)
class Applied:
    game_id: int
    house: str
    source: Source
    game: Game
    events: list[dict[str, Any]]
    before: Game | None = None  # the shared game the answer was applied to (None: a start or a new position)
    # When its outbox row was written (None: not known here, read with its marks): the publication's own row, which an
    # undo and the version committed again after it replace by another of the same version and kind.
    written_at: float | None = None

    def views(self) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The public views before and after this step, each worked out once for every reader of its version
        (``before`` is None at the start of a game and after a repair: the whole board is new)."""
        return (self.before.view(None) if self.before is not None else None), self.game.view(None)


@dataclass(frozen=True)
class UndoPreview:
    """The last logged entry of a game and what taking it back means."""

    version: int  # the game's version now; the undo is for this version only
    last: AnswerRow
    kind: str  # the kind of decision answered ("orders", "bid"...), or "seat" / "repair"
    secret: bool  # an answer other houses do not see until the step resolves
    reveals: bool  # applying it showed something secret (a reveal, a peek at a card)
    seated: bool  # the moderator asking holds a seat in the game

    @property
    def refused(self) -> bool:
        return self.seated and self.reveals

    @property
    def answer_hidden(self) -> bool:
        """A seated moderator does not see another house's secret answer in the confirmation."""
        return self.seated and self.secret


def reveals_something(event: dict[str, Any]) -> bool:
    """An event that shows what was hidden: a reveal of orders, bids or cards, or a private peek at a card."""
    kind = str(event.get("type", ""))
    return kind.endswith("-revealed") or ("private_to" in event and not kind.endswith("-recorded"))


def _replay_events(before: Game, last: AnswerRow) -> list[dict[str, Any]]:
    game = Game.from_json(before.to_json())
    if last.prompt_id == SEAT_CHANGE:
        return game.set_seat(last.house, last.answer["seat"], autopilot=last.answer["autopilot"])
    if last.prompt_id == VASSALIZE:
        return game.vassalize(last.house)
    if last.prompt_id == GIFT:
        return game.gift(last.house, last.answer["to"], last.answer["amount"])
    return game.act(last.house, last.answer)


@dataclass
class GameSettings:
    players: int
    tides_of_battle: bool = False
    assignment: str = "random"  # or "join-order"
    language: str = "en"
    deadlines: dict[str, int] = field(
        default_factory=lambda: {"orders": 24 * 3600, "bids": 12 * 3600, "battle": 12 * 3600, "other": 12 * 3600}
    )
    # Who answers for an absent player once a deadline passes: "ai" (the searching agent, engine/search_agent.py),
    # "simple" (the heuristic agent, engine/agents.py) or "defaults"; a game stored with "agent" reads as "simple".
    autopilot: str = "defaults"
    seed: int | None = None
    daily_at: str | None = None  # "20:00": every deadline falls at the next such time (at least an hour away)
    timezone: str = "UTC"  # the game's time zone for daily deadlines (IANA name, e.g. "Europe/Moscow")
    vacation_days: int = 7  # vacation days each player may take in this game
    ruleset: str = "base"  # or "mother-of-dragons" (3 to 8 players)
    targaryen_cards: str = "a"  # Mother of Dragons: Targaryen's house cards, set "a" or "b" (when Targaryen plays)
    talk: str = "private"  # private threads between houses, "channel-only" or "none" (app/talks.py)
    talks_open_at_end: bool = True  # at the end every player reads every talk (locked); False: archived, private
    ai_seats: int = 0  # lobby seats the agent fills (the Add AI button, /game new ai_seats): houses with no member
    ai_budget_ms: int = 2000  # the searching agent's CPU time per decision (app/ai.py)

    def __post_init__(self) -> None:
        if self.autopilot == "agent":  # the heuristic agent's name before issue 42 (a stored game's setting)
            self.autopilot = "simple"

    def options(self) -> dict[str, Any]:
        """The engine's options for this game (a base game names no ruleset, as every earlier game)."""
        options: dict[str, Any] = {"tides_of_battle": self.tides_of_battle}
        if self.ruleset != rulesets.DEFAULT:
            options["ruleset"] = self.ruleset
        if self.targaryen_may_play():
            options["targaryen_cards"] = self.targaryen_cards
        return options

    def choosable_houses(self) -> list[str]:
        """The houses a player may choose in the lobby: the base game's are fixed by the player count; Mother of
        Dragons offers the seven houses of Westeros, and Targaryen from four players."""
        return rulesets.named(self.ruleset).choosable_houses(self.players)

    def targaryen_may_play(self) -> bool:
        """Whether Targaryen's card set means anything in this game (someone may choose or be dealt Targaryen)."""
        return TARGARYEN in self.choosable_houses()

    def complete_houses(self, chosen: Collection[str]) -> list[str]:
        """The houses players hold when ``chosen`` were chosen in the lobby: those, and for the players who chose
        none the default houses for the count not yet taken, then the other choosable ones, so that the ruleset
        accepts the whole set (ordered as the ruleset offers them)."""
        ruleset = rulesets.named(self.ruleset)
        offered = self.choosable_houses()
        picked = [h for h in offered if h in chosen]
        if len(picked) != len(set(chosen)) or len(picked) > self.players:
            raise ServiceError("houses-unplayable", "The houses chosen cannot be played together.")
        defaults = ruleset.houses_for(self.players)
        rest = [h for h in defaults if h not in picked] + [h for h in offered if h not in picked and h not in defaults]
        for extra in itertools.combinations(rest, self.players - len(picked)):  # the defaults first
            houses = [h for h in offered if h in picked or h in extra]
            if ruleset.accepts_houses(houses):
                return houses
        raise ServiceError("houses-unplayable", "The houses chosen cannot be played together.")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @staticmethod
    def from_dict(raw: dict[str, Any]) -> GameSettings:
        return GameSettings(**raw)


class SharedGame(Game):
    """A stored position that every reader shares. Reading a game never changes it (a property test in
    tests/engine_core proves it) and nothing may change this one, so its prompts are worked out once,
    however many handlers, listeners and views ask for them."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self._prompts: list[Prompt] | None = None
        self._prompt_for: dict[str, Prompt | None] = {}
        self._awaiting: list[str] | None = None
        self._prompt_ids: list[str] | None = None
        self._views: dict[str | None, dict[str, Any]] = {}
        self._forms: dict[tuple[str, str, str], Form] = {}

    def prompts(self) -> list[Prompt]:
        if self._prompts is None:
            self._prompts = super().prompts()
        return list(self._prompts)

    def prompt_for(self, house: str) -> Prompt | None:
        if house not in self._prompt_for:
            if self._prompts is not None:  # worked out already: ``prompt_for`` agrees with ``prompts`` (a test says so)
                self._prompt_for[house] = next((p for p in self._prompts if p.house == house), None)
            else:
                self._prompt_for[house] = super().prompt_for(house)
        return self._prompt_for[house]

    def prompt_ids(self) -> list[str]:
        if self._prompt_ids is None:
            self._prompt_ids = [p.id for p in self._prompts] if self._prompts is not None else super().prompt_ids()
        return list(self._prompt_ids)

    def awaiting(self) -> list[str]:
        if self._awaiting is None:
            self._awaiting = super().awaiting()
        return list(self._awaiting)

    def view(self, house: str | None = None) -> dict[str, Any]:
        """The view for ``house`` (None: the public one), worked out once and then shared by every reader of
        this version: treat it as read-only."""
        got = self._views.get(house)
        if got is None:
            got = self._views[house] = super().view(house)
        return got

    def form(self, prompt: Prompt, lang: str) -> Form:
        """The form of one of this version's prompts in ``lang``, built once (its decision DM, the reminder and
        the form its player opens all show it); each caller gets its own copy, which a draft may change."""
        key = (prompt.house, prompt.id, lang)
        got = self._forms.get(key)
        if got is None:
            got = self._forms[key] = build_form(prompt, self.view(prompt.house), lang)
        return got.copy()

    def act(self, house: str, answer: Any, *, prompt_id: str | None = None) -> list[dict[str, Any]]:
        raise TypeError("a shared game is read-only: every change is a command (GameService.execute)")

    def set_seat(self, house: str, seat: str | None, *, autopilot: bool = False) -> list[dict[str, Any]]:
        raise TypeError("a shared game is read-only: every change is a command (GameService.execute)")


SEAT_CHANGE = "seat"
REPAIR = "repair"
GIFT = "gift"  # a gift of Power (Mother of Dragons): logged and replayed like an answer
VASSALIZE = "vassalize"  # a player leaves and the house becomes a vassal (Mother of Dragons): logged like a seat


def handed_over(applied: Applied) -> set[str]:
    """The houses whose decider a version's seat changes changed: each reseated house and the vassals it commands
    (a vassal is decided for by its liege's player, so replacing the liege hands the vassal over too)."""
    reseated = {e["house"] for e in applied.events if e["type"] == "seat-changed"}
    return reseated | {vassal for vassal, liege in applied.game.state.vassals.items() if liege in reseated}


def opened_by(applied: Applied) -> set[str] | None:
    """The houses whose decision a version opened or handed to another member: the decisions whose DMs it implies
    (None: every open decision, at a start or after a repair). Worked out from the versions alone, so a restart
    that publishes a version again sends no DM an earlier version had sent."""
    if applied.before is None:
        return None
    before = set(applied.before.prompt_ids())
    houses = {id_house(prompt_id) for prompt_id in applied.game.prompt_ids() if prompt_id not in before}
    return houses | handed_over(applied)


def outbox_kind(applied: Applied) -> str:
    """The outbox row a publication answers: an undo's ``reset`` or a committed version's ``step``."""
    return Source.RESET if applied.source == Source.RESET else "step"


def seats_held(state: GameState, houses: Iterable[str]) -> dict[str, int | None]:
    """The seats of ``houses`` as the state holds them: the seats table follows the state's version, so undoing a
    change of player gives the house back to the member who held it."""
    held = {h: state.houses[h].seat for h in houses if h in state.houses}
    return {h: int(seat) if seat is not None else None for h, seat in held.items()}


def decider(state: GameState, seats: dict[str, int | None], house: str) -> int | None:
    """The member who decides for ``house`` now: its player, or for a vassal its liege's player (nobody before the
    first claim). A house that became a vassal keeps no say for its former player, whatever the seats table says."""
    if house in state.vassals:
        liege = state.vassals[house]
        return seats.get(liege) if liege is not None else None
    return seats.get(house)


MAX_SCENARIO_BYTES = 256 * 1024
MAX_SCENARIO_DEPTH = 16  # the format nests three levels deep; deeper JSON is refused before it is parsed
MAX_SCENARIO_INT = 2**63


def parse_scenario(raw: bytes) -> dict[str, Any]:
    """A moderator's scenario file as a JSON object, bounded before anything is built from it: its size, its
    nesting (deep JSON exhausts the parser's recursion), its numbers (integers only, within 64 bits)."""
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ServiceError("scenario-too-big", "The file is too big.", limit=MAX_SCENARIO_BYTES // 1024)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ServiceError("bad-scenario", "not UTF-8 text", reason="not UTF-8 text") from err
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_SCENARIO_DEPTH:
                raise ServiceError("scenario-too-deep", "The JSON is nested too deeply.", limit=MAX_SCENARIO_DEPTH)
        elif ch in "]}":
            depth -= 1

    def bounded_int(literal: str) -> int:
        value = int(literal)
        if abs(value) > MAX_SCENARIO_INT:
            raise ValueError(f"the number {literal[:20]}… is out of range")
        return value

    def no_float(literal: str) -> float:
        raise ValueError(f"{literal[:40]} is not a whole number")

    def no_constant(literal: str) -> float:
        raise ValueError(f"{literal} is not a number a scenario may hold")

    try:
        spec = json.loads(text, parse_int=bounded_int, parse_float=no_float, parse_constant=no_constant)
    except ValueError as err:  # json.JSONDecodeError is a ValueError too
        raise ServiceError("bad-scenario", str(err), reason=str(err)) from err
    if not isinstance(spec, dict):
        raise ServiceError("bad-scenario", "a scenario is a JSON object", reason="a scenario is a JSON object { … }")
    return spec


def replay(game: Game, prompt_id: str, house: str, answer: Any) -> None:
    """Re-apply one logged entry: a player's answer, or a moderator's seat change."""
    if prompt_id == SEAT_CHANGE:
        game.set_seat(house, answer["seat"], autopilot=answer["autopilot"])
    elif prompt_id == VASSALIZE:
        game.vassalize(house)
    elif prompt_id == GIFT:
        game.gift(house, answer["to"], answer["amount"])
    elif prompt_id == REPAIR:
        raise ServiceError("replay-across-repair", "The log cannot be replayed across a repair.")
    else:
        game.act(house, answer)


# (game, version, kind, time of writing) of a row of the outbox: an undo and the version committed again write another
# row of the same version and kind, a publication of its own
OutboxKey = tuple[int, int, str, float]

LAST_ENDED_SHOWN = 3  # ended games a server's overview names (the others are counted)


@dataclass(frozen=True)
class GameAtAGlance:
    """An unfinished game of a server as its moderators' overview shows it: nothing a private view holds."""

    row: GameRow
    since: float  # a lobby's opening; a started game's step (its deadline's opening, else its last change)
    public_view: dict[str, Any] | None = None  # a started game's view for nobody in particular (read-only)
    deadline: DeadlineRow | None = None
    lobby_taken: int = 0  # a lobby's players so far

    @property
    def broken(self) -> bool:
        """A started game whose position cannot be read (quarantined until it is repaired)."""
        return self.row.status != GameStatus.LOBBY and self.public_view is None


@dataclass(frozen=True)
class GuildGames:
    """Every game of a server: the unfinished ones one by one, the ended ones counted and the last few named."""

    unfinished: list[GameAtAGlance]
    ended: int
    last_ended: list[EndedGame]


class GameQueries:
    """What the application and the Discord layer read of games; the cogs read nothing else (never the store,
    never ``game.state``)."""

    HANDOVER_AFTER_MISSES = 2  # a seated moderator may hand over a house whose player missed this many in a row

    def __init__(self, store: Store) -> None:
        self.store = store
        self._deadlines = DeadlineStore(store)
        # game -> (its stored JSON, that JSON parsed): the most recently used games only
        self._parsed: Bounded[int, tuple[str, SharedGame]] = Bounded(PARSED_GAMES)

    async def row(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise ServiceError("no-game", f"There is no game {game_id}.", game=game_id)
        return row

    async def game_in(self, channel_id: int) -> GameRow | None:
        """The channel's game, in its lobby or started, if it has one."""
        rows = await self.store.games_in_channel(channel_id)
        return rows[-1] if rows else None

    async def started_game_in(self, channel_id: int) -> GameRow | None:
        """The latest started, unfinished game of a channel (lobbies are not games yet)."""
        rows = [r for r in await self.store.games_in_channel(channel_id) if r.status != GameStatus.LOBBY]
        return rows[-1] if rows else None

    async def load(self, game_id: int) -> SharedGame:
        """The game as stored now. The object is shared between readers, so treat it as read-only: everything
        that changes a game goes through this service, which works on a copy of its own."""
        row = await self.row(game_id)
        try:
            return self._shared(game_id, row)
        except BrokenGame as err:
            await self.quarantine(err)
            raise

    async def quarantine(self, broken: BrokenGame) -> bool:
        """Mark a game that cannot be loaded as broken, with the reason, and tell its channel once (its moderators
        repair it with ``/mod export`` and ``/mod import``); its deadline is parked. Whether this call marked it."""
        notice = to_payload(GameBroken(broken.error or "?"))
        marked = await self.store.quarantine(broken.game_id, broken.reason, notice)
        if marked:
            log.error("game %s cannot be loaded and is quarantined: %s", broken.game_id, broken.reason)
            self._parsed.pop(broken.game_id, None)
            self.quarantined(broken.game_id)
        return marked

    def quarantined(self, game_id: int) -> None:
        """A game was quarantined just now (the service tells its listeners: a notice waits in the outbox)."""

    def _shared(self, game_id: int, row: GameRow) -> SharedGame:
        if row.state is None:
            raise ServiceError("not-started", "The game has not started yet.")
        if row.broken_reason is not None:
            raise BrokenGame(game_id, row.broken_reason)
        cached = self._parsed.get(game_id)
        if cached is not None and (cached[0] is row.state or cached[0] == row.state):
            return cached[1]
        try:
            game = SharedGame(Game.from_json(row.state).state)
        except LOAD_ERRORS as err:
            raise BrokenGame(game_id, f"{type(err).__name__}: {err}", type(err).__name__) from err
        if row.status != GameStatus.ENDED:  # an ended game is read rarely: it does not take a place in memory
            self._parsed[game_id] = (row.state, game)
        return game

    async def count_running(self) -> int:
        """Games running or paused, counted by the database (nothing is loaded)."""
        return await self.store.count_active()

    async def active_games(self) -> list[GameRow]:
        return await self.store.active_games()

    async def games_of_guild(self, guild_id: int) -> GuildGames:
        """A server's games at a glance (``/mod games``): read from the database, each started one through its
        public view only, so no secret of any house reaches the overview."""
        unfinished: list[GameAtAGlance] = []
        for found in await self.store.unfinished_games_of_guild(guild_id):
            row = found.row
            if row.status == GameStatus.LOBBY:
                taken = len(await self.store.lobby(row.id))
                unfinished.append(GameAtAGlance(row, found.created_at, lobby_taken=taken))
                continue
            try:
                view = (await self.load(row.id)).view(None)
            except ServiceError:  # its position cannot be read (``load`` quarantines it): shown as broken
                unfinished.append(GameAtAGlance(row, found.updated_at))
                continue
            deadline = await self._deadlines.get(row.id)
            since = deadline.opened_at if deadline is not None else found.updated_at
            unfinished.append(GameAtAGlance(row, since, view, deadline))
        ended, last = await self.store.ended_games_of_guild(guild_id, last=LAST_ENDED_SHOWN)
        return GuildGames(unfinished, ended, last)

    async def lobby_players(self, game_id: int) -> list[int]:
        return await self.store.lobby(game_id)

    async def lobby_picks(self, game_id: int) -> dict[int, str]:
        """user -> the house he chose in the lobby (players who chose none are dealt one at the start)."""
        return await self.store.lobby_picks(game_id)

    async def seats(self, game_id: int) -> dict[str, int | None]:
        return await self.store.seats(game_id)

    async def games_of_user(self, user_id: int, *, channel_id: int | None = None) -> list[tuple[int, str]]:
        return await self.store.games_of_user(user_id, channel_id=channel_id)

    async def public_events(self, game_id: int, *, limit: int = 200) -> list[dict[str, Any]]:
        return await self.store.public_events(game_id, limit=limit)

    async def status_message(self, game_id: int) -> int | None:
        return await self.store.status_message(game_id)

    async def dm_closed(self, user_id: int) -> bool:
        return await self.store.dm_closed(user_id)

    async def language_for(self, user_id: int | None, game_id: int) -> str:
        """The language to write to a player in: their locale from their last interaction, else the game's."""
        locale = await self.store.locale(user_id) if user_id is not None else None
        if locale:
            return locale
        return str((await self.row(game_id)).settings.get("language", "en"))

    async def deadline(self, game_id: int) -> DeadlineRow | None:
        """The open deadline of a game, if it has one."""
        return await self._deadlines.get(game_id)

    async def seat_of(self, game_id: int, house: str) -> int | None:
        """The member who decides for a house now: its player, or a vassal's liege's (None: nobody, or no such
        house)."""
        seats = await self.store.seats(game_id)
        row = await self.row(game_id)
        if row.state is None:
            return seats.get(house)
        return decider(self._shared(game_id, row).state, seats, house)

    async def ensure_decider(self, game_id: int, house: str, user_id: int) -> None:
        """Refuse anyone but the member who decides for the house now (``seat_of``)."""
        if await self.seat_of(game_id, house) != user_id:
            raise ServiceError("not-your-house", "Only the player seated for this house may answer for it.")

    async def house_of(self, game_id: int, user_id: int) -> str:
        """The house the member plays (never a vassal it commands)."""
        houses = await self.houses_of(game_id, user_id)
        if not houses:
            raise ServiceError("not-seated", "You do not play a house in this game.")
        return houses[0]

    async def houses_of(self, game_id: int, user_id: int) -> list[str]:
        """Every house the member decides for now: its own first, then the vassals it commands in turn order."""
        seats = await self.store.seats(game_id)
        row = await self.row(game_id)
        own = [h for h, u in seats.items() if u == user_id]
        if row.state is None:
            return own
        state = self._shared(game_id, row).state
        own = [h for h in own if h not in state.vassals]
        return own + [v for h in own for v in rules.vassals_of(state, h)]

    async def decisions_of_user(self, user_id: int, *, channel_id: int | None = None) -> list[tuple[int, str]]:
        """(game, house) for every house the member decides for in its unfinished games, vassals included."""
        out: list[tuple[int, str]] = []
        for game_id in dict.fromkeys(g for g, _ in await self.games_of_user(user_id, channel_id=channel_id)):
            out += [(game_id, h) for h in await self.houses_of(game_id, user_id)]
        return out

    async def check_gift(self, game_id: int, *, user_id: int, to: str, amount: int) -> None:
        """Refuse now a gift the rules would refuse (before the player is asked to confirm it)."""
        house = await self.house_of(game_id, user_id)
        gifts.check_gift((await self.load(game_id)).state, house, to, amount)

    async def seated(self, game_id: int, user_id: int | None) -> bool:
        """Whether ``user_id`` holds a house in this game (a player first, whatever else they are)."""
        return user_id is not None and user_id in (await self.store.seats(game_id)).values()

    async def check_handover(self, game_id: int, house: str, *, moderator: int, consented_by: int | None) -> None:
        """A seat is a player first: a moderator who holds a house may vassalize or replace another house only when
        that house's player agrees (``consented_by``) or has missed his last two deadlines in a row."""
        seats = await self.store.seats(game_id)
        own = [h for h, u in seats.items() if u == moderator]
        if not own or house in own:
            return
        if consented_by is not None and consented_by == seats.get(house):
            return
        if await self.store.missed_in_a_row(game_id, house) >= self.HANDOVER_AFTER_MISSES:
            return
        raise ServiceError(
            "seated-handover",
            "You play in this game: another house is handed over only with its player's agreement or after two"
            " missed deadlines in a row.",
            house=house,
        )

    async def game_then(self, game_id: int, version: int, *, start: Game | None = None) -> Game:
        """The game at ``version``, to read only: the stored game when it is still at that version (no snapshot read
        and no replay of the log), else ``game_at``'s (from ``start``, if given). A step's forms are clicked, and a
        publisher rebuilds a version, mostly while that version is the newest."""
        row = await self.row(game_id)
        if row.version == version and row.state is not None:
            return self._shared(game_id, row)
        return await self.game_at(game_id, version, start=start)

    async def game_at(self, game_id: int, version: int, *, start: Game | None = None) -> Game:
        """The game as it stood at ``version``, rebuilt from the latest snapshot at or before it and the log; or, given
        ``start`` (the same game at an earlier version, left unchanged), from a copy of it and the entries after it."""
        if start is not None and start.version <= version:
            try:
                return await self._rolled_forward(game_id, version, start)
            except (ServiceError, *LOAD_ERRORS):  # a repair between them, or not its line any more: the long way
                log.info("game %s: version %s rebuilt from its snapshot, not from version %s", game_id, version,
                         start.version)  # fmt: skip
        snap = await self.store.latest_snapshot(game_id, at_most=version)
        if snap is None:
            raise ServiceError("no-snapshot", "The game's history is incomplete.")
        try:
            game = Game.from_json(snap[1])
            for a in await self.store.answers(game_id, after_version=snap[0]):
                if a.version > version:
                    break
                replay(game, a.prompt_id, a.house, a.answer)
        except LOAD_ERRORS as err:
            raise BrokenGame(game_id, f"version {version}: {type(err).__name__}: {err}", type(err).__name__) from err
        if game.version != version:
            raise ServiceError("replay-mismatch", "Replaying the log did not reach the expected version.")
        return game

    async def _rolled_forward(self, game_id: int, version: int, start: Game) -> Game:
        game = start.copy()
        for a in await self.store.answers(game_id, after_version=start.version):
            if a.version > version:
                break
            replay(game, a.prompt_id, a.house, a.answer)
        if game.version != version:
            raise ServiceError("replay-mismatch", "Replaying the log did not reach the expected version.")
        return game

    async def unpublished(
        self,
        *,
        skip: Callable[[OutboxKey, frozenset[str]], bool] = lambda _key, _sent: False,
        known: Callable[[int], Game | None] | None = None,
        applied_here: Callable[[OutboxKey], Applied | None] = lambda _key: None,
    ) -> list[tuple[OutboxKey, Applied, frozenset[str]]]:
        """Every committed version whose consequences were not all published (a crash came between, or another
        process committed it), rebuilt as it was applied, with the parts already sent: what the publisher drains.
        ``skip(key, sent)``: versions the caller has under way or done (given the row's marks: a row marked since is
        not done), not rebuilt; ``known``: as for ``rebuilt``; ``applied_here(key)``: the version as the caller
        applied it itself (its commit wrote that very row), which needs no rebuilding."""
        return (await self.drainable(skip=skip, known=known, applied_here=applied_here))[0]

    async def drainable(
        self,
        *,
        skip: Callable[[OutboxKey, frozenset[str]], bool] = lambda _key, _sent: False,
        known: Callable[[int], Game | None] | None = None,
        applied_here: Callable[[OutboxKey], Applied | None] = lambda _key: None,
    ) -> tuple[list[tuple[OutboxKey, Applied, frozenset[str]]], list[Notice]]:
        """``unpublished()``, and every notice still to post, of every game, in order: both read in one statement."""
        out: list[tuple[OutboxKey, Applied, frozenset[str]]] = []
        latest: dict[int, Game] = {}  # each game at the version rebuilt last: the next is rebuilt from it

        def held(game_id: int) -> Game | None:
            return latest.get(game_id) or (known(game_id) if known is not None else None)

        # Each row is asked ``skip`` here, and those left again just before each is rebuilt, as the rest go under way
        # meanwhile (a busy publisher's outbox holds hundreds of rows done quietly: each drain asked them three times).
        versions, notices = await self.store.drainable()
        live = [
            (key, sent) for g, v, kind, sent, written_at in versions if not skip(key := (g, v, kind, written_at), sent)
        ]
        as_applied = {key: here for key, _ in live if (here := applied_here(key)) is not None}
        # The log's entries of every version to rebuild, read at once (a publisher behind several games, or one busy
        # game, made a read per game or per version).
        wanted = [(key[0], key[1]) for key, _ in live if key[2] != Source.RESET and key not in as_applied]
        looked_up = set(wanted)
        entries: dict[int, dict[int, Entry]] = {game_id: {} for game_id, _ in wanted}
        for (game_id, version), entry in (await self.store.entries_at(wanted) if wanted else {}).items():
            entries[game_id][version] = entry
        for key, sent in live:
            game_id, version, kind, written_at = key
            if skip(key, sent):
                continue
            if (here := as_applied.get(key)) is not None:
                out.append((key, here, sent))
                latest[game_id] = here.game
                continue
            # A version not read ahead (it was under way then) reads its own entry.
            read = entries.get(game_id) if (game_id, version) in looked_up else None
            applied = await self.rebuilt(game_id, version, kind, held, read)
            if applied is not None:
                out.append((key, replace(applied, written_at=written_at), sent))
                latest[game_id] = applied.game
        return out, notices

    async def rebuilt(
        self,
        game_id: int,
        version: int,
        kind: str,
        known: Callable[[int], Game | None] | None = None,
        entries: Mapping[int, Entry] | None = None,
    ) -> Applied | None:
        """A committed version of the outbox as it was applied (None: it cannot be rebuilt, and leaves the outbox).
        ``known(game)``: the game as the caller last held it (read-only): at ``version`` it spares a replay of the log,
        before it the replay starts from it rather than from the last snapshot. ``entries``: the log's entries of the
        game the caller read already, by version, ``version``'s among them if an entry made it (absent: none did, as
        a start)."""

        async def at(wanted: int) -> Game:
            held = known(game_id) if known is not None else None
            if held is not None and held.version == wanted:
                return held
            return await self.game_then(game_id, wanted, start=held)

        try:
            held = known(game_id) if known is not None else None
            entry = entries.get(version) if entries is not None else None
            if held is not None and held.version == version - 1 and kind != Source.RESET:
                rolled = await self._rolled_one(game_id, held, entry, read=entries is not None)
                if rolled is not None:
                    return rolled
            game = SharedGame((await at(version)).state)
            if kind == Source.RESET:
                return Applied(game_id, "", Source.RESET, game, [])
            if entries is None:
                entry = await self.store.answer_at(game_id, version)
            if entry is None:  # the start: everything is new
                return Applied(game_id, "", Source.START, game, [])
            last, events = entry
            before = None if last.prompt_id == REPAIR else await at(version - 1)
            return Applied(game_id, last.house, last.source, game, events, before)
        except BrokenGame as err:
            # Parked, not dropped: the outbox keeps what the game still has to say for after its repair.
            await self.quarantine(err)
            return None
        except ServiceError:
            log.exception("game %s version %s cannot be rebuilt to publish it; it is skipped", game_id, version)
            await self.store.published(game_id, version, kind)
            return None

    async def _rolled_one(
        self, game_id: int, held: Game, entry: Entry | None = None, *, read: bool = False
    ) -> Applied | None:
        """The version after ``held`` as applied, from ``held`` and the one entry that made it, read once with its
        events (a version another process committed, published by the one that holds the version before: where the
        entry and the game were read apart), unless the caller read it (``entry``; ``read``: the caller looked, and
        None means no entry made it). None: no entry made it, that entry is a repair (its version comes from no
        answer), or it does not replay to its version: the caller takes the long way."""
        version = held.version + 1
        if read and entry is None:
            return None
        if entry is not None and entry[0].version == version:
            entries = [entry]
        else:
            entries = await self.store.entries_with_events(game_id, after_version=held.version, up_to=version)
        if len(entries) != 1 or entries[0][0].prompt_id == REPAIR:
            return None
        last, events = entries[0]
        game = held.copy()
        try:
            replay(game, last.prompt_id, last.house, last.answer)
        except LOAD_ERRORS:
            return None
        if game.version != version:
            return None
        return Applied(game_id, last.house, last.source, SharedGame(game.state), events, held)

    async def _replayed_before_last(self, game_id: int, row: GameRow) -> tuple[Game, AnswerRow]:
        """The game just before its last logged entry, rebuilt from a snapshot and the log, and that entry."""
        if row.version == 0:
            raise ServiceError("nothing-to-undo", "No answer has been given yet.")
        target = row.version - 1
        snap = await self.store.latest_snapshot(game_id, at_most=target)
        if snap is None:
            raise ServiceError("no-snapshot", "The game's history is incomplete; it cannot be undone.")
        version, state = snap
        game = Game.from_json(state)
        last: AnswerRow | None = None
        for a in await self.store.answers(game_id, after_version=version):
            if a.version > target:
                last = a
                break
            replay(game, a.prompt_id, a.house, a.answer)
        if game.version != target or last is None:
            raise ServiceError("replay-mismatch", "Replaying the log did not reach the expected version.")
        return game, last

    async def undo_preview(self, game_id: int, *, by: int | None = None) -> UndoPreview:
        """What undoing the last entry would take back, and whether ``by`` (a moderator) may do it."""
        row = await self.row(game_id)
        game, last = await self._replayed_before_last(game_id, row)
        return self._preview(game, last, row, await self.seated(game_id, by))

    def _preview(self, before: Game, last: AnswerRow, row: GameRow, seated: bool) -> UndoPreview:
        prompt = before.prompt_for(last.house) if last.prompt_id not in (SEAT_CHANGE, REPAIR, GIFT, VASSALIZE) else None
        if last.prompt_id == REPAIR:
            reveals = True  # a repair may have set anything, secrets included
        else:
            try:
                reveals = any(reveals_something(e) for e in _replay_events(before, last))
            except (RuleError, ServiceError):
                reveals = True
        return UndoPreview(
            row.version,
            last,
            prompt.kind if prompt else last.prompt_id,
            bool(prompt and prompt.secret),
            reveals,
            seated,
        )

    async def export(self, game_id: int, *, by: int | None = None) -> dict[str, Any]:
        """The whole game (state, seats, the answer log), or, for someone seated in a game still running, only
        what every player sees: the public view and the public events of each step."""
        row = await self.row(game_id)
        answers = await self.store.answers(game_id)
        head = {"id": row.id, "name": row.name, "status": row.status, "settings": row.settings}
        if row.status != GameStatus.ENDED and await self.seated(game_id, by):
            events = await self.store.events_by_version(game_id)
            return {
                "game": {**head, "public": True},
                "seats": await self.store.seats(game_id),
                "state": (await self.load(game_id)).view(None) if row.state else None,
                "log": [
                    {
                        "version": a.version,
                        "house": a.house,
                        "source": a.source,
                        "at": a.at,
                        "events": events.get(a.version, []),
                    }
                    for a in answers
                ],
            }
        return {
            "game": head,
            "seats": await self.store.seats(game_id),
            "state": json.loads(row.state) if row.state else None,
            "log": [a.__dict__ for a in answers],
        }
