"""The v1 verifiers face (verifiers 0.4.x, ``import verifiers.v1 as vf``): a taskset and an env.

- ``WhileaiTaskset`` yields one ``WhileaiTask`` per whileai task: the prompt is the episode's own
  opening (system prompt, the user's opener), ``info`` the task (privileged block included: read
  by the environment and the tool server, never shown to the policy). Its config fields are the
  ``--env.taskset.*`` flags: ``spec`` (a spec file or an exported package), ``rows``, ``n``,
  ``seed``, ``mode``, ``split``, ``holdout``, ``judge``, ``execute`` and the episode options.
- Each rollout's tools are a per-rollout MCP server (:mod:`.v1_tools`) answering from the task's
  world with the spec's schemas verbatim.
- ``WhileaiEnv`` holds the one :class:`~whileai_env.Episode` of the rollout. Each harness segment's
  assistant messages go to :meth:`Episode.step` in order (so the ledger carries the transcript's
  call ids: MCP calls carry none, and the k-th call the tool server answered is the k-th call of
  the transcript); the simulated user's reply is the next user turn; when the episode ends the
  exchange closes. The reward is the episode's grade through the one judge runner
  (``trace.record_reward``); ``n_calls``, ``truncated``, ``judge_ok``, ``calls_<tool>`` and
  ``tool_mismatch`` (tool results the replay did not reproduce) are metrics, never rewards.

verifiers resolves plugins by a top-level module's ``__all__``: an exported package re-exports
:func:`package_classes` bound to its own directory (``vf-eval PACKAGE_MODULE``), and
:func:`build_environment` registers this module as ``whileai_env_v1`` for an in-process env. verifiers is imported when a class is first
asked for (module ``__getattr__``), never when this module is.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

from whileai_env.envs.verifiers.common import dataset_row, graded, rollout_metrics
from whileai_env.envs.verifiers.v1_play import play_segment
from whileai_env.envs.verifiers.v1_source import (
    EPISODE_OPTIONS,
    episode_kwargs,
    load_tasks,
    read_source,
)
from whileai_env.envs.verifiers.v1_tools import task_classes
from whileai_env.episode.engine import Episode
from whileai_env.episode.user import DEFAULT_AVG_TURNS

# verifiers imports a taskset by a top-level module name (a dotted one fails its namespace probe),
# so an in-process env registers this module under one; a CLI run names an exported package.
MODULE_ID = "whileai_env_v1"
__all__ = ["WhileaiEnv", "WhileaiTaskset"]  # noqa: F822 (built by __getattr__)


def __getattr__(name: str) -> Any:
    """The verifiers classes, built on first use (so importing this module imports no verifiers)."""
    if name == "WhileaiTaskset":
        return taskset_class(taskset_config_class())
    if name == "WhileaiEnv":
        return env_class(env_config_class(2 * DEFAULT_AVG_TURNS + 1))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def taskset_config_class(source: str = "", split: str | None = None) -> type:
    """The taskset's flags; ``source`` and ``split`` are the defaults (an exported package's own)."""
    import verifiers.v1 as vf
    from pydantic import create_model

    task_config = task_classes()[1].config_type()

    class WhileaiTasksetConfig(vf.TasksetConfig):
        task: task_config = task_config()  # type: ignore[valid-type]
        spec: str = ""
        rows: str | None = None
        n: int = 20
        seed: int = 0
        mode: str = "rl"
        split: str | None = None
        holdout: float = 0.2
        judge: str | None = None
        execute: str | None = None
        max_turns: int | None = None
        avg_turns: int | None = None
        error_budget: int | None = None
        user: str | None = None
        world_options: dict[str, Any] | None = None

    if not source:
        return WhileaiTasksetConfig
    return create_model(
        "WhileaiTasksetConfig",
        __base__=WhileaiTasksetConfig,
        spec=(str, source),
        split=(str | None, split),
    )


@functools.cache
def taskset_class(config_cls: type) -> type:
    """``WhileaiTaskset`` over ``config_cls``: loads the tasks once, yields one task each."""
    import verifiers.v1 as vf

    data_cls, task_cls = task_classes()

    class WhileaiTaskset(vf.Taskset[task_cls, config_cls]):
        def load(self) -> list[Any]:
            spec, tasks = self.world_tasks()
            kwargs = self.episode_kwargs()
            task_config = self.config.task.model_copy(
                update={"source": self.config.spec, "options": self.options()}
            )
            return [task_cls(_task_data(data_cls, spec, t, kwargs), task_config) for t in tasks]

        def options(self) -> dict[str, Any]:
            """The package's episode options under the flags that were set."""
            own = self.config.model_dump(include={"judge", "execute", *EPISODE_OPTIONS})
            base = read_source(self.config.spec)[1]
            return {**base, **{k: v for k, v in own.items() if v is not None}}

        def episode_kwargs(self) -> dict[str, Any]:
            """:class:`Episode`'s keywords, resolved once (every rollout's episode takes them)."""
            if "_kwargs" not in self.__dict__:
                self._kwargs = episode_kwargs(self.options())
            return self._kwargs

        def world_tasks(self) -> tuple[Any, list[Any]]:
            """The spec and the tasks, read once (views share them)."""
            if "_world" not in self.__dict__:
                c = self.config
                if not c.spec:
                    raise ValueError("set the spec: --env.taskset.spec PATH (a spec or a package)")
                self._world = load_tasks(
                    c.spec,
                    c.rows,
                    n=c.n,
                    seed=c.seed,
                    mode=c.mode,
                    split=c.split,
                    holdout=c.holdout,
                )
            return self._world

    WhileaiTaskset.__qualname__ = WhileaiTaskset.__name__
    return WhileaiTaskset


