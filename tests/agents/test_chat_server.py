"""The test chat server itself: the OpenAI protocol surface other suites rely on."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import openai
import pytest

from tests.support import ChatServer, sequence

USER = [{"role": "user", "content": "hi"}]


def _client(server: ChatServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0)


def _post(server: ChatServer, path: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}{path}",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_models_are_listed(chat_server):
    server = chat_server(lambda request: {}, model="served")
    assert [m.id for m in _client(server).models.list()] == ["served"]


def test_a_completion_has_the_openai_shape(chat_server):
    server = chat_server(lambda request: {"content": "one two"})
    status, body = _post(
        server,
        "/v1/chat/completions",
        json.dumps({"model": "m", "messages": USER, "logprobs": True}).encode(),
    )
    assert status == 200 and body["object"] == "chat.completion" and body["model"] == "m"
    (choice,) = body["choices"]
    assert (
        choice["message"] == {"role": "assistant", "content": "one two"}
        and choice["finish_reason"] == "stop"
    )
    assert choice["logprobs"]["content"] == [
        {"token": t, "logprob": -0.5, "bytes": None, "top_logprobs": []} for t in ("one", "two")
    ]
    assert body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] + 2


def test_streaming_is_refused_with_an_openai_error(chat_server):
    server = chat_server(lambda request: {"content": "x"})
    with pytest.raises(openai.BadRequestError, match="stream: false only"):
        _client(server).chat.completions.create(model="m", messages=USER, stream=True)


def test_invalid_messages_are_refused_like_the_real_api(chat_server):
    server = chat_server(lambda request: {"content": "x"})
    bad = [
        *USER,
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "content": "{}"},
    ]
    with pytest.raises(
        openai.BadRequestError, match=r"messages\[2\]: a tool message needs tool_call_id"
    ):
        _client(server).chat.completions.create(model="m", messages=bad)
    status, body = _post(server, "/v1/chat/completions", b"{not json")
    assert status == 400 and body["error"]["type"] == "invalid_request_error"
    assert len(server.requests) == 1  # the unparsable body is not a request


def test_unknown_routes_are_404(chat_server):
    server = chat_server(lambda request: {})
    status, body = _post(server, "/v1/completions", b"{}")
    assert status == 404 and "no route" in body["error"]["message"]


def test_sequence_plays_replies_in_order_then_repeats_the_last():
    script = sequence({"content": "a"}, {"content": "b"})
    assert [script({})["content"] for _ in range(3)] == ["a", "b", "b"]
    with pytest.raises(ValueError):
        sequence()


def test_the_server_closes_and_frees_its_port():
    with ChatServer(lambda request: {"content": "x"}) as server:
        url = server.base_url
        assert (
            _client(server)
            .chat.completions.create(model="m", messages=USER)
            .choices[0]
            .message.content
            == "x"
        )
    with pytest.raises(RuntimeError, match="not running"):
        server.port  # noqa: B018
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=url, api_key="test", max_retries=0, timeout=2).models.list()
