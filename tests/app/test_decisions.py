"""Prompt -> form -> picks -> answer: every form the bot can show maps back to an answer the engine takes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.decisions import (
    MAX_OPTIONS,
    FormError,
    build_form,
    march_unit_fields,
    may_force,
    only_answer,
    orders_current,
    refresh_orders,
    to_answer,
)
from app.kinds.registry import find
from engine import Game, RuleError, new_game

SUPPORTED = {"orders", "raid", "march", "house-card", "support", "casualties", "retreat", "raven", "bid"}


def picks_of(form, rnd: random.Random | None = None) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    picks: dict[str, list[str]] = {}
    for f in form.fields:
        if rnd is not None and f.options:
            picks[f.key] = [o.value for o in rnd.sample(f.options, k=min(len(f.options), f.max_values))]
        else:
            picks[f.key] = list(f.selected) or [o.value for o in f.options[: f.min_values]]
    return picks


def test_defaults_of_every_form_are_accepted_through_round_one() -> None:
    """Walking forms with their preselected values (the defaults) plays the game on."""
    for seed in range(3):
        g = new_game(6, seed=seed)
        steps = 0
        while g.prompts() and g.state.round == 1 and steps < 200:
            p = next(p for p in g.prompts() if not p.answered)
            form = build_form(p, g.view(p.house), "en")
            for f in form.fields:
                assert len(f.options) <= MAX_OPTIONS
                assert all(len(o.value) <= 100 and len(o.label) <= 100 for o in f.options)
            answer = to_answer(p, picks_of(form)) if p.kind in SUPPORTED else p.default
            try:
                g.act(p.house, answer)
            except NotImplementedError:
                break
            steps += 1


def test_random_picks_give_legal_or_clearly_refused_answers() -> None:
    rnd = random.Random(4)
    for seed in range(5):
        g = new_game(4, seed=seed)
        for _ in range(60):
            open_prompts = [p for p in g.prompts() if not p.answered]
            if not open_prompts or g.state.round > 1:
                break
            p = open_prompts[0]
            form = build_form(p, g.view(p.house), "ru")
            try:
                answer = to_answer(p, picks_of(form, rnd))
                g.act(p.house, answer)
            except (RuleError, FormError):
                try:
                    g.act(p.house, p.default)
                except NotImplementedError:
                    break
            except NotImplementedError:
                break


def test_orders_form_lists_each_area_with_its_units_in_russian() -> None:
    g = new_game(3, seed=1)
    p = g.prompt_for("stark")
    assert p is not None
    form = build_form(p, g.view("stark"), "ru")
    labels = {f.key: f.label for f in form.fields}
    assert labels["winterfell"].startswith("Винтерфелл")
    assert "рыцарь" in labels["winterfell"]
    assert any(o.label == "Поход +1 ★" for o in form.fields[0].options)
    answer = to_answer(p, picks_of(form))
    assert answer == p.default


def test_march_form_moves_units_and_leaves_power() -> None:
    g = Game.from_scenario(
        {
            "players": 3,
            "units": {
                "winterfell": "stark footman knight",
                "white-harbor": "stark footman",
                "lannisport": "lannister footman",
            },
            # A second Stark march keeps the action phase going after the one under test.
            "orders": {"winterfell": "march0", "white-harbor": "march-1", "lannisport": "defense1"},
            "start": "march",
        }
    )
    p = g.prompt_for("stark")
    assert p is not None and p.kind == "march"
    fields = {f.key: f for f in march_unit_fields(p, "winterfell", "en")}
    assert set(fields) == {"unit:footman:0", "unit:knight:0"}  # home area: no power token needed
    answer = to_answer(p, {"from": ["winterfell"], "unit:footman:0": ["moat-cailin"], "unit:knight:0": ["moat-cailin"]})
    assert answer == {
        "from": "winterfell",
        "moves": [{"to": "moat-cailin", "units": ["footman", "knight"]}],
        "leave_power": False,
    }
    g.act("stark", answer)
    assert [u.type for u in g.state.units["moat-cailin"]] == ["footman", "knight"]


def test_incomplete_picks_are_refused() -> None:
    g = new_game(3, seed=1)
    g2 = Game.from_json(g.to_json())
    p = g2.prompts()[0]
    with pytest.raises(FormError):
        to_answer(p.__class__(**{**p.__dict__, "kind": "support"}), {})


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (6, 12), (4, 13)])
def test_whole_games_are_playable_through_forms_alone(players: int, seed: int) -> None:
    """Every decision of a whole game, answered only with what its form offers: random picks, or the
    preselected values when the engine refuses the random ones. Both languages' forms are built."""
    rnd = random.Random(seed)
    g = new_game(players, seed=seed)
    kinds: set[str] = set()
    while not g.finished:
        p = next(p for p in g.prompts() if not p.answered)
        kinds.add(p.kind)
        build_form(p, g.view(p.house), "ru")
        form = build_form(p, g.view(p.house), "en")
        try:
            g.act(p.house, to_answer(p, picks_of(form, rnd)))
        except (RuleError, FormError):
            g.act(p.house, to_answer(p, picks_of(form)))  # the preselected values are always accepted
    assert g.state.winner is not None
    assert "orders" in kinds and len(kinds) >= 5, kinds


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (6, 22)])
def test_every_form_preselects_an_answer_the_engine_accepts(players: int, seed: int) -> None:
    """Submit alone (no picks) is always a legal answer: every field comes preselected with the default."""
    g = new_game(players, seed=seed)
    agent = random.Random(seed)
    while not g.finished:
        p = next(p for p in g.prompts() if not p.answered)
        form = build_form(p, g.view(p.house), "en")
        preselected = {f.key: list(f.selected) for f in form.fields}
        probe = Game.from_json(g.to_json())
        probe.act(p.house, to_answer(p, preselected))  # must not raise
        # Move the real game on with varied answers so that many kinds of forms are met.
        try:
            g.act(p.house, to_answer(p, picks_of(form, agent)))
        except (RuleError, FormError):
            g.act(p.house, p.default)


