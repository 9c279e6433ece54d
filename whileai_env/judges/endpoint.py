"""The model behind a model judge: one chat request in, the answer's text out.

A judge model is named like an agent model (:func:`~whileai_env.agents.models.parse_model_spec`):
``"openai:MODEL"`` (the OpenAI API, or ``OPENAI_BASE_URL``), ``"vllm:MODEL@URL"`` (any
OpenAI-compatible server: vLLM, SGLang, ``whileai-env serve SPEC --policy hf:PATH``, a hosted
API) or ``"hf:PATH"`` (a local transformers model, run in-process; the ``train`` extra). With no
model, ``WHILEAI_JUDGE`` names it. The request goes through the agents' own policies
(:func:`~whileai_env.agents.models.make_policy`), so there is one HTTP client in the package: the
``openai`` client, whose ``max_retries`` retries 408/409/429/5xx answers and dropped connections
with exponential backoff (honouring ``retry-after``). A request that still runs out of
``timeout`` raises :class:`TimeoutError`, which the judge runner marks ``timeout``; at most
``concurrency`` requests are in flight at once, however many threads the runner uses. It pickles
(to ``simulate(workers=N)``'s processes) as its settings: each process builds its own client.

>>> JudgeModel("vllm:judge@http://127.0.0.1:8000/v1", timeout=5).name
'vllm:judge@http://127.0.0.1:8000/v1'
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from whileai_env.agents.models import ModelSpec, Policy, make_policy, parse_model_spec
from whileai_env.errors import ConfigError

#: The environment variable naming the judge model when none is passed.
JUDGE_ENV = "WHILEAI_JUDGE"


def judge_model_name(model: str | None) -> str:
    """``model``, else ``$WHILEAI_JUDGE``; a clear error when neither names one.

    >>> judge_model_name("openai:gpt-4.1-mini")
    'openai:gpt-4.1-mini'
    """
    name = model if model is not None else os.environ.get(JUDGE_ENV)
    if not name:
        raise ConfigError(
            f"no judge model: pass model='openai:M' | 'vllm:M@URL' | 'hf:PATH' or set {JUDGE_ENV}"
        )
    return name


class JudgeModel:
    """A judge's model endpoint, built on first use (an ``hf:`` model loads only when needed)."""

    def __init__(
        self,
        model: str | None = None,
        *,
        temperature: float = 0.0,
        timeout: float = 60.0,
        retries: int = 3,
        concurrency: int = 4,
        max_tokens: int = 1024,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        if retries < 0:
            raise ValueError(f"retries must be >= 0, got {retries}")
        if timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout}")
        self.name = judge_model_name(model)
        self.spec: ModelSpec = parse_model_spec(self.name)
        self.temperature = float(temperature)
        self.timeout = float(timeout)
        self.retries = retries
        self.max_tokens = max_tokens
        self.requests = 0  # requests sent (cache hits send none)
        self.concurrency = concurrency
        self._start()

    def _start(self) -> None:
        """The per-process parts: the request slots, the lock, and no model built yet."""
        self._slots = threading.BoundedSemaphore(self.concurrency)
        self._lock = threading.Lock()
        self._policy: Policy | None = None

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle carries to a worker process: the settings, not the client or the locks."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_slots", "_lock", "_policy")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._start()

    def _built(self) -> Policy:
        with self._lock:
            if self._policy is None:
                self._policy = make_policy(self.spec, **self._options())
            return self._policy

    def _options(self) -> dict[str, Any]:
        if self.spec.kind == "hf":
            return {"temperature": self.temperature, "max_new_tokens": self.max_tokens}
        return {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "max_retries": self.retries,
        }

    def complete(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The model's text answer to ``messages`` (no tools offered)."""
        policy = self._built()
        with self._slots:
            with self._lock:
                self.requests += 1
            try:
                out = policy(messages, [])
            except Exception as exc:
                if _is_timeout(exc):
                    raise TimeoutError(
                        f"{self.name} did not answer within {self.timeout:g} s "
                        f"({self.retries} retries)"
                    ) from exc
                raise
        return str(out.message.get("content") or "")

    def __repr__(self) -> str:
        return f"JudgeModel({self.name!r}, temperature={self.temperature})"


def _is_timeout(exc: BaseException) -> bool:
    openai = sys.modules.get("openai")
    timeout_type = getattr(openai, "APITimeoutError", None) if openai is not None else None
    return isinstance(exc, TimeoutError) or (
        timeout_type is not None and isinstance(exc, timeout_type)
    )
