"""rubric_judge against a real HTTP endpoint with scripted answers: verdicts, markers, provenance,
malformed answers, timeouts, retries, the cache and the privileged block."""

from __future__ import annotations

import pickle
import threading
import time

import pytest

from tests.judges.scripted import RUBRIC, criteria_answer, row, shown, spec_of
from whileai_env.errors import ConfigError
from whileai_env.grading.judge import judge_report, run_judge
from whileai_env.judges.rubric import rubric_items, rubric_judge
from whileai_env.serving.chat_server import sequence


def test_verdicts_and_markers_are_parsed_per_criterion(serve):
    server = serve(
        lambda request: criteria_answer(True, "shipped" not in shown(request), reason="overall")
    )
    judge = rubric_judge(spec_of(server), rubric=RUBRIC)
    graded = run_judge(
        [row("Cancelled order 7."), row("Order 7 shipped, cancelled anyway.")], judge
    )
    assert [r["reward"] for r in graded] == [1.0, 0.0]
    assert graded[1]["markers"] == {
        "rubric:looks_order_changing": 1.0,
        "rubric:never_cancels_shipped_order": 0.0,
    }
    assert graded[0]["reason"] == "overall"
    assert graded[0]["judge_name"] == "rubric_judge"


def test_provenance_names_model_prompt_and_a_rubric_edit_is_a_new_version(serve):
    server = serve(lambda request: criteria_answer(True, True))
    first = run_judge([row("ok")], rubric_judge(spec_of(server), rubric=RUBRIC))[0]["judge_meta"]
    edited = RUBRIC + "\n- Confirms the email first."
    server.script = lambda request: criteria_answer(True, True, True)
    second = run_judge([row("ok")], rubric_judge(spec_of(server), rubric=edited))[0]["judge_meta"]
    assert first["model"] == spec_of(server)
    assert first["temperature"] == 0.0
    assert first["version"] == f"{spec_of(server)}@{first['prompt_sha']}"
    assert second["prompt_sha"] != first["prompt_sha"]
    request = server.requests[0]
    assert request["temperature"] == 0.0
    assert "Never cancels a shipped order." in request["messages"][0]["content"]


@pytest.mark.parametrize(
    "answer",
    [
        "The reply looks good to me.",  # no JSON at all
        '{"criteria": [{"id": 1, "met": true}]}',  # criterion 2 missing
        '{"criteria": [{"id": 1, "met": "maybe"}, {"id": 2, "met": true}]}',
        '{"criteria": [{"id": 3, "met": true}, {"id": 1, "met": true}]}',
    ],
)
def test_malformed_judge_output_is_invalid_result_never_a_zero(serve, answer):
    server = serve(lambda request: {"content": answer})
    graded = run_judge([row("Cancelled.")], rubric_judge(spec_of(server), rubric=RUBRIC))[0]
    assert graded["judge_status"] == "invalid_result"
    assert graded["reward"] is None
    assert graded["judge_meta"]["raw_answer"] == answer
    assert graded["judge_meta"]["version"].startswith(spec_of(server))


def test_a_slow_endpoint_is_marked_timeout(serve):
    def slow(request):
        time.sleep(1.5)
        return criteria_answer(True, True)

    server = serve(slow)
    judge = rubric_judge(spec_of(server), rubric=RUBRIC, timeout=0.3, retries=0)
    graded = run_judge([row("Cancelled.")], judge)[0]
    assert graded["judge_status"] == "timeout"
    assert graded["reward"] is None
    assert "did not answer within 0.3 s" in graded["judge_meta"]["error"]


def test_429_and_5xx_answers_are_retried(serve):
    server = serve(
        sequence({"status": 429}, {"status": 503}, criteria_answer(True, True), criteria_answer())
    )
    graded = run_judge([row("Cancelled.")], rubric_judge(spec_of(server), rubric=RUBRIC, retries=2))
    assert graded[0]["judge_status"] == "ok"
    assert len(server.requests) == 3


def test_retries_spent_is_an_error_not_a_score(serve):
    server = serve(lambda request: {"status": 503})
    graded = run_judge([row("x")], rubric_judge(spec_of(server), rubric=RUBRIC, retries=1))[0]
    assert (graded["judge_status"], graded["reward"]) == ("error", None)
    assert len(server.requests) == 2


