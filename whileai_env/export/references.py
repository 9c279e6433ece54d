"""Callables named by ``module:attribute``: how a judge or an ``execute`` crosses a process.

An exported package and ``vf-eval -a '{...}'`` carry only JSON, so a judge travels as the name it
can be imported by, and is imported again where the environment is built.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def reference_of(value: Callable[..., Any] | str | None, what: str) -> str | None:
    """The ``module:attribute`` that imports ``value`` back (a string is checked and kept).

    Refused, with how to fix it, when the callable cannot be imported by name: a lambda, a
    function defined inside another, or one defined in ``__main__``.
    """
    if value is None:
        return None
    if isinstance(value, str):
        resolve_reference(value, what)
        return value
    module = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None)
    fix = (
        f"define the {what} as a module-level function in an importable module (e.g. my_rewards.py) "
        f"and pass it, or pass its name as 'my_rewards:{what}'"
    )
    if not module or not name or module == "__main__" or "<" in name:
        raise ValueError(
            f"the {what} {value!r} cannot be imported by name in another process: {fix}"
        )
    reference = f"{module}:{name}"
    try:
        found = resolve_reference(reference, what)
    except ValueError as exc:
        raise ValueError(f"{exc}; {fix}") from None
    if found is not value:
        raise ValueError(f"{reference} does not import back to the {what} given: {fix}")
    return reference


def resolve_reference(
    reference: Callable[..., Any] | str | None, what: str
) -> Callable[..., Any] | None:
    """The callable ``module:attribute`` names (a callable or ``None`` passes through)."""
    if reference is None or callable(reference):
        return reference
    module, sep, attribute = str(reference).partition(":")
    if not sep or not module or not attribute:
        raise ValueError(
            f"the {what} must be MODULE:ATTRIBUTE (e.g. my_rewards:judge), got {reference!r}"
        )
    try:
        target: Any = importlib.import_module(module)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot import the {what} {reference!r}: {exc}") from None
    if not callable(target):
        raise ValueError(f"the {what} {reference!r} is not callable")
    return target
