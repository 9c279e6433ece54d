"""One v1 harness segment played into the episode, with no verifiers import.

A segment is what the harness produced between two user turns: assistant messages (the model's)
and the tool results the per-rollout MCP server answered. Each assistant message goes to
:meth:`Episode.step` in order, which runs its calls on the episode's own world with the
transcript's call ids. The world answers a call from the task and the calls before it, so the
replay reproduces the server's answers; the ones it does not (an ``execute`` that answers
differently twice, a call the harness refused before it reached the server) are counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from whileai_env.envs.verifiers.common import assistant_dict
from whileai_env.episode.engine import Episode


def play_segment(episode: Episode, messages: Sequence[Any]) -> tuple[str | None, int]:
    """Step ``episode`` through the segment's assistant turns; return the simulated user's reply
    to the last one (``None`` when the episode ended or the segment ended on tool calls) and how
    many tool results the replay answered differently from the tool server."""
    served = [_content(m) for m in messages if getattr(m, "role", None) == "tool"]
    replayed: list[str] = []
    reply: str | None = None
    for message in messages:
        if getattr(message, "role", None) != "assistant" or episode.done:
            continue
        result = episode.step(assistant_dict(message))
        replayed.extend(m["content"] for m in result.messages if m["role"] == "tool")
        users = [m["content"] for m in result.messages if m["role"] == "user"]
        reply = users[-1] if users else None
    # Calls after the episode ended (its turn cap) were served but not replayed: not counted.
    return reply, sum(a != b for a, b in zip(served, replayed, strict=False))


def _content(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, list):
        return "".join(str(getattr(p, "text", "")) for p in content)
    return str(content or "")
