"""``simulate_from_traces``: a run for callers who start from the traces.

The same as ``simulate(agent, traces=...)`` (the same aim, the same leakage gate). With no
``spec=`` and no ``tools=`` the tool surface is drafted from the traces'
calls (:func:`~whileai_env.traces.tools.tools_from_traces`), so graded telemetry alone is enough
to start; with no agent, the ``seeded`` reference agent plays (honest through the world, one
labelled mistake on a share of rollouts), which gives a grader something to score.

>>> traces = [{"prompt": "where is order 4412",
...            "steps": [{"tool": "get_order", "arguments": {"order_id": "4412"},
...                       "result": {"error": "timeout"}}], "reward": 0}]
>>> data = simulate_from_traces(traces, mode="explore", budget=6, quiet=True)
>>> len(data.rows), data.search["traces"]["emphasis"]["condition"]
(6, ['timeout'])
"""

from __future__ import annotations

from typing import Any

from whileai_env.errors import TraceError
from whileai_env.simulation.data import SimulationData
from whileai_env.simulation.run import simulate
from whileai_env.traces.load import load_traces
from whileai_env.traces.tools import tools_from_traces


def simulate_from_traces(
    traces: Any,
    agent: Any = None,
    tools: list[dict] | None = None,
    policy: str = "",
    mode: str = "rl",
    **kwargs: Any,
) -> SimulationData:
    """``simulate(agent, tools=..., system_prompt=policy, traces=traces, mode=mode, **kwargs)``,
    with the tool surface read off the traces when neither ``spec=`` nor ``tools=`` is given."""
    rows = load_traces(traces)
    if tools is None and kwargs.get("spec") is None:
        tools = tools_from_traces(rows)
        if not tools:
            raise TraceError(
                "the traces call no tool, so no tool surface can be read off them; pass tools= or spec="
            )
    if tools is not None:
        kwargs.setdefault("system_prompt", policy)
    return simulate(
        "seeded" if agent is None else agent, tools=tools, traces=rows, mode=mode, **kwargs
    )
