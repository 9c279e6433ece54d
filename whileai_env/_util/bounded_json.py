"""JSON reading with limits: bounded nesting, bounded number length, bounded size, linear time.

``json.loads`` recurses once per nesting level (``"[" * 1000`` is a ``RecursionError``, and with a
raised recursion limit a crash of the C stack), and Python refuses to convert integers of more
than 4,300 digits (a ``ValueError`` that is not a ``JSONDecodeError``). A policy in training or a
hand-written spec can hold either, so everything that reads untrusted JSON goes through here:
:func:`loads` checks depth and number length with linear scans *before* decoding, and
:func:`to_plain` copies an in-memory value into plain JSON types under the same limits. Both raise
:class:`JsonLimitError` (a ``ValueError``) whose message says where and why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

#: Deepest nesting accepted by default (arrays and objects; a real tool call nests a few levels).
MAX_DEPTH = 32
#: Most digits in one JSON number (a 64-bit id has 20; Python's own limit is 4,300).
MAX_DIGITS = 100
#: Most bits in a Python ``int`` that :func:`to_plain` accepts (10**100 has 333).
MAX_INT_BITS = 333

# A JSON string literal, possessive so it never backtracks; an unclosed one runs to the end of
# the text (so a failed match can never be retried from a later quote: linear time).
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_LONG_NUMBER = re.compile(r"(?<![0-9])[0-9]{" + str(MAX_DIGITS + 1) + "}")
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonLimitError(ValueError):
    """A value past the limits (too deep, too long a number, too big) or one JSON cannot carry.

    ``path`` is where inside the value (``tool_calls[0].function.arguments.x``), ``reason`` what
    is wrong there; ``str()`` joins them.
    """

    def __init__(self, reason: str, path: str = "") -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.reason = reason
        self.path = path


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of JSON ``text``, ignoring brackets inside strings.

    Linear time, and C-speed loops only. Unbalanced text is measured as written (the decoder will
    refuse it anyway; what matters is how deep it would recurse before noticing).

    >>> nesting_depth('{"a": [1, "[[[", {"b": []}]}')
    4
    """
    return _depth(_STRING.sub(" ", text))


def _depth(bare: str) -> int:
    """:func:`nesting_depth` of text whose strings are already blanked out."""
    return max(accumulate(map(_DELTA.__getitem__, _NOT_BRACKET.sub("", bare))), default=0)


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refusing nesting deeper than ``max_depth`` or a number of more than
    :data:`MAX_DIGITS` digits (``JsonLimitError``) before any decoding starts.

    Invalid JSON raises ``json.JSONDecodeError`` as usual; nothing else escapes.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads("[" * 1000)
    Traceback (most recent call last):
    ...
    whileai_env._util.bounded_json.JsonLimitError: nested 1000 levels deep (the limit is 32)
    """
    bare = _STRING.sub(" ", text)  # a blank keeps the digits on either side apart
    if bare.count("[") + bare.count("{") > max_depth:
        depth = _depth(bare)
        if depth > max_depth:
            raise JsonLimitError(f"nested {depth} levels deep (the limit is {max_depth})")
    if _LONG_NUMBER.search(bare):
        raise JsonLimitError(f"holds a number of more than {MAX_DIGITS} digits")
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonLimitError("nested too deeply to decode") from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # e.g. a float literal Python cannot read
        raise JsonLimitError(f"holds a value Python cannot read ({exc})") from None


def type_name(value: Any) -> str:
    """The name of ``value``'s type, never raising (for messages about hostile values)."""
    try:
        return str(type(value).__name__)
    except Exception:
        return "object"


