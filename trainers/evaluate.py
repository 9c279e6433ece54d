"""Held-out pass@1 of a model in the GRPO environment, split by whether the task needs a tool.

A policy that never acts still passes the tasks whose right outcome is not to act, so one
pass@1 hides whether anything was learned: the report gives pass@1 (with its bootstrap
interval, :func:`whileai_env.pass_at`) overall, on tasks the oracle solves with a tool call and
on those it solves without, and the share of the model's tool calls that were well formed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trainers.environment import WhileaiEnvironment


def needs_tool(spec: Any, rows: Sequence[Mapping[str, Any]]) -> dict[str, bool]:
    """``task_id -> whether the oracle's play of it calls a tool``."""
    import whileai_env as wenv

    tasks = wenv.tasks_from_rows(rows, spec)
    played = wenv.simulate("oracle", spec=spec, tasks=tasks, repeats=1, quiet=True).rows
    return {r["task_id"]: bool(r["steps"]) for r in played}


def evaluate(
    model: Any,
    tokenizer: Any,
    environment: type[WhileaiEnvironment],
    rows: Sequence[Mapping[str, Any]],
    *,
    needs: Mapping[str, bool] | None = None,
    **play_kwargs: Any,
) -> dict[str, Any]:
    """Play each row once (greedy unless ``temperature=``) and report pass@1 by kind of task."""
    from trainers.rollout import play, rollout_rows

    graded = rollout_rows(play(model, tokenizer, environment, rows, **play_kwargs))
    return report(graded, needs)


def report(
    graded: Sequence[Mapping[str, Any]], needs: Mapping[str, bool] | None = None
) -> dict[str, Any]:
    """The evaluation report of graded rows (played now, or read back from an earlier check)."""
    graded = list(graded)
    needs = dict(needs or {})
    report = {"all": _pass(graded), "rows": graded}
    if needs:
        report["needs_tool"] = _pass([r for r in graded if needs.get(r["task_id"])])
        report["no_tool"] = _pass([r for r in graded if needs.get(r["task_id"]) is False])
    well = sum(r["tool_calls_well_formed"] for r in graded)
    bad = sum(r["tool_calls_malformed"] for r in graded)
    report["tool_calls"] = {
        "well_formed": well,
        "malformed": bad,
        "share_well_formed": well / (well + bad) if well + bad else None,
    }
    return report


def _pass(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    import whileai_env as wenv

    if not rows:
        return {"tasks": 0, "pass_at_1": None, "ci95": None}
    result = wenv.pass_at(list(rows))
    return {
        "tasks": len(rows),
        "pass_at_1": result.pass_at_1,
        "ci95": list(result.ci95) if result.ci95 else None,
    }


def summary_line(name: str, report: Mapping[str, Any]) -> str:
    """One line per evaluation for notes and logs."""

    def part(key: str) -> str:
        p = report.get(key) or {}
        if p.get("pass_at_1") is None:
            return f"{key} n/a"
        ci = p.get("ci95")
        interval = f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""
        return f"{key} {p['pass_at_1']:.2f}{interval} (n={p['tasks']})"

    calls = report.get("tool_calls") or {}
    share = calls.get("share_well_formed")
    return (
        f"{name}: "
        + "; ".join(part(k) for k in ("all", "needs_tool", "no_tool"))
        + f"; well-formed tool calls {calls.get('well_formed', 0)}/{calls.get('well_formed', 0) + calls.get('malformed', 0)}"
        + (f" ({share:.0%})" if share is not None else "")
    )
