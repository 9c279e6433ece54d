"""The report of graded rows: one self-contained HTML page (:func:`write_report`) and a terminal
summary (:func:`summary_table`).

Modules, one job each: :mod:`~whileai_env.report.numbers` (the breakdowns and coverage, read
through the analysis functions), :mod:`~whileai_env.report.figures` (matplotlib, imported
lazily: the ``report`` extra), :mod:`~whileai_env.report.page` (the HTML) and
:mod:`~whileai_env.report.summary` (the table).

>>> from whileai_env.report import summary_table
>>> summary_table([{"prompt": "p", "reward": 1.0}]).startswith("rows 1 (1 judged) | pass@1 1.00")
True
"""

from __future__ import annotations

from whileai_env.report.page import write_report
from whileai_env.report.summary import summary_table

__all__ = ["summary_table", "write_report"]
