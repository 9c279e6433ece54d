"""The terminal summary: pass_at's headline and one aligned line per group, the same every time."""

from __future__ import annotations

from whileai_env.analysis.passk import pass_at
from whileai_env.report import summary_table
from whileai_env.report.numbers import SPLITS, breakdown


def test_summary_headline_is_pass_at(rows):
    head = summary_table(rows).splitlines()[0]
    assert head.startswith(f"rows {len(rows)} ({len(rows)} judged) | ")
    assert str(pass_at(rows)).split(" (")[0] in head
    assert "pass^4" in head and "pass@4" in head


def test_summary_has_one_aligned_line_per_group(rows):
    lines = summary_table(rows).splitlines()
    groups = [f"{split}: {bar.label}" for split in SPLITS for bar in breakdown(rows, split)]
    assert [line.split("  ")[0].rstrip() for line in lines[2:]] == groups
    assert len({len(line) for line in lines[1:]}) == 1  # every column lines up


def test_summary_says_when_the_k_way_figures_are_not_measured():
    rows = [{"prompt": f"p{i}", "reward": 1.0} for i in range(3)]
    assert "k=1 is below 4" in summary_table(rows).splitlines()[0]


def test_summary_is_deterministic(rows):
    assert summary_table(rows) == summary_table(list(rows))
