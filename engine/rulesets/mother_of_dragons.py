"""Mother of Dragons: the expansion's board with the Eyrie and Bite overlays, House Arryn, the fixed setup, sea orders.

This part covers 7 players without Targaryen (so with no vassal, no Essos and no Iron Bank). What the other player
counts need (vassals) and what Targaryen brings (Essos, dragons, loyalty, deck IV, the Iron Bank) come later, as
further hooks of this ruleset.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from engine import data, setup
from engine.errors import RuleError
from engine.orders import ORDER_TOKENS, SEA_TOKENS, OrderToken
from engine.rng import Rng
from engine.rulesets.base import Ruleset
from engine.state import GameState, HouseState, Unit

if TYPE_CHECKING:
    from engine.game import Game

FOLDER = "mother-of-dragons"
PLAYER_COUNTS = (7,)  # 3 to 6 players need vassals (a later issue), 8 need Targaryen (a later issue)


def _setup() -> dict[str, Any]:
    raw: dict[str, Any] = data.read(f"{FOLDER}/setup.json")
    return raw


class MotherOfDragons(Ruleset):
    name: ClassVar[str] = "mother-of-dragons"
    board_file: ClassVar[str] = f"{FOLDER}/board-westeros.json"
    allows_gifts: ClassVar[bool] = True  # M-GIFT-01

    @cached_property
    def _houses(self) -> dict[str, data.HouseInfo]:
        return {**data.houses(), **data.houses(f"{FOLDER}/houses.json")}

    def houses(self) -> dict[str, data.HouseInfo]:
        return self._houses

    def player_counts(self) -> list[int]:
        return list(PLAYER_COUNTS)

    def houses_for(self, count: int) -> list[str]:
        """M-SETUP-02, M-PLAYERS-02: seven players take the seven houses of Westeros (no Targaryen, no vassal)."""
        if count not in PLAYER_COUNTS:
            raise RuleError(
                "mod-player-count",
                "Mother of Dragons is played by 7 players for now (fewer need vassals, 8 need Targaryen).",
                players=count,
            )
        return list(_setup()["influence_tracks"]["iron_throne"])

    def initial_state(self, count: int, seed: int, options: dict[str, Any]) -> GameState:
        """M-SETUP-01..22 for seven houses: the fixed influence layout, 7 Power each, garrisons in every home,
        only King's Landing's neutral force, the threat on 2, decks I-III."""
        houses = self.houses_for(count)
        conf = _setup()
        rng = Rng(seed)
        state = GameState(seed=seed, rng=0, options={**setup.DEFAULT_OPTIONS, **options}, players=list(houses))
        state.tracks = {t: list(conf["influence_tracks"][t]) for t in data.TRACKS}
        info = self.houses()
        for house in houses:
            state.houses[house] = HouseState(
                power=conf["starting_power"],
                supply=conf["starting_supply"][house],
                hand=sorted(c.id for c in data.house_cards().values() if c.house == house),
                discards=[],
            )
            for area, unit_types in info[house].starting_units.items():
                state.units.setdefault(area, []).extend(Unit(house, t) for t in unit_types)
            state.garrisons[info[house].home] = info[house].garrison
        state.neutral = dict(conf["neutral_forces"])
        state.wildling_threat = conf["wildling_start"]
        wildlings = list(data.wildling_cards())
        rng.shuffle(wildlings)
        state.wildling_deck = wildlings
        state.westeros_decks = setup.westeros_decks(rng)
        if state.options.get("tides_of_battle"):
            state.tides_deck = setup.tides_deck(rng)
        state.rng = rng.state
        return state

    def order_tokens(self) -> dict[str, OrderToken]:
        """M-SEAORD-01, M-SEAORD-05: the 15 orders and the sea orders (the Iron Bank order waits for the Iron Bank)."""
        return {**ORDER_TOKENS, **{t.id: t for t in SEA_TOKENS.values() if t.type != "iron-bank"}}

    def stars_allowed(self, position: int, houses_in_play: int) -> int:
        """The eight-space King's Court track (B-INFL-13 as extended): 3, 3, 2, 1, 0, 0, 0, 3."""
        table: list[int] = _setup()["kings_court_stars"]
        return table[position] if position < houses_in_play else 0

    def orders_settled(self, g: Game) -> None:
        """M-SEAORD-02: once the Raven has been used or declined, sea orders lying on land are removed unresolved."""
        s = g.s
        board = self.board
        for area, order in sorted(s.orders.items()):
            if order.token in SEA_TOKENS and board.areas[area].is_land:
                del s.orders[area]
                g.emit("order-removed", area=area, house=order.house, token=order.token, reason="sea-order-on-land")
