"""Argument checks: the compiled fast path agrees with jsonschema; JSON cleaning; placeholders."""

from __future__ import annotations

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env._util.frozen import thaw
from whileai_env.world.arguments import locator_value
from whileai_env.world.validation import (
    FORMAT_CHECKER,
    ArgumentShapeError,
    clean_arguments,
    compile_check,
    find_placeholder,
)

from .conftest import load_examples

HAND_MADE = [
    {
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 9}},
        "required": ["n"],
    },
    {
        "type": "object",
        "properties": {
            "x": {"type": "number", "exclusiveMinimum": 0},
            "s": {"type": "string", "maxLength": 3},
        },
    },
    {
        "type": "object",
        "properties": {"e": {"enum": ["a", "b"]}, "i": {"enum": [1, 2]}},
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    },
    {
        "type": "object",
        "properties": {
            "d": {"type": "string", "format": "date"},
            "t": {"type": "string", "format": "date-time"},
        },
    },
    {"type": "object", "properties": {"v": {"type": ["string", "null"], "pattern": "^[A-Z]{3}$"}}},
    {"type": "object", "additionalProperties": {"type": "integer"}},
]
SCHEMAS = HAND_MADE + [thaw(t.parameters) for spec in load_examples().values() for t in spec.tools]
COMPILED = [(s, compile_check(s)) for s in SCHEMAS]
COMPILED = [(s, c) for s, c in COMPILED if c is not None]

_JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-20, 20),
        st.floats(-20, 20, allow_nan=False),
        st.sampled_from(
            [
                "",
                "a",
                "ABC",
                "abcd",
                "2026-12-01",
                "2026-12-01T09:00:00Z",
                "2026-02-30",
                "x@y.z",
                "open",
                "a",
                1.0,
            ]
        ),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "n",
                    "x",
                    "s",
                    "e",
                    "i",
                    "tags",
                    "d",
                    "t",
                    "v",
                    "order_id",
                    "amount",
                    "status",
                    "extra",
                ]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=8,
)


def test_most_real_schemas_take_the_fast_path():
    assert len(COMPILED) >= len(SCHEMAS) * 0.6


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    index=st.integers(min_value=0),
    instance=st.dictionaries(
        st.sampled_from(
            [
                "n",
                "x",
                "s",
                "e",
                "i",
                "tags",
                "d",
                "t",
                "v",
                "order_id",
                "amount",
                "status",
                "limit",
                "path",
                "extra",
            ]
        ),
        _JSON,
        max_size=5,
    ),
)
def test_fast_path_agrees_with_jsonschema(index, instance):
    schema, check = COMPILED[index % len(COMPILED)]
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=FORMAT_CHECKER)
    assert check(instance) == validator.is_valid(instance), (schema, instance)


def test_clean_arguments():
    assert (
        clean_arguments(None) == {}
        and clean_arguments("") == {}
        and clean_arguments('{"a": 1}') == {"a": 1}
    )
    original = {"a": [1, {"b": "c"}]}
    copy = clean_arguments(original)
    assert copy == original and copy["a"] is not original["a"]
    for bad, field in (
        ([1], "arguments"),
        ("nope", "arguments"),
        ({"a": float("inf")}, "a"),
        ({"a": {1: 2}}, "a"),
        ({"a": [object()]}, "a[0]"),
        (b"\xff", "arguments"),
    ):
        with pytest.raises(ArgumentShapeError) as info:
            clean_arguments(bad)
        assert info.value.field == field
    deep: dict = {}
    node = deep
    for _ in range(100):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(ArgumentShapeError):
        clean_arguments(deep)


@pytest.mark.parametrize(
    "value",
    [
        "<order id>",
        "{order_id}",
        "[customer name]",
        "ORDER_ID",
        "your_order_id",
        "enter email",
        "string",
        "xxx",
        "XXXX-XXXX",
        "TBD",
        "n/a",
        "first name",
        "123",
        "12345",
        "abc123",
        "order id",
        "x@example.com",
        "user@example.com",
        "john.doe@test.com",
        "...",
        123,
        0,
    ],
)
def test_placeholders_are_found(value):
    found = find_placeholder(
        {"order_id": value}, {"order_id": {"type": "string"}}, lambda v: False, ("order_id",)
    )
    assert found is not None and found["field"] == "order_id" and found["problem"] == "placeholder"


def test_realistic_values_are_not_placeholders():
    for i in range(300):
        for name in (
            "order_id",
            "ticket_id",
            "user_id",
            "customer_email",
            "path",
            "flight_number",
            "sku",
        ):
            value = locator_value(name, {"type": "string"}, "placeholder-test", i)
            assert find_placeholder({name: value}, {}, lambda v: False, (name,)) is None, (
                name,
                value,
            )
    for text in (
        "it arrived damaged",
        "Please refund my order",
        "2026-12-01",
        "Dana Kim",
        "pytest -q",
    ):
        assert find_placeholder({"reason": text}, {}, lambda v: False, ()) is None


def test_known_values_and_enum_members_are_exempt():
    assert find_placeholder({"order_id": "1234"}, {}, lambda v: v == "1234", ("order_id",)) is None
    schema = {"status": {"enum": ["TBD", "open"]}}
    assert find_placeholder({"status": "TBD"}, schema, lambda v: False, ()) is None
    nested = find_placeholder({"address": {"line1": "<street>"}}, {}, lambda v: False, ())
    assert nested["field"] == "address.line1"


@pytest.mark.parametrize("name", ["Status", "state", "task_stage"])
def test_a_board_stage_is_a_status_not_a_placeholder(name):
    schema = {name: {"type": "string"}}
    assert find_placeholder({name: "Todo"}, schema, lambda v: False, ()) is None
    assert find_placeholder({name: "TBD"}, schema, lambda v: False, ()) is None
    found = find_placeholder({"text": "TODO"}, {"text": {"type": "string"}}, lambda v: False, ())
    assert found is not None and found["problem"] == "placeholder"


def test_a_blank_id_names_no_record():
    """A user's PagerDuty spec: ``get_incident(incident_id="")`` answered ok with a whole
    record whose id was ``""``."""
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get_incident",
                "description": "Get an incident.",
                "parameters": {
                    "type": "object",
                    "properties": {"incident_id": {"type": "string"}},
                    "required": ["incident_id"],
                },
            }
        ]
    )
    world = wenv.World(spec, seed=0, options={"exists_share": 1.0})
    for blank in ("", "   "):
        result = world.call("get_incident", {"incident_id": blank})
        assert result["status"] == "error" and result["error"]["field"] == "incident_id", result
    assert world.call("get_incident", {"incident_id": "INC100001"})["status"] == "ok"
