"""Checks that keep a hostile or careless spec from hurting the process that loads it.

Run by :mod:`whileai_env.spec.load` on every tool, after the JSON Schema itself is known valid:

- :func:`plain_tool` — the tool is plain JSON (string keys, JSON types, bounded nesting and
  size); YAML's unquoted ``1``/``yes``/dates as keys are the usual way to fail it;
- :func:`check_ref_cycles` — no ``$ref`` cycle that never reaches a value (``a -> b -> a``
  through ``$ref``/``allOf``/``anyOf``/``oneOf``/``not``/``if``…): every validator loops on one.
  A recursive schema that descends first (a tree: ``children.items.$ref = #``) is fine;
- :func:`check_enums` — no ``enum`` of more than :data:`MAX_ENUM` values (a model cannot read
  it in its tool list);
- :func:`pattern_warnings` — ``pattern``s whose shape makes backtracking exponential
  (``^(a+)+$``) are *warnings*, not errors: arguments are matched in linear time here
  (:mod:`whileai_env._util.regex_safety`), and such patterns are common in real specs, so the
  spec loads and ``check-spec`` names the pattern for its author to fix. A risky pattern that
  also has no linear-time matcher (a back-reference, a lookaround) is a ``SpecError``;
- :func:`check_reserved_name` — a tool may not be named like a reserved value of the grid's tool
  axis (``unrelated``, ``multi_tool``), or its cells would be read as that value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from whileai_env._util.bounded_json import JsonLimitError, to_plain
from whileai_env._util.regex_safety import linear_supported, pattern_risk
from whileai_env.errors import SpecError
from whileai_env.scenarios.axes import RESERVED_TOOL_VALUES
from whileai_env.spec.yaml_reading import MAX_DEPTH

#: Most values in one ``enum``: the world merges and draws one in linear time (a 30-row run on
#: a 100,000-value enum takes about a second of CPU, docs/reliability.md).
MAX_ENUM = 100_000
#: Most values and characters in one tool (the biggest real MCP tools are a few thousand).
MAX_TOOL_ITEMS = 2_000_000
_DATA_KEYS = ("enum", "const", "default", "examples")
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_YAML_HINT = (
    "; YAML reads an unquoted 1, yes, no, on, off or a date as a number, boolean or date: quote it"
)


class SpecWarning(UserWarning):
    """Something in a spec that loads but that its author should fix (a catastrophic pattern)."""


def tool_label(item: Any) -> str | None:
    """The name a raw tool item gives itself, if it is readable (for error messages)."""
    try:
        body = item.get("function") if isinstance(item.get("function"), Mapping) else item
        name = body.get("name")
    except Exception:
        return None
    return name if isinstance(name, str) and len(name) <= 200 else None


def plain_tool(item: Any, index: int, source: str | None) -> Any:
    """``item`` as plain JSON, or ``SpecError`` naming the tool and the JSON path that is not."""
    try:
        return to_plain(item, max_depth=MAX_DEPTH, max_items=MAX_TOOL_ITEMS, bytes_as_text=False)
    except JsonLimitError as exc:
        hint = _YAML_HINT if source and source.lower().endswith((".yaml", ".yml")) else ""
        path = f"$.{exc.path}" if exc.path else "$"
        raise SpecError(
            f"{exc.reason}{hint}",
            tool=tool_label(item) or f"tools[{index}]",
            path=path,
            source=source,
        ) from None
    except RecursionError:
        raise SpecError(
            "nested too deeply to read", tool=tool_label(item) or f"tools[{index}]", source=source
        ) from None


def check_reserved_name(name: str, path: str, source: str | None) -> None:
    """``SpecError`` when a tool name is one of the grid's reserved tool-axis values."""
    if name in RESERVED_TOOL_VALUES:
        raise SpecError(
            f"the name {name!r} is reserved: the coverage grid uses it for tasks that are "
            f"not about one tool ({', '.join(RESERVED_TOOL_VALUES)}); rename the tool",
            tool=name,
            path=path,
            source=source,
        )


# ---------------------------------------------------------------------------------------------
# Schema walking


