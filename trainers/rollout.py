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
    batch_size: int = 16,
) -> list[Rollout]:
    """``k`` rollouts of ``model`` per dataset row (a :func:`trainers.task_dataset` row), graded.

    Each turn, the rollouts still playing generate together, ``batch_size`` at a time, in one
    left-padded ``generate`` call (a model turn is the slow part; one call per rollout left the
    CPU idle between tokens). Greedy results match one-at-a-time play up to padding effects.
    """
    import torch
    from trl.chat_template_utils import add_response_schema

    from trainers.rewards import checklist_reward

    if (
        getattr(tokenizer, "response_template", None) is None
        and getattr(tokenizer, "response_schema", None) is None
    ):
        add_response_schema(tokenizer)
    torch.manual_seed(seed)
    out = [_start(environment, row) for row in rows for _ in range(k)]
    active = list(out)
    for _ in range(max_turns):
        for i in range(0, len(active), max(1, batch_size)):
            batch = active[i : i + max(1, batch_size)]
            messages = _generate(model, tokenizer, batch, max_new_tokens, temperature)
            for rollout, message in zip(batch, messages, strict=True):
                _take_turn(rollout, message)
        active = [r for r in active if r.completion[-1]["role"] == "tool"]
        if not active:
            break
    rewards = checklist_reward(
        [r.completion for r in out], environments=[r.environment for r in out]
    )
    for rollout, reward in zip(out, rewards, strict=True):
        rollout.reward = reward
    return out


def _start(environment: type[WhileaiEnvironment], row: Mapping[str, Any]) -> Rollout:
    env = environment()
    env.reset(**dict(row))
    return Rollout(env, [dict(m) for m in row["prompt"]], [])


def _take_turn(rollout: Rollout, message: dict[str, Any]) -> None:
    """Append the model's message and, for each tool call in it, the tool's reply."""
    rollout.completion.append(message)
    by_name = {t.__name__: t for t in _tools(rollout.environment)}
    for call in message.get("tool_calls") or []:
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
    batch: Sequence[Rollout],
    max_new_tokens: int,
    temperature: float,
) -> list[dict[str, Any]]:
    """The next assistant message of each rollout in ``batch``, from one ``generate`` call."""
    import torch

    tools = [_tools(r.environment) for r in batch]
    prompts = [
        tokenizer.apply_chat_template(
            r.prompt + r.completion,
            tools=t,
            add_generation_prompt=True,
            tokenize=True,
            return_dict=False,
        )
        for r, t in zip(batch, tools, strict=True)
    ]
    stops = _stop_ids(model, tokenizer)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else min(stops)
    shared = _shared_length(prompts)
    inputs, mask = _pad_after_prefix(prompts, shared, pad, model.device)
    sampling = (
        {"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False}
    )
    with torch.no_grad():
        output = model.generate(
            inputs,
            attention_mask=mask,
            cache=_prefix_cache(model, prompts[0][:shared], len(prompts)),
            max_new_tokens=max_new_tokens,
            pad_token_id=pad,
            **sampling,
        )
    return [
        _parse(tokenizer, _until_stop(row[inputs.shape[1] :].tolist(), stops), ids, t)
        for row, ids, t in zip(output, prompts, tools, strict=True)
    ]


def _shared_length(prompts: Sequence[list[int]]) -> int:
    """Tokens every prompt starts with (the system turn and tools), leaving each one of its own."""
    shortest = min(len(p) for p in prompts) - 1
    for i in range(shortest):
        if any(p[i] != prompts[0][i] for p in prompts):
            return i
    return max(shortest, 0)


def _pad_after_prefix(
    prompts: Sequence[list[int]], shared: int, pad_id: int, device: Any
) -> tuple[Any, Any]:
    """Token and attention-mask tensors of ``prompts`` at one length: the shared prefix, then
    padding (masked out), then each prompt's own tokens, so the prefix's cache serves every row
    and positions, read from the mask, are those of the unpadded prompt."""
    import torch

    width = max(len(p) for p in prompts)
    ids = [p[:shared] + [pad_id] * (width - len(p)) + p[shared:] for p in prompts]
    mask = [[1] * shared + [0] * (width - len(p)) + [1] * (len(p) - shared) for p in prompts]
    return torch.tensor(ids, device=device), torch.tensor(mask, device=device)


def _prefix_cache(model: Any, prefix: list[int], rows: int) -> Any:
    """The key/value cache of ``prefix``, computed once and repeated for ``rows`` rows (the long
    system turn is most of every prompt; prefilling it once per batch, not per row, is the
    saving), or ``None`` when there is no shared prefix."""
    import torch

    if not prefix:
        return None
    cache = model(torch.tensor([prefix], device=model.device), use_cache=True).cache
    cache.batch_repeat_interleave(rows)
    return cache


def _stop_ids(model: Any, tokenizer: Any) -> set[int]:
    """The tokens ``generate`` stops at (the generation config's end-of-sequence ids)."""
    eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    if eos is None:
        eos = tokenizer.eos_token_id
    return set(eos if isinstance(eos, list) else [eos]) - {None}


def _until_stop(tokens: list[int], stops: set[int]) -> list[int]:
    """``tokens`` up to and including the first stop token (a finished row is padded after it)."""
    for i, token in enumerate(tokens):
        if token in stops:
            return tokens[: i + 1]
    return tokens


def _parse(
    tokenizer: Any, new: list[int], prompt_ids: list[int], tools: list[Any]
) -> dict[str, Any]:
    """The assistant message in ``new`` (its text when no tool call parses, as TRL falls back to)."""
    try:
        parsed = tokenizer.parse_response(new, prefix=prompt_ids, tools=tools)
    except Exception:  # an unparsable completion is the model's text
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
