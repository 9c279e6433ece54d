"""Text verifiers: exact match, inclusion, regex (time-bounded), multiple choice, and the gold."""

from __future__ import annotations

import time

import pytest

from whileai_env.grading.judge import run_judge
from whileai_env.judges import ExactMatch, Includes, MultipleChoice, Regex, read_gold


def test_gold_prefers_privileged_reference_then_flat_fields_then_named_field():
    row = {"privileged": {"reference": "a", "hidden_state": {"x": 3}}, "answer": "b"}
    assert read_gold(row) == "a"
    assert read_gold({"privileged": {"reference": ""}, "target": "t"}) == "t"
    assert read_gold(row, "privileged.hidden_state.x") == 3
    assert read_gold({"final_text": "x"}) is None


def test_a_row_without_gold_is_unjudged_not_zero():
    (row,) = run_judge([{"final_text": "Paris"}], ExactMatch())
    assert row["reward"] is None
    assert row["judge_status"] == "missing_reward"
    assert "no gold answer" in row["reason"]


def test_exact_match_normalises_and_accepts_a_list():
    judge = ExactMatch()
    assert judge({"final_text": "  PARIS! ", "answer": "paris"})["reward"] == 1.0
    assert judge({"final_text": "Lyon", "answer": ["Paris", "Lyon"]})["reward"] == 1.0
    assert judge({"final_text": "Paris is nice", "answer": "Paris"})["reward"] == 0.0


def test_rows_are_named_after_the_verifier():
    (row,) = run_judge([{"final_text": "x", "answer": "x"}], ExactMatch())
    assert (row["judge_name"], row["judge_status"], row["judge_meta"]["verifier"]) == (
        "ExactMatch",
        "ok",
        "ExactMatch",
    )


def test_includes_gives_the_share_of_phrases():
    judge = Includes()
    row = {"final_text": "Order 7: refund issued.", "answer": ["order 7", "refund", "email"]}
    assert judge(row)["reward"] == pytest.approx(2 / 3)
    assert "email" in judge(row)["reason"]


def test_regex_from_the_constructor_or_the_gold():
    assert Regex(r"ORD-\d+")({"final_text": "see ORD-12"})["reward"] == 1.0
    assert Regex(r"ORD-\d+", fullmatch=True)({"final_text": "see ORD-12"})["reward"] == 0.0
    assert Regex()({"final_text": "id 99", "answer": r"\d{2}"})["reward"] == 1.0


def test_regex_is_linear_on_a_catastrophic_pattern():
    judge = Regex(r"^(a+)+$")
    started = time.monotonic()
    assert judge({"final_text": "a" * 20_000 + "!"})["reward"] == 0.0
    assert time.monotonic() - started < 2.0


def test_regex_refuses_a_catastrophic_pattern_it_cannot_bound():
    with pytest.raises(ValueError, match="exponential"):
        Regex(r"(a+)+\1")
    (row,) = run_judge([{"final_text": "aaa", "answer": r"(a+)+\1"}], Regex())
    assert row["judge_status"] == "error"


def test_multiple_choice_reads_the_committed_letter():
    judge = MultipleChoice()
    assert judge({"final_text": "The answer is B.", "answer": "B"})["reward"] == 1.0
    assert judge({"final_text": "b", "answer": "B"})["reward"] == 1.0
    assert judge({"final_text": "Answer: (C)", "answer": "(C)"})["reward"] == 1.0
    assert judge({"final_text": "(A) or (B), hard to say", "answer": "A"})["reward"] == 0.0
    assert judge({"final_text": "The answer is a bit unclear", "answer": "A"})["reward"] == 0.0
    assert (
        MultipleChoice(choices="ABCDE")({"final_text": "Answer: E", "answer": "e"})["reward"] == 1.0
    )
