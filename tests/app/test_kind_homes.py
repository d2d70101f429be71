"""One home per prompt kind (issue P): a kind's id is named in two source files only, the engine step that opens it
and its registration (``app/kinds/``); nothing else special-cases a kind by name.

The scan reads every ``.py`` file of ``engine/``, ``app/``, ``cogs/``, ``render/`` and the top-level modules (not
``tests/``, ``testing/``, ``locales/``, ``bench/`` nor ``tools/``). ``engine/prompts.py`` is left out: it declares
the kinds (``PromptKind``), the list this test goes through for both rulesets.

A plain text search cannot tell a prompt kind from the same word used for something else ("march" and "raid" are
order types and action stages, "blade" a combat stage, "orders" an answer's key, "retreat" an event), so the scan
reads the syntax tree and counts a kind where it is *named as a prompt kind*:

- ``PromptKind.NAME`` (or ``PromptKind["NAME"]``);
- a string equal to a kind id in a kind position:
  - the ``kind=`` keyword of any call, and the argument of ``PromptKind(...)``;
  - the argument bound to a parameter named ``kind`` of a function of the scanned code (the engine's prompt-opening
    helpers such as ``ask(af, "<kind>", ...)`` and ``prompt_id``; the application's ``spec_of``, ``prompt_title``...),
    and ``Prompt(...)``'s own ``kind`` field, positional or not. ``render/`` is left out of these functions: its
    ``kind`` parameters are order tokens, arrows and stamps, and it never sees a prompt;
  - either side of a comparison (``==``, ``!=``, ``in``, ``not in``, also against a tuple, list or set of strings)
    and the ``case`` patterns of a ``match`` whose subject is a *kind*: ``<x>.kind``, ``<x>["kind"]`` or a name
    ``kind`` / ``<something>_kind``;
  - a value assigned to a name or attribute ``kind`` (a class's ``kind = "renly-knight"``) and the value of a
    ``"kind"`` key in a dict display;
  - the keys of a dict display whose keys (two or more) are all kind ids: a table keyed by kinds.

A *kind* subject is a prompt's kind unless the code shows it is something else: when its chain
(``draft.form.kind``) names a prompt or a form it is one; otherwise, when the function around it (or the module)
binds the root name (``kind``, ``mv``...) only from expressions, or as a parameter annotated with types, that never
mention a prompt or a form (``kind = ev.get("type")``, ``kind = token(t).type``, ``for mv in moves``,
``arrow: Arrow``), it is an event's, an order's or an arrow's kind and is not counted. A parameter without an
annotation or annotated ``str``/``Any``, and a name bound elsewhere, count.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from engine.prompts import Prompt, PromptKind

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "app", "cogs", "render")
DECLARATION = "engine/prompts.py"
KINDS = "app/kinds/"  # the registrations
NO_PROMPTS = ("render/",)  # whose functions' ``kind`` parameters are never a prompt kind

BY_ID = {kind.value: kind for kind in PromptKind}
PROMPT_WORDS = {"prompt", "prompts", "form", "forms"}
VAGUE = {"str", "any", "object", "none"}  # a parameter annotated so may hold a prompt's kind


@dataclasses.dataclass(frozen=True)
class Named:
    """One place a source file names a prompt kind."""

    kind: PromptKind
    line: int
    member: bool  # named by its ``PromptKind`` member (not a bare string)


def scanned_files() -> list[Path]:
    files = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    files += sorted(ROOT.glob("*.py"))
    return [p for p in files if rel(p) != DECLARATION]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# ----- the functions that take a kind -----


def kind_parameters(trees: dict[str, ast.Module]) -> dict[str, int]:
    """For each function of the scanned code with a parameter named ``kind`` (outside ``render/``): the position of
    the argument that parameter takes (a method's ``self`` is not passed; -1 for a keyword-only one). ``Prompt``
    takes its kind as a field."""
    out = {"Prompt": [f.name for f in dataclasses.fields(Prompt)].index("kind")}
    for path, tree in trees.items():
        if path.startswith(NO_PROMPTS):
            continue
        methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body}
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
            if "kind" in names:
                out[node.name] = names.index("kind") - (id(node) in methods)
            elif "kind" in [a.arg for a in node.args.kwonlyargs]:
                out[node.name] = -1  # keyword only: ``kind=`` is counted anyway
    return out


# ----- is this expression a prompt's kind? -----


def words(node: ast.AST) -> set[str]:
    """The lower-case words of every name and attribute in ``node`` (``game.prompt_for`` -> game, prompt, for)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        name = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
        if name is not None:
            out.update(w.lower() for w in re.split(r"_+|(?<=[a-z])(?=[A-Z])", name) if w)
    return out


def bindings(scope: ast.AST, name: str) -> Iterator[ast.AST | None]:
    """The expressions ``name`` is bound from inside ``scope``: values, iterables, a parameter's annotation (None for
    a parameter without one)."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for target in node.targets for t in ast.walk(target)):
                yield node.value
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
            if isinstance(node.target, ast.Name) and node.target.id == name:
                yield node.value
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            if any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(node.target)):
                yield node.iter
        elif isinstance(node, ast.withitem):
            if node.optional_vars is not None and any(
                isinstance(t, ast.Name) and t.id == name for t in ast.walk(node.optional_vars)
            ):
                yield node.context_expr
        elif isinstance(node, ast.arguments):
            every = [*node.posonlyargs, *node.args, *node.kwonlyargs, node.vararg, node.kwarg]
            for a in every:
                if a is not None and a.arg == name:
                    yield a.annotation


class Scanner(ast.NodeVisitor):
    """Walks one module and records every place it names a prompt kind (see the module's docstring)."""

    def __init__(self, tree: ast.Module, takes_kind: dict[str, int]) -> None:
        self.takes_kind = takes_kind
        self.found: list[Named] = []
        self.scopes: list[ast.AST] = [tree]

    # --- recording ---

    def string(self, node: ast.AST | None) -> None:
        """A string in a kind position: recorded if it is a kind id."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in BY_ID:
            self.found.append(Named(BY_ID[node.value], node.lineno, member=False))

    def strings(self, node: ast.AST | None) -> None:
        """A string, or each string of a tuple, list or set display."""
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            for element in node.elts:
                self.string(element)
        else:
            self.string(node)

    # --- subjects ---

    def is_kind(self, node: ast.AST) -> bool:
        """Whether ``node`` reads a prompt's kind (see the module's docstring)."""
        if isinstance(node, ast.Attribute) and node.attr == "kind":
            owner: ast.AST = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "kind":
            owner = node.value
        elif isinstance(node, ast.Name) and (node.id == "kind" or node.id.endswith("_kind")):
            owner = node
        else:
            return False
        if words(owner) & PROMPT_WORDS:
            return True
        root = owner
        while isinstance(root, ast.Attribute | ast.Subscript | ast.Call):
            root = root.func if isinstance(root, ast.Call) else root.value
        if not isinstance(root, ast.Name):
            return True
        bound = list(bindings(self.scopes[-1], root.id))
        if not bound:
            return True  # a global, a name from elsewhere: it may be a prompt's kind
        return any(value is None or words(value) & PROMPT_WORDS or words(value) <= VAGUE for value in bound)

    # --- visiting ---

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.scoped(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.scoped(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.scoped(node)

    def scoped(self, node: ast.AST) -> None:
        self.scopes.append(node)
        self.generic_visit(node)
        self.scopes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "PromptKind" and node.attr in PromptKind.__members__:
            self.found.append(Named(PromptKind[node.attr], node.lineno, member=True))
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "PromptKind":
            name = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if name in PromptKind.__members__:
                self.found.append(Named(PromptKind[name], node.lineno, member=True))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        for keyword in node.keywords:
            if keyword.arg == "kind":
                self.string(keyword.value)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "PromptKind":
            for arg in node.args:
                self.string(arg)
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in self.takes_kind:
            at = self.takes_kind[name]
            if 0 <= at < len(node.args):
                self.string(node.args[at])
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        sides = [node.left, *node.comparators]
        for (left, right), op in zip(pairwise(sides), node.ops, strict=True):
            if isinstance(op, ast.Eq | ast.NotEq | ast.Is | ast.IsNot):
                if self.is_kind(left):
                    self.string(right)
                if self.is_kind(right):
                    self.string(left)
            elif isinstance(op, ast.In | ast.NotIn) and self.is_kind(left):
                self.strings(right)
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        if self.is_kind(node.subject):
            for case in node.cases:
                for pattern in ast.walk(case.pattern):
                    if isinstance(pattern, ast.MatchValue):
                        self.string(pattern.value)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(self.names_kind(target) for target in node.targets):
            self.string(node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if self.names_kind(node.target):
            self.string(node.value)
        self.generic_visit(node)

    @staticmethod
    def names_kind(target: ast.AST) -> bool:
        return (isinstance(target, ast.Name) and target.id == "kind") or (
            isinstance(target, ast.Attribute) and target.attr == "kind"
        )

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "kind":
                self.string(value)
        keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
        if len(keys) >= 2 and all(k in BY_ID for k in keys):
            for key in node.keys:
                self.string(key)
        self.generic_visit(node)


def scan(tree: ast.Module, takes_kind: dict[str, int] | None = None) -> list[Named]:
    """Every place ``tree`` names a prompt kind."""
    scanner = Scanner(tree, takes_kind if takes_kind is not None else {})
    scanner.visit(tree)
    return scanner.found


@cache
def trees() -> dict[str, ast.Module]:
    return {rel(p): ast.parse(p.read_text(encoding="utf-8"), rel(p)) for p in scanned_files()}


def scan_source(source: str) -> list[Named]:
    """``scan`` of a snippet, with the real code's kind-taking functions."""
    return scan(ast.parse(source), kind_parameters(trees()))


@cache
def homes() -> dict[PromptKind, dict[str, list[Named]]]:
    """For every kind: the files naming it, with the places."""
    takes_kind = kind_parameters(trees())
    out: dict[PromptKind, dict[str, list[Named]]] = {kind: defaultdict(list) for kind in PromptKind}
    for path, tree in trees().items():
        for named in scan(tree, takes_kind):
            out[named.kind][path].append(named)
    return out


def where(files: dict[str, list[Named]], paths: Iterable[str]) -> str:
    """``path:line,line`` for each of ``paths``."""
    lines = {p: ",".join(str(line) for line in sorted({n.line for n in files[p]})) for p in paths}
    return ", ".join(f"{p}:{lines[p]}" for p in sorted(lines)) or "nowhere"


# ----- the rule -----


@pytest.mark.parametrize("kind", list(PromptKind), ids=[kind.value for kind in PromptKind])
def test_a_kind_is_named_by_the_step_that_opens_it_and_its_registration_only(kind: PromptKind) -> None:
    files = homes()[kind]
    engine = [p for p in files if p.startswith("engine/")]
    kinds = [p for p in files if p.startswith(KINDS)]
    elsewhere = [p for p in files if p not in engine and p not in kinds]
    problems = []
    if len(engine) != 1:
        problems.append(f"{len(engine)} engine modules name it ({where(files, engine)}), not one: the step opening it")
    if len(kinds) != 1:
        problems.append(f"{len(kinds)} {KINDS} modules name it ({where(files, kinds)}), not one: its registration")
    if elsewhere:
        problems.append(f"named outside its two homes: {where(files, elsewhere)} (move it into a KindSpec hook)")
    assert not problems, f"prompt kind {kind.value!r}: " + "; ".join(problems)


def test_every_kind_is_named_by_its_member_never_a_bare_string() -> None:
    """``kind=PromptKind.BID``, ``ask(af, PromptKind.AERON_SWAP, ...)``: a misspelt kind is then an error at once."""
    bare = sorted(
        f"{path}:{n.line} {n.kind.value!r}"
        for kind, files in homes().items()
        for path, names in files.items()
        for n in names
        if not n.member
    )
    assert bare == [], "prompt kinds written as bare strings (write PromptKind.<NAME>): " + "; ".join(bare)


# ----- the scanner sees what it must, and only that -----


def test_the_scanner_finds_the_orders_prompt_in_the_planning_step_and_its_registration() -> None:
    files = homes()[PromptKind.ORDERS]
    assert any(n.member for n in files["engine/steps/planning.py"])
    assert any(n.member for n in files["app/kinds/planning.py"])
    assert "engine/prompts.py" not in files  # the declaration is the list the test goes through
    assert all(files[p] for p in files)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('if prompt.kind == "march":\n    pass', ["march"]),
        ('if "march" != draft.form.kind:\n    pass', ["march"]),
        ('ok = p.kind in ("raid", "consolidate", "defense")', ["raid", "consolidate"]),
        ('def f(kind):\n    return kind == "bid"', ["bid"]),
        ('kind = prompt.kind\nif kind == "bid":\n    pass', ["bid"]),
        ('match prompt.kind:\n    case "orders" | "raven":\n        pass', ["orders", "raven"]),
        ('Prompt("x", "stark", "muster", [], None)', ["muster"]),
        ('ask(af, "aeron-swap", af["house"], [], None)', ["aeron-swap"]),
        ('g.push("wildling-choice", kind="track")', ["track"]),
        ('spec = spec_of("orders")', ["orders"]),
        ("class Card:\n    kind = 'renly-knight'", ["renly-knight"]),
        ('q = {"kind": "wildling-upgrade", "n": 1}', ["wildling-upgrade"]),
        ('TABLE = {"bid": 1, "tie-order": 2}', ["bid", "tie-order"]),
        ('PromptKind("blade")', ["blade"]),
        ("x = PromptKind.RETREAT", ["retreat"]),
        # the same words used for something else
        ('def f(ev):\n    kind = ev.get("type")\n    return kind == "march"', []),
        ('def f(t):\n    kind = token(t).type\n    return kind in ("support", "raid")', []),
        ('def f(moves):\n    return [m for m in moves if m.kind == "retreat"]', []),
        ('def draw(arrow: Arrow):\n    return arrow.kind == "retreat"', []),
        ('def draw(x: Any, kind: str):\n    return kind == "retreat" or x.kind == "march"', ["retreat", "march"]),
        ('if f["stage"] == "blade":\n    pass', []),
        ('answer = {"orders": {}}', []),
        ('g.push("muster", houses=[])', []),
        ('ORDER_PRIORITY = {"support": 0, "march": 1, "defense": 4}', []),
    ],
)
def test_the_scanner_reads_kind_positions_only(source: str, found: list[str]) -> None:
    assert [n.kind.value for n in scan_source(source)] == found
