"""Decontamination: training rows that copy an evaluation's asks (or answers) come out.

Word ``n``-gram overlap (default 8) between a training set's texts and every evaluation text. A
row is contaminated when a field is an eval text verbatim (after lower-casing and collapsing
whitespace), or when one eval text covers at least ``overlap`` (80%) of its words with shared
n-grams: the Llama 2 rule. One shared n-gram is not enough, because situations written from the
same templates share whole sentences without sharing the question. A text shorter than ``n``
words matches verbatim only. ``fields=("prompt", "final_text")`` also checks replies against
the eval's replies and references.

>>> evals = [{"prompt": "Please cancel order 7731 for me today, it was sent to the wrong address"}]
>>> train = [{"prompt": "please cancel order 7731 for me today, it was sent to the wrong address"},
...          {"prompt": "Where is my parcel?"}]
>>> clean, report = decontaminate(train, against=[evals])
>>> [row["prompt"] for row in clean], report["verbatim"]
(['Where is my parcel?'], 1)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env.judges.base import read_path

Source = Iterable[Mapping[str, Any]] | str | os.PathLike[str]
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """Lower-cased word tokens.

    >>> words("Cancel ORDER #7, please!")
    ['cancel', 'order', '7', 'please']
    """
    return _WORD.findall(text.lower())


def decontaminate(
    train: Iterable[Mapping[str, Any]],
    *,
    against: Sequence[Source],
    n: int = 8,
    overlap: float = 0.8,
    fields: Sequence[str] = ("prompt",),
) -> tuple[list[Mapping[str, Any]], dict[str, Any]]:
    """The clean training rows (in order, unchanged) and a report: ``rows``, ``clean``,
    ``contaminated``, ``verbatim``, ``near`` (near copies), ``by_field`` and ``offenders`` (the
    first 20: ``index``, ``field``, ``kind``, ``coverage``). ``against`` holds row lists or
    JSONL paths; eval texts are read from the same ``fields`` plus ``privileged.reference``."""
    index = _EvalIndex(n)
    for source in against:
        for row in _rows(source):
            for field in (*fields, "privileged.reference"):
                index.add(_text(row, field))
    clean: list[Mapping[str, Any]] = []
    report: dict[str, Any] = {"verbatim": 0, "near": 0, "by_field": dict.fromkeys(fields, 0)}
    offenders = []
    for position, row in enumerate(train):
        hit = _first_hit(row, fields, index, overlap)
        if hit is None:
            clean.append(row)
            continue
        field, kind, coverage = hit
        report[kind] += 1
        report["by_field"][field] += 1
        offenders.append({"index": position, "field": field, "kind": kind, "coverage": coverage})
    total = len(clean) + len(offenders)
    report.update(
        rows=total, clean=len(clean), contaminated=len(offenders), offenders=offenders[:20]
    )
    return clean, report


def _first_hit(
    row: Mapping[str, Any], fields: Sequence[str], index: _EvalIndex, overlap: float
) -> tuple[str, str, float] | None:
    """``(field, kind, coverage)`` of the row's first contaminated field, or ``None``."""
    for field in fields:
        kind, coverage = index.match(_text(row, field), overlap)
        if kind is not None:
            return field, kind, coverage
    return None


def _rows(source: Source) -> Iterable[Mapping[str, Any]]:
    if isinstance(source, str | os.PathLike):
        from whileai_env.data.jsonl import read_rows

        return read_rows(source)
    return source


def _text(row: Mapping[str, Any], field: str) -> str:
    value = read_path(row, field)
    return value if isinstance(value, str) else ""


class _EvalIndex:
    """Eval texts by their normalised form and by each of their word n-grams."""

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        self.n = n
        self.verbatim: set[str] = set()
        self.grams: dict[tuple[str, ...], set[int]] = {}
        self.count = 0

    def add(self, text: str) -> None:
        tokens = words(text)
        if not tokens:
            return
        self.verbatim.add(" ".join(tokens))
        for gram in _grams(tokens, self.n):
            self.grams.setdefault(gram, set()).add(self.count)
        self.count += 1

    def match(self, text: str, overlap: float) -> tuple[str | None, float]:
        """``("verbatim", 1.0)``, ``("near", coverage)`` or ``(None, best coverage)``."""
        tokens = words(text)
        if not tokens:
            return None, 0.0
        if " ".join(tokens) in self.verbatim:
            return "verbatim", 1.0
        coverage = self._best_coverage(tokens)
        return ("near" if coverage >= overlap else None), coverage

    def _best_coverage(self, tokens: list[str]) -> float:
        """The largest share of ``tokens`` that one eval text's shared n-grams cover."""
        covered: dict[int, set[int]] = {}
        for start, gram in enumerate(_grams(tokens, self.n)):
            for source in self.grams.get(gram, ()):
                covered.setdefault(source, set()).update(range(start, start + self.n))
        return max((len(c) for c in covered.values()), default=0) / len(tokens)


def _grams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
