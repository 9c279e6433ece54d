"""Model-backed agents: step policies that answer one agent turn from a chat model.

A policy is a callable ``policy(messages, tools) -> TurnOutput``: ``messages`` is the episode's
transcript in OpenAI chat format, ``tools`` its OpenAI tool schemas, and the output carries the
assistant message :meth:`whileai_env.Episode.step` takes, plus what the turn cost (tokens) and,
when asked, the summed log-probability of the generated tokens (needed later for importance
ratios in off-policy updates). Three backends, named by a spec string:

- ``"openai:MODEL"``: the OpenAI API, or any endpoint named by ``OPENAI_BASE_URL``;
- ``"vllm:MODEL@URL"``: an OpenAI-compatible server (vLLM, SGLang, ...) at base URL ``URL``;
- ``"hf:PATH"``: a local transformers causal LM directory, run in-process.

Heavy packages (``openai``, ``torch``, ``transformers``) are imported only when a policy is built.

>>> parse_model_spec("vllm:Qwen/Qwen3-4B@http://127.0.0.1:8000/v1").base_url
'http://127.0.0.1:8000/v1'
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whileai_env.episode.actions import parse_action
from whileai_env.errors import MissingExtraError, WhileaiError

SPEC_FORMS = "'openai:MODEL', 'vllm:MODEL@URL' or 'hf:PATH'"
_VLLM = re.compile(r"^(?P<model>[^@\s]+)@(?P<url>https?://\S+)$")

Messages = Sequence[Mapping[str, Any]]
Tools = Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec: the backend, the model name (or directory) and where to reach it."""

    kind: str
    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)


def parse_model_spec(spec: str) -> ModelSpec:
    """Read ``"openai:MODEL"``, ``"vllm:MODEL@URL"`` or ``"hf:PATH"``.

    ``openai:`` takes its base URL from ``OPENAI_BASE_URL`` (the OpenAI default when unset) and
    its key from ``OPENAI_API_KEY`` (``"EMPTY"`` when unset but a base URL is, since local
    servers rarely check it). ``vllm:`` takes its key from ``VLLM_API_KEY`` or ``"EMPTY"``.

    >>> parse_model_spec("hf:./checkpoints/tiny")
    ModelSpec(kind='hf', model='./checkpoints/tiny', base_url=None)
    """
    if not isinstance(spec, str):
        raise ValueError(f"a model spec must be a string: {SPEC_FORMS}; got {type(spec).__name__}")
    kind, sep, rest = spec.strip().partition(":")
    rest = rest.strip()
    if sep and rest and kind == "openai":
        base_url = os.environ.get("OPENAI_BASE_URL") or None
        api_key = os.environ.get("OPENAI_API_KEY") or ("EMPTY" if base_url else None)
        return ModelSpec("openai", rest, base_url, api_key)
    if sep and rest and kind == "vllm":
        match = _VLLM.match(rest)
        if match is None:
            raise ValueError(
                f"bad vllm spec {spec!r}: write 'vllm:MODEL@URL' with an http(s) base URL, "
                "e.g. 'vllm:Qwen/Qwen3-4B@http://127.0.0.1:8000/v1'"
            )
        return ModelSpec(
            "vllm", match["model"], match["url"], os.environ.get("VLLM_API_KEY") or "EMPTY"
        )
    if sep and rest and kind == "hf":
        return ModelSpec("hf", os.path.expanduser(rest))
    raise ValueError(f"unknown model spec {spec!r}; use {SPEC_FORMS}")


@dataclass(frozen=True)
class TurnOutput:
    """One agent turn from a model.

    ``message`` is an OpenAI assistant message (``role``, ``content``, and ``tool_calls`` with
    JSON-string arguments when the model called tools). ``logprob`` is the summed log-probability
    of the ``n_tokens`` generated tokens (both ``None`` unless logprobs were requested and
    returned; from an endpoint they are whatever the server reports, vLLM's default being the
    model's own, untempered log-probabilities). ``input_tokens``/``output_tokens`` are what the call cost, when reported.
    ``truncated`` says the model hit its token cap mid-turn.
    """

    message: dict[str, Any]
    logprob: float | None = None
    n_tokens: int | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    truncated: bool = False


