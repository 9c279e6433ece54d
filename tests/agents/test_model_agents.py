"""Model-backed agents against a real OpenAI-compatible HTTP server on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import json
import sys

import openai
import pytest

import whileai_env as wenv
from tests.support import sequence
from whileai_env._util.frozen import freeze
from whileai_env.agents import (
    ModelOpenerWriter,
    ModelSpec,
    OpenAIPolicy,
    TurnOutput,
    make_policy,
    parse_model_spec,
)
from whileai_env.episode.actions import parse_action
from whileai_env.episode.user import ModelUser
from whileai_env.errors import MissingExtraError

USER = [
    {"role": "system", "content": "You are a support agent."},
    {"role": "user", "content": "Can you check order 4412?"},
]
GET_ORDER = {"name": "get_order", "arguments": {"order_id": "4412"}}


def _policy(server, **kw) -> OpenAIPolicy:
    kw.setdefault("max_retries", 0)
    return OpenAIPolicy("agent-model", base_url=server.base_url, api_key="test", **kw)


# --- OpenAIPolicy -------------------------------------------------------------------------------


def test_tool_call_comes_back_as_an_openai_message_the_engine_reads(chat_server, order_spec):
    server = chat_server(lambda request: {"tool_calls": [GET_ORDER]})
    tools = order_spec.openai_tools()
    out = _policy(server, temperature=0.2, max_tokens=77)(USER, tools)

    assert isinstance(out, TurnOutput)
    assert out.message == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_1_0",
                "type": "function",
                "function": {"name": "get_order", "arguments": '{"order_id": "4412"}'},
            }
        ],
    }
    action = parse_action(out.message)
    assert [(c.name, c.arguments, c.error) for c in action.tool_calls] == [
        ("get_order", {"order_id": "4412"}, None)
    ]
    assert not out.truncated and out.logprob is None and out.n_tokens is None

    (request,) = server.requests
    assert request["model"] == "agent-model"
    assert request["messages"] == USER
    assert request["tools"] == tools and request["tool_choice"] == "auto"
    assert request["temperature"] == 0.2 and request["max_completion_tokens"] == 77
    assert "logprobs" not in request and not request.get("stream")


def test_parallel_tool_calls_keep_their_order(chat_server, order_spec):
    calls = [GET_ORDER, {"name": "list_orders", "arguments": {"customer_email": "a@b.co"}}]
    server = chat_server(lambda request: {"content": "Checking both.", "tool_calls": calls})
    out = _policy(server)(USER, order_spec.openai_tools())
    assert out.message["content"] == "Checking both."
    assert [c["function"]["name"] for c in out.message["tool_calls"]] == [
        "get_order",
        "list_orders",
    ]
    assert len({c["id"] for c in out.message["tool_calls"]}) == 2
    assert [c.arguments for c in parse_action(out.message).tool_calls] == [
        c["arguments"] for c in calls
    ]


def test_text_reply_without_tools_sends_no_tool_fields(chat_server):
    server = chat_server(lambda request: {"content": "Hello! How can I help?"})
    out = _policy(server)(USER, [])
    assert out.message == {"role": "assistant", "content": "Hello! How can I help?"}
    assert "tools" not in server.requests[0] and "tool_choice" not in server.requests[0]


def test_logprobs_are_summed_over_the_returned_tokens(chat_server, order_spec):
    tokens = [("Your", -0.25), (" order", -1.5), (" shipped", -0.125), (".", -0.0625)]
    server = chat_server(lambda request: {"content": "Your order shipped.", "logprobs": tokens})
    out = _policy(server, logprobs=True)(USER, order_spec.openai_tools())
    assert out.logprob == pytest.approx(-1.9375) and out.n_tokens == 4
    assert server.requests[0]["logprobs"] is True


def test_logprobs_cover_tool_call_turns(chat_server):
    server = chat_server(
        lambda request: {"tool_calls": [GET_ORDER], "logprobs": [("<tc>", -0.5), ("{}", -0.25)]}
    )
    out = _policy(server, logprobs=True)(USER, [])
    assert (out.logprob, out.n_tokens) == (-0.75, 2)
    assert out.message["tool_calls"][0]["function"]["name"] == "get_order"


def test_usage_is_recorded(chat_server):
    server = chat_server(
        lambda request: {"content": "ok", "usage": {"prompt_tokens": 123, "completion_tokens": 7}}
    )
    out = _policy(server)(USER, [])
    assert (out.input_tokens, out.output_tokens) == (123, 7)


def test_finish_reason_length_marks_the_turn_truncated(chat_server):
    server = chat_server(
        sequence({"content": "I will now expl", "finish_reason": "length"}, {"content": "Done."})
    )
    policy = _policy(server)
    assert policy(USER, []).truncated is True
    assert policy(USER, []).truncated is False


def test_a_server_error_raises_after_the_clients_own_retries(chat_server):
    server = chat_server(lambda request: {"status": 500, "error": "boom"})
    with pytest.raises(openai.InternalServerError, match="boom"):
        _policy(server, max_retries=2)(USER, [])
    assert len(server.requests) == 3


def test_a_transient_error_is_retried_by_the_client(chat_server):
    server = chat_server(sequence({"status": 503}, {"content": "back"}))
    out = _policy(server, max_retries=1)(USER, [])
    assert out.message["content"] == "back" and len(server.requests) == 2


def test_a_script_that_raises_is_a_500(chat_server):
    def script(request):
        raise RuntimeError("scripted failure")

    server = chat_server(script)
    with pytest.raises(openai.InternalServerError, match="scripted failure"):
        _policy(server)(USER, [])


def test_a_given_client_is_used_as_is(chat_server):
    server = chat_server(lambda request: {"content": "via client"})
    client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0)
    out = OpenAIPolicy("m", client=client)(USER, [])
    assert out.message["content"] == "via client" and server.requests[0]["model"] == "m"


def test_missing_openai_package_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(MissingExtraError) as info:
        OpenAIPolicy("m", base_url="http://127.0.0.1:9/v1", api_key="x")
    assert info.value.extra == "openai" and "whileai-env[openai]" in str(info.value)


def test_a_full_episode_with_the_scripted_model(chat_server, order_spec, make_cell_task):
    task = make_cell_task()
    order_id = task.world.entities["order_id"]

    def script(request):
        if request["messages"][-1]["role"] == "tool":
            return {"content": f"Order {order_id} is on its way."}
        return {"tool_calls": [{"name": "get_order", "arguments": {"order_id": order_id}}]}

    server = chat_server(script)
    policy = _policy(server, logprobs=True)
    episode = wenv.Episode(order_spec, task)
    episode.reset()
    outputs = []
    while not episode.done:
        out = policy(episode.messages, episode.tools)
        outputs.append(out)
        episode.step(out.message)

    assert [m["name"] for m in episode.messages if m["role"] == "tool"] == ["get_order"]
    assert episode.final_text == f"Order {order_id} is on its way."
    first, second = server.requests[:2]
    assert first["messages"][-1] == {"role": "user", "content": task.opener}
    assert [m["role"] for m in second["messages"]][-2:] == ["assistant", "tool"]
    assert second["messages"][-1]["tool_call_id"] == second["messages"][-2]["tool_calls"][0]["id"]
    assert all(o.logprob is not None for o in outputs)


# --- parse_model_spec / make_policy ---------------------------------------------------------------


def test_parse_openai_spec_reads_the_environment(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    spec = parse_model_spec("openai:gpt-4.1-mini")
    assert spec == ModelSpec("openai", "gpt-4.1-mini", None, "sk-test")
    assert "sk-test" not in repr(spec)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.delenv("OPENAI_API_KEY")
    assert parse_model_spec("openai:local") == ModelSpec(
        "openai", "local", "http://127.0.0.1:8000/v1", "EMPTY"
    )


def test_parse_vllm_spec(monkeypatch):
    monkeypatch.delenv("VLLM_API_KEY", raising=False)
    spec = parse_model_spec("vllm:Qwen/Qwen3-4B@https://example.modal.run/v1")
    assert spec == ModelSpec("vllm", "Qwen/Qwen3-4B", "https://example.modal.run/v1", "EMPTY")
    monkeypatch.setenv("VLLM_API_KEY", "k")
    assert parse_model_spec("vllm:m@http://127.0.0.1:8000/v1").api_key == "k"


def test_parse_hf_spec_expands_the_home_directory(monkeypatch):
    monkeypatch.setenv("HOME", "/home/someone")
    assert parse_model_spec("hf:~/models/tiny") == ModelSpec("hf", "/home/someone/models/tiny")
    assert parse_model_spec("hf:./ckpt").model == "./ckpt"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "gpt-4.1-mini",
        "openai:",
        "anthropic:claude",
        "hf:",
        "vllm:",
        "vllm:qwen",
        "vllm:qwen@ftp://host/v1",
        "vllm:@http://host/v1",
    ],
)
def test_parse_rejects_anything_else_naming_the_forms(bad):
    with pytest.raises(ValueError, match=r"vllm:MODEL@URL"):
        parse_model_spec(bad)


def test_parse_rejects_a_non_string():
    with pytest.raises(ValueError, match="openai:MODEL"):
        parse_model_spec(42)  # type: ignore[arg-type]


def test_make_policy_builds_an_endpoint_policy_from_a_spec(chat_server, monkeypatch):
    server = chat_server(lambda request: {"content": "hi"})
    policy = make_policy(f"vllm:served-model@{server.base_url}", logprobs=True, max_retries=0)
    assert isinstance(policy, OpenAIPolicy) and policy.logprobs
    assert policy.is_model and policy.name == "served-model"  # what the simulation loop looks for
    out = policy(USER, [])
    assert out.logprob == -0.5 and server.requests[0]["model"] == "served-model"

    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert make_policy("openai:other", max_retries=0)(USER, []).message["content"] == "hi"
    assert server.requests[-1]["model"] == "other"


def test_make_policy_passes_a_callable_through():
    def agent(messages, tools):
        return {"role": "assistant", "content": "hi"}

    assert make_policy(agent) is agent


# --- ModelOpenerWriter ----------------------------------------------------------------------------


def test_model_opener_keeps_the_model_text_when_the_ids_are_there(
    chat_server, order_spec, make_cell_task
):
    task = make_cell_task(stance="hurried", persona="busy_professional", tone="impatient")
    order_id = task.world.entities["order_id"]
    server = chat_server(
        lambda request: {"content": f'"Need order {order_id} looked up now, please."'}
    )
    writer = ModelOpenerWriter(f"vllm:writer@{server.base_url}", max_retries=0)
    assert writer(task, order_spec) == f"Need order {order_id} looked up now, please."
    assert writer.stats == {"model": 1}

    request = server.requests[0]
    assert request["temperature"] == 0.9 and "tools" not in request
    prompt = request["messages"][-1]["content"]
    for needle in (
        "get_order",
        "Look up an order by id",
        "in a rush",
        "busy professional",
        "impatient",
        f"State exactly: order {order_id}",
    ):
        assert needle in prompt
    assert "Do NOT say" not in prompt


def test_model_opener_appends_a_dropped_id(chat_server, order_spec, make_cell_task):
    task = make_cell_task()
    order_id = task.world.entities["order_id"]
    server = chat_server(
        lambda request: {"content": f"Can you check on my order? Not {order_id}1 though."}
    )
    writer = ModelOpenerWriter(f"vllm:writer@{server.base_url}", max_retries=0)
    assert writer(task, order_spec).endswith(f"It's order {order_id}.")
    assert writer.stats == {"patched": 1}


def test_model_opener_states_every_detail_the_tool_needs(chat_server, order_spec, make_cell_task):
    task = make_cell_task(tool="cancel_order")
    reason = task.world.details_for("cancel_order")["reason"]
    server = chat_server(lambda request: {"content": "Cancel it."})
    text = ModelOpenerWriter(f"vllm:writer@{server.base_url}", max_retries=0)(task, order_spec)
    assert str(task.world.entities["order_id"]) in text and str(reason) in text
    assert f"reason {reason}" in server.requests[0]["messages"][-1]["content"]


def test_model_opener_falls_back_when_a_vague_ask_leaks_the_withheld_id(
    chat_server, order_spec, make_cell_task
):
    task = make_cell_task(ask="vague")
    order_id = task.world.entities["order_id"]
    server = chat_server(
        sequence(
            {"content": f"Something is off with order {order_id}."},
            {"content": "Something is off with one of my orders."},
            {"content": "  "},
        )
    )
    writer = ModelOpenerWriter(f"vllm:writer@{server.base_url}", max_retries=0)
    assert writer(task, order_spec) == task.opener
    assert writer(task, order_spec) == "Something is off with one of my orders."
    assert writer(task, order_spec) == task.opener
    assert writer.stats == {"template": 2, "model": 1}
    assert (
        f"Do NOT say (they give it only if asked): order {order_id}"
        in server.requests[0]["messages"][-1]["content"]
    )


def test_model_opener_applies_the_texture_without_touching_ids(
    chat_server, order_spec, make_cell_task
):
    task = make_cell_task(texture="lowercase")
    order_id = "ORD-Q" + str(task.world.entities["order_id"])
    task = dataclasses.replace(
        task, world=dataclasses.replace(task.world, entities=freeze({"order_id": order_id}))
    )
    server = chat_server(lambda request: {"content": f"Please Check {order_id} Today."})
    assert ModelOpenerWriter(f"vllm:writer@{server.base_url}", max_retries=0)(task, order_spec) == (
        f"please check {order_id} today."
    )


def test_model_opener_for_an_unrelated_cell(chat_server, order_spec, make_cell_task):
    task = make_cell_task(tool="unrelated")
    server = chat_server(lambda request: {"content": "What's a good bread recipe?"})
    assert ModelOpenerWriter(f"vllm:writer@{server.base_url}", max_retries=0)(task, order_spec) == (
        "What's a good bread recipe?"
    )
    assert "unrelated" in server.requests[0]["messages"][-1]["content"]


# --- ModelUser (whileai_env/episode/user.py) --------------------------------------------------------------


def test_model_user_plays_the_person_with_roles_flipped(chat_server, make_cell_task):
    task = make_cell_task(ask="vague")
    server = chat_server(sequence({"content": "It's the one from last week."}, {"content": "DONE"}))
    user = ModelUser(task, model="person-model", base_url=server.base_url, api_key="test")
    transcript = [
        {"role": "system", "content": "AGENT SYSTEM PROMPT"},
        {"role": "user", "content": task.opener},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "list_orders", "arguments": "{}"},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "name": "list_orders",
            "content": json.dumps({"ok": 1}),
        },
        {"role": "assistant", "content": "Which order do you mean?"},
    ]
    assert user.reply(transcript) == "It's the one from last week."
    request = server.requests[0]
    assert request["model"] == "person-model"
    roles = [m["role"] for m in request["messages"]]
    assert roles == ["system", "assistant", "user"]
    system, opener, agent = request["messages"]
    assert (
        "AGENT SYSTEM PROMPT" not in system["content"]
        and "never the assistant" in system["content"]
    )
    assert str(task.world.entities["order_id"]) in system["content"]
    assert opener["content"] == task.opener and agent["content"] == "Which order do you mean?"
    assert "tools" not in request
    assert (
        user.reply(
            [
                *transcript,
                {"role": "user", "content": "x"},
                {"role": "assistant", "content": "Done."},
            ]
        )
        is None
    )
