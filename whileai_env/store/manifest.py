"""The store's manifest: one SQLite table of versions (name, parent, counts, lineage, state).

Why SQLite (the stdlib's ``sqlite3``) and not a JSON manifest file: its transactions are atomic
and durable across a crash, and its file lock serialises writers across processes, so two
pushes at once never lose or tear a manifest entry; readers are never blocked by a writer
(write-ahead log). A version becomes visible only when its row commits, after its files are on
disk, so a push killed at any point leaves the manifest naming complete versions only.

>>> import tempfile
>>> m = Manifest(Path(tempfile.mkdtemp()) / "manifest.sqlite")
>>> m.insert({"id": "ds_1", "name": "a", "parent": None, "description": "", "meta": {}})
True
>>> [v["id"] for v in m.versions("a")], m.get("a")["id"]
(['ds_1'], 'ds_1')
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS versions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT UNIQUE NOT NULL,
    name TEXT NOT NULL,
    parent TEXT,
    description TEXT NOT NULL,
    created TEXT NOT NULL,
    finalized INTEGER NOT NULL DEFAULT 0,
    meta TEXT NOT NULL
)
"""
_COLUMNS = ("seq", "id", "name", "parent", "description", "created", "finalized", "meta")
#: How long a writer waits for another's transaction before giving up (seconds).
LOCK_TIMEOUT = 60.0


def _write_ahead_log(db: sqlite3.Connection) -> None:
    """Put the database in WAL mode (it stays so: only a new file needs it). Switching a file's
    journal mode takes it exclusively, and SQLite answers "database is locked" at once, without
    its busy wait, when another process holds it (two first pushes to a new store at the same
    moment did), so the switch is retried until :data:`LOCK_TIMEOUT`."""
    if db.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    deadline = time.monotonic() + LOCK_TIMEOUT
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


class Manifest:
    """The versions table of one store, opened per operation (no connection is held)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connect(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None)) as db:
            _write_ahead_log(db)
            db.execute("PRAGMA synchronous=FULL")
            db.execute(_SCHEMA)
            if not write:
                yield db
                return
            db.execute("BEGIN IMMEDIATE")  # take the write lock now: writers queue here
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def insert(self, entry: Mapping[str, Any]) -> bool:
        """Record a version; ``False`` (and nothing changed) when its id is already there."""
        with self._connect(write=True) as db:
            if db.execute("SELECT 1 FROM versions WHERE id = ?", (entry["id"],)).fetchone():
                return False
            db.execute(
                "INSERT INTO versions (id, name, parent, description, created, meta) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    entry["id"],
                    entry["name"],
                    entry["parent"],
                    entry["description"],
                    datetime.now(UTC).isoformat(timespec="seconds"),
                    json.dumps(entry["meta"], sort_keys=True, default=str),
                ),
            )
            return True

    def get(self, name_or_id: str) -> dict[str, Any] | None:
        """The version with this id, else the latest version of this name, else ``None``."""
        with self._connect() as db:
            found = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM versions WHERE id = ? OR name = ? "
                "ORDER BY (id = ?) DESC, seq DESC LIMIT 1",
                (name_or_id, name_or_id, name_or_id),
            ).fetchone()
        return _entry(found) if found else None

    def versions(self, name: str | None = None) -> list[dict[str, Any]]:
        """Every version of ``name`` (all names when ``None``), oldest first."""
        query = f"SELECT {', '.join(_COLUMNS)} FROM versions"
        args: tuple[str, ...] = ()
        if name is not None:
            query, args = query + " WHERE name = ?", (name,)
        with self._connect() as db:
            return [_entry(r) for r in db.execute(query + " ORDER BY seq", args).fetchall()]

    def finalize(self, version_id: str) -> None:
        """Mark a version finalized (it may then be published)."""
        with self._connect(write=True) as db:
            db.execute("UPDATE versions SET finalized = 1 WHERE id = ?", (version_id,))


def _entry(row: tuple[Any, ...]) -> dict[str, Any]:
    entry = dict(zip(_COLUMNS, row, strict=True))
    entry["finalized"] = bool(entry["finalized"])
    entry["meta"] = json.loads(entry["meta"])
    return entry
