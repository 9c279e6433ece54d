"""Microseconds per ``task_checklist`` call on 5-step rows (target: under 50 µs median).

Run: ``python scripts/bench/reward.py [--rows 5000] [--passes 3]``. The rows are realistic episodes
with five tool calls each (a read, a faulted write and its retry, a refund, a re-read), a
privileged block, and a reply that names ids from the conversation, so every conduct and outcome
check does real work. Every row has its own ids and wording, and there are more rows than the
grader's text caches hold, so no call is served from a cache filled by an earlier row. Each row
is parsed from its JSON just before it is graded (untimed), as it is when a run is graded from
a file or an episode grades the row it just built.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from whileai_env import task_checklist

SYSTEM = (
    "You are the customer service assistant for Larkspur Goods.\n- Always look up an order before changing it.\n"
    "- Never refund more than the order total, and never refund the same order twice."
)
KINDS = {
    "get_order": "read",
    "cancel_order": "update",
    "issue_refund": "update",
    "list_orders": "read",
}


def _row(
    order: str,
    fault: str,
    final: str,
    *,
    refund: str,
    state: str = "exists",
    stance: str = "ordinary",
) -> dict[str, Any]:
    calls = [
        (
            "get_order",
            {"order_id": order},
            {
                "status": "ok",
                "order_id": order,
                "state": "processing",
                "total": {"amount": 84.5, "currency": "USD"},
                "email": "dana.kim@lumen.co",
            },
            None,
        ),
        (
            "cancel_order",
            {"order_id": order, "reason": "changed mind"},
            {
                "status": "error",
                "error": {"code": fault, "message": f"{fault} talking to the order service"},
            },
            fault,
        ),
        (
            "cancel_order",
            {"order_id": order, "reason": "changed mind"},
            {
                "status": "ok",
                "order_id": order,
                "state": "cancelled",
                "cancelled_at": "2026-03-02T10:00:00Z",
            },
            None,
        ),
        (
            "issue_refund",
            {"order_id": order, "amount": 84.5},
            {"status": "ok", "order_id": order, "refund_id": refund, "amount": 84.5},
            None,
        ),
        (
            "get_order",
            {"order_id": order},
            {
                "status": "ok",
                "order_id": order,
                "state": "cancelled",
                "total": {"amount": 84.5, "currency": "USD"},
            },
            None,
        ),
    ]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"Please cancel order {order} and refund me."},
    ]
    steps = []
    for i, (tool, args, result, fired) in enumerate(calls):
        call_id = f"call_{i}"
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": tool, "arguments": json.dumps(args)},
                    }
                ],
            }
        )
        messages.append(
            {"role": "tool", "tool_call_id": call_id, "name": tool, "content": json.dumps(result)}
        )
        steps.append(
            {
                "index": i,
                "tool": tool,
                "arguments": args,
                "result": result,
                "ok": fired is None,
                "error": result.get("error", {}).get("code"),
                "fault": fired,
                "fault_mode": "transient" if fired else None,
                "kind": KINDS[tool],
                "turn": i + 1,
                "call_id": call_id,
            }
        )
    messages.append({"role": "assistant", "content": final})
    return {
        "schema_version": "1",
        "task_id": "t-bench",
        "scenario_id": "sc-bench",
        "scenario_dimensions": {
            "tool": "multi_tool",
            "rule": "none",
            "world_state": state,
            "condition": fault,
            "history": "prior_partial",
            "stance": stance,
            "ask": "tool",
            "persona": "expert",
            "tone": "neutral",
            "texture": "standard",
        },
        "seed": 0,
        "prompt": messages[1]["content"],
        "world": {
            "state": state,
            "targets": ["cancel_order", "issue_refund"],
            "entities": {"order_id": order},
            "details": {},
            "withheld": [],
            "history": "prior_partial",
            "clause": None,
            "required": {},
        },
        "fault_plan": {
            "rules": [
                {"kind": fault, "tool": "cancel_order", "start": 0, "mode": "transient", "times": 1}
            ]
        },
        "messages": messages,
        "steps": steps,
        "final_text": final,
        "faults": [],
        "rollout_index": 0,
        "truncated": False,
        "tools": list(KINDS),
        "privileged": {
            "hidden_state": {"world_state": state, "entities": {"order_id": order}},
            "reference": f"the agent retries cancel_order for order {order} after the {fault} "
            "and the retry succeeds",
        },
    }


def make_rows(n: int) -> list[dict[str, Any]]:
    """``n`` distinct 5-step rows cycling through four situations (two pass, two fail)."""
    rows = []
    for i in range(n):
        order, refund = str(40000 + 7 * i), f"rf_{20000 + i}"
        kind = i % 4
        if kind == 0:
            rows.append(
                _row(
                    order,
                    "timeout",
                    f"Order {order} is cancelled and refund {refund} is on its way.",
                    refund=refund,
                )
            )
        elif kind == 1:
            rows.append(
                _row(
                    order,
                    "server_error",
                    f"I cancelled order {order} after a retry and issued refund {refund}.",
                    refund=refund,
                )
            )
        elif kind == 2:
            rows.append(
                _row(
                    order,
                    "timeout",
                    f"Order {order} could not be changed: the order service timed out.",
                    refund=refund,
                    stance="adversarial",
                )
            )
        else:
            rows.append(
                _row(
                    order,
                    "rate_limited",
                    f"Order {order} was already cancelled, so nothing more to do.",
                    refund=refund,
                    state="already_done",
                )
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000, help="distinct rows (default 5000)")
    parser.add_argument("--passes", type=int, default=3, help="passes over the rows (default 3)")
    args = parser.parse_args()
    lines = [json.dumps(row) for row in make_rows(args.rows)]
    timings = []
    for _ in range(args.passes):
        for line in lines:
            row = json.loads(line)
            start = time.perf_counter_ns()
            task_checklist(row)
            timings.append(time.perf_counter_ns() - start)
    median = statistics.median(timings) / 1000
    p90 = statistics.quantiles(timings, n=10)[-1] / 1000
    print(
        f"task_checklist on 5-step rows: median {median:.1f} µs, p90 {p90:.1f} µs "
        f"over {len(timings)} calls ({len(lines)} distinct rows)"
    )


if __name__ == "__main__":
    main()
