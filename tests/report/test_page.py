"""The page: one self-contained HTML file with every section, the same bytes for the same rows."""

from __future__ import annotations

import re

import pytest

from whileai_env.report import write_report
from whileai_env.report.page import PAGE_NAME

SECTIONS = (
    "Summary",
    "pass@1, pass^k, pass@k",
    "pass@1 by fault kind",
    "pass@1 by world state",
    "pass@1 by tool",
    "Coverage of the grid",
    "What will the policy learn? (hack scan)",
)


@pytest.fixture(scope="module")
def plain(rows, tmp_path_factory):
    return write_report(rows, tmp_path_factory.mktemp("plain") / "out", title="<b>run 7</b>")


@pytest.fixture(scope="module")
def with_delta(rows, before, tmp_path_factory):
    return write_report(rows, tmp_path_factory.mktemp("delta"), before=before)


def _headings(text: str) -> list[str]:
    return re.findall(r"<h2>(.*?)</h2>", text)


def test_page_has_every_section_and_figure(plain):
    assert plain.name == PAGE_NAME and plain.parent.name == "out"
    text = plain.read_text()
    assert _headings(text) == list(SECTIONS)
    assert text.count('<figure class="chart"><svg') == 7  # pass@k, 3 breakdowns, 2 maps, scan


def test_before_adds_the_delta(with_delta):
    text = with_delta.read_text()
    assert _headings(text) == [*SECTIONS, "Before and after"]
    assert text.count('<figure class="chart"><svg') == 8
    assert "headline: moved_up" in text  # the seeded agent beats the silent one


def test_page_is_self_contained(with_delta):
    text = with_delta.read_text()
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b", text)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "url(" not in text.replace("url(#", "")  # only references to its own defs


def test_same_rows_same_bytes(rows, before, with_delta, tmp_path):
    again = write_report(list(rows), tmp_path, before=list(before))
    assert again.read_bytes() == with_delta.read_bytes()


def test_title_is_escaped(plain):
    assert "<title>&lt;b&gt;run 7&lt;/b&gt;</title>" in plain.read_text()


def test_ungraded_rows_are_refused(rows, tmp_path):
    with pytest.raises(ValueError, match="no graded rows"):
        write_report([{"prompt": "p"}], tmp_path)
    with pytest.raises(ValueError, match="before rows have no graded rows"):
        write_report(rows, tmp_path, before=[{"prompt": "p"}])
    assert list(tmp_path.iterdir()) == []  # refused before anything is written
