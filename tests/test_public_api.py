"""The public namespace: one table generates it, every name resolves, one exception hierarchy."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import whileai_env as wenv
from whileai_env import errors

INIT = Path(wenv.__file__)


def _type_checking_imports() -> dict[str, str]:
    tree = ast.parse(INIT.read_text())
    block = next(
        n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
    )
    return {
        alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_type_checking_mirror_matches_the_table():
    assert _type_checking_imports() == wenv._PUBLIC


@pytest.mark.parametrize("name", sorted(wenv._PUBLIC))
def test_every_public_name_resolves_to_its_module(name):
    value = getattr(wenv, name)
    module = getattr(value, "__module__", None)
    assert module is None or module.startswith("whileai_env"), (name, module)


def test_all_is_the_table_the_errors_and_the_submodules():
    assert set(wenv.__all__) == {*wenv._PUBLIC, *wenv._ERRORS, *wenv._SUBMODULES, "__version__"}
    assert dir(wenv) == wenv.__all__
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = wenv.nope


def test_every_public_exception_is_a_whileai_error():
    classes = [
        c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__
    ]
    assert len(classes) >= 10
    for cls in classes:
        assert issubclass(cls, errors.WhileaiError), cls
    assert set(wenv._ERRORS) == {c.__name__ for c in classes}


def test_the_package_ships_py_typed():
    assert (INIT.parent / "py.typed").is_file()
