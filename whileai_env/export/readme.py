"""The exported package's README: how to install and evaluate it, and the gate report."""

from __future__ import annotations

from typing import Any


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def readme(report: dict[str, Any]) -> str:
    """Markdown for an export ``report`` (what :func:`export_environment` returns)."""
    name, gate = report["name"], report["gate"]
    if gate.get("applied"):
        low, high = gate["band"]
        band = (
            f"Band {low:.2f}–{high:.2f} on pass rate: {_count(gate['graded_tasks'], 'graded task')}, "
            f"{gate['graded_mixed']} mixed (graded_mixed: some rollouts pass, some fail), "
            f"{gate['always_solved']} always solved and {gate['never_solved']} never solved; "
            f"{gate['kept']} kept, those whose pass rate is in the band."
        )
    else:
        band = f"Band not applied: {gate['why']}."
    return f"""# {name}

A whileai-env RL environment for verifiers: tasks, a seeded mock world answering tool calls
(faults included), a simulated user, and a checklist reward computed from the world's state.

```bash
pip install -e .          # in a venv with whileai-env and verifiers
vf-eval {name} -a '{{"split": "holdout"}}' -m MODEL -b BASE_URL -k KEY_VAR -n 5 -r 3
```

## Gate

- {band}
- Split by scenario: {_count(report["train"], "train task")} ({_count(report["train_scenarios"], "scenario")}),
  {_count(report["holdout_tasks"], "holdout task")} ({_count(report["holdout_scenarios"], "scenario")}), holdout share {report["holdout"]}.
- Decontamination: {_count(report["decontaminated"], "train task")} dropped for an opener shared with holdout.
- Judge: `{report.get("judge") or "whileai_env.grading.checklist:task_checklist"}`; execute: `{report.get("execute") or "the mock world"}`.

The privileged block (hidden state, reference, fault plan) lives only in each row's `info`,
read by the environment and never shown in the prompt.
"""
