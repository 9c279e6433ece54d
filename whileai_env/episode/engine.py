"""The episode engine: the one place a conversation advances.

An :class:`Episode` plays one task. ``reset()`` gives the opening messages; ``step(action)``
takes the agent's turn (any shape :func:`~whileai_env.episode.actions.parse_action` reads), runs its
tool calls through the task's :class:`~whileai_env.world.World` (faults included) or lets the
simulated user answer, and says whether the episode ended. ``row()`` is the rollout as a
schema-v1 row and ``reward()`` its grade. Every face (Gymnasium, verifiers, TRL, ``simulate``)
drives these same methods; none re-implements tool execution, faults, the user or the reward.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.frozen import copy_json
from whileai_env.data.text import clean_text
from whileai_env.episode.actions import Action, ToolCall, parse_action
from whileai_env.episode.stops import StopReason
from whileai_env.episode.user import DEFAULT_AVG_TURNS, make_user
from whileai_env.errors import EpisodeOver
from whileai_env.scenarios.task import Task
from whileai_env.spec.load import Spec, load_spec
from whileai_env.types import Execute, Judge, User
from whileai_env.world.options import WorldOptions

DEFAULT_ERROR_BUDGET = 3


@dataclass(frozen=True)
class StepResult:
    """What one agent turn produced: the messages appended after it and whether it ended."""

    messages: list[dict[str, Any]]
    terminated: bool
    truncated: bool
    info: dict[str, Any] = field(default_factory=dict)


class Episode:
    """One task played by one agent, turn by turn.

    ``user`` is ``None`` (the template user), a callable ``user(messages) -> str | None`` or
    ``"openai:MODEL"``. ``max_turns`` caps agent turns (default ``2 * avg_turns``); hitting it
    truncates the episode (reward 0, marked ``truncated``). ``error_budget`` is how many
    malformed tool calls (bad JSON, unknown tool, arguments not an object) end the episode.
    With ``grade`` (the default) the last step's info carries the reward; ``grade=False`` leaves
    the episode ungraded until ``reward()`` is called (``simulate`` grades after). ``judge`` replaces :func:`~whileai_env.grading.task_checklist` as the grader; ``execute``
    answers tool calls with your own function after the fault schedule is applied.

    >>> import whileai_env as wenv
    >>> spec = wenv.load_spec("configs/specs/order-support.json")
    >>> ep = Episode(spec, wenv.draw_tasks(spec, 1, seed=0)[0])
    >>> [m["role"] for m in ep.reset()]
    ['system', 'user']
    >>> result = ep.step("Could you tell me your order number?")
    >>> [m["role"] for m in result.messages], result.terminated
    (['assistant', 'user'], False)
    """

    def __init__(
        self,
        spec: Spec | Any,
        task: Task,
        *,
        user: User | Callable[[list[dict[str, Any]]], str | None] | str | None = None,
        avg_turns: int = DEFAULT_AVG_TURNS,
        max_turns: int | None = None,
        error_budget: int = DEFAULT_ERROR_BUDGET,
        judge: Judge | None = None,
        execute: Execute | None = None,
        world_options: WorldOptions | Mapping[str, Any] | None = None,
        rollout_index: int = 0,
        grade: bool = True,
    ) -> None:
        self.spec = load_spec(spec)
        if not isinstance(task, Task):
            raise TypeError(f"task must be a whileai_env.Task, got {type(task).__name__}")
        if max_turns is not None and max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}")
        if error_budget < 0:
            raise ValueError(f"error_budget must be >= 0, got {error_budget}")
        self.task = task
        self.avg_turns = avg_turns
        self.max_turns = max_turns if max_turns is not None else 2 * avg_turns
        self.error_budget = error_budget
        self.judge = judge
        self.rollout_index = rollout_index
        self.grade = grade
        self._user_spec = user
        self._execute = execute
        self._world_options = world_options
        self._tools = _openai_tools(self.spec)
        self.reset()

    @classmethod
    def from_row(cls, row: Mapping[str, Any], spec: Spec | Any, **kwargs: Any) -> Episode:
        """An episode of the task a dataset row (or a previous run's row) describes."""
        from whileai_env.scenarios.draw import rebuild_task

        task = rebuild_task(row, spec)
        kwargs.setdefault("rollout_index", int(row.get("rollout_index", 0) or 0))
        return cls(spec, task, **kwargs)

    def reset(self) -> list[dict[str, Any]]:
        """Start the task over and return the opening messages (system prompt, user opener)."""
        from whileai_env.world import World

        self.world = World(self.spec, self.task, options=self._world_options, execute=self._execute)
        self.user = make_user(self._user_spec, self.task, avg_turns=self.avg_turns, spec=self.spec)
        opener = getattr(self.user, "opener", lambda: None)() or self.task.opener
        self.messages: list[dict[str, Any]] = []
        if self.spec.system_prompt:
            self.messages.append({"role": "system", "content": self.spec.system_prompt})
        self.messages.append({"role": "user", "content": opener})
        self.turns = 0
        self.errors = 0
        self.final_text = ""
        self.terminated = False
        self.truncated = False
        self.stop_reason: str | None = None
        self.turn_meta: list[dict[str, Any]] = []
        self._external_steps: list[dict[str, Any]] | None = None
        self._reward: dict[str, Any] | None = None
        self.text_repairs = 0
        return copy_json(self.messages)

    def _clean(self, value: Any) -> Any:
        """``value`` with valid UTF-8 text (lone surrogates replaced), the repairs counted."""
        value, repaired = clean_text(value)
        self.text_repairs += repaired
        return value

    def record_external(self, steps: Any, final_text: Any) -> None:
        """Finish the episode with a trajectory an agent played on its own (one call per rollout).

        Calls that went through the rollout's world are already in its ledger and are the truth;
        otherwise the agent's reported ``steps`` (``{"tool", "arguments", "result"}``) stand in.
        Raises ``ValueError`` naming the problem when the shape is wrong.
        """
        if self.done:
            raise EpisodeOver("this episode has ended; call reset() to play the task again")
        if not isinstance(steps, list):
            raise ValueError(f"the agent's 'steps' must be a list, got {type(steps).__name__}")
        if not isinstance(final_text, str):
            raise ValueError(
                f"the agent's 'final_text' must be a string, got {type(final_text).__name__}"
            )
        steps, final_text = self._clean(steps), self._clean(final_text)
        if self.world.ledger:
            played = self.world.ledger
        else:
            played = [_reported_step(i, s, self.spec) for i, s in enumerate(steps)]
            self._external_steps = played
        for step in played:
            self.turns += 1
            call_id = step.get("call_id") or f"call_{step['index']}"
            self.messages.append(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {
                                "name": str(step["tool"]),
                                "arguments": json.dumps(
                                    step.get("sent", step["arguments"]), default=str
                                ),
                            },
                        }
                    ],
                }
            )
            self.messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "name": str(step["tool"]),
                    "content": json.dumps(step["result"], ensure_ascii=False, default=str),
                }
            )
        self.turns += 1
        self.messages.append({"role": "assistant", "content": final_text})
        self.final_text = final_text.strip()
        self._end(StopReason.AGENT_DONE if self.final_text else StopReason.EMPTY_REPLY)

    def finish(self, final_text: str) -> None:
        """End the episode on the agent's last reply, with no user turn after it: for trainers
        whose rollout ends when the model stops calling tools (TRL). An ended episode is kept."""
        if self.done:
            return
        self.turns += 1
        self.messages.append({"role": "assistant", "content": final_text})
        self.final_text = final_text.strip() or self.final_text
        self._end(StopReason.AGENT_DONE if final_text.strip() else StopReason.EMPTY_REPLY)

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The spec's tools as OpenAI function-calling schemas (a fresh copy)."""
        return copy_json(list(self._tools))

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def call_tool(self, name: Any, arguments: Any, *, call_id: str | None = None) -> dict[str, Any]:
        """Execute one tool call on its own (faults and ledger included) and return its result.

        For faces where the trainer owns the transcript (TRL's tool methods): the call goes in the
        ledger but no message is added.
        """
        return self.world.call(name, arguments, turn=self.turns, call_id=call_id)

    def step(self, action: Any, *, meta: Mapping[str, Any] | None = None) -> StepResult:
        """Play the agent's turn and return what followed it.

        ``meta`` records what the turn cost (``logprob``, ``n_tokens``, ``input_tokens``,
        ``output_tokens``, ``truncated``) when a model produced it; the row carries it per turn
        and in totals.
        """
        if self.done:
            raise EpisodeOver("this episode has ended; call reset() to play the task again")
        self.turns += 1
        if meta:
            self.turn_meta.append(
                {"turn": self.turns, **{k: v for k, v in meta.items() if v is not None}}
            )
        parsed = self._clean_action(parse_action(action, prefix=f"call_{self.turns}"))
        message = parsed.to_message()
        self.messages.append(message)
        new: list[dict[str, Any]] = [copy_json(message)]
        if parsed.content.strip():
            self.final_text = parsed.content.strip()
        if parsed.tool_calls:
            new.extend(self._run_calls(parsed))
            if self.errors > self.error_budget:
                self._end(StopReason.ERROR_BUDGET)
        else:
            reply = self.user.reply(self.messages)
            if reply is None:
                self._end(
                    StopReason.USER_CLOSED if parsed.content.strip() else StopReason.EMPTY_REPLY
                )
            else:
                user_message = {"role": "user", "content": self._clean(reply)}
                self.messages.append(user_message)
                new.append(dict(user_message))
        if not self.done and self.turns >= self.max_turns:
            self.truncated = True
            self.stop_reason = StopReason.MAX_TURNS.value
        return StepResult(new, self.terminated, self.truncated, self.info())

    def _clean_action(self, parsed: Action) -> Action:
        """The parsed turn with valid UTF-8 text in its reply, call names, ids and arguments."""
        calls = tuple(
            dataclasses.replace(
                call,
                id=self._clean(call.id),
                name=self._clean(call.name),
                arguments=self._clean(call.arguments),
            )
            for call in parsed.tool_calls
        )
        return dataclasses.replace(parsed, content=self._clean(parsed.content), tool_calls=calls)

    def _run_calls(self, parsed: Action) -> list[dict[str, Any]]:
        out = []
        for call in parsed.tool_calls:
            if call.error is not None:
                result = self._unread(call)
            else:
                result = self.world.call(
                    call.name, call.arguments, turn=self.turns, call_id=call.id
                )
            code = (
                (result.get("error") or {}).get("code") if result.get("status") == "error" else None
            )
            if call.error or not call.name or code == "unknown_tool":
                self.errors += 1
            tool_message = {
                "role": "tool",
                "tool_call_id": call.id,
                "name": call.name,
                "content": json.dumps(result, ensure_ascii=False, default=str),
            }
            self.messages.append(tool_message)
            out.append(dict(tool_message))
        return out

    def _unread(self, call: ToolCall) -> dict[str, Any]:
        """The answer to a call the parser could not read: its parse error, as the error result
        ``malformed_call``. No tool runs and no fault fires (the service never received the
        call), but it is a step of the row like any other, its arguments the text sent."""
        from whileai_env.world.context import error

        result = error("malformed_call", str(call.error))
        ledger = self.world.ledger
        known = call.name in self.spec.tool_names
        ledger.append(
            {
                "index": len(ledger),
                "tool": call.name,
                "arguments": call.arguments,
                "result": result,
                "ok": False,
                "error": "malformed_call",
                "fault": None,
                "fault_mode": None,
                "kind": self.spec.tool(call.name).kind if known else None,
                "turn": self.turns,
                "call_id": call.id,
            }
        )
        return result

    def _end(self, reason: StopReason) -> None:
        self.terminated = True
        self.stop_reason = reason.value

    def info(self) -> dict[str, Any]:
        """Public progress facts (never privileged)."""
        info = {
            "task_id": self.task.task_id,
            "scenario_id": self.task.scenario_id,
            "turn": self.turns,
            "tool_calls": len(self.world.ledger),
            "malformed_calls": self.errors,
            "faults_fired": len(self.world.faults_fired),
            "stop_reason": self.stop_reason,
        }
        if self.text_repairs:
            info["text_repairs"] = self.text_repairs
        if self.done and self.grade:
            graded = self.reward()
            info.update(
                reward=graded["reward"],
                reason=graded.get("reason"),
                markers=graded.get("markers", {}),
            )
        return info

    def row(self) -> dict[str, Any]:
        """The rollout so far as a schema-v1 row (privileged block included, for judges)."""
        return self._row(copy_json)

    def _row(self, dup: Callable[[Any], Any]) -> dict[str, Any]:
        """The row, its transcript and ledger passed through ``dup`` (``copy_json`` for a row
        handed out; the identity for the built-in checklist, which only reads, so that grading a
        long episode costs one pass over it, not a deep copy first)."""
        from whileai_env.data.rows import assemble_row

        fields: dict[str, Any] = {
            "rollout_index": self.rollout_index,
            "messages": dup(self.messages),
            "steps": dup(
                self._external_steps if self._external_steps is not None else self.world.ledger
            ),
            "final_text": self.final_text,
            "faults": dup(self.world.faults_fired),
            "truncated": self.truncated,
            "world_state": self.task.world.state,
            "tools": list(self.spec.tool_names),
            "tool_locators": _tool_locators(self.spec),
            "locator_nouns": _locator_nouns(self.spec),
            "tool_kinds": _tool_kinds(self.spec),
            **_tool_values(self.spec),
            "spec_hash": self.spec.content_hash,
            "turns": self.turns,
            "stop_reason": self.stop_reason,
        }
        if self.text_repairs:
            fields["text_repairs"] = self.text_repairs
        if self.turn_meta:
            fields["turn_meta"] = copy_json(self.turn_meta)
            fields.update(_meta_totals(self.turn_meta))
        graded = self._reward
        return assemble_row(
            self.task,
            fields,
            graded=graded,
            markers=graded["markers"] if graded else None,
            privileged={"rubric": self.spec.rubric} if self.spec.rubric else None,
        )

    def reward(self) -> dict[str, Any]:
        """Grade the episode (once): ``{"reward", "reason", "markers", "judge_name", "judge_status", ...}``.

        A truncated episode scores 0 whatever the judge says, with ``markers["not_truncated"] = 0``.
        """
        if self._reward is not None:
            return dict(self._reward)
        from whileai_env.grading.checklist import task_checklist
        from whileai_env.grading.judge import judge_name, judge_verdict, judgment_columns

        judge = self.judge or task_checklist
        row = self.row() if self.judge is not None else self._row(_same)
        graded = judgment_columns(judge_verdict(judge, row), judge_name(judge))
        if self.truncated:
            graded["markers"] = {**graded.get("markers", {}), "not_truncated": 0.0}
            graded["reward"] = 0.0
            graded["reason"] = "truncated: the episode hit max_turns before it ended"
        if self.done:
            self._reward = graded
        return dict(graded)


