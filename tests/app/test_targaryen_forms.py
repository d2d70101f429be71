"""Targaryen's decisions as forms (issue T): the hand-out of its Clash of Kings bid (M-TARG-18), one menu per house
under its name and bid with the bids as they stand, and a dragon's flight to any land through menus a phone can hold."""

from __future__ import annotations

import pytest

from app.decisions import answer_text, build_form, live_lines, to_answer
from app.forms import FormError
from engine import Game, rules

MOD = {"ruleset": "mother-of-dragons"}


def handout_game() -> Game:
    g = Game.from_scenario({"players": 8, "options": MOD, "round": 2, "start": {"clash": "iron_throne"}})
    for house in rules.turn_order(g.s):
        g.act(house, {"targaryen": 3, "stark": 2}.get(house, 0))
    return g


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_handout_form_shows_every_house_with_its_bid_and_the_bids_as_picked(lang: str) -> None:
    g = handout_game()
    prompt = g.prompt_for("targaryen")
    assert prompt is not None and prompt.kind == "bid-handout"
    form = build_form(prompt, g.view("targaryen"), lang)
    assert len(form.fields) == 7 and all(len(f.options) == 4 for f in form.fields)  # 0 to 3 tokens
    stark = next(f for f in form.fields if f.key == "give:stark")
    assert ("Stark" if lang == "en" else "Старк") in stark.label and "2" in stark.label
    text = " ".join([form.title, form.ask, *form.lines, *(f.label for f in form.fields)])
    assert "targaryen" not in text and "iron_throne" not in text  # no id reaches a player
    picks = {f.key: ["0"] for f in form.fields}
    picks["give:stark"] = ["1"]
    lines = live_lines(form, prompt, picks, lang)
    assert any(("Stark" if lang == "en" else "Старк") + " 3 (+1)" in line for line in lines)
    assert any(("2 tokens still" if lang == "en" else "Осталось раздать 2 жетона") in line for line in lines)
    with pytest.raises(FormError):
        to_answer(prompt, picks)
    picks["give:lannister"] = ["2"]
    answer = to_answer(prompt, picks)
    assert answer == {"lannister": 2, "stark": 1}  # in turn order
    words = answer_text(prompt.kind, answer, lang, prompt=prompt)
    assert words == ("Lannister +2, Stark +1" if lang == "en" else "Ланнистер +2, Старк +1")
    events = g.act("targaryen", answer)
    assert next(e for e in events if e["type"] == "bid-handout")["bids"]["stark"] == 3


def test_the_preselected_handout_is_the_engines_default_and_is_accepted() -> None:
    g = handout_game()
    prompt = g.prompt_for("targaryen")
    assert prompt is not None
    form = build_form(prompt, g.view("targaryen"), "en")
    picks = {f.key: list(f.selected) for f in form.fields}
    assert to_answer(prompt, picks) == prompt.default
    g.act("targaryen", to_answer(prompt, picks))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_flying_dragon_reaches_every_land_through_menus_of_at_most_25_areas(lang: str) -> None:
    """M-TARG-14 on a phone: a dragon may fly to any of 45 lands, more than a Discord menu holds, so its destinations
    are split in alphabetical order over two menus; picking in both is refused, picking in one marches there."""
    g = Game.from_scenario(
        {
            "players": 8,
            "options": MOD,
            "round": 10,
            "garrisons": {},
            "neutral": {},
            "units": {"the-rhoyne": "targaryen dragon footman"},
            "orders": {"the-rhoyne": "march0"},
            "start": "march",
        }
    )
    prompt = g.prompt_for("targaryen")
    assert prompt is not None
    form = build_form(prompt, g.view("targaryen"), lang)
    dragon = [f for f in form.fields if f.key.startswith("unit:dragon:0")]
    assert len(dragon) == 2 and all(len(f.options) <= 25 for f in form.fields)
    offered = {o.value for f in dragon for o in f.options} - {"stay"}
    assert offered == set(prompt.choices["the-rhoyne"]["destinations"]["dragon"]) and len(offered) == 45
    assert "targaryen" not in " ".join(f.label for f in form.fields)
    picks = {f.key: list(f.selected) for f in form.fields}
    far = next(o.value for o in dragon[1].options if o.value != "stay")
    picks[dragon[1].key] = [far]
    assert to_answer(prompt, picks)["moves"] == [{"to": far, "units": ["dragon"]}]
    picks[dragon[0].key] = [next(o.value for o in dragon[0].options if o.value != "stay")]
    with pytest.raises(FormError):
        to_answer(prompt, picks)
    picks[dragon[0].key] = ["stay"]
    g.act("targaryen", to_answer(prompt, picks))
    assert [u.type for u in g.s.units[far]] == ["dragon"]
