"""The Iron Bank of Braavos (Mother of Dragons with Targaryen; issue Z): the Iron Bank order's loan (``loan``), the
units lost for unpaid interest (``interest-units``), and the decisions of the loans' effects (``loan-faceless``,
``loan-areas``, ``loan-pyromancer``, ``loan-spy-deck``, ``loan-spy-arrange``, ``loan-units``;
``engine/steps/iron_bank.py``, ``engine/steps/loans.py``).

Each form says what it is for above its menus and what each choice does before it is taken: the loan's form shows
every card in the bank with its text and its initial payment (with Braavos's discount), the house's Power, the loans
it holds and the interest it will owe every Westeros phase; the interest's form whose units, how many and why; each
loan effect's form the card's name and text.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from app.forms import (
    MAX_OPTIONS,
    NONE,
    Choice,
    Field,
    Form,
    FormError,
    choices_of,
    destroy_text,
    fields_words,
    generic_words,
    in_menus,
    one_pick,
    one_select,
    prompt_title,
    read_destroy,
    unit_fields,
    value_words,
)
from app.kinds.registry import DeadlineCategory, KindSpec, register
from app.labels import (
    area_label,
    development_label,
    house_name,
    loan_line,
    loan_name,
    loan_text,
    unit_label,
    units_text,
    westeros_name,
    westeros_text,
)
from engine import Prompt, data
from engine.prompts import PromptKind
from i18n import t, tn


def _per_loan() -> int:
    return int(data.iron_bank()["interest_per_loan"])


def _power(n: int, lang: str) -> str:
    return tn("count.power", n, lang)


def _range_label(key: str, chunk: list[Choice], chunks: int, lang: str, **params: Any) -> str:
    """A menu's label; when its options are split over several menus, the range of this one."""
    if chunks > 1:
        return t("decision.bank.range", lang, label=t(key, lang, **params), first=chunk[0].label, last=chunk[-1].label)
    return t(key, lang, **params)


def _picked(picks: dict[str, list[str]], prefix: str) -> list[str]:
    """The values picked in every menu whose key starts with ``prefix`` (a list split over several menus)."""
    return [v for key in sorted(picks) if key.startswith(prefix) for v in picks[key] if v != NONE]


def _loan_of(prompt: Prompt | None) -> str:
    return str((prompt.info or {}).get("loan", "")) if prompt is not None else ""


# ----- the Iron Bank order: which loan (M-BANK-01, -02) -----


def _slot_name(slot: int, lang: str) -> str:
    return t(f"bank.slot.{slot}", lang)


def _payment_text(offer: dict[str, Any], braavos: bool, lang: str) -> str:
    """``4 Power``, or with Braavos's token ``3 Power (4 − 1 for Braavos)``."""
    paid = int(offer["payment"])
    if not braavos:
        return _power(paid, lang)
    conf = data.iron_bank()
    base = int(conf["slot_payments"][int(offer["slot"])])
    return t("decision.loan.discounted", lang, payment=_power(paid, lang), base=base, discount=conf["braavos_discount"])