def test_orders_summary_counts_tokens_left_and_stars() -> None:
    from app.decisions import orders_summary

    g = new_game(3, seed=1)
    p = g.prompt_for("stark")
    assert p is not None
    picks = {"winterfell": ["march1*"], "white-harbor": ["raid"], "the-shivering-sea": ["raid"]}
    text = orders_summary(p, picks, "en")
    assert "★ 1/" in text and "Raid ★" in text and "Raid," not in text.split("Raid ★")[0].split("left:")[1]
    over = orders_summary(p, {**picks, "winterfell": ["raid"]}, "en")
    assert "used more often" in over


def test_an_orders_form_knows_the_picks_its_options_were_worked_out_for() -> None:
    g = new_game(6, seed=1)
    p = g.prompt_for("stark")
    assert p is not None and p.kind == "orders"
    form = build_form(p, g.view("stark"), "en")
    picks = {f.key: list(f.selected) for f in form.fields}
    assert orders_current(form, picks, "en")  # a form shown as built needs no new options
    assert not orders_current(form, picks, "ru")
    first = form.fields[0]
    picked = {**picks, first.key: [first.options[-1].value]}
    assert not orders_current(form, picked, "en")
    refresh_orders(form, p, picked, "en")
    assert orders_current(form, picked, "en")
    picked[first.key] = [first.options[0].value]  # the draft's picks change in place: the record does not
    assert not orders_current(form, picked, "en")
    copy = form.copy()
    assert copy == form and copy.fields[0] is not form.fields[0]
    copy.fields[0].selected.append("x")
    copy.fields[0].options.clear()
    assert form.fields[0].options and "x" not in form.fields[0].selected


def test_the_kind_hooks_drive_the_live_orders_form_the_march_repick_and_typed_orders() -> None:
    """What the cog once special-cased by kind is each kind's registration (``KindSpec`` hooks, issue P)."""
    from app.decisions import live_lines, orders_summary, repick, repicks, typed_orders

    g = new_game(3, seed=1)
    orders = g.prompt_for("stark")
    assert orders is not None and orders.kind == "orders" and typed_orders(orders)
    form = build_form(orders, g.view("stark"), "en")
    picks = {f.key: list(f.selected) for f in form.fields}
    first = form.fields[0]
    picks[first.key] = [first.options[0].value]
    assert not orders_current(form, picks, "en")
    assert live_lines(form, orders, picks, "en") == [orders_summary(orders, picks, "en")]
    assert orders_current(form, picks, "en")  # the options were brought up to date with the picks first
    assert not repicks(form, first.key, picks[first.key])

    march = Game.from_scenario(
        {
            "players": 3,
            "units": {"winterfell": "stark footman knight", "white-harbor": "stark footman"},
            "orders": {"winterfell": "march0", "white-harbor": "march-1"},
            "start": "march",
        }
    ).prompt_for("stark")
    assert march is not None and not typed_orders(march)
    form = build_form(march, {"areas": {"winterfell": {}, "white-harbor": {}}}, "en")
    assert live_lines(form, march, {}, "en") == []
    assert "unit:knight:0" not in {f.key for f in form.fields}  # built for White Harbor, the first origin
    assert repicks(form, "from", ["winterfell"]) and not repicks(form, "from", [])
    assert not repicks(form, form.fields[1].key, ["winterfell"])
    picked = repick(form, march, {"from": ["winterfell"]}, "from", ["winterfell"], "en")
    assert form.fields[0].key == "from" and form.fields[1:] == march_unit_fields(march, "winterfell", "en")
    assert "unit:knight:0" in picked  # the knight stands in Winterfell
    assert picked == {"from": ["winterfell"], **{f.key: list(f.selected) for f in form.fields[1:]}}


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(3, 11, {}), (6, 12, {"tides_of_battle": True}), (4, 13, {"ruleset": "mother-of-dragons"})],
)
def test_orders_never_have_one_answer_so_a_step_of_orders_alone_forces_nothing(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """U (a decision with one legal answer is never asked): ``answer_forced`` skips working out the prompts of a
    step whose open prompts are all of kinds registered ``always_a_choice`` (``may_force`` reads their kinds off their
    ids). At every step of whole games: whenever some open prompt has one answer, ``may_force`` says so; the prompts of
    those kinds never have one; and both cases were met (a Planning phase asks orders only)."""
    from engine.sim import play_game

    forced_steps, orders_only_steps = 0, 0
    always_a_choice: set[str] = set()

    def check(g: Game, *_: Any) -> None:
        nonlocal forced_steps, orders_only_steps
        prompts = g.prompts()
        if any(only_answer(p) is not None for p in prompts if not p.answered):
            forced_steps += 1
            assert may_force(g.prompt_ids()), [p.id for p in prompts]
        for prompt in prompts:
            spec = find(prompt.kind)
            if spec is not None and spec.always_a_choice:
                assert only_answer(prompt) is None, prompt.id
                always_a_choice.add(prompt.kind)
        if prompts and not may_force(g.prompt_ids()):
            orders_only_steps += 1

    result = play_game(players, seed, "random", check_invariants=False, options=options, on_step=check)
    assert result.error is None and result.finished
    assert forced_steps > 0 and orders_only_steps > 0 and always_a_choice
