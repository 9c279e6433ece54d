"""Rows, schema v1: the four objects a row projects, validation, and the scrubbing export.

A *row* is a rollout serialised. It flattens four objects: the :class:`~whileai_env.Task` (the
situation, reused from :mod:`whileai_env.scenarios.draw`), a :class:`Rollout` (one episode), a
:class:`Judgment` (a scorer's verdict) and :class:`Marker` s (behaviour measurements).
:func:`from_row` splits a row into them (a :class:`RowParts`, which also unpacks as the
4-tuple) and :func:`to_row` flattens them back; the round trip is exact for v1 rows.
The wire contract is the JSON Schema ``whileai_env/data/schemas/row-v1.json``; rows written before
the stamp have no ``schema_version`` and load by shape as version 0.

:func:`export_row` is the only way a row should leave a run: it drops the ``privileged`` block
and its fields at any depth (tool results, tool messages' JSON content and carried fields
included) and raw vectors, and refuses a row whose replies quote privileged context.

>>> import whileai_env as wenv
>>> spec = wenv.load_spec(tools=[{"name": "get_order", "parameters": {"type": "object",
...     "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}])
>>> task = wenv.draw_tasks(spec, 1, seed=3)[0]
>>> row = to_row(task, Rollout(messages=[{"role": "user", "content": task.opener}], steps=[],
...                            final_text="Which order do you mean?"))
>>> validate_row(row)
>>> to_row(*from_row(row)) == row, "privileged" in export_row(row)
(True, False)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from whileai_env._util import bounded_json
from whileai_env._util.frozen import FrozenDict, freeze, thaw
from whileai_env.errors import PrivilegedLeakError, RowError
from whileai_env.grading.conduct import CONDUCT_MARKERS
from whileai_env.grading.leak import find_leaks
from whileai_env.grading.outcome import OUTCOME_MARKERS
from whileai_env.grading.style import STYLE_MARKERS
from whileai_env.grading.trajectory import Trajectory
from whileai_env.scenarios.task import TASK_COLUMNS, Task

SCHEMA_VERSION = "1"
SCHEMA_FILE = "row-v1.json"
#: Keys dropped at any depth by :func:`export_row`.
PRIVILEGED_KEYS = frozenset({"privileged", "hidden_state", "principle", "rubric"})
#: Raw vectors, dropped at any depth.
VECTOR_KEYS = frozenset({"vector", "vectors", "embedding", "embeddings"})
#: Columns a ``share=True`` export drops: the task's world and fault schedule spell out its
#: hidden state (``world`` + ``fault_plan`` rebuild ``hidden_state`` exactly), and the draw
#: coordinates let anyone holding the spec draw the task again.
SHARE_DROPPED = ("world", "fault_plan", "seed", "situation", "phrasing")
_TASK_REQUIRED = ("task_id", "scenario_id", "scenario_dimensions", "seed", "prompt", "world")
_ROLLOUT_OPTIONAL = ("world_state", "seeded", "usage", "logprob")
_JUDGE_KEYS = ("reward", "reason", "judge_name", "judge_status", "judge_meta")
_MARKER_FAMILIES: dict[str, str] = {
    **dict.fromkeys(CONDUCT_MARKERS, "conduct"),
    **dict.fromkeys((*OUTCOME_MARKERS, "outcome_checked", "not_truncated"), "outcome"),
    **dict.fromkeys(STYLE_MARKERS, "style"),
}


@dataclass(frozen=True)
class Marker:
    """A behaviour measurement: ``value`` (1.0 = good), the ``family`` that wrote it, its evidence."""

    name: str
    value: float
    family: str = "judge"
    evidence: Any = None


@dataclass(frozen=True)
class Judgment:
    """A scorer's verdict on a rollout (``reward`` is ``None`` when ungraded or the judge failed)."""

    reward: float | None
    reason: str | None = None
    judge_name: str | None = None
    judge_status: str | None = None
    judge_meta: FrozenDict | None = None

    def __post_init__(self) -> None:
        if self.judge_meta is not None and not isinstance(self.judge_meta, FrozenDict):
            object.__setattr__(self, "judge_meta", freeze(dict(self.judge_meta)))


@dataclass(frozen=True)
class Rollout:
    """One episode of a task: the transcript, the ledger, the final reply and what fired.

    ``extra`` carries every row field no other object owns (``turns``, ``stop_reason``, usage
    per step, calibration …), so nothing is lost on a round trip.
    """

    messages: Sequence[Any]
    steps: Sequence[Any]
    final_text: str
    faults: Sequence[Any] = ()
    rollout_index: int = 0
    truncated: bool = False
    seeded: Sequence[str] | None = None
    world_state: Any = None
    usage: Any = None
    logprob: float | None = None
    extra: FrozenDict = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        for name in ("messages", "steps", "faults", "seeded", "usage", "world_state", "extra"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, freeze(value))


