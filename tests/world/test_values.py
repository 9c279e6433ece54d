"""The defects of issue 10, each reproduced with an inline spec: values fit the schema and the field."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3

import jsonschema
import pytest

import whileai_env as wenv
from whileai_env.world.arguments import DETAIL_CLOCK, detail_value, locator_value
from whileai_env.world.entity_ids import id_conflicts
from whileai_env.world.validation import find_placeholder

CLOCK = dt.datetime.fromtimestamp(DETAIL_CLOCK, dt.UTC).date()


def _all(fn, name, schema, n=40, **kw):
    return [fn(name, schema, "t", i, **kw) for i in range(n)]


def test_locators_follow_pattern_format_and_array_types():
    assert all(
        re.fullmatch(r"ORD-\d{6}", v)
        for v in _all(locator_value, "order_id", {"type": "string", "pattern": r"^ORD-\d{6}$"})
    )
    assert all(
        re.fullmatch(r"[A-Z]{2}", v)
        for v in _all(locator_value, "country", {"type": "string", "pattern": "^[A-Z]{2}$"})
    )
    assert all(
        v.startswith("/") for v in _all(locator_value, "path", {"type": "string", "pattern": "^/"})
    )
    ids = _all(
        locator_value, "item_ids", {"type": "array", "items": {"type": "string"}, "minItems": 1}
    )
    assert all(isinstance(v, list) and v and all(isinstance(x, str) for x in v) for v in ids)
    uuids = _all(locator_value, "user_id", {"type": "string", "format": "uuid"})
    assert all(
        re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", v)
        for v in uuids
    )


def test_an_example_in_the_description_shapes_the_id():
    values = _all(
        locator_value,
        "reservation_id",
        {"type": "string", "description": "The reservation ID, such as 'ZFA04Y'"},
    )
    assert all(re.fullmatch(r"ZFA\d\d[A-Z]", v) for v in values)
    assert len(set(values)) > 30


def test_people_are_people_and_one_person_per_task():
    first = detail_value("first_name", {"type": "string"}, "t", 1, person=("task", 1))
    last = detail_value("last_name", {"type": "string"}, "t", 2, person=("task", 1))
    email = detail_value("email", {"type": "string", "format": "email"}, "t", 3, person=("task", 1))
    assert first.isalpha() or " " in first or "-" in first
    assert "follow" not in first.lower() and "report" not in last.lower()
    local = email.split("@")[0]
    assert local.replace(".", "").isalnum() and len(local) > 2


def test_numbers_keep_bounds_exclusive_bounds_and_multiple_of():
    temps = _all(detail_value, "target_celsius", {"type": "number", "maximum": 32})
    assert all(t <= 32 for t in temps) and all(t >= 10 for t in temps)
    amounts = _all(
        detail_value,
        "amount",
        {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": 0, "maximum": 500},
    )
    validator = jsonschema.Draft202012Validator(
        {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": 0, "maximum": 500}
    )
    assert all(validator.is_valid(a) for a in amounts)
    hinted = _all(
        detail_value,
        "temp",
        {"type": "integer", "description": "Target temperature, between 16 and 32"},
    )
    assert all(16 <= t <= 32 for t in hinted)


def test_description_hints_are_honoured():
    assert set(
        _all(
            detail_value, "cabin", {"type": "string", "description": "[Enum]: [economy, business]"}
        )
    ) <= {"economy", "business"}
    assert all(
        re.fullmatch(r"[A-Z]{3}", v)
        for v in _all(detail_value, "code", {"type": "string", "description": "ISO 4217 code"})
    )
    assert all(
        re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)
        for v in _all(detail_value, "when", {"type": "string", "description": "YYYY-MM-DD"})
    )
    reasons = set(
        _all(
            detail_value,
            "reason",
            {"type": "string", "description": "either 'no longer needed' or 'ordered by mistake'"},
        )
    )
    assert reasons <= {"no longer needed", "ordered by mistake"}


def test_dates_mean_what_the_field_means():
    departures = _all(detail_value, "departure_date", {"type": "string", "format": "date"})
    assert all(dt.date.fromisoformat(d) > CLOCK for d in departures)
    births = _all(detail_value, "date_of_birth", {"type": "string", "format": "date"})
    ages = [(CLOCK - dt.date.fromisoformat(b)).days / 365.25 for b in births]
    assert all(18 <= a <= 90 for a in ages)
    for i in range(20):
        start = detail_value(
            "start_date", {"type": "string", "format": "date"}, "t", i, writes=True
        )
        end = detail_value("end_date", {"type": "string", "format": "date"}, "t", i, writes=True)
        assert start < end
    times = _all(detail_value, "departure_time", {"type": "string"})
    assert all(re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", t) for t in times)


def test_argv_sql_and_no_filler():
    argvs = _all(detail_value, "argv", {"type": "array", "items": {"type": "string"}})
    assert all(
        v and v[0] in {"ls", "git", "pytest", "npm", "df", "cat", "grep", "python", "make", "du"}
        for v in argvs
    )
    spec = wenv.load_spec(
        {
            "system_prompt": "Answer questions about the orders and customers tables.",
            "tools": [
                {
                    "name": "run_query",
                    "parameters": {
                        "type": "object",
                        "properties": {"sql": {"type": "string"}},
                        "required": ["sql"],
                    },
                }
            ],
        }
    )
    db = sqlite3.connect(":memory:")
    db.executescript(
        "CREATE TABLE orders (id, status, created_at); CREATE TABLE customers (id, status, created_at);"
    )
    for i in range(10):
        query = detail_value("sql", {"type": "string"}, "t", i, spec=spec)
        db.execute(f"EXPLAIN {query}")
        assert re.search(r"\b(orders|customers)\b", query)
    filler = {"standard", "as discussed", "the usual one", "priority"}
    for name in ("owner", "city", "flavour", "notes", "title", "label"):
        assert not filler & set(_all(detail_value, name, {"type": "string"}, n=20)), name


def test_a_pattern_valid_id_is_not_a_placeholder_and_filler_never_is_drawn():
    props = {"code": {"type": "string", "pattern": "^[A-Z0-9]{6}$"}}
    assert find_placeholder({"code": "ABC123"}, props, lambda v: False, ("code",)) is None
    assert find_placeholder({"code": "<code>"}, props, lambda v: False, ("code",)) is not None


def _orders_spec(refund_pattern: str) -> wenv.Spec:
    def tool(name: str, pattern: str) -> dict:
        return {
            "name": name,
            "parameters": {
                "type": "object",
                "required": ["order_id"],
                "properties": {"order_id": {"type": "string", "pattern": pattern}},
            },
        }

    return wenv.load_spec(
        {"tools": [tool("get_order", r"^ORD-\d+$"), tool("refund_order", refund_pattern)]}
    )


def test_one_id_format_per_entity_type_across_the_spec():
    spec = _orders_spec(r"^[A-Z]{3}-\d{6}$")
    assert id_conflicts(spec) == []
    refund = jsonschema.Draft202012Validator(dict(spec.tool("refund_order").parameters))
    get = jsonschema.Draft202012Validator(dict(spec.tool("get_order").parameters))
    for task in wenv.draw_tasks(spec, 30, seed=2, fault_rate=0.0):
        value = task.world.entities.get("order_id")
        if value is not None:
            assert get.is_valid({"order_id": value}) and refund.is_valid({"order_id": value}), value


def test_check_spec_can_say_when_two_tools_disagree_on_an_id():
    conflicts = id_conflicts(_orders_spec(r"^\d+$"))
    assert (
        len(conflicts) == 1 and "order" in conflicts[0] and "refund_order.order_id" in conflicts[0]
    )


def test_values_are_deterministic():
    schema = {
        "type": "object",
        "properties": {"first_name": {"type": "string"}, "amount": {"type": "number"}},
    }
    assert detail_value("payload", schema, "t", 7) == detail_value("payload", schema, "t", 7)
    assert locator_value("order_id", {"type": "string"}, "t", 7) == locator_value(
        "order_id", {"type": "string"}, "t", 7
    )


def test_an_all_of_whose_part_is_a_union_draws_a_value_of_both():
    parts = [
        {"type": "string"},
        {"anyOf": [{"type": "string", "minLength": 3}, {"type": "null"}]},
    ]
    for i in range(4):
        value = locator_value("project_slug", {"allOf": parts}, i)
        assert all(jsonschema.Draft202012Validator(p).is_valid(value) for p in parts), value


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("fields", {"type": "object", "additionalProperties": {}}),
        ("custom_fields", {"type": "object"}),
        ("labels", {"type": "object", "additionalProperties": {"type": "string"}}),
        (
            "metadata",
            {"type": "object", "additionalProperties": {"type": "string", "maxLength": 40}},
        ),
    ],
)
def test_an_object_with_no_declared_fields_is_stated_with_one_that_fits(name, schema):
    """A record's ``fields`` of an update: something to change, never ``{}`` (an update of
    nothing, which a person could not ask for)."""
    for seed in range(10):
        value = detail_value(name, schema, seed, writes=True)
        assert isinstance(value, dict) and len(value) == 1, value
        assert jsonschema.Draft202012Validator(schema).is_valid(value), value


def test_an_object_that_refuses_entries_stays_empty():
    for schema in (
        {"type": "object", "maxProperties": 0},
        {"type": "object", "additionalProperties": False},
        {"type": "object", "propertyNames": {"pattern": "^[A-Z]+$"}},
    ):
        assert detail_value("fields", schema, 1) == {}
