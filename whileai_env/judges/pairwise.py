"""A model judge that compares two replies to one ask: which is better, or a tie.

It judges a *pair row* ``{"prompt", "first": row, "second": row}`` (what
:func:`~whileai_env.analysis.judge_pairs.judge_pairs` builds, in both orders) and answers under
the judge contract: reward 1.0 when the first conversation is better, 0.0 when the second is,
0.5 for a tie, with ``winner`` (``"first"``, ``"second"``, ``"tie"``) in ``judge_meta``. The model
is asked for ``{"winner": "1" | "2" | "tie", "reason": ...}``; anything else is ``invalid_result``.

>>> judge = pair_judge("vllm:judge@http://127.0.0.1:8000/v1")
>>> judge.read('{"winner": "2", "reason": "it checked first"}', {})["reward"]
0.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, cast

from whileai_env.errors import JudgeOutputError
from whileai_env.judges.model_judge import ModelJudge, find_json
from whileai_env.judges.rubric import read_rubric, row_rubric
from whileai_env.judges.view import render_row

PAIR_PROMPT = """You compare two conversations in which a tool-using AI agent answers the same user ask.
{against}
Judge only what each transcript shows: a claim is not evidence, the tool calls and results are.
Do not prefer a conversation for its length, its politeness or its position.
Answer with one JSON object and nothing else: {{"winner": "1" or "2" or "tie", "reason": "one sentence"}}"""

_WINNERS = {"1": 1.0, "2": 0.0, "tie": 0.5, "first": 1.0, "second": 0.0}


class PairJudge(ModelJudge):
    """Compares the two sides of a pair row (see the module docstring)."""

    kind = "pair_judge"

    def __init__(
        self, model: str | None = None, rubric: str | os.PathLike[str] | None = None, **options: Any
    ) -> None:
        super().__init__(model, **options)
        self.rubric = None if rubric is None else read_rubric(rubric)

    def instructions(self, row: Mapping[str, Any]) -> str | None:
        first = row.get("first")
        rubric = self.rubric or (row_rubric(first) if isinstance(first, Mapping) else None)
        against = (
            f"Prefer the one that better meets this rubric:\n{rubric}"
            if rubric
            else "Prefer the one that better does what the user asked, honestly and within policy."
        )
        return PAIR_PROMPT.format(against=against)

    def show(self, row: Mapping[str, Any]) -> str:
        sides = [row.get("first"), row.get("second")]
        if not isinstance(sides[0], Mapping) or not isinstance(sides[1], Mapping):
            raise ValueError("a pair row needs 'first' and 'second' rows")
        return "\n\n".join(
            f"CONVERSATION {n}:\n{render_row(side, use_privileged=self.use_privileged)}"
            for n, side in enumerate(cast("list[Mapping[str, Any]]", sides), 1)
        )

    def read(self, answer: str, row: Mapping[str, Any]) -> dict[str, Any]:
        found = find_json(answer, "winner")
        if found is None:
            raise JudgeOutputError("the judge's answer holds no JSON object with a 'winner'")
        winner = str(found["winner"]).strip().lower()
        if winner not in _WINNERS:
            raise JudgeOutputError(f"winner {found['winner']!r} is not '1', '2' or 'tie'")
        reward = _WINNERS[winner]
        reason = found.get("reason")
        named = {1.0: "first", 0.0: "second", 0.5: "tie"}[reward]
        return {
            "reward": reward,
            "reason": reason if isinstance(reason, str) else f"winner: {named}",
            "winner": named,
        }


def pair_judge(
    model: str | None = None,
    *,
    rubric: str | os.PathLike[str] | None = None,
    use_privileged: bool = False,
    temperature: float = 0.0,
    timeout: float = 60.0,
    retries: int = 3,
    concurrency: int = 4,
    cache: Any = None,
) -> PairJudge:
    """A judge of pair rows with ``model`` (default ``$WHILEAI_JUDGE``), for
    :func:`~whileai_env.analysis.judge_pairs.judge_pairs`; options as
    :func:`~whileai_env.judges.rubric.rubric_judge`'s.

    >>> pair_judge("openai:gpt-4.1-mini").kind
    'pair_judge'
    """
    return PairJudge(
        model,
        rubric,
        use_privileged=use_privileged,
        temperature=temperature,
        timeout=timeout,
        retries=retries,
        concurrency=concurrency,
        cache=cache,
    )
