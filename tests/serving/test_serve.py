"""``whileai-env serve``: the promoted chat server (streaming and not) played by a reference agent."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request

import openai
import pytest

import whileai_env as wenv
from tests.envs.verifiers.parity import SPEC, pick_tasks, play
from whileai_env.agents.models import OpenAIPolicy
from whileai_env.serving.chat_server import ChatServer
from whileai_env.serving.policies import policy_script
from whileai_env.serving.tasks import served_tasks

CALL = {"content": "", "tool_calls": [{"name": "get_order", "arguments": {"order_id": "7"}}]}


def _post(url, body):
    request = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers.get("Content-Type"), response.read().decode()


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


@pytest.fixture(scope="module")
def picked(spec):
    return list(pick_tasks(spec).values())


def test_a_streamed_completion_is_server_sent_events_ending_in_done():
    with ChatServer(lambda request: CALL) as server:
        kind, body = _post(
            server.base_url,
            {
                "model": "m",
                "stream": True,
                "stream_options": {"include_usage": True},
                "messages": [{"role": "user", "content": "hi"}],
            },
        )
    events = [
        line.removeprefix("data: ") for line in body.splitlines() if line.startswith("data: ")
    ]
    assert kind == "text/event-stream" and events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    call = chunks[1]["choices"][0]["delta"]["tool_calls"][0]
    assert call["index"] == 0 and call["function"] == {
        "name": "get_order",
        "arguments": '{"order_id": "7"}',
    }
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls" and "usage" in chunks[-1]


def test_the_openai_client_reads_the_stream():
    with ChatServer(lambda request: {"content": "all done"}) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
        stream = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    assert text == "all done"


def test_models_are_listed():
    with (
        ChatServer(lambda request: {}, model="whileai-policy") as server,
        urllib.request.urlopen(server.base_url + "/models", timeout=10) as response,
    ):
        assert [m["id"] for m in json.load(response)["data"]] == ["whileai-policy"]


@pytest.mark.parametrize("policy", ["oracle", "seeded", "silent"])
def test_an_agent_served_over_http_scores_what_it_scores_in_process(spec, picked, policy):
    tasks = picked
    with ChatServer(policy_script(policy, spec, tasks)) as server:
        agent = OpenAIPolicy(
            "whileai-policy", base_url=server.base_url, api_key="unused", max_retries=0
        )
        for task in tasks:
            episode = wenv.Episode(spec, task)
            while not episode.done:
                episode.step(agent(episode.messages, episode.tools).message)
            expected = play(spec, task, policy).reward()
            assert (episode.reward()["reward"], episode.reward()["markers"]) == (
                expected["reward"],
                expected["markers"],
            )


def test_a_conversation_of_no_known_task_is_a_404(spec):
    tasks = wenv.draw_tasks(spec, 2, seed=0)
    with (
        ChatServer(policy_script("oracle", spec, tasks)) as server,
        pytest.raises(urllib.error.HTTPError) as caught,
    ):
        _post(
            server.base_url,
            {"model": "m", "messages": [{"role": "user", "content": "an unknown opener"}]},
        )
    assert caught.value.code == 404
    # the request's fault, typed as OpenAI types a 4xx (a client does not retry it)
    assert json.loads(caught.value.read())["error"]["type"] == "invalid_request_error"


def test_served_tasks_are_the_draw_load_environment_makes(spec):
    _, tasks = served_tasks(SPEC, n=5, seed=2, mode="rl")
    assert [t.task_id for t in tasks] == [
        t.task_id for t in wenv.draw_tasks(spec, 5, mode="rl", seed=2)
    ]


def test_an_exported_package_is_served_with_its_own_tasks(spec, tmp_path):
    report = wenv.export_environment(spec, tmp_path / "env", n=6)
    _, tasks = served_tasks(tmp_path / "env", n=99, seed=99, mode="explore")
    assert len(tasks) == report["train"] + report["holdout_tasks"]


def test_the_serve_command_answers_on_its_port(spec):
    process = subprocess.Popen(
        [sys.executable, "-m", "whileai_env.cli", "serve", str(SPEC), "--port", "0", "-n", "3"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stderr.readline()
        url = line.rsplit(" ", 1)[-1].strip()
        assert line.startswith("serving 3 tasks with oracle at http://127.0.0.1:"), line
        with urllib.request.urlopen(url + "/models", timeout=10) as response:
            assert json.load(response)["data"][0]["id"] == "whileai-policy"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_model_policy_forwards_the_turn_to_its_endpoint(spec):
    tasks = wenv.draw_tasks(spec, 1, seed=0)
    with ChatServer(lambda request: CALL) as upstream:
        script = policy_script(f"vllm:upstream-model@{upstream.base_url}", spec, tasks)
        with ChatServer(script) as server:
            client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
            reply = client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": tasks[0].opener}],
                tools=spec.openai_tools(),
            )
    assert reply.choices[0].message.tool_calls[0].function.name == "get_order"
    assert (
        upstream.requests[0]["model"] == "upstream-model"
        and upstream.requests[0]["tools"] == spec.openai_tools()
    )
