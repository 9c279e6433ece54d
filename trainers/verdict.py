"""Did training help? The seeds' one word over a held-out measure before and after.

``Better`` / ``Worse`` / ``About the same`` from a paired 95% interval: the per-task differences
``after - before`` are bootstrapped over tasks (a seeded ``numpy`` generator), and the word is
``Better`` only when the whole interval is above zero (below, for a loss). Two bare numbers have
no interval; their word is the sign of the difference and the record says there was no interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

# The one paired bootstrap: analysis.compare's (compare_runs and delta_report use it too).
from whileai_env.analysis.compare import paired_interval

BETTER, WORSE, SAME = "Better", "Worse", "About the same"
LOWER_IS_BETTER = ("loss", "eval_loss")


def paired_by_task(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> tuple[list, list]:
    """Per-task pass rates of two graded row sets, on the tasks both graded (in sorted order)."""

    def rates(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        groups: dict[str, list[float]] = {}
        for row in rows:
            if row.get("reward") is not None:
                groups.setdefault(str(row["task_id"]), []).append(float(row["reward"]))
        return {k: math.fsum(v) / len(v) for k, v in groups.items()}

    b, a = rates(before), rates(after)
    shared = sorted(set(b) & set(a))
    return [b[k] for k in shared], [a[k] for k in shared]


def holdout_verdict(
    before: Any, after: Any, *, metric: str = "pass_at_1", seed: int = 0
) -> dict[str, Any]:
    """The verdict record: ``before``/``after`` as numbers, per-task sequences or graded rows."""
    if _rows(before) and _rows(after):
        before, after = paired_by_task(before, after)
    if isinstance(before, Sequence) and isinstance(after, Sequence):
        interval = paired_interval(before, after, seed=seed)
        b, a = _mean(before), _mean(after)
        n: int | None = len(before)
    else:
        interval, b, a, n = None, float(before), float(after), None
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    if interval is not None:
        low, high = sorted((sign * interval[0], sign * interval[1]))
        word = BETTER if low > 0 else WORSE if high < 0 else SAME
    else:
        delta = sign * (a - b)
        word = BETTER if delta > 0 else WORSE if delta < 0 else SAME
    return {
        "metric": metric,
        "before": b,
        "after": a,
        "delta": a - b,
        "ci95": list(interval) if interval else None,
        "tasks": n,
        "verdict": word,
    }


def _rows(value: Any) -> bool:
    return (
        isinstance(value, Sequence) and bool(value) and all(isinstance(v, Mapping) for v in value)
    )


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else float("nan")
