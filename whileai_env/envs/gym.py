"""The Gymnasium face: ``gymnasium.make("whileai/agent", spec=...)``.

A thin adapter over :class:`~whileai_env.episode.engine.Episode`: ``reset`` picks a task and returns the
opening messages, ``step`` passes the agent's turn to ``Episode.step``. The reward is 0 on every
step but the last, where it is the episode's grade (``task_checklist`` or your ``judge``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import gymnasium as gym

from whileai_env.envs.spaces import AgentAction, AnyText, MessageList
from whileai_env.episode.engine import DEFAULT_ERROR_BUDGET, Episode
from whileai_env.episode.transcript import render_messages, render_tools
from whileai_env.episode.user import DEFAULT_AVG_TURNS
from whileai_env.scenarios.draw import draw_tasks, rebuild_task, tasks_from_rows
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, load_spec

OBSERVATIONS = ("messages", "text", "new_messages")


class AgentEnv(gym.Env):
    """A tool-using agent's environment: one task per episode, one agent turn per step.

    Args:
        spec: a spec path, dict or :class:`~whileai_env.Spec`.
        tasks: a list of tasks (``Task`` or their dicts), a JSONL file of a previous run's rows or
            tasks, or ``None`` to draw ``situations`` from the grid with ``mode`` and ``seed``.
        fault_rate: share of faulted cells that keep their fault (default 0.5, 0.8 in ``rl``);
            with ``tasks`` given, only ``0`` (their faults switched off): they carry their own.
        max_turns: agent turns before truncation (default ``2 * avg_turns``).
        user: ``None`` (template user), a callable, or ``"openai:MODEL"``.
        observation: ``"messages"`` (the OpenAI message list), ``"text"`` (a rendered
            transcript, tools listed first) or ``"new_messages"`` (only the messages each
            ``reset`` or ``step`` added: for a loop that keeps its own context, and for
            ``AsyncVectorEnv``, whose pipes pickle the whole observation at every step).
        render_mode: ``"ansi"`` (``render()`` returns the transcript) or ``"human"`` (prints it).

    ``reset(options={"task_id": ...})`` or ``options={"task": task}`` plays a given task;
    otherwise the task is drawn with the env's ``np_random``, so ``reset(seed=s)`` is repeatable.

    A step costs the same at turn 500 as at turn 5: the ``messages`` observation is one list per
    episode, returned by ``reset`` and every ``step`` and extended in place with each step's
    messages (also in ``info["new_messages"]``), never copied whole. It is the whole transcript;
    keep ``list(obs)`` (or :meth:`transcript`, a copy) to hold an earlier step's view. In a
    sub-process (``AsyncVectorEnv``) the observation is pickled whole at every step, so there a
    step's cost grows with the transcript; ``observation="new_messages"`` sends only what the
    step added (``envs.call("transcript")`` fetches the whole when wanted).

    >>> import gymnasium, whileai_env
    >>> env = gymnasium.make("whileai/agent-v0", spec="configs/specs/order-support.json")
    >>> obs, info = env.reset(seed=0)
    >>> obs[-1]["role"], "tools" in info
    ('user', True)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (as gymnasium.Env declares it)

    def __init__(
        self,
        spec: Spec | str | Path | Mapping | None = None,
        tasks: Iterable[Task | Mapping] | str | Path | None = None,
        *,
        mode: str = "explore",
        situations: int = 200,
        seed: int = 0,
        fault_rate: float | None = None,
        max_turns: int | None = None,
        avg_turns: int = DEFAULT_AVG_TURNS,
        error_budget: int = DEFAULT_ERROR_BUDGET,
        user: Any = None,
        judge: Callable[[dict], Any] | None = None,
        execute: Callable[[str, dict], Any] | None = None,
        observation: str = "messages",
        render_mode: str | None = None,
    ) -> None:
        if spec is None:
            raise ValueError("AgentEnv needs spec= (a spec path, dict or whileai_env.Spec)")
        if observation not in OBSERVATIONS:
            raise ValueError(
                f"observation must be one of {', '.join(OBSERVATIONS)}, got {observation!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.spec_ = load_spec(spec)
        self.tasks = _load_tasks(
            tasks, self.spec_, mode=mode, situations=situations, seed=seed, fault_rate=fault_rate
        )
        if not self.tasks:
            raise ValueError("AgentEnv has no tasks to play")
        self._by_id = {t.task_id: t for t in self.tasks}
        self.observation = observation
        self.render_mode = render_mode
        self._episode_kwargs = {
            "user": user,
            "avg_turns": avg_turns,
            "max_turns": max_turns,
            "error_budget": error_budget,
            "judge": judge,
            "execute": execute,
        }
        self.observation_space = AnyText() if observation == "text" else MessageList()
        self.action_space = AgentAction(max_length=8192)
        self.episode: Episode | None = None
        self._transcript: list[dict[str, Any]] = []
        self._added: list[dict[str, Any]] = []
        self._blocks: list[str] = []
        self._tools = _shared_tools(self.spec_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        task = self._choose_task(options or {})
        self.episode = Episode(self.spec_, task, **self._episode_kwargs)
        self._transcript = [dict(m) for m in self.episode.messages]
        self._added = list(self._transcript)
        self._blocks = (
            [render_messages([m]) for m in self._transcript] if self.observation == "text" else []
        )
        info = {
            "task_id": task.task_id,
            "scenario_id": task.scenario_id,
            "scenario_dimensions": task.dimensions,
            "tools": self._tools,
        }
        return self._observe(), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.episode is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        result = self.episode.step(action)
        reward = 0.0
        info = dict(result.info)
        if result.terminated or result.truncated:
            reward = float(info.get("reward") or 0.0)
            info["judge_status"] = self.episode.reward().get("judge_status")
        info["new_messages"] = self._added = result.messages
        self._transcript.extend(result.messages)
        if self.observation == "text":
            self._blocks.extend(render_messages([m]) for m in result.messages)
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, result.terminated, result.truncated, info

    def render(self) -> str | None:
        text = render_messages(self.episode.messages) if self.episode else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def row(self) -> dict[str, Any]:
        """The current episode as a schema-v1 row."""
        if self.episode is None:
            raise gym.error.ResetNeeded("call reset() before row()")
        return self.episode.row()

    def _choose_task(self, options: Mapping[str, Any]) -> Task:
        unknown = set(options) - {"task_id", "task"}
        if unknown:
            raise ValueError(
                f"unknown reset options {', '.join(sorted(unknown))}; use task_id or task"
            )
        if "task" in options:
            task = options["task"]
            return task if isinstance(task, Task) else rebuild_task(task, self.spec_)
        if "task_id" in options:
            try:
                return self._by_id[options["task_id"]]
            except KeyError:
                raise ValueError(
                    f"no task {options['task_id']!r} in this env ({len(self.tasks)} tasks)"
                ) from None
        return self.tasks[int(self.np_random.integers(len(self.tasks)))]

    def transcript(self) -> list[dict[str, Any]]:
        """A copy of the whole conversation so far (the ``messages`` observation is this list
        itself, shared between steps and grown in place)."""
        if self.episode is None:
            raise gym.error.ResetNeeded("call reset() before transcript()")
        return [dict(m) for m in self._transcript]

    def _observe(self) -> Any:
        """The observation, at a cost that does not grow with the episode: the ``messages``
        list is the env's own, extended each step with that step's messages (copies, so the
        agent cannot edit the episode's); ``new_messages`` is that step's messages alone; the
        text joins per-message blocks rendered once."""
        if self.observation == "messages":
            return self._transcript
        if self.observation == "new_messages":
            return self._added
        return f"Tools:\n{_tools_text(self.spec_)}\n\n" + "\n\n".join(self._blocks)


@functools.lru_cache(maxsize=16)
def _shared_tools(spec: Spec) -> list[dict[str, Any]]:
    """The spec's tools in OpenAI shape, one list for every env of the spec in this process
    (``reset``'s ``info["tools"]``: read it, do not edit it); about 30 KB for a 14-tool spec,
    which each env held a copy of."""
    return spec.openai_tools()


@functools.lru_cache(maxsize=16)
def _tools_text(spec: Spec) -> str:
    """The tools as the ``text`` observation lists them, rendered once per spec."""
    return render_tools(_shared_tools(spec))


def _load_tasks(
    tasks: Iterable[Task | Mapping] | str | Path | None,
    spec: Spec,
    *,
    mode: str,
    situations: int,
    seed: int,
    fault_rate: float | None,
) -> list[Task]:
    if tasks is None:
        return draw_tasks(spec, situations, mode=mode, seed=seed, fault_rate=fault_rate)
    if isinstance(tasks, str | Path):
        from whileai_env.data.jsonl import read_rows

        tasks = read_rows(tasks)
    given = tasks_from_rows(tasks, spec)
    if fault_rate is None:
        return given
    if fault_rate == 0:  # faults off, as for drawn tasks
        return [replace(t, faults=None) for t in given]
    raise ValueError(
        f"fault_rate={fault_rate} applies to the tasks AgentEnv draws; the tasks given carry their "
        "own fault schedules: draw them with draw_tasks(..., fault_rate=...), or pass "
        "fault_rate=0 to switch their faults off"
    )
