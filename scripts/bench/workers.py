"""Rows per minute of ``simulate(workers=N)`` for 1 and 2 workers, process and Ray backends, one run.

Each configuration plays the same run (the seeded agent, graded by ``task_checklist`` as the CLI
does by default, streamed to a JSONL file) on a spec this team did not write, and prints rows/min
of wall-clock from the call to the last row, pool start-up included, with the load average
beside it (the machine is shared: read the ratios, measured back to back, not the absolute
figures). Beside wall-clock it prints CPU seconds: the driver's own (``driver_cpu_s``) and its
descendant processes' (``workers_cpu_s``: pool workers, or the local Ray's actors and daemons,
sampled from /proc every 0.1 s), so a run on a busy machine still shows what the work costs.
``workers=1`` plays in the driver itself on both backends, and ``workers=2`` is the driver and one
pool process or actor (for the seeded agent the driver is one of the workers). Ray is started only after the process backend's runs (its daemons would
take CPU from them). It also prints what the driver alone spends drawing the run's tasks, the
part no worker count divides (``draw_ceiling_rows_per_min``), and what two independent processes
doing the same whole run get over one (``machine_ceiling_2_over_1``: no worker design does better
than that on the machine it runs on).

    python scripts/bench/workers.py
    python scripts/bench/workers.py --budget 12000 --spec tests/corpus/mcp-github.json --no-ray
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import whileai_env as wenv  # noqa: E402
from whileai_env.grading.checklist import task_checklist  # noqa: E402
from whileai_env.scenarios.draw import iter_situations  # noqa: E402
from whileai_env.simulation import simulate  # noqa: E402

DEFAULT_SPEC = ROOT / "tests" / "corpus" / "tau2-airline.json"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _descendants(root: int) -> dict[int, float]:
    """CPU seconds so far of every process under ``root`` (Linux /proc; empty elsewhere)."""
    parent, cpu = {}, {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    out = {}
    for pid in cpu:
        up = pid
        while up in parent and up != root:
            up = parent[up]
        if up == root and pid != root:
            out[pid] = cpu[pid]
    return out


class _CpuWatch:
    """The CPU seconds descendant processes spent while the block ran (sampled every 0.1 s)."""

    def __enter__(self) -> _CpuWatch:
        self.start = _descendants(os.getpid())
        self.last: dict[int, float] = dict(self.start)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.1):
            self.last.update(_descendants(os.getpid()))

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.last.update(_descendants(os.getpid()))
        self.seconds = sum(v - self.start.get(pid, 0.0) for pid, v in self.last.items())


def _rate(spec: object, budget: int, out: Path, **kw: object) -> dict[str, object]:
    cpu, start = time.process_time(), time.perf_counter()
    with _CpuWatch() as watch:
        data = simulate(
            "seeded", spec=spec, budget=budget, quiet=True, grader=task_checklist, output=out, **kw
        )
    wall = time.perf_counter() - start
    rows = data.search["rows"]
    return {
        "rows": rows,
        "wall_s": round(wall, 2),
        "rows_per_min": round(60 * rows / wall),
        "driver_cpu_s": round(time.process_time() - cpu, 2),
        "workers_cpu_s": round(watch.seconds, 2),
    }


def _draw_ceiling(spec: object, budget: int) -> dict[str, object]:
    """Rows/min if drawing the tasks were the driver's only work (explore: one row per task)."""
    start = time.perf_counter()
    for _ in itertools.islice(iter_situations(spec), budget):
        pass
    wall = time.perf_counter() - start
    return {"draw_s": round(wall, 2), "draw_ceiling_rows_per_min": round(60 * budget / wall)}


_ALONE = """
import sys, time
sys.path.insert(0, sys.argv[3])
import whileai_env as wenv
from whileai_env.grading.checklist import task_checklist
from whileai_env.simulation import simulate
spec = wenv.load_spec(sys.argv[1])
start = time.perf_counter()
simulate("seeded", spec=spec, budget=int(sys.argv[2]), quiet=True, grader=task_checklist)
print(time.perf_counter() - start)
"""


def _machine_ceiling(spec_path: Path, budget: int) -> dict[str, object]:
    """What two independent processes get out of this machine: the same whole run (draw and
    play, no workers) in one process alone, then in two at once. Nothing is shared between the
    two, so their throughput over one's is the most any 2-worker design can reach here (a
    machine whose two CPUs slow each other down caps it below 2)."""

    def runs(copies: int) -> float:
        start = time.perf_counter()
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", _ALONE, str(spec_path), str(budget), str(ROOT)],
                stdout=subprocess.DEVNULL,
            )
            for _ in range(copies)
        ]
        for proc in procs:
            proc.wait()
        return time.perf_counter() - start

    alone, both = runs(1), runs(2)
    return {
        "one_process_s": round(alone, 2),
        "two_processes_s": round(both, 2),
        "machine_ceiling_2_over_1": round(2 * alone / both, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", type=Path, default=DEFAULT_SPEC)
    parser.add_argument("--budget", type=int, default=6000)
    parser.add_argument("--no-ray", action="store_true", help="the process backend only")
    args = parser.parse_args()
    spec = wenv.load_spec(args.spec)
    print(json.dumps({"spec": str(args.spec), "tools": len(spec.tools), "budget": args.budget}))
    print(json.dumps({**_draw_ceiling(spec, args.budget), "load": _load()}))
    print(json.dumps({**_machine_ceiling(args.spec.resolve(), args.budget), "load": _load()}))
    backends = ["process"] if args.no_ray else ["process", "ray"]
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            if backend == "ray":
                _start_ray()
            rates = {}
            for workers in (1, 2):
                out = Path(tmp) / f"{backend}-{workers}.jsonl"
                rates[workers] = _rate(spec, args.budget, out, workers=workers, backend=backend)
                print(
                    json.dumps(
                        {"backend": backend, "workers": workers, **rates[workers], "load": _load()}
                    )
                )
            ratio = rates[2]["rows_per_min"] / rates[1]["rows_per_min"]  # type: ignore[operator]
            print(json.dumps({"backend": backend, "speedup_2_over_1": round(ratio, 2)}))


def _start_ray() -> None:
    import ray

    start = time.perf_counter()
    ray.init(include_dashboard=False, log_to_driver=False)
    print(json.dumps({"ray_init_s": round(time.perf_counter() - start, 2), "load": _load()}))


if __name__ == "__main__":
    main()
