"""Rows on disk, the package's one JSONL reader and writer.

Rows (and tasks) are written one sorted-key JSON object a line (:func:`dumps_row`), flushed as
each lands (:class:`RowWriter`) or all at once through a temporary file (:func:`write_rows`),
and read back with :func:`read_rows` (all at once) or :class:`RowFile` (lazily, one line at a
time, so a long run's rows never have to fit in memory).

A run killed mid-write (kill -9) leaves at most one partial last line; ``read_rows`` drops it
and ``RowWriter(resume=True)`` truncates the file to the last complete row before appending, so
a resumed run neither duplicates nor loses a row. A sidecar ``<output>.run.json`` records the
run's configuration; a resume appends only to a file whose sidecar matches (see
:mod:`whileai_env.data.resume`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from whileai_env.data.lines import iter_lines, parse_line, sidecar
from whileai_env.data.resume import check_resume, recover
from whileai_env.data.text import clean_str
from whileai_env.errors import OutputExistsError

__all__ = [
    "RowFile",
    "RowWriter",
    "dumps_row",
    "encode_row",
    "iter_rows",
    "read_rows",
    "sidecar",
    "write_rows",
]


def dumps_row(row: Mapping[str, Any]) -> str:
    """One row as a JSON line (sorted keys, so equal rows are equal bytes)."""
    return json.dumps(row, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))


def _line(row: Mapping[str, Any]) -> tuple[str, int]:
    """A row's JSON line as valid UTF-8 text (lone surrogates replaced) and the repairs made."""
    return clean_str(dumps_row(row) + "\n")


def encode_row(row: Mapping[str, Any]) -> tuple[bytes, int]:
    """A row's line as :class:`RowWriter` writes it (UTF-8 bytes) and the text repairs made, so a
    worker process can encode a row and the driver's writer append it unchanged
    (:meth:`RowWriter.write_encoded`).

    >>> encode_row({"b": 1, "a": "x"})
    (b'{"a":"x","b":1}\\n', 0)
    """
    line, repaired = _line(row)
    return line.encode("utf-8"), repaired


def write_rows(rows: Iterable[Mapping[str, Any]], path: str | os.PathLike) -> Path:
    """Write ``rows`` to ``path`` as JSONL through a temporary file, so a crash never leaves a
    half-written file in its place; returns the path. ``rows`` is consumed one at a time."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(_line(row)[0])
    except BaseException:  # the rows raised, or the disk filled: leave nothing behind
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    return path


def iter_rows(path: str | os.PathLike) -> Iterator[dict[str, Any]]:
    """The rows of a JSONL file one at a time (see :func:`read_rows`)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no such rows file: {path}")
    for number, _, raw, complete in iter_lines(path):
        if not raw.strip():
            continue
        try:
            value = parse_line(raw)
        except ValueError as exc:
            if not complete:  # no newline after it: a write cut short (kill -9)
                return
            raise ValueError(f"{path}:{number}: {exc}") from None
        if not isinstance(value, dict):
            raise ValueError(
                f"{path}:{number}: a row must be a JSON object, got {type(value).__name__}"
            )
        yield value


def read_rows(path: str | os.PathLike) -> list[dict[str, Any]]:
    """Every complete row of a JSONL file; a partial last line (a crash mid-write) is skipped.

    A line is complete when a newline ends it; a complete line that is not a JSON object is an
    error naming the file and line.
    """
    return list(iter_rows(path))


class RowFile(Sequence):
    """The rows of a JSONL file as a read-only sequence that holds line offsets, not rows.

    ``rows[i]`` seeks to line ``i`` and parses it; iterating streams the file. It compares equal
    to a list of the same rows. The file must not change while it is read.
    """

    def __init__(self, path: str | os.PathLike, offsets: Sequence[int] | None = None) -> None:
        self.path = Path(path)
        if offsets is None:
            offsets = [
                offset
                for _, offset, raw, complete in iter_lines(self.path)
                if complete and raw.strip()
            ]
        self._offsets = list(offsets)

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        offset = self._offsets[index]
        with self.path.open("rb") as fh:
            fh.seek(offset)
            return parse_line(fh.readline())

    def __iter__(self) -> Iterator[Any]:
        with self.path.open("rb") as fh:
            for offset in self._offsets:
                fh.seek(offset)
                yield parse_line(fh.readline())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RowFile | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RowFile({str(self.path)!r}, {len(self)} rows)"


class RowWriter:
    """Append rows to a JSONL file, one flushed line per row.

    ``resume=False`` refuses a file that already has rows (nothing is overwritten by accident);
    ``resume=True`` continues only a file :func:`~whileai_env.data.resume.check_resume` proves is
    this run's, keeps every complete row (indexed in :attr:`resumed` by ``(task_id,
    rollout_index)``, read back with :meth:`read_at`) and sets corrupt lines aside.
    :attr:`offsets` holds where every row of the file starts, for a :class:`RowFile`.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        config: Mapping[str, Any],
        resume: bool = False,
        fsync: bool = False,
    ) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.repaired = 0
        self.resumed: dict[tuple[str, int], int] = {}
        self.offsets: list[int] = []
        self.recovered: list[int] = []
        if self.path.is_dir():
            raise OutputExistsError(
                f"{self.path} is a directory; give the path of a .jsonl file to write"
            )
        has_rows = self.path.exists() and self.path.stat().st_size > 0
        if has_rows and not resume:
            raise OutputExistsError(
                f"{self.path} already holds rows; pass resume=True (--resume) to continue that run, "
                "or choose another output"
            )
        scan = check_resume(self.path, config) if has_rows else None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if scan is not None:
            self.recovered = recover(self.path, scan)
            self.resumed, self.offsets = scan.index, scan.offsets
        sidecar(self.path).write_text(
            json.dumps(dict(config), sort_keys=True, indent=1, default=str), encoding="utf-8"
        )
        self._fh: IO[bytes] = self.path.open("ab")
        self._end = self._fh.tell()

    def read_at(self, offset: int) -> dict[str, Any]:
        """The row whose line starts at byte ``offset``."""
        with self.path.open("rb") as fh:
            fh.seek(offset)
            return parse_line(fh.readline())

    def write(self, row: Mapping[str, Any]) -> None:
        """Append ``row`` as one flushed line (text the caller left invalid is repaired, counted in
        :attr:`repaired`)."""
        self.write_encoded(*encode_row(row))

    def write_encoded(self, data: bytes, repaired: int = 0) -> None:
        """Append one line :func:`encode_row` made (``repaired``: its text repairs, counted)."""
        self.repaired += repaired
        try:
            self._fh.write(data)
            self._fh.flush()
            if self.fsync:
                os.fsync(self._fh.fileno())
        except OSError as exc:  # a full disk, a vanished mount: say which file
            raise OSError(
                exc.errno, f"cannot write a row ({exc.strerror or exc})", str(self.path)
            ) from exc
        self.offsets.append(self._end)
        self._end += len(data)

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
