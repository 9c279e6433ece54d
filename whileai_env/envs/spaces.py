"""Gymnasium spaces for conversations: free text, agent actions and message lists.

``gymnasium.spaces.Text`` only contains strings drawn from its charset (alphanumeric by
default), so a transcript with JSON, accents or emoji would fail ``contains``. These spaces
contain any string (or message list) and sample from a broad charset, so ``check_env`` passes
and ``action_space.sample()`` doubles as a fuzzer.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

_CHARSET = (
    string.ascii_letters
    + string.digits
    + string.punctuation
    + " \n\t"
    + "áéíóúñüçßøåæœ€£¥—–…“”‘’«»°±×÷→←✓✗😀🙂👍🔥"
)
ROLES = frozenset({"system", "user", "assistant", "tool"})


@functools.cache
def _charset_tables() -> dict[str, Any]:
    """The lookup tables ``spaces.Text`` builds from ``_CHARSET`` (a set, a tuple, an index and
    a string; about 16 KB), built once and shared by every space here: they never change, and
    each env holds an action space of its own."""
    built = spaces.Text(max_length=1, charset=_CHARSET)
    return {k: v for k, v in vars(built).items() if k.startswith("_char")}


class AnyText(spaces.Text):
    """A text space containing every ``str`` of ``min_length``..``max_length`` characters."""

    def __init__(
        self, max_length: int = 1_000_000, *, min_length: int = 0, seed: Any = None
    ) -> None:
        super().__init__(max_length=max_length, min_length=min_length, charset=_CHARSET, seed=seed)
        vars(self).update(_charset_tables())

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.min_length == self.min_length
            and other.max_length == self.max_length
        )


class AgentAction(AnyText):
    """An agent turn: model text (tool calls inline), its JSON, or an OpenAI assistant message dict."""

    def contains(self, x: Any) -> bool:
        if isinstance(x, Mapping):
            return x.get("role", "assistant") == "assistant"
        return super().contains(x)

    def __repr__(self) -> str:
        return f"AgentAction({self.max_length})"


class MessageList(spaces.Space[list]):
    """A list of OpenAI chat messages (dicts with a ``role`` and a ``content`` or ``tool_calls``)."""

    def __init__(self, seed: Any = None) -> None:
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        if not isinstance(x, list):
            return False
        for message in x:
            if not isinstance(message, Mapping) or message.get("role") not in ROLES:
                return False
            content = message.get("content")
            if content is not None and not isinstance(content, str):
                return False
        return True

    def sample(self, mask: Any = None, probability: Any = None) -> list[dict[str, Any]]:
        n = int(self.np_random.integers(1, 5))
        roles = ["system", "user", "assistant", "user"]
        out = []
        for i in range(n):
            length = int(self.np_random.integers(0, 40))
            text = "".join(self.np_random.choice(list(_CHARSET), size=length)) if length else ""
            out.append({"role": roles[i], "content": text})
        return out

    def __repr__(self) -> str:
        return "MessageList()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MessageList)

    def to_jsonable(self, sample_n: Any) -> list:
        return list(sample_n)

    def from_jsonable(self, sample_n: list) -> list:
        return list(sample_n)


def empty_like(space: spaces.Space) -> Any:
    """A neutral observation of ``space`` (used after an episode has ended)."""
    return [] if isinstance(space, MessageList) else np.str_("")
