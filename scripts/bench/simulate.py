"""Rows per minute of ``simulate()`` in-process, one core: this tree, an earlier commit and the
original SDK's offline path, in the same run.

For each spec (default: ``configs/specs/airline.yaml`` and the corpus spec with the most tools),
runs ``simulate("seeded", spec=..., budget=--budget, quiet=True)`` in a child process per version
(after a 50-row warm-up on another seed), ``--repeats`` times with the versions taking turns,
and prints each version's best rows/min of CPU time (with its wall-clock) and the budget check.
The SDK (``whileai==0.131``, in its own venv: ``--sdk-python``, default ``/tmp/sdkvenv/bin/python``)
plays ``wai.simulate(wai.seeded_agent(tools), simulator=False)``, its template writer and no model,
best of ``--repeats`` too; when that interpreter cannot import ``whileai`` the output says so. ``--output`` streams this tree's rows to a JSONL file, as the CLI does.

    python scripts/bench/simulate.py
    python scripts/bench/simulate.py --against 962b984 --budget 5000 configs/specs/airline.yaml
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _baseline import PACKAGE_ROOT, ROOT, child, worktree

sys.path.insert(0, str(PACKAGE_ROOT))

import whileai_env as wenv
from whileai_env.simulation import simulate

SDK_CHILD = """
import json, sys, time
import whileai as wai
d = json.load(open(sys.argv[1]))
agent = wai.seeded_agent(d["tools"])
kw = dict(tools=d["tools"], system_prompt=d["system_prompt"], simulator=False)
wai.simulate(agent, budget=50, seed=1, **kw)
cpu, wall = time.process_time(), time.perf_counter()
rows = wai.simulate(agent, budget=int(sys.argv[2]), seed=0, **kw).rows()
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"rows": len(rows), "rows_per_min_cpu": round(60 * len(rows) / cpu),
                  "rows_per_min_wall": round(60 * len(rows) / wall)}))
"""


def measure(spec_path: Path, budget: int, mode: str, output: Path | None) -> dict:
    """One version's figures for ``spec_path`` (run in a child)."""
    spec = wenv.load_spec(spec_path)
    simulate("seeded", spec=spec, budget=50, seed=1, quiet=True)
    if output and output.exists():
        output.unlink()
    cpu, wall = time.process_time(), time.perf_counter()
    data = simulate("seeded", spec=spec, budget=budget, mode=mode, output=output, quiet=True)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rows = len(data.rows)
    return {
        "rows": rows,
        "budget_honoured": rows == budget,
        "stopped_because": data.stopped_because,
        "rows_per_min_cpu": round(60 * rows / cpu),
        "rows_per_min_wall": round(60 * rows / wall),
    }


def sdk(sdk_python: Path, spec_path: Path, budget: int) -> dict:
    """The original SDK's offline figures, or why there are none."""
    if not sdk_python.exists():
        return {
            "unavailable": f"{sdk_python} not found (python3.11 -m venv; pip install whileai==0.131)"
        }
    spec = wenv.load_spec(spec_path)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"tools": spec.openai_tools(), "system_prompt": spec.system_prompt}, f)
    done = subprocess.run(
        [str(sdk_python), "-c", SDK_CHILD, f.name, str(budget)],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    Path(f.name).unlink()
    if done.returncode:
        return {"unavailable": done.stderr.strip().splitlines()[-1][:300]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def best_of(repeats: int, old_args: list[str], now_args: list[str], old_root: Path) -> tuple:
    """Each version's best run of ``repeats``, the versions taking turns (a busy machine slows
    whichever runs while it is busiest, so neither gets all the quiet moments)."""
    runs: tuple[list[dict], list[dict]] = ([], [])
    for _ in range(repeats):
        runs[0].append(child(Path(__file__), old_args, old_root))
        runs[1].append(child(Path(__file__), now_args, ROOT))
    best = [max(r, key=lambda m: m["rows_per_min_cpu"]) for r in runs]
    return best[0], best[1]


def default_specs() -> list[Path]:
    sys.path.insert(0, str(ROOT))
    from tests.corpus import corpus_specs

    sized = []
    for path in corpus_specs():
        try:
            sized.append((len(wenv.load_spec(path).tools), path.stat().st_size, path))
        except wenv.SpecError:
            continue
    return [ROOT / "configs" / "specs" / "airline.yaml", max(sized)[2]]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("specs", nargs="*", type=Path)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--mode", default="explore")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--repeats", type=int, default=3, help="runs per version (best kept)")
    parser.add_argument("--sdk-python", type=Path, default=Path("/tmp/sdkvenv/bin/python"))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.specs[0], args.budget, args.mode, args.output)))
        return
    report = []
    with worktree(args.against) as old_root:
        for path in [p.resolve() for p in args.specs] or default_specs():
            child_args = [str(path), "--budget", str(args.budget), "--mode", args.mode]
            now_args = [*child_args, *(["--output", str(args.output)] if args.output else [])]
            old, now = best_of(args.repeats, child_args, now_args, old_root)
            entry = {
                "spec": str(path.relative_to(ROOT)),
                "tools": len(wenv.load_spec(path).tools),
                "now": now,
                args.against: old,
                f"now_over_{args.against}": round(
                    now["rows_per_min_cpu"] / old["rows_per_min_cpu"], 2
                ),
            }
            if args.mode == "explore":
                sdk_runs = [sdk(args.sdk_python, path, args.budget) for _ in range(args.repeats)]
                entry["sdk_0.131"] = base = max(
                    sdk_runs, key=lambda m: m.get("rows_per_min_cpu", 0)
                )
                if "rows_per_min_cpu" in base:
                    entry["now_over_sdk"] = round(
                        now["rows_per_min_cpu"] / base["rows_per_min_cpu"], 2
                    )
            report.append(entry)
    targets = {"rows_per_min_cpu": 60000, "now_over_sdk": 10}
    print(json.dumps({"budget": args.budget, "specs": report, "targets": targets}, indent=1))


if __name__ == "__main__":
    main()
