"""The judge contract: every verdict shape, every failure status, order, async, no mutation."""

from __future__ import annotations

import copy
import functools
import random
import threading
import time

import numpy as np
import pytest

from whileai_env.grading.judge import (
    JUDGE_STATUSES,
    Verdict,
    grade_own_row,
    judge_report,
    normalise_verdict,
    run_judge,
)


def make_rows(n: int = 3) -> list[dict]:
    return [
        {
            "prompt": f"task {i}",
            "final_text": f"reply {i}",
            "markers": {"first_action": 1.0},
            "steps": [{"index": 0, "tool": "get_order"}],
        }
        for i in range(n)
    ]


# --- normalise_verdict: the contract applied to one raw result ---------------------------------


@pytest.mark.parametrize(
    ("value", "reward"),
    [
        (1, 1.0),
        (0, 0.0),
        (0.7, 0.7),
        (True, 1.0),
        (False, 0.0),
        (np.float64(0.25), 0.25),
        (np.int64(1), 1.0),
        (np.bool_(True), 1.0),
    ],
)
def test_bare_numbers_and_bools_are_rewards(value, reward):
    verdict = normalise_verdict(value)
    assert verdict == Verdict("ok", reward, None, {}, {})
    assert type(verdict.reward) is float


def test_dict_verdict_splits_reward_reason_markers_and_meta():
    verdict = normalise_verdict(
        {
            "reward": 1,
            "reason": "grounded",
            "markers": {"grounded": True},
            "failure_class": None,
            "model": "phi-4",
        }
    )
    assert verdict == Verdict(
        "ok", 1.0, "grounded", {"grounded": 1.0}, {"failure_class": None, "model": "phi-4"}
    )


@pytest.mark.parametrize("value", [{"reason": "could not parse"}, {"reward": None}, {}])
def test_dict_without_reward_is_missing_reward(value):
    verdict = normalise_verdict(value)
    assert verdict.status == "missing_reward"
    assert verdict.reward is None
    assert "reward" in verdict.meta["error"]


@pytest.mark.parametrize(
    "value",
    [
        "1",
        "yes",
        None,
        [1],
        (1,),
        float("nan"),
        float("inf"),
        -float("inf"),
        1 + 0j,
        10**400,
        {"reward": "1"},
        {"reward": float("nan")},
        {"reward": [1.0]},
        {"reward": 1, "markers": [1.0]},
        {"reward": 1, "markers": {"x": "high"}},
        {"reward": 1, "markers": {"x": float("inf")}},
        {"reward": 1, "markers": {3: 1.0}},
    ],
)
def test_unsupported_shapes_are_invalid_result(value):
    verdict = normalise_verdict(value)
    assert verdict.status == "invalid_result"
    assert verdict.reward is None
    assert verdict.markers == {}
    assert verdict.meta["error"]


def test_failed_dict_verdict_keeps_reason_and_the_judges_own_error():
    verdict = normalise_verdict({"reason": "llm refused", "error": "HTTP 500"})
    assert verdict.status == "missing_reward"
    assert verdict.reason == "llm refused"
    assert verdict.meta["judge_error"] == "HTTP 500"
    assert verdict.meta["error"] == "verdict has no 'reward'"


# --- run_judge: statuses on rows ----------------------------------------------------------------


def test_ok_rows_carry_reward_reason_merged_markers_name_and_meta():
    def politeness(row):
        return {"reward": 0.5, "reason": "half", "markers": {"polite": 1}, "failure_class": "tone"}

    graded = run_judge(make_rows(1), politeness, version="v3")
    row = graded[0]
    assert row["reward"] == 0.5
    assert row["reason"] == "half"
    assert row["markers"] == {"first_action": 1.0, "polite": 1.0}
    assert row["judge_name"] == "politeness"
    assert row["judge_status"] == "ok"
    assert row["judge_meta"] == {"failure_class": "tone", "version": "v3"}


