"""The fault schedule: declarative, serialisable, replayable; each kind's result shape."""

from __future__ import annotations

import json

import pytest

import whileai_env as wenv
from whileai_env.scenarios.faults import FaultRule, FaultSchedule, keeps_fault, schedule_for_cell
from whileai_env.scenarios.grid import build_grid
from whileai_env.world import fault_kind, fault_kinds

GET = {"order_id": "48213"}


def _world(spec: wenv.Spec, *rules: dict, **kw) -> wenv.World:
    return wenv.World(spec, faults={"rules": list(rules)}, options={"exists_share": 1.0}, **kw)


def test_schedule_round_trips_through_json():
    schedule = FaultSchedule(
        (
            FaultRule(
                "timeout",
                tool="get_order",
                start=1,
                mode="transient",
                times=2,
                params={"timeout_s": 10},
            ),
            FaultRule("rate_limited", tool="*", mode="persistent", params={"retry_after": 5}),
        )
    )
    text = schedule.to_json()
    assert json.loads(text)["rules"][0] == {
        "kind": "timeout",
        "tool": "get_order",
        "start": 1,
        "mode": "transient",
        "times": 2,
        "params": {"timeout_s": 10},
    }
    assert FaultSchedule.from_json(text) == schedule
    with pytest.raises(ValueError, match="unknown fault rule keys"):
        FaultRule.from_dict({"kind": "timeout", "when": 3})


def test_a_transient_fault_replays_at_the_same_call_index_every_time(order_tools_spec):
    rule = {"kind": "timeout", "tool": "get_order", "start": 1, "mode": "transient", "times": 2}
    runs = []
    world = _world(order_tools_spec, rule)
    for _ in range(3):
        world.reset()
        for i in range(5):
            world.call("get_order", GET)
            world.call("list_orders", {"customer_email": f"n{i}@fastmail.net"})
        runs.append([(f["index"], f["tool"], f["kind"], f["mode"]) for f in world.faults_fired])
    assert runs[0] == [
        (2, "get_order", "timeout", "transient"),
        (4, "get_order", "timeout", "transient"),
    ]
    assert runs[0] == runs[1] == runs[2]
    fresh = _world(order_tools_spec, rule)
    for i in range(5):
        fresh.call("get_order", GET)
        fresh.call("list_orders", {"customer_email": f"n{i}@fastmail.net"})
    assert [(f["index"], f["tool"]) for f in fresh.faults_fired] == [
        (2, "get_order"),
        (4, "get_order"),
    ]
    steps = fresh.ledger
    assert [s["fault"] for s in steps if s["tool"] == "get_order"] == [
        None,
        "timeout",
        "timeout",
        None,
        None,
    ]
    assert steps[6]["ok"] is True and steps[6]["result"]["status"] == "ok", (
        "the retry after the fault succeeds"
    )


def test_a_persistent_fault_fires_on_every_later_call(order_tools_spec):
    world = _world(
        order_tools_spec, {"kind": "permission_denied", "tool": "cancel_order", "start": 1}
    )
    results = [
        world.call("cancel_order", {"order_id": f"4821{i}", "reason": "x"}) for i in range(4)
    ]
    assert [r.get("error", {}).get("code") == "permission_denied" for r in results] == [
        False,
        True,
        True,
        True,
    ]
    assert all(s["fault_mode"] == "persistent" for s in world.ledger[1:])


def test_star_rules_count_every_call_and_unknown_tools_count_nothing(order_tools_spec):
    world = _world(
        order_tools_spec, {"kind": "server_error", "tool": "*", "start": 2, "mode": "transient"}
    )
    world.call("get_order", GET)
    world.call("no_such_tool", {})
    world.call("list_orders", {"customer_email": "a@fastmail.net"})
    fired = world.call("cancel_order", {"order_id": "48213", "reason": "x"})
    assert fired["error"]["code"] == "server_error"
    assert world.faults_fired == [
        {"index": 3, "tool": "cancel_order", "kind": "server_error", "mode": "transient"}
    ]


