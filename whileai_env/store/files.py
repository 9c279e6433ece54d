"""A version's files, written so a crash never leaves a torn version where readers look.

Rows go to ``tmp/push.<pid>.<random>/`` first, each file fsynced, then the directory is renamed
into ``versions/<id>/`` (a rename is atomic on one filesystem) and its parent fsynced. Only
after that does the manifest name the version. Rows are stored as JSONL through the package's
one row serializer (:func:`whileai_env.data.jsonl.dumps_row`), not Parquet: a row is deeply
nested with per-tool argument shapes that Arrow would unify into one struct, and JSONL round-trips
it exactly with no dependency (:func:`~whileai_env.export.dataset.to_hf_dataset` gives Parquet).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

VERSIONS = "versions"
TMP = "tmp"


def stage(root: Path) -> Path:
    """A new temporary directory for a version being written (``tmp/push.<pid>.<random>``:
    :func:`sweep` removes it once its process is gone)."""
    tmp = root / TMP / f"push.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    tmp.mkdir(parents=True)
    return tmp


@contextlib.contextmanager
def synced(path: Path) -> Iterator[BinaryIO]:
    """``path`` open for writing, flushed and fsynced when the block ends."""
    with path.open("wb") as fh:
        yield fh
        fh.flush()
        os.fsync(fh.fileno())


def publish(root: Path, tmp: Path, version_id: str) -> Path:
    """Rename the staged ``tmp`` into ``versions/<version_id>/`` (kept as it is when another
    writer got there first: the same id holds the same bytes); ``tmp`` is gone either way."""
    final = root / VERSIONS / version_id
    try:
        if final.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
            return final
        _fsync_dir(tmp)
        final.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(tmp, final)
        except OSError:  # another writer renamed the same version in first
            if not final.is_dir():
                raise
            shutil.rmtree(tmp, ignore_errors=True)
        _fsync_dir(final.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def sweep(root: Path) -> int:
    """Remove the temporary directories of pushes whose process is gone (killed mid-push)."""
    removed = 0
    for entry in (root / TMP).glob("*.*.*") if (root / TMP).is_dir() else ():
        pid = entry.name.split(".")[1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    return removed


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    with contextlib.suppress(PermissionError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
    return True
