"""Strings that match a JSON Schema ``pattern``, drawn from a seeded RNG.

The sampler is ``rstr``'s ``Xeger`` (PyPI ``rstr``): it walks Python's own parse of the regular
expression, so anchors, classes, ranges, categories, alternation, groups, back-references and
repetition bounds (``{2,5}``) behave as ``re`` reads them, and it takes a ``random.Random`` of
ours, so a draw depends only on its seed (``exrex``, the other maintained sampler, draws from the
global ``random`` module). Two things are narrowed here: an open repetition (``+``, ``*``,
``{3,}``) repeats at most six times more than its minimum, not a hundred; and ``.``/``\\S``
draw letters and digits, so a sample reads like a value rather than line noise. Lookarounds
are not generated, only checked: a draw is kept only when ``re.search`` accepts it (JSON Schema
patterns are unanchored) and it fits the length bounds.

>>> import random, re
>>> value = sample(r"^ORD-\\d{6}$", random.Random(1))
>>> bool(re.fullmatch(r"ORD-\\d{6}", value))
True
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from rstr.xeger import Xeger

_EXTRA_REPEATS = 6
_TRIES = 24
_READABLE = string.ascii_letters + string.digits


class _Sampler(Xeger):
    """``rstr``'s sampler with short open repetitions and readable wildcards."""

    def __init__(self, r: random.Random) -> None:
        super().__init__(r, printable=_READABLE, nonwhitespace=_READABLE, nonword=" -.,")
        self._cases = {
            **self._cases,
            "assert": lambda value: (
                ""
            ),  # a lookaround is zero-width: the text after it must satisfy it
            "atomic_group": lambda value: "".join(self._handle_state(i) for i in value),
            "possessive_repeat": lambda value: self._handle_repeat(*value),
        }

    def _handle_repeat(self, start_range: int, end_range: int, value: Any) -> str:
        return super()._handle_repeat(
            start_range, min(end_range, start_range + _EXTRA_REPEATS), value
        )


@lru_cache(maxsize=2048)
def compiled(pattern: str) -> re.Pattern[str] | None:
    """``re.compile(pattern)``, or ``None`` for a pattern Python cannot read (``\\p{L}`` …)."""
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None


def matches(pattern: str, text: str) -> bool:
    """Whether ``text`` matches ``pattern`` as JSON Schema reads it (``re.search``); an
    unreadable pattern accepts everything, as the world's validator does not check it either."""
    found = compiled(pattern)
    return found is None or found.search(text) is not None


def sample(
    pattern: str,
    r: random.Random,
    *,
    min_length: int = 0,
    max_length: int | None = None,
    accept: Callable[[str], bool] | None = None,
    tries: int = _TRIES,
) -> str | None:
    """A string that matches ``pattern``, has a length in bounds and passes ``accept`` (the rest
    of the schema: another ``allOf`` part's pattern …), or ``None`` if none was found."""
    if compiled(pattern) is None:
        return None
    sampler = _Sampler(r)
    for _ in range(tries):
        try:
            text = sampler.xeger(pattern)
        except (KeyError, IndexError, ValueError, re.error, RecursionError, OverflowError):
            return None
        if (
            matches(pattern, text)
            and len(text) >= min_length
            and (max_length is None or len(text) <= max_length)
            and (accept is None or accept(text))
        ):
            return text
    return None
