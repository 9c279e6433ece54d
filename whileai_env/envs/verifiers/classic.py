"""The classic verifiers face (verifiers 0.3.x, ``import verifiers as vf``): a ``MultiTurnEnv``.

Not ``ToolEnv``: its ``no_tools_called`` stop ends a rollout on the first text turn, which is
wrong when a simulated user answers; not ``StatefulToolEnv``: its ``call_tool`` drops the
``tool_call_id``, and the ledger's ids must match the transcript for the checklist's grounding
checks. Each rollout's assistant turn goes whole to :meth:`Episode.step` (tools, faults, the user,
truncation), and what the episode appended comes back as the environment's messages.

verifiers is imported when the class is first built (:func:`environment_class`), never when this
module is: no whileai_env module imports a heavy dependency at import time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from whileai_env.envs.verifiers.common import dataset_row, graded, rollout_metrics, tool_defs
from whileai_env.episode.engine import Episode
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec


def build_environment(spec: Spec, tasks: Sequence[Task], episode_kwargs: dict[str, Any]) -> Any:
    """The classic environment over ``tasks`` (what :func:`whileai_env.load_environment` returns)."""
    from datasets import Dataset

    rows = [dataset_row(spec, task, **episode_kwargs) for task in tasks]
    dataset = Dataset.from_list(rows)
    cap = Episode(spec, tasks[0], **episode_kwargs).max_turns
    return environment_class()(
        spec,
        episode_kwargs,
        dataset=dataset,
        eval_dataset=dataset,
        rubric=rubric(spec),
        tool_defs=tool_defs(spec),
        max_turns=cap + 1,
    )


@functools.cache
def environment_class() -> type:
    """``WhileaiEnv(spec, episode_kwargs, **MultiTurnEnv kwargs)``: one :class:`Episode` per rollout.

    The episode truncates itself at its own cap; verifiers' ``max_turns`` is a backstop one turn
    later, so that the capped turn still reaches the episode.
    """
    import verifiers as vf

    class WhileaiEnv(vf.MultiTurnEnv):
        def __init__(self, spec: Spec, episode_kwargs: dict[str, Any], **kwargs: Any) -> None:
            self.spec = spec
            self.episode_kwargs = dict(episode_kwargs)
            super().__init__(**kwargs)

        async def setup_state(self, state: Any) -> Any:
            state["episode"] = Episode.from_row(state["info"], self.spec, **self.episode_kwargs)
            return state

        async def env_response(self, messages: Any, state: Any, **kwargs: Any) -> list[Any]:
            episode: Episode = state["episode"]
            result = episode.step(assistant_dict(messages[-1]))
            reply = [_vf_message(vf, m) for m in result.messages[1:]]
            if episode.done:
                state["final_env_response"] = reply
            return reply

    return WhileaiEnv


def rubric(spec: Spec) -> Any:
    """The reward (the episode's grade through the one judge runner) at weight 1, metrics at 0."""
    import verifiers as vf

    funcs: list[Callable[..., Any]] = [episode_reward]
    funcs.extend(
        _metric(name, spec)
        for name in ("n_calls", "truncated", "judge_ok", *(f"calls_{t}" for t in spec.tool_names))
    )
    return vf.Rubric(funcs=funcs, weights=[1.0] + [0.0] * (len(funcs) - 1))


async def episode_reward(state: Any) -> float:
    """The episode's reward (0 for a rollout cut before it ended). The whole grade (reason,
    markers, judge status) goes in ``state["grade"]`` and the episode's own transcript in
    ``state["transcript"]``; ``state_columns=["grade", "transcript"]`` saves them."""
    state["grade"] = graded(state["episode"])
    state["transcript"] = state["episode"].messages
    return float(state["grade"]["reward"] or 0.0)


def _metric(name: str, spec: Spec) -> Callable[..., Any]:
    async def metric(state: Any) -> float:
        return rollout_metrics(state["episode"], spec.tool_names)[name]

    metric.__name__ = name
    return metric


def assistant_dict(message: Any) -> dict[str, Any]:
    """A verifiers assistant message as the OpenAI dict the episode reads, call ids kept."""
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


def _vf_message(vf: Any, message: dict[str, Any]) -> Any:
    if message["role"] == "tool":
        return vf.ToolMessage(tool_call_id=message["tool_call_id"], content=message["content"])
    return vf.UserMessage(content=message["content"])
