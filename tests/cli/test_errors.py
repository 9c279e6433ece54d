"""Every CLI error is one line naming what and where: exit 2 for bad input, 1 at run time, no
traceback unless ``--debug`` (issue 13)."""

from __future__ import annotations

import errno

import pytest
from click.testing import CliRunner

from tests.conftest import SPECS_DIR
from whileai_env.cli import main
from whileai_env.data import jsonl

ORDER = str(SPECS_DIR / "order-support.json")


def _run(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def _one_error_line(result, code: int, *needles: str) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == code, result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_output_under_a_file_is_bad_input(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    result = _run("simulate", ORDER, "--budget", "2", "-q", "-o", str(blocker / "rows.jsonl"))
    _one_error_line(result, 2, "notes.txt")


def test_output_in_an_unwritable_place_is_bad_input():
    result = _run("simulate", ORDER, "--budget", "2", "-q", "-o", "/proc/whileai/rows.jsonl")
    _one_error_line(result, 2, "/proc/whileai")


def test_output_a_directory_says_so(tmp_path):
    result = _run("simulate", ORDER, "--budget", "2", "-q", "-o", str(tmp_path))
    line = _one_error_line(result, 2, str(tmp_path), "directory")
    assert "already holds rows" not in line


def test_openai_agent_without_a_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_ADMIN_KEY", raising=False)
    result = _run("simulate", ORDER, "--budget", "1", "-q", "--agent", "openai:M")
    _one_error_line(result, 2, "--agent openai:M")


def test_hf_agent_at_a_missing_path():
    pytest.importorskip("transformers")
    result = _run("simulate", ORDER, "--budget", "1", "-q", "--agent", "hf:/nonexistent")
    _one_error_line(result, 2, "--agent hf:/nonexistent")


class _FullDisk:
    """A file whose writes fail as a full disk does (ENOSPC)."""

    def __init__(self, fh):
        self._fh = fh

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self._fh, name)


def test_a_full_disk_is_a_runtime_error(tmp_path, monkeypatch):
    opened = jsonl.RowWriter.__init__

    def full_disk(self, *args, **kwargs):
        opened(self, *args, **kwargs)
        self._fh = _FullDisk(self._fh)

    monkeypatch.setattr(jsonl.RowWriter, "__init__", full_disk)
    out = tmp_path / "rows.jsonl"
    result = _run("simulate", ORDER, "--budget", "3", "-q", "-o", str(out))
    _one_error_line(result, 1, str(out), "No space left on device")


@pytest.mark.parametrize(
    "args",
    [
        ("--budget", "abc"),
        ("--budget", "0"),
        ("--budget", "-5"),
        ("--fault-rate", "7"),
        ("--mode", "nope"),
        ("--seed", "1.5"),
        ("--concurrency", "0"),
        ("--no-such-option",),
        ("--resume",),
        ("--config", "/nonexistent/knobs.yaml"),
    ],
)
def test_bad_option_values_are_one_line(args):
    result = _run("simulate", ORDER, "-q", *args)
    _one_error_line(result, 2)


def test_missing_spec_and_unknown_command_are_one_line(tmp_path):
    _one_error_line(_run("simulate", str(tmp_path / "nope.json"), "-q"), 2, "nope.json")
    _one_error_line(_run("simulat"), 2)


def test_an_unexpected_failure_is_one_line_and_debug_shows_the_traceback(monkeypatch):
    from whileai_env.simulation import run

    def broken(*args, **kwargs):
        raise RuntimeError("the planner fell over")

    monkeypatch.setattr(run, "build_grid", broken)
    result = _run("simulate", ORDER, "--budget", "1", "-q")
    _one_error_line(result, 1, "the planner fell over", "--debug")
    debug = _run("--debug", "simulate", ORDER, "--budget", "1", "-q")
    assert debug.exit_code == 1
    assert "Traceback" in debug.output and "the planner fell over" in debug.output
