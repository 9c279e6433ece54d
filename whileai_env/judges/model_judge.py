"""What every model judge shares: a prompt per row, one cached request, provenance on the verdict.

A model judge is a judge callable (``judge(row) -> verdict``, see
:mod:`whileai_env.grading.judge`), so it goes through the one runner, ``run_judge``. Each call
builds the judge's instructions for the row (a subclass's :meth:`ModelJudge.instructions`: the
rubric, the scale) and the row as the judge reads it (:func:`~whileai_env.judges.view.render_row`),
looks the pair up in the cache, asks the model on a miss, and reads the answer
(:meth:`ModelJudge.read`). Every verdict carries its provenance, which the runner keeps in
``judge_meta``: ``model``, ``prompt_sha`` (a hash of the instructions: a rubric edit is a new
judge), ``temperature`` and ``version`` = ``<model>@<prompt_sha>``. An answer that cannot be read
raises :class:`~whileai_env.errors.JudgeOutputError` (the row is ``invalid_result``, never a
silent 0); an endpoint that does not answer in time raises ``TimeoutError`` (``timeout``).

>>> find_json('Sure! ```json\\n{"score": 4, "reason": "fine"}\\n```', "score")
{'score': 4, 'reason': 'fine'}
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from whileai_env._util.hashing import hex_id
from whileai_env.errors import JudgeOutputError
from whileai_env.judges.cache import AnswerCache, open_cache
from whileai_env.judges.endpoint import JudgeModel
from whileai_env.judges.view import render_row

#: How much of a raw answer an ``invalid_result`` row keeps in ``judge_meta["raw_answer"]``.
RAW_KEPT = 500


def find_json(text: str, key: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` that has ``key`` (models wrap JSON in prose and code
    fences), or ``None``."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict) and key in value:
            return value
        start = text.find("{", start + 1)
    return None


class ModelJudge:
    """Base of the model judges; subclasses set ``kind`` and implement ``instructions``/``read``."""

    kind = "model"

    def __init__(
        self,
        model: str | None = None,
        *,
        use_privileged: bool = False,
        temperature: float = 0.0,
        timeout: float = 60.0,
        retries: int = 3,
        concurrency: int = 4,
        cache: AnswerCache | str | os.PathLike[str] | bool | None = None,
        max_tokens: int = 1024,
    ) -> None:
        self.endpoint = JudgeModel(
            model,
            temperature=temperature,
            timeout=timeout,
            retries=retries,
            concurrency=concurrency,
            max_tokens=max_tokens,
        )
        self.model = self.endpoint.name
        self.use_privileged = use_privileged
        self.concurrency = concurrency
        self.cache = open_cache(cache)
        self.__name__ = self.kind  # what run_judge writes as judge_name

    @property
    def requests(self) -> int:
        """Requests this judge has sent (a cache hit sends none)."""
        return self.endpoint.requests

    def instructions(self, row: Mapping[str, Any]) -> str | None:
        """The system prompt for ``row``; ``None`` when the row cannot be judged (no rubric)."""
        raise NotImplementedError

    def read(self, answer: str, row: Mapping[str, Any]) -> dict[str, Any]:
        """The verdict in the model's ``answer``; raises ``JudgeOutputError`` when unreadable."""
        raise NotImplementedError

    def show(self, row: Mapping[str, Any]) -> str:
        """The row as the model reads it (:func:`~whileai_env.judges.view.render_row`)."""
        return render_row(row, use_privileged=self.use_privileged)

    def unjudgeable(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """The verdict for a row :meth:`instructions` refused: no ``reward`` (``missing_reward``)."""
        return {"reason": f"{self.kind}: nothing to judge this row against"}

    def scoring(self) -> Any:
        """How answers become rewards, when that is a setting (part of the judge's version)."""
        return None

    def provenance(self, instructions: str) -> dict[str, Any]:
        """``model``, ``prompt_sha``, ``temperature`` and ``version`` for these instructions."""
        sha = hex_id(self.kind, instructions, self.use_privileged, self.scoring(), length=12)
        return {
            "model": self.model,
            "prompt_sha": sha,
            "temperature": self.endpoint.temperature,
            "version": f"{self.model}@{sha}",
        }

    def __call__(self, row: Mapping[str, Any]) -> dict[str, Any]:
        instructions = self.instructions(row)
        if instructions is None:
            return self.unjudgeable(row)
        meta = self.provenance(instructions)
        shown = self.show(row)
        answer = self.ask(instructions, shown, meta["version"])
        try:
            verdict = self.read(answer, row)
        except JudgeOutputError as exc:
            raise JudgeOutputError(str(exc), {**meta, "raw_answer": answer[:RAW_KEPT]}) from exc
        return {**verdict, **meta}

    def ask(self, instructions: str, shown: str, version: str) -> str:
        """The model's answer, from the cache when this judge version has seen this row."""
        key = f"{version}|t={self.endpoint.temperature:g}"
        row_hash = hex_id(shown, length=32)
        cached = self.cache.get(key, row_hash)
        if cached is not None:
            return cached
        answer = self.endpoint.complete(
            [{"role": "system", "content": instructions}, {"role": "user", "content": shown}]
        )
        self.cache.put(key, row_hash, answer)
        return answer

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.model!r}, use_privileged={self.use_privileged})"
