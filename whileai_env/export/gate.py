"""The difficulty band: keep the tasks a policy solved some of the time and not always.

A prompt every rollout passes, or none does, gives a group-relative trainer no advantage to learn
from (GRPO's advantage is zero within the group), so graded rows are grouped by task and only
tasks whose pass rate lies in ``band`` are kept. Ungraded input passes whole: there is nothing to
measure, and the report says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from whileai_env.scenarios.task import task_columns

PASS = 1.0


def pass_rates(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Each graded task's share of rollouts with reward ``>= 1``."""
    passes: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        reward = row.get("reward")
        if isinstance(reward, int | float) and not isinstance(reward, bool):
            passes[str(task_columns(row).get("task_id"))].append(reward >= PASS)
    return {task: sum(p) / len(p) for task, p in passes.items()}


def band_gate(
    rows: Sequence[Mapping[str, Any]], band: tuple[float, float] | None
) -> tuple[set[str] | None, dict[str, Any]]:
    """The task ids inside ``band`` (``None``: keep all) and the gate's report."""
    rates = pass_rates(rows)
    if band is None or not rates:
        why = "no band asked" if band is None else "the rows carry no reward: nothing to measure"
        return None, {"band": list(band) if band else None, "applied": False, "why": why}
    low, high = band
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"band must be (low, high) with 0 <= low <= high <= 1, got {band}")
    kept = {task for task, rate in rates.items() if low <= rate <= high}
    return kept, {
        "band": [low, high],
        "applied": True,
        "graded_tasks": len(rates),
        "graded_mixed": sum(0.0 < r < 1.0 for r in rates.values()),
        "always_solved": sum(r == 1.0 for r in rates.values()),
        "never_solved": sum(r == 0.0 for r in rates.values()),
        "kept": len(kept),
    }
