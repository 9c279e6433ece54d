"""Hand labels joined onto rows: ``gold_reward`` for :func:`~whileai_env.analysis.judge_trust.judge_agreement`.

A labels file is JSONL (one object a line) or CSV (a header row), one record per labelled row:
its id and its label, optionally who gave it. The id is ``row_id`` (or ``id``), or the pair
``task_id`` + ``rollout_index``, which is what :func:`row_id` reads off a row. The label is
``gold_reward`` (or ``label``): a number (passing at 0.5), ``pass``/``fail``, ``yes``/``no``,
``true``/``false``. ``annotator=`` keeps only that annotator's records when the file says who
gave each, and names the annotator of a file that does not. Two different labels for one row are
a conflict: the row is left unlabelled and the report lists it, rather than one label winning.

>>> row_id({"task_id": "t-1", "rollout_index": 2})
't-1:2'
>>> parse_label("pass"), parse_label("0"), parse_label(0.7)
(1.0, 0.0, 0.7)
"""

from __future__ import annotations

import copy
import csv
import json
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from whileai_env.analysis.judge_trust import MIN_LABELS
from whileai_env.errors import LabelsError

LABEL_FIELDS = ("gold_reward", "label")
_WORDS = {
    "pass": 1.0,
    "fail": 0.0,
    "yes": 1.0,
    "no": 0.0,
    "true": 1.0,
    "false": 0.0,
    "good": 1.0,
    "bad": 0.0,
}


def row_id(row: Mapping[str, Any]) -> str | None:
    """A row's id for joining labels: ``row_id`` or ``id``, else ``task_id:rollout_index``."""
    for key in ("row_id", "id"):
        if row.get(key) not in (None, ""):
            return str(row[key])
    if row.get("task_id") not in (None, "") and row.get("rollout_index") not in (None, ""):
        return f"{row['task_id']}:{row['rollout_index']}"
    return None


def parse_label(value: Any) -> float | None:
    """A label as a reward in [0, 1], or ``None`` when it is not one."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str) and value.strip().lower() in _WORDS:
        return _WORDS[value.strip().lower()]
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            return None
    return number if math.isfinite(number) and 0.0 <= number <= 1.0 else None


def read_labels(path: str | os.PathLike[str]) -> list[tuple[int, dict[str, Any]]]:
    """The file's records with their line numbers (CSV by its ``.csv``/``.tsv`` suffix, else JSONL)."""
    path = Path(path)
    if path.suffix.lower() in (".csv", ".tsv"):
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(
                handle, delimiter="\t" if path.suffix.lower() == ".tsv" else ","
            )
            return [(i, dict(record)) for i, record in enumerate(reader, 2)]
    records = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LabelsError(f"{path}:{i}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict):
            raise LabelsError(f"{path}:{i}: a label record must be a JSON object")
        records.append((i, record))
    return records


def _labels(
    path: str | os.PathLike[str], annotator: str | None
) -> tuple[dict[str, dict[str, float]], int]:
    """row id -> {annotator: label}, and how many records the annotator filter left out."""
    found: dict[str, dict[str, float]] = {}
    skipped = 0
    for line, record in read_labels(path):
        who = str(record.get("annotator") or annotator or Path(path).name)
        if annotator is not None and who != annotator:
            skipped += 1
            continue
        rid = row_id(record)
        raw = next((record[f] for f in LABEL_FIELDS if record.get(f) not in (None, "")), None)
        label = parse_label(raw)
        if rid is None or label is None:
            problem = (
                "no row_id/id (or task_id and rollout_index)"
                if rid is None
                else f"label {raw!r} is not a pass or fail"
            )
            raise LabelsError(f"{path}:{line}: {problem}")
        found.setdefault(rid, {})[who] = label
    return found, skipped


def attach_labels(
    rows: Iterable[Mapping[str, Any]],
    path: str | os.PathLike[str],
    *,
    annotator: str | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Copies of ``rows`` with ``gold_reward`` and ``label_source`` (the annotator) from the
    labels at ``path``, and a report: ``attached``, ``unlabelled`` (rows), ``unmatched`` (label
    ids matching no row, with the first few in ``unmatched_ids``), ``conflicts`` (row ids whose
    labels disagree), ``filtered`` (other annotators' records), ``annotators``, ``pass_share``
    and ``notes``."""
    labels, filtered = _labels(path, annotator)
    out = [copy.deepcopy(dict(row)) for row in rows]
    seen: set[str] = set()
    conflicts: list[str] = []
    attached: list[float] = []
    for row in out:
        rid = row_id(row)
        given = labels.get(rid or "")
        if rid is None or given is None:
            continue
        seen.add(rid)
        if len(set(given.values())) > 1:
            conflicts.append(rid)
            continue
        row["gold_reward"] = next(iter(given.values()))
        row["label_source"] = ",".join(sorted(given))
        attached.append(row["gold_reward"])
    unmatched = sorted(set(labels) - seen)
    return out, _report(out, attached, unmatched, sorted(set(conflicts)), filtered, labels)


def _report(
    rows: list[dict[str, Any]],
    attached: list[float],
    unmatched: list[str],
    conflicts: list[str],
    filtered: int,
    labels: Mapping[str, Mapping[str, float]],
) -> dict[str, Any]:
    passes = sum(label >= 0.5 for label in attached)
    notes = []
    if len(attached) < MIN_LABELS:
        notes.append(
            f"{len(attached)} labelled rows: {MIN_LABELS} is the floor for a reliable read"
        )
    if attached and passes in (0, len(attached)):
        notes.append("the labels hold one class only: agreement cannot be measured on both sides")
    return {
        "attached": len(attached),
        "unlabelled": len(rows) - len(attached),
        "unmatched": len(unmatched),
        "unmatched_ids": unmatched[:10],
        "conflicts": conflicts,
        "filtered": filtered,
        "annotators": sorted({who for given in labels.values() for who in given}),
        "pass_share": passes / len(attached) if attached else None,
        "notes": notes,
    }
