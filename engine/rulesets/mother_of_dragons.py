"""Mother of Dragons: the expansion's board with the Eyrie and Bite overlays, House Arryn, the fixed setup, sea orders,
and vassals: with 3 to 6 players every house nobody picked is on the board, commanded by the players in turn.

What Targaryen brings (Essos, dragons, loyalty, deck IV, the Iron Bank) comes later, as further hooks of this ruleset.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from engine import data, setup
from engine.errors import RuleError
from engine.flow import PHASE_RULES
from engine.orders import ORDER_TOKENS, SEA_TOKENS, OrderToken
from engine.rng import Rng
from engine.rulesets.base import Ruleset
from engine.state import GameState, HouseState, Unit

if TYPE_CHECKING:
    from engine.game import Game

FOLDER = "mother-of-dragons"
PLAYER_COUNTS = (3, 4, 5, 6, 7)  # M-PLAYERS-01, -02 without Targaryen; 8 need Targaryen (a later issue)


def _setup() -> dict[str, Any]:
    raw: dict[str, Any] = data.read(f"{FOLDER}/setup.json")
    return raw


def vassal_setup() -> dict[str, Any]:
    """The vassal preparation cards (home, garrison, starting units, supply) and the order sets."""
    raw: dict[str, Any] = data.read(f"{FOLDER}/vassals.json")
    return raw


def shift_vassals(track: list[str], vassals: set[str]) -> list[str]:
    """M-SETUP-13: when a vassal stands on spaces 1-3, every vassal leaves the track, the others close up, and the
    vassals take the spaces at the right end in their former order."""
    if not any(h in vassals for h in track[:3]):
        return list(track)
    return [h for h in track if h not in vassals] + [h for h in track if h in vassals]


class MotherOfDragons(Ruleset):
    name: ClassVar[str] = "mother-of-dragons"
    boards: ClassVar[dict[str, str]] = {"mother-of-dragons": f"{FOLDER}/board-westeros.json"}
    allows_gifts: ClassVar[bool] = True  # M-GIFT-01
    allows_vassals: ClassVar[bool] = True  # M-SETUP-03, M-LEAVE-01

    @cached_property
    def _houses(self) -> dict[str, data.HouseInfo]:
        return {**data.houses(), **data.houses(f"{FOLDER}/houses.json")}

    def houses(self) -> dict[str, data.HouseInfo]:
        return self._houses

    def player_counts(self) -> list[int]:
        return list(PLAYER_COUNTS)

    def houses_for(self, count: int) -> list[str]:
        """M-SETUP-02, M-PLAYERS-01, -02: the houses players hold by default; seven players hold every house of
        Westeros, fewer take the base game's houses for their count and the others become vassals (players may pick
        any of the seven instead, ``accepts_houses``)."""
        if count not in PLAYER_COUNTS:
            raise RuleError(
                "mod-player-count",
                "Mother of Dragons is played by 3 to 7 players for now (8 need Targaryen).",
                players=count,
            )
        if count == len(self._westeros_houses):
            return list(self._westeros_houses)
        return setup.houses_for(count)

    @property
    def _westeros_houses(self) -> list[str]:
        houses: list[str] = _setup()["influence_tracks"]["iron_throne"]
        return houses

    def accepts_houses(self, houses: list[str]) -> bool:
        """M-PLAYERS-02: any of the seven houses of Westeros, each at most once."""
        return (
            len(houses) in PLAYER_COUNTS
            and len(set(houses)) == len(houses)
            and set(houses) <= set(self._westeros_houses)
        )

    def initial_state(self, houses: list[str], seed: int, options: dict[str, Any]) -> GameState:
        """M-SETUP-01..22: the fixed influence layout (vassals moved off spaces 1-3, M-SETUP-13), 7 Power for each
        player, garrisons in every home, only King's Landing's neutral force, the threat on 2, decks I-III. Every
        house nobody picked is a vassal (M-SETUP-03), set up from its preparation card (M-SETUP-07, -11): no Power,
        no house cards, its supply on 4; its first liege is chosen at the first Planning phase."""
        conf = _setup()
        rng = Rng(seed)
        in_play = list(self._westeros_houses)
        vassals = {h for h in in_play if h not in houses}
        state = GameState(seed=seed, rng=0, options={**setup.DEFAULT_OPTIONS, **options}, players=in_play)
        state.tracks = {t: shift_vassals(conf["influence_tracks"][t], vassals) for t in data.TRACKS}
        info = self.houses()
        cards = vassal_setup()["setup_cards"]
        for house in in_play:
            if house in vassals:
                card = cards[house]
                state.houses[house] = HouseState(power=0, supply=card["supply"], hand=[], discards=[])
                starting_units, home, garrison = card["starting_units"], card["home"], card["garrison"]
            else:
                state.houses[house] = HouseState(
                    power=conf["starting_power"],
                    supply=conf["starting_supply"][house],
                    hand=sorted(c.id for c in data.house_cards().values() if c.house == house),
                    discards=[],
                )
                starting_units, home, garrison = info[house].starting_units, info[house].home, info[house].garrison
            for area, unit_types in starting_units.items():
                state.units.setdefault(area, []).extend(Unit(house, t) for t in unit_types)
            state.garrisons[home] = garrison
        state.vassals = {h: None for h in in_play if h in vassals}
        state.neutral = dict(conf["neutral_forces"])
        state.wildling_threat = conf["wildling_start"]
        setup.deal_decks(state, rng)
        return state

    def order_tokens(self) -> dict[str, OrderToken]:
        """M-SEAORD-01, M-SEAORD-05: the 15 orders and the sea orders (the Iron Bank order waits for the Iron Bank)."""
        return {**ORDER_TOKENS, **{t.id: t for t in SEA_TOKENS.values() if t.type != "iron-bank"}}

    def stars_allowed(self, position: int, houses_in_play: int) -> int:
        """The eight-space King's Court track (B-INFL-13 as extended): 3, 3, 2, 1, 0, 0, 0, 3."""
        table: list[int] = _setup()["kings_court_stars"]
        return table[position] if position < houses_in_play else 0

    def round_started(self, g: Game) -> None:
        """M-LEAVE-01: the houses of players who left become vassals as the next round starts."""
        PHASE_RULES["vassalize-leavers"](g)

    def planning_started(self, g: Game) -> None:
        """M-VASSAL-02: vassals are claimed before any order is placed."""
        PHASE_RULES["start-claim"](g)

    def orders_settled(self, g: Game) -> None:
        """M-SEAORD-02: once the Raven has been used or declined, sea orders lying on land are removed unresolved."""
        s = g.s
        board = self.board_for(s)
        for area, order in sorted(s.orders.items()):
            if order.token in SEA_TOKENS and board.areas[area].is_land:
                del s.orders[area]
                g.emit("order-removed", area=area, house=order.house, token=order.token, reason="sea-order-on-land")
