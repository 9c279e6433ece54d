"""The fast check of simple schemas agrees with jsonschema on every schema it takes."""

from __future__ import annotations

import math

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.world.simple_schema import simple_check

_TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]

_numbers = st.one_of(
    st.integers(-1000, 1000), st.floats(-1e6, 1e6), st.sampled_from([0.5, 2.0, -0.0])
)
_schemas = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(
            st.sampled_from(_TYPES), st.lists(st.sampled_from(_TYPES), min_size=1, unique=True)
        ),
        "minLength": st.integers(0, 6),
        "maxLength": st.integers(0, 6),
        "minimum": _numbers,
        "maximum": _numbers,
        "exclusiveMinimum": _numbers,
        "exclusiveMaximum": _numbers,
        "description": st.text(max_size=5),
    },
)
_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2000, 2000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1.0, 3.0, -0.0, math.nan]),
    st.text(max_size=8),
    st.just({}),
    st.just([1]),
)


@settings(max_examples=600, deadline=None)
@given(_schemas, _values)
def test_agrees_with_jsonschema(schema, value):
    check = simple_check(schema)
    assert check is not None
    assert check(value) == jsonschema.Draft202012Validator(schema).is_valid(value)


def test_refuses_what_it_does_not_read():
    for schema in (
        {"type": "string", "format": "date"},
        {"type": "string", "pattern": "^a$"},
        {"enum": ["a"]},
        {"$ref": "#/$defs/x"},
        {"type": "str"},
        {"type": "string", "minLength": "3"},
        {"type": "integer", "minimum": True},
        {"$schema": "http://json-schema.org/draft-04/schema#", "type": "number"},
        {"type": "string", "x-vendor": 1},
    ):
        assert simple_check(schema) is None, schema
