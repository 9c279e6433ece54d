"""The store under a crash mid-push (SIGKILL) and under two writers at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import whileai_env.store as store

REPO = Path(__file__).resolve().parents[2]
#: Pushes version k of "crash" forever, printing each id once it is pushed.
PUSHER = """
import sys
import whileai_env.store as store
from tests.store.test_store_crash import version_rows
root, name, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for k in range(first, first + count):
    print(k, store.push(version_rows(k), name, root=root), flush=True)
"""


def version_rows(k: int, n: int = 400) -> list[dict[str, Any]]:
    """Version ``k``'s rows: about 1 MB, so a push takes long enough to be cut."""
    return [
        {"task_id": f"t{i}", "reward": float((i + k) % 2), "k": k, "pad": "x" * 2500}
        for i in range(n)
    ]


def _pusher(root: Path, name: str, first: int, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-c", PUSHER, str(root), name, str(first), str(count)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )


def _kill_mid_push(root: Path) -> list[str]:
    """Start a pusher, let two versions land, SIGKILL it while a third is being written."""
    proc = _pusher(root, "crash", 0, 1000)
    assert proc.stdout is not None
    pushed = [proc.stdout.readline().split()[1] for _ in range(2)]
    deadline = time.monotonic() + 30
    while not any((root / "tmp").glob("*")):
        assert time.monotonic() < deadline, "the pusher never started another push"
        time.sleep(0.0005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return pushed


def test_kill_9_mid_push_leaves_the_last_complete_version(tmp_path: Path) -> None:
    for attempt in range(5):  # a kill that lands just after the rename is not mid-push: again
        root = tmp_path / str(attempt)
        pushed = _kill_mid_push(root)
        if list((root / "tmp").iterdir()):  # the cut push left its temporary files
            break
    else:
        raise AssertionError("no kill landed mid-push in five tries")
    listed = store.versions("crash", root=root)
    assert [v["id"] for v in listed][:2] == pushed
    for k, version in enumerate(listed):  # every listed version is whole
        assert store.pull(version["id"], root=root) == version_rows(k)
    assert store.pull("crash", root=root) == version_rows(len(listed) - 1)
    after = store.push(version_rows(99), "crash", root=root)  # the store still takes pushes
    assert store.pull("crash", root=root) == version_rows(99) and after
    assert not list((root / "tmp").iterdir())  # and swept the dead push's files


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    procs = [_pusher(tmp_path, "shared", first, 8) for first in (0, 100)]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    ids = {line.split()[1]: int(line.split()[0]) for out in outputs for line in out.splitlines()}
    listed = store.versions("shared", root=tmp_path)
    assert {v["id"] for v in listed} == set(ids) and len(listed) == 16
    for version in listed:
        assert store.pull(version["id"], root=tmp_path) == version_rows(ids[version["id"]])
