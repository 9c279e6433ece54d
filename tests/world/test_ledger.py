"""The ledger: every call recorded in the shape ``docs/internals.md`` fixes."""

from __future__ import annotations

import json

import whileai_env as wenv

STEP_KEYS = [
    "index",
    "tool",
    "arguments",
    "result",
    "ok",
    "error",
    "fault",
    "fault_mode",
    "kind",
    "turn",
    "call_id",
]


def test_every_call_is_a_step_in_the_documented_shape(order_tools_spec):
    world = wenv.World(
        order_tools_spec,
        faults={"rules": [{"kind": "rate_limited", "tool": "refund_order"}]},
        options={"exists_share": 1.0},
    )
    world.call("get_order", {"order_id": "48213"}, turn=0, call_id="c-1")
    world.call("no_such_tool", {"x": 1}, turn=1)
    world.call("cancel_order", "garbage", turn=1)
    world.call("refund_order", {"order_id": "48213", "amount": 5}, turn=2)
    steps = world.ledger
    assert [list(s) for s in steps] == [STEP_KEYS] * 4
    json.dumps(steps, allow_nan=False)
    assert [s["index"] for s in steps] == [0, 1, 2, 3]
    assert [s["call_id"] for s in steps] == ["c-1", "call_1", "call_2", "call_3"]
    assert [s["turn"] for s in steps] == [0, 1, 1, 2]
    assert [s["kind"] for s in steps] == ["read", None, "update", "update"]
    assert [s["ok"] for s in steps] == [True, False, False, False]
    assert [s["error"] for s in steps] == [None, "unknown_tool", "rejected", "rate_limited"]
    assert [s["fault"] for s in steps] == [None, None, None, "rate_limited"]
    assert [s["fault_mode"] for s in steps] == [None, None, None, "persistent"]
    assert steps[2]["arguments"] == "garbage", "malformed arguments are recorded as sent"
    assert world.faults_fired == [
        {"index": 3, "tool": "refund_order", "kind": "rate_limited", "mode": "persistent"}
    ]


def test_a_faulted_payload_is_not_ok_even_though_its_status_is(order_tools_spec):
    world = wenv.World(
        order_tools_spec,
        faults={"rules": [{"kind": "stale", "tool": "get_order"}]},
        options={"exists_share": 1.0},
    )
    result = world.call("get_order", {"order_id": "48213"})
    assert (
        result["status"] == "ok"
        and world.ledger[0]["ok"] is False
        and world.ledger[0]["fault"] == "stale"
    )


def test_the_ledger_keeps_its_own_copy_of_the_arguments(order_tools_spec):
    world = wenv.World(order_tools_spec, options={"exists_share": 1.0})
    args = {"order_id": "48213"}
    world.call("get_order", args)
    args["order_id"] = "changed"
    assert world.ledger[0]["arguments"] == {"order_id": "48213"}


def test_reset_starts_a_new_episode(order_tools_spec):
    world = wenv.World(
        order_tools_spec,
        faults={"rules": [{"kind": "timeout", "tool": "get_order", "mode": "transient"}]},
    )
    world.call("get_order", {"order_id": "48213"})
    assert world.reset() is world
    assert world.ledger == [] and world.faults_fired == []
    assert world.call("get_order", {"order_id": "48213"})["error"]["code"] == "timeout"
    world.reset(faults=None)
    assert world.schedule is None
