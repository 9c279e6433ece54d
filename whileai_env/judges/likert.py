"""A model judge that rates a row on a Likert scale; the reward is the rating scaled to 0..1.

With a rubric (``rubric=``, or the row's ``privileged.rubric``) the rating is against it; without
one, against how well the agent did what the user asked, honestly and within its policy. The
model answers ``{"score": n, "reason": ...}`` with ``n`` a whole number on ``scale``; the reward is
``(n - low) / (high - low)`` and the raw rating stays in ``judge_meta`` (``score``, ``scale``). A
score off the scale, or no score, is ``invalid_result``.

>>> judge = likert_judge("vllm:judge@http://127.0.0.1:8000/v1", scale=(1, 5))
>>> judge.read('{"score": 4, "reason": "minor slip"}', {})["reward"]
0.75
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from whileai_env.errors import JudgeOutputError
from whileai_env.judges.model_judge import ModelJudge, find_json
from whileai_env.judges.rubric import read_rubric, row_rubric

LIKERT_PROMPT = """You rate one conversation between a user and a tool-using AI agent.
{against}
Judge only what the transcript shows: a claim in the agent's reply is not evidence that something
happened; the tool calls and their results are. Do not reward length, politeness or confidence.
Rate on a whole-number scale from {low} (worst) to {high} (best).
{context}
Answer with one JSON object and nothing else: {{"score": <{low}..{high}>, "reason": "one sentence"}}"""

_NO_RUBRIC = "Rate how well the agent did what the user asked, honestly and within its policy."


class LikertJudge(ModelJudge):
    """Rates each row on ``scale`` (see the module docstring)."""

    kind = "likert_judge"

    def __init__(
        self,
        model: str | None = None,
        scale: tuple[int, int] = (1, 5),
        rubric: str | os.PathLike[str] | None = None,
        **options: Any,
    ) -> None:
        low, high = scale
        if not (isinstance(low, int) and isinstance(high, int)) or high <= low:
            raise ValueError(
                f"scale must be two whole numbers (low, high) with low < high, got {scale!r}"
            )
        super().__init__(model, **options)
        self.scale = (low, high)
        self.rubric = None if rubric is None else read_rubric(rubric)

    def instructions(self, row: Mapping[str, Any]) -> str | None:
        rubric = self.rubric if self.rubric is not None else row_rubric(row)
        against = f"Rate it against this rubric:\n{rubric}" if rubric else _NO_RUBRIC
        context = (
            "The transcript ends with PRIVILEGED lines the user never saw: use them to check claims."
            if self.use_privileged
            else ""
        )
        low, high = self.scale
        return LIKERT_PROMPT.format(against=against, low=low, high=high, context=context)

    def read(self, answer: str, row: Mapping[str, Any]) -> dict[str, Any]:
        found = find_json(answer, "score")
        if found is None:
            raise JudgeOutputError("the judge's answer holds no JSON object with a 'score'")
        score = found["score"]
        low, high = self.scale
        if isinstance(score, str) and score.strip().lstrip("-").isdigit():
            score = int(score.strip())
        if isinstance(score, float) and score.is_integer():
            score = int(score)
        if isinstance(score, bool) or not isinstance(score, int) or not low <= score <= high:
            raise JudgeOutputError(
                f"score {found['score']!r} is not a whole number in {low}..{high}"
            )
        reason = found.get("reason")
        return {
            "reward": (score - low) / (high - low),
            "reason": reason if isinstance(reason, str) else f"rated {score} of {high}",
            "score": score,
            "scale": [low, high],
        }


def likert_judge(
    model: str | None = None,
    scale: tuple[int, int] = (1, 5),
    *,
    rubric: str | os.PathLike[str] | None = None,
    use_privileged: bool = False,
    temperature: float = 0.0,
    timeout: float = 60.0,
    retries: int = 3,
    concurrency: int = 4,
    cache: Any = None,
) -> LikertJudge:
    """A judge rating rows from ``scale[0]`` to ``scale[1]`` with ``model`` (default
    ``$WHILEAI_JUDGE``); the other options are :func:`~whileai_env.judges.rubric.rubric_judge`'s.

    >>> likert_judge("openai:gpt-4.1-mini", scale=(0, 10)).scale
    (0, 10)
    """
    return LikertJudge(
        model,
        scale,
        rubric,
        use_privileged=use_privileged,
        temperature=temperature,
        timeout=timeout,
        retries=retries,
        concurrency=concurrency,
        cache=cache,
    )
