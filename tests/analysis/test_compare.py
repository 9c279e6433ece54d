"""compare_runs(), paired_interval() and eval_variance(): hand-computed values, a seeded coverage
study, the unpaired fallback."""

from __future__ import annotations

import math

import numpy as np
import pytest

from whileai_env._util.hashing import rng
from whileai_env.analysis.compare import compare_runs, eval_variance, paired_interval, per_task


def _run(rates, *, seed, repeats=4, key="task_id"):
    """Rows of tasks whose pass chance is ``rates[i]``, drawn with a seeded RNG."""
    return [
        {key: f"t{i}", "reward": float(rng("run", seed, i, r).random() < rate)}
        for i, rate in enumerate(rates)
        for r in range(repeats)
    ]


def test_per_task_means_and_metrics():
    rows = [
        {"task_id": "a", "reward": 1.0, "markers": {"m": 0.0}},
        {"task_id": "a", "reward": 0.5, "markers": {"m": 1.0}},
        {"task_id": "b", "reward": None},
    ]
    assert per_task(rows) == {"a": 0.5}
    assert per_task(rows, "reward") == {"a": 0.75}
    assert per_task(rows, "m") == {"a": 0.5}
    assert per_task(rows, threshold=0.5) == {"a": 1.0}


def test_hand_computed_sign_flip_p_and_interval():
    a = [{"task_id": f"t{i}", "reward": 0.0} for i in range(5)]
    b = [{"task_id": f"t{i}", "reward": 1.0} for i in range(5)]
    result = compare_runs(a, b)
    assert (result["delta"], result["ci95"], result["verdict"]) == (1.0, (1.0, 1.0), "b_better")
    # Only the all-plus and all-minus of the 2**5 sign patterns are as extreme: p = 1/16.
    assert result["p_value"] == pytest.approx(1 / 16, abs=0.01)


def test_same_runs_show_no_difference():
    rows = _run([0.3, 0.5, 0.7] * 5, seed=1)
    result = compare_runs(rows, rows)
    assert result["delta"] == 0.0
    assert result["verdict"] == "no_difference_detected"
    assert result["p_value"] == 1.0


def test_only_shared_tasks_pair_and_the_share_is_reported():
    a = _run([0.5] * 10, seed=1)
    b = [row for row in _run([0.5] * 12, seed=2) if row["task_id"] not in ("t0", "t1")]
    result = compare_runs(a, b)
    assert (result["shared_tasks"], result["only_a"], result["only_b"]) == (8, 2, 2)
    assert result["paired_share"] == pytest.approx(8 / 12)


def test_few_shared_tasks_fall_back_to_unpaired():
    a = _run([0.2] * 4, seed=1)
    b = _run([0.9] * 4, seed=2, key="prompt")  # no task in common
    result = compare_runs(a, b)
    assert result["paired"] is False
    assert "unpaired" in result["note"]
    assert result["delta"] > 0


def test_paired_interval_matches_a_direct_bootstrap():
    before, after = [0.0, 0.5, 1.0, 0.25], [0.5, 0.5, 1.0, 1.0]
    diffs = np.subtract(after, before)
    picks = np.random.default_rng(7).integers(0, 4, size=(2000, 4))
    expected = tuple(float(x) for x in np.percentile(diffs[picks].mean(axis=1), [2.5, 97.5]))
    assert paired_interval(before, after, seed=7) == expected
    assert paired_interval([1.0, 2.0], [1.0, 2.0]) is None
    with pytest.raises(ValueError):
        paired_interval([1.0], [1.0, 2.0])


def test_interval_coverage_of_the_true_difference_is_near_95_percent():
    base = [0.2 + 0.6 * (i % 7) / 6 for i in range(30)]
    lift = 0.1
    truth = lift  # every task's true pass chance rises by `lift`
    covered = p_small = 0
    trials = 150
    for trial in range(trials):
        before = _run(base, seed=("before", trial), repeats=8)
        after = _run([r + lift for r in base], seed=("after", trial), repeats=8)
        result = compare_runs(before, after, n_boot=1000)
        low, high = result["ci95"]
        covered += low <= truth <= high
        p_small += result["p_value"] < 0.05
    assert 0.88 <= covered / trials <= 0.99
    assert p_small / trials > 0.5  # the test has power against a real lift


def test_sign_flip_p_is_not_too_small_under_the_null():
    rejections = 0
    for trial in range(100):
        rates = [0.5] * 20
        result = compare_runs(_run(rates, seed=("x", trial)), _run(rates, seed=("y", trial)))
        rejections += result["p_value"] < 0.05
    assert rejections <= 12


def test_eval_variance():
    runs = [_run([0.5] * 20, seed=s) for s in range(3)]
    noise = eval_variance(*runs)
    values = noise["values"]
    mean = sum(values) / 3
    assert noise["run_std"] == pytest.approx(math.sqrt(sum((v - mean) ** 2 for v in values) / 2))
    assert noise["note"] is None and noise["runs"] == 3
    assert eval_variance(runs[0], runs[1])["note"] is not None
    with pytest.raises(ValueError):
        eval_variance(runs[0])
