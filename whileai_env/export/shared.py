"""``export_shared_rows``: a run's rows made fit to publish beyond the team (``export --share``).

Each row goes through ``export_row(row, share=True)``: no privileged block, and none of the
columns that rebuild the hidden state (``world``, ``fault_plan``, the draw coordinates; see
``docs/rows.md``). A row whose replies quote privileged context is withheld, not shipped, and
counted in the report; a row of another spec is refused (a shared file is one spec's run).
Rows are streamed, one in memory at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from whileai_env.data.jsonl import iter_rows, write_rows
from whileai_env.data.rows import SHARE_DROPPED, export_row
from whileai_env.errors import PrivilegedLeakError, WhileaiError
from whileai_env.spec.load import Spec

#: The file written in the output directory.
SHARED_FILE = "rows.jsonl"


def export_shared_rows(rows: str | Path, output: str | Path, spec: Spec) -> dict[str, Any]:
    """Write ``rows`` (a run's JSONL, played on ``spec``) as shared rows in ``output/rows.jsonl``
    and return the report: rows written, rows withheld for a leak (as ``task_id rN``) and the
    columns dropped. ``output`` must be a new or empty directory; the file appears whole or not
    at all (it is written through a temporary file)."""
    root = Path(output)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise FileExistsError(f"{root} is not an empty directory; export into a new directory")
    withheld: list[str] = []
    written = [0]

    def shared() -> Iterator[dict[str, Any]]:
        for line, row in enumerate(iter_rows(rows), start=1):
            _check_spec(row, spec, f"{rows}:{line}")
            try:
                out = export_row(row, share=True)
            except PrivilegedLeakError:
                withheld.append(f"{row.get('task_id')} r{row.get('rollout_index')}")
                continue
            written[0] += 1
            yield out

    path = write_rows(shared(), root / SHARED_FILE)
    return {
        "path": str(path),
        "rows": written[0],
        "withheld_for_leaks": withheld,
        "dropped_columns": list(SHARE_DROPPED),
    }


def _check_spec(row: dict[str, Any], spec: Spec, where: str) -> None:
    found = row.get("spec_hash")
    if found is not None and found != spec.content_hash:
        raise WhileaiError(
            f"{where}: the row's spec_hash is {found!r}, not this spec's ({spec.content_hash!r}); "
            "give the spec the run was played on"
        )
