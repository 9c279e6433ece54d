"""Every value the package draws for a schema validates against it (hypothesis-generated schemas).

Schemas come from a hypothesis strategy over the keywords real tool specs use: ``pattern``
(realistic ones and generated classes with repetition bounds), ``format``, numeric bounds with
exclusive forms and ``multipleOf``, string lengths, nested arrays (``minItems``/``maxItems``/
``uniqueItems``) and objects (``required``, ``additionalProperties: false``), ``enum``/``const``,
``oneOf``/``anyOf``/``allOf``, type lists with ``null``, ``default``/``examples`` and description
hints. Each drawn value (a detail, a locator and an output-schema value with no hint) is checked
independently of the package: ``jsonschema``'s Draft 2020-12 validator with its own format
checker (the ``format-nongpl`` extra checks date-time, time, uri and hostname).
"""

from __future__ import annotations

import random
import re

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whileai_env.world.arguments import detail_value, locator_value
from whileai_env.world.synth import synth

CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NAMES = (
    "order_id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "city",
    "country",
    "currency",
    "amount",
    "target_celsius",
    "departure_time",
    "date_of_birth",
    "start_date",
    "end_date",
    "argv",
    "query",
    "table",
    "path",
    "repo",
    "owner",
    "reason",
    "title",
    "body",
    "item_ids",
    "passengers",
    "quantity",
    "limit",
    "code",
    "status",
    "notes",
    "zip",
    "airport",
    "timezone",
    "url",
    "x",
    "flavour",
    "seed_ids",
)
PATTERNS = (
    r"^ORD-\d{6}$",
    r"^[A-Z]{2}$",
    r"^/",
    r"^[A-Z0-9]{6}$",
    r"^\+[1-9]\d{1,14}$",
    r"^[a-z][a-z0-9_]{2,15}$",
    r"^\d{4}-\d{2}-\d{2}$",
    r"^(?:[01]\d|2[0-3]):[0-5]\d$",
    r"^[A-Z]{3}$",
    r"^#W\d{7}$",
    r"^[a-f0-9]{40}$",
    r"^(asc|desc)$",
    r"^\d+(\.\d{1,2})?$",
    r"^[\w.-]+@[\w-]+\.[a-z]{2,}$",
    r"^https?://",
    r"^[^\s]+$",
    r"^(?!test)[a-z]{4,8}$",
    r"^[A-Z][a-z]+( [A-Z][a-z]+)*$",
    r"\d{3}",
    r"^v\d+\.\d+\.\d+$",
)
FORMATS = (
    "date",
    "date-time",
    "time",
    "email",
    "uri",
    "uuid",
    "ipv4",
    "ipv6",
    "hostname",
    "duration",
)
HINTS = (
    "",
    "Number of results (1-20, default 5)",
    "[Enum]: [economy, business]",
    "between 16 and 32",
    "Three-letter ISO 4217 currency code",
    "in the format YYYY-MM-DD",
    "e.g. 'HAT001'",
    "such as '#W0000000'",
    "either 'no longer needed' or 'ordered by mistake'",
    "(max 12 chars)",
    "ISO 3166 country code",
    "IATA airport code",
    "E.164 phone number",
    "at most 50",
)


@st.composite
def _class_pattern(draw: st.DrawFn) -> str:
    cls = draw(st.sampled_from((r"[A-Z]", r"[a-z0-9]", r"\d", r"[A-F0-9]", r"\w", r"[a-z]")))
    low = draw(st.integers(0, 4))
    high = draw(st.integers(low, low + 6))
    prefix = draw(st.sampled_from(("", "ID-", "#", "u_", "X")))
    return f"^{re.escape(prefix)}{cls}{{{low},{high}}}$"


def _strings() -> st.SearchStrategy[dict]:
    patterned = st.fixed_dictionaries(
        {
            "type": st.just("string"),
            "pattern": st.one_of(st.sampled_from(PATTERNS), _class_pattern()),
        },
        optional={"maxLength": st.integers(40, 60), "description": st.sampled_from(HINTS)},
    )
    sized = st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "minLength": st.integers(0, 4),
            "maxLength": st.integers(6, 40),
            "description": st.sampled_from(HINTS),
        },
    )
    base = st.one_of(patterned, sized)
    formatted = st.fixed_dictionaries(
        {"type": st.just("string"), "format": st.sampled_from(FORMATS)},
        optional={"description": st.sampled_from(HINTS)},
    )
    enum = st.fixed_dictionaries(
        {
            "enum": st.lists(
                st.sampled_from(("a", "b", "economy", 3, None, "x-1")),
                min_size=1,
                max_size=4,
                unique=True,
            )
        }
    )
    return st.one_of(
        base,
        formatted,
        enum,
        st.builds(lambda v: {"const": v}, st.sampled_from(("fixed", 7, True))),
    )