def _same(value: Any) -> Any:
    return value


@functools.lru_cache(maxsize=64)
def _kind_overrides(spec: Spec) -> tuple[tuple[str, str], ...]:
    from whileai_env.spec.kinds import classify_tool

    return tuple(
        (tool.name, tool.kind) for tool in spec.tools if classify_tool(tool.name) != tool.kind
    )


def _tool_kinds(spec: Spec) -> dict[str, str]:
    """The spec's kinds the checklist could not tell from the names (``run_tests`` is a read), so
    a tool nobody called is still graded by its declared kind."""
    return dict(_kind_overrides(spec))


def _tool_locators(spec: Spec) -> dict[str, list[str]]:
    """For each tool, the arguments that name an entity (what a read can look up)."""
    return {name: list(args) for name, args in _locators_of(spec)}


def _locator_nouns(spec: Spec) -> dict[str, dict[str, str]]:
    """For each tool, the thing each of its locators names in the world: ``update-product``'s
    bare ``id`` and ``get-product-by-id``'s ``productId`` both name a product, so the checklist
    knows the read shows the write's record though the arguments are named apart."""
    return {tool: dict(nouns) for tool, nouns in _nouns_of(spec)}


@functools.lru_cache(maxsize=64)
def _nouns_of(spec: Spec) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    from whileai_env.world.profile import profile_for

    tools = profile_for(spec).tools
    return tuple(
        (name, tuple((arg, tools[name].nouns[arg]) for arg in args if arg in tools[name].nouns))
        for name, args in _locators_of(spec)
        if name in tools
    )


