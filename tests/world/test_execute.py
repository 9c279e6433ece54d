"""``execute=``: the user's own function answers calls, after the schedule and the argument checks."""

from __future__ import annotations

import whileai_env as wenv


def test_execute_answers_and_non_dicts_are_wrapped(order_tools_spec):
    seen = []

    def execute(name, arguments):
        seen.append((name, arguments))
        return (
            {"order_id": arguments.get("order_id"), "order_status": "shipped"}
            if name == "get_order"
            else 42
        )

    world = wenv.World(order_tools_spec, execute=execute)
    assert world.call("get_order", {"order_id": "48213"}) == {
        "status": "ok",
        "order_id": "48213",
        "order_status": "shipped",
    }
    assert world.call("calculate", {"expression": "1+1"}) == {"status": "ok", "result": 42}
    assert seen == [("get_order", {"order_id": "48213"}), ("calculate", {"expression": "1+1"})]


def test_an_exception_in_execute_becomes_an_error_result(order_tools_spec):
    def execute(name, arguments):
        raise ConnectionError("backend down")

    world = wenv.World(order_tools_spec, execute=execute)
    result = world.call("get_order", {"order_id": "48213"})
    assert result == {
        "status": "error",
        "error": {"code": "execute_error", "message": "ConnectionError: backend down"},
    }
    assert world.ledger[0]["error"] == "execute_error" and world.internal_errors == []


def test_a_fired_fault_short_circuits_execute_and_bad_arguments_never_reach_it(order_tools_spec):
    calls = []
    world = wenv.World(
        order_tools_spec,
        execute=lambda n, a: calls.append(n) or {"ok": True},
        faults={
            "rules": [
                {"kind": "timeout", "tool": "get_order", "mode": "transient"},
                {"kind": "stale", "tool": "list_orders"},
            ]
        },
    )
    assert world.call("get_order", {"order_id": "48213"})["error"]["code"] == "timeout"
    assert world.call("get_order", {})["error"]["code"] == "rejected"
    assert calls == []
    stale = world.call("list_orders", {"customer_email": "a@fastmail.net"})
    assert stale["ok"] is True and stale["stale"] is True and calls == ["list_orders"]


def test_execute_results_that_json_cannot_carry_are_made_safe(order_tools_spec):
    world = wenv.World(order_tools_spec, execute=lambda n, a: {"when": object(), "n": float("inf")})
    result = world.call("get_order", {"order_id": "48213"})
    assert result["status"] == "ok" and isinstance(result["when"], str) and result["n"] == "inf"
