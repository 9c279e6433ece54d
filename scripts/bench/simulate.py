"""Rows per minute of ``simulate()`` with the seeded agent and the template writer, one core.

Runs ``simulate("seeded", spec=<largest example spec>, budget=2000, quiet=True)`` in this
process (one thread, one core) and prints rows/min of CPU time and of wall-clock, with the
budget check (rows == budget whenever the grid has room). ``--output`` also streams the rows
to a JSONL file, as the CLI's main job does.

    python scripts/bench/simulate.py
    python scripts/bench/simulate.py --budget 5000 --mode rl --output /tmp/rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from _specs import largest_spec  # noqa: E402

import whileai_env as wenv  # noqa: E402
from whileai_env.simulation import simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", type=Path, default=None)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--mode", default="explore")
    parser.add_argument("--agent", default="seeded")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    spec_path = args.spec or largest_spec()
    spec = wenv.load_spec(spec_path)
    wenv.build_grid(spec)
    if args.output and args.output.exists():
        args.output.unlink()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    data = simulate(
        args.agent, spec=spec, budget=args.budget, mode=args.mode, output=args.output, quiet=True
    )
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    rows = len(data.rows)
    print(
        json.dumps(
            {
                "spec": str(spec_path.relative_to(ROOT)),
                "tools": len(spec.tools),
                "agent": args.agent,
                "mode": args.mode,
                "budget": args.budget,
                "rows": rows,
                "budget_honoured": rows == args.budget,
                "stopped_because": data.stopped_because,
                "rows_per_min_cpu": round(60 * rows / cpu),
                "rows_per_min_wall": round(60 * rows / wall),
                "faults_fired": sum(data.search["faults_fired"].values()),
                "target_rows_per_min": 50000,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
