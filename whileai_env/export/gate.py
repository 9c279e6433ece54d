"""The difficulty band and the publish gate: whether graded rows carry a gradient worth training on.

A prompt every rollout passes, or none does, gives a group-relative trainer no advantage to learn
from (GRPO's advantage is zero within the group), so graded rows are grouped by task and only
tasks whose pass rate lies in ``band`` are kept (:func:`band_gate`). Ungraded input passes whole:
there is nothing to measure, and the report says so.

:func:`publish_gate` is the check before a dataset is stored or shared. RL-shaped rows (repeats of
one phrasing of each ask, the ``rl`` topology) are refused with
:class:`~whileai_env.errors.PublishGateError` when any row is ungraded or when no task is *mixed*
(some rollouts pass, some fail): a grouped update would learn nothing from them. Unanimous and
out-of-band tasks are warned about (``optimize(mode="rl")`` prunes them). Every graded row gets a
``calibration`` stamp, read back typed by :func:`calibration_of`.

>>> rows = [{"task_id": "t", "prompt": "p", "reward": float(i % 2), "repeats": 4, "agent": "a"}
...         for i in range(4)]
>>> stamped, report = publish_gate(rows, mode="rl")
>>> report["mixed_tasks"], calibration_of(stamped[0])
(1, Calibration(pass_rate=0.5, k=4, policy='a'))
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from whileai_env.analysis.hack_scan import hack_scan
from whileai_env.errors import PublishGateError
from whileai_env.scenarios.task import task_columns

PASS = 1.0
#: The difficulty band of the reasoning-model recipes (keep tasks solved 20-80% of the time).
BAND = (0.2, 0.8)
GATE_MODES = ("explore", "sft", "rl", "adaptive")


def _task_key(row: Mapping[str, Any]) -> str:
    """The task a row is a rollout of: its ``task_id``, else its ``prompt``."""
    return str(task_columns(row).get("task_id") or row.get("prompt"))


def _reward(row: Mapping[str, Any]) -> float | None:
    reward = row.get("reward")
    if isinstance(reward, int | float) and not isinstance(reward, bool):
        return float(reward)
    return None


def _outcomes(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[bool]]:
    """Each task's graded rollouts as pass (reward ``>= 1``) or fail, in row order."""
    passes: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        if (reward := _reward(row)) is not None:
            passes[_task_key(row)].append(reward >= PASS)
    return passes


