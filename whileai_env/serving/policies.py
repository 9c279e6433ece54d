"""The script ``whileai-env serve`` answers with: a policy playing the task the conversation is on.

``oracle``, ``seeded`` and ``silent`` are the reference agents; a model spec
(``vllm:MODEL@URL``, ``openai:MODEL``, ``hf:PATH``: what :func:`~whileai_env.agents.models.make_policy`
reads) forwards the turn to that model. The task is found from the conversation: its first user message is a task's
opener. A reference agent is built afresh for every request and started on that task (rollout
index 0), so concurrent conversations never share its state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from whileai_env.agents.reference import make_reference_agent
from whileai_env.scenarios.task import Task
from whileai_env.serving.chat_server import Script
from whileai_env.spec.load import Spec

REFERENCE = ("oracle", "seeded", "silent")


def policy_script(policy: str, spec: Spec, tasks: Sequence[Task]) -> Script:
    """The chat server's script for ``policy`` over ``tasks``."""
    if policy in REFERENCE:
        return _reference_script(policy, spec, tasks)
    from whileai_env.agents.models import make_policy

    model = make_policy(policy)

    def forward(request: dict[str, Any]) -> Mapping[str, Any]:
        return _reply(model(request["messages"], request.get("tools") or []).message)

    return forward


def _reference_script(name: str, spec: Spec, tasks: Sequence[Task]) -> Script:
    by_opener = {t.opener: t for t in tasks}

    def play(request: dict[str, Any]) -> Mapping[str, Any]:
        messages = request["messages"]
        opener = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), None)
        task = by_opener.get(opener or "")
        if task is None:
            return {
                "status": 404,
                "error": "no task of this server opens with the conversation's first user message",
            }
        agent = make_reference_agent(name, spec)
        agent.start(task)
        return _reply(agent([_plain(m) for m in messages]))

    return play


def _reply(message: Mapping[str, Any]) -> dict[str, Any]:
    """An assistant message as the chat server's reply (text and tool calls)."""
    calls = [
        {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}
        for c in message.get("tool_calls") or []
    ]
    return {"content": _text(message.get("content")), "tool_calls": calls}


def _plain(message: Mapping[str, Any]) -> dict[str, Any]:
    """A request message with its content as text (some clients send content parts)."""
    return {**message, "content": _text(message.get("content"))}


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    if content is None or isinstance(content, str):
        return content or ""
    return json.dumps(content)
