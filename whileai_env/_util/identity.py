"""A memo keyed on the identity of its arguments: for functions of spec-owned objects.

A tool's schema is read thousands of times a run (to validate a value, to list its required
names), and keying a cache by its content means a JSON dump of it per call. These objects live
as long as the spec, so a cache can key on ``id`` instead, provided an entry is used only for
the very objects it was made for: each entry keeps its arguments alive (so their ids cannot be
reused while it exists) and is checked with ``is``. The arguments must not be mutated after the
call; the spec's own schemas are frozen.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")


def by_identity(maxsize: int = 4096) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Memoise a function of positional arguments by their identity (cleared when full).

    >>> calls = []
    >>> @by_identity()
    ... def size(schema):
    ...     calls.append(1)
    ...     return len(schema)
    >>> schema = {"type": "object"}
    >>> size(schema), size(schema), size({"type": "object"}), len(calls)
    (1, 1, 1, 2)
    """

    def decorate(fn: Callable[..., R]) -> Callable[..., R]:
        memo: dict[tuple[int, ...], tuple[tuple[Any, ...], R]] = {}

        @functools.wraps(fn)
        def memoised(*args: Any) -> R:
            key = tuple(map(id, args))
            hit = memo.get(key)
            if hit is not None and all(a is b for a, b in zip(hit[0], args, strict=True)):
                return hit[1]
            value = fn(*args)
            if len(memo) >= maxsize:
                memo.clear()
            memo[key] = (args, value)
            return value

        return memoised

    return decorate
