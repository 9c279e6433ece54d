"""Which rollout a callable agent's tool calls belong to.

A callable agent (``agent(message) -> {"steps", "final_text"}``) calls tools through a world it
made itself with :func:`whileai_env.world`. While ``simulate`` plays a rollout it binds that
rollout's world here, and such a world forwards its calls to it, so the scheduled faults fire
and the calls land in the rollout's ledger. A context variable keeps concurrent rollouts on
different threads apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_ACTIVE: ContextVar[Any] = ContextVar("whileai_active_world", default=None)


def active_world() -> Any:
    """The world of the rollout being played on this thread or task, or ``None``."""
    return _ACTIVE.get()


@contextmanager
def bound(world: Any) -> Iterator[Any]:
    """Route calls of follower worlds to ``world`` for the duration of the block."""
    token = _ACTIVE.set(world)
    try:
        yield world
    finally:
        _ACTIVE.reset(token)
