"""A stored record holds what the spec says its fields may be (whileai_env/world/record_fields.py):
every field an output schema or a write's argument describes validates against that schema,
checked independently with ``jsonschema`` (Draft 2020-12 and its format checker), and still
means what the field means."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from tests.world.test_value_properties import SCHEMAS
from whileai_env.spec.arguments import argument_role
from whileai_env.world.naming import status_field

CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
#: Field names the order and ticket templates hold, so the schema meets a template's value.
ORDER_FIELDS = ("total", "currency", "created_at", "items", "customer_email", "status", "payment")
TICKET_FIELDS = ("priority", "subject", "assignee", "created_at", "state", "comments")


def _tools(noun: str, output: dict[str, Any], argument: tuple[str, dict[str, Any]]) -> list[dict]:
    key = {f"{noun}_id": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{5}$"}}
    name, schema = argument
    return [
        {
            "name": f"get_{noun}",
            "description": f"Get a {noun} by id.",
            "parameters": {"type": "object", "properties": key, "required": [f"{noun}_id"]},
            "outputSchema": output,
        },
        {
            "name": f"update_{noun}",
            "description": f"Change a {noun}.",
            "parameters": {
                "type": "object",
                "properties": {**key, name: schema},
                "required": [f"{noun}_id", name],
            },
        },
    ]


def _invalid(schema: dict[str, Any], value: Any) -> str | None:
    error = next(
        iter(jsonschema.Draft202012Validator(schema, format_checker=CHECKER).iter_errors(value)),
        None,
    )
    return None if error is None else f"{value!r} fails {schema}: {error.message}"


def _holds_a_word(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds or ())
    if schema.get("enum"):
        return all(isinstance(o, str) for o in schema["enum"] if o is not None)
    return not kinds or "string" in kinds


@st.composite
def _case(draw: st.DrawFn) -> tuple[str, dict[str, Any], tuple[str, dict[str, Any]]]:
    noun, names = draw(st.sampled_from((("order", ORDER_FIELDS), ("ticket", TICKET_FIELDS))))
    props = draw(st.dictionaries(st.sampled_from(names), SCHEMAS, min_size=1, max_size=4))
    # the argument sets another field (two unrelated random schemas on one field may admit nothing)
    others = [n for n in names if n not in props] or ["note"]
    argument = (draw(st.sampled_from(others)), draw(SCHEMAS))
    return noun, {"type": "object", "properties": props}, argument


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=_case(), seed=st.integers(0, 10**6))
def test_every_stored_field_the_spec_describes_validates(case, seed):
    noun, output, (arg, arg_schema) = case
    world = wenv.World(_tools(noun, output, (arg, arg_schema)), seed=seed)
    record = world.store.entity(noun, "AB12345").record
    for name, schema in output["properties"].items():
        _assert_fits(record, noun, name, schema)
    if argument_role(arg, arg_schema) != "locator":  # a locator names a record; it sets no field
        _assert_fits(record, noun, arg, arg_schema)


def _assert_fits(record: dict[str, Any], noun: str, name: str, schema: dict[str, Any]) -> None:
    """The stored field ``name`` describes (a word-valued ``status``/``state``: the lifecycle
    field) validates against ``schema``; a status that is a list or a flag is not the lifecycle
    field, and a field the record lacks is the output layer's to add."""
    status = name in ("status", "state")
    if status and not _holds_a_word(schema):
        return
    key = status_field(noun) if status else name
    if key in record:
        assert _invalid(schema, record[key]) is None, (name, _invalid(schema, record[key]))


def test_template_values_that_fit_are_kept_and_those_that_do_not_are_redrawn():
    output = {
        "type": "object",
        "properties": {
            "currency": {"type": "string", "enum": ["usd", "eur"]},
            "total": {"type": "integer", "minimum": 1},
            "created_at": {"type": "string", "format": "date-time"},
            "status": {"type": "string", "enum": ["PROCESSING", "SHIPPED", "DELIVERED"]},
        },
    }
    priority = ("priority", {"type": "string", "enum": ["P1", "P2", "P3"]})
    orders = wenv.World(_tools("order", output, priority), seed=3)
    plain = wenv.World(_tools("order", {"type": "object"}, priority), seed=3)
    for ident in ("AB10001", "AB10002", "AB10003"):
        record = orders.store.entity("order", ident).record
        before = plain.store.entity("order", ident).record
        assert record["currency"] in ("usd", "eur")
        assert type(record["total"]) is int and record["total"] >= 1
        assert record["created_at"] == before["created_at"]  # a date-time already: kept
        assert record["items"] == before["items"]  # no schema says otherwise: kept
        # the template's own status, spelt as the output's enum spells it
        assert record["order_status"] == before["order_status"].upper() or before[
            "order_status"
        ] not in ("processing", "shipped", "delivered")


def test_a_field_a_write_sets_follows_the_write_s_schema_and_a_read_shows_it():
    tools = _tools(
        "ticket", {"type": "object"}, ("priority", {"type": "string", "pattern": "^P[1-4]$"})
    )
    world = wenv.World(tools, seed=5, options={"exists_share": 1.0})
    for ident in ("TK00001", "TK00002", "TK00003", "TK00004"):
        shown = world.call("get_ticket", {"ticket_id": ident})
        assert shown["priority"] in ("P1", "P2", "P3", "P4"), shown


def test_an_id_of_another_entity_is_minted_in_that_entity_s_format():
    tools = _tools(
        "order",
        {
            "type": "object",
            "properties": {"customer_id": {"type": "string", "pattern": "^cus_[a-z0-9]{8}$"}},
        },
        ("note", {"type": "string"}),
    )
    tools.append(
        {
            "name": "get_customer",
            "description": "Get a customer by id.",
            "parameters": {
                "type": "object",
                "properties": {"customer_id": {"type": "string", "pattern": "^cus_[a-z0-9]{8}$"}},
                "required": ["customer_id"],
            },
        }
    )
    world = wenv.World(tools, seed=2, options={"exists_share": 1.0})
    shown = world.call("get_order", {"order_id": "AB12345"})
    customer = shown.get("customer_id")
    assert customer is not None and _invalid({"pattern": "^cus_[a-z0-9]{8}$"}, customer) is None
    assert world.call("get_customer", {"customer_id": customer})["status"] == "ok"


def test_a_field_an_output_and_a_write_both_describe_meets_both():
    output = {"type": "object", "properties": {"priority": {"type": "string", "maxLength": 2}}}
    tools = _tools(
        "ticket", output, ("priority", {"type": "string", "pattern": "^(P[12]|urgent)$"})
    )
    world = wenv.World(tools, seed=1)
    for ident in ("TK00001", "TK00002", "TK00003"):
        assert world.store.entity("ticket", ident).record["priority"] in ("P1", "P2")


def test_a_multiple_outside_the_field_s_usual_range_is_still_a_multiple():
    # an order's items read as a small count (1..4 here) and the schema's multiples of 5 from 3
    # hold none of it: the value comes from the schema's own bounds, never the bare minimum
    schema = {"type": "array", "items": {"type": "integer", "multipleOf": 5, "minimum": 3}}
    output = {"type": "object", "properties": {"items": schema}}
    for seed in range(10):
        world = wenv.World(_tools("order", output, ("note", {"type": "string"})), seed=seed)
        _assert_fits(world.store.entity("order", "AB12345").record, "order", "items", schema)
