"""likert_judge, pair_judge and write_rubrics against a real HTTP endpoint with scripted answers."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from tests.judges.scripted import criteria_answer, row, shown, spec_of
from whileai_env.grading.judge import run_judge
from whileai_env.judges.likert import likert_judge
from whileai_env.judges.pairwise import pair_judge
from whileai_env.judges.rubric import rubric_judge
from whileai_env.judges.rubrics import write_rubrics
from whileai_env.serving.chat_server import sequence


def test_likert_reward_is_the_rating_scaled_and_the_raw_rating_is_kept(serve):
    server = serve(
        sequence({"content": '{"score": 4, "reason": "minor"}'}, {"content": '{"score": 1}'})
    )
    graded = run_judge([row("a"), row("b")], likert_judge(spec_of(server), scale=(1, 5)))
    assert [r["reward"] for r in graded] == [0.75, 0.0]
    assert graded[0]["judge_meta"]["score"] == 4
    assert graded[0]["judge_meta"]["scale"] == [1, 5]
    assert graded[0]["reason"] == "minor"
    assert "from 1 (worst) to 5 (best)" in server.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize("answer", ['{"score": 7}', '{"score": "great"}', "four out of five"])
def test_likert_off_the_scale_is_invalid_result(serve, answer):
    server = serve(lambda request: {"content": answer})
    graded = run_judge([row("a")], likert_judge(spec_of(server)))[0]
    assert (graded["judge_status"], graded["reward"]) == ("invalid_result", None)


def test_likert_rejects_a_backwards_scale():
    with pytest.raises(ValueError, match="low < high"):
        likert_judge("openai:m", scale=(5, 1))


def test_pair_judge_reads_the_winner_and_shows_both_sides(serve):
    server = serve(lambda request: {"content": json.dumps({"winner": "2", "reason": "checked"})})
    pair = {"prompt": "Cancel order 7", "first": row("Sure."), "second": row("Order 7 shipped.")}
    graded = run_judge([pair], pair_judge(spec_of(server)))[0]
    assert graded["reward"] == 0.0
    assert graded["judge_meta"]["winner"] == "second"
    text = shown(server.requests[0])
    assert "CONVERSATION 1" in text and "Order 7 shipped." in text


def test_write_rubrics_asks_once_per_ask_and_the_rubric_judge_reads_the_criteria(serve):
    criteria = {"criteria": ["Looks up order 7 first.", "Says whether it shipped."]}
    server = serve(lambda request: {"content": json.dumps(criteria)})
    rows = [row("a"), row("b"), row("c", prompt="Refund order 9")]
    written, report = write_rubrics(rows, model=spec_of(server), domain="refunds")
    assert (report["asks"], report["written"], report["failed"]) == (2, 3, 0)
    assert len(server.requests) == 2
    assert "domain 'refunds'" in server.requests[0]["messages"][0]["content"]
    assert written[0]["privileged"]["rubric"] == (
        "- Looks up order 7 first.\n- Says whether it shipped."
    )
    assert "privileged" not in rows[0]  # the input rows are left alone
    server.script = lambda request: criteria_answer(True, False)
    graded = run_judge(written, rubric_judge(spec_of(server)))
    assert graded[0]["markers"] == {
        "rubric:looks_order_7_first": 1.0,
        "rubric:shipped": 0.0,
    }


def test_write_rubrics_keeps_rows_the_model_answers_badly_for(serve):
    server = serve(lambda request: {"content": "I would check the order."})
    written, report = write_rubrics(
        [row("a", privileged={"rubric": "- old"})], model=spec_of(server)
    )
    assert report["failed"] == 1 and report["written"] == 0
    assert "JudgeOutputError" in report["errors"][0]
    assert written[0]["privileged"]["rubric"] == "- old"


def test_an_hf_judge_loads_only_when_first_asked(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    judge = rubric_judge("hf:/nonexistent/judge", rubric="- Says hello.")  # nothing loaded yet
    graded = run_judge([row("hello")], judge)[0]
    assert (graded["judge_status"], graded["reward"]) == ("error", None)
    assert "whileai-env[train]" in graded["judge_meta"]["error"]


@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("torch", "transformers", "tokenizers")),
    reason="torch/transformers/tokenizers are not installed",
)
def test_an_untaught_local_model_judges_through_run_judge_and_its_babble_is_invalid(tmp_path):
    from tests.support.tiny_model import build_tiny_model

    path = build_tiny_model(tmp_path / "model")
    judge = likert_judge(f"hf:{path}", scale=(1, 5))
    judge.endpoint.max_tokens = 8
    graded = run_judge([row("hello")], judge)[0]
    assert graded["judge_status"] == "invalid_result"  # never a silent 0
    assert graded["judge_meta"]["model"] == f"hf:{path}"
    assert judge.requests == 1
