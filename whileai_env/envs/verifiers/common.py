"""What both verifiers faces share, with no verifiers import: the tasks, the dataset rows, the
tool definitions and the per-rollout numbers, all read off the one :class:`Episode`.

A dataset row is the verifiers shape: ``prompt`` (the episode's own opening messages: system
prompt and the user's opener), ``info`` (the task as JSON, privileged block included: read by
the environment, never shown to the policy), ``task_id`` and an empty ``answer``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from typing import Any

from whileai_env.episode.engine import Episode
from whileai_env.errors import MissingExtraError
from whileai_env.scenarios.draw import draw_tasks, tasks_from_rows
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec


def verifiers_generation() -> str:
    """``"classic"`` (verifiers 0.3.x) or ``"v1"`` (0.4.x), from the installed distribution.

    Raises :class:`MissingExtraError` naming the extra when verifiers is not installed (and, in
    a note, the v1 extra).
    """
    try:
        version = metadata.version("verifiers")
    except metadata.PackageNotFoundError:
        missing = MissingExtraError("verifiers", "verifiers")
        missing.add_note("for verifiers 0.4 (v1): pip install 'whileai-env[verifiers-v1]'")
        raise missing from None
    major, minor = (int(p) for p in [*version.split("."), "0"][:2])
    if (major, minor) < (0, 3):
        raise MissingExtraError(f"verifiers>=0.3.1 (found {version})", "verifiers")
    return "classic" if (major, minor) < (0, 4) else "v1"


def select_tasks(
    spec: Spec,
    tasks: Iterable[Task | Mapping[str, Any]] | None,
    *,
    n: int,
    seed: int,
    mode: str,
    split: str | None,
    holdout: float,
) -> list[Task]:
    """The tasks to serve: ``tasks`` (tasks, rows or an exported package's rows) as given, or
    ``n`` situations drawn with ``mode`` and ``seed``, split by scenario when ``split`` is set."""
    from whileai_env.export.split import split_by_scenario

    if tasks is not None:
        chosen = tasks_from_rows(tasks, spec)
        return (
            chosen if split is None else split_by_scenario(chosen, holdout, seed=seed).side(split)
        )
    drawn = draw_tasks(spec, n, mode=mode, seed=seed)
    return split_by_scenario(drawn, holdout, seed=seed).side(split)


def dataset_row(spec: Spec, task: Task, **episode_kwargs: Any) -> dict[str, Any]:
    """One task as a verifiers dataset row (the prompt is the episode's own opening)."""
    prompt = Episode(spec, task, **episode_kwargs).reset()
    return {
        "prompt": prompt,
        "info": json.dumps(task.to_dict(), ensure_ascii=False, default=str),
        "task_id": task.task_id,
        "answer": "",
    }


def tool_defs(spec: Spec) -> list[dict[str, Any]]:
    """The spec's tools in the flat ``{"name", "description", "parameters"}`` shape, schemas verbatim
    (a schema derived from a Python signature would lose nested objects, formats and defaults)."""
    return [
        {k: t["function"][k] for k in ("name", "description", "parameters")}
        for t in spec.openai_tools()
    ]


def graded(episode: Episode) -> dict[str, Any]:
    """The episode's grade; a rollout the trainer cut before it ended scores 0, marked truncated."""
    grade = episode.reward()
    if not episode.done:
        grade["reward"] = 0.0
        grade["markers"] = {**grade.get("markers", {}), "not_truncated": 0.0}
    return grade


def rollout_metrics(episode: Episode, tools: Sequence[str]) -> dict[str, float]:
    """The zero-weight numbers logged beside the reward: over-optimisation symptoms to watch
    (``n_calls``, ``truncated``, ``judge_ok`` and calls per tool), never the objective."""
    ledger = episode.world.ledger
    out = {
        "n_calls": float(len(ledger)),
        "truncated": float(episode.truncated or not episode.done),
        "judge_ok": float(graded(episode).get("judge_status") == "ok"),
    }
    out.update(
        {f"calls_{name}": float(sum(step["tool"] == name for step in ledger)) for name in tools}
    )
    return out


def assistant_dict(message: Any) -> dict[str, Any]:
    """A verifiers assistant message (either generation's: ``tool_calls`` with ``id``, ``name`` and
    ``arguments``) as the OpenAI dict the episode reads, call ids kept."""
    calls = [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in getattr(message, "tool_calls", None) or []
    ]
    out: dict[str, Any] = {"role": "assistant", "content": _text(getattr(message, "content", None))}
    if calls:
        out["tool_calls"] = calls
    return out


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(
            str(p.get("text", "") if isinstance(p, dict) else getattr(p, "text", ""))
            for p in content
        )
    return content or ""