class OpenAIPolicy:
    """An agent served by an OpenAI-compatible chat-completions endpoint, with native tool calls.

    The turn's token cap goes out as ``max_completion_tokens`` (the current OpenAI name, which
    vLLM and SGLang accept too). Retries are the ``openai`` client's own (``max_retries``, with its backoff); a call that still
    fails raises, and the simulation loop counts the rollout as lost. Pass ``client`` to reuse
    a configured ``openai.OpenAI`` (then ``base_url``, ``api_key``, ``timeout`` and
    ``max_retries`` are ignored).

    >>> policy = OpenAIPolicy("gpt-4.1-mini", logprobs=True)           # doctest: +SKIP
    >>> out = policy(episode.reset(), episode.tools)                     # doctest: +SKIP
    >>> episode.step(out.message)                                        # doctest: +SKIP
    """

    is_model = True  # tells the simulation loop to call it with (messages, tools)

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 1.0,
        max_tokens: int = 1024,
        logprobs: bool = False,
        client: Any = None,
        timeout: float = 60,
        max_retries: int = 2,
    ) -> None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
        self.model = self.name = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.logprobs = logprobs
        self.client = (
            client
            if client is not None
            else _openai_client(base_url, api_key, timeout, max_retries)
        )

    def __repr__(self) -> str:
        return f"OpenAIPolicy({self.model!r}, logprobs={self.logprobs})"

    def __call__(self, messages: Messages, tools: Tools) -> TurnOutput:
        """Ask the model for the next agent turn of ``messages`` with ``tools`` offered."""
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "temperature": self.temperature,
            "max_completion_tokens": self.max_tokens,
        }
        if tools:
            request.update(tools=[dict(t) for t in tools], tool_choice="auto")
        if self.logprobs:
            request["logprobs"] = True
        response = self.client.chat.completions.create(**request)
        if not response.choices:
            raise WhileaiError(f"{self.model} returned no choices")
        choice = response.choices[0]
        logprob, n_tokens = _summed_logprobs(choice) if self.logprobs else (None, None)
        usage = response.usage
        return TurnOutput(
            message=_assistant_message(choice.message),
            logprob=logprob,
            n_tokens=n_tokens,
            input_tokens=getattr(usage, "prompt_tokens", None),
            output_tokens=getattr(usage, "completion_tokens", None),
            truncated=choice.finish_reason == "length",
        )


def _openai_client(
    base_url: str | None, api_key: str | None, timeout: float, max_retries: int
) -> Any:
    try:
        import openai
    except ImportError as exc:
        raise MissingExtraError("openai", "openai") from exc
    return openai.OpenAI(
        base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
    )


def _assistant_message(message: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant", "content": message.content or ""}
    calls = [c for c in (message.tool_calls or []) if getattr(c, "function", None) is not None]
    if calls:
        out["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.function.name, "arguments": c.function.arguments or "{}"},
            }
            for c in calls
        ]
    return out


def _summed_logprobs(choice: Any) -> tuple[float | None, int | None]:
    content = getattr(choice.logprobs, "content", None) if choice.logprobs is not None else None
    if content is None:
        return None, None
    return float(sum(t.logprob for t in content)), len(content)