def test_a_re_grade_is_answered_from_the_cache(serve):
    server = serve(lambda request: criteria_answer(True, True))
    judge = rubric_judge(spec_of(server), rubric=RUBRIC)
    rows = [row("Cancelled."), row("Cancelled order 7.")]
    first = run_judge(rows, judge, concurrency=2)
    again = run_judge(rows, judge, concurrency=2)
    assert len(server.requests) == 2 and judge.requests == 2
    assert [r["reward"] for r in again] == [r["reward"] for r in first]
    run_judge([row("Something new.")], judge)
    assert len(server.requests) == 3


def test_the_sqlite_cache_survives_a_new_judge(serve, tmp_path):
    server = serve(lambda request: criteria_answer(True, False))
    path = tmp_path / "judge.sqlite"
    run_judge([row("Cancelled.")], rubric_judge(spec_of(server), rubric=RUBRIC, cache=path))
    fresh = rubric_judge(spec_of(server), rubric=RUBRIC, cache=path)
    graded = run_judge([row("Cancelled.")], fresh)[0]
    assert graded["reward"] == 0.0 and len(server.requests) == 1 and fresh.requests == 0


def test_the_privileged_block_is_shown_only_when_asked(serve):
    server = serve(lambda request: criteria_answer(True, True))
    secret = {"reference": "the order had already shipped", "rubric": RUBRIC}
    rows = [row("Cancelled.", privileged=secret)]
    run_judge(rows, rubric_judge(spec_of(server)))
    run_judge(rows, rubric_judge(spec_of(server), use_privileged=True))
    blind, sighted = (shown(r) for r in server.requests)
    assert "already shipped" not in blind
    assert "already shipped" in sighted


def test_the_rows_own_rubric_is_used_and_a_row_without_one_is_missing_reward(serve):
    server = serve(lambda request: criteria_answer(True))
    rows = [row("ok", privileged={"rubric": ["Says the order number."]}), row("ok")]
    graded = run_judge(rows, rubric_judge(spec_of(server)))
    assert graded[0]["markers"] == {"rubric:order_number": 1.0}
    assert graded[1]["judge_status"] == "missing_reward"
    assert len(server.requests) == 1


def test_partial_credit_is_the_share_met(serve):
    server = serve(lambda request: criteria_answer(True, False))
    graded = run_judge([row("x")], rubric_judge(spec_of(server), rubric=RUBRIC, partial=True))
    assert graded[0]["reward"] == 0.5


def test_rubric_from_a_file_and_items_from_paragraphs(tmp_path):
    path = tmp_path / "rubric.md"
    path.write_text("# Job\n\nThe agent checks the order.\n\nIt never invents an id.\n")
    judge = rubric_judge("vllm:j@http://127.0.0.1:9/v1", rubric=str(path))
    assert [k for k, _ in rubric_items(judge.rubric)] == ["agent_checks_order", "never_invents_id"]


def test_no_judge_model_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("WHILEAI_JUDGE", raising=False)
    with pytest.raises(ConfigError, match="WHILEAI_JUDGE"):
        rubric_judge(rubric=RUBRIC)


def test_judge_report_counts_each_failure_kind(serve):
    server = serve(sequence({"content": "nope"}, criteria_answer(True, True)))
    graded = run_judge([row("a"), row("b")], rubric_judge(spec_of(server), rubric=RUBRIC))
    counts = judge_report(graded)
    assert counts["invalid_result"] == 1 and counts["ok"] == 1


def test_no_more_than_concurrency_requests_are_in_flight(serve):
    lock, state = threading.Lock(), {"now": 0, "most": 0}

    def counted(request):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return criteria_answer(True, True)

    server = serve(counted)
    judge = rubric_judge(spec_of(server), rubric=RUBRIC, concurrency=2)
    graded = run_judge([row(f"reply {i}") for i in range(8)], judge, concurrency=8)
    assert judge_report(graded)["ok"] == 8
    assert state["most"] == 2


def test_a_judge_pickles_to_a_worker_with_its_settings_and_answers(serve):
    server = serve(lambda request: criteria_answer(True, True))
    judge = rubric_judge(spec_of(server), rubric=RUBRIC, concurrency=2)
    run_judge([row("Cancelled.")], judge)
    copied = pickle.loads(pickle.dumps(judge))
    assert copied.endpoint.concurrency == 2 and copied.rubric == judge.rubric
    graded = run_judge([row("Cancelled."), row("Another.")], copied)
    assert [r["reward"] for r in graded] == [1.0, 1.0]
    assert len(server.requests) == 2  # the copy answered the first row from its cache
