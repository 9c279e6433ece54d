"""Training exports: rows as SFT examples a trainer loads, each message with its ``loss_mask``.

Every row passes the privileged-leak gate first (:func:`whileai_env.data.rows.export_row`): the
``privileged`` block and its fields are dropped at any depth, and a row whose replies quote
privileged context stops the export with :class:`~whileai_env.errors.PrivilegedLeakError`.

Two wire shapes. ``format="openai"`` is the chat-completions row: ``messages`` with
``function.arguments`` as JSON text, the ask beside it as ``prompt``. ``format="trl"`` is what
``trl.data_utils.maybe_apply_chat_template`` reads: conversational ``messages`` with arguments
as objects and **no** ``prompt`` column (TRL reads a ``prompt`` string as "not conversational"
and would skip the template); the ask rides as ``prompt_text``. Both carry ``tools`` (OpenAI
tool schemas) and ``loss_mask``. ``unroll=True`` gives one example per agent turn, the k-th
ending at that turn with loss on it only; ``max_tool_output_chars`` caps each tool message.

>>> row = {"task_id": "t", "rollout_index": 0, "prompt": "hi", "reward": 1.0, "messages": [
...     {"role": "user", "content": "hi"}, {"role": "assistant", "content": "", "tool_calls": [
...         {"id": "c0", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
...     {"role": "tool", "tool_call_id": "c0", "content": "x" * 50},
...     {"role": "assistant", "content": "done"}]}
>>> examples, report = training_rows([row], format="trl", validate=False, max_tool_output_chars=10)
>>> examples[0]["loss_mask"], "prompt" in examples[0], report["truncated_tool_messages"]
([0, 1, 0, 1], False, 1)
>>> len(training_rows([row], unroll=True, validate=False)[0])
2
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env.data.rows import export_row, row_errors
from whileai_env.errors import MissingExtraError, RowError
from whileai_env.export.files import write_examples
from whileai_env.export.messages import (
    MASK_MODES,
    loss_mask,
    truncate_tool_output,
    wire_messages,
)
from whileai_env.spec.load import Spec, load_spec

FORMATS = {"openai": "json_string", "trl": "dict"}
#: Row columns carried onto each example, so a sample can be traced to its task and grade.
CARRIED = ("task_id", "scenario_id", "rollout_index", "reward", "spec_hash")
_NESTED = ("messages", "tools")


def training_rows(
    rows: Iterable[Mapping[str, Any]],
    *,
    format: str = "openai",
    mask_mode: str = "assistant",
    unroll: bool = False,
    max_tool_output_chars: int | None = None,
    tools: Spec | Sequence[Mapping[str, Any]] | None = None,
    validate: bool = True,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The training examples of ``rows`` and the export report, without writing a file.

    ``tools`` (a spec or tool dicts) supplies the schemas when rows name their tools only.
    ``validate`` checks each row against schema v1 first (:class:`RowError` naming the row).
    """
    _check_options(format, mask_mode, max_tool_output_chars)
    schemas = tool_schemas(tools)
    examples: list[dict[str, Any]] = []
    report = _empty_report(format, mask_mode, unroll)
    for number, row in enumerate(rows, start=1):
        if validate and (errors := row_errors(row)):
            raise RowError([f"row {number}: {e}" for e in errors])
        safe = export_row(row)
        messages, cut = _capped(safe.get("messages") or [], max_tool_output_chars, report)
        wired, invalid = wire_messages(messages, FORMATS[format])
        report["tool_call_roundtrip"]["invalid"] += invalid
        report["tool_call_roundtrip"]["checked"] += sum(len(m.get("tool_calls", ())) for m in wired)
        base = _base(safe, format, schemas, cut)
        for sample, mask in _samples(wired, mask_mode, unroll):
            report["trained_messages"] += sum(mask)
            report["masked_messages"] += len(mask) - sum(mask)
            examples.append({**base, "messages": sample, "loss_mask": mask})
        report["rows"] += 1
    report["examples"] = len(examples)
    if any(not e["tools"] for e in examples) and report["tool_call_roundtrip"]["checked"]:
        report["warnings"].append(
            "the rows name their tools without schemas: pass tools= (the spec) so the tools "
            "column holds them and a chat template can render them"
        )
    return examples, report