def test_judge_marker_overrides_a_same_named_row_marker():
    graded = run_judge(make_rows(1), lambda row: {"reward": 1, "markers": {"first_action": 0.0}})
    assert graded[0]["markers"] == {"first_action": 0.0}


def test_bare_number_and_bool_verdicts_on_rows():
    assert [r["reward"] for r in run_judge(make_rows(2), lambda row: 1)] == [1.0, 1.0]
    graded = run_judge(make_rows(2), lambda row: row["prompt"].endswith("1"))
    assert [r["reward"] for r in graded] == [0.0, 1.0]
    assert all(r["judge_status"] == "ok" and r["reason"] is None for r in graded)


@pytest.mark.parametrize(
    ("verdict", "status"),
    [
        ({"reason": "no reward here"}, "missing_reward"),
        ("1", "invalid_result"),
        (float("nan"), "invalid_result"),
        (float("inf"), "invalid_result"),
        ([1.0], "invalid_result"),
        (None, "invalid_result"),
    ],
)
def test_failed_verdicts_mark_the_row_and_never_score_zero(verdict, status):
    rows = make_rows(2)
    rows[0]["reward"] = 1.0  # a stale reward from an earlier grading must not survive
    graded = run_judge(rows, lambda row: verdict)
    for row in graded:
        assert row["judge_status"] == status
        assert row["reward"] is None
        assert row["markers"] == {"first_action": 1.0}
        assert row["judge_meta"]["error"]


def test_raising_judge_is_error_with_message_kept():
    def broken(row):
        raise RuntimeError(f"judge backend down for {row['prompt']}")

    graded = run_judge(make_rows(2), broken)
    assert [r["judge_status"] for r in graded] == ["error", "error"]
    assert [r["reward"] for r in graded] == [None, None]
    assert graded[1]["judge_meta"]["error"] == "RuntimeError: judge backend down for task 1"
    assert graded[1]["judge_meta"]["error_type"] == "RuntimeError"


def test_hung_judge_times_out_without_blocking_the_return():
    release = threading.Event()

    def hangs_on_first(row):
        if row["prompt"] == "task 0":
            release.wait(2.0)
        return 1

    try:
        started = time.monotonic()
        graded = run_judge(make_rows(3), hangs_on_first, timeout=0.2, concurrency=1)
        elapsed = time.monotonic() - started
    finally:
        release.set()
    assert elapsed < 1.0, f"run_judge waited {elapsed:.2f}s for a hung judge"
    assert [r["judge_status"] for r in graded] == ["timeout", "ok", "ok"]
    assert graded[0]["reward"] is None
    assert "0.2 s" in graded[0]["judge_meta"]["error"]
    assert [r["reward"] for r in graded[1:]] == [1.0, 1.0]


def test_timeout_counts_from_each_rows_start_not_from_the_call():
    # Four 0.1 s judges one at a time take 0.4 s in all; each is well inside a 0.3 s timeout.
    def steady(row):
        time.sleep(0.1)
        return 1

    graded = run_judge(make_rows(4), steady, timeout=0.3, concurrency=1)
    assert [r["judge_status"] for r in graded] == ["ok"] * 4


def test_order_is_input_order_under_concurrency():
    rows = [{"prompt": f"task {i}", "index": i} for i in range(40)]
    delays = random.Random(7).sample([i / 1000 for i in range(40)], 40)  # finish out of order

    def slow_echo(row):
        time.sleep(delays[row["index"]])
        return {"reward": row["index"] % 2, "reason": row["prompt"]}

    graded = run_judge(rows, slow_echo, concurrency=8)
    assert [r["reason"] for r in graded] == [f"task {i}" for i in range(40)]
    assert [r["reward"] for r in graded] == [float(i % 2) for i in range(40)]
    assert graded == run_judge(rows, slow_echo, concurrency=3)


def test_concurrency_bounds_how_many_run_at_once():
    lock = threading.Lock()
    live = peak = 0

    def counting(row):
        nonlocal live, peak
        with lock:
            live += 1
            peak = max(peak, live)
        time.sleep(0.01)
        with lock:
            live -= 1
        return 1

    run_judge(make_rows(24), counting, concurrency=4)
    assert 1 < peak <= 4