@dataclass(frozen=True)
class RowParts:
    """What :func:`from_row` returns; unpacks as ``task, rollout, judgment, markers``.

    ``task`` is ``None`` for a version 0 row without complete task columns (they stay in
    ``rollout.extra``); ``judgment`` is ``None`` for an ungraded row.
    """

    task: Task | None
    rollout: Rollout
    judgment: Judgment | None
    markers: tuple[Marker, ...]
    version: int = 1

    def __iter__(self) -> Iterator[Any]:
        return iter((self.task, self.rollout, self.judgment, self.markers))


def load_row_schema() -> dict[str, Any]:
    """The row JSON Schema shipped in the package (a fresh copy)."""
    return json.loads(
        (resources.files("whileai_env.data") / "schemas" / SCHEMA_FILE).read_text(encoding="utf-8")
    )


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(load_row_schema())


def _json_path(parts: Sequence[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def row_errors(row: Any) -> list[str]:
    """Every way ``row`` breaks schema v1, as ``"$.path: problem"`` strings (empty when valid).

    >>> row_errors({"schema_version": "1"})[0]
    "$: 'task_id' is a required property"
    """
    from jsonschema.exceptions import best_match

    if not isinstance(row, Mapping):
        return [f"$: a row must be an object, got {type(row).__name__}"]
    if "schema_version" not in row:
        return [
            "$.schema_version: missing; this is a version 0 row (load it with from_row and write it "
            "with to_row to upgrade it)"
        ]
    out = []
    for error in sorted(
        _validator().iter_errors(row), key=lambda e: [str(p) for p in e.absolute_path]
    ):
        if error.context:
            error = best_match(error.context) or error
        out.append(f"{_json_path(list(error.absolute_path))}: {error.message}")
    return out


def validate_row(row: Any) -> None:
    """Raise :class:`RowError` naming the field path if ``row`` breaks schema v1."""
    errors = row_errors(row)
    if errors:
        raise RowError(errors)


def _family(name: str) -> str:
    return _MARKER_FAMILIES.get(name, "judge")


def from_row(row: Mapping[str, Any]) -> RowParts:
    """Split a row into ``(task, rollout, judgment, markers)`` (a :class:`RowParts`).

    A v1 row must carry complete task columns (``RowError`` otherwise); a version 0 row (no
    ``schema_version``) loads by shape, with ``task`` ``None`` when its task columns are incomplete.
    """
    stamp = row.get("schema_version")
    if stamp not in (None, SCHEMA_VERSION):
        raise RowError(
            [f"$.schema_version: unsupported version {stamp!r} (this package reads 1 and 0)"]
        )
    version = 0 if stamp is None else 1
    task = None
    if row.get("shared") is True:
        pass  # a shared export: its task columns were dropped on purpose
    elif all(k in row for k in _TASK_REQUIRED):
        try:
            task = Task.from_dict(row)
        except (ValueError, KeyError, TypeError) as exc:
            if version:
                raise RowError([f"$: task columns do not load: {exc}"]) from None
    elif version:
        missing = [k for k in _TASK_REQUIRED if k not in row]
        raise RowError([f"$: {k!r} is a required property" for k in missing])
    owned = {
        "schema_version",
        "messages",
        "steps",
        "final_text",
        "faults",
        "rollout_index",
        "truncated",
        "markers",
        "marker_meta",
        *_JUDGE_KEYS,
    }
    if task is not None:
        owned.update(TASK_COLUMNS)
    judged = any(row.get(k) is not None for k in _JUDGE_KEYS)
    raw_markers = row.get("markers")
    extra = {
        k: v
        for k, v in row.items()
        if k not in owned and not (k in _ROLLOUT_OPTIONAL and v is not None)
    }
    if not judged:
        extra.update((k, row[k]) for k in _JUDGE_KEYS if k in row)
        if "markers" in row and not raw_markers:
            extra["markers"] = raw_markers
    if task is not None and isinstance(row.get("privileged"), Mapping):
        canonical = task.privileged.to_dict()
        kept = {k: v for k, v in row["privileged"].items() if k not in canonical}
        if kept:
            extra["privileged"] = kept
    rollout = Rollout(
        messages=row.get("messages") or [],
        steps=row.get("steps") or [],
        final_text=row.get("final_text") or "",
        faults=row.get("faults") or [],
        rollout_index=int(row.get("rollout_index") or 0),
        truncated=bool(row.get("truncated", False)),
        **{k: row[k] for k in _ROLLOUT_OPTIONAL if row.get(k) is not None},
        extra=freeze(extra),
    )
    judgment = Judgment(**{k: row.get(k) for k in _JUDGE_KEYS}) if judged else None
    found = row.get("marker_meta")
    meta: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    markers = tuple(
        Marker(
            name,
            value,
            (meta.get(name) or {}).get("family", _family(name)),
            (meta.get(name) or {}).get("evidence"),
        )
        for name, value in (raw_markers if isinstance(raw_markers, Mapping) else {}).items()
    )
    return RowParts(task, rollout, judgment, markers, version)


def to_row(
    task: Task | RowParts | None,
    rollout: Rollout | None = None,
    judgment: Judgment | None = None,
    markers: Sequence[Marker] = (),
) -> dict[str, Any]:
    """Flatten the four objects (or one :class:`RowParts`) into a row; ``from_row`` inverts it.

    The row is stamped ``schema_version: "1"`` when there is a task. An ungraded rollout
    (``judgment`` ``None``) has no judge columns, and no ``markers`` unless some were measured.
    """
    if isinstance(task, RowParts):
        parts = task
        task, rollout, judgment, markers = parts.task, parts.rollout, parts.judgment, parts.markers
    if rollout is None:
        raise TypeError("to_row needs a Rollout")
    extra = thaw(rollout.extra)
    kept = extra.pop("privileged", None)
    fields: dict[str, Any] = {
        "rollout_index": rollout.rollout_index,
        "messages": thaw(rollout.messages),
        "steps": thaw(rollout.steps),
        "final_text": rollout.final_text,
        "faults": thaw(rollout.faults),
        "truncated": rollout.truncated,
    }
    fields.update(
        (name, thaw(getattr(rollout, name)))
        for name in _ROLLOUT_OPTIONAL
        if getattr(rollout, name) is not None
    )
    fields.update(extra)
    graded = None
    if judgment is not None:
        graded = {k: getattr(judgment, k) for k in _JUDGE_KEYS}
        graded["judge_meta"] = (
            thaw(judgment.judge_meta) if judgment.judge_meta is not None else None
        )
    scores = {m.name: m.value for m in markers} if markers or judgment is not None else None
    return assemble_row(
        task,
        fields,
        graded=graded,
        markers=scores,
        marker_meta=_marker_meta(markers),
        privileged=kept if isinstance(kept, dict) else None,
    )


def assemble_row(
    task: Task | None,
    fields: Mapping[str, Any],
    *,
    graded: Mapping[str, Any] | None = None,
    markers: Mapping[str, float] | None = None,
    marker_meta: Mapping[str, Any] | None = None,
    privileged: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The one row serializer: a task's columns, a rollout's ``fields``, then a judge's columns.

    :func:`to_row` and :meth:`whileai_env.Episode.row` both come here. ``graded`` holds the judge
    columns (``reward``, ``reason``, ``judge_name``, ``judge_status``, ``judge_meta``); ``privileged``
    adds to the task's privileged block (a spec's rubric, say), which is left out when it is empty.
    """
    row: dict[str, Any] = {}
    block = None
    if task is not None:
        row["schema_version"] = SCHEMA_VERSION
        columns = task.to_dict()
        block = columns.pop("privileged")
        row.update(columns)
        if privileged:
            block = {**block, **privileged}
        elif not (block.get("hidden_state") or block.get("reference") or block.get("principle")):
            block = None
    row.update(fields)
    if graded is not None:
        row.update(reward=graded.get("reward"), reason=graded.get("reason"))
    if markers is not None:
        row["markers"] = dict(markers)
    if marker_meta:
        row["marker_meta"] = dict(marker_meta)
    if graded is not None:
        row.update((k, graded.get(k)) for k in ("judge_name", "judge_status", "judge_meta"))
    if block is not None:
        row["privileged"] = block
    return row


def _marker_meta(markers: Sequence[Marker]) -> dict[str, Any]:
    meta = {}
    for m in markers:
        entry: dict[str, Any] = {}
        if m.family != _family(m.name):
            entry["family"] = m.family
        if m.evidence is not None:
            entry["evidence"] = thaw(m.evidence)
        if entry:
            meta[m.name] = entry
    return meta


_DROPPED = PRIVILEGED_KEYS | VECTOR_KEYS
# beside another privileged field, ``reference`` is one too
_DROPPED_WITH_REFERENCE = _DROPPED | {"reference"}


def _drops(mapping: Mapping[str, Any]) -> frozenset[str]:
    if any(k in mapping for k in ("hidden_state", "principle", "rubric")):
        return _DROPPED_WITH_REFERENCE
    return _DROPPED


_BOM = "\ufeff"
_LEAVES = frozenset({int, float, bool, type(None)})
#: What stands in for a JSON-looking text that names a privileged field but cannot be read.
WITHHELD = "[withheld: unreadable JSON naming a privileged field]"


def _names_privileged(text: str) -> bool:
    """Whether ``text`` could spell a dropped key: plainly, or escaped (``hidden\\u005fstate``)."""
    return "\\" in text or any(k in text for k in _DROPPED)


def _scrub_text(text: str) -> str:
    """``text`` with privileged fields dropped when it holds JSON, decoded first: escapes, a
    byte-order mark, JSON strings holding JSON (scrubbed at any depth by :func:`_scrub`).

    A JSON-looking text that names a privileged field but cannot be read (cut short, nested past
    the reader's limit) is replaced by :data:`WITHHELD`: it cannot be proved clean.
    """
    body = text.lstrip().lstrip(_BOM).lstrip()
    if not body.startswith(("{", "[", '"')) or not _names_privileged(body):
        return text
    try:
        parsed = bounded_json.loads(body)
    except ValueError:
        return WITHHELD if _spells_privileged(body) else text
    cleaned = _scrub(parsed)
    return text if cleaned == parsed else json.dumps(cleaned, ensure_ascii=False, default=str)


def _spells_privileged(body: str) -> bool:
    """Whether unreadable JSON text names a dropped key, once its ``\\uXXXX`` escapes are read."""
    decoded = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), body)
    return any(k in decoded for k in _DROPPED)


def _scrub(value: Any) -> Any:
    kind = type(value)  # the plain JSON types first: a row is thousands of them
    if kind is str:
        return _scrub_text(value)
    if kind in _LEAVES:
        return value
    if isinstance(value, Mapping):
        drop = _drops(value)
        return {k: _scrub(v) for k, v in value.items() if k not in drop}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    if isinstance(value, str):
        return _scrub_text(value)
    return value


def export_row(
    row: Mapping[str, Any], *, refuse_leaks: bool = True, share: bool = False
) -> dict[str, Any]:
    """A copy of ``row`` safe to ship: no privileged block or field, no raw vector, at any depth.

    Dropped wherever they appear: ``privileged``, ``hidden_state``, ``principle``, ``rubric``,
    ``vector``/``embedding`` (and plurals), and ``reference`` at the top level or beside another
    privileged field. Strings that hold JSON (tool messages, tool-call arguments) are parsed and
    scrubbed too, and a tool message whose step result changed is rebuilt from the scrubbed step.
    The input is never changed. With ``refuse_leaks`` a row whose replies quote privileged
    context raises :class:`PrivilegedLeakError` instead.

    ``share=True`` is for publishing rows beyond the team: it also drops :data:`SHARE_DROPPED`
    (``world``, ``fault_plan`` and the draw coordinates, which rebuild the hidden state) and stamps
    ``shared: true``. A shared row still validates, but cannot be re-run (``tasks=``,
    ``Episode.from_row``) or graded again by ``task_checklist``: keep the plain export for that.

    >>> export_row({"final_text": "ok", "privileged": {"reference": "r"},
    ...             "steps": [{"result": {"status": "ok", "hidden_state": {"a": 1}, "vector": [0.1]}}]})
    {'final_text': 'ok', 'steps': [{'result': {'status': 'ok'}}]}
    """
    if refuse_leaks:
        leaks = find_leaks(Trajectory(row))
        if leaks:
            leak = leaks[0]
            raise PrivilegedLeakError(
                f"row {row.get('scenario_id')} r{row.get('rollout_index')}: a reply quotes {leak['field']} "
                f"({leak['quote']!r}); export refused (pass refuse_leaks=False to export anyway)"
            )
    out = _scrub(row)
    out.pop("reference", None)
    if share:
        for column in SHARE_DROPPED:
            out.pop(column, None)
        out["shared"] = True
    rebuilt = {}
    for old, new in zip(row.get("steps") or (), out.get("steps") or (), strict=False):
        if (
            isinstance(new, dict)
            and isinstance(new.get("call_id"), str)
            and old.get("result") != new.get("result")
        ):
            rebuilt[new["call_id"]] = json.dumps(new.get("result"), ensure_ascii=False, default=str)
    for message in out.get("messages") or ():
        if (
            isinstance(message, dict)
            and message.get("role") == "tool"
            and message.get("tool_call_id") in rebuilt
        ):
            message["content"] = rebuilt[message["tool_call_id"]]
    return out
