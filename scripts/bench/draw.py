"""CPU time of drawing tasks, this tree against an earlier commit in the same run.

For each spec, ``draw_tasks(spec, --situations)`` on a freshly loaded spec (grid built first, so
what is timed is the draw), in a child process per version, best of ``--repeats``; prints ms per
task for both and the speed-up. Default specs: ``configs/specs/airline.yaml`` and the three
corpus specs with the most tools.

    python scripts/bench/draw.py
    python scripts/bench/draw.py --against HEAD~3 --situations 2000 tests/corpus/mcp-git.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _baseline import PACKAGE_ROOT, ROOT, child, worktree

sys.path.insert(0, str(PACKAGE_ROOT))

import whileai_env as wenv


def measure(spec_path: Path, situations: int, repeats: int) -> dict:
    """ms of CPU per drawn task, best of ``repeats`` (each on a freshly loaded spec)."""
    best = float("inf")
    for r in range(repeats):
        spec = wenv.load_spec(spec_path)
        wenv.build_grid(spec)
        cpu = time.process_time()
        tasks = wenv.draw_tasks(spec, situations, seed=r)
        best = min(best, (time.process_time() - cpu) / len(tasks))
    return {"ms_per_task": 1000 * best}


def default_specs() -> list[Path]:
    sys.path.insert(0, str(ROOT))
    from tests.corpus import corpus_specs

    sized = []
    for path in corpus_specs():
        try:
            sized.append((len(wenv.load_spec(path).tools), path.stat().st_size, path))
        except wenv.SpecError:
            continue
    sized.sort(reverse=True)
    return [ROOT / "configs" / "specs" / "airline.yaml", *(p for _, _, p in sized[:3])]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("specs", nargs="*", type=Path)
    parser.add_argument("--situations", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.specs[0], args.situations, args.repeats)))
        return
    specs = [p.resolve() for p in args.specs] or default_specs()
    rows = []
    with worktree(args.against) as old_root:
        for path in specs:
            child_args = [str(path), "--situations", str(args.situations)]
            child_args += ["--repeats", str(args.repeats)]
            old = child(Path(__file__), child_args, old_root)["ms_per_task"]
            new = child(Path(__file__), child_args, ROOT)["ms_per_task"]
            rows.append(
                {
                    "spec": str(path.relative_to(ROOT)),
                    f"ms_per_task_{args.against}": round(old, 3),
                    "ms_per_task_now": round(new, 3),
                    "speedup": round(old / new, 2),
                }
            )
    print(json.dumps({"situations": args.situations, "specs": rows, "target_speedup": 3}, indent=1))


if __name__ == "__main__":
    main()