def test_every_kind_has_its_own_realistic_shape(order_tools_spec):
    shapes = {}
    for kind in (
        "timeout",
        "permission_denied",
        "rate_limited",
        "server_error",
        "stale",
        "malformed",
        "truncated",
    ):
        tool = "list_orders" if kind == "truncated" else "get_order"
        args = {"customer_email": "dana@fastmail.net", "limit": 6} if tool == "list_orders" else GET
        world = wenv.World(
            order_tools_spec,
            faults=FaultSchedule.every_call(kind),
            options={"exists_share": 1.0, "search_hits": (4, 6)},
        )
        shapes[kind] = world.call(tool, args)
        assert world.ledger[-1]["fault"] == kind and world.ledger[-1]["ok"] is False
    assert shapes["timeout"]["error"] == {
        "code": "timeout",
        "message": "upstream did not answer within 30s",
        "timeout_s": 30,
        "retryable": True,
    }
    assert shapes["permission_denied"]["error"]["http_status"] == 403
    assert "get_order" in shapes["permission_denied"]["error"]["message"]
    assert (
        shapes["rate_limited"]["error"]["retry_after"] == 5
        and shapes["rate_limited"]["error"]["http_status"] == 429
    )
    assert shapes["server_error"]["error"]["http_status"] in (500, 502, 503)
    stale = shapes["stale"]
    fresh = wenv.World(order_tools_spec, options={"exists_share": 1.0}).call("get_order", GET)
    assert stale["status"] == "ok" and stale["stale"] is True
    assert {k: v for k, v in stale.items() if k not in ("stale", "as_of", "source")} == fresh
    assert stale["as_of"] == "2026-11-29T10:00:00Z"  # 26 hours before the episode clock
    assert shapes["malformed"]["status"] == "ok" and isinstance(shapes["malformed"]["raw"], str)
    if shapes["malformed"]["content_type"] == "application/json":
        with pytest.raises(ValueError):
            json.loads(shapes["malformed"]["raw"])
    truncated = shapes["truncated"]
    full = wenv.World(order_tools_spec, options={"exists_share": 1.0, "search_hits": (4, 6)}).call(
        "list_orders", {"customer_email": "dana@fastmail.net", "limit": 6}
    )
    assert truncated["truncated"] is True and truncated["next_page_token"].startswith("pt_")
    assert 0 <= truncated["count"] == len(truncated["items"]) < full["count"]
    assert truncated["items"] == full["items"][: truncated["count"]]


def test_rule_params_shape_the_result(order_tools_spec):
    world = _world(
        order_tools_spec,
        {"kind": "rate_limited", "tool": "get_order", "params": {"retry_after": 30, "limit": 10}},
        {"kind": "stale", "tool": "list_orders", "params": {"age_hours": 240}},
    )
    assert world.call("get_order", GET)["error"]["retry_after"] == 30
    assert (
        world.call("list_orders", {"customer_email": "a@fastmail.net"})["as_of"]
        == "2026-11-20T12:00:04Z"
    )
    world = _world(
        order_tools_spec,
        {"kind": "server_error", "tool": "get_order", "params": {"http_status": 502}},
    )
    assert world.call("get_order", GET)["error"]["message"].startswith("502 Bad Gateway")


def test_gateway_faults_fire_before_validation_and_do_nothing(order_tools_spec):
    probe = wenv.World(order_tools_spec, options={"exists_share": 1.0})
    oid = next(
        f"4821{i}"
        for i in range(10)
        if probe.call("get_order", {"order_id": f"4821{i}"})["order_status"] != "cancelled"
    )
    world = _world(
        order_tools_spec, {"kind": "timeout", "tool": "cancel_order", "mode": "transient"}
    )
    assert world.call("cancel_order", {})["error"]["code"] == "timeout"
    world.reset()
    assert (
        world.call("cancel_order", {"order_id": oid, "reason": "x"})["error"]["code"] == "timeout"
    )
    assert world.call("get_order", {"order_id": oid})["order_status"] != "cancelled"
    again = world.call("cancel_order", {"order_id": oid, "reason": "x"})
    assert again["status"] == "ok" and again["order_status"] == "cancelled"


