"""What ``resume=True`` (``--resume``) may append to, and how it recovers a damaged file.

A resume appends only to a file it can prove is the same run: the sidecar ``<output>.run.json``
must exist and match the new run's stamp (spec hash, seed, mode, topology, fault rate, grading,
agent, pinned tasks), and every row in the file must carry this run's spec hash and agent.
Anything else is refused with one line naming the file (and line), and nothing is touched — a
notes file, a run whose sidecar was lost, another seed's rows.

Recovery keeps every complete row. A partial last line (a write cut short by kill -9) is
dropped, as before. A corrupt line in the middle (never written by this package: disk damage or
a hand edit) is *set aside*, not cut at: it is appended to ``<output>.corrupt`` as
``{"line", "text"}``, the file is rewritten without it (through a temporary file), a warning
names its line number, and its rollout is simply played again.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whileai_env.data.lines import iter_lines, parse_line, sidecar
from whileai_env.errors import ResumeMismatchError

#: Row columns that must equal the stamp's (a row of another spec or agent is another run's).
_ROW_STAMP = ("spec_hash", "agent")


@dataclass
class Scan:
    """A run file read for resuming: where its rows start, its corrupt lines, where it ends well."""

    offsets: list[int] = field(default_factory=list)
    index: dict[tuple[str, int], int] = field(default_factory=dict)
    corrupt: list[tuple[int, bytes]] = field(default_factory=list)
    good_end: int = 0
    partial: bool = False


def check_resume(path: Path, config: Mapping[str, Any]) -> Scan:
    """Prove ``path`` holds the rows of the run ``config`` stamps, or raise ``ResumeMismatchError``.

    Reads the file once, one line at a time; changes nothing.
    """
    _check_sidecar(path, config)
    scan = Scan()
    for number, offset, raw, complete in iter_lines(path):
        if not complete:
            scan.partial = True
            break
        scan.good_end = offset + len(raw) + 1
        if not raw.strip():
            continue
        row = _row_or_none(raw)
        if row is None:
            scan.corrupt.append((number, raw))
            continue
        for key in _ROW_STAMP:
            if key in config and key in row and row[key] != config[key]:
                raise ResumeMismatchError(
                    f"cannot resume {path}:{number}: the row's {key} is {row[key]!r}, "
                    f"this run's is {config[key]!r} (the file mixes runs)"
                )
        scan.offsets.append(offset)
        scan.index.setdefault((row["task_id"], int(row.get("rollout_index") or 0)), offset)
    if scan.corrupt and not scan.offsets:
        raise ResumeMismatchError(
            f"cannot resume {path}: line {scan.corrupt[0][0]} is not a row and no line is "
            "one; this is not a run's file"
        )
    return scan


def _check_sidecar(path: Path, config: Mapping[str, Any]) -> None:
    meta = sidecar(path)
    if not meta.is_file():
        raise ResumeMismatchError(
            f"cannot resume {path}: {meta} is missing, so nothing shows the file holds "
            "this run's rows; choose another output"
        )
    try:
        saved = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResumeMismatchError(
            f"cannot resume {path}: {meta} is not a run's sidecar ({exc})"
        ) from None
    if not isinstance(saved, dict):
        raise ResumeMismatchError(
            f"cannot resume {path}: {meta} is not a run's sidecar (not a JSON object)"
        )
    keys = sorted(set(saved) | set(config))
    diff = [
        f"{k}: was {saved.get(k)!r}, now {config.get(k)!r}"
        for k in keys
        if saved.get(k) != config.get(k)
    ]
    if diff:
        raise ResumeMismatchError(
            f"cannot resume {path}: the run's settings differ ({', '.join(diff)})"
        )


def _row_or_none(raw: bytes) -> dict[str, Any] | None:
    try:
        row = parse_line(raw)
    except ValueError:
        return None
    if not isinstance(row, dict) or not isinstance(row.get("task_id"), str):
        return None
    try:
        int(row.get("rollout_index") or 0)
    except (TypeError, ValueError):
        return None
    return row


def recover(path: Path, scan: Scan) -> list[int]:
    """Make ``path`` end on its last complete row and hold no corrupt line; the lines set aside.

    Updates ``scan``'s offsets and index to the rewritten file.
    """
    if not scan.corrupt:
        if scan.partial or path.stat().st_size != scan.good_end:
            with path.open("r+b") as fh:
                fh.truncate(scan.good_end)
        return []
    quarantine = path.with_name(path.name + ".corrupt")
    with quarantine.open("a", encoding="utf-8") as fh:
        for number, raw in scan.corrupt:
            fh.write(
                json.dumps({"line": number, "text": raw.decode("utf-8", errors="replace")}) + "\n"
            )
    numbers = [number for number, _ in scan.corrupt]
    _rewrite_without(path, scan)
    shown = ", ".join(map(str, numbers[:5])) + (
        f" and {len(numbers) - 5} more" if len(numbers) > 5 else ""
    )
    warnings.warn(
        f"{path}:{numbers[0]}: {len(numbers)} corrupt line(s) (line {shown}) set aside in {quarantine}; "
        "every complete row is kept and the lost rollouts are played again",
        UserWarning,
        stacklevel=3,
    )
    return numbers


def _rewrite_without(path: Path, scan: Scan) -> None:
    """Rewrite ``path`` with only the rows ``scan`` found, atomically, re-indexing them."""
    moved: dict[int, int] = {}
    tmp = path.with_name(path.name + ".tmp")
    with path.open("rb") as src, tmp.open("wb") as dst:
        for old in scan.offsets:
            src.seek(old)
            moved[old] = dst.tell()
            dst.write(src.readline())
    os.replace(tmp, path)
    scan.offsets = [moved[old] for old in scan.offsets]
    scan.index = {key: moved[old] for key, old in scan.index.items()}
    scan.corrupt, scan.partial = [], False
