"""Preference exports: pairs from :func:`~whileai_env.analysis.pairs.build_preference_pairs` as
the rows TRL's ``DPOTrainer`` reads.

``format="trl"`` (the default) is conversational: ``prompt`` is the message list up to the first
agent turn (system prompt and opener, shared by both sides), ``chosen`` and ``rejected`` are the
completions only, with tool-call arguments as objects, plus ``tools``. ``format="openai"`` keeps
the ask as a ``prompt`` string and the whole conversation on each side, arguments as JSON text.
Both sides of every pair pass the privileged-leak gate (:func:`whileai_env.data.rows.export_row`).

>>> side = lambda text, r: {"task_id": "t", "prompt": "hi", "reward": r, "messages": [
...     {"role": "user", "content": "hi"}, {"role": "assistant", "content": text}]}
>>> pair = {"prompt": "hi", "task_id": "t", "margin": 1.0,
...         "chosen": side("Done.", 1.0), "rejected": side("No.", 0.0)}
>>> examples, report = preference_rows([pair])
>>> examples[0]["prompt"], examples[0]["chosen"], report["pairs"]
([{'role': 'user', 'content': 'hi'}], [{'role': 'assistant', 'content': 'Done.'}], 1)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from whileai_env.data.rows import export_row
from whileai_env.export.dataset import FORMATS, tool_schemas
from whileai_env.export.files import write_examples
from whileai_env.export.messages import wire_messages
from whileai_env.spec.load import Spec


def preference_rows(
    pairs: Iterable[Mapping[str, Any]],
    *,
    format: str = "trl",
    tools: Spec | list[Mapping[str, Any]] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The preference examples of ``pairs`` and a report, without writing a file."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {sorted(FORMATS)}, got {format!r}")
    schemas = tool_schemas(tools)
    examples = []
    for pair in pairs:
        chosen, _ = wire_messages(_messages(pair["chosen"]), FORMATS[format])
        rejected, _ = wire_messages(_messages(pair["rejected"]), FORMATS[format])
        example = _shape(pair, chosen, rejected, format)
        example["tools"] = schemas if schemas is not None else []
        example.update(margin=pair.get("margin"), task_id=pair.get("task_id"))
        examples.append(example)
    return examples, {"format": format, "pairs": len(examples)}


def export_preference(
    pairs: Iterable[Mapping[str, Any]],
    path: str | os.PathLike,
    *,
    format: str = "trl",
    tools: Spec | list[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Write ``pairs`` to ``path`` (JSONL; Parquet when it ends with ``.parquet``) and return the
    report with ``path``; the options as :func:`preference_rows`."""
    examples, report = preference_rows(pairs, format=format, tools=tools)
    return {**report, "path": str(write_examples(examples, path))}


def _messages(row: Mapping[str, Any]) -> list[Any]:
    return list(export_row(row).get("messages") or [])


def _shape(
    pair: Mapping[str, Any], chosen: list[dict[str, Any]], rejected: list[dict[str, Any]], fmt: str
) -> dict[str, Any]:
    if fmt == "openai":
        return {"prompt": str(pair.get("prompt") or ""), "chosen": chosen, "rejected": rejected}
    cut = _opening(chosen)
    if chosen[:cut] != rejected[:cut]:
        raise ValueError(f"pair of task {pair.get('task_id')!r}: the two sides open differently")
    return {"prompt": chosen[:cut], "chosen": chosen[cut:], "rejected": rejected[cut:]}


def _opening(messages: list[dict[str, Any]]) -> int:
    """How many messages come before the first agent turn."""
    return next((i for i, m in enumerate(messages) if m["role"] == "assistant"), len(messages))
