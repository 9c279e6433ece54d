"""Datasets TRL reads: tasks for GRPO, transcripts for SFT, preference pairs for DPO.

Every transcript is put in the *tool face* the GRPO environment shows the model (see
:mod:`trainers.environment`): tool names as the environment's methods, and the person's
answers to a question as ``ask_user`` calls and their results, since inside TRL there is no
user turn. So SFT, DPO and GRPO train on the same conversation shape, and the ``tools`` column
carries the schemas TRL itself rebuilds from the environment's methods.

Messages are stored with ``datasets.Json`` so tool-call arguments keep their own keys (Arrow
would otherwise unify every call's arguments into one struct, adding ``null`` keys).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from trainers.environment import WhileaiEnvironment, environment_factory
from whileai_env.episode.engine import Episode
from whileai_env.spec.load import Spec, load_spec

DEFAULT_HOLDOUT = 0.2


def draw_split(
    spec: Spec | Any,
    n: int,
    *,
    mode: str = "rl",
    split: str | None = "train",
    seed: int = 0,
    holdout: float = DEFAULT_HOLDOUT,
    **draw: Any,
) -> list[Any]:
    """``n`` situations drawn from the spec's grid, then one side of the by-scenario split (the
    package's one split, :func:`whileai_env.export.split.split_by_scenario`)."""
    from whileai_env.export.split import split_by_scenario
    from whileai_env.scenarios.draw import draw_tasks

    tasks = draw_tasks(spec, n, mode=mode, seed=seed, **draw)
    return split_by_scenario(tasks, holdout, seed=seed).side(split)


def task_row(spec: Spec, task: Any) -> dict[str, Any]:
    """One task as a GRPO row: the episode's opening as ``prompt``, the public task in ``info``.

    ``info`` holds no privileged block: :meth:`WhileaiEnvironment.reset` rebuilds it from the
    seed, so a training file never carries the answer key.
    """
    prompt = Episode(spec, task, grade=False).messages
    return {
        "prompt": prompt,
        "info": json.dumps(task.public_dict(), ensure_ascii=False, default=str),
        "task_id": task.task_id,
    }


def task_dataset(
    spec: Spec | Any,
    n: int = 64,
    *,
    mode: str = "rl",
    split: str | None = "train",
    seed: int = 0,
    holdout: float = DEFAULT_HOLDOUT,
    **draw: Any,
) -> Any:
    """A ``datasets.Dataset`` of tasks for ``GRPOTrainer(environment_factory=...)``.

    Columns: ``prompt`` (system prompt and opener), ``info`` (the task, JSON) and ``task_id``.
    ``split`` is ``"train"``, ``"holdout"`` or ``None`` (both); ``draw`` goes to ``draw_tasks``.
    """
    import datasets

    the_spec = load_spec(spec)
    rows = [
        task_row(the_spec, t)
        for t in draw_split(the_spec, n, mode=mode, split=split, seed=seed, holdout=holdout, **draw)
    ]
    features = datasets.Features(
        {
            "prompt": datasets.List(_message_feature()),
            "info": datasets.Value("string"),
            "task_id": datasets.Value("string"),
        }
    )
    return datasets.Dataset.from_list(rows, features=features)


def tool_schemas(environment: type[WhileaiEnvironment]) -> list[dict[str, Any]]:
    """The tool schemas TRL renders for ``environment``: its methods read back by transformers."""
    import inspect

    from transformers.utils import get_json_schema

    instance = environment()
    return [
        get_json_schema(getattr(instance, name))
        for name, _ in inspect.getmembers(environment, inspect.isfunction)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    ]


def tool_face(
    messages: Sequence[Mapping[str, Any]], environment: type[WhileaiEnvironment]
) -> list[dict[str, Any]]:
    """A ``simulate`` transcript as the GRPO environment would have recorded it.

    An assistant text followed by a user turn becomes an ``ask_user`` call answered by that turn;
    tool calls use the environment's method and argument names; arguments are objects. The
    opening messages (system prompt, opener) are kept as they are.
    """
    to_method = {tool: method for method, tool in environment._tool_names.items()}
    out: list[dict[str, Any]] = []
    opening = True
    for i, message in enumerate(messages):
        role = message.get("role")
        if opening and role in ("system", "user"):
            out.append({"role": role, "content": str(message.get("content") or "")})
            continue
        opening = False
        if role == "assistant":
            out.extend(_assistant_face(message, messages[i + 1 :], to_method))
        elif role == "tool":
            out.append(
                {
                    "role": "tool",
                    "name": to_method.get(str(message.get("name")), message.get("name")),
                    "content": str(message.get("content") or ""),
                }
            )
        elif role == "user":
            out.append(
                {"role": "tool", "name": "ask_user", "content": str(message.get("content") or "")}
            )
    return out


