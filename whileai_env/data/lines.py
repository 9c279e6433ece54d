"""JSONL lines read one at a time, and the sidecar path beside a run's file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def sidecar(path: Path) -> Path:
    """Where the run that writes ``path`` records its configuration."""
    return path.with_name(path.name + ".run.json")


def iter_lines(path: Path) -> Iterator[tuple[int, int, bytes, bool]]:
    """Every line of ``path``: (line number, byte offset, bytes without the newline, complete),
    one at a time; ``complete`` is false only for a last line no newline ends (a write cut short)."""
    with path.open("rb") as fh:
        offset = 0
        for number, raw in enumerate(fh, 1):
            complete = raw.endswith(b"\n")
            yield number, offset, raw.rstrip(b"\n"), complete
            offset += len(raw)


def parse_line(raw: bytes) -> Any:
    """One JSONL line's value; ``ValueError`` (the reason) when it is not JSON."""
    try:
        return json.loads(raw.decode("utf-8", errors="replace"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a JSON row ({exc.msg})") from None
