"""Check a ``vf-eval`` run against the same tasks played in-process: every rollout completed and
the mean reward equals the in-process mean (both printed). Run with a verifiers venv's python:

    python -m tests.envs.verifiers.vf_eval_check RESULTS_DIR PACKAGE_DIR POLICY

``RESULTS_DIR`` is searched for the run's ``results.jsonl``; ``PACKAGE_DIR`` is the exported
package the run evaluated (its spec and tasks); ``POLICY`` the reference agent ``serve`` played.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from tests.envs.verifiers.parity import play
from whileai_env.export.package import read_package
from whileai_env.scenarios.task import Task


def _results(directory: Path) -> list[dict]:
    found = sorted(directory.rglob("results.jsonl"))
    if len(found) != 1:
        raise SystemExit(f"expected one results.jsonl under {directory}, found {len(found)}")
    return [json.loads(line) for line in found[0].read_text().splitlines() if line.strip()]


def _task_id(row: dict) -> str:
    info = row.get("info")
    info = json.loads(info) if isinstance(info, str) else info
    return str((info or {}).get("task_id") or row.get("task_id"))


def main(results_dir: str, package: str, policy: str) -> int:
    spec, rows = read_package(package)
    tasks = {t["task_id"]: Task.from_dict(json.loads(t["info"])) for t in rows}
    results = _results(Path(results_dir))
    incomplete = [r for r in results if r.get("error") or r.get("is_completed") is False]
    ours = [play(spec, tasks[_task_id(r)], policy).reward()["reward"] for r in results]
    theirs = [float(r["reward"]) for r in results]
    mean_vf, mean_ours = sum(theirs) / len(theirs), sum(ours) / len(ours)
    print(f"{policy}: {len(results)} rollouts through vf-eval, mean reward {mean_vf:.4f}; "
          f"in-process on the same tasks {mean_ours:.4f}; incomplete {len(incomplete)}")
    bad = [(_task_id(r), a, b) for r, a, b in zip(results, theirs, ours, strict=True) if not math.isclose(a, b)]
    for task_id, a, b in bad:
        print(f"  {task_id}: vf-eval {a} != in-process {b}")
    return 1 if incomplete or bad or not results else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
