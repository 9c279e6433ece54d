"""All / Any / Weighted and @verifier, through the one judge runner."""

from __future__ import annotations

import time

import pytest

from whileai_env.grading.judge import run_judge
from whileai_env.judges import All, Any, ExactMatch, Includes, JSONValid, Regex, Weighted, verifier


def test_all_any_weighted_combine_the_parts():
    row = {"final_text": '{"id": 7}', "answer": "7"}
    assert All(JSONValid(), Includes())(row)["reward"] == 1.0
    assert All(JSONValid(), ExactMatch())(row)["reward"] == 0.0
    assert Any(JSONValid(), ExactMatch())(row)["reward"] == 1.0
    assert Weighted((JSONValid(), 1), (ExactMatch(), 3))(row)["reward"] == 0.25


def test_parts_are_markers_with_unique_names():
    result = All(Regex("a"), Regex("b"))({"final_text": "a"})
    assert result["markers"] == {"Regex": 1.0, "Regex_2": 0.0}


def test_a_failed_part_marks_the_row_error_naming_the_part():
    (row,) = run_judge([{"final_text": "x"}], All(JSONValid(), ExactMatch()))
    assert row["judge_status"] == "error"
    assert row["reward"] is None
    assert "ExactMatch is missing_reward" in row["judge_meta"]["error"]


def test_a_hung_part_is_bounded_by_the_runner_timeout():
    def slow(row):
        time.sleep(5)
        return 1.0

    started = time.monotonic()
    (row,) = run_judge([{"final_text": "x"}], All(JSONValid(), slow), timeout=0.5)
    assert row["judge_status"] == "timeout"
    assert time.monotonic() - started < 3


def test_weights_are_checked():
    with pytest.raises(ValueError):
        Weighted((JSONValid(), 0))
    with pytest.raises(ValueError):
        All()


def test_verifier_decorator_with_and_without_gold():
    @verifier
    def polite(reply):
        return "please" in reply.lower()

    @verifier(field="limit")
    def short(reply, limit):
        return {"reward": float(len(reply) <= limit), "reason": f"{len(reply)} chars"}

    rows = [{"final_text": "Please wait", "limit": 5}]
    graded = run_judge(rows, polite)
    assert (graded[0]["reward"], graded[0]["judge_name"]) == (1.0, "polite")
    graded = run_judge(rows, short)
    assert (graded[0]["reward"], graded[0]["reason"], graded[0]["judge_name"]) == (
        0.0,
        "11 chars",
        "short",
    )
    assert run_judge([{"final_text": "x"}], short)[0]["judge_status"] == "missing_reward"
