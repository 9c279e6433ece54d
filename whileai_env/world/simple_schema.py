"""A check of the simplest schemas without ``jsonschema``: a type and plain length or number bounds.

Most fields a world fills are ``{"type": "string", "description": ...}`` or a number with a
range, and every drawn value is checked against its schema, often several candidates each:
the validator's dispatch costs about twenty times the comparison itself. A schema that holds
only such keywords (no format, pattern, enum, ``$ref`` or draft marker) is checked here, with
``jsonschema``'s own meaning of each keyword (draft 2020-12: an integral float is an integer,
a bool is no number, bounds apply to numbers and lengths to strings, counted in code points);
any other schema, or a value of a type other than the plain JSON ones, is left to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from whileai_env._util.identity import by_identity

#: Keywords that assert nothing (draft 2020-12 ignores them, and the unknown OpenAPI ones).
_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "examples",
        "example",
        "default",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "nullable",
    }
)
_LENGTHS = ("minLength", "maxLength")
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_HANDLED = _ANNOTATIONS | {"type", *_LENGTHS, *_BOUNDS}
#: The types of values this check reads; anything else goes to ``jsonschema``.
PLAIN_TYPES = frozenset({str, int, float, bool, type(None), dict, list})
_TYPE_OF = {str: "string", bool: "boolean", type(None): "null", dict: "object", list: "array"}


def _types(value: Any) -> tuple[str, ...]:
    """The JSON types ``value`` (of a plain type) belongs to."""
    kind = type(value)
    if kind is int:
        return ("integer", "number")
    if kind is float:
        return ("integer", "number") if value.is_integer() else ("number",)
    return (_TYPE_OF[kind],)


def _number(x: Any) -> bool:
    return type(x) in (int, float)


@by_identity()
def simple_check(schema: Mapping[str, Any]) -> Callable[[Any], bool] | None:
    """A predicate equal to validating against ``schema`` for values of :data:`PLAIN_TYPES`,
    or ``None`` when ``schema`` holds anything this module does not read.

    >>> check = simple_check({"type": "string", "maxLength": 3})
    >>> check("abc"), check("abcd"), check(3)
    (True, False, False)
    >>> simple_check({"type": "string", "format": "date"}) is None
    True
    """
    if not isinstance(schema, Mapping) or not set(schema) <= _HANDLED:
        return None
    declared = schema.get("type")
    known = {"string", "integer", "number", "boolean", "null", "object", "array"}
    if declared is None:
        types = None
    elif isinstance(declared, str) and declared in known:
        types = frozenset({declared})
    elif (
        isinstance(declared, list)
        and declared
        and all(isinstance(t, str) and t in known for t in declared)
        and len(set(declared)) == len(declared)
    ):
        types = frozenset(declared)
    else:
        return None
    lengths = [schema.get(k) for k in _LENGTHS]
    bounds = [schema.get(k) for k in _BOUNDS]
    if any(n is not None and (type(n) is not int or n < 0) for n in lengths):
        return None
    if any(b is not None and not _number(b) for b in bounds):
        return None
    low_len, high_len = lengths
    low, high, above, below = bounds

    def check(value: Any) -> bool:
        if types is not None and types.isdisjoint(_types(value)):
            return False
        if type(value) is str:
            size = len(value)
            return (low_len is None or size >= low_len) and (high_len is None or size <= high_len)
        if _number(value):  # written as jsonschema fails a bound, so NaN passes as it does there
            return not (
                (low is not None and value < low)
                or (high is not None and value > high)
                or (above is not None and value <= above)
                or (below is not None and value >= below)
            )
        return True

    return check
