"""Scripted judge answers: a real chat-completions server on 127.0.0.1 (the ``serve`` fixture), rows to grade."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from whileai_env.serving.chat_server import ChatServer

RUBRIC = "# Cancelling\n- Looks up the order before changing it.\n- Never cancels a shipped order."


def shown(request: Mapping[str, Any]) -> str:
    """What the judge was shown: the request's user message."""
    return next(m["content"] for m in request["messages"] if m["role"] == "user")


def criteria_answer(*met: bool, reason: str = "checked") -> dict[str, str]:
    """A scripted rubric verdict: criterion i met when ``met[i]``."""
    entries = [{"id": i, "met": ok, "reason": "r"} for i, ok in enumerate(met, 1)]
    return {"content": json.dumps({"criteria": entries, "reason": reason})}


def row(text: str, *, prompt: str = "Cancel order 7", **extra: Any) -> dict[str, Any]:
    """A small row with one lookup, then ``text`` as the agent's reply."""
    messages = [
        {"role": "system", "content": "You are the shop's assistant."},
        {"role": "user", "content": prompt},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_order", "arguments": '{"order_id": "7"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "name": "get_order", "content": '{"status": "ok"}'},
        {"role": "assistant", "content": text},
    ]
    return {"prompt": prompt, "final_text": text, "messages": messages, **extra}


def serving() -> Iterator[Callable[[Callable[[dict[str, Any]], Mapping[str, Any]]], ChatServer]]:
    """The body of a ``serve`` fixture: start a ChatServer on a script; each is closed after."""
    started: list[ChatServer] = []

    def start(script: Callable[[dict[str, Any]], Mapping[str, Any]]) -> ChatServer:
        server = ChatServer(script).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


def spec_of(server: ChatServer) -> str:
    """The ``vllm:MODEL@URL`` spec naming ``server``."""
    return f"vllm:judge@{server.base_url}"