def _tool_values(spec: Spec) -> dict[str, Any]:
    """``{"tool_values": {tool: {locator: values}}}``: the literal values each tool's schema
    offers for a locator argument (``'primary'`` for a calendar), which the grader counts as
    grounded; empty (no field) when no tool documents one."""
    values = _values_of(spec)
    return {"tool_values": copy_json(values)} if values else {}


@functools.lru_cache(maxsize=64)
def _values_of(spec: Spec) -> dict[str, dict[str, list[str]]]:
    from whileai_env.spec.arguments import documented_values

    out: dict[str, dict[str, list[str]]] = {}
    for tool, locators in _locators_of(spec):
        props = spec.tool(tool).properties
        found = {n: list(documented_values(props.get(n))) for n in locators}
        found = {n: v for n, v in found.items() if v}
        if found:
            out[tool] = found
    return out


@functools.lru_cache(maxsize=64)
def _locators_of(spec: Spec) -> tuple[tuple[str, tuple[str, ...]], ...]:
    from whileai_env.spec.arguments import argument_role

    return tuple(
        (
            tool.name,
            tuple(
                n for n, schema in tool.properties.items() if argument_role(n, schema) == "locator"
            ),
        )
        for tool in spec.tools
    )


@functools.lru_cache(maxsize=64)
def _openai_tools(spec: Spec) -> tuple[dict[str, Any], ...]:
    """The spec's tools in OpenAI shape, built once per spec (``Episode.tools`` hands out copies)."""
    return tuple(spec.openai_tools())


