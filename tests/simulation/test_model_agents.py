import importlib.util
import json
import re

import pytest

from whileai_env.errors import MissingExtraError
from whileai_env.simulation import simulate

from ..conftest import SPECS_DIR

ORDER = SPECS_DIR / "order-support.json"
_ID = re.compile(r"\b(\d{4,7})\b")


def _policy_script(request):
    """A scripted agent: look up the order the person named, then report; ask when none was named."""
    messages = request["messages"]
    last = messages[-1]
    if last["role"] == "tool":
        result = json.loads(last["content"])
        if result.get("status") == "ok":
            text = f"Order {result.get('order_id', '')} is {result.get('status_detail', result.get('order_status', 'on file'))}."
        else:
            text = "The lookup failed, so I could not confirm the order."
        return {
            "content": text,
            "logprobs": [("Order", -0.5), (" done", -0.25)],
            "usage": {"prompt_tokens": 50, "completion_tokens": 2},
        }
    match = _ID.search(last.get("content") or "")
    if last["role"] == "user" and match:
        return {
            "tool_calls": [{"name": "get_order", "arguments": {"order_id": match.group(1)}}],
            "logprobs": [("call", -1.0)],
            "usage": {"prompt_tokens": 40, "completion_tokens": 1},
        }
    return {
        "content": "Which order is this about? Could you tell me the order number?",
        "logprobs": [("Which", -0.1)],
        "usage": {"prompt_tokens": 30, "completion_tokens": 1},
    }


def test_openai_agent_against_a_real_http_server(chat_server, monkeypatch):
    server = chat_server(_policy_script)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    data = simulate(
        "openai:test-model", spec=ORDER, budget=12, logprobs=True, fault_rate=0.0, quiet=True
    )
    assert len(data.rows) == 12 and data.stopped_because == "budget"
    called = [r for r in data.rows if r["steps"]]
    assert called and all(s["tool"] == "get_order" for r in called for s in r["steps"])
    assert all(r["n_tokens"] >= 1 and r["logprob"] < 0 for r in data.rows)
    for row in data.rows:
        assert row["logprob"] == pytest.approx(sum(t["logprob"] for t in row["turn_meta"]))
        assert row["usage"]["input_tokens"] == sum(t["input_tokens"] for t in row["turn_meta"])
    first = server.requests[0]
    assert first["model"] == "test-model" and first["logprobs"] is True
    assert {t["function"]["name"] for t in first["tools"]} >= {"get_order", "cancel_order"}
    assert first["messages"][0]["role"] == "system"
    followups = [r for r in server.requests if r["messages"][-1]["role"] == "tool"]
    assert followups and all(
        m.get("tool_call_id") for r in followups for m in r["messages"] if m["role"] == "tool"
    )


def test_vllm_spec_and_concurrency(chat_server):
    server = chat_server(_policy_script)
    data = simulate(
        f"vllm:test-model@{server.base_url}", spec=ORDER, budget=10, concurrency=4, quiet=True
    )
    assert len(data.rows) == 10
    assert len(server.requests) >= 10


def test_dead_endpoint_is_called_off(chat_server):
    server = chat_server(lambda request: {"status": 500, "error": "boom"})
    data = simulate(
        f"vllm:test-model@{server.base_url}", spec=ORDER, budget=3, concurrency=2, quiet=True
    )
    assert data.stopped_because == "agent_failed" and data.search["agent_errors"] >= 16


def test_model_writes_openers(chat_server):
    writer = chat_server(
        lambda request: {"content": "hey, I need a hand with something on my account"}
    )
    data = simulate(
        "oracle", spec=ORDER, budget=8, simulator=f"vllm:writer@{writer.base_url}", quiet=True
    )
    assert len(writer.requests) >= 8
    for row in data.trajectories:
        # the model's words, through the task's texture (a typo texture may drop a short word)
        assert "hand with something on my account" in row["prompt"].lower()
        if row["world"]["withheld"]:
            continue
        for value in row["world"]["entities"].values():
            assert str(value) in row["prompt"]


def test_hf_agent_runs_a_local_model_or_names_the_extra(tmp_path):
    have = all(importlib.util.find_spec(m) for m in ("torch", "transformers", "tokenizers"))
    if not have:
        with pytest.raises(MissingExtraError, match=r"whileai-env\[train\]"):
            simulate(f"hf:{tmp_path}", spec=ORDER, budget=2, quiet=True)
        return
    from tests.support.tiny_model import build_tiny_model

    path = build_tiny_model(tmp_path / "tiny")
    data = simulate(f"hf:{path}", spec=ORDER, budget=2, max_turns=2, logprobs=True, quiet=True)
    assert len(data.rows) == 2
    assert all(r["n_tokens"] > 0 for r in data.rows)
