"""What every verifier shares: where the candidate and the gold answer are read, and the verdict.

A verifier is a judge (``judge(row) -> verdict``, see :mod:`whileai_env.grading.judge`) whose
reward is a program's check rather than an opinion. The candidate is the rollout's
``final_text`` (or any field named by ``candidate=``); the gold answer is the row's
``privileged.reference``, which every export drops, so the answer key never reaches a training
file. Flat ``answer`` / ``target`` / ``reference`` / ``gold`` / ``expected`` fields work too, and
``field=`` names any other (a dotted path such as ``"privileged.hidden_state.total"``).

A row without a gold answer is not scored zero: the verdict has no ``reward``, so the one judge
runner marks it ``missing_reward`` and the row stays unjudged.

>>> from whileai_env.grading.judge import run_judge
>>> from whileai_env.judges import ExactMatch
>>> rows = [{"final_text": " Paris. ", "privileged": {"reference": "paris"}},
...         {"final_text": "Paris"}]
>>> [(r["reward"], r["judge_status"]) for r in run_judge(rows, ExactMatch())]
[(1.0, 'ok'), (None, 'missing_reward')]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

#: Flat row fields read as the gold answer when ``privileged.reference`` is absent or empty.
GOLD_FIELDS = ("answer", "target", "reference", "gold", "expected")
_MISSING = object()


def read_path(row: Any, path: str) -> Any:
    """The value at a dotted ``path`` in ``row`` (list items by index), or ``None`` when absent.

    >>> read_path({"a": {"b": [10, {"c": 3}]}}, "a.b.1.c")
    3
    >>> read_path({"a": 1}, "a.b") is None
    True
    """
    value: Any = row
    for part in path.split("."):
        value = _step(value, part)
        if value is _MISSING:
            return None
    return value


def _step(value: Any, part: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(part, _MISSING)
    if isinstance(value, Sequence) and not isinstance(value, str) and part.lstrip("-").isdigit():
        index = int(part)
        return value[index] if -len(value) <= index < len(value) else _MISSING
    return _MISSING


def read_gold(row: Mapping[str, Any], field: str | None = None) -> Any:
    """The gold answer of ``row``: ``field`` when named, else ``privileged.reference``, else the
    first non-empty of :data:`GOLD_FIELDS`; ``None`` when there is none.

    >>> read_gold({"privileged": {"reference": "42"}, "answer": "41"})
    '42'
    >>> read_gold({"answer": "41"}), read_gold({"x": {"y": 7}}, "x.y")
    ('41', 7)
    """
    if field is not None:
        return read_path(row, field)
    for path in ("privileged.reference", *GOLD_FIELDS):
        value = read_path(row, path)
        if value is not None and value != "":
            return value
    return None


def read_candidate(row: Mapping[str, Any], field: str = "final_text") -> str:
    """The text a verifier checks: ``row[field]`` (a dotted path) as a string, ``""`` when absent."""
    value = read_path(row, field)
    return "" if value is None else str(value)


def normalise(text: str) -> str:
    """Text compared loosely: Unicode NFKC, case-folded, whitespace collapsed, and the quotes and
    sentence punctuation around it stripped (so ``" Paris. "`` equals ``"paris"``).

    >>> normalise('  "The  ANSWER"! ')
    'the answer'
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    collapsed = re.sub(r"\s+", " ", folded).strip()
    return collapsed.strip(" .!?;,'\"`“”‘’").strip()


def verdict(
    score: float, reason: str, name: str, markers: Mapping[str, float] | None = None, **meta: Any
) -> dict[str, Any]:
    """A verdict under the judge contract: ``reward``, ``reason``, ``markers`` and the verifier's
    name (kept by the runner in ``judge_meta``) plus any other metadata."""
    out: dict[str, Any] = {"reward": float(score), "reason": reason, "verifier": name, **meta}
    if markers:
        out["markers"] = dict(markers)
    return out


def no_gold(name: str, field: str | None) -> dict[str, Any]:
    """The verdict for a row with no gold answer: no ``reward``, so the row is ``missing_reward``."""
    where = field if field is not None else "privileged.reference (or answer/target/...)"
    return {"reason": f"no gold answer at {where}", "verifier": name}


class Verifier:
    """Base of the built-in verifiers: read the candidate and the gold, then :meth:`check`.

    Subclasses set ``needs_gold`` (``False`` for checks of form alone, such as
    :class:`~whileai_env.judges.JSONValid`) and implement ``check(candidate, gold)``, which
    returns a verdict dict (:func:`verdict`). Instances are plain callables ``row -> verdict``,
    so they go to :func:`~whileai_env.grading.judge.run_judge`, ``Episode`` and ``simulate`` as
    any judge does.
    """

    needs_gold = True

    def __init__(self, *, field: str | None = None, candidate: str = "final_text") -> None:
        self.field = field
        self.candidate = candidate
        self.name = type(self).__name__  # what its verdicts and (through judge_name) rows say

    def __call__(self, row: Mapping[str, Any]) -> dict[str, Any]:
        gold = read_gold(row, self.field) if self.needs_gold else None
        if self.needs_gold and gold is None:
            return no_gold(self.name, self.field)
        return self.check(read_candidate(row, self.candidate), gold)

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        """The verdict for one candidate text against its gold answer."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{self.name}(field={self.field!r}, candidate={self.candidate!r})"