def schema_nodes(node: Any, path: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every object in a schema with its JSON path, not entering ``enum``/``const``/``default``/
    ``examples`` (data, not schema). The schema is plain and depth-bounded already."""
    if isinstance(node, Mapping):
        yield path, node
        for key, value in node.items():
            if key not in _DATA_KEYS:
                yield from schema_nodes(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from schema_nodes(value, f"{path}[{i}]")


def resolve_pointer(root: Mapping, ref: str) -> Any:
    """What the local JSON pointer ``ref`` (``#/$defs/X``) names in ``root``; ``None`` if nothing."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    for part in ref[1:].lstrip("/").split("/") if ref[1:] else ():
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _in_place(node: Mapping, root: Mapping) -> Iterator[Any]:
    """The subschemas that apply to the *same* value as ``node`` (no descent into it)."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        yield resolve_pointer(root, ref)
    for key in _IN_PLACE_ONE:
        if isinstance(node.get(key), Mapping):
            yield node[key]
    for key in _IN_PLACE_MANY:
        if isinstance(node.get(key), list):
            yield from node[key]
    if isinstance(node.get("dependentSchemas"), Mapping):
        yield from node["dependentSchemas"].values()


def check_ref_cycles(schema: Mapping, tool: str, path: str, source: str | None) -> None:
    """``SpecError`` naming the chain of a ``$ref`` cycle that never reaches a value."""
    where = {id(node): p for p, node in schema_nodes(schema, path)}
    state: dict[int, int] = {}
    for start_path, start in schema_nodes(schema, path):
        if state.get(id(start)):
            continue
        chain = _cycle_from(start, schema, where, state)
        if chain:
            raise SpecError(
                f"$ref cycle that never reaches a value: {' -> '.join(chain)} "
                "(every validator loops on it)",
                tool=tool,
                path=start_path,
                source=source,
            )


def _cycle_from(
    start: Mapping, root: Mapping, where: dict[int, str], state: dict[int, int]
) -> list[str] | None:
    """Depth-first over in-place edges (iterative); the paths of a cycle when one is found."""
    stack: list[tuple[Mapping, Iterator[Any]]] = [(start, _in_place(start, root))]
    state[id(start)] = 1
    while stack:
        node, edges = stack[-1]
        child = next(edges, None)
        if child is None:
            state[id(node)] = 2
            stack.pop()
            continue
        if not isinstance(child, Mapping):
            continue
        mark = state.get(id(child))
        if mark == 1:
            chain = [where.get(id(n), "?") for n, _ in stack]
            again = where.get(id(child), "?")
            return [*chain[chain.index(again) :], again]
        if mark is None:
            state[id(child)] = 1
            stack.append((child, _in_place(child, root)))
    return None


def check_enums(schema: Mapping, tool: str, path: str, source: str | None) -> None:
    """``SpecError`` for an ``enum`` of more than :data:`MAX_ENUM` values."""
    for where, node in schema_nodes(schema, path):
        values = node.get("enum")
        if isinstance(values, list) and len(values) > MAX_ENUM:
            raise SpecError(
                f"an enum of {len(values):,} values (the limit is {MAX_ENUM:,}): a model cannot "
                "read it in its tool list; use a pattern, a format or a plain string",
                tool=tool,
                path=f"{where}.enum",
                source=source,
            )


def _patterns(schema: Mapping, path: str) -> Iterator[tuple[str, str]]:
    for where, node in schema_nodes(schema, path):
        if isinstance(node.get("pattern"), str):
            yield f"{where}.pattern", node["pattern"]
        if isinstance(node.get("patternProperties"), Mapping):
            for key in node["patternProperties"]:
                yield f"{where}.patternProperties", key


def pattern_warnings(schema: Mapping, tool: str, path: str, source: str | None) -> tuple[str, ...]:
    """One line per catastrophic pattern (file, tool, JSON path, why); ``SpecError`` for one that
    cannot be matched in linear time either."""
    out = []
    for where, pattern in _patterns(schema, path):
        try:
            risk = pattern_risk(pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            raise SpecError(
                f"invalid regular expression {pattern!r}: {exc}",
                tool=tool,
                path=where,
                source=source,
            ) from None
        if risk is None:
            continue
        if not linear_supported(pattern):
            raise SpecError(
                f"pattern {pattern!r} can take exponential time ({risk}) and uses a back-reference, "
                "lookaround or atomic group, so it cannot be matched safely; rewrite it",
                tool=tool,
                path=where,
                source=source,
            )
        message = (
            f"pattern {pattern!r} can take exponential time in a backtracking matcher ({risk}); "
            "arguments are matched in linear time here, but your real API may hang on it"
        )
        out.append(str(SpecError(message, tool=tool, path=where, source=source)))
    return tuple(out)
