"""Rows on disk, the package's one JSONL reader and writer.

Rows (and tasks) are written one sorted-key JSON object a line (:func:`dumps_row`), flushed as
each lands (:class:`RowWriter`) or all at once through a temporary file (:func:`write_rows`),
and read back with :func:`read_rows`.

A run killed mid-write (kill -9) leaves at most one partial last line; ``read_rows`` drops it
and ``RowWriter(resume=True)`` truncates the file to the last complete row before appending, so
a resumed run neither duplicates nor loses a row. A sidecar ``<output>.run.json`` records the
run's configuration; resuming with a different one is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from whileai_env.data.text import clean_str
from whileai_env.errors import OutputExistsError, ResumeMismatchError


def sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".run.json")


def dumps_row(row: Mapping[str, Any]) -> str:
    """One row as a JSON line (sorted keys, so equal rows are equal bytes)."""
    return json.dumps(row, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))


def _line(row: Mapping[str, Any]) -> tuple[str, int]:
    """A row's JSON line as valid UTF-8 text (lone surrogates replaced) and the repairs made."""
    return clean_str(dumps_row(row) + "\n")


def write_rows(rows: Iterable[Mapping[str, Any]], path: str | os.PathLike) -> Path:
    """Write ``rows`` to ``path`` as JSONL through a temporary file, so a crash never leaves a
    half-written file in its place; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(_line(row)[0])
    os.replace(tmp, path)
    return path


def _complete_lines(path: Path) -> tuple[list[tuple[int, str]], int]:
    """Complete JSON lines (line number, text) and the byte length they occupy."""
    data = path.read_bytes()
    lines: list[tuple[int, str]] = []
    good_end = 0
    pos = 0
    number = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end == -1:
            break
        number += 1
        raw = data[pos:end].decode("utf-8", errors="replace")
        if raw.strip():
            try:
                json.loads(raw)
            except json.JSONDecodeError:
                break
            lines.append((number, raw))
        pos = end + 1
        good_end = pos
    return lines, good_end


def read_rows(path: str | os.PathLike) -> list[dict[str, Any]]:
    """Every complete row of a JSONL file; a partial last line (a crash mid-write) is skipped.

    A line is complete when a newline ends it; a complete line that is not a JSON object is an
    error naming the file and line.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no such rows file: {path}")
    rows: list[dict[str, Any]] = []
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            if number == len(lines):  # no newline after it: a write cut short (kill -9)
                break
            raise ValueError(f"{path}:{number}: not a JSON row ({exc.msg})") from None
        if not isinstance(value, dict):
            raise ValueError(f"{path}:{number}: a row must be a JSON object, got {type(value).__name__}")
        rows.append(value)
    return rows


class RowWriter:
    """Append rows to a JSONL file, one flushed line per row.

    ``resume=False`` refuses a file that already has rows (nothing is overwritten by accident);
    ``resume=True`` keeps its complete rows, drops a partial last line, and checks ``config``
    against the sidecar the original run wrote.
    """

    def __init__(self, path: str | os.PathLike, *, config: Mapping[str, Any], resume: bool = False, fsync: bool = False) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.existing: list[dict[str, Any]] = []
        self.repaired = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        meta = sidecar(self.path)
        has_rows = self.path.exists() and self.path.stat().st_size > 0
        if has_rows and not resume:
            raise OutputExistsError(
                f"{self.path} already holds rows; pass resume=True (--resume) to continue that run, "
                "or choose another output"
            )
        if resume and has_rows:
            if meta.exists():
                saved = json.loads(meta.read_text(encoding="utf-8"))
                diff = {k: (saved.get(k), v) for k, v in config.items() if saved.get(k) != v}
                if diff:
                    detail = ", ".join(f"{k}: was {a!r}, now {b!r}" for k, (a, b) in sorted(diff.items()))
                    raise ResumeMismatchError(f"cannot resume {self.path}: the run's settings differ ({detail})")
            lines, good_end = _complete_lines(self.path)
            with self.path.open("r+b") as fh:
                fh.truncate(good_end)
            self.existing = [json.loads(text) for _, text in lines]
        meta.write_text(json.dumps(dict(config), sort_keys=True, indent=1, default=str), encoding="utf-8")
        self._fh: IO[str] = self.path.open("a", encoding="utf-8")

    def write(self, row: Mapping[str, Any]) -> None:
        """Append ``row`` as one flushed line (text the caller left invalid is repaired, counted in
        :attr:`repaired`)."""
        line, repaired = _line(row)
        self.repaired += repaired
        self._fh.write(line)
        self._fh.flush()
        if self.fsync:
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

