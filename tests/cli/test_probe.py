"""``whileai-env probe-reward``: the report on stdout, JSON, the user's own judge, --strict."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from tests.conftest import ORDER_POLICY, ORDER_TOOLS
from whileai_env.cli import main


def _spec_file(tmp_path):
    path = tmp_path / "orders.json"
    path.write_text(
        json.dumps({"name": "orders", "system_prompt": ORDER_POLICY, "tools": ORDER_TOOLS})
    )
    return path


def test_probe_reward_prints_the_table(tmp_path):
    result = CliRunner().invoke(main, ["probe-reward", str(_spec_file(tmp_path)), "-n", "20"])
    assert result.exit_code == 0, result.output
    for word in (
        "unrelated_text",
        "blanket_refusal",
        "echo_user",
        "retry_forever",
        "oracle",
        "right",
    ):
        assert word in result.output
    assert "no probe passes more often" in result.output


def test_probe_reward_json_and_a_subset(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "probe-reward",
            str(_spec_file(tmp_path)),
            "-n",
            "10",
            "--json",
            "--policy",
            "echo_user",
            "--policy",
            "blanket_question",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [row["name"] for row in data["table"]] == ["echo_user", "blanket_question"]
    assert data["tasks"] == 10 and data["flagged"] == []


def test_probe_reward_with_the_users_judge_and_strict(tmp_path, monkeypatch):
    (tmp_path / "lenient_judge.py").write_text("def judge(row):\n    return 1.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = str(_spec_file(tmp_path))
    result = CliRunner().invoke(
        main,
        [
            "probe-reward",
            spec,
            "-n",
            "10",
            "--judge",
            "lenient_judge:judge",
            "--policy",
            "unrelated_text",
        ],
    )
    assert result.exit_code == 0 and "judge judge" in result.output and "!" in result.output, (
        result.output
    )
    strict = CliRunner().invoke(
        main,
        [
            "probe-reward",
            spec,
            "-n",
            "10",
            "--judge",
            "lenient_judge:judge",
            "--policy",
            "unrelated_text",
            "--strict",
        ],
    )
    assert strict.exit_code == 1
    sys.modules.pop("lenient_judge", None)


def test_probe_reward_refuses_bad_input(tmp_path):
    spec = str(_spec_file(tmp_path))
    bad = CliRunner().invoke(main, ["probe-reward", spec, "--judge", "nocolon"])
    assert bad.exit_code == 2 and "MODULE:CALLABLE" in bad.output
    missing = CliRunner().invoke(
        main, ["probe-reward", spec, "--judge", "no_such_module_xyz:judge"]
    )
    assert missing.exit_code == 2 and "cannot load the judge" in missing.output
    unknown = CliRunner().invoke(main, ["probe-reward", spec, "--policy", "poem", "-n", "5"])
    assert unknown.exit_code == 2 and "unknown probe" in unknown.output
