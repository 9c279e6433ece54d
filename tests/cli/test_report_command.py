"""``whileai-env report``: the page and the summary table; bad input is one line and exit 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tests.report.conftest import graded_rows
from whileai_env.cli import main
from whileai_env.data.jsonl import write_rows
from whileai_env.report import summary_table


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rows")
    after = graded_rows()
    before = graded_rows("silent", tasks=after)
    return {
        "after": write_rows(after, folder / "after.jsonl"),
        "before": write_rows(before, folder / "before.jsonl"),
        "rows": after,
    }


def _report(*args):
    return CliRunner().invoke(main, ["report", *map(str, args)])


def test_report_writes_the_page_and_prints_the_summary(files, tmp_path):
    out = tmp_path / "report"
    result = _report(files["after"], "--before", files["before"], "-o", out)
    assert result.exit_code == 0, result.output
    assert result.output == summary_table(files["rows"]) + f"\nwrote {out / 'index.html'}\n"
    assert "<h2>Before and after</h2>" in (out / "index.html").read_text()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["missing.jsonl", "-o", "out"], "does not exist"),
        (["{after}"], "Missing option '-o'"),
        (["{ungraded}", "-o", "out"], "no graded rows"),
        (["{after}", "--before", "{bad}", "-o", "out"], "bad.jsonl:1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(files, tmp_path, args, says):
    (tmp_path / "ungraded.jsonl").write_text('{"prompt": "p"}\n')
    (tmp_path / "bad.jsonl").write_text("[1]\n")
    paths = {"after": files["after"], "ungraded": tmp_path / "ungraded.jsonl"}
    paths["bad"] = tmp_path / "bad.jsonl"
    result = _report(*(arg.format(**paths) for arg in args))
    assert result.exit_code == 2
    assert says in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
