"""Check a ``vf-eval`` run against the same tasks played in-process: every rollout completed and
the mean reward equals the in-process mean (both printed). Run with a verifiers venv's python:

    python -m tests.envs.verifiers.vf_eval_check RESULTS_DIR SOURCE POLICY

``RESULTS_DIR`` is searched for the run's ``results.jsonl``; ``SOURCE`` is the exported package
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
    found = sorted(directory.rglob("results.jsonl"))
    if len(found) != 1:
        raise SystemExit(f"expected one results.jsonl under {directory}, found {len(found)}")
    return [json.loads(line) for line in found[0].read_text().splitlines() if line.strip()]


def _task(row: dict) -> Task:
    info = row["info"]
    return Task.from_dict(json.loads(info) if isinstance(info, str) else info)


def _task_id(row: dict) -> str:
    return _task(row).task_id


def main(results_dir: str, source: str, policy: str) -> int:
    spec = read_package(source)[0] if Path(source).is_dir() else load_spec(source)
    results = _results(Path(results_dir))
    incomplete = [r for r in results if r.get("error") or r.get("is_completed") is False]
    ours = [play(spec, _task(r), policy).reward()["reward"] for r in results]
    theirs = [float(r["reward"]) for r in results]
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
