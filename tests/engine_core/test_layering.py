"""The engine's imports flow one way (issue R): it imports nothing above it, and its modules form no cycle.

Read from the source, not by importing: an import inside a function, or a module loaded by name, would hide a
dependency from a check that only looks at what Python loaded.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ABOVE = ("app", "render", "cogs", "bot", "discord", "tools", "bench", "testing", "tests")


def modules() -> dict[str, ast.Module]:
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


def is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def runtime_imports(tree: ast.Module) -> set[str]:
    """Modules imported when the module is loaded (a ``TYPE_CHECKING`` block is for the type checker only)."""
    found: set[str] = set()
    for node in tree.body:
        if is_type_checking_block(node):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Import):
                found.update(alias.name for alias in sub.names)
            elif isinstance(sub, ast.ImportFrom) and sub.module:
                found.add(sub.module)
                found.update(f"{sub.module}.{alias.name}" for alias in sub.names)
    return found


def test_no_engine_module_imports_a_layer_above_it_directly_or_by_name() -> None:
    offenders = []
    for name, tree in modules().items():
        for sub in ast.walk(tree):
            if isinstance(sub, ast.Import):
                targets = [alias.name for alias in sub.names]
            elif isinstance(sub, ast.ImportFrom):
                targets = [sub.module or ""]
            elif isinstance(sub, ast.Name) and sub.id in ("importlib", "__import__"):
                targets = ["<by name>"]
            else:
                continue
            offenders += [f"{name}: {t}" for t in targets if t == "<by name>" or t.split(".")[0] in ABOVE]
    assert offenders == []


def test_no_import_hides_inside_a_function() -> None:
    """A function-local import exists only to dodge a cycle; the engine needs none."""
    hidden = [
        f"{name}:{sub.lineno}"
        for name, tree in modules().items()
        for fn in ast.walk(tree)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        for sub in ast.walk(fn)
        if isinstance(sub, (ast.Import, ast.ImportFrom))
    ]
    assert hidden == []


def test_engine_modules_import_each_other_without_a_cycle() -> None:
    trees = modules()
    graph = {name: {m for m in runtime_imports(tree) if m in trees and m != name} for name, tree in trees.items()}
    # A package's submodule imports its package first; that edge is Python's, not a design choice.
    graph = {name: {m for m in deps if not name.startswith(m + ".")} for name, deps in graph.items()}
    state: dict[str, str] = {}
    cycle: list[str] = []

    def visit(name: str, path: list[str]) -> bool:
        state[name] = "open"
        for dep in sorted(graph[name]):
            if state.get(dep) == "open":
                cycle.extend([*path[path.index(dep) :], dep] if dep in path else [name, dep])
                return True
            if dep not in state and visit(dep, [*path, dep]):
                return True
        state[name] = "done"
        return False

    for name in sorted(graph):
        if name not in state and visit(name, [name]):
            break
    assert cycle == []


LAYERS = {
    # layer -> the top-level packages and modules it must never import; ``i18n`` (the catalogs) sits below app and
    # render, which both read it
    "app": ("cogs", "bot", "discord", "render", "testing", "tests", "tools", "bench"),
    "render": ("app", "cogs", "bot", "discord", "testing", "tests", "tools", "bench"),
    "cogs": ("bot", "testing", "tests", "tools", "bench"),
    "i18n": ("app", "cogs", "render", "engine", "bot", "discord", "testing", "tests", "tools", "bench"),
}


def layer_modules(layer: str) -> dict[str, ast.Module]:
    root = ENGINE.parent / layer
    if root.with_suffix(".py").is_file():
        path = root.with_suffix(".py")
        return {path.name: ast.parse(path.read_text(encoding="utf-8"), str(path))}
    return {
        str(path.relative_to(root.parent)): ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(root.rglob("*.py"))
    }


def test_the_application_the_renderer_and_the_cogs_import_only_downwards() -> None:
    """cogs -> app -> engine; render reads the engine's views; none imports a layer above it (issue P)."""
    offenders = []
    for layer, forbidden in LAYERS.items():
        for name, tree in layer_modules(layer).items():
            for sub in ast.walk(tree):
                if isinstance(sub, ast.Import):
                    targets = [alias.name for alias in sub.names]
                elif isinstance(sub, ast.ImportFrom) and sub.level == 0:
                    targets = [sub.module or ""]
                else:
                    continue
                offenders += [f"{name}: {t}" for t in targets if t.split(".")[0] in forbidden]
    assert offenders == []


def test_the_cogs_read_a_game_through_its_public_face_never_its_state() -> None:
    """Issue P: the cogs read a game through the engine's public face (views, prompts, ``round``...) and the service's
    queries, never its ``state``: the state's shape is the engine's own business."""
    offenders = []
    for name, tree in layer_modules("cogs").items():
        for sub in ast.walk(tree):
            if not (isinstance(sub, ast.Attribute) and sub.attr == "state"):
                continue
            owner = sub.value
            if (isinstance(owner, ast.Name) and owner.id in ("game", "g", "shared")) or (
                isinstance(owner, ast.Attribute) and owner.attr == "game"
            ):
                offenders.append(f"{name}:{sub.lineno}")
    assert offenders == []