def test_degraded_payload_faults_apply_the_write_and_skip_failed_calls(order_tools_spec):
    world = _world(
        order_tools_spec, {"kind": "stale", "tool": "cancel_order", "mode": "persistent"}
    )
    world.call("get_order", GET)
    cached = world.call("cancel_order", {"order_id": "48213", "reason": "x"})
    assert cached["stale"] is True and world.ledger[-1]["fault"] == "stale"
    assert world.call("get_order", GET)["order_status"] == "cancelled"
    missing = world.call("cancel_order", {})
    assert missing["error"]["code"] == "rejected" and world.ledger[-1]["fault"] is None


def test_a_garbled_write_does_not_go_through_so_a_retry_is_safe(order_tools_spec):
    """``malformed`` fails the call (the checklist reads it as failed), so on a write the world
    answers from a dry run: the write is not applied and a transient fault's retry does it once."""
    world = _world(
        order_tools_spec, {"kind": "malformed", "tool": "cancel_order", "mode": "transient"}
    )
    world.call("get_order", GET)
    garbled = world.call("cancel_order", {"order_id": "48213", "reason": "x"})
    assert (
        "raw" in garbled and world.ledger[-1]["fault"] == "malformed" and not world.ledger[-1]["ok"]
    )
    assert world.call("get_order", GET)["order_status"] != "cancelled"
    retry = world.call("cancel_order", {"order_id": "48213", "reason": "x"})
    assert (
        retry["status"] == "ok" and retry["order_status"] == "cancelled" and world.ledger[-1]["ok"]
    )
    assert world.call("get_order", GET)["order_status"] == "cancelled"


def test_a_garbled_delete_leaves_the_record_and_the_workspace_alone():
    spec = wenv.load_spec("configs/specs/calendar-email.json")
    world = wenv.World(
        spec,
        faults={"rules": [{"kind": "malformed", "tool": "delete_event", "mode": "transient"}]},
        options={"exists_share": 1.0},
    )
    assert world.call("get_event", {"event_id": "evt_48213"})["status"] == "ok"
    assert "raw" in world.call("delete_event", {"event_id": "evt_48213"})
    assert world.call("get_event", {"event_id": "evt_48213"})["status"] == "ok"
    assert world.call("delete_event", {"event_id": "evt_48213"})["status"] == "ok"
    assert world.call("get_event", {"event_id": "evt_48213"})["error"]["code"] == "not_found"
    coding = wenv.load_spec("configs/specs/coding-agent.json")
    world = wenv.World(
        coding, faults={"rules": [{"kind": "malformed", "tool": "write_file", "mode": "transient"}]}
    )
    before = world.call("git_status", {})
    assert "raw" in world.call(
        "write_file", {"path": "src/app/new_module.py", "content": "x = 1\n"}
    )
    assert world.call("git_status", {}) == before


def test_register_fault_kind_adds_a_kind(order_tools_spec):
    from whileai_env.world import register_fault_kind

    def maintenance(tool, arguments, fresh, params, key):
        return {
            "status": "error",
            "error": {
                "code": "server_error",
                "message": f"503 {tool.name} in maintenance",
                "http_status": 503,
                "window": params.get("window", "02:00-03:00"),
            },
        }

    register_fault_kind("maintenance_test", maintenance, replace=True)
    assert "maintenance_test" in fault_kinds() and not fault_kind("maintenance_test").needs_result
    world = _world(
        order_tools_spec,
        {"kind": "maintenance_test", "tool": "get_order", "params": {"window": "now"}},
    )
    result = world.call("get_order", GET)
    assert result["error"]["window"] == "now" and world.ledger[-1]["fault"] == "maintenance_test"
    with pytest.raises(ValueError, match="already registered"):
        register_fault_kind("maintenance_test", maintenance)
    with pytest.raises(KeyError, match="unknown fault kind 'nope'"):
        wenv.World(order_tools_spec, faults={"rules": [{"kind": "nope"}]})


