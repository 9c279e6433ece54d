"""The process backend's forkserver preload: importing it leaves the pools and Fakers built."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_workers_preload_builds_the_pools_and_every_locales_faker():
    code = (
        "import whileai_env.simulation.worker_preload\n"
        "from whileai_env.world import pools as p\n"
        "print(bool(p._POOLS), sorted(p._FAKERS) == sorted(p.LOCALES))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", "True"]
