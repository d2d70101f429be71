"""Mother of Dragons: the expansion's board with the Eyrie and Bite overlays, House Arryn, the fixed setup, sea orders,
and vassals: with 3 to 7 players every house of Westeros nobody picked is on the board, commanded by the players in
turn. With 4 to 8 players House Targaryen may play: Essos joins the board, Targaryen keeps space 8 of every track,
its dragons grow with the rounds and fly (``engine.targaryen``).

With Targaryen come its loyalty tokens and deck IV (``engine.steps.loyalty``) and the Iron Bank of Braavos with its
loans, interest and development tokens (``engine.steps.iron_bank``), each through this ruleset's hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from engine import data, setup
from engine.bank import board_marks, new_bank
from engine.errors import RuleError
from engine.flow import FRAME_RULES, PHASE_RULES
from engine.orders import ORDER_TOKENS, SEA_TOKENS, OrderToken
from engine.rng import Rng
from engine.rulesets.base import Ruleset
from engine.state import GameState, HouseState, Unit

if TYPE_CHECKING:
    from engine.flow import Frame
    from engine.game import Game

FOLDER = "mother-of-dragons"
PLAYER_COUNTS = (3, 4, 5, 6, 7, 8)  # M-PLAYERS-01..03
TARGARYEN = "targaryen"
DRAGON = "dragon"
PENTOS = "pentos"
TARGARYEN_FROM = 4  # M-TARG-01: Targaryen only with 4 or more players
WESTEROS_BOARD = "mother-of-dragons"
ESSOS_BOARD = "mother-of-dragons-essos"
TARGARYEN_CARD_SETS = ("a", "b")


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
    boards: ClassVar[dict[str, str]] = {
        WESTEROS_BOARD: f"{FOLDER}/board-westeros.json",
        ESSOS_BOARD: f"{FOLDER}/board-essos.json",
    }
    allows_gifts: ClassVar[bool] = True  # M-GIFT-01
    allows_vassals: ClassVar[bool] = True  # M-SETUP-03, M-LEAVE-01

    @cached_property
    def _houses(self) -> dict[str, data.HouseInfo]:
        return {**data.houses(), **data.houses(f"{FOLDER}/houses.json")}

    def houses(self) -> dict[str, data.HouseInfo]:
        return self._houses

    def board_name(self, s: GameState) -> str:
        """M-ESSOS-02: Essos lies beside Westeros only when Targaryen plays."""
        return ESSOS_BOARD if TARGARYEN in s.players else WESTEROS_BOARD

    def board_for(self, s: GameState) -> data.Board:
        """M-DEV-01, -02: the board as developed and declined by the Iron Bank's loans."""
        marks = board_marks(s)
        return data.developed_board(self.boards[self.board_name(s)], marks) if marks else self.printed_board(s)

    def player_counts(self) -> list[int]:
        return list(PLAYER_COUNTS)

    def houses_for(self, count: int) -> list[str]:
        """M-SETUP-02, M-PLAYERS-01..03: the houses players hold by default; seven players hold every house of
        Westeros, eight every house with Targaryen, fewer take the base game's houses for their count and the others
        become vassals (players may pick any house instead, Targaryen from four players: ``accepts_houses``)."""
        if count not in PLAYER_COUNTS:
            raise RuleError("mod-player-count", "Mother of Dragons is played by 3 to 8 players.", players=count)
        if count == len(self._westeros_houses) + 1:
            return [*self._westeros_houses, TARGARYEN]
        if count == len(self._westeros_houses):
            return list(self._westeros_houses)
        return setup.houses_for(count)

    @property
    def _westeros_houses(self) -> list[str]:
        houses: list[str] = _setup()["influence_tracks"]["iron_throne"]
        return houses

    def choosable_houses(self, count: int) -> list[str]:
        """M-SETUP-02: the houses players may pick at this count (Targaryen from four players)."""
        return [*self._westeros_houses, *([TARGARYEN] if count >= TARGARYEN_FROM else [])]

    def accepts_houses(self, houses: list[str]) -> bool:
        """M-PLAYERS-02, -03, M-TARG-01: any house each at most once, Targaryen only with 4 or more players (eight
        players therefore hold every house)."""
        return (
            len(houses) in PLAYER_COUNTS
            and len(set(houses)) == len(houses)
            and set(houses) <= set(self.choosable_houses(len(houses)))
        )

    def initial_state(self, houses: list[str], seed: int, options: dict[str, Any]) -> GameState:
        """M-SETUP-01..22: the fixed influence layout (vassals moved off spaces 1-3, M-SETUP-13), 7 Power for each
        player, garrisons in every home, only King's Landing's neutral force, the threat on 2, decks I-III. Every
        house nobody picked is a vassal (M-SETUP-03), set up from its preparation card (M-SETUP-07, -11): no Power,
        no house cards, its supply on 4; its first liege is chosen at the first Planning phase."""
        conf = _setup()
        rng = Rng(seed)
        essos = TARGARYEN in houses
        in_play = [*self._westeros_houses, *([TARGARYEN] if essos else [])]
        vassals = {h for h in in_play if h not in houses}  # M-PLAYERS-04: Targaryen is never one
        options = {**setup.DEFAULT_OPTIONS, **options}
        if essos:
            options.setdefault("targaryen_cards", TARGARYEN_CARD_SETS[0])
            if options["targaryen_cards"] not in TARGARYEN_CARD_SETS:
                raise RuleError("bad-option", "Targaryen's card set is a or b.", option="targaryen_cards")
        state = GameState(seed=seed, rng=0, options=options, players=in_play)
        layout = conf["influence_tracks_with_targaryen" if essos else "influence_tracks"]
        state.tracks = {t: shift_vassals(layout[t], vassals) for t in data.TRACKS}
        if essos:  # M-TARG-16: the vassals' shift closes up before space 8, which stays Targaryen's
            state.tracks = {t: [*(h for h in hs if h != TARGARYEN), TARGARYEN] for t, hs in state.tracks.items()}
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
                    hand=sorted(
                        c.id
                        for c in data.house_cards().values()
                        if c.house == house and c.set in (None, options.get("targaryen_cards"))
                    ),
                    discards=[],
                )
                starting_units, home, garrison = info[house].starting_units, info[house].home, info[house].garrison
            for area, unit_types in starting_units.items():
                state.units.setdefault(area, []).extend(Unit(house, t) for t in unit_types)
            state.garrisons[home] = garrison
        state.vassals = {h: None for h in in_play if h in vassals}
        state.neutral = dict(conf["neutral_forces_with_essos" if essos else "neutral_forces"])
        state.wildling_threat = conf["wildling_start"]
        if essos:
            state.targaryen = {
                "dragon_rounds": sorted(conf["dragon_strength_rounds"]),  # M-SETUP-10
                "dragon_strength": 0,
                "loyalty": 0,
                "holds_pentos": True,  # M-TARG-08
                "loyalty_tokens": dict(conf["loyalty_start"]),  # M-SETUP-20
            }
        setup.deal_decks(state, rng)
        if essos:  # M-SETUP-09, M-DECK4-01: deck IV beside deck III, shuffled after the others
            state.westeros_decks += setup.westeros_decks(rng, (4,))
            state.bank = new_bank(rng)  # M-SETUP-21: the Iron Bank comes with Essos
            state.rng = rng.state
        return state

    def order_tokens(self, s: GameState) -> dict[str, OrderToken]:
        """M-SEAORD-01, -03, -05: the 15 orders and the sea orders; the Iron Bank order only where the bank is (with
        Targaryen: without it the order could do nothing, so it is not offered)."""
        return {**ORDER_TOKENS, **{t.id: t for t in SEA_TOKENS.values() if t.type != "iron-bank" or s.bank}}

    def stars_allowed(self, position: int, houses_in_play: int) -> int:
        """The eight-space King's Court track (B-INFL-13 as extended): 3, 3, 2, 1, 0, 0, 0, 3."""
        table: list[int] = _setup()["kings_court_stars"]
        return table[position] if position < houses_in_play else 0

    def unit_types(self) -> dict[str, data.UnitType]:
        """The base game's four and the dragon (M-TARG-10, -11): never mustered, it flies (M-TARG-14)."""
        return data.unit_types(f"{FOLDER}/units.json")

    def unit_strength(self, s: GameState, unit: Unit, *, attacking_castle: bool) -> int:
        """M-TARG-12: a dragon is as strong as the tokens on the dragon track."""
        if unit.type == DRAGON:
            return int(s.targaryen.get("dragon_strength", 0))
        return super().unit_strength(s, unit, attacking_castle=attacking_castle)

    def pinned_on_tracks(self, s: GameState) -> dict[str, int]:
        """M-TARG-16: Targaryen keeps space 8 of every track."""
        return {TARGARYEN: len(s.players) - 1} if TARGARYEN in s.players else {}

    def victory_points(
        self, s: GameState, castles: dict[str, int], controller: Callable[[str], str | None]
    ) -> dict[str, int]:
        """M-TARG-02, -07, -08, -09: Targaryen counts no castles: its loyalty points, never lost, and Pentos's
        printed token while it holds Pentos."""
        if TARGARYEN not in castles:
            return castles
        pentos = 1 if controller(PENTOS) == TARGARYEN else 0
        return {**castles, TARGARYEN: int(s.targaryen.get("loyalty", 0)) + pentos}

    def round_started(self, g: Game) -> None:
        """M-LEAVE-01: the houses of players who left become vassals as the next round starts. M-TARG-13: the round
        marker reaching a dragon strength token moves it onto the dragon track."""
        PHASE_RULES["vassalize-leavers"](g)
        if g.s.targaryen:
            PHASE_RULES["dragons-grow"](g)
        PHASE_RULES["iron-bank-round"](g)  # M-BANK-09: after the round marker and the dragons

    def westeros_started(self, g: Game) -> None:
        """M-BANK-04: interest is paid as the Westeros phase begins, before any card is drawn."""
        PHASE_RULES["iron-bank-westeros"](g)

    def settle(self, g: Game) -> None:
        """M-TARG-09: Pentos lost or taken back. M-TARG-05, -06: loyalty tokens in an area Targaryen controls are
        collected, and seven points win at once."""
        PHASE_RULES["iron-bank-settle"](g)  # M-BANK-07: the Braavos token follows control of Braavos
        t = g.s.targaryen
        if not t:
            return
        before = (t["holds_pentos"], t["loyalty"])
        PHASE_RULES["pentos"](g)
        PHASE_RULES["collect-loyalty"](g)
        if (t["holds_pentos"], t["loyalty"]) != before:
            g.check_instant_win()

    def win_reason(self, s: GameState, house: str) -> str:
        """M-TARG-06: Targaryen wins on seven loyalty points, the others on seven castles."""
        return "seven-loyalty" if house == TARGARYEN else super().win_reason(s, house)

    def clash_bids_revealed(self, g: Game, clash: Frame) -> bool:
        """M-TARG-18: Targaryen hands out its bid before the track is ordered."""
        return bool(g.s.targaryen) and FRAME_RULES["bid-handout"](g, clash)

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
