"""Issue U, fault 4: a form never lets Submit carry an answer the engine will refuse.

``app.decisions.refusal`` reads the picks as an answer and gives it to a copy of the game: the reason the answer would
be refused, or None. The form shows the reason and keeps Submit unavailable while there is one (the bot tests show
it through the fake Discord); here, that a form as it opens is always an answer the engine takes, that the check
finds what the form's own reading and the engine refuse, and that it changes nothing.
"""

from __future__ import annotations

import random

from app.decisions import FormError, build_form, refusal
from app.queries import SharedGame
from engine import Game, RuleError, new_game
from engine.agents import RandomAgent


def test_every_form_as_it_opens_is_an_answer_the_engine_takes() -> None:
    """Each decision of seeded games, base and Mother of Dragons: the pre-filled picks are never refused, so Submit is
    available as every form opens (a tie after everyone bid 0 included)."""
    seen: set[str] = set()
    for players, options, seed in ((4, {"ruleset": "mother-of-dragons"}, 3), (6, {"tides_of_battle": True}, 5)):
        g = new_game(players, seed=seed, options=options)
        agents = {h: RandomAgent(seed * 10 + i) for i, h in enumerate(g.state.players)}
        rnd = random.Random(seed)
        for _ in range(400):
            if g.finished:
                break
            prompt = next(p for p in g.prompts() if not p.answered)
            shared = SharedGame(g.state)
            form = build_form(prompt, shared.view(prompt.house), "en")
            picks = {f.key: list(f.selected) for f in form.fields}
            assert refusal(shared, prompt, picks) is None, (prompt.kind, picks)
            seen.add(prompt.kind)
            answer = agents[prompt.house].answer(prompt, g.view(prompt.house)) if rnd.random() < 0.8 else None
            try:
                g.act(prompt.house, prompt.default if answer is None else answer)
            except RuleError:
                g.act(prompt.house, prompt.default)
    assert {"orders", "vassal-claim", "vassal-orders", "march", "house-card", "bid"} <= seen


def test_the_check_finds_a_refusal_of_the_form_and_of_the_engine_and_changes_nothing() -> None:
    # A tie after everyone bid 0 (the Iron Throne's Clash of Kings): one house in two places is the form's refusal.
    tie = Game.from_scenario(
        {
            "players": 3,
            "round": 2,
            "power": {"stark": 0, "lannister": 0, "baratheon": 0},
            "start": {"clash": "iron_throne"},
        }
    )
    prompt = next(p for p in tie.prompts() if not p.answered)
    assert prompt.kind == "tie-order"
    first, second, third = prompt.default
    before = tie.to_json()
    repeated = refusal(tie, prompt, {"tie:0:0": [first], "tie:0:1": [first], "tie:0:2": [third]})
    assert isinstance(repeated, FormError) and repeated.code == "tie-order-repeat"
    assert refusal(tie, prompt, {"tie:0:0": [second], "tie:0:1": [first], "tie:0:2": [third]}) is None
    assert tie.to_json() == before

    # A march into two battles reads as an answer; the engine refuses it (one March order, one combat).
    march = Game.from_scenario(
        {
            "players": 3,
            "units": {
                "lannisport": "lannister knight footman",
                "riverrun": "stark footman",
                "stoney-sept": "stark footman",
                "winterfell": "stark footman",
                "dragonstone": "baratheon footman",
            },
            "orders": {"lannisport": "march0", "riverrun": "defense1", "stoney-sept": "defense1"},
            "start": "march",
        }
    )
    prompt = march.prompt_for("lannister")
    assert prompt is not None and prompt.kind == "march"
    before = march.to_json()
    picks = {"from": ["lannisport"], "unit:footman:0": ["riverrun"], "unit:knight:0": ["stoney-sept"]}
    two = refusal(march, prompt, picks)
    assert isinstance(two, RuleError) and two.code == "two-combats"
    assert refusal(march, prompt, {**picks, "unit:knight:0": ["riverrun"]}) is None
    assert march.to_json() == before  # checked on a copy: the position is as it was