# A Qwen2.5-style chat template for tokenizers that ship none: system prompt plus the tools in
# <tools>, assistant tool calls as <tool_call> JSON blocks, consecutive tool results grouped in
# one user turn as <tool_response> blocks. Written for transformers' jinja environment.
FALLBACK_CHAT_TEMPLATE = (
    "{%- if messages and messages[0].role == 'system' -%}"
    "{%- set system = messages[0].content or '' -%}{%- set turns = messages[1:] -%}"
    "{%- else -%}{%- set system = '' -%}{%- set turns = messages -%}{%- endif -%}"
    "{%- if system or tools -%}"
    "{{- '<|im_start|>system\\n' + system -}}"
    "{%- if tools -%}"
    "{{- ('\\n\\n' if system else '') + '# Tools\\n\\nYou can call the functions described in "
    "<tools></tools>.\\n<tools>' -}}"
    "{%- for tool in tools -%}{{- '\\n' + (tool | tojson) -}}{%- endfor -%}"
    "{{- '\\n</tools>\\n\\nTo call one, write a <tool_call></tool_call> block per call holding a "
    'JSON object with its name and arguments:\\n<tool_call>\\n{"name": "function_name", '
    '"arguments": {"argument": "value"}}\\n</tool_call>\' -}}'
    "{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{%- for message in turns -%}"
    "{%- if message.role == 'tool' -%}"
    "{%- if loop.first or loop.previtem.role != 'tool' -%}{{- '<|im_start|>user' -}}{%- endif -%}"
    "{{- '\\n<tool_response>\\n' + (message.content or '') + '\\n</tool_response>' -}}"
    "{%- if loop.last or loop.nextitem.role != 'tool' -%}{{- '<|im_end|>\\n' -}}{%- endif -%}"
    "{%- else -%}"
    "{{- '<|im_start|>' + message.role + '\\n' + (message.content or '') -}}"
    "{%- for call in (message.tool_calls or []) -%}"
    "{%- set fn = call.function or call -%}"
    "{%- set args = fn.arguments if fn.arguments is string else (fn.arguments | tojson) -%}"
    "{{- ('\\n' if message.content or not loop.first else '') + '<tool_call>\\n{\"name\": ' "
    "+ (fn.name | tojson) + ', \"arguments\": ' + args + '}\\n</tool_call>' -}}"
    "{%- endfor -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)


class HFPolicy:
    """An agent run in-process from a local transformers causal LM directory.

    The prompt is the tokenizer's chat template with ``tools`` (or
    :data:`FALLBACK_CHAT_TEMPLATE` when it has none); the generated text is parsed with
    :func:`~whileai_env.episode.actions.parse_action`, so ``<tool_call>`` blocks come back as
    ``tool_calls`` (without ids: the episode numbers them). ``temperature == 0`` decodes greedily
    and is deterministic; otherwise sampling draws from torch's global generator (seed it with
    ``torch.manual_seed`` for a reproducible sequential run). With ``logprobs=True`` the turn's
    ``logprob`` sums the model's own log-probability of each generated token, EOS included: the
    log-softmax of the raw logits, which temperature and sampling filters do not change. That is
    what vLLM reports by default and what a reference model scores, so KL estimates line up.
    Calls are serialised by a lock, so one policy is safe to share across threads.

    >>> policy = HFPolicy("checkpoints/tiny", temperature=0, logprobs=True)   # doctest: +SKIP
    >>> out = policy(episode.reset(), episode.tools)                          # doctest: +SKIP
    >>> out.n_tokens, out.truncated                                           # doctest: +SKIP
    """

    is_model = True  # tells the simulation loop to call it with (messages, tools)

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_new_tokens: int = 256,
        temperature: float = 1.0,
        logprobs: bool = False,
        device: str | None = None,
    ) -> None:
        if max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be at least 1, got {max_new_tokens}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        torch, transformers = _train_imports()
        self.path = self.name = os.fspath(path)
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.logprobs = logprobs
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(self.path)
        if not getattr(self.tokenizer, "chat_template", None):
            self.tokenizer.chat_template = FALLBACK_CHAT_TEMPLATE
        self.model = (
            transformers.AutoModelForCausalLM.from_pretrained(self.path).to(self.device).eval()
        )
        self.stop_ids = _stop_ids(self.tokenizer)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"HFPolicy({self.path!r}, temperature={self.temperature}, logprobs={self.logprobs})"

    def __call__(self, messages: Messages, tools: Tools) -> TurnOutput:
        """Generate the next agent turn of ``messages`` with ``tools`` in the prompt."""
        import torch

        prompt = self.tokenizer.apply_chat_template(
            [dict(m) for m in messages],
            tools=[dict(t) for t in tools] or None,
            add_generation_prompt=True,
            tokenize=False,
        )
        encoded = self.tokenizer(prompt, return_tensors="pt", add_special_tokens=False).to(
            self.device
        )
        sampling = self.temperature > 0
        options: dict[str, Any] = {
            "do_sample": sampling,
            "max_new_tokens": self.max_new_tokens,
            "eos_token_id": self.stop_ids,
            "return_dict_in_generate": True,
            "output_logits": self.logprobs,
            "pad_token_id": _pad_id(self.tokenizer, self.stop_ids),
        }
        if sampling:
            options["temperature"] = self.temperature
        with self._lock, torch.no_grad():
            out = self.model.generate(**encoded, **options)
        prompt_len = encoded["input_ids"].shape[1]
        new_ids = out.sequences[0, prompt_len:].tolist()
        logprob = n_tokens = None
        if self.logprobs:
            chosen = [
                torch.log_softmax(x[0].float(), dim=-1)[t]
                for x, t in zip(out.logits, new_ids, strict=True)
            ]
            logprob, n_tokens = float(sum(v.item() for v in chosen)), len(new_ids)
        text = self.tokenizer.decode(new_ids, skip_special_tokens=True)
        return TurnOutput(
            message=_message_from_text(text),
            logprob=logprob,
            n_tokens=n_tokens,
            input_tokens=prompt_len,
            output_tokens=len(new_ids),
            truncated=len(new_ids) >= self.max_new_tokens
            and (not new_ids or new_ids[-1] not in self.stop_ids),
        )


