import json

from click.testing import CliRunner

from tests.conftest import SPECS_DIR
from whileai_env.cli import main


def test_simulate_prints_a_summary_and_writes_rows(tmp_path):
    out = tmp_path / "rows.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            str(SPECS_DIR / "order-support.json"),
            "--agent",
            "oracle",
            "--budget",
            "25",
            "-o",
            str(out),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    for label in ("rows", "coverage", "faults fired", "reward", "pass_at", "stopped because"):
        assert label in result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 25 and all(
        "privileged" not in r and r["judge_name"] == "task_checklist" for r in rows
    )
    again = CliRunner().invoke(
        main,
        ["simulate", str(SPECS_DIR / "order-support.json"), "--budget", "25", "-o", str(out), "-q"],
    )
    assert again.exit_code == 2 and "--resume" in again.output


def test_simulate_rl_mode_reports_groups():
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            str(SPECS_DIR / "airline.yaml"),
            "--agent",
            "seeded",
            "--mode",
            "rl",
            "--repeats",
            "4",
            "--budget",
            "40",
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "groups" in result.output and "mixed" in result.output


def test_simulate_bad_agent_and_spec_exit_2(tmp_path):
    bad = CliRunner().invoke(
        main, ["simulate", str(SPECS_DIR / "order-support.json"), "--agent", "gpt:x", "-q"]
    )
    assert bad.exit_code == 2 and "error:" in bad.output
    broken = tmp_path / "s.json"
    broken.write_text("{")
    result = CliRunner().invoke(main, ["simulate", str(broken), "-q"])
    assert result.exit_code == 2 and "invalid JSON" in result.output
