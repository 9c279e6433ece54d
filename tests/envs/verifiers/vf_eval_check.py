"""Check a ``vf-eval`` run against the same tasks played in-process: every rollout completed and
the mean reward equals the in-process mean (both printed). Run with a verifiers venv's python:

    python -m tests.envs.verifiers.vf_eval_check RESULTS_DIR SOURCE POLICY

``RESULTS_DIR`` is searched for the run's ``results.jsonl`` (0.3) or ``traces.jsonl`` (0.4); ``SOURCE`` is the exported package
or the spec the run evaluated; ``POLICY`` the reference agent ``serve`` played. Each rollout's
task is rebuilt from its own ``info``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from tests.envs.verifiers.parity import play
from whileai_env.export.package import read_package
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import load_spec


def _results(directory: Path) -> list[dict]:
    """The run's rollouts as ``{"info", "reward", "complete"}``: classic ``results.jsonl`` rows,
    or v1 ``traces.jsonl`` episodes (one trace each; the reward is the weighted sum)."""
    found = sorted(directory.rglob("results.jsonl")) or sorted(directory.rglob("traces.jsonl"))
    if len(found) != 1:
        raise SystemExit(
            f"expected one results.jsonl or traces.jsonl under {directory}, found {len(found)}"
        )
    rows = [json.loads(line) for line in found[0].read_text().splitlines() if line.strip()]
    if found[0].name == "results.jsonl":
        return [
            {
                "info": r["info"],
                "reward": float(r["reward"]),
                "complete": not r.get("error") and r.get("is_completed") is not False,
            }
            for r in rows
        ]
    return [_episode(r) for r in rows]


def _episode(row: dict) -> dict:
    traces = row.get("traces") or [{}]
    rewards = traces[0].get("rewards") or {}
    return {
        "info": row["task"]["data"]["info"],
        "reward": sum(r["score"] * r["weight"] for r in rewards.values() if r),
        "complete": bool(row.get("ok")) and len(traces) == 1 and not row.get("errors"),
    }


def _task(row: dict) -> Task:
    info = row["info"]
    return Task.from_dict(json.loads(info) if isinstance(info, str) else info)


def _task_id(row: dict) -> str:
    return _task(row).task_id


def main(results_dir: str, source: str, policy: str) -> int:
    spec = read_package(source)[0] if Path(source).is_dir() else load_spec(source)
    results = _results(Path(results_dir))
    incomplete = [r for r in results if not r["complete"]]
    ours = [play(spec, _task(r), policy).reward()["reward"] for r in results]
    theirs = [r["reward"] for r in results]
    mean_vf, mean_ours = sum(theirs) / len(theirs), sum(ours) / len(ours)
    print(
        f"{policy}: {len(results)} rollouts through vf-eval, mean reward {mean_vf:.4f}; "
        f"in-process on the same tasks {mean_ours:.4f}; incomplete {len(incomplete)}"
    )
    bad = [
        (_task_id(r), a, b)
        for r, a, b in zip(results, theirs, ours, strict=True)
        if not math.isclose(a, b)
    ]
    for task_id, a, b in bad:
        print(f"  {task_id}: vf-eval {a} != in-process {b}")
    return 1 if incomplete or bad or not results else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
