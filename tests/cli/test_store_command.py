"""``whileai-env store push|pull|ls|show``: the store from the shell, errors on one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.cli import main


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("run") / "rows.jsonl"
    spec = SPECS_DIR / "order-support.json"
    wenv.simulate("seeded", spec=spec, budget=6, output=str(path), quiet=True)
    return path


def _store(root: Path, *args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["store", *map(str, args), "--root", str(root)])
    return result.exit_code, result.stdout, result.stderr


def test_push_ls_show_pull(run: Path, tmp_path: Path) -> None:
    code, v1, _ = _store(tmp_path, "push", run, "--name", "orders", "--description", "first")
    assert code == 0 and v1.strip().startswith("ds_")
    code, v2, _ = _store(tmp_path, "push", run, "--name", "orders", "--parent", v1.strip())
    assert code == 0 and v2 != v1
    code, listed, _ = _store(tmp_path, "ls", "orders")
    lines = listed.splitlines()
    assert code == 0 and [line.split()[0] for line in lines] == [v1.strip(), v2.strip()]
    assert "6 rows" in lines[0] and "draft" in lines[0] and f"parent {v1.strip()}" in lines[1]
    code, shown, _ = _store(tmp_path, "show", "orders")
    report = json.loads(shown)
    assert report["lineage"]["parents"] == [v1.strip()] and report["profile"]["rows"] == 6
    assert report["lineage"]["config"] is not None  # the run's sidecar came along
    code, out, _ = _store(tmp_path, "pull", v1.strip(), "-o", tmp_path / "back.jsonl")
    assert out.strip() == str(tmp_path / "back.jsonl")
    assert code == 0 and wenv.read_rows(tmp_path / "back.jsonl") == wenv.read_rows(run)
    code, stdout_rows, _ = _store(tmp_path, "pull", "orders")
    assert [json.loads(line) for line in stdout_rows.splitlines()] == wenv.read_rows(run)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("show", "ds_nope"), "no dataset version or name 'ds_nope'"),
        (("pull", "nobody"), "no dataset version or name 'nobody'"),
        (("push", "missing.jsonl", "--name", "x"), "missing.jsonl"),
        (("push", "{run}", "--name", "../bad"), "dataset name"),
        (("push", "{run}", "--name", "x", "--parent", "ds_gone"), "'ds_gone'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    run: Path, tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    code, _, err = _store(tmp_path, *(a.format(run=run) for a in args))
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err
    assert "Traceback" not in err