def test_async_judge():
    async def async_judge(row):
        import asyncio

        await asyncio.sleep(0.001)
        return {"reward": 1, "markers": {"async": 1}}

    graded = run_judge(make_rows(3), async_judge, concurrency=2)
    assert [r["judge_status"] for r in graded] == ["ok"] * 3
    assert graded[0]["markers"]["async"] == 1.0
    assert graded[0]["judge_name"] == "async_judge"


def test_async_judge_that_raises_is_error():
    async def async_broken(row):
        raise ValueError("bad json")

    graded = run_judge(make_rows(1), async_broken)
    assert graded[0]["judge_status"] == "error"
    assert graded[0]["judge_meta"]["error"] == "ValueError: bad json"


def test_inputs_are_not_mutated_even_by_a_judge_that_edits_its_row():
    rows = make_rows(2)
    before = copy.deepcopy(rows)

    def vandal(row):
        row["markers"]["first_action"] = 0.0
        row["steps"].clear()
        row["prompt"] = "changed"
        return {"reward": 1, "markers": {"extra": 1.0}}

    graded = run_judge(rows, vandal, concurrency=2)
    assert rows == before
    assert graded[0]["steps"] == before[0]["steps"]
    assert graded[0]["prompt"] == "task 0"
    graded[0]["steps"].append("x")
    graded[0]["markers"]["extra"] = 0.0
    assert rows == before


def test_an_own_row_is_graded_in_place_as_run_judge_grades_a_copy():
    def vandal(row):
        row["steps"].clear()
        return {"reward": 1, "markers": {"extra": 1.0}}

    row = make_rows(1)[0]
    expected = run_judge([row], vandal)[0]
    graded = grade_own_row(row, vandal)
    assert graded is row and graded == expected
    assert graded["steps"] == [{"index": 0, "tool": "get_order"}]


def test_the_built_in_checklist_only_reads_the_row_it_is_handed():
    """``grade_own_row`` and the episode hand ``task_checklist`` their row uncopied."""
    from whileai_env.grading import task_checklist
    from whileai_env.simulation import simulate

    run = simulate("seeded", spec="configs/specs/airline.yaml", budget=40, quiet=True)
    for row in run.trajectories:
        before = copy.deepcopy(row)
        task_checklist(row)
        assert row == before


def test_judge_name_from_name_callable_class_and_partial():
    class RubricJudge:
        def __call__(self, row):
            return 1

    def scored(row, scale):
        return scale

    rows = make_rows(1)
    assert run_judge(rows, RubricJudge())[0]["judge_name"] == "RubricJudge"
    assert run_judge(rows, functools.partial(scored, scale=1))[0]["judge_name"] == "scored"
    assert run_judge(rows, RubricJudge(), name="rubric-v2")[0]["judge_name"] == "rubric-v2"


def test_empty_rows_and_bad_arguments():
    assert run_judge([], lambda row: 1) == []
    with pytest.raises(TypeError):
        run_judge(make_rows(1), "not a judge")
    with pytest.raises(ValueError):
        run_judge(make_rows(1), lambda row: 1, concurrency=0)
    with pytest.raises(ValueError):
        run_judge(make_rows(1), lambda row: 1, timeout=0)
    with pytest.raises(TypeError):
        run_judge([["not", "a", "row"]], lambda row: 1)


def test_judge_report_counts_every_status():
    def mixed(row):
        return [1, {"reason": "?"}, "bad", float("nan")][int(row["prompt"][-1]) % 4]

    graded = run_judge(make_rows(6), mixed)
    report = judge_report([*graded, {"prompt": "never judged"}])
    assert report == {
        "ok": 2,
        "missing_reward": 2,
        "invalid_result": 2,
        "error": 0,
        "timeout": 0,
        "ungraded": 1,
    }
    assert set(JUDGE_STATUSES) < set(report)
