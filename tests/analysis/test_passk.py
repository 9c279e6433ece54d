"""pass@1, pass^k and pass@k against hand-computed values, and the bootstrap intervals."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from whileai_env.analysis import PassAt, pass_at, unbiased_pass_at_k, unbiased_pass_pow_k
from whileai_env.grading.judge import run_judge


def group(prompt: str, n: int, c: int) -> list[dict]:
    """``n`` rollouts of one prompt, the first ``c`` passing."""
    return [{"prompt": prompt, "reward": 1.0 if i < c else 0.0} for i in range(n)]


# Four tasks of unequal size (k = 4, the smallest):
#   A: n=4, c=4  rate 1     pass^4 = C(4,4)/C(4,4) = 1        pass@4 = 1 - C(0,4)/C(4,4) = 1
#   B: n=4, c=2  rate 1/2   pass^4 = C(2,4)/C(4,4) = 0        pass@4 = 1 - C(2,4)/C(4,4) = 1
#   C: n=5, c=1  rate 1/5   pass^4 = C(1,4)/C(5,4) = 0/5 = 0  pass@4 = 1 - C(4,4)/C(5,4) = 1 - 1/5 = 4/5
#   D: n=6, c=5  rate 5/6   pass^4 = C(5,4)/C(6,4) = 5/15     pass@4 = 1 - C(1,4)/C(6,4) = 1
# pass@1 = (1 + 1/2 + 1/5 + 5/6) / 4 = (30 + 15 + 6 + 25) / 30 / 4 = 76/120 = 19/30
# pass^4 = (1 + 0 + 0 + 1/3) / 4 = 1/3
# pass@4 = (1 + 1 + 4/5 + 1) / 4 = 19/20
# headroom = 19/20 - 19/30 = 57/60 - 38/60 = 19/60
ROWS = group("A", 4, 4) + group("B", 4, 2) + group("C", 5, 1) + group("D", 6, 5)


@pytest.mark.parametrize(
    ("n", "c", "k", "at_k", "pow_k"),
    [
        (5, 2, 4, 1.0, 0.0),  # pass@4 = 1 - C(3,4)/C(5,4) = 1 - 0/5; pass^4 = C(2,4)/C(5,4) = 0/5
        (5, 4, 4, 1.0, 1 / 5),  # pass@4 = 1 - C(1,4)/5 = 1; pass^4 = C(4,4)/C(5,4) = 1/5
        (6, 1, 4, 2 / 3, 0.0),  # pass@4 = 1 - C(5,4)/C(6,4) = 1 - 5/15; pass^4 = C(1,4)/15 = 0
        (8, 6, 4, 1.0, 3 / 14),  # pass@4 = 1 - C(2,4)/70 = 1; pass^4 = C(6,4)/C(8,4) = 15/70
        (8, 2, 4, 11 / 14, 0.0),  # pass@4 = 1 - C(6,4)/C(8,4) = 1 - 15/70 = 55/70
        (4, 0, 4, 0.0, 0.0),  # nothing passes: both 0
        (4, 4, 4, 1.0, 1.0),  # everything passes: both 1
        (10, 5, 1, 0.5, 0.5),  # k=1 is the pass rate: 1 - C(5,1)/C(10,1) = 5/10; C(5,1)/10
    ],
)
def test_unbiased_estimators_match_hand_computation(n, c, k, at_k, pow_k):
    assert unbiased_pass_at_k(n, c, k) == pytest.approx(at_k, abs=1e-15)
    assert unbiased_pass_pow_k(n, c, k) == pytest.approx(pow_k, abs=1e-15)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 1, 4), (4, 5, 2), (4, -1, 2), (4, 2, 0)])
def test_estimators_reject_impossible_counts(n, c, k):
    with pytest.raises(ValueError):
        unbiased_pass_at_k(n, c, k)
    with pytest.raises(ValueError):
        unbiased_pass_pow_k(n, c, k)


def test_pass_at_matches_hand_computation():
    result = pass_at(ROWS)
    assert result.k == 4
    assert result.groups == result.groups_at_k == 4
    assert result.n_rows == 19
    assert result.unjudged == 0
    assert result.pass_at_1 == pytest.approx(19 / 30, abs=1e-12)
    assert result.pass_pow_k == pytest.approx(1 / 3, abs=1e-12)
    assert result.pass_at_k == pytest.approx(19 / 20, abs=1e-12)
    assert result.headroom == pytest.approx(19 / 60, abs=1e-12)
    assert result.per_task == pytest.approx({"A": 1.0, "B": 0.5, "C": 0.2, "D": 5 / 6})
    assert result.note is None


def test_tasks_are_weighted_equally_not_by_rows():
    # A: 10 of 10 pass, B: 0 of 4. Per task (1 + 0) / 2 = 0.5; per row it would be 10/14.
    assert pass_at(group("A", 10, 10) + group("B", 4, 0)).pass_at_1 == 0.5


def test_given_k_averages_over_groups_with_enough_repeats():
    # k=5 keeps C (n=5, c=1) and D (n=6, c=5):
    #   pass^5: C: C(1,5)/C(5,5) = 0;  D: C(5,5)/C(6,5) = 1/6  -> (0 + 1/6) / 2 = 1/12
    #   pass@5: C: 1 - C(4,5)/1 = 1;   D: 1 - C(1,5)/6 = 1     -> 1
    # headroom = 1 - 19/30 = 11/30 (pass@1 stays over all four tasks).
    result = pass_at(ROWS, k=5)
    assert result.k == 5
    assert result.groups_at_k == 2
    assert result.pass_pow_k == pytest.approx(1 / 12, abs=1e-12)
    assert result.pass_at_k == 1.0
    assert result.headroom == pytest.approx(11 / 30, abs=1e-12)
    assert result.pass_pow_k_ci95 is None and result.pass_at_k_ci95 is None  # two groups < three
    assert "2 of 4 groups" in result.note


@pytest.mark.parametrize("k", [None, 3])
def test_k_below_four_gives_none_with_a_note(k):
    rows = group("A", 3, 3) + group("B", 3, 1) + group("C", 3, 0)
    result = pass_at(rows, k=k)
    assert result.k == 3
    assert result.pass_at_1 == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert result.pass_pow_k is None and result.pass_at_k is None and result.headroom is None
    assert result.pass_pow_k_ci95 is None and result.pass_at_k_ci95 is None
    assert "k=3" in result.note and "4" in result.note
    assert "pass^3 n/a" in str(result)


def test_one_repeat_each_does_not_print_a_second_pass_at_1():
    rows = group("A", 1, 1) + group("B", 1, 0) + group("C", 1, 1)
    text = str(pass_at(rows))
    assert text.startswith("pass@1 0.67") and text.count("pass@1") == 1
    assert "pass^k n/a | pass@k n/a" in text and "k=1" in text


def test_k_larger_than_every_group_gives_none_with_a_note():
    result = pass_at(ROWS, k=7)
    assert result.pass_at_k is None and result.groups_at_k == 0
    assert "7" in result.note


def test_threshold_partial_credit_is_not_a_pass_by_default():
    rows = [{"prompt": "p", "reward": r} for r in (1.0, 0.5, 0.5, 0.0)]
    assert pass_at(rows).per_task == {"p": 0.25}
    assert pass_at(rows, threshold=0.5).per_task == {"p": 0.75}
    assert pass_at(rows, threshold=0.5).threshold == 0.5


def test_unjudged_rows_are_excluded_and_counted():
    rows = [*group("A", 4, 2), {"prompt": "A", "reward": None}, {"prompt": "B", "reward": None}]
    result = pass_at(rows)
    assert result.n_rows == 6
    assert result.unjudged == 2
    assert result.per_task == {"A": 0.5}  # B has no judged row, so it is not a task yet
    assert result.k == 4
    assert "2 unjudged" in str(result)


def test_failed_judge_rows_from_run_judge_count_as_unjudged_not_failures():
    def flaky(row):
        if row["n"] == 0:
            raise TimeoutError("judge API")
        return row["n"] % 2

    rows = [{"prompt": "p", "n": n} for n in range(5)]
    result = pass_at(run_judge(rows, flaky))
    # n=1..4 judged: rewards 1, 0, 1, 0 -> 2 of 4 pass.
    assert result.unjudged == 1
    assert result.per_task == {"p": 0.5}


def test_no_judged_rows():
    result = pass_at([{"prompt": "p", "reward": None}])
    assert result.pass_at_1 is None and result.ci95 is None and result.k is None
    assert result.groups == 0 and result.unjudged == 1
    assert "no judged rows" in result.note
    assert pass_at([]).note == "no rows"


def test_per_task_is_a_dict_keyed_by_prompt():
    result = pass_at(ROWS)
    assert isinstance(result.per_task, dict)
    assert result.per_task["B"] == 0.5
    with pytest.raises(KeyError):
        result.per_task[0]
    assert pass_at(ROWS).pass_at_1 == pytest.approx(sum(result.per_task.values()) / 4)


def test_bootstrap_is_deterministic_and_contains_the_point_estimate():
    rows = [row for t in range(30) for row in group(f"task {t}", 8, (t * 7) % 9)]
    first, second = pass_at(rows), pass_at(rows)
    assert first == second
    for point, interval in [
        (first.pass_at_1, first.ci95),
        (first.pass_pow_k, first.pass_pow_k_ci95),
        (first.pass_at_k, first.pass_at_k_ci95),
    ]:
        low, high = interval
        assert 0.0 <= low <= point <= high <= 1.0
        assert low < high
    assert pass_at(rows, seed=1).ci95 != first.ci95


def test_bootstrap_is_a_percentile_interval_over_tasks():
    rows = [row for t in range(12) for row in group(f"task {t}", 4, t % 5)]
    result = pass_at(rows, seed=3, n_boot=500)
    rates = np.array([(t % 5) / 4 for t in range(12)])
    picks = np.random.default_rng(3).integers(0, 12, size=(500, 12))
    expected = np.percentile(rates[picks].mean(axis=1), [2.5, 97.5])
    assert result.ci95 == pytest.approx(tuple(expected), abs=1e-12)


def test_fewer_than_three_groups_has_no_intervals():
    result = pass_at(group("A", 4, 2) + group("B", 4, 4))
    assert result.pass_at_1 == 0.75
    assert result.pass_at_k is not None
    assert result.ci95 is None and result.pass_pow_k_ci95 is None and result.pass_at_k_ci95 is None


def test_str_and_to_dict():
    result = pass_at(ROWS)
    low, high = result.ci95
    assert str(result) == (
        f"pass@1 0.63 [{low:.2f}, {high:.2f}] | pass^4 0.33 | pass@4 0.95 | "
        "headroom 0.32 (4 groups, k=4)"
    )
    data = json.loads(json.dumps(result.to_dict()))
    assert data["ci95"] == [low, high]
    assert data["per_task"]["D"] == pytest.approx(5 / 6)
    assert data["k"] == 4 and data["groups"] == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.k = 8
    assert isinstance(result, PassAt)


@pytest.mark.parametrize(
    "rows",
    [
        [{"reward": 1.0}],
        [{"prompt": 3, "reward": 1.0}],
        [{"prompt": "p", "reward": "1"}],
        [{"prompt": "p", "reward": float("nan")}],
    ],
)
def test_malformed_rows_are_rejected(rows):
    with pytest.raises(ValueError):
        pass_at(rows)


@pytest.mark.parametrize(
    "kwargs", [{"k": 0}, {"k": 2.5}, {"n_boot": 0}, {"threshold": float("nan")}]
)
def test_bad_arguments_are_rejected(kwargs):
    with pytest.raises(ValueError):
        pass_at(ROWS, **kwargs)


def test_the_bootstrap_gives_the_same_interval_however_its_resamples_are_cut(monkeypatch):
    from whileai_env.analysis import compare, passk

    rows = [{"prompt": f"p{i}", "reward": float(i % 3 == 0)} for i in range(400)]
    before = [float(i % 2) for i in range(400)]
    after = [float(i % 5 != 0) for i in range(400)]
    whole = (pass_at(rows).ci95, compare.paired_interval(before, after, seed=4))
    monkeypatch.setattr(passk, "BOOTSTRAP_BLOCK", 7 * 400 + 3)  # 7 resamples a block
    assert (pass_at(rows).ci95, compare.paired_interval(before, after, seed=4)) == whole


def test_a_bootstrap_over_many_tasks_holds_a_block_not_every_resample():
    """2,000 tasks x 2,000 resamples: the whole matrix of picks and its floats took 183 MB
    (traced); a block at a time, 48 MB."""
    import tracemalloc

    rows = [{"prompt": f"p{i}", "reward": float(i % 3 == 0)} for i in range(2000)]
    tracemalloc.start()
    try:
        result = pass_at(rows)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.ci95 is not None and peak < 80 * 2**20
