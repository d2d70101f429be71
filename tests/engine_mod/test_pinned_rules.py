"""Three Mother of Dragons rules pinned where the older tests do not reach (M-VASSAL-22, M-VASSAL-13, Lysa Arryn).

* A vassal's played card is never discarded, checked INSIDE the combat's after-combat window (the older test looks
  only once the combat is over, when the vassal's hand and discards are cleared anyway).
* A vassal never marches a ship into a port, even the port of a land the vassal itself controls (the older test
  uses another house's port, which the ordinary port rule already refuses).
* Lysa Arryn goes back to the hand only for a winning DEFENDER; winning as the attacker she is discarded.

Every position is built with ``Game.from_scenario`` and played through ``g.act``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import Game, rules
from engine.prompts import Prompt
from tests.engine_action.helpers import combat_frame, make, march, prompt, rejected, result

MOD = {"ruleset": "mother-of-dragons"}
# Players Stark, Lannister, Baratheon and Arryn; Tyrell, Martell and Greyjoy are vassals.
PLAYERS = ["stark", "lannister", "baratheon", "arryn"]
LIEGES = {"tyrell": "stark", "martell": "stark", "greyjoy": "lannister"}
SEVEN = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]

JANOS = "vassal-janos-slynt"  # printed 2, two swords, one fortification, no text
SYRIO = "vassal-syrio-forel"
VARYS = "vassal-varys"
TYRELL_HAND = [JANOS, SYRIO, VARYS]


def mod(spec: dict[str, Any]) -> Game:
    """A Mother of Dragons Action phase in round 10 (no garrisons or neutral forces unless given)."""
    return make({"options": MOD, "supply": dict.fromkeys(SEVEN, 6), "start": "march", **spec})


def drive(
    g: Game,
    script: dict[tuple[str, str], Any],
    *,
    until: str | None = None,
    at_cards: Callable[[Game], None] | None = None,
    seen: list[Prompt] | None = None,
) -> list[dict[str, Any]]:
    """Answer the current combat's prompts from ``script`` (``(house, kind) -> answer``), any other prompt with its
    default, until the combat ends or a prompt of kind ``until`` opens. ``at_cards`` runs once when the combat
    reaches its house cards (to set what a vassal drew). Every prompt answered is appended to ``seen``."""
    events: list[dict[str, Any]] = []
    for _ in range(60):
        f = combat_frame(g)
        if f is None:
            return events
        if at_cards is not None and f["stage"] == "cards":
            at_cards(g)
            at_cards = None
        p = next(p for p in g.prompts() if not p.answered)
        if p.kind == until:
            return events
        if seen is not None:
            seen.append(p)
        events += g.act(p.house, script.get((p.house, p.kind), p.default))
    raise AssertionError("the combat did not end")


def deal_tyrell(g: Game) -> None:
    """The vassal's three cards are drawn at random; the test fixes them (all from the vassal deck)."""
    assert len(g.s.houses["tyrell"].hand) == 3
    g.s.houses["tyrell"].hand = sorted(TYRELL_HAND)


def test_M_VASSAL_22_B_HCARD_06_a_vassals_played_card_is_not_discarded_inside_the_after_combat_window() -> None:
    """M-VASSAL-22 (003_963b092c48c4bcfa.txt:326: "Затем он выбирает и разыгрывает одну из этих карт (остальные две
    остаются у него на руке до конца боя ...)"; "В конце боя все три взятые карты возвращаются в колоду вассалов")
    overrides B-HCARD-06 (002_7cebedaafbd9f59c.txt:2223-2225: "После разбора боя сыгранные карты Домов уходят в
    стопки сброса лицом вверх") for a vassal: its played card never reaches a discard pile.

    In this engine a vassal's card is "discarded" if it lands in ``houses[vassal].discards`` (``discard`` in
    engine/steps/combat.py skips the vassal; ``return_vassal_cards`` empties hand and discards when the combat ends).
    So the state is checked at a prompt of the "after combat" window, with the combat frame still on the stack and
    the player's card already in its discard pile: Baratheon's Patchface asks to name a card of the vassal Tyrell's
    hand. Then the other after-combat reader of discard piles, Robert Arryn (Arryn defends against Tyrell), finds
    Tyrell's pile empty and asks nothing.
    """
    # Baratheon marches two knights from the Searoad Marches on Tyrell's footman in the Reach: 4 + 0 against 1 + 2.
    g = mod(
        {
            "players": PLAYERS,
            "vassals": LIEGES,
            "units": {"searoad-marches": "baratheon knight knight", "the-reach": "tyrell footman"},
            "orders": {"searoad-marches": "march0"},
        }
    )
    march(g, "baratheon", "searoad-marches", {"the-reach": ["knight", "knight"]})
    events = drive(
        g,
        {("baratheon", "house-card"): "patchface", ("tyrell", "house-card"): JANOS},
        until="patchface-discard",
        at_cards=deal_tyrell,
    )
    assert result(events)["winner"] == "baratheon"
    f = combat_frame(g)
    assert f is not None and f["stage"] == "after", "Patchface asks inside the combat's after-combat window"
    assert f["cards"] == {"attacker": "patchface", "defender": JANOS}
    assert prompt(g, "baratheon").choices == [SYRIO, VARYS, None]  # the two cards Tyrell kept, not the played one
    houses = g.s.houses
    assert "patchface" in houses["baratheon"].discards  # the cards have been discarded by now ...
    assert houses["tyrell"].discards == [], f"the vassal's card was discarded: {houses['tyrell'].discards}"
    discarded = {h: hs.discards for h, hs in houses.items() if JANOS in hs.discards}
    assert not discarded, f"{JANOS} is in a discard pile: {discarded}"  # ... but not the vassal's
    assert houses["tyrell"].hand == [SYRIO, VARYS]  # nor back in its hand: it goes back to the vassal deck

    # Tyrell (Stark's vassal) marches a footman from the Mountains of the Moon on Arryn's two knights in the Vale;
    # Arryn defends with Robert Arryn (0 + 4 against 1 + 2) and wins.
    g = mod(
        {
            "players": PLAYERS,
            "vassals": LIEGES,
            "units": {"the-mountains-of-the-moon": "tyrell footman", "the-vale-of-arryn": "arryn knight knight"},
            "orders": {"the-mountains-of-the-moon": "vassal-march0"},
        }
    )
    march(g, "tyrell", "the-mountains-of-the-moon", {"the-vale-of-arryn": ["footman"]})
    seen: list[Prompt] = []
    events = drive(
        g,
        {("arryn", "house-card"): "robert-arryn", ("tyrell", "house-card"): JANOS},
        at_cards=deal_tyrell,
        seen=seen,
    )
    assert result(events)["winner"] == "arryn"
    removals = [p.to_dict() for p in seen if p.kind == "robert-remove"]
    assert not removals, f"Robert Arryn found the vassal's card in a discard pile: {removals}"
    assert g.s.houses["arryn"].discards == ["robert-arryn"]
    assert g.s.houses["tyrell"].hand == [] and g.s.houses["tyrell"].discards == []