def _train_imports() -> tuple[Any, Any]:
    try:
        import torch
    except ImportError as exc:
        raise MissingExtraError("torch", "train") from exc
    try:
        import transformers
    except ImportError as exc:
        raise MissingExtraError("transformers", "train") from exc
    return torch, transformers


def _stop_ids(tokenizer: Any) -> list[int]:
    ids = [tokenizer.eos_token_id, tokenizer.get_vocab().get("<|im_end|>")]
    out = [i for i in ids if isinstance(i, int)]
    if not out:
        raise WhileaiError(
            "the tokenizer has neither an eos token nor <|im_end|>; generation could not stop"
        )
    return list(dict.fromkeys(out))


def _pad_id(tokenizer: Any, stop_ids: list[int]) -> int:
    return tokenizer.pad_token_id if tokenizer.pad_token_id is not None else stop_ids[0]


def _message_from_text(text: str) -> dict[str, Any]:
    """Raw model text as an assistant message; ``<tool_call>`` blocks become id-less tool_calls."""
    message = parse_action(text).to_message()
    for call in message.get("tool_calls", []):
        del call["id"]
    return message


Policy = Callable[[Messages, Tools], Any]


def make_policy(
    spec_or_callable: str | ModelSpec | Policy, *, logprobs: bool = False, **kw: Any
) -> Policy:
    """The step policy for a model spec (string or :class:`ModelSpec`); a callable passes through.

    Extra keywords go to the policy's constructor (``temperature``, ``max_tokens`` for endpoints,
    ``max_new_tokens``/``device`` for ``hf:``).

    >>> make_policy("vllm:Qwen/Qwen3-4B@http://127.0.0.1:8000/v1", logprobs=True)  # doctest: +SKIP
    OpenAIPolicy('Qwen/Qwen3-4B', logprobs=True)
    """
    if callable(spec_or_callable) and not isinstance(spec_or_callable, str):
        return spec_or_callable
    spec = (
        spec_or_callable
        if isinstance(spec_or_callable, ModelSpec)
        else parse_model_spec(spec_or_callable)
    )
    if spec.kind == "hf":
        return HFPolicy(spec.model, logprobs=logprobs, **kw)
    kw.setdefault("base_url", spec.base_url)
    kw.setdefault("api_key", spec.api_key)
    return OpenAIPolicy(spec.model, logprobs=logprobs, **kw)
