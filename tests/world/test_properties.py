"""Property tests over every tool of every example spec (globbed at test time).

Valid arguments (drawn from the tool's own schema by hypothesis-jsonschema) give a
JSON-serialisable result, never raise, and are never rejected by the schema check (only a
placeholder or an index out of range may be refused). Invalid arguments (one field broken on
purpose) are ``rejected`` naming that field. Garbage of any shape never raises.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import whileai_env as wenv
from whileai_env._util.frozen import thaw

from .conftest import load_examples

SPECS = load_examples()
TOOLS = [(name, tool.name) for name, spec in SPECS.items() for tool in spec.tools]
CODES = {
    "rejected",
    "unknown_tool",
    "not_found",
    "already_done",
    "timeout",
    "permission_denied",
    "rate_limited",
    "server_error",
    "execute_error",
}
SETTINGS = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def _world(spec_name: str, seed: int = 0) -> wenv.World:
    return wenv.World(SPECS[spec_name], seed=seed)


_STRATEGIES: dict[tuple[str, str], st.SearchStrategy[dict[str, Any]]] = {}


def _narrow(node: Any, root: dict[str, Any]) -> Any:
    """The schema with local ``$ref``s inlined and arrays capped at 3 items: every instance of it
    is an instance of the original, and hypothesis-jsonschema draws from it ten times faster."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            target: Any = root
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return _narrow({**target, **{k: v for k, v in node.items() if k != "$ref"}}, root)
        out = {k: _narrow(v, root) for k, v in node.items() if k not in ("$defs", "definitions")}
        if out.get("type") == "array" or "items" in out:
            out["maxItems"] = min(out.get("maxItems", 3), 3)
        return out
    if isinstance(node, list):
        return [_narrow(v, root) for v in node]
    return node


def _strategy(spec_name: str, tool_name: str) -> st.SearchStrategy[dict[str, Any]]:
    key = (spec_name, tool_name)
    if key not in _STRATEGIES:
        schema = thaw(SPECS[spec_name].tool(tool_name).parameters)
        _STRATEGIES[key] = from_schema(_narrow(schema, schema))
    return _STRATEGIES[key]


def _assert_well_formed(world: wenv.World, result: Any) -> None:
    assert isinstance(result, dict)
    json.dumps(result, allow_nan=False)
    assert result["status"] in ("ok", "error")
    if result["status"] == "error":
        assert result["error"]["code"] in CODES
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]
    assert world.internal_errors == [], world.internal_errors
    step = world.ledger[-1]
    json.dumps(step, allow_nan=False)
    assert step["result"] is result


@pytest.mark.parametrize(("spec_name", "tool_name"), TOOLS)
@SETTINGS
@given(data=st.data())
def test_valid_arguments_answer_and_never_fail_the_schema(
    spec_name: str, tool_name: str, data: st.DataObject
) -> None:
    arguments = data.draw(_strategy(spec_name, tool_name))
    world = _world(spec_name, seed=data.draw(st.integers(0, 3)))
    result = world.call(tool_name, SPECS[spec_name].tool(tool_name).sent(arguments))
    _assert_well_formed(world, result)
    if result["status"] == "error":
        error = result["error"]
        assert error["code"] != "server_error"
        if error["code"] == "rejected":
            assert error["problem"] in ("placeholder", "out_of_range", "invalid", "missing"), error
            if error["problem"] == "missing":
                assert tool_name == "calculate" or world._profile.tools[tool_name].family in (
                    "calculator",
                    "shell",
                    "file",
                )