def _assistant_face(
    message: Mapping[str, Any], rest: Sequence[Mapping[str, Any]], to_method: Mapping[str, str]
) -> list[dict[str, Any]]:
    content = str(message.get("content") or "")
    calls = [_call_face(c, to_method) for c in message.get("tool_calls") or ()]
    if not calls and rest and rest[0].get("role") == "user":
        return [
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "type": "function",
                        "function": {"name": "ask_user", "arguments": {"question": content}},
                    }
                ],
            }
        ]
    if calls:
        return [{"role": "assistant", "content": content, "tool_calls": calls}]
    return [{"role": "assistant", "content": content}]


def _call_face(call: Mapping[str, Any], to_method: Mapping[str, str]) -> dict[str, Any]:
    function = call.get("function") if isinstance(call.get("function"), Mapping) else call
    name = str(function.get("name") or "")
    arguments = function.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            arguments = {"_raw": arguments}
    return {
        "type": "function",
        "function": {"name": to_method.get(name, name), "arguments": arguments or {}},
    }


def sft_dataset(
    rows: Iterable[Mapping[str, Any]], spec: Spec | Any, *, min_reward: float | None = 1.0
) -> Any:
    """SFT rows from graded rows whose reward is at least ``min_reward`` (``None`` keeps all):
    conversational ``prompt`` (the opening) and ``completion`` (the agent's play, tool face), so
    TRL's completion-only loss skips the system prompt and tool schemas, plus ``tools``."""
    import datasets

    environment = environment_factory(spec)
    tools = json.dumps(tool_schemas(environment))
    data = []
    for row in rows:
        if min_reward is not None and (row.get("reward") is None or row["reward"] < min_reward):
            continue
        messages = tool_face(row["messages"], environment)
        cut = _opening_length(messages)
        data.append({"prompt": messages[:cut], "completion": messages[cut:], "tools": tools})
    conversation = datasets.List(_message_feature())
    features = datasets.Features(
        {"prompt": conversation, "completion": conversation, "tools": datasets.Value("string")}
    )
    return datasets.Dataset.from_list(data, features=features)


def rollout_pairs(
    rows: Iterable[Mapping[str, Any]], *, margin: float = 0.0
) -> list[tuple[Mapping, Mapping]]:
    """``(best, worst)`` per task among graded rollouts, when the best beats the worst by more
    than ``margin`` (ties teach nothing)."""
    by_task: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        if row.get("reward") is not None:
            by_task.setdefault(str(row["task_id"]), []).append(row)
    pairs = []
    for group in by_task.values():
        ranked = sorted(
            group, key=lambda r: (-float(r["reward"]), int(r.get("rollout_index", 0) or 0))
        )
        if float(ranked[0]["reward"]) - float(ranked[-1]["reward"]) > margin:
            pairs.append((ranked[0], ranked[-1]))
    return pairs


def preference_dataset(pairs: Iterable[tuple[Mapping, Mapping]], spec: Spec | Any) -> Any:
    """DPO rows (``prompt``, ``chosen``, ``rejected``, ``tools``) from ``(chosen, rejected)`` rows
    of the same task: the prompt is the shared opening, each side the rest in the tool face."""
    import datasets

    environment = environment_factory(spec)
    tools = json.dumps(tool_schemas(environment))
    data = []
    for chosen, rejected in pairs:
        good, bad = (
            tool_face(chosen["messages"], environment),
            tool_face(rejected["messages"], environment),
        )
        cut = _opening_length(good)
        data.append(
            {
                "prompt": good[:cut],
                "chosen": good[cut:],
                "rejected": bad[_opening_length(bad) :],
                "tools": tools,
            }
        )
    messages = datasets.List(_message_feature())
    features = datasets.Features(
        {
            "prompt": messages,
            "chosen": messages,
            "rejected": messages,
            "tools": datasets.Value("string"),
        }
    )
    return datasets.Dataset.from_list(data, features=features)


def preference_file_dataset(path: str, spec: Spec | Any) -> Any:
    """DPO rows from an exported preference file: JSONL whose lines hold ``chosen`` and
    ``rejected`` rows (or transcripts) of one task each."""
    from whileai_env.data.jsonl import read_rows

    pairs = []
    for line in read_rows(path):
        chosen, rejected = line["chosen"], line["rejected"]
        as_row = [
            side if isinstance(side, Mapping) else {"messages": side} for side in (chosen, rejected)
        ]
        pairs.append((as_row[0], as_row[1]))
    return preference_dataset(pairs, spec)


def _opening_length(messages: Sequence[Mapping[str, Any]]) -> int:
    n = 0
    while n < len(messages) and messages[n].get("role") in ("system", "user"):
        n += 1
    return n


def _message_feature() -> Any:
    import datasets

    return datasets.Json()
