"""The package's import graph has no cycle, counting imports inside functions and ``__init__``s.

The graph is read with :mod:`ast`, not by importing, so a lazy import inside a function counts
as much as one at the top of a module. Importing ``a.b.c`` from outside ``a`` runs ``a/__init__``
and ``a/b/__init__`` first, so those count as edges too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("whileai_env", "trainers")
HEAVY = ("torch", "transformers", "trl", "peft", "verifiers", "openai", "datasets", "accelerate")


def module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join(parts)] = path
    return names


def _imported(node: ast.AST, module: str, is_package: bool, known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        anchor = module.split(".")
        anchor = anchor if is_package else anchor[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    found = [base]
    found += [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Ids of import nodes under ``if TYPE_CHECKING:`` (never run, so never an edge)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules its import statements run (anywhere in the file)."""
    known = module_names()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for module, path in known.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        skipped = _type_checking_only(tree)
        is_package = path.name == "__init__.py"
        own = module.split(".")
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            for target in _imported(node, module, is_package, known):
                parts = target.split(".")
                for depth in range(1, len(parts) + 1):
                    name = ".".join(parts[:depth])
                    inside = own[:depth] == parts[:depth]
                    if name in known and name != module and not inside:
                        graph[module].add(name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_package_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_checker_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_the_package_facade() -> None:
    graph = import_graph()
    users = sorted(
        m
        for m, targets in graph.items()
        if "whileai_env" in targets and m.startswith("whileai_env.")
    )
    assert users == [], f"modules importing the whileai_env facade: {users}"


@pytest.mark.parametrize("heavy", HEAVY)
def test_core_never_imports_a_heavy_module_at_module_level(heavy: str) -> None:
    for module, path in module_names().items():
        if not module.startswith("whileai_env"):
            continue
        tree = ast.parse(path.read_text())
        for node in tree.body:
            names = _imported(node, module, path.name == "__init__.py", {})
            assert not any(n == heavy or n.startswith(heavy + ".") for n in names), (
                f"{module} imports {heavy} at import time"
            )
