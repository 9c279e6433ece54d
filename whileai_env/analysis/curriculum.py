"""A curriculum from per-task difficulty: easy to hard, the solved retired, the hopeless held back.

A task's difficulty is its pass rate over its graded rollouts (rlhf-book ch. 7). A task at or
above ``solved`` is dead gradient (every rollout passes: no advantage), one at or below
``floor`` has no signal until the policy improves; the rest are *trainable*, ordered easy to hard
and cut into ``tiers`` for a staged schedule.

>>> rows = [{"task_id": f"t{t}", "reward": float(i < t)} for t in range(5) for i in range(4)]
>>> cur = curriculum(rows)
>>> cur["schedule"], cur["retired"], cur["not_ready"]
(['t3', 't2', 't1'], ['t4'], ['t0'])
>>> sorted({row["task_id"] for row in retire_solved(rows)})
['t0', 't1', 't2', 't3']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from whileai_env.analysis.groups import ask_key, by_ask, stats


def curriculum(
    rows: Iterable[Mapping[str, Any]],
    *,
    solved: float = 0.9,
    floor: float = 0.0,
    tiers: int = 3,
    band: tuple[float, float] = (0.2, 0.8),
) -> dict[str, Any]:
    """Split graded tasks into ``schedule`` (trainable, easy to hard), ``tiers`` (the schedule in
    ``tiers`` nearly equal consecutive parts), ``retired`` (pass rate >= ``solved``) and
    ``not_ready`` (<= ``floor``); ``rates`` gives every task's pass rate and ``in_band`` counts
    the trainable tasks inside ``band``. Unjudged rows are left out; a task with none is not
    placed."""
    if tiers < 1:
        raise ValueError(f"tiers must be at least 1, got {tiers}")
    rates = _rates(rows)
    retired = [key for key, rate in rates.items() if rate >= solved]
    not_ready = [key for key, rate in rates.items() if rate <= floor and key not in retired]
    trainable = [key for key in rates if key not in retired and key not in not_ready]
    schedule = sorted(trainable, key=lambda key: (-rates[key], key))
    return {
        "schedule": schedule,
        "tiers": _cut(schedule, tiers),
        "retired": retired,
        "not_ready": not_ready,
        "rates": rates,
        "in_band": sum(band[0] <= rates[key] <= band[1] for key in schedule),
        "solved": solved,
        "floor": floor,
    }


def retire_solved(
    rows: Iterable[Mapping[str, Any]], *, solved: float = 0.9
) -> list[Mapping[str, Any]]:
    """``rows`` without the tasks whose pass rate is at or above ``solved`` (the ones the policy
    already aces); every other row is kept as it is, in order."""
    rows = list(rows)
    rates = _rates(rows)
    return [row for row in rows if rates.get(ask_key(row), 0.0) < solved]


def format_curriculum(cur: Mapping[str, Any]) -> str:
    """The curriculum as a few lines of text.

    >>> print(format_curriculum(curriculum([{"task_id": "a", "reward": 1.0},
    ...                                     {"task_id": "a", "reward": 0.0}])))
    trainable 1 (1 in band) | retired 0 | not ready 0
    tier 1: a 0.50
    """
    head = (
        f"trainable {len(cur['schedule'])} ({cur['in_band']} in band) | "
        f"retired {len(cur['retired'])} | not ready {len(cur['not_ready'])}"
    )
    lines = [head]
    for number, tier in enumerate(cur["tiers"], 1):
        if tier:
            tasks = ", ".join(f"{key} {cur['rates'][key]:.2f}" for key in tier)
            lines.append(f"tier {number}: {tasks}")
    return "\n".join(lines)


def _rates(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    rates = {}
    for key, group in by_ask(rows).items():
        rate = stats(group)["pass_rate"]
        if rate is not None:
            rates[key] = rate
    return rates


def _cut(schedule: list[str], tiers: int) -> list[list[str]]:
    size, extra = divmod(len(schedule), tiers)
    out, start = [], 0
    for index in range(tiers):
        end = start + size + (index < extra)
        out.append(schedule[start:end])
        start = end
    return out
