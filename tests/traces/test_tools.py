"""tools_from_traces / infer_harness: a tool surface drafted from observed calls."""

from __future__ import annotations

from whileai_env.spec.load import load_spec
from whileai_env.traces.tools import infer_harness, tools_from_traces

TRACES = [
    {
        "prompt": "a",
        "steps": [
            {"tool": "search_flights", "arguments": {"origin": "SFO", "max_stops": 1}},
            {"tool": "book", "arguments": {"flight_id": "F1", "seats": 2}},
        ],
    },
    {
        "prompt": "b",
        "steps": [
            {
                "tool": "search_flights",
                "arguments": {"origin": "JFK", "max_stops": 1.5, "cabin": None},
            },
            {"tool": "", "arguments": {}},
        ],
    },
]


def test_arguments_are_unioned_typed_and_required_when_always_present():
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in tools_from_traces(TRACES)}
    assert list(tools) == ["search_flights", "book"]
    search = tools["search_flights"]
    assert search["required"] == ["origin", "max_stops"]
    assert search["properties"] == {
        "origin": {"type": "string"},
        "max_stops": {"type": "number"},
        "cabin": {"type": "null"},
    }
    assert tools["book"]["properties"]["seats"] == {"type": "integer"}


def test_drafted_tools_load_as_a_spec_and_the_policy_is_left_empty():
    harness = infer_harness(TRACES)
    assert harness["system_prompt"] == ""
    spec = load_spec(tools=harness["tools"])
    assert spec.tool_names == ("search_flights", "book")


def test_a_jsonl_path_works_like_the_list(tmp_path):
    import json

    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(t) for t in TRACES))
    assert tools_from_traces(path) == tools_from_traces(TRACES)