def _mutations(spec_name: str, tool_name: str) -> list[tuple[str, str]]:
    """(kind, field) pairs this tool's schema lets us break in exactly one place."""
    tool = SPECS[spec_name].tool(tool_name)
    out = [("drop", name) for name in tool.required]
    for name, schema in tool.properties.items():
        if not isinstance(schema, dict) or any(
            k in schema for k in ("anyOf", "oneOf", "allOf", "$ref", "not")
        ):
            continue
        declared = schema.get("type")
        if isinstance(declared, str) and declared != "null":
            out.append(("type", name))
        if isinstance(schema.get("enum"), list) and all(isinstance(e, str) for e in schema["enum"]):
            out.append(("enum", name))
        if declared in ("integer", "number") and any(
            k in schema for k in ("minimum", "maximum", "exclusiveMinimum")
        ):
            out.append(("range", name))
    return out


def _break(
    arguments: dict[str, Any], kind: str, name: str, schema: dict[str, Any]
) -> dict[str, Any]:
    broken = dict(arguments)
    if kind == "drop":
        broken.pop(name, None)
    elif kind == "type":
        wrong = {
            "string": 12345,
            "integer": "twelve",
            "number": "twelve",
            "boolean": "yes",
            "array": "a, b",
            "object": "not an object",
        }
        broken[name] = wrong[schema["type"]]
    elif kind == "enum":
        broken[name] = "definitely-not-an-option"
    else:
        if "minimum" in schema:
            broken[name] = schema["minimum"] - 1
        elif "exclusiveMinimum" in schema:
            broken[name] = schema["exclusiveMinimum"]
        else:
            broken[name] = schema["maximum"] + 1
    return broken


BREAKABLE = [(s, t) for s, t in TOOLS if _mutations(s, t)]


@pytest.mark.parametrize(("spec_name", "tool_name"), BREAKABLE)
@SETTINGS
@given(data=st.data())
def test_invalid_arguments_are_rejected_naming_the_field(
    spec_name: str, tool_name: str, data: st.DataObject
) -> None:
    arguments = data.draw(_strategy(spec_name, tool_name))
    kind, name = data.draw(st.sampled_from(_mutations(spec_name, tool_name)))
    schema = thaw(SPECS[spec_name].tool(tool_name).properties.get(name, {}))
    broken = _break(arguments, kind, name, schema)
    world = _world(spec_name)
    tool = SPECS[spec_name].tool(tool_name)
    result = world.call(tool_name, tool.sent(broken))
    _assert_well_formed(world, result)
    assert result["status"] == "error", (kind, name, broken, result)
    assert result["error"]["code"] == "rejected"
    # a wrapped field is named by its path from the argument that wraps it (``incident.title``)
    wrapped = f"{tool.envelope}.{name}" if tool.envelope else name
    assert result["error"]["field"] == wrapped, (kind, broken, result)
    assert name in result["error"]["message"]
    assert world.ledger[-1]["error"] == "rejected"


class Odd:
    def __repr__(self) -> str:
        return "<Odd>"


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.binary(max_size=8),
    st.just(Odd()),
    st.just(math.nan),
    st.sets(st.integers(), max_size=2),
)
_GARBAGE = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers()), inner, max_size=4),
        st.tuples(inner, inner),
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("spec_name", sorted(SPECS))
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_garbage_never_raises(spec_name: str, data: st.DataObject) -> None:
    spec = SPECS[spec_name]
    name = data.draw(
        st.one_of(
            st.sampled_from(spec.tool_names),
            st.text(max_size=12),
            st.none(),
            st.integers(),
            st.just(Odd()),
        )
    )
    arguments = data.draw(
        st.one_of(
            _GARBAGE,
            st.text(max_size=40),
            st.just('{"a": [1, 2'),
            st.just("[1, 2]"),
            st.dictionaries(st.sampled_from(list(spec.tools[0].properties) or ["x"]), _GARBAGE),
        )
    )
    world = wenv.World(spec)
    result = world.call(name, arguments, turn=data.draw(st.integers(0, 5)))
    _assert_well_formed(world, result)
    assert len(world.ledger) == 1
    if not isinstance(name, str) or name not in spec.tool_names:
        assert result["error"]["code"] == "unknown_tool"
