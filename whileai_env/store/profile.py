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


def profile_rows(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts and reward numbers over ``rows``, overall and by fault kind, world state, tool;
    ``rows`` is read once, one row at a time (an iterator of any length will do)."""
    profile = _Profile()
    for row in rows:
        profile.add(row)
    return profile.result()


class _Profile:
    """:func:`profile_rows` one row at a time: what it keeps is a reward per row, not the rows
    (a push streams a run of any length through it)."""

    def __init__(self) -> None:
        self.rows = 0
        self.rewards: list[float] = []
        self.passes: dict[str, list[bool]] = defaultdict(list)
        self.agents: set[str] = set()
        self.spec_hashes: set[str] = set()
        # axis -> value -> [rows, rewards]
        self.groups: dict[str, dict[str, tuple[list[int], list[float]]]] = {
            key: defaultdict(lambda: ([0], [])) for key in AXES
        }

    def add(self, row: Mapping[str, Any]) -> None:
        self.rows += 1
        reward = _reward(row)
        passes = self.passes[str(row.get("task_id"))]  # every task, graded or not
        if reward is not None:
            self.rewards.append(reward)
            passes.append(reward >= PASS)
        if row.get("agent"):
            self.agents.add(str(row["agent"]))
        if row.get("spec_hash"):
            self.spec_hashes.add(str(row["spec_hash"]))
        for key, axis in AXES.items():
            count, rewards = self.groups[key][_value(row, axis)]
            count[0] += 1
            if reward is not None:
                rewards.append(reward)

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rows": self.rows,
            "tasks": len(self.passes),
            **_numbers(self.rewards),
            "mixed_tasks": sum(any(p) and not all(p) for p in self.passes.values()),
            "agents": sorted(self.agents),
            "spec_hashes": sorted(self.spec_hashes),
        }
        for key, groups in self.groups.items():
            out[key] = {
                value: {"rows": count[0], **_numbers(rewards)}
                for value, (count, rewards) in sorted(groups.items())
            }
        return out


def _numbers(rewards: Sequence[float]) -> dict[str, Any]:
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
