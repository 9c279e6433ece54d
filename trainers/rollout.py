"""Play a model through the GRPO environment outside the trainer: evaluation, DPO pairs, monitors.

The loop is TRL's own shape, so a model is evaluated in the environment it trains in: the
prompt is rendered with the environment's methods as ``tools`` (the same schemas TRL shows),
the completion is read back with the tokenizer's response parser (TRL's
``add_response_schema``), each tool call is a method call on the environment (``ask_user``
included), and the rollout ends when the model stops calling tools or after ``max_turns``.
Every rollout is then finished and graded by :func:`trainers.rewards.checklist_reward`.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trainers.environment import WhileaiEnvironment


@dataclass
class Rollout:
    """One played rollout: its environment (episode inside), the completion messages and reward."""

    environment: WhileaiEnvironment
    prompt: list[dict[str, Any]]
    completion: list[dict[str, Any]]
    reward: float | None = None
    well_formed: int = 0
    malformed: int = 0

    @property
    def row(self) -> dict[str, Any]:
        """The episode's row, reward included (after grading)."""
        return self.environment.episode.row()


def _tools(environment: WhileaiEnvironment) -> list[Any]:
    return [
        getattr(environment, n)
        for n, _ in inspect.getmembers(type(environment), inspect.isfunction)
        if n not in ("reset", "get_reward") and not n.startswith("_")
    ]


def play(
    model: Any,
    tokenizer: Any,
    environment: type[WhileaiEnvironment],
    rows: Sequence[Mapping[str, Any]],
    *,
    k: int = 1,
    max_new_tokens: int = 256,
    max_turns: int = 8,
    temperature: float = 0.0,
    seed: int = 0,
) -> list[Rollout]:
    """``k`` rollouts of ``model`` per dataset row (a :func:`trainers.task_dataset` row), graded."""
    import torch
    from trl.chat_template_utils import add_response_schema

    from trainers.rewards import checklist_reward

    if (
        getattr(tokenizer, "response_template", None) is None
        and getattr(tokenizer, "response_schema", None) is None
    ):
        add_response_schema(tokenizer)
    torch.manual_seed(seed)
    out = []
    for row in rows:
        for _ in range(k):
            env = environment()
            env.reset(**dict(row))
            rollout = Rollout(env, [dict(m) for m in row["prompt"]], [])
            _play_one(model, tokenizer, rollout, max_new_tokens, max_turns, temperature)
            out.append(rollout)
    rewards = checklist_reward(
        [r.completion for r in out], environments=[r.environment for r in out]
    )
    for rollout, reward in zip(out, rewards, strict=True):
        rollout.reward = reward
    return out


def _play_one(
    model: Any,
    tokenizer: Any,
    rollout: Rollout,
    max_new_tokens: int,
    max_turns: int,
    temperature: float,
) -> None:
    tools = _tools(rollout.environment)
    by_name = {t.__name__: t for t in tools}
    for _ in range(max_turns):
        message = _generate(
            model,
            tokenizer,
            rollout.prompt + rollout.completion,
            tools,
            max_new_tokens,
            temperature,
        )
        rollout.completion.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            return
        for call in calls:
            rollout.completion.append(_run_call(call, by_name, rollout))


def _run_call(
    call: Mapping[str, Any], by_name: Mapping[str, Any], rollout: Rollout
) -> dict[str, Any]:
    """Call the method as TRL does (an exception becomes the tool's ``{"error": ...}`` reply)."""
    function = call.get("function") or {}
    name = str(function.get("name") or "")
    arguments = function.get("arguments")
    try:
        if name not in by_name:
            raise ValueError(f"Tool {name} not found.")
        if not isinstance(arguments, Mapping):
            raise TypeError("tool arguments must be an object")
        result: Any = by_name[name](**arguments)
        rollout.well_formed += 1
    except Exception as exc:  # what TRL's loop does with a failing tool call
        result = {"error": str(exc)}
        rollout.malformed += 1
    return {"role": "tool", "name": name, "content": str(result)}


def _generate(
    model: Any,
    tokenizer: Any,
    messages: list[dict[str, Any]],
    tools: list[Any],
    max_new_tokens: int,
    temperature: float,
) -> dict[str, Any]:
    import torch

    prompt_ids = tokenizer.apply_chat_template(
        messages, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    inputs = torch.tensor([prompt_ids], device=model.device)
    sampling = (
        {"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False}
    )
    with torch.no_grad():
        output = model.generate(
            inputs,
            attention_mask=torch.ones_like(inputs),
            max_new_tokens=max_new_tokens,
            pad_token_id=tokenizer.pad_token_id,
            **sampling,
        )
    new = output[0, inputs.shape[1] :].tolist()
    try:
        parsed = tokenizer.parse_response(new, prefix=prompt_ids, tools=tools)
    except Exception:  # an unparsable completion is the model's text, as TRL falls back to
        parsed = {"role": "assistant", "content": tokenizer.decode(new, skip_special_tokens=True)}
    message = {"role": "assistant", "content": str(parsed.get("content") or "")}
    if parsed.get("tool_calls"):
        message["tool_calls"] = parsed["tool_calls"]
    return message


def rollout_rows(rollouts: Sequence[Rollout]) -> list[dict[str, Any]]:
    """The graded episode rows of ``rollouts`` (for ``pass_at``, DPO pairs, reports)."""
    rows = []
    for i, rollout in enumerate(rollouts):
        row = rollout.row
        row["rollout_index"] = i
        row["tool_calls_well_formed"] = rollout.well_formed
        row["tool_calls_malformed"] = rollout.malformed
        rows.append(json.loads(json.dumps(row, default=str)))
    return rows
