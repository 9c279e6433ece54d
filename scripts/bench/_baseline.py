"""Shared by the benchmarks: the same measurement on this tree and on an earlier commit, one run.

A bench that compares itself with the previous version runs its own measurement in a child
process twice, once importing this tree's package and once a ``git worktree`` of ``--against``
(``HEAD~1`` by default), and prints the ratio: both figures come from the same machine load.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Set in a child run: where its ``whileai_env`` comes from (this tree when unset).
PACKAGE_ROOT = Path(os.environ.get("BENCH_PACKAGE_ROOT", str(ROOT)))


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """A detached checkout of ``rev`` in a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="bench-base-") as tmp:
        path = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
            check=True,
            capture_output=True,
        )
        try:
            yield path
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                check=False,
                capture_output=True,
            )


def child(script: Path, args: list[str], package_root: Path) -> dict:
    """Run ``script --child ARGS`` importing ``whileai_env`` from ``package_root``; its JSON."""
    env = {**os.environ, "BENCH_PACKAGE_ROOT": str(package_root)}
    out = subprocess.run(
        [sys.executable, str(script), "--child", *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=package_root,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
