"""Argument schemas no value can satisfy, or that name a field they never describe.

A spec loads when its schemas are valid JSON Schema, but valid is not satisfiable: ``enum: []``,
``minimum`` above ``maximum``, ``minLength`` above ``maxLength``, a ``required`` name that no
property declares while ``additionalProperties`` is false. The world answers every call of such
a tool ``rejected``, so no agent (the oracle included) can do a task that needs it. A required
name no property declares where others are declared is satisfiable but almost surely a typo
(``"required": ["contnet"]`` beside ``content``): tasks are built around a field nobody
describes. ``check-spec`` names each one by tool and argument path.

>>> schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1},
...           "mode": {"enum": []}}, "required": ["n", "cc"], "additionalProperties": False}
>>> for line in unsatisfiable("t", schema): print(line)
t.cc: required, but no such property is declared and additionalProperties is false
t.n: minimum 5 is above maximum 1
t.mode: enum is empty
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

_BOUNDS = (
    ("minimum", "maximum"),
    ("exclusiveMinimum", "exclusiveMaximum"),
    ("minLength", "maxLength"),
    ("minItems", "maxItems"),
    ("minProperties", "maxProperties"),
)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _own(path: str, schema: Mapping[str, Any]) -> Iterator[str]:
    """The problems of ``schema`` itself, not of its parts."""
    if "enum" in schema and isinstance(schema["enum"], list) and not schema["enum"]:
        yield f"{path}: enum is empty"
    for low, high in _BOUNDS:
        a, b = _number(schema.get(low)), _number(schema.get(high))
        if a is not None and b is not None and a > b:
            yield f"{path}: {low} {schema[low]:g} is above {high} {schema[high]:g}"
    lo, hi = _number(schema.get("minimum")), _number(schema.get("exclusiveMaximum"))
    if lo is not None and hi is not None and lo >= hi:
        yield f"{path}: minimum {lo:g} is not below exclusiveMaximum {hi:g}"
    props = schema.get("properties")
    props = props if isinstance(props, Mapping) else {}
    closed = schema.get("additionalProperties") is False
    for name in schema.get("required") or ():
        if isinstance(name, str) and name not in props and (closed or props):
            yield (
                f"{path}.{name}: required, but no such property is declared and "
                "additionalProperties is false"
                if closed
                else f"{path}.{name}: required, but no property declares it (a typo?): every call "
                "must carry a field the schema says nothing about"
            )


def unsatisfiable(tool: str, schema: Any, path: str | None = None) -> Iterator[str]:
    """One line per part of ``schema`` (a tool's parameters) that no value can satisfy, named
    ``tool.argument`` (``tool.items[].field`` inside an array)."""
    if not isinstance(schema, Mapping):
        return
    here = path or tool
    yield from _own(here, schema)
    props = schema.get("properties")
    for name, sub in props.items() if isinstance(props, Mapping) else ():
        yield from unsatisfiable(tool, sub, f"{here}.{name}")
    items = schema.get("items")
    if isinstance(items, Mapping):
        yield from unsatisfiable(tool, items, f"{here}[]")
