"""The reward: conduct gate × outcome checklist, leak and style reports, and the claim detectors.

>>> from whileai_env.reward import task_checklist, conduct_grade, claims
>>> claims.failure_acknowledged("The lookup timed out, so I cannot confirm it yet.")
'timed out'
"""

from __future__ import annotations

from whileai_env.reward import claims
from whileai_env.reward.checklist import task_checklist
from whileai_env.reward.conduct import CONDUCT_MARKERS, conduct_grade
from whileai_env.reward.findings import Finding
from whileai_env.reward.leak import find_leaks, format_leak_report, leak_report
from whileai_env.reward.outcome import OUTCOME_MARKERS
from whileai_env.reward.style import STYLE_MARKERS, style_markers, style_report
from whileai_env.reward.trajectory import Trajectory

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
