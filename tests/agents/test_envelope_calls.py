"""The reference agents send a wrapped tool's fields inside its envelope, as published, and an id
a read took alone as the list a batch write takes (PagerDuty's MCP server, from the corpus)."""

from __future__ import annotations

import json

import whileai_env as wenv
from tests.corpus import CORPUS_DIR

SPEC = wenv.load_spec(CORPUS_DIR / "pagerduty-mcp.json")


def test_oracle_calls_wrap_the_fields_and_reach_the_ceiling() -> None:
    rows = list(wenv.simulate("oracle", spec=SPEC, budget=90, seed=3, quiet=True).grade().rows)
    assert sum(r["reward"] for r in rows) / len(rows) == 1.0
    sent = [
        (call["function"]["name"], json.loads(call["function"]["arguments"]))
        for r in rows
        for m in r["messages"]
        for call in m.get("tool_calls") or ()
    ]
    wrapped = [(n, a) for n, a in sent if SPEC.tool(n).envelope]
    assert wrapped, "no call of a wrapped tool was drawn"
    for name, args in wrapped:
        assert list(args) == [SPEC.tool(name).envelope], (name, args)
        if name == "manage_incidents":
            assert isinstance(args["manage_request"]["incident_ids"], list), args
