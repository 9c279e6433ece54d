"""Argument grounding: did every value the agent passed to a tool come from the conversation?

A policy trained to call a tool learns to call it before it learns when not to, and an invented
order id is the usual first symptom. :func:`mark_grounding` stamps ``markers["argument_grounding"]``
(``1.0`` when every string argument of every tool call appears in the system prompt, a user turn
before the call, or an earlier tool result; rows with no calls count as grounded), so
``delta_report(must_not_regress=["argument_grounding"])`` fails the run that learned to invent.
Unlike the conduct gate's ``grounded_arguments`` (locator arguments only, part of the reward),
this reads *every* string argument and is report-only. ``ignore_keys`` skips free-text
arguments (a message body), ``allow`` lists values that need no source (enums, defaults). What was
"seen" is decided by :class:`~whileai_env.grading.trajectory.Trajectory`, the reward's own reader.

>>> row = {"messages": [{"role": "user", "content": "Where is order 4412?"}],
...        "steps": [{"tool": "get_order", "arguments": {"order_id": "4412"}, "result": {}},
...                  {"tool": "refund", "arguments": {"order_id": "9999"}, "result": {}}],
...        "final_text": "Refunded."}
>>> [(a["tool"], a["key"], a["value"]) for a in ungrounded_arguments(row)]
[('refund', 'order_id', '9999')]
>>> mark_grounding([row])[0]["markers"]["argument_grounding"]
0.0
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env.analysis.judge_trust import wilson
from whileai_env.grading.trajectory import Trajectory, scalar_text

MARKER = "argument_grounding"


def ungrounded_arguments(
    row: Mapping[str, Any], *, ignore_keys: Sequence[str] = (), allow: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """The string arguments of ``row``'s tool calls that no earlier text holds: ``step``,
    ``tool``, ``key`` and ``value`` of each."""
    trajectory = Trajectory(row)
    allowed = {scalar_text(value) for value in allow}
    out = []
    for i, step in enumerate(trajectory.steps):
        for key, value in step.args.items():
            if key in ignore_keys:
                continue
            for item in value if isinstance(value, list) else (value,):
                text = scalar_text(item) if isinstance(item, str) else None
                if text is None or text in allowed or trajectory.seen_before(text, i):
                    continue
                out.append({"step": step.index, "tool": step.tool, "key": key, "value": item})
    return out


def mark_grounding(
    rows: Iterable[Mapping[str, Any]],
    *,
    ignore_keys: Sequence[str] = (),
    allow: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Copies of ``rows`` with ``markers["argument_grounding"]`` set (1.0 grounded, 0.0 not)."""
    out = []
    for row in rows:
        marked = copy.deepcopy(dict(row))
        invented = ungrounded_arguments(row, ignore_keys=ignore_keys, allow=allow)
        markers = dict(marked.get("markers") or {})
        markers[MARKER] = 0.0 if invented else 1.0
        marked["markers"] = markers
        out.append(marked)
    return out


def grounding_report(
    rows: Iterable[Mapping[str, Any]],
    *,
    ignore_keys: Sequence[str] = (),
    allow: Sequence[str] = (),
) -> dict[str, Any]:
    """``rows``, ``grounded_rate`` with a Wilson ``ci95``, and ``invented``: ``{tool: {key:
    [values]}}`` of the values no earlier text held (up to ten per argument)."""
    grounded = total = 0
    invented: dict[str, dict[str, list[Any]]] = {}
    for row in rows:
        total += 1
        found = ungrounded_arguments(row, ignore_keys=ignore_keys, allow=allow)
        grounded += not found
        for item in found:
            values = invented.setdefault(item["tool"], {}).setdefault(item["key"], [])
            if len(values) < 10:
                values.append(item["value"])
    return {
        "rows": total,
        "grounded_rate": grounded / total if total else None,
        "ci95": wilson(grounded, total),
        "invented": invented,
    }