def export_dataset(
    rows: Iterable[Mapping[str, Any]],
    path: str | os.PathLike,
    *,
    format: str = "openai",
    mask_mode: str = "assistant",
    unroll: bool = False,
    max_tool_output_chars: int | None = None,
    tools: Spec | Sequence[Mapping[str, Any]] | None = None,
    validate: bool = True,
) -> dict[str, Any]:
    """Write ``rows`` as training examples to ``path`` (JSONL; Parquet when it ends with
    ``.parquet``) and return the report with ``path``; the options as :func:`training_rows`."""
    examples, report = training_rows(
        rows,
        format=format,
        mask_mode=mask_mode,
        unroll=unroll,
        max_tool_output_chars=max_tool_output_chars,
        tools=tools,
        validate=validate,
    )
    return {**report, "path": str(write_examples(examples, path))}


#: The older spelling, the same function object (see the seeds' export paragraphs).
export_training = export_dataset


def to_hf_dataset(rows: Iterable[Mapping[str, Any]], **options: Any) -> Any:
    """The training examples of ``rows`` as a ``datasets.Dataset`` (the ``train`` extra).

    Message and tool columns use ``datasets.Json`` so each tool call keeps its own argument keys
    (Arrow would unify them into one struct); the other columns' types are inferred.
    """
    try:
        import datasets
    except ImportError:
        raise MissingExtraError("datasets", "train") from None
    examples, _ = training_rows(rows, **options)
    if not examples:
        return datasets.Dataset.from_list([])
    plain = datasets.Dataset.from_list(
        [{k: v for k, v in e.items() if k not in _NESTED} for e in examples]
    )
    json_columns = {k: datasets.Json() for k in _NESTED if k in examples[0]}
    features = datasets.Features({**plain.features, **json_columns})
    return datasets.Dataset.from_list(examples, features=features)


def _check_options(format: str, mask_mode: str, max_tool_output_chars: int | None) -> None:
    if format not in FORMATS:
        raise ValueError(f"format must be one of {sorted(FORMATS)}, got {format!r}")
    if mask_mode not in MASK_MODES:
        raise ValueError(f"mask_mode must be one of {MASK_MODES}, got {mask_mode!r}")
    if max_tool_output_chars is not None and max_tool_output_chars < 0:
        raise ValueError(f"max_tool_output_chars must be >= 0, got {max_tool_output_chars}")


def tool_schemas(
    tools: Spec | Sequence[Mapping[str, Any]] | None,
) -> list[dict[str, Any]] | None:
    """OpenAI tool schemas from a spec or tool dicts (either tool shape); ``None`` for none."""
    if tools is None:
        return None
    spec = tools if isinstance(tools, Spec) else load_spec(tools=[dict(t) for t in tools])
    return spec.openai_tools()


def _empty_report(format: str, mask_mode: str, unroll: bool) -> dict[str, Any]:
    return {
        "format": format,
        "mask_mode": mask_mode,
        "unroll": unroll,
        "rows": 0,
        "examples": 0,
        "trained_messages": 0,
        "masked_messages": 0,
        "truncated_tool_messages": 0,
        "truncated_tool_chars": 0,
        "tool_call_roundtrip": {"encoding": FORMATS[format], "checked": 0, "invalid": 0},
        "warnings": [],
    }


def _capped(
    messages: Sequence[Mapping[str, Any]], limit: int | None, report: dict[str, Any]
) -> tuple[list[dict[str, Any]], int]:
    """Messages with each tool output capped at ``limit``; the row's cut characters."""
    out, total = [], 0
    for message in messages:
        message = dict(message)
        if message.get("role") == "tool":
            message["content"], cut = truncate_tool_output(str(message.get("content") or ""), limit)
            report["truncated_tool_messages"] += bool(cut)
            total += cut
        out.append(message)
    report["truncated_tool_chars"] += total
    return out, total


def _base(
    row: Mapping[str, Any], format: str, schemas: list[dict[str, Any]] | None, cut: int
) -> dict[str, Any]:
    """The columns every example of ``row`` shares."""
    declared = [t for t in row.get("tools") or () if isinstance(t, Mapping)]
    base: dict[str, Any] = {k: row[k] for k in CARRIED if k in row}
    if schemas is None:
        schemas = tool_schemas(declared) if declared else []
    base["tools"] = schemas
    base["prompt_text" if format == "trl" else "prompt"] = str(row.get("prompt") or "")
    base["truncated_tool_chars"] = cut
    return base


def _samples(
    messages: list[dict[str, Any]], mask_mode: str, unroll: bool
) -> Iterable[tuple[list[dict[str, Any]], list[int]]]:
    """The whole conversation with its mask, or one prefix per agent turn (loss on that turn)."""
    mask = loss_mask(messages, mask_mode)
    if not unroll:
        yield messages, mask
        return
    for end, message in enumerate(messages):
        if message.get("role") == "assistant":
            yield messages[: end + 1], [int(i == end) for i in range(end + 1)]
