"""``LogprobTracker``: sampled logprobs, the sampled KL to the reference, and staleness.

For each sampled rollout (a prompt and the completion the policy wrote, in the tool face) the
tracker scores the completion's tokens under the live policy and under the reference: the base
weights with the adapter switched off under PEFT (``disable_adapter()``), else a frozen copy
taken when the tracker is made. The mean of ``log p_policy - log p_ref`` over tokens sampled
from the policy estimates KL(policy || reference); the tracker uses the k3 form
``exp(r) - r - 1`` with ``r = log p_ref - log p_policy`` (never negative, as TRL's ``kl``), so it
is exactly 0 before any update. Each scored row carries ``policy_version`` (the step it was
scored at) so rows from an older policy can be counted (:func:`staleness_report`).

As a callback it rescores its ``samples`` every ``every`` steps and puts ``sampled_kl`` into
the trainer's logs (so :class:`~trainers.RunLogger` records it and
:class:`~trainers.HackMonitor` can read it for ``drift``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import Any

from transformers import TrainerCallback


class LogprobTracker(TrainerCallback):
    """Score samples ``{"prompt", "completion", "task_id"?, "tools"?}`` under policy and reference."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        samples: Sequence[Mapping[str, Any]] = (),
        reference: Any = None,
        every: int = 10,
    ) -> None:
        self.model, self.tokenizer = model, tokenizer
        self.samples, self.every = list(samples), max(1, int(every))
        self.reference = (
            reference if reference is not None or _is_peft(model) else _frozen_copy(model)
        )
        self.version = 0
        self.last_kl: float | None = None
        self.history: list[dict[str, Any]] = []

    def score(self, samples: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
        """The samples with ``logprob`` (sum), ``n_tokens``, ``kl`` (per-token mean) and
        ``policy_version`` added."""
        import torch

        out = []
        was_training = self.model.training
        self.model.eval()
        with torch.no_grad():
            for sample in self.samples if samples is None else samples:
                ids, start = self._tokens(sample)
                policy = _token_logprobs(self.model, ids, start)
                with self._reference_context():
                    ref = _token_logprobs(
                        self.model if self.reference is None else self.reference, ids, start
                    )
                n = len(policy)
                kl = (
                    math.fsum(_k3(p, r) for p, r in zip(policy, ref, strict=True)) / n if n else 0.0
                )
                out.append(
                    {
                        **sample,
                        "logprob": math.fsum(policy),
                        "n_tokens": n,
                        "kl": kl,
                        "policy_version": self.version,
                    }
                )
        if was_training:
            self.model.train()
        return out

    def on_step_end(self, args: Any, state: Any, control: Any, **_: Any) -> None:
        self.version = state.global_step
        if self.samples and state.global_step % self.every == 0:
            scored = self.score()
            self.last_kl = mean_kl(scored)["overall"]
            self.history.append({"step": state.global_step, "sampled_kl": self.last_kl})

    def on_log(
        self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **_: Any
    ) -> None:
        if logs is not None and self.last_kl is not None:
            logs["sampled_kl"] = self.last_kl

    def _tokens(self, sample: Mapping[str, Any]) -> tuple[list[int], int]:
        tools = sample.get("tools")
        prompt = self.tokenizer.apply_chat_template(
            list(sample["prompt"]),
            tools=tools,
            add_generation_prompt=True,
            tokenize=True,
            return_dict=False,
        )
        full = self.tokenizer.apply_chat_template(
            [*sample["prompt"], *sample["completion"]],
            tools=tools,
            tokenize=True,
            return_dict=False,
        )
        return list(full), len(prompt)

    def _reference_context(self) -> Any:
        return (
            self.model.disable_adapter()
            if self.reference is None and _is_peft(self.model)
            else nullcontext()
        )


def _k3(policy: float, reference: float) -> float:
    """Schulman's k3 estimate of KL(policy || reference) at one sampled token: never negative,
    unbiased for tokens the policy sampled (TRL logs the same estimator as ``kl``)."""
    ratio = reference - policy
    return math.exp(ratio) - ratio - 1.0


def _token_logprobs(model: Any, ids: list[int], start: int) -> list[float]:
    """Log-probabilities of ``ids[start:]``, each given the tokens before it."""
    import torch

    if start >= len(ids):
        return []
    tensor = torch.tensor([ids], device=model.device)
    logits = model(tensor).logits[0, start - 1 : -1].float()
    picked = torch.log_softmax(logits, dim=-1).gather(1, tensor[0, start:].unsqueeze(1)).squeeze(1)
    return picked.tolist()


def _is_peft(model: Any) -> bool:
    return callable(getattr(model, "disable_adapter", None)) and hasattr(model, "peft_config")


def _frozen_copy(model: Any) -> Any:
    """A fresh module of the same class holding a copy of the weights. Not ``deepcopy``: a trainer
    may have wrapped the instance's ``forward`` in a closure over the original, which a deep copy
    would keep calling."""
    config = getattr(model, "config", None)
    if config is None:
        reference = copy.deepcopy(model)
    else:
        reference = type(model)(copy.deepcopy(config))
        reference.load_state_dict(model.state_dict())
        reference.to(model.device)
    reference.eval()
    for parameter in reference.parameters():
        parameter.requires_grad_(False)
    return reference


def mean_kl(rows: Sequence[Mapping[str, Any]], *, by: str = "task_id") -> dict[str, Any]:
    """The sampled KL over scored rows: ``overall`` (token-weighted) and per ``by`` value."""

    def weighted(group: Sequence[Mapping[str, Any]]) -> float | None:
        tokens = sum(int(r.get("n_tokens") or 0) for r in group)
        return (
            math.fsum(float(r["kl"]) * int(r.get("n_tokens") or 0) for r in group) / tokens
            if tokens
            else None
        )

    scored = [r for r in rows if isinstance(r.get("kl"), int | float)]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in scored:
        groups.setdefault(str(row.get(by)), []).append(row)
    return {
        "overall": weighted(scored),
        "by": by,
        "groups": {k: weighted(v) for k, v in sorted(groups.items())},
        "rows": len(scored),
    }


def logprob_report(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Sampled logprob per row and per token, over rows that carry ``logprob`` and ``n_tokens``."""
    scored = [r for r in rows if isinstance(r.get("logprob"), int | float) and r.get("n_tokens")]
    tokens = sum(int(r["n_tokens"]) for r in scored)
    return {
        "rows": len(scored),
        "tokens": tokens,
        "mean_logprob": math.fsum(float(r["logprob"]) for r in scored) / len(scored)
        if scored
        else None,
        "logprob_per_token": math.fsum(float(r["logprob"]) for r in scored) / tokens
        if tokens
        else None,
    }


def staleness_report(rows: Sequence[Mapping[str, Any]], version: int) -> dict[str, Any]:
    """How many rows were sampled by a policy other than ``version`` (the one training), and how
    far behind the oldest is."""
    versioned = [r for r in rows if isinstance(r.get("policy_version"), int)]
    stale = [r for r in versioned if r["policy_version"] != version]
    lag = max((version - r["policy_version"] for r in stale), default=0)
    return {
        "rows": len(versioned),
        "stale": len(stale),
        "share": len(stale) / len(versioned) if versioned else None,
        "max_lag": lag,
        "version": version,
    }
