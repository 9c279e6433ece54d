"""Two runs compared on the tasks they share: a paired bootstrap interval on the difference and
a sign-flip permutation p-value (:func:`compare_runs`), the eval's own re-run noise
(:func:`eval_variance`).

Tasks pair by ask (``task_id``, else ``prompt``); each side's value for a task is the mean over
its rollouts of the metric: ``pass_at_1`` (reward at or above ``threshold``), ``reward``, or a
marker's name. The verdict ``no_difference_detected`` means the interval covers zero, not that the
runs are equal. Fewer than :data:`MIN_PAIRED` shared tasks fall back to an unpaired comparison
over every task of each side, and the ``note`` says so.

>>> a = [{"task_id": f"t{i}", "reward": float(i % 3 == 0)} for i in range(12)]
>>> b = [{"task_id": f"t{i}", "reward": 1.0} for i in range(12)]
>>> result = compare_runs(a, b)
>>> result["verdict"], round(result["delta"], 3), result["paired"]
('b_better', 0.667, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from whileai_env._util.hashing import stable_hash
from whileai_env.analysis.groups import by_ask, reward_of
from whileai_env.analysis.passk import resample_blocks

MIN_PAIRED = 5
N_BOOT = 2000
N_PERM = 5000


def paired_interval(
    before: Sequence[float], after: Sequence[float], *, seed: int = 0, n_boot: int = N_BOOT
) -> tuple[float, float] | None:
    """Percentile 95% interval of the mean paired difference ``after - before``, resampling
    tasks with ``numpy.random.default_rng(seed)``; ``None`` under three pairs.

    >>> paired_interval([0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0])
    (1.0, 1.0)
    """
    if len(before) != len(after):
        raise ValueError(
            f"paired outcomes need the same tasks: {len(before)} before, {len(after)} after"
        )
    if len(before) < 3:
        return None
    diffs = np.asarray(after, dtype=float) - np.asarray(before, dtype=float)
    means = [diffs[picks].mean(axis=1) for picks in resample_blocks(len(diffs), n_boot, seed)]
    low, high = np.percentile(np.concatenate(means), [2.5, 97.5])
    return float(low), float(high)


def metric_value(row: Mapping[str, Any], metric: str, threshold: float = 1.0) -> float | None:
    """One row's value of ``metric``: ``pass_at_1`` (0/1 by ``threshold``), ``reward``, or the
    marker named ``metric`` (``None`` when the row lacks it or is unjudged).

    >>> metric_value({"reward": 0.5, "markers": {"grounded": 1.0}}, "grounded")
    1.0
    """
    if metric in ("pass_at_1", "reward"):
        reward = reward_of(row)
        if reward is None:
            return None
        return float(reward >= threshold) if metric == "pass_at_1" else reward
    markers = row.get("markers")
    value = markers.get(metric) if isinstance(markers, Mapping) else None
    if isinstance(value, bool | int | float) and math.isfinite(value):
        return float(value)
    return None


def per_task(
    rows: Iterable[Mapping[str, Any]], metric: str = "pass_at_1", threshold: float = 1.0
) -> dict[str, float]:
    """``{ask: mean of metric over its rows}`` over the asks with at least one value."""
    out = {}
    for key, group in by_ask(rows).items():
        values = [v for v in (metric_value(r, metric, threshold) for r in group) if v is not None]
        if values:
            out[key] = math.fsum(values) / len(values)
    return out


def compare_runs(
    a: Iterable[Mapping[str, Any]],
    b: Iterable[Mapping[str, Any]],
    *,
    metric: str = "pass_at_1",
    threshold: float = 1.0,
    seed: int = 0,
    n_boot: int = N_BOOT,
) -> dict[str, Any]:
    """``b`` against ``a`` on ``metric`` (see the module docstring). Returns ``a`` and ``b`` (the
    means over the compared tasks), ``delta`` (``b - a``), ``ci95``, ``p_value``, ``paired``,
    ``shared_tasks``, ``only_a``, ``only_b``, ``paired_share``, ``verdict`` (``b_better``,
    ``a_better``, ``no_difference_detected``) and ``note``."""
    left, right = per_task(a, metric, threshold), per_task(b, metric, threshold)
    shared = sorted(set(left) & set(right))
    total = len(set(left) | set(right))
    facts: dict[str, Any] = {
        "metric": metric,
        "shared_tasks": len(shared),
        "only_a": len(set(left) - set(right)),
        "only_b": len(set(right) - set(left)),
        "paired_share": len(shared) / total if total else 0.0,
    }
    if len(shared) >= MIN_PAIRED:
        before, after = [left[k] for k in shared], [right[k] for k in shared]
        facts.update(_paired(before, after, seed, n_boot))
    else:
        facts.update(_unpaired(list(left.values()), list(right.values()), seed, n_boot))
    facts["verdict"] = _verdict(facts["ci95"])
    return facts


def _paired(before: list[float], after: list[float], seed: int, n_boot: int) -> dict[str, Any]:
    diffs = np.asarray(after) - np.asarray(before)
    return {
        "paired": True,
        "a": math.fsum(before) / len(before),
        "b": math.fsum(after) / len(after),
        "delta": math.fsum(diffs.tolist()) / len(diffs),
        "ci95": paired_interval(before, after, seed=seed, n_boot=n_boot),
        "p_value": _sign_flip_p(diffs, seed),
        "note": None,
    }


def _sign_flip_p(diffs: np.ndarray, seed: int) -> float:
    """Two-sided p of the mean difference under random sign flips (exchangeable pairs)."""
    observed = abs(float(diffs.mean()))
    generator = np.random.default_rng(stable_hash("sign-flip", seed))
    signs = generator.choice((-1.0, 1.0), size=(N_PERM, len(diffs)))
    extreme = np.abs((signs * diffs).mean(axis=1)) >= observed - 1e-12
    return float((extreme.sum() + 1) / (N_PERM + 1))


def _unpaired(left: list[float], right: list[float], seed: int, n_boot: int) -> dict[str, Any]:
    note = (
        f"fewer than {MIN_PAIRED} shared tasks: an unpaired comparison of every task on each "
        "side (pin the task set with simulate(tasks=...) to pair them)"
    )
    if len(left) < 2 or len(right) < 2:
        mean_a = math.fsum(left) / len(left) if left else None
        mean_b = math.fsum(right) / len(right) if right else None
        delta = None if mean_a is None or mean_b is None else mean_b - mean_a
        return dict(
            paired=False, a=mean_a, b=mean_b, delta=delta, ci95=None, p_value=None, note=note
        )
    generator = np.random.default_rng(seed)
    x, y = np.asarray(left), np.asarray(right)
    boots = [
        float(generator.choice(y, len(y)).mean() - generator.choice(x, len(x)).mean())
        for _ in range(n_boot)
    ]
    low, high = np.percentile(boots, [2.5, 97.5])
    return {
        "paired": False,
        "a": float(x.mean()),
        "b": float(y.mean()),
        "delta": float(y.mean() - x.mean()),
        "ci95": (float(low), float(high)),
        "p_value": _label_shuffle_p(x, y, seed),
        "note": note,
    }


def _label_shuffle_p(x: np.ndarray, y: np.ndarray, seed: int) -> float:
    pooled = np.concatenate([x, y])
    observed = abs(float(y.mean() - x.mean()))
    generator = np.random.default_rng(stable_hash("label-shuffle", seed))
    hits = 0
    for _ in range(N_PERM):
        order = generator.permutation(pooled)
        hits += abs(float(order[len(x) :].mean() - order[: len(x)].mean())) >= observed - 1e-12
    return (hits + 1) / (N_PERM + 1)


def _verdict(ci95: tuple[float, float] | None) -> str:
    if ci95 is None or ci95[0] <= 0 <= ci95[1]:
        return "no_difference_detected"
    return "b_better" if ci95[0] > 0 else "a_better"


def eval_variance(*runs: Iterable[Mapping[str, Any]], metric: str = "pass_at_1") -> dict[str, Any]:
    """The eval's own re-run noise: ``metric`` over tasks in each run (same model, same tasks,
    run again), their mean and ``run_std`` (sample standard deviation). Pass ``run_std`` to
    :func:`~whileai_env.analysis.delta.delta_report`; three or more runs are advised, two give a
    ``note``.

    >>> noise = eval_variance([{"prompt": "p", "reward": 1.0}], [{"prompt": "p", "reward": 0.0}])
    >>> noise["values"], round(noise["run_std"], 3)
    ([1.0, 0.0], 0.707)
    """
    if len(runs) < 2:
        raise ValueError("eval_variance needs at least two runs of the same eval")
    values = []
    for run in runs:
        rates = list(per_task(run, metric).values())
        values.append(math.fsum(rates) / len(rates) if rates else float("nan"))
    mean = math.fsum(values) / len(values)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))
    note = None if len(runs) >= 3 else "two runs give a rough run_std: three or more are advised"
    return dict(metric=metric, runs=len(runs), values=values, mean=mean, run_std=std, note=note)
