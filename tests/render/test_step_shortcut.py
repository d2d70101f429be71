"""The shortcut that skips drawing a step's images, and working out its views: it never skips a step whose channel
images (``images_for_step(..., crops=False)``) would show something."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, RuleError, new_game
from engine.agents import HeuristicAgent
from render import images_for_step
from render.aio import table_shows_something


def play_checking_the_shortcut(game: Game, seed: int, steps: int) -> tuple[int, int]:
    """Play ``steps`` answers; a step the shortcut skips must draw nothing, and one it keeps must draw something.
    Returns the steps skipped and kept."""
    agent = HeuristicAgent(seed)
    skipped = kept = 0
    for _ in range(steps):
        prompts = [p for p in game.prompts() if not p.answered]
        if not prompts or game.finished:
            break
        prompt = prompts[0]
        before = game.view(None)
        try:
            events = game.act(prompt.house, agent.answer(prompt, game.view(prompt.house)))
        except (RuleError, NotImplementedError):
            try:
                events = game.act(prompt.house, prompt.default)
            except NotImplementedError:
                break
        public = [e for e in events if not e.get("private_to")]
        drawn = images_for_step(before, game.view(None), public, "en", crops=False)
        if table_shows_something(False, public):
            kept += 1
            assert drawn, public
        else:
            skipped += 1
            assert drawn == [], public
    return skipped, kept


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 6]), seed=st.integers(0, 2**32), tides=st.booleans())
def test_a_step_the_shortcut_skips_draws_nothing_and_one_it_keeps_draws(players: int, seed: int, tides: bool) -> None:
    game = new_game(players, seed=seed, options={"tides_of_battle": tides})
    skipped, kept = play_checking_the_shortcut(game, seed, 300)
    assert skipped > 0 and kept > 0  # answers were skipped; a reveal at least was drawn


def test_the_start_and_a_battle_are_never_skipped() -> None:
    assert table_shows_something(True, [])  # the game's start, a repair: the whole board
    assert table_shows_something(False, [{"type": "orders-submitted"}, {"type": "orders-revealed", "orders": {}}])
    assert not table_shows_something(False, [{"type": "march", "house": "stark"}])
    assert not table_shows_something(False, [{"type": "combat-result", "private_to": "stark"}])
