"""The Iron Bank's decisions as forms (issue Z): the Iron Bank order's loan, the units lost for unpaid interest and
the loans' effects, each reached in a real game, shown in English and in Russian with what is at stake (the card,
its text, the payment, the Power, the interest), and answered through the form's picks; the bank's events narrated
in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from app.decisions import Form, FormError, answer_text, build_form, live_lines, only_answer, to_answer
from app.labels import (
    area_label,
    development_label,
    house_name,
    loan_name,
    loan_text,
    mentions,
    westeros_name,
    westeros_text,
)
from app.messages import error_text
from app.narration import narrate
from engine import Game, Prompt, data
from i18n import t, tn
from tests.app.test_forms_explain import LATIN, raw_ids

MOD = {"ruleset": "mother-of-dragons"}
LANGS = ["en", "ru"]
STARK = {"bay-of-ice": "stark ship", "winterfell": "stark footman knight"}

Position = tuple[Game, Prompt]


# ----- positions -----


def loan_position(slots: list[str | None], power: int = 10, **spec: Any) -> Position:
    """Round 3's Consolidate Power step: Stark's Iron Bank order in the Bay of Ice, ``slots`` in the bank."""
    bank = {"slots": slots, **spec.pop("bank", {})}
    g = Game.from_scenario(
        {
            "players": 8,
            "options": MOD,
            "round": spec.pop("round", 3),
            "units": {**STARK, **spec.pop("units", {})},
            "orders": {"bay-of-ice": "sea-iron-bank"},
            "power": {"stark": power},
            "bank": bank,
            "start": "consolidate",
            **spec,
        }
    )
    return g, prompt_of(g, "stark", "loan")


def prompt_of(g: Game, house: str, kind: str) -> Prompt:
    p = g.prompt_for(house)
    assert p is not None and p.kind == kind, p
    return p


def effect_position(loan: str, kind: str, **spec: Any) -> Position:
    """Stark takes ``loan`` (alone in the bank's left slot): the first question of its effect."""
    g, _ = loan_position([loan, None, None], **spec)
    g.act("stark", loan)
    return g, prompt_of(g, "stark", kind)


def interest_position(debtor: str = "stark", loans: int = 2, **spec: Any) -> Position:
    """Round 3's Westeros phase: ``debtor`` holds ``loans`` loans and has no Power; the chooser is asked for its
    units (Greyjoy holds the Valyrian Steel Blade in the eight-player setup)."""
    g = Game.from_scenario(
        {
            "players": 8,
            "options": MOD,
            "round": 3,
            "power": {debtor: 0},
            "bank": {"loans": {debtor: ["customs-officer", "spymaster", "pyromancer"][:loans]}},
            "start": "westeros",
            **spec,
        }
    )
    p = next(p for p in g.prompts() if not p.answered)
    assert p.kind == "interest-units" and p.choices["debtor"] == debtor
    return g, p


def positions() -> dict[str, Position]:
    """One position per Iron Bank prompt kind (tests/app/test_forms_explain.py checks them with every other kind)."""
    spy = effect_position("spymaster", "loan-spy-deck")
    arrange = Game.from_json(spy[0].to_json())
    arrange.act("stark", 2)
    return {
        "loan": loan_position(["customs-officer", "spymaster", "pyromancer"], power=5),
        "interest-units": interest_position(),
        "loan-faceless": effect_position("the-faceless-men", "loan-faceless"),
        "loan-areas": effect_position("loyal-maester", "loan-areas"),
        "loan-pyromancer": effect_position("pyromancer", "loan-pyromancer"),
        "loan-spy-deck": spy,
        "loan-spy-arrange": (arrange, prompt_of(arrange, "stark", "loan-spy-arrange")),
        "loan-units": effect_position("full-host", "loan-units"),
    }


# ----- helpers -----


def form_of(p: Prompt, g: Game, lang: str) -> Form:
    form = build_form(p, g.view(p.house), lang)
    assert form.ask and form.ask != form.title
    for text in shown(form):
        assert not raw_ids(text), text
        assert not any(loan in text for loan in data.loan_cards()), text
        if lang == "ru":
            assert not LATIN.findall(text), text
    return form


def shown(form: Form) -> list[str]:
    out = [form.title, form.ask, *form.lines]
    for f in form.fields:
        out.append(f.label)
        out += [o.label for o in f.options] + [o.description or "" for o in f.options]
    return out


def text_of(form: Form) -> str:
    return "\n".join([form.ask, *form.lines])


def preselected(form: Form) -> dict[str, list[str]]:
    return {f.key: list(f.selected) for f in form.fields}


def lines_of(events: list[dict[str, Any]], lang: str) -> list[str]:
    out = []
    for e in events:
        line = narrate(e, lang)
        if line:
            assert not raw_ids(line), line
            if lang == "ru":
                assert not LATIN.findall(line), line
            out.append(line)
    return out


def event_of(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)


# ----- the Iron Bank order -----


@pytest.mark.parametrize("lang", LANGS)
def test_the_loan_form_shows_every_card_its_payment_the_power_and_the_interest(lang: str) -> None:
    """Every card in the bank with its slot, text and payment (the one Stark cannot pay for said so), Stark's Power,
    the loan it holds and the interest with one more; the options are the cards it can pay for and "no loan"."""
    g, p = loan_position(
        ["customs-officer", "spymaster", "pyromancer"], power=5, bank={"loans": {"stark": ["loyal-maester"]}}
    )
    form = form_of(p, g, lang)
    text = text_of(form)
    for loan in ("customs-officer", "spymaster", "pyromancer"):
        assert loan_name(loan, lang) in text and loan_text(loan, lang) in text
    for slot, payment in enumerate((1, 4, 7)):
        assert t(f"bank.slot.{slot}", lang) in text and tn("count.power", payment, lang) in text
    assert t("decision.loan.unaffordable", lang, payment=tn("count.power", 7, lang)) in text
    assert t("decision.loan.power", lang, power=tn("count.power", 5, lang)) in text
    assert loan_name("loyal-maester", lang) in text  # the loan Stark holds
    assert tn("decision.loan.interest", 2, lang, interest=tn("count.power", 2, lang)) in text
    assert mentions(form.ask, area_label("bay-of-ice", lang))
    [field] = form.fields
    assert [o.value for o in field.options] == ["customs-officer", "spymaster", "none"]
    assert field.selected == ["none"]
    spy = field.options[1]
    assert loan_name("spymaster", lang) in spy.label and tn("count.power", 4, lang) in spy.label
    assert spy.description and tn("count.power", 1, lang) in spy.description  # the Power left: 5 - 4
    assert to_answer(p, preselected(form)) is None
    answer = to_answer(p, {"choice": ["spymaster"]})
    assert answer == "spymaster"
    assert answer_text(p.kind, answer, lang, prompt=p) == loan_name("spymaster", lang)
    events = g.act("stark", answer)
    assert event_of(events, "loan-taken")["payment"] == 4
    taken = lines_of(events, lang)[0]
    assert house_name("stark", lang) in taken and loan_name("spymaster", lang) in taken
    assert tn("count.power", 4, lang).split()[0] in taken


@pytest.mark.parametrize("lang", LANGS)
def test_the_holder_of_braavos_sees_the_discount_and_declining_removes_the_order(lang: str) -> None:
    g, p = loan_position(
        ["customs-officer", "spymaster", "pyromancer"], power=5, units={"braavos": "stark footman"}, neutral={}
    )
    assert p.info["braavos"]
    form = form_of(p, g, lang)
    text = text_of(form)
    assert t("decision.loan.braavos", lang, discount=tn("count.power", 1, lang)) in text
    discounted = t("decision.loan.discounted", lang, payment=tn("count.power", 3, lang), base=4, discount=1)
    assert discounted in text and t("decision.loan.none_held", lang) in text
    assert answer_text(p.kind, None, lang, prompt=p) == t("decision.loan.declined", lang)
    events = g.act("stark", to_answer(p, preselected(form)))
    line = next(line for e, line in zip(events, lines_of(events, lang), strict=False) if e["type"] == "loan-declined")
    assert mentions(line, area_label("bay-of-ice", lang))


# ----- unpaid interest -----


@pytest.mark.parametrize("lang", LANGS)
def test_the_interest_form_says_whose_units_how_many_and_why(lang: str) -> None:
    g, p = interest_position()
    assert p.house == "greyjoy"  # the Blade's holder chooses
    form = form_of(p, g, lang)
    text = text_of(form)
    assert form.ask == tn("ask.interest-units", 2, lang, debtor=house_name("stark", lang))
    why = tn("decision.interest-units.why", 2, lang, debtor=house_name("stark", lang), due=tn("count.power", 2, lang))
    assert why in text
    assert t("decision.interest-units.blade", lang) in text
    areas = {f.key.split(":", 1)[1] for f in form.fields}
    assert areas == set(p.choices["units"])
    picks = preselected(form)
    assert live_lines(form, p, picks, lang) == [t("decision.interest-units.chosen", lang, chosen=2, count=2)]
    answer = to_answer(p, picks)
    assert answer == p.default
    with pytest.raises(FormError) as err:
        to_answer(p, {**picks, "destroy:white-harbor": ["white-harbor|footman|0"]})
    assert err.value.code == "interest-count"
    assert error_text(err.value, lang) == tn("error.interest-count", 2, lang)
    events = g.act("greyjoy", answer)
    lines = lines_of(events, lang)
    blade = tn("event.interest-units", 2, lang, debtor=house_name("stark", lang), chooser=house_name("greyjoy", lang))
    assert blade in lines
    losses = [line for e, line in zip(events, lines, strict=True) if e["type"] == "units-destroyed"]
    assert len(losses) == 2 and all(t("reason.interest", lang) in line for line in losses)


@pytest.mark.parametrize("lang", LANGS)
def test_a_debtor_holding_the_blade_has_its_units_chosen_by_the_next_on_the_fiefdoms_track(lang: str) -> None:
    g, p = interest_position("greyjoy")
    assert p.house == "tyrell"
    form = form_of(p, g, lang)
    assert t("decision.interest-units.next", lang, debtor=house_name("greyjoy", lang)) in text_of(form)
    g.act("tyrell", to_answer(p, preselected(form)))


def test_a_debtor_who_loses_every_unit_leaves_nothing_to_choose() -> None:
    """Three Power unpaid and two units left: both go, nobody is asked to choose."""
    g, p = interest_position(loans=3, units={"winterfell": "stark footman knight", "pyke": "greyjoy footman"})
    assert p.choices["count"] == 2
    only = only_answer(p)
    assert only == ({"winterfell": ["footman", "knight"]},)
    g.act(p.house, only[0])
    assert "winterfell" not in g.s.units
    assert only_answer(interest_position()[1]) is None


# ----- the loans' effects -----


@pytest.mark.parametrize("lang", LANGS)
def test_the_faceless_men_form_names_each_area_with_whose_units_stand_there(lang: str) -> None:
    g, p = effect_position("the-faceless-men", "loan-faceless", units={"the-eyrie": "arryn footman"})
    form = form_of(p, g, lang)
    text = text_of(form)
    assert loan_name("the-faceless-men", lang) in form.ask and loan_text("the-faceless-men", lang) in text
    knights = [o for f in form.fields if f.key.startswith("knight:") for o in f.options]
    assert {o.value for o in knights} == set(p.choices["knight"])
    winterfell = next(o for o in knights if o.value == "winterfell")
    assert winterfell.description and house_name("stark", lang) in winterfell.description
    answer = to_answer(p, preselected(form))
    assert answer == p.default and answer["knight"] != answer["footman"]
    with pytest.raises(FormError) as err:
        to_answer(p, {"knight:0": ["winterfell"], "footman:0": ["winterfell"]})
    assert err.value.code == "faceless-same-area"
    words = answer_text(p.kind, answer, lang, prompt=p)
    assert area_label(str(answer["knight"]), lang) in words
    events = g.act("stark", answer)
    lines = lines_of(events, lang)
    assert any(
        loan_name("the-faceless-men", lang) in line and area_label(answer["knight"], lang) in line for line in lines
    )
    assert any(t("reason.faceless-men", lang) in line for line in lines)


@pytest.mark.parametrize("lang", LANGS)
def test_loyal_maester_offers_every_land_in_menus_of_25_and_takes_exactly_two(lang: str) -> None:
    g, p = effect_position("loyal-maester", "loan-areas")
    form = form_of(p, g, lang)
    text = text_of(form)
    barrel = development_label("barrel", lang)
    assert loan_name("loyal-maester", lang) in form.ask and barrel in form.ask
    assert loan_text("loyal-maester", lang) in text and t("development.barrel.what", lang) in text
    assert len(form.fields) >= 2 and all(len(f.options) <= 25 for f in form.fields)
    offered = [o.value for f in form.fields for o in f.options]
    assert sorted(offered) == sorted(p.choices["areas"])
    first, second = form.fields[0].options[0].value, form.fields[1].options[0].value
    picks = {form.fields[0].key: [first], form.fields[1].key: [second]}
    assert to_answer(p, picks) == [first, second]
    with pytest.raises(FormError) as err:
        to_answer(p, {form.fields[0].key: [first]})
    assert err.value.code == "loan-areas-count"
    assert error_text(err.value, lang) == tn("error.loan-areas-count", 2, lang)
    events = g.act("stark", to_answer(p, picks))
    lines = lines_of(events, lang)
    assert any(area_label(first, lang) in line and barrel in line for line in lines)


@pytest.mark.parametrize("lang", LANGS)
def test_master_at_arms_and_the_steward_say_what_the_card_does_after_its_tokens(lang: str) -> None:
    g, p = effect_position("master-at-arms", "loan-areas")
    form = form_of(p, g, lang)
    [field] = form.fields  # the castles fit one menu: exactly two are picked there
    assert field.min_values == field.max_values == 2
    g.act("stark", to_answer(p, preselected(form)))
    g, p = effect_position("savvy-steward", "loan-areas")
    form = form_of(p, g, lang)
    assert tn("decision.loan-areas.supply", 1, lang, supply=1) in text_of(form)
    events = g.act("stark", to_answer(p, preselected(form)))
    assert any(loan_name("savvy-steward", lang) in line for line in lines_of(events, lang)[1:])
    g, p = effect_position("expert-artificer", "loan-areas")
    form = form_of(p, g, lang)
    assert tn("count.power", 8, lang) in text_of(form)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pyromancer_form_takes_a_castle_and_a_token(lang: str) -> None:
    g, p = effect_position("pyromancer", "loan-pyromancer")
    form = form_of(p, g, lang)
    text = text_of(form)
    assert loan_name("pyromancer", lang) in form.ask and loan_text("pyromancer", lang) in text
    token = next(f for f in form.fields if f.key == "token")
    assert [o.label for o in token.options] == [development_label("crown", lang), development_label("barrel", lang)]
    area = p.choices["areas"][-1]
    picks = {**preselected(form), "areas:0": [area], "token": ["barrel"]}
    answer = to_answer(p, picks)
    assert answer == {"area": area, "token": "barrel"}
    assert answer_text(p.kind, answer, lang, prompt=p) == t(
        "decision.loan-pyromancer.words", lang, area=area_label(area, lang), token=development_label("barrel", lang)
    )
    events = g.act("stark", answer)
    assert g.s.bank["declined"] == {area: ["castle"]} and g.s.bank["developed"] == {area: {"barrel": 1}}
    lines = lines_of(events, lang)
    assert t("event.area-declined.castle", lang, house=house_name("stark", lang), area=area_label(area, lang)) in lines
    developed = t(
        "event.area-developed",
        lang,
        house=house_name("stark", lang),
        area=area_label(area, lang),
        token=development_label("barrel", lang),
    )
    assert developed in lines


@pytest.mark.parametrize("lang", LANGS)
def test_the_spymaster_picks_a_deck_then_puts_its_top_cards_back_as_the_form_says(lang: str) -> None:
    g, p = effect_position("spymaster", "loan-spy-deck", round=10)  # the last round: no Westeros card drawn after it
    form = form_of(p, g, lang)
    assert loan_name("spymaster", lang) in form.ask and loan_text("spymaster", lang) in text_of(form)
    [field] = form.fields
    assert [o.label for o in field.options] == [t("decision.loan-spy.deck", lang, deck=d) for d in (1, 2, 3, 4)]
    assert field.options[0].description == tn("decision.loan-spy.size", 10, lang)
    assert to_answer(p, {"choice": ["3"]}) == 3
    g.act("stark", 3)
    p = prompt_of(g, "stark", "loan-spy-arrange")
    top, second = p.choices["cards"]
    form = form_of(p, g, lang)
    text = text_of(form)
    for card in (top, second):
        assert westeros_name(card, lang) in text and westeros_text(card, lang) in text
    [field] = form.fields
    assert len(field.options) == 6 and to_answer(p, preselected(form)) == p.default  # as they were
    swap = next(o for o in field.options if o.value == "1/0")
    assert swap.label == t(
        "choice.loan-spy-arrange", lang, top=westeros_name(second, lang), bottom=westeros_name(top, lang)
    )
    answer = to_answer(p, {"choice": ["1/0"]})
    assert answer == {"top": [second], "bottom": [top]}
    assert answer_text(p.kind, answer, lang, prompt=p) == swap.label
    events = g.act("stark", answer)
    deck = g.s.westeros_decks[2]
    assert deck[0] == second and deck[-1] == top
    spy = event_of(events, "loan-spymaster")
    assert (spy["top"], spy["bottom"]) == (1, 1)
    line = narrate(spy, lang)
    assert line and westeros_name(top, lang) not in line  # the cards stay secret


@pytest.mark.parametrize("lang", LANGS)
def test_full_host_places_each_unit_where_its_menu_says(lang: str) -> None:
    g, p = effect_position("full-host", "loan-units")
    form = form_of(p, g, lang)
    text = text_of(form)
    assert loan_name("full-host", lang) in form.ask and loan_text("full-host", lang) in text
    keys = [f.key for f in form.fields]
    assert keys == [f"unit:{u}:0:0" for u in p.choices["units"] if p.choices["areas"][u]]
    assert to_answer(p, preselected(form)) == p.default
    picks = {key: ["none"] for key in keys}
    picks["unit:ship:0:0"] = ["bay-of-ice"]
    answer = to_answer(p, picks)
    assert answer == {"bay-of-ice": ["ship"]}
    assert answer_text(p.kind, {}, lang, prompt=p) == t("decision.loan-units.none", lang)
    events = g.act("stark", answer)
    assert [u.type for u in g.s.units["bay-of-ice"]] == ["ship", "ship"]
    placed = narrate(event_of(events, "loan-units-placed"), lang)
    assert placed and area_label("bay-of-ice", lang) in placed and loan_name("full-host", lang) in placed


# ----- narration -----

STARK_LINE = {"house": "stark"}

EVENTS: list[dict[str, Any]] = [
    {
        "type": "bank-shifted",
        "returned": "spymaster",
        "revealed": "full-host",
        "slots": ["pyromancer", None, "full-host"],
    },
    {"type": "bank-shifted", "returned": None, "revealed": None, "slots": [None, "pyromancer", None]},
    {"type": "interest-paid", "house": "stark", "loans": 2, "due": 2, "paid": 2, "unpaid": 0},
    {"type": "interest-paid", "house": "stark", "loans": 3, "due": 3, "paid": 1, "unpaid": 2},
    {"type": "interest-paid", "house": "stark", "loans": 1, "due": 1, "paid": 0, "unpaid": 1},
    {"type": "interest-units", "debtor": "stark", "chooser": "lannister", "count": 2},
    {"type": "interest-units", "debtor": "stark", "chooser": "lannister", "count": 1, "blade": False},
    {"type": "units-destroyed", "house": "stark", "area": "winterfell", "units": ["knight"], "reason": "interest"},
    {"type": "braavos-token", "house": "stark", "previous": None},
    {"type": "braavos-token", "house": "stark", "previous": "targaryen"},
    {"type": "braavos-token", "house": None, "previous": "stark"},
    {"type": "loan-taken", "house": "stark", "loan": "spymaster", "slot": 1, "payment": 3},
    {"type": "loan-declined", "house": "stark", "area": "bay-of-ice"},
    {"type": "loan-unaffordable", "house": "stark", "area": "bay-of-ice", "power": 0},
    {"type": "loan-power", "house": "stark", "loan": "customs-officer", "gained": 10},
    {"type": "area-developed", "house": "stark", "area": "winterfell", "token": "crown"},
    {"type": "area-declined", "house": "stark", "area": "harrenhal", "symbol": "castle"},
    {"type": "loan-faceless", "house": "stark", "loan": "the-faceless-men", "knight": "riverrun", "footman": "pyke"},
    {"type": "loan-faceless", "house": "stark", "loan": "the-faceless-men", "knight": None, "footman": "pyke"},
    {"type": "loan-nothing", "house": "stark", "loan": "pyromancer"},
    {"type": "loans-returned", "house": "baratheon", "loans": ["spymaster", "full-host"]},
    {"type": "loan-supply", "house": "stark", "loan": "savvy-steward", "old": 2, "supply": 3},
    {"type": "loan-supply", "house": "stark", "loan": "savvy-steward", "old": 6, "supply": 6},
    {"type": "loan-spymaster", "house": "stark", "loan": "spymaster", "deck": 2, "top": 2, "bottom": 0},
    {"type": "loan-units-placed", "house": "stark", "loan": "vanguard-cavalry", "placed": {"winterfell": ["knight"]}},
    {"type": "loan-units-placed", "house": "stark", "loan": "vanguard-cavalry", "placed": {}},
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("event", EVENTS, ids=lambda e: str(e["type"]))
def test_every_bank_event_is_narrated_in_words(event: dict[str, Any], lang: str) -> None:
    [line] = lines_of([event], lang)
    for key in ("house", "debtor", "chooser", "previous"):
        if event.get(key):
            assert house_name(event[key], lang) in line
    for key in ("loan", "returned", "revealed"):
        if event.get(key):
            assert loan_name(event[key], lang) in line
    for key in ("area", "knight", "footman"):
        if event.get(key):
            assert mentions(line, area_label(event[key], lang))
    for loan in event["loans"] if event["type"] == "loans-returned" else []:
        assert loan_name(loan, lang) in line


@pytest.mark.parametrize("lang", LANGS)
def test_the_issue_example_unpaid_interest_and_the_blade(lang: str) -> None:
    line = narrate({"type": "interest-units", "debtor": "stark", "chooser": "lannister", "count": 2}, lang)
    if lang == "en":
        assert (
            line
            == "Stark cannot pay its interest: Lannister, holding the Valyrian Steel Blade, destroys 2 of its units."
        )
    else:
        assert line == (
            "Старк не может заплатить проценты: Ланнистер, владелец Валирийского меча, уничтожает у него 2 отряда."
        )
    shifted = narrate(EVENTS[0], lang)
    assert shifted and t("event.bank.empty", lang, payment=4) in shifted
    paid = narrate(EVENTS[3], lang)
    assert paid and tn("count.power", 2, lang) in paid and tn("count.loans", 3, lang) in paid
