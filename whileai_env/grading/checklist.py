"""``task_checklist``: the default reward, conduct × outcome, through the judge contract.

``reward = conduct × outcome``. Conduct (:mod:`whileai_env.grading.conduct`) is 0, 0.5 or 1;
outcome (:mod:`whileai_env.grading.outcome`) is 1 when every check the task's coordinates call
for passed, else 0. A row with no checkable coordinate is graded on conduct alone and says so
(``markers["outcome_checked"] == 0``): a policy trained on conduct alone learns to call
nothing. A row truncated at the turn cap scores 0 (``markers["not_truncated"] == 0``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from whileai_env.grading.conduct import conduct_findings
from whileai_env.grading.findings import Finding, join_reasons
from whileai_env.grading.outcome import outcome_findings
from whileai_env.grading.trajectory import Trajectory


def task_checklist(row: Mapping[str, Any]) -> dict[str, Any]:
    """Grade one row from the row alone: ``{"reward", "reason", "markers", "findings", "conduct", "outcome"}``.

    ``markers`` has one entry per check that ran, named for the good behaviour (1.0 = good),
    plus ``outcome_checked`` and ``not_truncated``. Every 0 has an entry in ``findings``
    (``marker``, ``code``, ``message``, ``evidence``: the step index or the phrase), and
    ``reason`` joins their codes and messages. ``outcome`` is ``None`` when nothing was checkable.

    >>> row = {"prompt": "Where is order 4412?", "final_text": "Order 4412 shipped on Monday.",
    ...        "scenario_dimensions": {"tool": "get_order", "stance": "ordinary", "ask": "tool"},
    ...        "world": {"state": "exists", "targets": ["get_order"], "entities": {"order_id": "4412"}},
    ...        "steps": [{"index": 0, "tool": "get_order", "arguments": {"order_id": "4412"},
    ...                   "result": {"status": "ok", "order_id": "4412"}, "ok": True, "error": None,
    ...                   "fault": None, "kind": "read"}]}
    >>> graded = task_checklist(row)
    >>> graded["reward"], graded["markers"]["target_succeeded"], graded["markers"]["outcome_checked"]
    (1.0, 1.0, 1.0)
    >>> task_checklist({**row, "steps": []})["reason"]
    'target_not_called: the task needs get_order and it was never called'
    """
    t = Trajectory(row)
    grade, markers, findings = conduct_findings(t)
    outcome_markers, outcome_problems = outcome_findings(t)
    checked = bool(outcome_markers)
    outcome = (0.0 if outcome_problems else 1.0) if checked else None
    markers.update(outcome_markers)
    markers["outcome_checked"] = 1.0 if checked else 0.0
    findings.extend(outcome_problems)
    truncated = bool(row.get("truncated"))
    markers["not_truncated"] = 0.0 if truncated else 1.0
    if truncated:
        findings.insert(
            0,
            Finding(
                "not_truncated",
                "truncated",
                "the episode hit the turn cap before it ended",
                {"turns": row.get("turns")},
            ),
        )
        reward = 0.0
    else:
        reward = grade * (outcome if outcome is not None else 1.0)
    if findings:
        reason = join_reasons(findings)
    else:
        reason = f"ok: conduct 1 × outcome 1 ({len(outcome_markers)} outcome checks passed)"
    if not checked:
        reason = "no checkable coordinate: reward is the conduct grade" + (
            f"; {reason}" if findings else ""
        )
    return {
        "reward": reward,
        "reason": reason,
        "markers": markers,
        "findings": [f.to_dict() for f in findings],
        "conduct": grade,
        "outcome": outcome,
    }
