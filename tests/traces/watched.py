"""Traces that watch whether a reader holds them: for the bounded-memory tests."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator


class _Messages(list):
    """A trace's messages, weak-referenceable: a live one is a trace its reader still holds."""


def traces_watched(count: int, tool: str, alive: list[int]) -> Iterator[dict]:
    """``count`` traces whose ``tool`` call timed out; before each one, ``alive`` records how
    many of the earlier traces are still held."""
    refs: list[weakref.ref] = []
    for i in range(count):
        gc.collect()
        alive.append(sum(ref() is not None for ref in refs))
        messages = _Messages([{"role": "user", "content": f"please look up record {i} for me"}])
        refs.append(weakref.ref(messages))
        yield {"messages": messages, "steps": [{"tool": tool, "error": "timeout"}]}
