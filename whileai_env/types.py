"""The shapes a user plugs in: judges, agents and step policies, users, ``execute`` and fault kinds.

Each is a :class:`typing.Protocol`, so any function or object of the right shape fits; nothing
needs to subclass anything. The package's own signatures use these names instead of ``Any``.

>>> from whileai_env.types import Judge
>>> def length_judge(row: dict) -> float:
...     return float(len(row.get("final_text", "")) < 400)
>>> isinstance(length_judge, Judge)
True
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, runtime_checkable

#: A chat message in OpenAI's shape: ``{"role": ..., "content": ..., "tool_calls"?: ...}``.
Message: TypeAlias = dict[str, Any]
#: A row, schema v1 (see ``docs/rows.md``).
Row: TypeAlias = dict[str, Any]
#: What a judge may return: a number, or ``{"reward", "reason"?, "markers"?, ...}``.
RawVerdict: TypeAlias = "float | int | bool | Mapping[str, Any]"


@runtime_checkable
class Judge(Protocol):
    """``judge(row)``: a reward for a row, under the judge contract (``docs/judging.md``);
    may be ``async``."""

    def __call__(self, row: Row, /) -> RawVerdict | Awaitable[RawVerdict]: ...


@runtime_checkable
class StepPolicy(Protocol):
    """``policy(observation) -> action``: one assistant turn for the conversation so far; the
    action is a message dict, a string (tool calls as ``<tool_call>{...}</tool_call>``) or a
    list of tool calls."""

    def __call__(self, observation: list[Message], /) -> Message | str | Sequence[Any]: ...


@runtime_checkable
class Agent(Protocol):
    """``agent(message) -> {"steps", "final_text"}``: an agent that runs its own loop; its tool
    calls reach the current rollout's world through :func:`whileai_env.world`."""

    def __call__(self, message: str, /) -> Mapping[str, Any]: ...


@runtime_checkable
class User(Protocol):
    """The person on the other side: the next user message for the transcript so far, or
    ``None`` when they are done. ``opener()`` is optional (the task's opener otherwise)."""

    def reply(self, messages: Sequence[Mapping[str, Any]], /) -> str | None: ...


@runtime_checkable
class Execute(Protocol):
    """``execute(tool_name, arguments)``: answer a tool call from your own code instead of the
    mock; scheduled faults still fire first."""

    def __call__(self, tool: str, arguments: dict[str, Any], /) -> Any: ...


@runtime_checkable
class FaultBuilder(Protocol):
    """``builder(tool, arguments, fresh, params, key) -> result``: what a call looks like when a
    fault of this kind fires (``fresh`` is the real result, for payload kinds)."""

    def __call__(
        self,
        tool: Any,
        arguments: dict[str, Any],
        fresh: dict[str, Any] | None,
        params: Mapping[str, Any],
        key: str,
        /,
    ) -> dict[str, Any]: ...


__all__ = [
    "Agent",
    "Execute",
    "FaultBuilder",
    "Judge",
    "Message",
    "RawVerdict",
    "Row",
    "StepPolicy",
    "User",
]
