"""Scripted play for trainer tests: the same actions through ``simulate()`` and through TRL.

A *script* is a list of agent turns in the engine's shape (assistant messages with
``tool_calls``, or text). :class:`ReplayPolicy` plays it in ``simulate()``; :class:`ScriptedGeneration`
writes it as the model's tokens inside ``GRPOTrainer`` (tool calls as ``<tool_call>`` blocks, a
text turn that the person answered as an ``ask_user`` call), so both faces see one trajectory.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Script = list[dict[str, Any]]


def oracle_script(row: Mapping[str, Any]) -> Script:
    """The agent turns of a played row, in order."""
    return [dict(m) for m in row["messages"] if m.get("role") == "assistant"]


def without_tools(script: Script) -> Script:
    """The same conversation with every tool call left out: a policy that claims without acting."""
    return [m for m in script if not m.get("tool_calls")]


@dataclass
class ReplayPolicy:
    """A step policy for ``simulate()``: rollout ``i`` of task ``t`` plays ``scripts[t][i]``."""

    scripts: Mapping[str, Sequence[Script]]
    is_policy: bool = True
    _turns: list[dict[str, Any]] = field(default_factory=list)

    def start(self, task: Any, rollout_index: int = 0) -> None:
        self._turns = list(self.scripts[task.task_id][rollout_index])

    def __call__(self, observation: Any) -> dict[str, Any]:
        return self._turns.pop(0)


def model_text(turn: Mapping[str, Any], asks: bool) -> str:
    """One turn as the model would write it under the Qwen2.5 template."""
    if turn.get("tool_calls"):
        blocks = []
        for call in turn["tool_calls"]:
            fn = call["function"]
            args = (
                json.loads(fn["arguments"]) if isinstance(fn["arguments"], str) else fn["arguments"]
            )
            blocks.append(json.dumps({"name": fn["name"], "arguments": args}, ensure_ascii=False))
        return "\n".join(f"<tool_call>\n{b}\n</tool_call>" for b in blocks)
    if asks:
        call = {"name": "ask_user", "arguments": {"question": turn["content"]}}
        return f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"
    return str(turn["content"])


class ScriptedGeneration:
    """Stands in for the model's sampling inside ``GRPOTrainer``.

    The first call of a batch names each rollout's task from its prompt (by opener) and its
    variant by how many rollouts of that task came before it; each later call of the tool loop
    serves the rollouts still calling tools, in order, their next turn.
    """

    def __init__(
        self, scripts: Mapping[str, Sequence[Script]], openers: Mapping[str, str], tokenizer: Any
    ) -> None:
        self.scripts, self.openers, self.tokenizer = scripts, openers, tokenizer
        self.live: list[
            list[Any]
        ] = []  # [task_id, variant, next turn index] of rollouts in the tool loop
        self.calls = 0

    def __call__(self, prompt_ids: Sequence[Sequence[int]]) -> list[list[int]]:
        self.calls += 1
        if not self.live:
            self.live = self._start(prompt_ids)
        if len(self.live) != len(prompt_ids):
            raise AssertionError(
                f"{len(prompt_ids)} prompts for {len(self.live)} live scripted rollouts"
            )
        out, still = [], []
        for rollout in self.live:
            task_id, variant, at = rollout
            script = self.scripts[task_id][variant]
            turn = script[at]
            asks = at + 1 < len(script) and not turn.get("tool_calls")
            text = model_text(turn, asks) + "<|im_end|>"
            out.append(self.tokenizer.encode(text, add_special_tokens=False))
            if turn.get("tool_calls") or asks:
                still.append([task_id, variant, at + 1])
        self.live = still
        return out

    def _start(self, prompt_ids: Sequence[Sequence[int]]) -> list[list[Any]]:
        seen: dict[str, int] = {}
        rollouts = []
        for ids in prompt_ids:
            text = self.tokenizer.decode(ids)
            task_id = next(t for t, opener in self.openers.items() if opener in text)
            rollouts.append([task_id, seen.get(task_id, 0), 0])
            seen[task_id] = seen.get(task_id, 0) + 1
        return rollouts
