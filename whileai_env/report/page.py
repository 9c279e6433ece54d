"""One self-contained HTML page of graded rows: every figure inline SVG, no script, no network.

Sections: the headline (pass@1, pass^k, pass@k with intervals), pass@1 by fault kind, world
state and tool, the coverage heatmaps (tool × world state, fault × world state), the hack scan's
top features, and with ``before`` the before/after delta. Each number comes from the analysis
functions (:func:`~whileai_env.analysis.passk.pass_at`,
:func:`~whileai_env.analysis.hack_scan.hack_scan`,
:func:`~whileai_env.analysis.delta.delta_report`); the same rows give the same bytes.

>>> import tempfile
>>> rows = [{"prompt": f"p{t}", "reward": float(r < t), "final_text": "ok" * r,
...          "scenario_dimensions": {"condition": "success", "world_state": "exists",
...                                  "tool": "get"}} for t in range(5) for r in range(4)]
>>> page = write_report(rows, tempfile.mkdtemp())
>>> page.name, page.read_text().count("<svg") >= 7
('index.html', True)
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from whileai_env.analysis.delta import delta_report, format_delta_report
from whileai_env.analysis.hack_scan import format_hack_scan, hack_scan
from whileai_env.analysis.passk import pass_at
from whileai_env.report import figures
from whileai_env.report.numbers import breakdown, coverage, judged
from whileai_env.report.summary import summary_table

PAGE_NAME = "index.html"
_STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
    "pre{background:#f6f6f6;padding:.8em;overflow-x:auto}"
)
_BREAKDOWNS = (("fault", "fault kind"), ("world_state", "world state"), ("tool", "tool"))


def write_report(
    rows: Sequence[Mapping[str, Any]],
    out_dir: str | os.PathLike,
    before: Sequence[Mapping[str, Any]] | None = None,
    *,
    threshold: float = 1.0,
    endorsed: Sequence[str] = (),
    title: str = "whileai-env report",
) -> Path:
    """Write ``out_dir/index.html`` (the directory is created) and return its path.

    ``threshold`` is the pass mark of :func:`~whileai_env.analysis.passk.pass_at`; ``endorsed``
    is what the reward should track, for the hack scan's regime; ``before`` adds the delta of
    ``rows`` against those rows."""
    rows = list(rows)
    if not judged(rows):
        raise ValueError(
            "no graded rows to report on: grade them first (simulate(grader=...) or run_judge)"
        )
    if before is not None and not judged(before):
        raise ValueError("the before rows have no graded rows to compare against")
    sections = [
        _section("Summary", f"<pre>{html.escape(summary_table(rows, threshold=threshold))}</pre>"),
        _section(
            "pass@1, pass^k, pass@k",
            _figure(figures.passk_chart(pass_at(rows, threshold=threshold))),
        ),
        *_breakdown_sections(rows, threshold),
        _coverage_section(rows),
        _hack_section(rows, endorsed),
    ]
    if before is not None:
        sections.append(_delta_section(list(before), rows, threshold))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = out / PAGE_NAME
    page.write_text(_page(title, sections), encoding="utf-8")
    return page


def _page(title: str, sections: list[str]) -> str:
    name = html.escape(title)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{name}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{name}</h1>\n" + "\n".join(sections) + "\n</body></html>\n"
    )


def _section(heading: str, body: str) -> str:
    return f"<section><h2>{html.escape(heading)}</h2>{body}</section>"


def _figure(svg: str) -> str:
    return f'<figure class="chart">{svg}</figure>'


def _breakdown_sections(rows: list[Mapping[str, Any]], threshold: float) -> list[str]:
    return [
        _section(
            f"pass@1 by {name}",
            _figure(
                figures.bar_chart(
                    breakdown(rows, split, threshold=threshold),
                    f"pass@1 by {name} (95% bootstrap over tasks)",
                )
            ),
        )
        for split, name in _BREAKDOWNS
    ]


def _coverage_section(rows: list[Mapping[str, Any]]) -> str:
    maps = [
        figures.heatmap(coverage(rows, "tool"), "tool × world state"),
        figures.heatmap(coverage(rows, "condition"), "fault × world state"),
    ]
    note = "<p>Rows per grid cell (number) and their mean reward (colour); grey: not covered.</p>"
    return _section("Coverage of the grid", note + "".join(map(_figure, maps)))


def _hack_section(rows: list[Mapping[str, Any]], endorsed: Sequence[str]) -> str:
    scan = hack_scan(rows, endorsed=endorsed)
    text = f"<pre>{html.escape(format_hack_scan(scan))}</pre>"
    chart = _figure(figures.hack_chart(scan)) if scan["ranking"] else ""
    return _section("What will the policy learn? (hack scan)", chart + text)


def _delta_section(
    before: list[Mapping[str, Any]], after: list[Mapping[str, Any]], threshold: float
) -> str:
    report = delta_report(before, after, threshold=threshold)
    text = f"<pre>{html.escape(format_delta_report(report))}</pre>"
    return _section("Before and after", _figure(figures.delta_chart(report)) + text)
