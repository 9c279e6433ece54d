"""Huge enums: merged in linear time by the profile, and drawn without re-checking every value."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.spec.safety import MAX_ENUM
from whileai_env.world.makers import Scope
from whileai_env.world.profile import build_profile, distinct
from whileai_env.world.schema_values import value_for

_VALUES = st.one_of(
    st.integers(-3, 3),
    st.booleans(),
    st.sampled_from(["a", "b", "c"]),
    st.none(),
    st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.sampled_from("xy"), st.integers(0, 1), max_size=1),
)


@given(st.lists(st.lists(_VALUES, max_size=8), max_size=4))
def test_distinct_is_the_list_scan_it_replaced(groups):
    expected: list = []
    for group in groups:
        expected.extend(v for v in group if v not in expected)
    assert distinct(*groups) == tuple(expected)


def _spec(n: int) -> wenv.Spec:
    region = {"type": "string", "enum": [f"r{i}" for i in range(n)]}
    return wenv.load_spec(
        {
            "name": "regions",
            "system_prompt": "You look up sales figures for a region.",
            "tools": [
                {
                    "name": "get_sales",
                    "description": "Look up one region's sales for a month.",
                    "parameters": {
                        "type": "object",
                        "properties": {"region": region, "status": {**region}},
                        "required": ["region"],
                    },
                }
            ],
        }
    )


def test_a_spec_may_hold_an_enum_of_max_enum_values():
    assert MAX_ENUM >= 100_000
    spec = _spec(MAX_ENUM)
    start = time.process_time()
    profile = build_profile(spec)
    assert time.process_time() - start < 2.0  # the list scan this replaced took minutes
    assert len(profile.enums["region"]) == MAX_ENUM and len(profile.enums["status"]) == MAX_ENUM


def test_an_enum_is_checked_once_not_per_draw():
    schema = _spec(100_000).tool("get_sales").parameters
    region = schema["properties"]["region"]
    value_for(region, "region", Scope(seed=0, now=0), root=schema)
    start = time.process_time()
    drawn = {
        value_for(region, "region", Scope(seed=seed, now=0), root=schema) for seed in range(50)
    }
    assert time.process_time() - start < 1.0  # 50 draws, each once a pass over 100,000 values
    assert len(drawn) > 40 and all(v.startswith("r") for v in drawn)


def test_an_enum_draw_keeps_to_the_values_that_fit():
    schema = {"type": "string", "enum": [None, 5, "ok", "fine"], "minLength": 3}
    drawn = {value_for(schema, "state", Scope(seed=s, now=0)) for s in range(30)}
    assert drawn == {"fine"}  # 5 is not a string, "ok" too short, null is left out
    assert value_for(schema, "state", Scope(seed=0, now=0), hint="ok") == "ok"  # a hint in the enum


def test_a_run_on_a_huge_enum_spec_takes_seconds():
    spec = _spec(100_000)
    start = time.process_time()
    data = wenv.simulate("seeded", spec=spec, budget=10, quiet=True)
    assert time.process_time() - start < 10.0
    assert data.search["rows"] == 10


def test_statuses_a_listing_names_in_prose_drop_the_example_lead():
    """PagerDuty's "Filter by status (e.g. triggered, acknowledged, resolved)" gave incidents
    the status ``e.g._triggered``."""
    spec = wenv.load_spec(
        tools=[
            {
                "name": "list_incidents",
                "description": "List incidents.\n  statuses: Filter by status (e.g. triggered, "
                "acknowledged, resolved)",
                "annotations": {"readOnlyHint": True},
                "parameters": {"type": "object", "properties": {}},
            },
            {
                "name": "get_incident",
                "description": "Get an incident.",
                "annotations": {"readOnlyHint": True},
                "parameters": {
                    "type": "object",
                    "properties": {"incident_id": {"type": "string"}},
                    "required": ["incident_id"],
                },
            },
        ]
    )
    assert build_profile(spec).statuses["incident"] == ("triggered", "acknowledged", "resolved")


def _orders() -> wenv.Spec:
    status = {"type": "string", "enum": ["any", "open", "closed", "cancelled"], "default": "any"}
    return wenv.load_spec(
        tools=[
            {
                "name": "get-orders",
                "description": "Get orders, optionally filtered by status.",
                "parameters": {"type": "object", "properties": {"status": status}},
            },
            {
                "name": "get-order-by-id",
                "description": "Get one order.",
                "parameters": {
                    "type": "object",
                    "properties": {"orderId": {"type": "string"}},
                    "required": ["orderId"],
                },
            },
        ]
    )


def test_a_filter_s_no_filter_value_is_no_status():
    """Shopify's ``get-orders(status: any | open | closed | cancelled)``: orders came back in
    the state "any" (a trial Shopify spec, 23 records in 150 rows)."""
    spec = _orders()
    assert "any" not in build_profile(spec).statuses.get("order", ())
    for seed in range(4):
        world = wenv.World(spec, seed=seed)
        for status in ("any", None):
            listed = world.call("get-orders", {"status": status} if status else {})
            assert listed["status"] == "ok", listed
            assert all(item.get("order_status") != "any" for item in listed["items"]), listed