def _meta_totals(turns: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    logprobs = [t["logprob"] for t in turns if isinstance(t.get("logprob"), int | float)]
    if logprobs:
        out["logprob"] = math.fsum(logprobs)
        out["n_tokens"] = sum(int(t.get("n_tokens") or 0) for t in turns)
    usage = {k: sum(int(t.get(k) or 0) for t in turns) for k in ("input_tokens", "output_tokens")}
    if any(usage.values()):
        out["usage"] = usage
    return out


def _reported_step(index: int, step: Any, spec: Spec) -> dict[str, Any]:
    if not isinstance(step, Mapping):
        raise ValueError(f"steps[{index}] must be an object with tool, arguments and result")
    name = step.get("tool", step.get("name"))
    if not isinstance(name, str) or not name:
        raise ValueError(f"steps[{index}] has no 'tool' name")
    arguments = step.get("arguments", {})
    if not isinstance(
        arguments, Mapping | list | str | None
    ):  # a number, a set …: kept as its text
        arguments = repr(arguments)
    result = step.get("result", {})
    if not isinstance(result, Mapping):
        result = {"status": "ok", "result": result}
    status = result.get("status")
    error = result.get("error")
    code = (
        error.get("code")
        if isinstance(error, Mapping)
        else (error if isinstance(error, str) else None)
    )
    ok = status not in ("error", "failed") and not error
    result = dict(result)
    if status not in (
        "ok",
        "error",
    ):  # the row's schema knows two statuses: keep the agent's word beside them
        result["status"] = "ok" if ok else "error"
        if status is not None:
            result["reported_status"] = status
    tool = spec.tool(name) if name in spec.tool_names else None
    fields = tool.fields_of(arguments) if tool is not None else arguments
    out = {
        "index": index,
        "tool": name,
        "arguments": fields,
        "result": result,
        "ok": ok,
        "error": None if ok else (code or "error"),
        "fault": None,
        "fault_mode": None,
        "kind": tool.kind if tool is not None else None,
        "turn": index + 1,
        "call_id": str(step.get("call_id") or f"call_{index}"),
        "reported": True,
    }
    if fields is not arguments:
        out["sent"] = arguments
    return out
