"""``whileai-env export --share``: a run's rows fit to publish, refused one line at a time."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.cli import main
from whileai_env.data.rows import SHARE_DROPPED

SPEC = SPECS_DIR / "order-support.json"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("run") / "rows.jsonl"
    wenv.simulate("seeded", spec=SPEC, budget=12, output=str(path), quiet=True)
    return path


def _export(*args):
    return CliRunner().invoke(main, ["export", str(SPEC), *map(str, args)])


def test_share_writes_rows_without_the_columns_that_rebuild_hidden_state(run, tmp_path):
    result = _export("--rows", run, "--share", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["rows"] == 12 and report["withheld_for_leaks"] == []
    assert report["dropped_columns"] == list(SHARE_DROPPED)
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["rows.jsonl"]
    shared = wenv.read_rows(tmp_path / "out" / "rows.jsonl")
    assert len(shared) == 12
    for row in shared:
        wenv.validate_row(row)
        assert row["shared"] is True and "privileged" not in row
        assert not set(SHARE_DROPPED) & set(row)
        assert "hidden_state" not in json.dumps(row)


def test_share_withholds_a_row_that_quotes_privileged_context(run, tmp_path):
    rows = wenv.read_rows(run)
    leaked = rows[0]  # a reply naming the harness's own columns quotes privileged context
    leaked["final_text"] = "I checked the fault_plan and the world_state of this scenario."
    leaked["messages"][-1] = {"role": "assistant", "content": leaked["final_text"]}
    source = tmp_path / "leaky.jsonl"
    wenv.write_rows(rows, source)
    result = _export("--rows", source, "--share", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["rows"] == 11
    assert report["withheld_for_leaks"] == [f"{leaked['task_id']} r{leaked['rollout_index']}"]


@pytest.mark.parametrize("case", ["no rows", "other spec", "not empty"])
def test_share_refuses_in_one_line(run, tmp_path, case):
    out = tmp_path / "out"
    args = ["--rows", run, "--share", "-o", out]
    if case == "no rows":
        args = ["--share", "-o", out]
    elif case == "other spec":
        args = ["--rows", run, "--share", "-o", out]
    else:
        out.mkdir()
        (out / "notes.txt").write_text("keep me")
    spec = SPECS_DIR / "airline.yaml" if case == "other spec" else SPEC
    result = CliRunner().invoke(main, ["export", str(spec), *map(str, args)])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error:")
    assert not (out / "rows.jsonl").exists() and not (out / "rows.jsonl.tmp").exists()
    if case == "not empty":
        assert (out / "notes.txt").read_text() == "keep me"
