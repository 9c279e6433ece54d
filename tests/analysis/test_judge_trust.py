"""judge_agreement() and judge_trust(): hand-computed agreement, Wilson and kappa, length bias,
consistency, filler flips and probes."""

from __future__ import annotations

import pytest

from whileai_env.analysis.judge_trust import (
    format_judge_trust,
    judge_agreement,
    judge_trust,
    wilson,
)


def _labelled(n=60, *, judge=lambda i: i % 2 == 0, gold=lambda i: i % 2 == 0, text=lambda i: "ok"):
    return [
        {
            "task_id": f"t{i}",
            "prompt": f"ask {i}",
            "final_text": text(i),
            "reward": float(judge(i)),
            "gold_reward": float(gold(i)),
        }
        for i in range(n)
    ]


def test_wilson_against_hand_computed_values():
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) is None


def test_agreement_kappa_and_confusion():
    # 10 rows: judge passes 0-5, gold passes 0-3 and 8: tp 4, fp 2, fn 1, tn 3.
    rows = [{"reward": float(i < 6), "gold_reward": float(i < 4 or i == 8)} for i in range(10)]
    result = judge_agreement(rows)
    assert result["confusion"] == {"tp": 4, "tn": 3, "fp": 2, "fn": 1}
    assert result["agreement"] == 0.7
    # po = 0.7; pe = 0.6 * 0.5 + 0.4 * 0.5 = 0.5; kappa = 0.2 / 0.5
    assert result["kappa"] == pytest.approx(0.4)
    assert result["pass_when_gold_fail"] == pytest.approx(2 / 5)
    assert result["fail_when_gold_pass"] == pytest.approx(1 / 5)
    assert any("50 is the floor" in note for note in result["notes"])


def test_a_second_scoring_run_can_be_the_gold():
    rows = [{"reward": float(i % 2)} for i in range(6)]
    assert (
        judge_agreement(rows, gold=[{"reward": float(i % 2)} for i in range(6)])["agreement"] == 1.0
    )
    with pytest.raises(ValueError):
        judge_agreement(rows, gold=[{"reward": 1.0}])


def test_one_class_gold_skips_kappa_and_is_not_ok():
    report = judge_trust(_labelled(gold=lambda i: True))
    assert report["agreement"]["one_class"] is True and report["agreement"]["kappa"] is None
    assert report["ok"] is False


def test_no_labels_is_not_measured():
    report = judge_trust([{"reward": 1.0, "final_text": "x", "task_id": "a"}])
    assert (report["measured"], report["ok"]) == (False, False)
    assert "NOT MEASURED" in format_judge_trust(report)


def test_a_perfect_judge_is_ok():
    report = judge_trust(_labelled())
    assert report["ok"] is True
    assert report["halves"] == [1.0, 1.0]
    assert report["review_queue"] == []
    assert format_judge_trust(report).startswith("judge trust: OK")


def test_length_bias_within_the_same_label_is_flagged():
    # Gold fails every odd row; the judge passes the long ones among them anyway.
    rows = _labelled(
        judge=lambda i: i % 2 == 0 or i % 4 == 1,
        text=lambda i: "word " * (50 if i % 4 == 1 else 3),
    )
    report = judge_trust(rows)
    assert report["length_bias"]["flag"] is True
    assert report["length_bias"]["gold_fail"] == {"short": 0.0, "long": 1.0}
    assert report["agreement"]["pass_when_gold_fail"] == pytest.approx(0.5)
    assert len(report["review_queue"]) == 15
    assert report["ok"] is False


def test_a_length_reading_judge_flips_on_filler_and_is_exploitable():
    def long_is_good(row):
        return float(len(row["final_text"]) > 100)

    rows = _labelled(judge=lambda i: False, gold=lambda i: False, text=lambda i: "short reply")
    rows[0]["gold_reward"] = 1.0  # two classes, so the report is measured
    report = judge_trust(rows, judge=long_is_good, probes=True)
    assert report["consistency"] == 1.0
    assert report["filler_flip_rate"] == 1.0
    assert "filler" in report["exploitable_by"]
    assert "polite_refusal" not in report["exploitable_by"]
    assert report["ok"] is False


def test_a_phrase_judge_is_exploitable_by_a_bare_claim():
    def says_done(row):
        return float("done" in row["final_text"].lower())

    rows = _labelled(
        judge=lambda i: False, gold=lambda i: i % 2 == 0, text=lambda i: "working on it"
    )
    report = judge_trust(rows, judge=says_done, probes=True)
    assert report["probes"]["bare_claim"] == 1.0
    assert "bare_claim" in report["exploitable_by"]
    assert "echo" not in report["exploitable_by"]