def test_M_VASSAL_13_B_PORT_05_a_vassal_never_sails_into_a_port_even_of_a_land_it_controls() -> None:
    """M-VASSAL-13 (003_963b092c48c4bcfa.txt:298: "Однако вассал не может совершать поход в порт, а также в область,
    подвластную своему сюзерену или другим вассалам этого сюзерена").

    The ordinary rule (B-PORT-01, 002_7cebedaafbd9f59c.txt:3055-3057: "Хозяином порта считается тот Дом, в чьей
    власти находится смежная с портом земля"; B-PORT-05, 002_7cebedaafbd9f59c.txt:3094-3098: ships "никогда не могут
    совершить поход во вражеский порт") lets a house sail into the port of a land it holds. Tyrell (Stark's vassal)
    holds Oldtown and has a ship with its March 0 in the Redwyne Straights, next to the empty Port of Oldtown: the
    port is Tyrell's own, so only the vassal rule keeps the ship out. The same position with Tyrell as a player lets
    the ship in.
    """
    units = {"oldtown": "tyrell footman", "redwyne-straights": "tyrell ship", "winterfell": "stark footman"}
    g = mod(
        {
            "players": PLAYERS,
            "vassals": LIEGES,
            "units": units,
            "orders": {"redwyne-straights": "vassal-march0"},
        }
    )
    assert rules.controller(g.s, "oldtown") == "tyrell" and rules.friendly_port(g.s, "tyrell", "port-of-oldtown")
    ships = prompt(g, "tyrell").choices["redwyne-straights"]["destinations"]["ship"]
    assert "west-summer-sea" in ships  # the ship may sail, just not into the port
    assert "port-of-oldtown" not in ships, f"a vassal's ship may enter its own port: {ships}"
    move = {"from": "redwyne-straights", "moves": [{"to": "port-of-oldtown", "units": ["ship"]}]}
    rejected(g, "tyrell", move, "not-adjacent")

    player = mod({"players": ["stark", "lannister", "baratheon", "tyrell"], "units": units})
    assert "tyrell" not in player.s.vassals
    assert "port-of-oldtown" in rules.move_destinations(player.s, "tyrell", "redwyne-straights", "ship")


def test_M_ARRYN_02_B_HCARD_06_lysa_arryn_winning_as_the_attacker_is_discarded() -> None:
    """Lysa Arryn (M-ARRYN-02, card text in shared/reference/mother-of-dragons/house-cards.json, lysa-arryn-mod: "If
    you won this combat and one of your Defense orders lies in the embattled area (so you were the defender), you may
    take this card back into your hand instead of putting it on your discard pile"; printed text "Если вы выиграли
    этот бой, защищаясь ..."). Otherwise B-HCARD-06 holds (002_7cebedaafbd9f59c.txt:2223-2225: "После разбора боя
    сыгранные карты Домов уходят в стопки сброса лицом вверх").

    Arryn attacks with a knight from the Vale of Arryn into the Mountains of the Moon, where Lannister's footman lies
    under its Defense +1 order: 2 + 4 against 1 + 1 + 2. Arryn wins, in an area holding a Defense order, but as the
    attacker: no keep prompt, and Lysa goes to Arryn's discard pile.
    """
    g = mod(
        {
            "players": 7,
            "units": {"the-vale-of-arryn": "arryn knight", "the-mountains-of-the-moon": "lannister footman"},
            "orders": {"the-vale-of-arryn": "march0", "the-mountains-of-the-moon": "defense1"},
        }
    )
    march(g, "arryn", "the-vale-of-arryn", {"the-mountains-of-the-moon": ["knight"]})
    seen: list[Prompt] = []
    events = drive(g, {("arryn", "house-card"): "lysa-arryn-mod", ("lannister", "house-card"): "the-hound"}, seen=seen)
    assert result(events)["winner"] == "arryn"
    assert result(events)["strength"]["defender"]["defense"] == 1
    keeps = [p.to_dict() for p in seen if p.kind == "lysa-keep"]
    assert not keeps, f"the attacker was offered to keep Lysa: {keeps}"
    assert not [e for e in events if e["type"] == "hand-returned"]
    assert g.s.houses["arryn"].discards == ["lysa-arryn-mod"]
    assert "lysa-arryn-mod" not in g.s.houses["arryn"].hand
