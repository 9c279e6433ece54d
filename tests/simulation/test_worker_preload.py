"""The process backend's forkserver preload: importing it leaves the pools loaded, and Faker
not imported (personas are made from the shipped parts)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_workers_preload_loads_the_pools_without_faker():
    code = (
        "import whileai_env.simulation.worker_preload\n"
        "from whileai_env.world import pools as p\n"
        "import sys\n"
        "print(bool(p._POOLS), 'faker' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", "False"]
