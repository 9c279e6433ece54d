"""A dataset version's numbers: counts, reward mean, pass rate, and the same by fault kind,
world state and tool, so a card says what a trainer would get before anyone trains on it.

A row passes at reward ``>= 1`` (the package's pass line); ungraded rows count in ``rows`` but
not in the reward numbers. A row's fault kind is the first fault that fired on it (``"none"``
when none did), its world state and tool come from its grid cell.

>>> rows = [{"task_id": "a", "reward": 1.0, "faults": [{"kind": "timeout"}],
...          "scenario_dimensions": {"tool": "get", "world_state": "exists"}},
...         {"task_id": "a", "reward": 0.0, "faults": []}]
>>> p = profile_rows(rows)
>>> p["reward_mean"], p["pass_rate"], p["mixed_tasks"], p["by_fault_kind"]["timeout"]["rows"]
(0.5, 0.5, 1, 1)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

PASS = 1.0
#: The breakdowns: profile key -> the axis a row is grouped by.
AXES = {"by_fault_kind": "fault_kind", "by_world_state": "world_state", "by_tool": "tool"}


def profile_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts and reward numbers over ``rows``, overall and by fault kind, world state, tool."""
    passes: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        if (reward := _reward(row)) is not None:
            passes[str(row.get("task_id"))].append(reward >= PASS)
    out: dict[str, Any] = {
        "rows": len(rows),
        "tasks": len({str(r.get("task_id")) for r in rows}),
        **_numbers(rows),
        "mixed_tasks": sum(any(p) and not all(p) for p in passes.values()),
        "agents": sorted({str(r["agent"]) for r in rows if r.get("agent")}),
        "spec_hashes": sorted({str(r["spec_hash"]) for r in rows if r.get("spec_hash")}),
    }
    for key, axis in AXES.items():
        groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for row in rows:
            groups[_value(row, axis)].append(row)
        out[key] = {v: {"rows": len(g), **_numbers(g)} for v, g in sorted(groups.items())}
    return out


def _numbers(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    rewards = [r for r in map(_reward, rows) if r is not None]
    if not rewards:
        return {"graded": 0, "reward_mean": None, "pass_rate": None}
    return {
        "graded": len(rewards),
        "reward_mean": round(math.fsum(rewards) / len(rewards), 6),
        "pass_rate": round(sum(r >= PASS for r in rewards) / len(rewards), 6),
    }


def _reward(row: Mapping[str, Any]) -> float | None:
    reward = row.get("reward")
    if isinstance(reward, int | float) and not isinstance(reward, bool):
        return float(reward)
    return None


def _value(row: Mapping[str, Any], axis: str) -> str:
    if axis == "fault_kind":
        faults = [f for f in row.get("faults") or () if isinstance(f, Mapping)]
        return str(faults[0].get("kind")) if faults else "none"
    dims = row.get("scenario_dimensions")
    found = row.get(axis) if axis == "world_state" else None
    if found is None and isinstance(dims, Mapping):
        found = dims.get(axis)
    return str(found) if found is not None else "unknown"
