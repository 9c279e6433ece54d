"""A real OpenAI-compatible chat-completions server on 127.0.0.1, answered by a script.

What ``whileai-env serve`` runs (the script plays a reference agent or a model) and what the
tests talk to: no mock client, the ``openai`` package (or any HTTP client) reaches it over a
socket, exactly as it would vLLM. Standard library only (``http.server``): one process, no
dependency to install for a test double. Each ``POST /v1/chat/completions`` is recorded in
``server.requests`` and answered by ``script(request) -> dict`` with these keys, all optional:

- ``content``: the assistant text (default ``""``);
- ``tool_calls``: ``[{"name": ..., "arguments": dict or JSON string}]``;
- ``finish_reason``: default ``"tool_calls"`` when there are tool calls, else ``"stop"``;
- ``logprobs``: ``[(token, logprob), ...]`` returned when the request asks for logprobs
  (default: one entry per whitespace-separated word of the content, each ``-0.5``);
- ``usage``: ``{"prompt_tokens": .., "completion_tokens": ..}`` (default: rough word counts);
- ``status``/``error``: answer with that HTTP status and an OpenAI-shaped error instead.

A script that raises is answered with a 500. ``stream: true`` is answered as server-sent events
(chunks of the same completion, then ``data: [DONE]``; verifiers 0.4's client always streams),
or refused with a 400 when the server was built with ``streaming=False``; invalid
messages (unknown role, a tool message without ``tool_call_id``, a tool call without an id or
with non-string arguments) get a 400 as the real API would. Error replies carry
``retry-after-ms: 1`` so the client's retries are quick. ``GET /v1/models`` lists ``model``.

>>> with ChatServer(lambda request: {"content": "hi"}) as server:   # doctest: +SKIP
...     client = openai.OpenAI(base_url=server.base_url, api_key="test")
...     client.chat.completions.create(model="m", messages=[{"role": "user", "content": "yo"}])
"""

from __future__ import annotations

import copy
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Script = Callable[[dict[str, Any]], Mapping[str, Any]]
_ROLES = {"system", "developer", "user", "assistant", "tool"}


