"""Computation tools with no expression (``add(a, b)``, ``power``, ``round_number``): exact where
they can be, and bounded on any operands, so a hostile call is answered, never a hang."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.world.calculator import CalculatorError
from whileai_env.world.compute import compute

BIG = 2**333 - 1  # the largest integer an action's JSON may carry (bounded_json.MAX_INT_BITS)


@pytest.mark.parametrize(
    ("name", "numbers"),
    [
        ("power", [BIG, BIG]),  # an exact integer power: it never finished
        ("power", [10, 10**99]),
        ("multiply", [BIG] * 64),  # 21,000 bits: no JSON float holds it
        ("power", [-8, 0.5]),  # a complex root
    ],
)
def test_hostile_operands_are_refused_at_once(name, numbers):
    started = time.process_time()
    with pytest.raises(CalculatorError):
        compute(name, "", numbers, [])
    assert time.process_time() - started < 0.5


@pytest.mark.parametrize(
    ("name", "numbers", "value"),
    [
        ("power", [2, 10], 1024),
        ("round_number", [3.14159, 2], 3.14),
        ("round_number", [1234, -(10**99)], 0),  # round(int, -huge) computed 10**huge
        ("add", [0.1, 0.2], 0.30000000000000004),
        ("multiply", [3, 4, 5], 60),
    ],
)
def test_ordinary_operands(name, numbers, value):
    assert compute(name, "", numbers, []) == value


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["power", "round_number", "multiply", "subtract", "square", "factorial"]),
    st.lists(st.integers(min_value=-BIG, max_value=BIG), min_size=1, max_size=8),
)
def test_any_integers_answer_or_refuse_quickly(name, numbers):
    started = time.process_time()
    try:
        value = compute(name, "", numbers, [])
    except CalculatorError:
        value = None
    assert time.process_time() - started < 0.5
    assert value is None or abs(value) <= 1e300


def test_a_hostile_power_call_is_an_observation():
    spec = wenv.load_spec(
        tools=[
            {
                "name": "power",
                "description": "Raise a number to a power.",
                "parameters": {
                    "type": "object",
                    "properties": {"base": {"type": "integer"}, "exponent": {"type": "integer"}},
                    "required": ["base", "exponent"],
                },
            }
        ]
    )
    episode = wenv.Episode(spec, wenv.draw_tasks(spec, 1, seed=0, fault_rate=0)[0])
    started = time.process_time()
    step = episode.step(
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"function": {"name": "power", "arguments": {"base": BIG, "exponent": BIG}}}
            ],
        }
    )
    assert time.process_time() - started < 0.5
    assert '"rejected"' in step.messages[-1]["content"]