def _loan(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """What the order does, the house's Power, the loans it holds and their interest; every card in the bank, left to
    right, with its slot, its payment and its text (those it cannot pay for marked); what one more loan costs in
    interest. One select: a loan it can pay for (its payment, the Power left, the interest) or no loan."""
    info = prompt.info
    power = int(info.get("power", 0))
    braavos = bool(info.get("braavos"))
    bank = view.get("bank") or {}
    held: list[str] = list((bank.get("loans") or {}).get(prompt.house) or [])
    loans = info.get("loans", held)  # how many loans the house holds (or which: the view names them either way)
    if isinstance(loans, list):
        held = [str(loan) for loan in loans]
    count = len(loans) if isinstance(loans, list) else int(loans)
    per_loan = _per_loan()
    lines = [
        t("decision.loan.help", lang, area=area_label(str(info.get("area", "")), lang)),
        t("decision.loan.power", lang, power=_power(power, lang)),
    ]
    if count:
        names = ", ".join(loan_name(loan, lang) for loan in held) or "—"
        lines.append(tn("decision.loan.held", count, lang, loans=names, interest=_power(count * per_loan, lang)))
    else:
        lines.append(t("decision.loan.none_held", lang))
    if braavos:
        lines.append(t("decision.loan.braavos", lang, discount=_power(int(data.iron_bank()["braavos_discount"]), lang)))
    offers: dict[str, dict[str, Any]] = {}
    for offer in info.get("offers") or []:
        loan = str(offer["loan"])
        offers[loan] = offer
        cost = _payment_text(offer, braavos, lang)
        if int(offer["payment"]) > power:
            cost = t("decision.loan.unaffordable", lang, payment=cost)
        lines.append(
            t(
                "decision.loan.offer",
                lang,
                slot=_slot_name(int(offer["slot"]), lang),
                loan=loan_name(loan, lang),
                payment=cost,
                text=loan_text(loan, lang),
            )
        )
    after = count + 1
    lines.append(tn("decision.loan.interest", after, lang, interest=_power(after * per_loan, lang)))

    def label(value: Any) -> str:
        if value is None:
            return t("choice.loan.none", lang)
        offer = offers.get(str(value))
        cost = _payment_text(offer, braavos, lang) if offer else "?"
        return t("choice.loan", lang, loan=loan_name(str(value), lang), payment=cost)

    def describe(value: Any) -> str | None:
        offer = offers.get(str(value)) if value is not None else None
        if offer is None:
            return t("choice.loan.none.what", lang)
        left = _power(max(0, power - int(offer["payment"])), lang)
        return t("choice.loan.what", lang, left=left, interest=_power(after * per_loan, lang))

    options = choices_of(prompt, label, describe)
    ask = t("ask.loan", lang, area=area_label(str(info.get("area", "")), lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _is_loan(answer: Any) -> bool:
    return isinstance(answer, str) and answer in data.loan_cards()


register(
    KindSpec(
        kind=PromptKind.LOAN,
        form=_loan,
        words=value_words(loan_name, shaped=_is_loan, declined="decision.loan.declined"),
        category=DeadlineCategory.OTHER,
    )
)


# ----- unpaid interest: the debtor's units (M-BANK-04, -05) -----


def _interest_units(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """Whose units, how many and why (the loans, the interest owed, who chooses and why him); then one menu per area
    of the debtor's units, the engine's default preselected."""
    c = prompt.choices
    debtor, count = str(c["debtor"]), int(c["count"])
    loans = int(prompt.info.get("loans", 0))
    debtor_name = house_name(debtor, lang)
    # The engine says whether the chooser holds the Blade (else the debtor does, and the next player chooses).
    who = (
        t("decision.interest-units.blade", lang)
        if prompt.info.get("blade", True)
        else t("decision.interest-units.next", lang, debtor=debtor_name)
    )
    lines = [
        tn("decision.interest-units.why", loans, lang, debtor=debtor_name, due=_power(loans * _per_loan(), lang)),
        tn("decision.interest-units.count", count, lang, debtor=debtor_name),
        who,
    ]
    ask = tn("ask.interest-units", count, lang, debtor=debtor_name)
    fields = unit_fields("destroy", c["units"], prompt.default or {}, lang)
    return Form(prompt.id, prompt.kind, prompt_title(prompt.kind, lang), lines, fields, ask)


def _read_interest_units(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, list[str]]:
    chosen = read_destroy(prompt, picks)["destroy"]
    count = int(prompt.choices["count"])
    if sum(len(types) for types in chosen.values()) != count:
        raise FormError("interest-count", count=count)
    return chosen


def _interest_live(prompt: Prompt, picks: dict[str, list[str]], lang: str) -> list[str]:
    chosen = sum(len(v) for key, v in picks.items() if key.startswith("destroy:"))
    return [t("decision.interest-units.chosen", lang, chosen=chosen, count=prompt.choices["count"])]


def _interest_only(prompt: Prompt) -> tuple[Any] | None:
    """Every unit the debtor has is lost: nothing to choose."""
    units: dict[str, list[str]] = prompt.choices["units"]
    if sum(len(types) for types in units.values()) == int(prompt.choices["count"]):
        return ({area: list(types) for area, types in units.items()},)
    return None


register(
    KindSpec(
        kind=PromptKind.INTEREST_UNITS,
        form=_interest_units,
        read=_read_interest_units,
        words=value_words(destroy_text, shaped=lambda answer: isinstance(answer, dict)),
        category=DeadlineCategory.OTHER,
        live_lines=_interest_live,
        only_answer=_interest_only,
    )
)


# ----- The Faceless Men (M-LOAN-01) -----

KNIGHT, FOOTMAN = "knight", "footman"


def _faceless_choice(area: str, units: dict[str, Any], lang: str) -> Choice:
    here = units.get(area) or {}
    types = [KNIGHT] * int(here.get(KNIGHT, 0)) + [FOOTMAN] * int(here.get(FOOTMAN, 0))
    owner = house_name(str(here["house"]), lang) if here.get("house") else "—"
    return Choice(area, area_label(area, lang), f"{owner}: {units_text(types, lang)}")


def _faceless(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card; then, for the knight and for the footman, the areas holding one (whose, and what stands there), in
    menus of at most 25."""
    loan = _loan_of(prompt)
    units: dict[str, Any] = prompt.info.get("units") or {}
    default = prompt.default if isinstance(prompt.default, dict) else {}
    fields = []
    for unit_type in (KNIGHT, FOOTMAN):
        choices = [_faceless_choice(a, units, lang) for a in prompt.choices.get(unit_type) or []]
        chunks = in_menus(choices)
        for i, chunk in enumerate(chunks):
            if not chunk:
                continue
            label = _range_label(
                "decision.loan-faceless.field", chunk, len(chunks), lang, unit=unit_label(unit_type, lang)
            )
            chosen = [ch.value for ch in chunk if ch.value == default.get(unit_type)]
            low = 1 if len(chunks) == 1 and unit_type == KNIGHT else 0
            fields.append(Field(f"{unit_type}:{i}", label, chunk, low, 1, chosen))
    lines = [loan_line(loan, lang), t("decision.loan-faceless.help", lang)]
    if not prompt.choices.get(KNIGHT):
        lines.append(t("decision.loan-faceless.no_knight", lang))
    if not prompt.choices.get(FOOTMAN):
        lines.append(t("decision.loan-faceless.no_footman", lang))
    ask = t("ask.loan-faceless", lang, loan=loan_name(loan, lang))
    return Form(prompt.id, prompt.kind, prompt_title(prompt.kind, lang), lines, fields, ask)


def _read_faceless(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for unit_type in (KNIGHT, FOOTMAN):
        chosen = _picked(picks, f"{unit_type}:")
        if len(chosen) > 1:
            raise FormError("loan-one-area")
        out[unit_type] = chosen[0] if chosen else None
    if out[KNIGHT] is not None and out[KNIGHT] == out[FOOTMAN]:
        raise FormError("faceless-same-area")
    return out


def _faceless_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict) and set(answer) == {KNIGHT, FOOTMAN}:
        parts = [
            t("decision.loan-faceless.words", lang, unit=unit_label(u, lang), area=area_label(str(answer[u]), lang))
            for u in (KNIGHT, FOOTMAN)
            if answer[u]
        ]
        return "; ".join(parts) or t("receipt.nothing", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.LOAN_FACELESS,
        form=_faceless,
        read=_read_faceless,
        words=_faceless_words,
        category=DeadlineCategory.OTHER,
    )
)


# ----- development tokens (M-LOAN-03..06, -10) -----

AREAS = "areas:"


def _developed_here(area: str, view: dict[str, Any], lang: str) -> str | None:
    """The development tokens already in an area (``barrel ×2``), or None."""
    tokens: dict[str, int] = ((view.get("bank") or {}).get("developed") or {}).get(area) or {}
    if not tokens:
        return None
    listed = ", ".join(development_label(tok, lang) + (f" ×{n}" if n > 1 else "") for tok, n in sorted(tokens.items()))
    return t("decision.loan-areas.here", lang, tokens=listed)


def _loan_areas(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card; what its token does; how many areas (every one offered when there are fewer); what the card does
    afterwards (Supply, Power); then the areas, in menus of at most 25 (alphabetical when more)."""
    c = prompt.choices
    loan = _loan_of(prompt)
    token = str(c["token"])
    areas: list[str] = list(c["areas"])
    count = min(int(c["count"]), len(areas))
    choices = [Choice(a, area_label(a, lang), _developed_here(a, view, lang)) for a in areas]
    chunks = in_menus(choices)
    fields = []
    default = set(prompt.default or [])
    for i, chunk in enumerate(chunks):
        label = _range_label(
            "decision.loan-areas.field", chunk, len(chunks), lang, token=development_label(token, lang)
        )
        low = count if len(chunks) == 1 else 0
        chosen = [ch.value for ch in chunk if ch.value in default]
        fields.append(Field(f"{AREAS}{i}", label, chunk, min(low, len(chunk)), min(count, len(chunk)), chosen))
    lines = [
        loan_line(loan, lang),
        t(f"development.{token}.what", lang),
        tn("decision.loan-areas.count", count, lang, token=development_label(token, lang)),
    ]
    if count < int(c["count"]):
        lines.append(tn("decision.loan-areas.fewer", count, lang))
    supply, power = int(prompt.info.get("supply", 0)), int(prompt.info.get("power", 0))
    if supply:
        current = (view.get("supply") or {}).get(prompt.house, "?")
        lines.append(tn("decision.loan-areas.supply", supply, lang, supply=current))
    if power:
        mine = (view.get("power") or {}).get(prompt.house, "?")
        lines.append(t("decision.loan-areas.power", lang, gain=_power(power, lang), power=mine))
    ask = tn("ask.loan-areas", count, lang, loan=loan_name(loan, lang), token=development_label(token, lang))
    return Form(prompt.id, prompt.kind, prompt_title(prompt.kind, lang), lines, fields, ask)


def _read_loan_areas(prompt: Prompt, picks: dict[str, list[str]]) -> list[str]:
    chosen = _picked(picks, AREAS)
    count = min(int(prompt.choices["count"]), len(prompt.choices["areas"]))
    if len(chosen) != count or len(set(chosen)) != len(chosen):
        raise FormError("loan-areas-count", count=count)
    return chosen


def _areas_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, list) and all(isinstance(a, str) for a in answer):
        return ", ".join(area_label(a, lang) for a in answer) or t("receipt.nothing", lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.LOAN_AREAS,
        form=_loan_areas,
        read=_read_loan_areas,
        words=_areas_words,
        category=DeadlineCategory.OTHER,
    )
)


# ----- Pyromancer (M-LOAN-07) -----

TOKEN = "token"


def _pyromancer(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card; then the castles (menus of at most 25), whose controller each option names; then crown or barrel,
    each saying what it does."""
    c = prompt.choices
    loan = _loan_of(prompt)
    default = prompt.default if isinstance(prompt.default, dict) else {}
    areas_view = view.get("areas") or {}

    def owner(area: str) -> str | None:
        units = (areas_view.get(area) or {}).get("units") or []
        controller = (areas_view.get(area) or {}).get("controller") or (units[0].get("house") if units else None)
        return house_name(str(controller), lang) if controller else None

    choices = [Choice(a, area_label(a, lang), owner(a)) for a in c["areas"]]
    chunks = in_menus(choices)
    fields = []
    for i, chunk in enumerate(chunks):
        label = _range_label("decision.loan-pyromancer.field", chunk, len(chunks), lang)
        chosen = [ch.value for ch in chunk if ch.value == default.get("area")]
        fields.append(Field(f"{AREAS}{i}", label, chunk, 1 if len(chunks) == 1 else 0, 1, chosen))
    tokens = [Choice(tok, development_label(tok, lang), t(f"development.{tok}.what", lang)) for tok in c["tokens"]]
    picked_token = [str(default["token"])] if default.get("token") in c["tokens"] else [str(c["tokens"][0])]
    fields.append(Field(TOKEN, t("decision.loan-pyromancer.token", lang), tokens, 1, 1, picked_token))
    lines = [loan_line(loan, lang), t("decision.loan-pyromancer.help", lang)]
    lines += [f"• {development_label(tok, lang)}: {t(f'development.{tok}.what', lang)}" for tok in c["tokens"]]
    ask = t("ask.loan-pyromancer", lang, loan=loan_name(loan, lang))
    return Form(prompt.id, prompt.kind, prompt_title(prompt.kind, lang), lines, fields, ask)


def _read_pyromancer(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, str]:
    areas = _picked(picks, AREAS)
    if len(areas) != 1:
        raise FormError("loan-one-area")
    return {"area": areas[0], "token": one_pick(picks, TOKEN)}


register(
    KindSpec(
        kind=PromptKind.LOAN_PYROMANCER,
        form=_pyromancer,
        read=_read_pyromancer,
        words=fields_words(
            "decision.loan-pyromancer.words", area=("area", area_label), token=("token", development_label)
        ),
        category=DeadlineCategory.OTHER,
    )
)


# ----- Spymaster (M-LOAN-08): the deck, then its top cards -----


def _deck_name(deck: Any, lang: str) -> str:
    """``Westeros deck 2`` (numbered as the channel numbers the decks: ``Westeros deck 1: Last Days of Summer``)."""
    return t("decision.loan-spy.deck", lang, deck=int(deck))


def _spy_deck(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card; then the Westeros decks, each with its size."""
    loan = _loan_of(prompt)
    sizes: dict[str, int] = prompt.info.get("sizes") or {}
    options = choices_of(
        prompt,
        lambda v: _deck_name(v, lang),
        lambda v: tn("decision.loan-spy.size", int(sizes.get(str(v), 0)), lang),
    )
    lines = [loan_line(loan, lang), t("decision.loan-spy-deck.help", lang)]
    ask = t("ask.loan-spy-deck", lang, loan=loan_name(loan, lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options)


def _is_deck(answer: Any) -> bool:
    return isinstance(answer, int) and not isinstance(answer, bool)


register(
    KindSpec(
        kind=PromptKind.LOAN_SPY_DECK,
        form=_spy_deck,
        words=value_words(_deck_name, shaped=_is_deck),
        category=DeadlineCategory.OTHER,
    )
)


def _arrangements(n: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every way to put back ``n`` cards (by index): which go on top in which order (first = new top), which go to
    the bottom in which order (last = very bottom). 2 cards: 6 ways; 3: 24."""
    out = [(order[:cut], order[cut:]) for order in permutations(range(n)) for cut in range(n + 1)]
    return sorted(dict.fromkeys(out), key=lambda way: (len(way[1]), way))  # as many on top as can be first


def _arrangement_value(top: tuple[int, ...], bottom: tuple[int, ...]) -> str:
    return ",".join(map(str, top)) + "/" + ",".join(map(str, bottom))


def _cards_named(cards: list[str], lang: str) -> str:
    return t("decision.loan-spy-arrange.then", lang).join(westeros_name(c, lang) for c in cards) or "—"


def _arrangement_label(top: list[str], bottom: list[str], lang: str) -> str:
    return t("choice.loan-spy-arrange", lang, top=_cards_named(top, lang), bottom=_cards_named(bottom, lang))


def _spy_arrange(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card; the cards looked at, top first, each with its text; then one select over every way to put them back,
    each naming what lies on top and what at the bottom, in order."""
    loan = _loan_of(prompt)
    cards: list[str] = list(prompt.choices["cards"])
    deck = prompt.choices.get("deck", prompt.info.get("deck"))
    lines = [loan_line(loan, lang), t("decision.loan-spy-arrange.help", lang, deck=_deck_name(deck, lang))]
    lines += [f"{i}. **{westeros_name(c, lang)}**: {westeros_text(c, lang)}" for i, c in enumerate(cards, start=1)]
    lines.append(t("decision.loan-spy-arrange.order", lang))
    options = []
    for top, bottom in _arrangements(len(cards))[:MAX_OPTIONS]:
        label = _arrangement_label([cards[i] for i in top], [cards[i] for i in bottom], lang)
        options.append(Choice(_arrangement_value(top, bottom), label))
    default = prompt.default if isinstance(prompt.default, dict) else {"top": cards, "bottom": []}
    selected = _value_of(cards, list(default.get("top") or []), list(default.get("bottom") or []))
    ask = t("ask.loan-spy-arrange", lang, deck=_deck_name(deck, lang))
    return one_select(prompt, lang, ask=ask, lines=lines, options=options, selected=selected)


def _value_of(cards: list[str], top: list[str], bottom: list[str]) -> str:
    """The encoding of an arrangement given by card ids (a card named twice in the deck's top cards takes the next
    index)."""
    free = list(range(len(cards)))

    def index(card: str) -> int:
        i = next(i for i in free if cards[i] == card)
        free.remove(i)
        return i

    try:
        return _arrangement_value(tuple(index(c) for c in top), tuple(index(c) for c in bottom))
    except StopIteration:
        return _arrangement_value(tuple(range(len(cards))), ())


def _read_spy_arrange(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, list[str]]:
    cards: list[str] = list(prompt.choices["cards"])
    value = one_pick(picks, "choice")
    for top, bottom in _arrangements(len(cards)):
        if _arrangement_value(top, bottom) == value:
            return {"top": [cards[i] for i in top], "bottom": [cards[i] for i in bottom]}
    raise FormError("form-stale")


def _spy_arrange_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict) and isinstance(answer.get("top"), list) and isinstance(answer.get("bottom"), list):
        return _arrangement_label([str(c) for c in answer["top"]], [str(c) for c in answer["bottom"]], lang)
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.LOAN_SPY_ARRANGE,
        form=_spy_arrange,
        read=_read_spy_arrange,
        words=_spy_arrange_words,
        category=DeadlineCategory.OTHER,
    )
)


# ----- units from a loan (M-LOAN-09) -----

UNIT = "unit:"


def _unit_fields(prompt: Prompt, lang: str) -> list[Field]:
    """One menu per unit offered: not placed (the default unless the engine places it), or an area where it may go;
    a unit with more areas than a menu holds gets several menus, the areas alphabetical, and goes where one says."""
    c = prompt.choices
    default: dict[str, list[str]] = prompt.default if isinstance(prompt.default, dict) else {}
    planned: dict[str, list[str]] = {}  # unit type -> the areas the default puts its units in, one per unit
    for area, types in default.items():
        for unit_type in types:
            planned.setdefault(unit_type, []).append(area)
    fields = []
    for unit_type, n in c["units"].items():
        areas = [Choice(a, area_label(a, lang)) for a in (c["areas"].get(unit_type) or [])]
        skip = Choice(NONE, t("decision.loan-units.skip", lang))
        if not areas:
            continue  # nowhere to go: the form says so (``decision.loan-units.nowhere``)
        chunks = in_menus(areas, MAX_OPTIONS - 1)
        targets = planned.get(unit_type, [])
        for i in range(int(n)):
            target = targets[i] if i < len(targets) else NONE
            for k, chunk in enumerate(chunks):
                label = t("decision.loan-units.unit", lang, unit=unit_label(unit_type, lang), n=i + 1)
                if len(chunks) > 1:
                    label = t("decision.bank.range", lang, label=label, first=chunk[0].label, last=chunk[-1].label)
                selected = [target] if any(ch.value == target for ch in chunk) else [NONE]
                fields.append(Field(f"{UNIT}{unit_type}:{i}:{k}", label, [skip, *chunk], 1, 1, selected))
    return fields


def _loan_units(prompt: Prompt, view: dict[str, Any], lang: str) -> Form:
    """The card; the units offered (fewer than printed when the reserve is short); where they may go and the supply
    rule; then one menu per unit."""
    c = prompt.choices
    loan = _loan_of(prompt)
    offered = [u for u, n in c["units"].items() for _ in range(int(n))]
    printed = [u for u, n in (prompt.info.get("printed") or {}).items() for _ in range(int(n))]
    lines = [loan_line(loan, lang), t("decision.loan-units.offered", lang, units=units_text(offered, lang))]
    if len(offered) < len(printed):
        lines.append(t("decision.loan-units.short", lang, printed=units_text(printed, lang)))
    lines.append(t("decision.loan-units.help", lang))
    for unit_type in c["units"]:
        if not c["areas"].get(unit_type):
            lines.append(t("decision.loan-units.nowhere", lang, unit=unit_label(unit_type, lang)))
    ask = t("ask.loan-units", lang, loan=loan_name(loan, lang))
    return Form(prompt.id, prompt.kind, prompt_title(prompt.kind, lang), lines, _unit_fields(prompt, lang), ask)


def _read_loan_units(prompt: Prompt, picks: dict[str, list[str]]) -> dict[str, list[str]]:
    per_unit: dict[str, list[str]] = {}
    for key, values in picks.items():
        if key.startswith(UNIT):
            unit = key.rsplit(":", 1)[0]
            per_unit.setdefault(unit, []).extend(v for v in values[:1] if v != NONE)
    out: dict[str, list[str]] = {}
    for unit, areas in sorted(per_unit.items()):
        if len(areas) > 1:
            raise FormError("loan-one-area")
        if areas:
            out.setdefault(areas[0], []).append(unit.split(":")[1])
    return out


def _loan_units_words(answer: Any, lang: str, prompt: Prompt | None) -> str:
    if isinstance(answer, dict):
        placed = {a: list(u) for a, u in answer.items() if u}
        return destroy_text(placed, lang) if placed else t("decision.loan-units.none", lang)  # units by area, in words
    return generic_words(answer, lang, prompt)


register(
    KindSpec(
        kind=PromptKind.LOAN_UNITS,
        form=_loan_units,
        read=_read_loan_units,
        words=_loan_units_words,
        category=DeadlineCategory.OTHER,
    )
)