class ChatServer:
    """The server, started on a free port by ``start()`` or ``with``; ``close()`` stops it."""

    def __init__(
        self,
        script: Script,
        *,
        model: str = "test-model",
        streaming: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.script = script
        self.model = model
        self.streaming = streaming
        self.address = (host, port)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError(
                "the server is not running; call start() or use it as a context manager"
            )
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """What to give ``openai.OpenAI(base_url=...)`` or a ``vllm:MODEL@URL`` spec."""
        return f"http://{self.address[0]}:{self.port}/v1"

    def start(self) -> ChatServer:
        handler = type("Handler", (_Handler,), {"server_obj": self})
        self._httpd = _Server(self.address, handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.01},
            name="chat-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def completion(self, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Record ``request`` and build the (status, body) answer for it."""
        with self._lock:
            self.requests.append(copy.deepcopy(request))
            number = next(self._ids)
        problem = _invalid(request, self.streaming)
        if problem:
            return 400, _error(problem, "invalid_request_error")
        try:
            reply = dict(self.script(copy.deepcopy(request)))
        except Exception as exc:
            return 500, _error(f"the script raised {type(exc).__name__}: {exc}", "server_error")
        # a scripted failure: a 4xx (429 aside) is the request's fault, as OpenAI types it
        if "status" in reply:
            status = int(reply["status"])
            kind = (
                "invalid_request_error" if 400 <= status < 500 and status != 429 else "server_error"
            )
            return status, _error(str(reply.get("error", "scripted error")), kind)
        return 200, _chat_completion(reply, request, number, self.model)


def sequence(*replies: Mapping[str, Any]) -> Script:
    """A script answering with ``replies`` in order, then repeating the last one."""
    if not replies:
        raise ValueError("sequence() needs at least one reply")
    queue = list(replies)
    lock = threading.Lock()

    def script(_request: dict[str, Any]) -> Mapping[str, Any]:
        with lock:
            return queue.pop(0) if len(queue) > 1 else queue[0]

    return script


class _Server(ThreadingHTTPServer):
    """A listen backlog for an eval's concurrent rollouts (socketserver's default is 5, and
    connections past it are reset under a burst)."""

    request_queue_size = 256


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_obj: ChatServer

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            model = {
                "id": self.server_obj.model,
                "object": "model",
                "created": 0,
                "owned_by": "test",
            }
            self._send(200, {"object": "list", "data": [model]})
        else:
            self._send(404, _error(f"no route GET {self.path}", "not_found_error"))

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, _error(f"no route POST {self.path}", "not_found_error"))
            return
        try:
            request = json.loads(body or b"null")
        except json.JSONDecodeError as exc:
            self._send(400, _error(f"the body is not JSON: {exc.msg}", "invalid_request_error"))
            return
        if not isinstance(request, dict):
            self._send(400, _error("the body must be a JSON object", "invalid_request_error"))
            return
        status, payload = self.server_obj.completion(request)
        if status == 200 and request.get("stream"):
            self._stream(
                payload,
                include_usage=bool((request.get("stream_options") or {}).get("include_usage")),
            )
        else:
            self._send(status, payload)

    def _stream(self, completion: dict[str, Any], *, include_usage: bool) -> None:
        """The completion as server-sent events; the connection closes after ``[DONE]``."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        for chunk in _chunks(completion, include_usage=include_usage):
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status >= 400:
            self.send_header("retry-after-ms", "1")
        self.end_headers()
        self.wfile.write(data)


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _invalid(request: Mapping[str, Any], streaming: bool) -> str | None:
    if request.get("stream") and not streaming:
        return "this server supports stream: false only"
    if not isinstance(request.get("model"), str):
        return "'model' must be a string"
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        return "'messages' must be a non-empty list"
    for i, message in enumerate(messages):
        problem = _invalid_message(message)
        if problem:
            return f"messages[{i}]: {problem}"
    return None


def _invalid_message(message: Any) -> str | None:
    if not isinstance(message, Mapping) or message.get("role") not in _ROLES:
        return f"a message needs a role among {sorted(_ROLES)}"
    if message["role"] == "tool" and not message.get("tool_call_id"):
        return "a tool message needs tool_call_id"
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, Mapping) else None
        if (
            not call.get("id")
            or not isinstance(function, Mapping)
            or not isinstance(function.get("arguments"), str)
        ):
            return "each tool call needs an id and function.arguments as a JSON string"
    return None


def _chat_completion(
    reply: Mapping[str, Any], request: Mapping[str, Any], number: int, model: str
) -> dict[str, Any]:
    content = str(reply.get("content") or "")
    calls = [
        {
            "id": f"call_{number}_{i}",
            "type": "function",
            "function": {
                "name": c["name"],
                "arguments": c["arguments"]
                if isinstance(c.get("arguments"), str)
                else json.dumps(c.get("arguments") or {}),
            },
        }
        for i, c in enumerate(reply.get("tool_calls") or [])
    ]
    message: dict[str, Any] = {"role": "assistant", "content": content or (None if calls else "")}
    if calls:
        message["tool_calls"] = calls
    tokens = _token_logprobs(reply, content, calls)
    choice: dict[str, Any] = {
        "index": 0,
        "message": message,
        "finish_reason": reply.get("finish_reason") or ("tool_calls" if calls else "stop"),
        "logprobs": {
            "content": [
                {"token": t, "logprob": float(lp), "bytes": None, "top_logprobs": []}
                for t, lp in tokens
            ]
        }
        if request.get("logprobs")
        else None,
    }
    usage = dict(reply.get("usage") or {})
    usage.setdefault("prompt_tokens", _words(json.dumps(request.get("messages"))))
    usage.setdefault("completion_tokens", len(tokens))
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model") or model,
        "choices": [choice],
        "usage": usage,
    }


def _token_logprobs(
    reply: Mapping[str, Any], content: str, calls: Iterable[Mapping[str, Any]]
) -> list[tuple[str, float]]:
    if reply.get("logprobs") is not None:
        return [(str(t), float(lp)) for t, lp in reply["logprobs"]]
    text = content + "".join(c["function"]["name"] + c["function"]["arguments"] for c in calls)
    return [(word, -0.5) for word in text.split()]


def _words(text: str) -> int:
    return len(text.split())


def _chunks(completion: Mapping[str, Any], *, include_usage: bool) -> list[dict[str, Any]]:
    """``chat.completion.chunk`` events carrying ``completion``: the role and text, each tool call
    whole in one delta, the finish reason, then the usage when the request asked for it."""
    choice = completion["choices"][0]
    message = choice["message"]
    head = {k: completion[k] for k in ("id", "created", "model")} | {
        "object": "chat.completion.chunk"
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            **head,
            "choices": [
                {
                    "index": 0,
                    "delta": delta,
                    "finish_reason": finish,
                    "logprobs": choice["logprobs"] if finish else None,
                }
            ],
        }

    out = [chunk({"role": "assistant", "content": message.get("content") or ""})]
    out.extend(
        chunk({"tool_calls": [{"index": i, **call}]})
        for i, call in enumerate(message.get("tool_calls") or [])
    )
    out.append(chunk({}, choice["finish_reason"]))
    if include_usage:
        out.append({**head, "choices": [], "usage": completion["usage"]})
    return out