def _task_data(data_cls: type, spec: Any, task: Any, kwargs: dict[str, Any]) -> Any:
    """One whileai task as v1 task data: the episode's opening as prompt, the task in ``info``."""
    row = dataset_row(spec, task, **kwargs)
    system = next((m["content"] for m in row["prompt"] if m["role"] == "system"), None)
    opener = next(m["content"] for m in row["prompt"] if m["role"] == "user")
    return data_cls(
        id=task.task_id, name=task.task_id, prompt=opener, system_prompt=system, info=task.to_dict()
    )


@functools.cache
def env_config_class(backstop: int) -> type:
    """The env's config: one ``agent`` seat on the ``null`` harness (a chat loop that executes no
    code, so the local ``subprocess`` runtime is its default), its ``max_turns`` a backstop one
    turn past the episode's own cap (the episode truncates itself first)."""
    import verifiers.v1 as vf

    class WhileaiEnvConfig(vf.EnvConfig):
        agent: vf.AgentConfig = vf.AgentConfig(
            harness={"id": "null"}, runtime={"type": "subprocess"}, max_turns=backstop
        )

    return WhileaiEnvConfig


@functools.cache
def env_class(config_cls: type) -> type:
    """``WhileaiEnv``: one :class:`Episode` per rollout, driven by the agent's segments."""
    import verifiers.v1 as vf

    class WhileaiEnv(vf.Env[config_cls]):
        async def run(self, task: Any, agents: Any) -> None:
            spec = self.taskset.world_tasks()[0]
            episode = Episode.from_row(task.data.info, spec, **self.taskset.episode_kwargs())
            mismatches = 0
            async with agents.agent.interaction(task) as chat:
                segment = await chat.turn()
                while not segment.terminated:
                    reply, missed = play_segment(episode, segment.messages)
                    mismatches += missed
                    if episode.done or reply is None:
                        break
                    segment = await chat.turn(reply)
                record(chat.trace, episode, spec.tool_names, mismatches)

    WhileaiEnv.__qualname__ = WhileaiEnv.__name__
    return WhileaiEnv


def record(trace: Any, episode: Episode, tools: Any, mismatches: int) -> None:
    """The episode's reward (weight 1) and its metrics on the trace; the whole grade and the
    episode's transcript in ``trace.info`` (``grade``, ``transcript``)."""
    grade = graded(episode)
    trace.record_reward("episode_reward", float(grade["reward"] or 0.0), 1.0)
    trace.record_metrics({**rollout_metrics(episode, tools), "tool_mismatch": float(mismatches)})
    trace.info["grade"] = grade
    trace.info["transcript"] = episode.messages


@functools.cache
def package_classes(package_dir: str, backstop: int) -> dict[str, type]:
    """An exported package's taskset and env: its directory and ``train`` split by default."""
    return {
        "Taskset": taskset_class(taskset_config_class(package_dir, "train")),
        "Env": env_class(env_config_class(backstop)),
    }


def build_environment(config: dict[str, Any], backstop: int) -> Any:
    """The v1 env over a taskset ``config`` (what :func:`whileai_env.load_environment` returns)."""
    import verifiers.v1 as vf

    sys.modules.setdefault(MODULE_ID, sys.modules[__name__])
    env_config = vf.resolve_env_config(
        {
            "taskset": {"id": MODULE_ID, **config},
            "agent": {
                "harness": {"id": "null"},
                "runtime": {"type": "subprocess"},
                "max_turns": backstop,
            },
        }
    )
    return vf.load_environment(env_config)