@st.composite
def _numbers(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(("integer", "number")))
    schema: dict = {"type": kind}
    low = draw(st.one_of(st.none(), st.integers(-50, 500)))
    span = draw(st.integers(40, 5000))  # room for a multiple between exclusive bounds
    if low is not None:
        schema["exclusiveMinimum" if draw(st.booleans()) else "minimum"] = low
    if draw(st.booleans()):
        high = (low if low is not None else 0) + span
        schema["exclusiveMaximum" if draw(st.booleans()) else "maximum"] = high
    if draw(st.booleans()):
        schema["multipleOf"] = draw(
            st.sampled_from(
                (0.01, 0.5, 0.25, 5, 3, 0.1, 2.5) if kind == "number" else (1, 2, 5, 10)
            )
        )
    if draw(st.booleans()):
        schema["description"] = draw(st.sampled_from(HINTS))
    return schema


_TYPED = {
    "string": st.fixed_dictionaries(
        {"type": st.just("string")}, optional={"format": st.sampled_from(FORMATS)}
    ),
    "number": st.builds(lambda s: {**s, "type": "number"}, st.just({"minimum": 0, "maximum": 100})),
    "boolean": st.just({"type": "boolean"}),
    "null": st.just({"type": "null"}),
    "array": st.just({"type": "array", "items": {"type": "string"}, "maxItems": 2}),
    "object": st.just(
        {
            "type": "object",
            "properties": {"first_name": {"type": "string"}},
            "required": ["first_name"],
        }
    ),
}


def _leaves() -> st.SearchStrategy[dict]:
    return st.one_of(
        _strings(),
        _numbers(),
        st.just({"type": "boolean"}),
        st.just({}),
        st.builds(lambda t: {"type": [t, "null"]}, st.sampled_from(("string", "integer"))),
    )


def _extend(children: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:
    array = st.builds(
        lambda items, low, extra, unique: {
            "type": "array",
            "items": items,
            "minItems": low,
            "maxItems": low + extra,
            "uniqueItems": unique and low <= 1,
        },
        children,
        st.integers(0, 2),
        st.integers(0, 3),
        st.booleans(),
    )
    obj = st.dictionaries(st.sampled_from(NAMES), children, min_size=1, max_size=4).flatmap(
        lambda props: st.builds(
            lambda req, closed: {
                "type": "object",
                "properties": props,
                "required": req,
                "additionalProperties": not closed,
            },
            st.lists(st.sampled_from(sorted(props)), unique=True),
            st.booleans(),
        )
    )
    any_of = st.builds(
        lambda branches: {"anyOf": branches}, st.lists(children, min_size=1, max_size=3)
    )
    # oneOf branches of distinct JSON types, so some value meets exactly one
    one_of = st.lists(st.sampled_from(sorted(_TYPED)), min_size=1, max_size=3, unique=True).flatmap(
        lambda kinds: st.tuples(*(_TYPED[k] for k in kinds)).map(lambda bs: {"oneOf": list(bs)})
    )
    all_of = st.builds(
        lambda a: {"allOf": [{"type": "string"}, a]},
        st.sampled_from(({"minLength": 3}, {"maxLength": 12}, {"pattern": "^[a-z]"})),
    )
    return st.one_of(array, obj, any_of, one_of, all_of)


SCHEMAS = st.recursive(_leaves(), _extend, max_leaves=6)


def _check(schema: dict, value: object) -> None:
    errors = list(
        jsonschema.Draft202012Validator(schema, format_checker=CHECKER).iter_errors(value)
    )
    assert not errors, f"{value!r} fails {schema}: {errors[0].message}"


def test_the_independent_checker_checks_the_formats_we_draw():
    assert {"date-time", "time", "uri", "hostname", "email", "uuid", "ipv4", "date"} <= set(
        CHECKER.checkers
    ), "install jsonschema[format-nongpl] (the dev extra) so the checker reads every format"


@SETTINGS
@given(schema=SCHEMAS, name=st.sampled_from(NAMES), seed=st.integers(0, 10**6))
def test_every_drawn_value_validates(schema, name, seed):
    _check(schema, detail_value(name, schema, seed))
    _check(schema, locator_value(name, schema, seed))
    _check(schema, synth(schema, None, random.Random(seed), now=1_796_040_000, name=name))


@SETTINGS
@given(schema=SCHEMAS, seed=st.integers(0, 10**6))
def test_values_are_a_function_of_their_seed(schema, seed):
    assert detail_value("amount", schema, seed) == detail_value("amount", schema, seed)
    assert locator_value("order_id", schema, seed) == locator_value("order_id", schema, seed)