def pass_rates(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Each graded task's share of rollouts with reward ``>= 1``.

    >>> pass_rates([{"task_id": "a", "reward": 1.0}, {"task_id": "a", "reward": 0.0}])
    {'a': 0.5}
    """
    return {task: sum(p) / len(p) for task, p in _outcomes(rows).items()}


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


class Calibration(NamedTuple):
    """A row's calibration stamp: its task's pass rate over ``k`` graded rollouts, and the policy
    (the agent) that produced them."""

    pass_rate: float | None
    k: int | None
    policy: str | None


def calibration_of(row: Mapping[str, Any]) -> Calibration | None:
    """The row's ``calibration`` stamp, typed; ``None`` when the row carries none.

    Reads the stamp :func:`publish_gate` writes and the one ``optimize`` writes (the same
    ``task_pass_rate`` / ``task_rollouts`` keys).

    >>> calibration_of({"calibration": {"task_pass_rate": 0.25, "task_rollouts": 8}})
    Calibration(pass_rate=0.25, k=8, policy=None)
    >>> calibration_of({"reward": 1.0}) is None
    True
    """
    stamp = row.get("calibration")
    if not isinstance(stamp, Mapping):
        return None
    rate, k, policy = (stamp.get(key) for key in ("task_pass_rate", "task_rollouts", "policy"))
    return Calibration(
        pass_rate=float(rate) if isinstance(rate, int | float) else None,
        k=int(k) if isinstance(k, int | float) else None,
        policy=str(policy) if policy is not None else None,
    )


def rl_shaped(rows: Sequence[Mapping[str, Any]], mode: str | None = None) -> bool:
    """Whether ``rows`` are repeats of one phrasing of each ask (the ``rl`` topology).

    ``mode`` decides when given; otherwise the rows do: some task planned or played more than
    once (its ``repeats`` column, or several rows of one task) and no situation worded twice
    (every ``phrasing`` index 0), since several phrasings of a situation is the ``sft`` shape.

    >>> rl_shaped([{"task_id": "t", "repeats": 8}]), rl_shaped([{"task_id": "t", "phrasing": 2}])
    (True, False)
    """
    if mode is not None:
        if mode not in GATE_MODES:
            raise ValueError(f"mode must be one of {', '.join(GATE_MODES)} or None, got {mode!r}")
        return mode == "rl"
    if any(_count(task_columns(row).get("phrasing")) > 0 for row in rows):
        return False
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[_task_key(row)] += 1
    planned = (_count(task_columns(row).get("repeats")) for row in rows)
    return any(n > 1 for n in counts.values()) or any(k > 1 for k in planned)


def _count(value: Any) -> int:
    """A row's count column as an int (0 when absent or not a whole number)."""
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def publish_gate(
    rows: Sequence[Mapping[str, Any]],
    mode: str | None = None,
    *,
    band: tuple[float, float] = BAND,
    endorsed: Sequence[str] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Check ``rows`` before publishing; returns ``(stamped copies, report)``.

    RL-shaped rows (:func:`rl_shaped`) with any ungraded row, or with no mixed task, raise
    :class:`~whileai_env.errors.PublishGateError`. Warnings name unanimous tasks and tasks outside
    ``band``. Each graded row gets ``calibration`` (``task_pass_rate``, ``task_rollouts``,
    ``policy``: the row's ``agent``); a stamp the row already carries is kept, since ``k`` is the
    repeats the grader saw, not the rows that survived a prune. The report's ``pass_at_1`` is over
    the rows given, and a note says so when carried stamps were measured on other rows.
    ``endorsed`` (what the reward should track) adds ``hack_scan`` on RL-shaped rows, its warnings
    among the gate's: a reward that tracks a shortcut is reported, not refused.
    """
    rows = list(rows)
    shaped = rl_shaped(rows, mode)
    outcomes = _outcomes(rows)
    rates = {task: sum(p) / len(p) for task, p in outcomes.items()}
    ungraded = sum(_reward(row) is None for row in rows)
    mixed = sum(0.0 < rate < 1.0 for rate in rates.values())
    if shaped:
        _refuse(len(rows), ungraded, mixed, len(rates))
    stamped, carried = _stamp(rows, outcomes)
    report = _report(rows, rates, shaped, band, ungraded, mixed)
    report["carried_stamps"] = carried
    if shaped and endorsed is not None:
        report["hack_scan"] = hack_scan(rows, endorsed)
        report["warnings"] += report["hack_scan"]["warnings"]
    if carried:
        report["notes"].append(
            f"{carried} rows keep a calibration stamp measured before this row set was cut; "
            "pass_at_1 here is over the rows given"
        )
    return stamped, report


def _refuse(rows: int, ungraded: int, mixed: int, tasks: int) -> None:
    """Raise when RL-shaped rows carry no gradient a grouped update could use."""
    if ungraded:
        raise PublishGateError(
            f"publish gate: {ungraded} of {rows} RL-shaped rows are ungraded (no reward); grade "
            "them (run_judge, data.grade()) or publish with gate=False"
        )
    if not mixed:
        raise PublishGateError(
            f"publish gate: none of {tasks} tasks is mixed (every task's rollouts all pass or "
            "all fail), so a grouped update learns nothing; aim the grid or publish with gate=False"
        )


def _stamp(
    rows: list[Mapping[str, Any]], outcomes: Mapping[str, list[bool]]
) -> tuple[list[dict[str, Any]], int]:
    """Copies of ``rows``, each graded one stamped; how many kept a carried stamp."""
    out, carried = [], 0
    for row in rows:
        copied = copy.deepcopy(dict(row))
        found = calibration_of(row)
        if found is not None and found.pass_rate is not None:
            carried += 1
            copied["calibration"] = {"policy": row.get("agent"), **dict(row["calibration"])}
        elif _reward(row) is not None:
            passes = outcomes[_task_key(row)]
            copied["calibration"] = {
                "task_pass_rate": sum(passes) / len(passes),
                "task_rollouts": len(passes),
                "policy": row.get("agent"),
            }
        out.append(copied)
    return out, carried


def _report(
    rows: list[Mapping[str, Any]],
    rates: Mapping[str, float],
    shaped: bool,
    band: tuple[float, float],
    ungraded: int,
    mixed: int,
) -> dict[str, Any]:
    low, high = band
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"band must be (low, high) with 0 <= low <= high <= 1, got {band}")
    all_pass = sum(rate == 1.0 for rate in rates.values())
    all_fail = sum(rate == 0.0 for rate in rates.values())
    out_of_band = sum(0.0 < rate < 1.0 and not low <= rate <= high for rate in rates.values())
    graded = len(rows) - ungraded
    report: dict[str, Any] = {
        "rl_shaped": shaped,
        "rows": len(rows),
        "graded": graded,
        "ungraded": ungraded,
        "tasks": len(rates),
        "mixed_tasks": mixed,
        "unanimous": {"all_pass": all_pass, "all_fail": all_fail},
        "band": [low, high],
        "out_of_band": out_of_band,
        "pass_at_1": _pass_at_1(rows),
        "warnings": [],
        "notes": [],
    }
    if shaped and all_pass + all_fail:
        report["warnings"].append(
            f"{all_pass + all_fail} of {len(rates)} tasks are unanimous ({all_pass} all pass, "
            f"{all_fail} all fail): zero advantage; optimize(mode='rl') prunes them"
        )
    if shaped and out_of_band:
        report["warnings"].append(
            f"{out_of_band} mixed tasks pass outside the band [{low:g}, {high:g}]; "
            "optimize(mode='rl') prunes them"
        )
    if ungraded:
        report["notes"].append(f"{ungraded} rows are ungraded and carry no calibration stamp")
    return report


def _pass_at_1(rows: list[Mapping[str, Any]]) -> float | None:
    rewards = [r for r in map(_reward, rows) if r is not None]
    return sum(r >= PASS for r in rewards) / len(rewards) if rewards else None
