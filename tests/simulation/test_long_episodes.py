"""Grading cost is linear in transcript length (issue 13): the final graded step of a 2,048-turn
Gymnasium episode no longer re-scans every earlier call for every call."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.envs.gym import AgentEnv
from whileai_env.grading.conduct import _no_repeat_done_write
from whileai_env.grading.trajectory import Trajectory

from ..conftest import SPECS_DIR

SPEC = wenv.load_spec(SPECS_DIR / "order-support.json")


def _final_step_cpu(env: AgentEnv, turns: int) -> float:
    """CPU seconds of the last step of an episode of ``turns`` identical tool calls (the worst case:
    every call repeats every earlier one)."""
    env.reset(seed=0)
    call = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {"name": "get_order", "arguments": '{"order_id": "A1"}'},
            }
        ],
    }
    for _ in range(turns - 1):
        env.step(call)
    start = time.process_time()
    *_, truncated, info = env.step(call)
    assert truncated and "reward" in info
    return time.process_time() - start


def test_the_final_step_grows_linearly_with_the_episode():
    env = AgentEnv(
        spec=SPEC, tasks=wenv.draw_tasks(SPEC, 2, seed=0), max_turns=2048, error_budget=10_000
    )
    env_short = AgentEnv(
        spec=SPEC, tasks=wenv.draw_tasks(SPEC, 2, seed=0), max_turns=256, error_budget=10_000
    )
    _final_step_cpu(env_short, 256)  # caches warm
    short = min(_final_step_cpu(env_short, 256) for _ in range(3))
    long = min(_final_step_cpu(env, 2048) for _ in range(2))
    # 8x the turns: linear grading costs ~8x, the pairwise scan it replaced ~64x
    assert long < 20 * short + 0.01, (short, long)


def _pairwise(t: Trajectory):
    """The check as it was written before: every repeat against every earlier identical call."""
    for later, same in t.repeats():
        if later.kind in ("create", "update", "delete"):
            for earlier in same:
                if earlier.succeeded or earlier.error == "already_done":
                    return later.index, earlier.index
    return None


_CALL = st.fixed_dictionaries(
    {
        "tool": st.sampled_from(["update_order", "get_order"]),
        "arguments": st.sampled_from([{}, {"id": 1}, {"id": 1.0}, {"id": [1]}, {"id": "1"}]),
        "error": st.sampled_from([None, None, "already_done", "not_found"]),
    }
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(_CALL, max_size=12))
def test_the_linear_repeat_check_finds_what_the_pairwise_one_did(calls):
    steps = [
        {
            "index": i,
            "tool": c["tool"],
            "arguments": c["arguments"],
            "error": c["error"],
            "ok": c["error"] is None,
            "kind": "update" if c["tool"] == "update_order" else "read",
            "result": {"status": "ok"}
            if c["error"] is None
            else {"status": "error", "error": {"code": c["error"]}},
        }
        for i, c in enumerate(calls)
    ]
    t = Trajectory({"steps": steps, "messages": [], "final_text": ""})
    found = _no_repeat_done_write(t)
    expected = _pairwise(t)
    assert (
        (found.evidence["step"], found.evidence["earlier"]) == expected
        if found
        else expected is None
    )
