"""Reward functions for ``GRPOTrainer(reward_funcs=[...])``.

TRL calls each with ``prompts``, ``completions``, ``completion_ids``, every dataset column as a
list, ``environments`` (with an ``environment_factory``), ``trainer_state``, ``log_metric`` and
``log_extra``. Every reward here grades through the engine: the episode is ended with the
completion's last text (:func:`trainers.environment.finish_rollout`) and graded by
:meth:`whileai_env.Episode.reward`, or by another judge through the one judge runner
(:func:`whileai_env.grading.judge.judge_verdict`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trainers.environment import finish_rollout
from whileai_env.episode.engine import Episode
from whileai_env.spec.load import Spec, load_spec

RewardFn = Callable[..., list[float | None]]


def checklist_reward(
    completions: Sequence[Any],
    environments: Sequence[Any] | None = None,
    log_metric: Callable[[str, float], None] | None = None,
    **_: Any,
) -> list[float | None]:
    """The episode's own grade (the checklist, or the ``judge=`` the factory was given) per rollout.

    Also logs ``whileai/tool_calls``, ``whileai/faults_fired`` and ``whileai/ask_user`` means.
    """
    if environments is None:
        raise ValueError(
            "checklist_reward reads the rollouts' environments: pass environment_factory= to GRPOTrainer"
        )
    episodes = [
        finish_rollout(env, completion)
        for env, completion in zip(environments, completions, strict=True)
    ]
    if log_metric is not None:
        _log_episode_metrics(episodes, log_metric)
    return [_number(e.reward().get("reward")) for e in episodes]


def judge_reward(judge: Callable[[dict], Any], *, name: str | None = None) -> RewardFn:
    """A reward function grading each rollout's row with ``judge`` (any judge callable, run under
    the judge contract); ``name`` becomes its ``rewards/<name>`` column in TRL's logs."""
    from whileai_env.grading.judge import judge_name, judge_verdict

    def reward(
        completions: Sequence[Any], environments: Sequence[Any] | None = None, **_: Any
    ) -> list:
        if environments is None:
            raise ValueError(
                "judge_reward reads the rollouts' environments: pass environment_factory="
            )
        episodes = [
            finish_rollout(env, c) for env, c in zip(environments, completions, strict=True)
        ]
        return [_number(judge_verdict(judge, e.row()).reward) for e in episodes]

    reward.__name__ = name or judge_name(judge)
    return reward


def completion_reward(spec: Spec | Any, **episode_kwargs: Any) -> RewardFn:
    """A reward for offline prompt/completion rows (no environment): each completion is replayed
    through a fresh episode of the row's task (tool calls run in the world again, questions go
    to the simulated user) and graded. Rows need the ``info`` column of :func:`trainers.task_dataset`."""
    the_spec = load_spec(spec)

    def reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
        out = []
        for i, completion in enumerate(completions):
            row = {
                k: v[i]
                for k, v in columns.items()
                if isinstance(v, list) and len(v) == len(completions)
            }
            episode = Episode.from_row(row, the_spec, **episode_kwargs)
            replay(episode, completion)
            out.append(_number(episode.reward().get("reward")))
        return out

    reward.__name__ = "completion_reward"
    return reward


def replay(episode: Episode, completion: Sequence[Mapping[str, Any]] | str) -> Episode:
    """Play a completion's assistant turns into ``episode``: every turn but the last is a step (its
    tool calls run, an ``ask_user`` call or a text goes to the person), the last ends the episode."""
    if isinstance(completion, str):
        completion = [{"role": "assistant", "content": completion}]
    turns = [m for m in completion if m.get("role") == "assistant"]
    for turn in turns[:-1]:
        if episode.done:
            break
        episode.step(_as_action(turn))
    last = turns[-1] if turns else {"content": ""}
    if not episode.done:
        if last.get("tool_calls"):
            episode.step(_as_action(last))
            episode.finish("")
        else:
            episode.finish(str(last.get("content") or ""))
    return episode


def _as_action(turn: Mapping[str, Any]) -> Any:
    """A tool-face turn as the engine reads it: an ``ask_user`` call becomes the question text."""
    calls = list(turn.get("tool_calls") or ())
    asks = [c for c in calls if (c.get("function") or c).get("name") == "ask_user"]
    if asks and len(asks) == len(calls):
        arguments = (asks[0].get("function") or asks[0]).get("arguments") or {}
        return (
            str(arguments.get("question", "")) if isinstance(arguments, Mapping) else str(arguments)
        )
    return dict(turn)


def _number(value: Any) -> float | None:
    """A reward TRL can average: a finite float, or ``None`` (TRL's NaN) for an ungraded row."""
    if value is None or isinstance(value, bool):
        return None if value is None else float(value)
    number = float(value)
    return number if math.isfinite(number) else None


def _log_episode_metrics(
    episodes: Sequence[Episode], log_metric: Callable[[str, float], None]
) -> None:
    n = max(len(episodes), 1)
    log_metric("whileai/tool_calls", sum(len(e.world.ledger) for e in episodes) / n)
    log_metric("whileai/faults_fired", sum(len(e.world.faults_fired) for e in episodes) / n)
    asked = sum(sum(m.get("role") == "user" for m in e.messages) - 1 for e in episodes)
    log_metric("whileai/ask_user", asked / n)
