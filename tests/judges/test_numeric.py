"""Numeric and MathEqual verifiers, on the main thread and on the runner's threads."""

from __future__ import annotations

import pytest

from whileai_env.grading.judge import run_judge
from whileai_env.judges import MathEqual, Numeric
from whileai_env.judges.numeric import last_number


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1,234.5", 1234.5),
        ("was 3, now -2", -2.0),
        ("3/4 of it", 0.75),
        ("25%", 0.25),
        ("2e-3", 0.002),
        ("v2 has 7 items.", 7.0),
    ],
)
def test_last_number(text, number):
    assert last_number(text) == pytest.approx(number)


def test_numeric_tolerance():
    row = {"final_text": "about 3.1416", "answer": "3.14159"}
    assert Numeric()(row)["reward"] == 0.0
    assert Numeric(rel_tol=1e-3)(row)["reward"] == 1.0
    assert Numeric()({"final_text": "none", "answer": 1})["reward"] == 0.0


def test_numeric_gold_without_a_number_is_a_judge_error():
    (row,) = run_judge([{"final_text": "4", "answer": "four"}], Numeric())
    assert row["judge_status"] == "error"
    assert row["reward"] is None


@pytest.mark.parametrize(
    ("reply", "gold", "reward"),
    [
        ("The answer is $\\boxed{\\frac{1}{2}}$", "0.5", 1.0),
        ("So x = 1/2.", "\\frac{2}{4}", 1.0),
        ("$\\sqrt{4}$", "2", 1.0),
        ("The answer is $\\boxed{3}$", "2", 0.0),
        ("I do not know", "2", 0.0),
    ],
)
def test_math_equal(reply, gold, reward):
    assert MathEqual()({"final_text": reply, "answer": gold})["reward"] == reward


def test_math_equal_on_judge_threads():
    rows = [{"final_text": f"$\\frac{{{n}}}{{2}}$", "answer": str(n / 2)} for n in range(4)]
    graded = run_judge(rows, MathEqual(), concurrency=2, timeout=30)
    assert [(r["judge_status"], r["reward"]) for r in graded] == [("ok", 1.0)] * 4


def test_math_equal_without_the_extra_names_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_math_verify(name, *args, **kwargs):
        if name == "math_verify":
            raise ImportError("no math_verify")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_math_verify)
    (row,) = run_judge([{"final_text": "1", "answer": "1"}], MathEqual())
    assert row["judge_status"] == "error"
    assert "whileai-env[math]" in row["judge_meta"]["error"]
