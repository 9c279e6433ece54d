"""A trained reward model as a judge: :func:`reward_model` scores a row's transcript.

A reward model (``python -m trainers.rm``) is a sequence classifier with one output: the score
of a whole conversation. Training and judging read a row the same way (:func:`row_ids`): the
row's messages (or its ``prompt`` and ``final_text``) through the tokenizer's chat template, the
end of the sequence kept when it is longer than ``max_length`` (the final reply is what is
judged). Tool schemas are not rendered: they are the same in every row of a spec, so they carry
nothing a comparison could use and would only spend the context.

The judge honours the one judge contract (:mod:`whileai_env.grading.judge`): ``reward`` is 1 when
the score's sigmoid reaches ``threshold``, else 0; the raw score is ``rm_score`` in the row's
``judge_meta`` (beside ``rm_prob``, ``threshold`` and the model path), not a marker, so a hack
scan of rows this judge graded does not rediscover the judge's own score as a feature.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

DEFAULT_MAX_LENGTH = 1024


def row_messages(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The conversation a reward model reads: the row's messages with tool-call arguments as
    objects (how chat templates expect them), or ``prompt`` then ``final_text`` when the row
    carries no messages.

    >>> row_messages({"prompt": "Cancel order 7", "final_text": "Done."})
    [{'role': 'user', 'content': 'Cancel order 7'}, {'role': 'assistant', 'content': 'Done.'}]
    """
    messages = row.get("messages")
    if not messages:
        prompt = row.get("prompt")
        opening = (
            list(prompt)
            if isinstance(prompt, list)
            else [{"role": "user", "content": str(prompt or "")}]
        )
        return [*opening, {"role": "assistant", "content": str(row.get("final_text") or "")}]
    return [_with_object_arguments(m) for m in messages if isinstance(m, Mapping)]


def _with_object_arguments(message: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in message.items() if v is not None}
    out["content"] = str(message.get("content") or "")
    calls = []
    for call in message.get("tool_calls") or ():
        function = dict(call.get("function") or {})
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                function["arguments"] = json.loads(arguments)
            except json.JSONDecodeError:
                function["arguments"] = {"raw": arguments}
        calls.append({**call, "function": function})
    if calls:
        out["tool_calls"] = calls
    return out


def row_ids(row: Mapping[str, Any], tokenizer: Any, max_length: int) -> list[int]:
    """The token ids a reward model scores for ``row``: the chat-templated conversation and an
    end-of-sequence token, its last ``max_length`` tokens."""
    text = tokenizer.apply_chat_template(row_messages(row), tokenize=False)
    ids = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    return ids[-max_length:]


def score_ids(model: Any, ids: Sequence[int]) -> float:
    """The model's raw score of one sequence."""
    import torch

    with torch.no_grad():
        logits = model(input_ids=torch.tensor([list(ids)], device=model.device)).logits
    return float(logits.reshape(-1)[0])


def pair_accuracy(
    model: Any,
    tokenizer: Any,
    pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
    max_length: int = DEFAULT_MAX_LENGTH,
) -> float | None:
    """Share of ``(chosen, rejected)`` pairs the model scores chosen above rejected (a tie counts
    half); ``None`` with no pairs."""
    if not pairs:
        return None
    model.eval()
    wins = 0.0
    for chosen, rejected in pairs:
        good = score_ids(model, row_ids(chosen, tokenizer, max_length))
        bad = score_ids(model, row_ids(rejected, tokenizer, max_length))
        wins += 1.0 if good > bad else 0.5 if good == bad else 0.0
    return wins / len(pairs)


class RewardModelJudge:
    """A judge callable over a saved reward model (see the module docstring)."""

    def __init__(self, path: str | Path, threshold: float = 0.5, max_length: int | None = None):
        if not 0.0 < threshold < 1.0:
            raise ValueError(f"threshold is a probability in (0, 1), got {threshold!r}")
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.path, self.threshold = str(path), float(threshold)
        self.tokenizer = AutoTokenizer.from_pretrained(self.path)
        self.model = AutoModelForSequenceClassification.from_pretrained(self.path).eval()
        self.max_length = max_length or _trained_length(self.path)

    def __call__(self, row: Mapping[str, Any]) -> dict[str, Any]:
        score = score_ids(self.model, row_ids(row, self.tokenizer, self.max_length))
        prob = 0.5 * (1.0 + math.tanh(score / 2.0))  # the sigmoid, without overflow
        return {
            "reward": float(prob >= self.threshold),
            "rm_score": score,
            "rm_prob": prob,
            "threshold": self.threshold,
            "model": self.path,
        }


def reward_model(
    path: str | Path, threshold: float = 0.5, *, max_length: int | None = None
) -> RewardModelJudge:
    """The reward model saved at ``path`` (``trainers.rm``'s ``output_dir``) as a judge:
    ``reward`` 0/1 against ``threshold`` on the score's sigmoid, the raw score as ``rm_score``.
    Usable with ``run_judge``, ``simulate(grader=)`` and as ``HackMonitor(gold=)``."""
    return RewardModelJudge(path, threshold, max_length)


def _trained_length(path: str) -> int:
    """The ``max_length`` the model was trained with (``rm.json`` beside it), else the default."""
    record = Path(path) / "rm.json"
    if record.is_file():
        return int(json.loads(record.read_text()).get("max_length") or DEFAULT_MAX_LENGTH)
    return DEFAULT_MAX_LENGTH
