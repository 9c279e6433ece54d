"""Training examples to a file: JSONL, or Parquet when the path ends with ``.parquet``.

JSONL goes through the package's one writer (:func:`whileai_env.data.jsonl.write_rows`: a
temporary file, then a rename). Parquet uses pyarrow (the columnar format's reference
implementation, which ``datasets`` itself reads); its nested columns (messages, tools, prompt,
chosen, rejected) are stored as JSON text, because Arrow would otherwise unify every tool call's
arguments into one struct and add ``null`` keys a chat template would then render.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from whileai_env.data.jsonl import write_rows
from whileai_env.errors import MissingExtraError


def write_examples(examples: Sequence[Mapping[str, Any]], path: str | os.PathLike) -> Path:
    """Write ``examples`` to ``path`` (Parquet when it ends with ``.parquet``, else JSONL)."""
    path = Path(path)
    if path.suffix.lower() != ".parquet":
        return write_rows(examples, path)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtraError("pyarrow", "train") from None
    table = pa.Table.from_pylist([_flat(e) for e in examples])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return path


def _flat(example: Mapping[str, Any]) -> dict[str, Any]:
    """Nested lists of objects and mappings as JSON text; scalars and number lists as they are."""
    return {k: _cell(v) for k, v in example.items()}


def _cell(value: Any) -> Any:
    nested = isinstance(value, Mapping) or (
        isinstance(value, list) and any(isinstance(v, Mapping | list) for v in value)
    )
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str) if nested else value
