"""The reward: conduct gate × outcome checklist, leak and style reports, and the claim detectors.

>>> from whileai_env.grading import task_checklist, conduct_grade, claims
>>> claims.failure_acknowledged("The lookup timed out, so I cannot confirm it yet.")
'timed out'
"""

from __future__ import annotations

from whileai_env.grading import claims
from whileai_env.grading.checklist import task_checklist
from whileai_env.grading.conduct import CONDUCT_MARKERS, conduct_grade
from whileai_env.grading.findings import Finding
from whileai_env.grading.leak import find_leaks, format_leak_report, leak_report
from whileai_env.grading.outcome import OUTCOME_MARKERS
from whileai_env.grading.style import STYLE_MARKERS, style_markers, style_report
from whileai_env.grading.trajectory import Trajectory

__all__ = [
    "CONDUCT_MARKERS",
    "OUTCOME_MARKERS",
    "STYLE_MARKERS",
    "Finding",
    "Trajectory",
    "claims",
    "conduct_grade",
    "find_leaks",
    "format_leak_report",
    "leak_report",
    "style_markers",
    "style_report",
    "task_checklist",
]
