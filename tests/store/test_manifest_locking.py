"""The manifest on a new store: a writer that finds the file locked waits for it, even while
switching the file's journal to WAL (SQLite refuses that switch at once, without its busy wait:
two first pushes at the same moment lost one)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from whileai_env.store.manifest import Manifest


def test_a_writer_waits_for_a_lock_held_while_the_journal_is_switched(tmp_path: Path) -> None:
    path = tmp_path / "manifest.sqlite"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE held (x)")  # a new file, not yet in WAL mode
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    started = time.monotonic()
    entry = {"id": "ds_1", "name": "a", "parent": None, "description": "", "meta": {}}
    assert Manifest(path).insert(entry) is True  # was: sqlite3.OperationalError at once
    assert time.monotonic() - started >= 0.25
    release.join()
    holder.close()
    assert [v["id"] for v in Manifest(path).versions("a")] == ["ds_1"]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
