"""Who may talk to whom (issue 40, "the table talks"), free of Discord: the houses of a private talk, the members who
belong in its thread, and the refusals, each a ``ServiceError`` with its ``error.<code>`` sentence in the catalogs.

A talk is between two houses that play: a member speaks for the house he plays, to another house that a member plays.
A vassal has no voice of its own (its liege's player decides for it), so a talk with a vassal is refused with its
liege named. The members of a talk's thread are the two houses' players, and nobody else: a moderator or a spectator
is never one (Discord itself lets members with Manage Threads read every private thread; the lobby says so).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.queries import Applied, GameQueries, ServiceError, decider, handed_over
from app.store import GameRow, GameStatus, Talk
from app.store_talks import pair
from engine import Game
from engine.state import GameState

PRIVATE = "private"  # each pair of houses may open a private thread
CHANNEL_ONLY = "channel-only"  # the table talks in the game's channel only
NONE = "none"  # the gunboat variant: no talks at all
TALK_MODES = (PRIVATE, CHANNEL_ONLY, NONE)
HOUSE_VALUE_LIMIT = 32  # characters of a house option read from an interaction (a house id is far shorter)


@dataclass(frozen=True)
class TalkAsked:
    """A talk a member may open: his house, the other, and the members its thread holds."""

    game_id: int
    house: str  # the caller's
    other: str
    members: frozenset[int]

    @property
    def houses(self) -> tuple[str, str]:
        return pair(self.house, self.other)


def members_of(state: GameState, seats: dict[str, int | None], houses: tuple[str, str]) -> set[int]:
    """The members who belong in a talk's thread now: the player deciding for each of its houses (a member who
    decides for both is one member)."""
    found = {decider(state, seats, house) for house in houses}
    return {member for member in found if member is not None}


async def ask_talk(queries: GameQueries, row: GameRow, user_id: int, house_value: str) -> TalkAsked:
    """The talk ``user_id`` asks for with ``house_value`` (the command's option, untrusted), or the refusal."""
    mode = str(row.settings.get("talk", PRIVATE))
    if mode == NONE:
        raise ServiceError("talk-none", "This table plays without talks.")
    if mode == CHANNEL_ONLY:
        raise ServiceError("talk-channel-only", "This table talks in the game's channel only.")
    if row.status not in (GameStatus.RUNNING, GameStatus.PAUSED) or row.state is None:
        raise ServiceError("talk-not-running", "Talks open once the game has started, until it ends.")
    other = house_value.strip().lower()[:HOUSE_VALUE_LIMIT]
    game = await queries.load(row.id)
    state = game.state
    if other not in state.houses:
        raise ServiceError(
            "talk-no-such-house", "No such house plays in this game.", value=house_value[:HOUSE_VALUE_LIMIT]
        )
    seats = await queries.seats(row.id)
    mine = await queries.houses_of(row.id, user_id)
    if not mine:
        raise ServiceError("not-seated-here", "You do not play in a game in this channel.")
    if other in mine:
        raise ServiceError("talk-self", "A house does not talk to itself.", house=other)
    if other in state.vassals:
        liege = state.vassals[other]
        if liege is None:
            raise ServiceError("talk-vassal-unclaimed", "A vassal nobody commands has no one to talk to.", house=other)
        raise ServiceError("talk-vassal", "A vassal speaks through its liege.", house=other, liege=liege)
    if state.houses[other].autopilot and seats.get(other) is None:  # an AI seat (app/ai.py): it never talks
        raise ServiceError("talk-ai", "The AI plays this house, and the AI does not talk.", house=other)
    if seats.get(other) is None:
        raise ServiceError("talk-no-player", "No member plays this house now.", house=other)
    houses = pair(mine[0], other)
    return TalkAsked(row.id, mine[0], other, frozenset(members_of(state, seats, houses)))


async def talk_members(queries: GameQueries, row: GameRow, talk: Talk) -> set[int]:
    """The members who belong in ``talk``'s thread as the game stands (its two houses' players)."""
    game = await queries.load(row.id)
    return members_of(game.state, await queries.seats(row.id), talk.houses)


async def every_player(queries: GameQueries, row: GameRow) -> set[int]:
    """Every member who plays a house of the game (the end opens every talk to them)."""
    return {member for member in (await queries.seats(row.id)).values() if member is not None}


def moves_talks(applied: Applied) -> bool:
    """Whether a published version may change who belongs in the game's talks, or end them: a change of player (and
    of the vassals a liege commands), a house leaving (it becomes a vassal), an undo or a repair (their versions carry
    no events, so they are always looked at), the end."""
    before, game = applied.before, applied.game
    if before is None or game.finished or handed_over(applied):
        return True
    return before.state.vassals != game.state.vassals


def left_game(game: Game) -> set[str]:
    """The houses whose players have left (Mother of Dragons: they are vassals now): their talks are closed."""
    return set(game.state.vassals)