def test_fault_rate_keeps_or_drops_by_hash_of_seed_and_task(order_spec_for_grid):
    spec = order_spec_for_grid
    cells = [c for c in build_grid(spec).cells if c.condition != "success"]
    assert cells
    kept = [keeps_fault(0.5, (0, c.scenario_id, 0)) for c in cells]
    assert kept == [keeps_fault(0.5, (0, c.scenario_id, 0)) for c in cells]
    assert 0 < sum(kept) < len(kept)
    assert all(
        schedule_for_cell(c, ("get_order",), key=(0, c.scenario_id, 0), fault_rate=0.0) is None
        for c in cells
    )
    every = [
        schedule_for_cell(c, ("get_order",), key=(0, c.scenario_id, 0), fault_rate=1.0)
        for c in cells
    ]
    assert all(
        s is not None and s.rules[0].kind == c.condition for s, c in zip(every, cells, strict=True)
    )


def test_drawn_tasks_carry_their_schedule_and_the_world_applies_it(order_spec_for_grid):
    spec = order_spec_for_grid
    tasks = wenv.draw_tasks(spec, 60, seed=1, fault_rate=1.0)
    faulted = [t for t in tasks if t.cell.condition != "success"]
    assert faulted and all(t.faults is not None for t in faulted)
    assert all(t.faults is None for t in tasks if t.cell.condition == "success")
    for task in faulted:
        assert wenv.Task.from_dict(task.to_dict()).faults == task.faults
        rule = task.faults.rules[0]
        world = wenv.World(spec, task)
        assert world.schedule == task.faults
        if rule.kind in ("stale", "truncated") and rule.tool != "*":
            assert not spec.tool(rule.tool).is_write, "stale data and cut lists come from reads"


@pytest.fixture
def order_spec_for_grid(order_tools_spec):
    return order_tools_spec


def test_a_truncated_record_has_no_next_page(order_tools_spec):
    """A trial PayPal spec's truncated ``get_dispute`` (one record) and an empty list both came
    back with ``has_more`` and a ``next_page_token``: nothing to page to."""
    rule = {"tool": "get_order", "kind": "truncated", "mode": "persistent"}
    world = wenv.World(order_tools_spec, options={"exists_share": 1.0}, faults=[rule])
    record = world.call("get_order", {"order_id": "48213"})
    assert record["truncated"] is True, record
    assert "has_more" not in record and "next_page_token" not in record, record


def test_a_cut_list_for_a_create_lands_on_the_listing_of_its_records():
    """A trial Zendesk spec's ``create_ticket`` (no id to share) got the truncated fault itself:
    a ticket made came back "truncated", graded as a list cut short."""
    from dataclasses import replace

    tools = [
        {"name": "get_tickets", "description": "List the latest tickets."},
        {
            "name": "create_ticket",
            "description": "Create a ticket.",
            "parameters": {
                "type": "object",
                "properties": {"subject": {"type": "string"}},
                "required": ["subject"],
            },
        },
    ]
    spec = wenv.load_spec(tools=tools)
    cell = next(c for c in build_grid(spec).cells if c.tool == "create_ticket")
    cell = replace(cell, condition="truncated")
    for i in range(8):
        found = schedule_for_cell(
            cell, ("create_ticket",), key=(i, cell.scenario_id, 0), fault_rate=1.0, spec=spec
        )
        assert found is not None and [r.tool for r in found.rules] == ["get_tickets"], found
