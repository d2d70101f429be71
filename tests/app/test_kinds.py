"""One registration per prompt kind (issue P): every kind the engine declares has exactly one ``KindSpec``, in the
group module of its part of the game, and that registration is all the application knows about the kind."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import app.kinds
from app.deadlines import CATEGORY_OF_KIND
from app.decisions import BUILDERS
from app.forms import generic_form
from app.kinds.registry import DeadlineCategory, KindSpec, find, register, registered, spec_of
from engine.prompts import PromptKind

KINDS_DIR = Path(app.kinds.__file__).parent
GROUPS = {
    "planning",
    "action",
    "combat",
    "cards",
    "westeros",
    "wildlings",
    "loyalty",
    "deck4_players",
    "deck4_moves",
    "iron_bank",
}


def registrations_in_source() -> Counter[str]:
    """``KindSpec(kind=PromptKind.X, ...)`` as written in the group modules, counted per kind."""
    found: Counter[str] = Counter()
    for path in sorted(KINDS_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "KindSpec":
                kind = next(kw.value for kw in node.keywords if kw.arg == "kind")
                assert isinstance(kind, ast.Attribute) and getattr(kind.value, "id", None) == "PromptKind", path
                found[PromptKind[kind.attr].value] += 1
    return found


def test_every_prompt_kind_has_exactly_one_registration_and_every_registration_a_declared_kind() -> None:
    assert [spec.kind for spec in registered()] == list(PromptKind)
    assert all(isinstance(spec.kind, PromptKind) for spec in registered())
    written = registrations_in_source()
    assert set(written) == {kind.value for kind in PromptKind}
    assert [kind for kind, n in written.items() if n != 1] == []


def test_each_kind_lives_in_its_group_module() -> None:
    """A kind's form, reader and words come from the group module that registers it (or the shared helpers)."""
    for spec in registered():
        home = spec.form.__module__
        assert home.startswith("app.kinds.") and home.rsplit(".", 1)[1] in GROUPS, (spec.kind, home)
        for part in (spec.read, spec.words):
            assert part.__module__ in (home, "app.forms"), (spec.kind, part)
        assert spec.form is not generic_form


def test_a_kind_registered_twice_or_undeclared_is_refused() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        register(spec_of(PromptKind.ORDERS))
    with pytest.raises(ValueError):
        register(KindSpec(kind="no-such-kind", form=generic_form, category=DeadlineCategory.OTHER))  # type: ignore[arg-type]
    assert find("no-such-kind") is None
    assert len(registered()) == len(PromptKind)


def test_the_deadline_table_and_the_builders_are_views_of_the_registry() -> None:
    assert {spec.kind: spec.category for spec in registered()} == CATEGORY_OF_KIND
    assert {spec.kind.value: spec.form for spec in registered()} == BUILDERS
    assert {k for k, c in CATEGORY_OF_KIND.items() if c == DeadlineCategory.ORDERS} == {PromptKind.ORDERS}
    assert {k for k, c in CATEGORY_OF_KIND.items() if c == DeadlineCategory.BIDS} == {
        PromptKind.BID,
        PromptKind.BID_HANDOUT,  # Targaryen hands out its bid before the ties: part of the bid (M-TARG-18)
        PromptKind.TIE_ORDER,
        PromptKind.WILDLING_TIE,
    }
