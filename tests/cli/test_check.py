import json
import subprocess
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


def test_check_spec_prints_tools_clauses_grid_and_openers(tmp_path):
    result = CliRunner().invoke(main, ["check-spec", str(_spec_file(tmp_path)), "--samples", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "get_order" in out and "read" in out and "delete_address" in out and "delete" in out
    assert "Never refund more than the order total." in out
    assert "Grid:" in out and "cells" in out
    assert out.count("[") >= 3


def test_check_spec_kind_override(tmp_path):
    result = CliRunner().invoke(
        main, ["check-spec", str(_spec_file(tmp_path)), "--kind", "cancel_order=delete"]
    )
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if "cancel_order" in line)
    assert "delete" in line
    bad = CliRunner().invoke(
        main, ["check-spec", str(_spec_file(tmp_path)), "--kind", "cancel_order"]
    )
    assert bad.exit_code == 2 and "TOOL=KIND" in bad.output


def test_broken_spec_exits_nonzero_with_the_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "tools": [
                    {
                        "name": "get_order",
                        "parameters": {"type": "object", "properties": {"x": {"type": "strng"}}},
                    }
                ]
            }
        )
    )
    result = CliRunner().invoke(main, ["check-spec", str(path)])
    assert result.exit_code == 2
    assert "get_order" in result.output and "$.parameters.properties.x.type" in result.output


def test_draw_tasks_writes_jsonl(tmp_path):
    out = tmp_path / "tasks.jsonl"
    result = CliRunner().invoke(
        main, ["draw-tasks", str(_spec_file(tmp_path)), "-n", "7", "--mode", "sft", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 21
    assert all("privileged" in json.loads(line) for line in lines)
    assert "coverage:" in result.output


def test_console_script_is_installed():
    proc = subprocess.run(
        [sys.executable, "-m", "whileai_env.cli", "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and "check-spec" in proc.stdout
