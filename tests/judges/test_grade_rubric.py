"""SimulationData.grade(rubric=...) grades a run with rubric_judge, on foreign specs, through a real
chat-completions endpoint on 127.0.0.1 with scripted verdicts."""

from __future__ import annotations

import json

import pytest

from tests.corpus import corpus_specs
from tests.judges.scripted import criteria_answer, spec_of
from whileai_env.grading.judge import judge_report
from whileai_env.simulation.run import simulate
from whileai_env.spec.load import load_spec

RUBRIC = "- Does what the user asked with the tools.\n- Claims nothing the tools did not show."


@pytest.fixture(scope="module")
def spec():
    return load_spec(corpus_specs()[0], rubric="- Uses a tool the ask needs.")


def test_grade_with_a_rubric_text_uses_the_rubric_judge(serve, spec):
    def called_a_tool(request):
        return criteria_answer(True, "TOOL RESULT" in request["messages"][1]["content"])

    server = serve(called_a_tool)
    data = simulate("oracle", spec=spec, budget=4, quiet=True)
    scored = data.grade(rubric=RUBRIC, model=spec_of(server))
    assert judge_report(scored.trajectories)["ok"] == 4
    for row in scored.trajectories:
        assert row["judge_name"] == "rubric_judge"
        assert row["reward"] == float(bool(row["steps"]))
        assert row["markers"]["rubric:user_asked_tools"] == 1.0
        assert row["markers"]["rubric:claims_tools_not_show"] == row["reward"]
    assert "rubric:user_asked_tools" not in data.trajectories[0].get("markers", {})


def test_grade_rubric_true_reads_each_rows_own_rubric(serve, spec):
    server = serve(lambda request: criteria_answer(True))
    data = simulate("oracle", spec=spec, budget=2, quiet=True)
    scored = data.grade(rubric=True, model=spec_of(server))
    assert [r["reward"] for r in scored.trajectories] == [1.0, 1.0]
    assert "Uses a tool the ask needs." in server.requests[0]["messages"][0]["content"]


def test_grade_refuses_a_judge_and_a_rubric_together(spec):
    data = simulate("oracle", spec=spec, budget=1, quiet=True)
    with pytest.raises(ValueError, match="judge= or rubric="):
        data.grade(lambda row: 1.0, rubric=RUBRIC)


def test_simulate_with_a_rubric_grades_every_row_with_the_rubric_judge(serve, monkeypatch):
    server = serve(lambda request: criteria_answer(True))
    monkeypatch.setenv("WHILEAI_JUDGE", spec_of(server))
    data = simulate("oracle", spec=corpus_specs()[0], budget=3, quiet=True, rubric="- Answers.")
    assert [r["judge_name"] for r in data.trajectories] == ["rubric_judge"] * 3
    assert [r["markers"]["rubric:answers"] for r in data.trajectories] == [1.0] * 3
    assert data.trajectories[0]["privileged"]["rubric"] == "- Answers."
    assert "Answers." in server.requests[0]["messages"][0]["content"]


def test_simulate_with_a_rubric_and_a_grader_keeps_the_grader(monkeypatch):
    monkeypatch.delenv("WHILEAI_JUDGE", raising=False)
    data = simulate(
        "oracle", spec=corpus_specs()[0], budget=2, quiet=True, rubric="- Answers.", grader=len
    )
    assert {r["judge_name"] for r in data.trajectories} == {"len"}
    assert data.spec.rubric == "- Answers."


def test_the_cli_grades_with_a_rubric_file_and_a_judge(serve, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from whileai_env.cli import main

    monkeypatch.delenv("WHILEAI_JUDGE", raising=False)
    server = serve(lambda request: criteria_answer(True))
    rubric = tmp_path / "rubric.md"
    rubric.write_text("- Answers.\n")
    out = tmp_path / "rows.jsonl"
    args = ["simulate", str(corpus_specs()[0]), "--agent", "oracle", "--budget", "2", "-q"]
    result = CliRunner().invoke(
        main, [*args, "--rubric", str(rubric), "--judge", spec_of(server), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["judge_name"] for r in rows] == ["rubric_judge"] * 2
    assert len(server.requests) == 2
    missing = CliRunner().invoke(main, [*args, "--rubric", str(rubric)])
    assert missing.exit_code == 2 and "WHILEAI_JUDGE" in missing.output
    assert "Traceback" not in missing.output
