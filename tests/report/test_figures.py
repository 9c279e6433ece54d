"""Each figure is one well-formed, deterministic SVG element that draws what it was given."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pytest

from whileai_env.analysis.delta import delta_report
from whileai_env.analysis.hack_scan import hack_scan
from whileai_env.analysis.passk import pass_at
from whileai_env.errors import MissingExtraError
from whileai_env.report import figures
from whileai_env.report.numbers import Bar, breakdown, coverage

_SVG = "{http://www.w3.org/2000/svg}svg"


def _parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == _SVG
    assert float(root.get("width").rstrip("pt")) > 0 and float(root.get("height").rstrip("pt")) > 0
    return root


def test_bar_chart_labels_every_group_with_its_count():
    # matplotlib draws glyphs as paths and keeps each text in a comment beside them
    bars = [Bar("timeout", 4, 2, 0.5, (0.25, 0.75), 0.5), Bar("stale", 3, 3, None, None, None)]
    svg = figures.bar_chart(bars, "pass@1 by fault kind")
    _parsed(svg)
    assert "timeout (n=4)" in svg and "stale (n=3)" in svg and "pass@1 by fault kind" in svg
    assert "mean reward" in svg  # the legend of the mean-reward diamonds
    assert "mean reward" not in figures.bar_chart([Bar("x", 1, 1, None, None, None)], "t")


def test_error_bars_are_the_interval_around_the_value():
    assert figures._error_bars([0.5, 0.2], [(0.25, 0.75), None]) == [[0.25, 0.0], [0.25, 0.0]]


def test_passk_chart_shows_the_k_way_figures_only_when_measured(rows):
    measured = figures.passk_chart(pass_at(rows))
    assert "pass^4" in measured and "pass@4" in measured
    few = figures.passk_chart(pass_at([{"prompt": "p", "reward": 1.0}]))
    _parsed(few)
    assert "pass^1" not in few


def test_heatmap_names_both_axes_and_the_covered_share(rows):
    grid = coverage(rows, "tool")
    svg = figures.heatmap(grid, "tool × world state")
    _parsed(svg)
    assert f"({grid.covered:.0%} of cells covered)" in svg
    assert all(value in svg for value in (*grid.row_values, *grid.column_values))


def test_hack_and_delta_charts(rows, before):
    scan = hack_scan(rows)
    svg = figures.hack_chart(scan)
    _parsed(svg)
    assert scan["ranking"][0]["name"] in svg and scan["regime"] in svg
    report = delta_report(before, rows)
    svg = figures.delta_chart(report)
    _parsed(svg)
    assert all(name in svg for name in report["metrics"])
    assert report["headline"]["verdict"] in svg


def test_figures_are_deterministic(rows):
    bars = breakdown(rows, "world_state")
    assert figures.bar_chart(bars, "t") == figures.bar_chart(bars, "t")
    grid = coverage(rows, "condition")
    assert figures.heatmap(grid, "t") == figures.heatmap(grid, "t")


def test_without_matplotlib_a_figure_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtraError, match=r"whileai-env\[report\]"):
        figures.bar_chart([], "t")