def to_plain(
    value: Any,
    *,
    max_depth: int = MAX_DEPTH,
    max_items: int = 1_000_000,
    bytes_as_text: bool = True,
) -> Any:
    """A copy of ``value`` in plain JSON types (dict with str keys, list, str, int, float, bool,
    None), or ``JsonLimitError`` naming the path of the first thing that cannot be one.

    Refused: nesting deeper than ``max_depth`` (which also stops cycles), more than ``max_items``
    nodes plus string characters in all (which also stops shared-reference bombs), a non-string
    key, an ``int`` of more than :data:`MAX_INT_BITS` bits, and any other type. Subclasses of the
    JSON types become the base type without calling their methods; tuples become lists;
    ``bytes`` become UTF-8 text (bad bytes replaced) unless ``bytes_as_text`` is false.
    Non-finite floats pass: whether NaN is acceptable is the caller's call.

    >>> to_plain({"a": (1, b"x")})
    {'a': [1, 'x']}
    >>> to_plain({"a": [1, {"b": object()}]})
    Traceback (most recent call last):
    ...
    whileai_env._util.bounded_json.JsonLimitError: a[1].b: holds a object, which JSON cannot carry
    """
    return _Copier(max_depth, max_items, bytes_as_text).plain(value, None, 0)


#: Where a value sits, as a chain ``(parent, key or index)``, spelt out only for an error (a
#: path written at every node was a third of the copy's cost on every action).
_Where = tuple[Any, str | int] | None


def _path(where: _Where) -> str:
    """``where`` spelt out: ``tool_calls[0].function.arguments.x``."""
    parts: list[str | int] = []
    while where is not None:
        where, key = where
        parts.append(key)
    out = ""
    for key in reversed(parts):
        out += f"[{key}]" if type(key) is int else f".{key}" if out else str(key)
    return out


_EXACT_SCALARS = frozenset({int, float, bool, type(None)})


class _Copier:
    """One :func:`to_plain` copy: its limits and what is left of its size budget."""

    def __init__(self, max_depth: int, max_items: int, bytes_as_text: bool) -> None:
        self.max_depth, self.budget, self.bytes_as_text = max_depth, max_items, bytes_as_text

    def spend(self, amount: int, where: _Where) -> None:
        self.budget -= amount
        if self.budget < 0:
            raise JsonLimitError("is too big (too many values or characters)", _path(where))

    def plain(self, value: Any, where: _Where, depth: int) -> Any:
        kind = type(value)
        if kind is str:
            self.spend(1 + len(value), where)
            return value
        if kind in _EXACT_SCALARS and (kind is not int or value.bit_length() <= MAX_INT_BITS):
            self.spend(1, where)
            return value
        self.spend(1, where)
        done, plain = _scalar(value, where, self.bytes_as_text)
        if done:
            if type(plain) is str:
                self.spend(len(plain), where)
            return plain
        if depth >= self.max_depth:
            raise JsonLimitError(
                f"nested deeper than {self.max_depth} levels (or refers to itself)", _path(where)
            )
        if isinstance(value, Mapping):
            out: dict[str, Any] = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    raise JsonLimitError(
                        f"has a key that is not a string ({type_name(key)})", _path(where)
                    )
                key = key if type(key) is str else str.__str__(key)
                self.spend(len(key), where)
                out[key] = self.plain(item, (where, key), depth + 1)
            return out
        if isinstance(value, list | tuple):
            return [self.plain(item, (where, i), depth + 1) for i, item in enumerate(value)]
        raise JsonLimitError(f"holds a {type_name(value)}, which JSON cannot carry", _path(where))


def _scalar(value: Any, where: _Where, bytes_as_text: bool) -> tuple[bool, Any]:
    """``(True, plain)`` for a scalar JSON value (subclasses flattened), ``(False, None)`` else."""
    if value is None or value is True or value is False:
        return True, value
    if isinstance(value, str):
        return True, value if type(value) is str else str.__str__(value)
    if isinstance(value, bool):
        return True, bool(int.__int__(value))
    if isinstance(value, int):
        number = value if type(value) is int else int.__int__(value)
        if number.bit_length() > MAX_INT_BITS:
            raise JsonLimitError(
                f"holds an integer of {number.bit_length()} bits (the limit is {MAX_INT_BITS})",
                _path(where),
            )
        return True, number
    if isinstance(value, float):
        return True, value if type(value) is float else float.__float__(value)
    if bytes_as_text and isinstance(value, bytes | bytearray | memoryview):
        return True, bytes(value).decode("utf-8", errors="replace")
    return False, None


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether plain JSON ``value`` nests deeper than ``limit`` levels (iterative, linear)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        children: Any
        if type(node) is dict:
            children = node.values()
        elif type(node) is list:
            children = node
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
