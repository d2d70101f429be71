"""Issue U, fault 3: a battle's image tells the battle on its own: both cards (also when they are revealed in the
step that decides the battle, or one is cancelled and replaced), why a tie went one way, the losses and retreats in
the channel's words, and its arrows inside the picture."""

from __future__ import annotations

from typing import Any

from engine import new_game
from render.battle import battle_crop
from render.data import board_of
from render.step import battles_of_step, images_for_step
from tests.render import viewkit
from tests.render.conftest import open_png

RESULT = {
    "type": "combat-result",
    "area": "the-twins",
    "attacker": "lannister",
    "defender": "stark",
    "strength": {"attacker": {"units": 3, "card": 4, "total": 7}, "defender": {"units": 1, "card": 3, "total": 4}},
    "winner": "lannister",
    "tie_broken_by_fiefdoms": False,
}


def step(events: list[dict[str, Any]], outcomes: dict[str, list[str]] | None = None) -> list[Any]:
    view = viewkit.battle_view()
    seen = dict(view["battle"], cards={})  # the view before the step: the cards not yet revealed
    return battles_of_step(board_of(view), seen, events, "en", outcomes or {})


def test_cards_revealed_in_the_step_that_decides_the_battle_are_named() -> None:
    revealed = {"type": "house-cards-revealed", "area": "the-twins", "attacker": "tywin-lannister",
                "defender": "robb-stark"}  # fmt: skip
    ((battle, _),) = step([revealed, RESULT])
    assert battle["cards"] == {"attacker": "tywin-lannister", "defender": "robb-stark"}


def test_a_cancelled_card_is_replaced_by_the_one_played_instead() -> None:
    revealed = {"type": "house-cards-revealed", "area": "the-twins", "attacker": "tywin-lannister",
                "defender": "robb-stark"}  # fmt: skip
    again = {"type": "house-card-revealed", "area": "the-twins", "house": "stark", "side": "defender",
             "card": "the-blackfish"}  # fmt: skip
    ((battle, _),) = step([revealed, again, RESULT])
    assert battle["cards"] == {"attacker": "tywin-lannister", "defender": "the-blackfish"}


def test_a_tie_says_it_was_broken_and_a_clear_win_does_not() -> None:
    tie = dict(RESULT, tie_broken_by_fiefdoms=True)
    ((battle, _),) = step([tie])
    assert battle["tie_broken"] is True
    ((battle, _),) = step([RESULT])
    assert battle["tie_broken"] is False


def test_the_losses_are_drawn_in_the_channels_words() -> None:
    losses = [
        "Stark loses 1 footman in The Twins (casualties).",
        "Stark retreats 1 footman from The Twins to Moat Cailin.",
    ]
    destroyed = {"type": "units-destroyed", "house": "stark", "area": "the-twins", "units": ["footman"]}
    ((_, notes),) = step([RESULT, destroyed], {"the-twins": losses})
    assert notes == losses
    ((_, notes),) = step([RESULT, destroyed])  # without words given, the renderer's short note
    assert len(notes) == 1 and "Stark" in notes[0]


def test_the_image_grows_with_the_tie_line_and_the_losses() -> None:
    view = viewkit.battle_view()
    before = dict(view, battle=dict(view["battle"], cards={}))
    tie = dict(RESULT, tie_broken_by_fiefdoms=True)
    losses = {"the-twins": ["Stark loses 1 footman in The Twins (casualties)."] * 2}
    ((_, plain_png, _),) = images_for_step(before, view, [RESULT], "en", crops=False)
    ((_, told_png, _),) = images_for_step(before, view, [tie], "en", crops=False, outcomes=losses)
    plain, told = open_png(plain_png), open_png(told_png)
    assert told.width == plain.width and told.height > plain.height + 60


def test_a_sea_battles_arrow_stays_in_the_picture() -> None:
    """Stark's ship from the Shivering Sea against the Narrow Sea: the route along the board's right edge left the
    crop and came back."""
    game = new_game(4, seed=3, options={"ruleset": "mother-of-dragons"})
    view = game.view(None)
    battle = {"area": "the-narrow-sea", "from": "the-shivering-sea", "attacker": "stark", "defender": "arryn"}
    crop = battle_crop(board_of(view), view, battle, "en")
    assert crop.arrows
    w, h = crop.image.size
    for arrow in crop.arrows:
        assert all(
            -arrow.width <= x <= w + arrow.width and -arrow.width <= y <= h + arrow.width for x, y in arrow.points
        )


def test_a_negative_strength_is_drawn_with_a_true_minus_sign() -> None:
    """A march −1 read "-1" with a hyphen on the battle image while the channel printed "−1" (fault 9)."""
    from render.battle import strength_cell

    assert strength_cell(-1) == "−1" and strength_cell(2) == "+2" and strength_cell(0) == "0"
