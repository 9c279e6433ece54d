"""The agent's tool surface drafted from the calls its traces contain.

Mechanical, no model. Every argument key seen for a tool becomes a property, its JSON type read
off the observed values (several types become a type list), and a key present on every call
becomes required. A drafted schema can only describe the arguments the traces happened to
exercise: it is a starting point to edit, not a spec to trust. The policy cannot be read off
calls (most exporters do not ship system prompts), so :func:`infer_harness` leaves it empty.

>>> tools = tools_from_traces([{"steps": [
...     {"tool": "get_order", "arguments": {"order_id": "4412"}},
...     {"tool": "get_order", "arguments": {"order_id": "9", "verbose": True}}]}])
>>> tools[0]["function"]["parameters"]["required"], tools[0]["function"]["parameters"]["properties"]
(['order_id'], {'order_id': {'type': 'string'}, 'verbose': {'type': 'boolean'}})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env.traces.load import load_traces
from whileai_env.traces.mining import steps_of
from whileai_env.world.validation import json_type


class _Observed:
    """One tool's calls as seen: how many, and for each argument its types and count."""

    def __init__(self) -> None:
        self.calls = 0
        self.arguments: dict[str, list[str]] = {}
        self.counts: dict[str, int] = {}

    def add(self, arguments: Mapping[str, Any]) -> None:
        self.calls += 1
        for key, value in arguments.items():
            types = self.arguments.setdefault(str(key), [])
            kind = json_type(value)
            if kind not in types:
                types.append(kind)
            self.counts[str(key)] = self.counts.get(str(key), 0) + 1

    def schema(self) -> dict[str, Any]:
        properties = {}
        for key, types in self.arguments.items():
            numeric = {"integer", "number"} <= set(types)
            kinds = [t for t in types if not (numeric and t == "integer")]
            properties[key] = {"type": kinds[0] if len(kinds) == 1 else kinds}
        required = [k for k in self.arguments if self.counts[k] == self.calls]
        return {"type": "object", "properties": properties, "required": required}


class ToolDraft:
    """The tool surface drafted from trace rows added one at a time (what
    :func:`tools_from_traces` returns, for a file read without holding its rows)."""

    def __init__(self) -> None:
        self.observed: dict[str, _Observed] = {}

    def add(self, row: Mapping[str, Any]) -> None:
        """Note the calls of one trace row."""
        for step in steps_of(row):
            name = step.get("tool")
            if not isinstance(name, str) or not name:
                continue
            arguments = step.get("arguments")
            self.observed.setdefault(name, _Observed()).add(
                arguments if isinstance(arguments, Mapping) else {}
            )

    def tools(self) -> list[dict[str, Any]]:
        """OpenAI function-calling tool specs, one per tool called, in first-seen order."""
        return [
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": f"Drafted from {seen.calls} observed call"
                    + ("s" if seen.calls != 1 else "")
                    + " in traces; edit before trusting it.",
                    "parameters": seen.schema(),
                },
            }
            for name, seen in self.observed.items()
        ]


def tools_from_traces(traces: Any) -> list[dict[str, Any]]:
    """OpenAI function-calling tool specs, one per tool the traces call, in first-seen order.
    Argument names are unioned across every call of a tool."""
    draft = ToolDraft()
    for row in _rows(traces):
        draft.add(row)
    return draft.tools()


def infer_harness(traces: Any) -> dict[str, Any]:
    """A draft harness from trace rows: ``{"tools": [...], "system_prompt": ""}`` (the policy is
    left for the caller to fill in: calls do not show it)."""
    return {"tools": tools_from_traces(traces), "system_prompt": ""}


def _rows(traces: Any) -> Iterable[Mapping[str, Any]]:
    if isinstance(traces, Sequence) and not isinstance(traces, str):
        return [r for r in traces if isinstance(r, Mapping)]
    return load_traces(traces)
