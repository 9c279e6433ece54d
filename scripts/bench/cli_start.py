"""Start-up of ``whileai-env simulate``: a whole process that writes one row, this tree against
an earlier commit in the same run (target: under 0.5 s before the first row).

Runs ``python -m whileai_env.cli simulate SPEC --budget 1 --output FILE`` ``--runs`` times per
version and prints the best CPU time (user + system, from the child's rusage) and wall-clock:
the process ends once its one row is written, so both bound the time before the first row.

Each version is timed twice over: ``compiled``, with bytecode cached (a first, untimed run
writes it under a private ``PYTHONPYCACHEPREFIX``), which is how a ``pip install``-ed package
starts, since pip compiles every module at install; and ``from_source``, with
``PYTHONDONTWRITEBYTECODE=1`` and the usual cache places, so a checkout that has no
``__pycache__`` (an editable install on a machine that sets that variable, as this one does)
compiles the package's modules on every start. The target is read on ``compiled``.

``--python`` names the interpreter whose installed dependencies the child imports (the tree's
own package comes first on ``PYTHONPATH``). The default is this one: the dev venv, whose test
extras include jsonschema's optional format checkers, which jsonschema imports whenever they
are installed (isoduration pulls in arrow: about 0.2 s). A user's ``pip install whileai-env``
has none of them; a venv with the package alone (``python -m venv /tmp/user &&
/tmp/user/bin/pip install .``) times what such a user gets.

    python scripts/bench/cli_start.py
    python scripts/bench/cli_start.py --against 962b984 --runs 7 tests/corpus/mcp-github.json
    python scripts/bench/cli_start.py --python /tmp/user/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _baseline import ROOT, worktree


def start_up(
    package_root: Path, spec: Path, runs: int, python: str = sys.executable
) -> dict[str, dict[str, float]]:
    """Best CPU and wall seconds of a one-row ``simulate`` process importing ``package_root``
    under ``python``, with bytecode cached and from source."""
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {"PYTHONPATH": str(package_root), "PYTHONPYCACHEPREFIX": cache}
        _timed(package_root, spec, 1, env, python)  # writes the bytecode
        compiled = _timed(package_root, spec, runs, env, python)
    env = {**os.environ, "PYTHONPATH": str(package_root), "PYTHONDONTWRITEBYTECODE": "1"}
    return {"compiled": compiled, "from_source": _timed(package_root, spec, runs, env, python)}


def _timed(
    package_root: Path, spec: Path, runs: int, env: dict[str, str], python: str
) -> dict[str, float]:
    cpu, wall = float("inf"), float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            out = Path(tmp) / f"rows-{i}.jsonl"
            command = [python, "-m", "whileai_env.cli", "simulate", str(spec)]
            command += ["--budget", "1", "--output", str(out)]
            t0 = time.perf_counter()
            proc = subprocess.Popen(command, env=env, cwd=package_root, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = min(wall, time.perf_counter() - t0)
            if status or not out.read_text().strip():
                raise SystemExit(f"simulate failed (status {status}) for {package_root}")
            cpu = min(cpu, usage.ru_utime + usage.ru_stime)
    return {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("spec", nargs="?", type=Path, default=ROOT / "configs/specs/airline.yaml")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--python", default=sys.executable, help="whose dependencies to import")
    args = parser.parse_args()
    if not (os.path.isfile(args.python) and os.access(args.python, os.X_OK)):
        parser.error(f"--python {args.python}: not an executable file")
    spec = args.spec.resolve()
    with worktree(args.against) as old_root:
        old = start_up(old_root, spec, args.runs, args.python)
    now = start_up(ROOT, spec, args.runs, args.python)
    report = {
        "spec": str(spec.relative_to(ROOT)),
        "python": args.python,
        args.against: old,
        "now": now,
        "cpu_ratio_now_over_old": round(now["compiled"]["cpu_s"] / old["compiled"]["cpu_s"], 2),
        "target_s": 0.5,
        "target_met": now["compiled"]["cpu_s"] < 0.5,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
