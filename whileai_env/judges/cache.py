"""Judge answers remembered by (judge version, row hash), so a re-grade costs no request.

A model judge's answer is a function of what it was shown and of the judge itself (model, prompt,
rubric, temperature): the judge's ``version`` names the second, a hash of the rendered request the
first. The cache maps that pair to the model's raw text, which the judge parses again on a hit
(parsing is cheap, and a fixed parser then reads old answers the fixed way).

Two stores, one interface:

- :class:`MemoryCache` (the default): a dict behind a lock, for one session; nothing written.
- :class:`SQLiteCache` (``cache="path/judge.sqlite"``): on disk, so a re-grade in another
  process or a later day is free too. SQLite (the standard library's ``sqlite3``) because it
  gives atomic writes, several threads and processes on one file, and no dependency to install;
  a JSON file would need its own locking and rewrite itself on every answer.

>>> cache = open_cache(None)
>>> cache.get("m@abc", "row1") is None
True
>>> cache.put("m@abc", "row1", '{"score": 4}')
>>> cache.get("m@abc", "row1")
'{"score": 4}'
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Protocol


class AnswerCache(Protocol):
    """Where a judge keeps the raw answers it was given, by (version, row hash)."""

    def get(self, version: str, row_hash: str) -> str | None:
        """The remembered answer, or ``None``."""
        ...

    def put(self, version: str, row_hash: str, answer: str) -> None:
        """Remember ``answer``."""
        ...


class NoCache:
    """Remembers nothing (``cache=False``): every grade is a request."""

    def get(self, version: str, row_hash: str) -> str | None:
        return None

    def put(self, version: str, row_hash: str, answer: str) -> None:
        return None


class MemoryCache:
    """Answers kept in this process only; safe to share across the runner's threads."""

    def __init__(self) -> None:
        self._answers: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def get(self, version: str, row_hash: str) -> str | None:
        with self._lock:
            return self._answers.get((version, row_hash))

    def put(self, version: str, row_hash: str, answer: str) -> None:
        with self._lock:
            self._answers[(version, row_hash)] = answer

    def __len__(self) -> int:
        return len(self._answers)

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {"answers": dict(self._answers)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._answers = dict(state["answers"])
        self._lock = threading.Lock()


class SQLiteCache:
    """Answers kept in one SQLite file, created (with its folder) on first use.

    Each call opens its own short connection, so threads never share one (``sqlite3``
    connections are not thread-safe) and a crash leaves at worst one answer unwritten.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS answers (version TEXT, row_hash TEXT, answer TEXT, "
                "PRIMARY KEY (version, row_hash))"
            )

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def get(self, version: str, row_hash: str) -> str | None:
        db = self._connect()
        try:
            found = db.execute(
                "SELECT answer FROM answers WHERE version = ? AND row_hash = ?",
                (version, row_hash),
            ).fetchone()
        finally:
            db.close()
        return None if found is None else str(found[0])

    def put(self, version: str, row_hash: str, answer: str) -> None:
        db = self._connect()
        try:
            with db:
                db.execute(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", (version, row_hash, answer)
                )
        finally:
            db.close()


def open_cache(cache: AnswerCache | str | os.PathLike[str] | bool | None) -> AnswerCache:
    """The cache a ``cache=`` argument names: ``None``/``True`` in memory, ``False`` none, a path
    an SQLite file, or any object with ``get``/``put`` as it is."""
    if cache is None or cache is True:
        return MemoryCache()
    if cache is False:
        return NoCache()
    if isinstance(cache, str | os.PathLike):
        return SQLiteCache(cache)
    if callable(getattr(cache, "get", None)) and callable(getattr(cache, "put", None)):
        return cache
    raise ValueError(
        f"cache must be None, True, False, a path or an object with get/put; got {cache!r}"
    )
