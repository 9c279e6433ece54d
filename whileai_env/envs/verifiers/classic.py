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
from collections.abc import Sequence
from typing import Any

from whileai_env.envs.verifiers.common import (
    assistant_dict,
    dataset_row,
    graded,
    rollout_metrics,
    tool_defs,
)
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
    """The reward (the episode's grade through the one judge runner) at weight 1, and beside it
    the metrics of :func:`rollout_metrics` (never summed into the reward).

    The metrics are added to each state's ``metrics`` after scoring rather than run as weight-0
    reward functions: verifiers inspects and calls every reward function one by one, which for a
    spec with many tools (a ``calls_<tool>`` each) costs more than the rest of the rollout.
    """
    return _rubric_class()(spec, funcs=[episode_reward], weights=[1.0])


@functools.cache
def _rubric_class() -> type:
    import verifiers as vf

    class EpisodeRubric(vf.Rubric):
        def __init__(self, spec: Spec, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.tools = spec.tool_names

        async def score_rollout(self, state: Any) -> None:
            await super().score_rollout(state)
            self._add_metrics(state)

        async def score_group(self, states: list[Any]) -> None:
            await super().score_group(states)
            for state in states:
                self._add_metrics(state)

        def _add_metrics(self, state: Any) -> None:
            state["metrics"] = {**state["metrics"], **rollout_metrics(state["episode"], self.tools)}

    return EpisodeRubric


async def episode_reward(state: Any) -> float:
    """The episode's reward (0 for a rollout cut before it ended). The whole grade (reason,
    markers, judge status) goes in ``state["grade"]`` and the episode's own transcript in
    ``state["transcript"]``; ``state_columns=["grade", "transcript"]`` saves them."""
    state["grade"] = graded(state["episode"])
    state["transcript"] = state["episode"].messages
    return float(state["grade"]["reward"] or 0.0)


def _vf_message(vf: Any, message: dict[str, Any]) -> Any:
    if message["role"] == "tool":
        return vf.ToolMessage(tool_call_id=message["tool_call_id"], content=message["content"])
    return vf.UserMessage(content=message["content"])
