"""Fixtures for the agent tests: the chat server factory and a few hand-built tasks."""

from __future__ import annotations

import pytest

import whileai_env as wenv
from tests.support.fixtures import chat_server  # noqa: F401  (the fixture, re-exported)
from whileai_env.scenarios.grid import Cell

ORDINARY = {
    "tool": "get_order",
    "rule": "none",
    "world_state": "exists",
    "condition": "success",
    "history": "fresh",
    "stance": "ordinary",
    "ask": "tool",
    "persona": "returning",
    "tone": "neutral",
    "texture": "standard",
}


@pytest.fixture
def make_cell_task(order_spec: wenv.Spec):
    """``make_cell_task(**axes) -> Task``: the ordinary get_order cell with ``axes`` changed, no faults."""

    def make(**axes: str) -> wenv.Task:
        return wenv.make_task(Cell(**{**ORDINARY, **axes}), order_spec, seed=3, fault_rate=0)

    return make
