"""The base game's rules where the expansion differs: the hooks every ruleset answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from engine import data, setup
from engine.orders import ORDER_TOKENS, OrderToken
from engine.state import GameState, Unit

if TYPE_CHECKING:
    from engine.flow import Frame
    from engine.game import Game


class Ruleset:
    """A game's rules where rulesets differ; the defaults are the base game's."""

    name: ClassVar[str] = "base"
    # The boards a game of this ruleset may be played on (name -> file in data/); ``board_name`` picks one per game.
    boards: ClassVar[dict[str, str]] = {"base": "board.json"}
    allows_gifts: ClassVar[bool] = False  # Power changes hands only by the rules (B-DIPLO-03)
    allows_vassals: ClassVar[bool] = False  # a player who leaves is replaced, never turned into a vassal

    def board_name(self, s: GameState) -> str:
        """The board this game is played on, chosen from its state (Essos joins only when Targaryen plays,
        M-ESSOS-02); views name it, so the renderer draws the same board."""
        return next(iter(self.boards))

    def board_for(self, s: GameState) -> data.Board:
        """The board as the rules read it now (an expansion may change what areas print: development tokens)."""
        return self.printed_board(s)

    def printed_board(self, s: GameState) -> data.Board:
        """The board as printed: its areas, adjacency, crests and ports, which is all control reads."""
        return data.board(self.boards[self.board_name(s)])

    def houses(self) -> dict[str, data.HouseInfo]:
        """Every house that can take part, with its home, garrison, units and limits."""
        return data.houses()

    def player_counts(self) -> list[int]:
        return sorted(int(n) for n in data.setups()["player_counts"])

    def houses_for(self, count: int) -> list[str]:
        """The houses in play for a player count (B-PLAYERS-01..07); a count the ruleset lacks is a RuleError."""
        return setup.houses_for(count)

    def choosable_houses(self, count: int) -> list[str]:
        """The houses players may pick at this player count (the base game fixes them: those of the count)."""
        return self.houses_for(count)

    def accepts_houses(self, houses: list[str]) -> bool:
        """Whether players may hold exactly these houses (the base game fixes them by player count)."""
        return sorted(houses) == sorted(self.houses_for(len(houses)))

    def initial_state(self, houses: list[str], seed: int, options: dict[str, Any]) -> GameState:
        """The official setup with players holding ``houses`` (already checked by ``accepts_houses``)."""
        return setup.initial_state(len(houses), seed, options)

    def order_tokens(self, s: GameState) -> dict[str, OrderToken]:
        """The order tokens every house owns in this game (B-COMP-05), by id."""
        return ORDER_TOKENS

    def unit_types(self) -> dict[str, data.UnitType]:
        """The unit types of this game, by id, in the order prompts list them: the base game's footman, knight, ship
        and siege engine (B-COMP-01). Rules read their fields through ``rules.unit_type``, never their names."""
        return data.unit_types()

    def unit_strength(self, s: GameState, unit: Unit, *, attacking_castle: bool) -> int:
        """A standing unit's strength in combat and support (B-COMBAT-05): its type's, from the table; a ruleset may
        work it out from the state instead (``rules.unit_strength`` gives a routed unit none first)."""
        kind = self.unit_types()[unit.type]
        return kind.strength_attacking_castle if attacking_castle else kind.strength

    def stars_allowed(self, position: int, houses_in_play: int) -> int:
        """Special orders allowed at King's Court ``position`` (0-based)."""
        return data.stars_allowed(position, houses_in_play)

    def holds_dominance(self, s: GameState, house: str) -> bool:
        """Whether this house may hold a track's dominance token when it stands first there: never a vassal
        (M-VASSAL-28)."""
        return house not in s.vassals

    instant_win_at: ClassVar[int] = 7  # victory points that win at once (B-VICTORY-01)

    def victory_points(
        self, s: GameState, castles: dict[str, int], controller: Callable[[str], str | None]
    ) -> dict[str, int]:
        """Every house's place on the victory track, given the castles and strongholds each controls and who
        controls an area: those castles in the base game (B-CONTROL-15). The instant win, the final standing and the
        views read it through ``rules.victory_points``."""
        return castles

    def win_reason(self, s: GameState, house: str) -> str:
        """Why reaching ``instant_win_at`` victory points wins (the ``game-over`` event's reason)."""
        return "seven-castles"

    def pinned_on_tracks(self, s: GameState) -> dict[str, int]:
        """Houses that keep one space of every influence track whatever moves (house -> 0-based index); none in the
        base game. ``rules.set_track``, the one writer of tracks, keeps them there."""
        return {}

    def commander(self, s: GameState, house: str) -> str:
        """The house whose player decides for ``house``: itself, unless ``house`` is a vassal, whose commander
        changes only at the claim step (M-VASSAL-04). Prompts always name ``house`` itself."""
        return s.vassals.get(house) or house

    # ----- phase hooks: where a ruleset adds rules to the round without branching the shared steps -----

    def round_started(self, g: Game) -> None:
        """A round (2 to 10) has just started, before its Westeros phase."""

    def westeros_started(self, g: Game) -> None:
        """The Westeros phase is about to draw its cards."""

    def planning_started(self, g: Game) -> None:
        """The Planning phase has started, before any order is placed."""

    def settle(self, g: Game) -> None:
        """After every step that is not inside a battle: for what happens the moment a position arises (an instant
        victory, what lies in an area a house comes to control)."""

    def clash_bids_revealed(self, g: Game, clash: Frame) -> bool:
        """A Clash of Kings bid is revealed (its bids in ``clash["bids"]``), before the track is ordered: a ruleset
        may push a step that changes the bids and return True (the Clash then waits for it)."""
        return False

    def can_leave(self, house: str) -> bool:
        """Whether the player of ``house`` may leave the game (its house becoming a vassal, ``allows_vassals``)."""
        return self.houses()[house].can_be_vassal

    def orders_settled(self, g: Game) -> None:
        """Called once the Messenger Raven has been used or declined, before any order resolves."""


class BaseGame(Ruleset):
    """A Game of Thrones: The Board Game, second edition, for 3 to 6 players (with Tides of Battle as an option)."""
