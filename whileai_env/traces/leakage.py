"""The leakage rule: source traces shape the grid and never come back as generated asks.

A generated row whose prompt sits at or above ``threshold`` cosine similarity (0.9) to a source
trace's prompt is a near copy; an exact match (same words after lower-casing, the
decontamination tokeniser) is flagged whatever the embedder says. The default embedder is the
grid's own hashed bag of words and word pairs (:func:`whileai_env.scenarios.diversity.embed`);
``embedder=`` takes any ``text -> vector`` callable instead.

>>> sources = [{"prompt": "Where is my order 4412? It is late."}]
>>> generated = [{"prompt": "where is my order 4412?  it is LATE."}, {"prompt": "Cancel order 9"}]
>>> report = leakage_report(generated, sources)
>>> report["n_leaky"], report["leaky"][0]["exact"]
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from whileai_env.analysis.decontaminate import words
from whileai_env.scenarios.diversity import embed

THRESHOLD = 0.9
Embedder = Callable[[str], Any]


def prompt_of(item: Any) -> str:
    """The ask of a row (its ``prompt``) or a plain string."""
    if isinstance(item, str):
        return item
    if isinstance(item, Mapping) and isinstance(item.get("prompt"), str):
        return item["prompt"]
    return ""


class LeakIndex:
    """Source prompts, embedded once, that a generated prompt is checked against."""

    def __init__(
        self, sources: Iterable[Any], *, threshold: float = THRESHOLD, embedder: Any = "hash"
    ) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {threshold}")
        self.threshold = threshold
        self.embed: Embedder = embed if embedder == "hash" else embedder
        if not callable(self.embed):
            raise TypeError("embedder must be 'hash' or a callable text -> vector")
        texts = [t for t in map(prompt_of, sources) if t.strip()]
        self.texts = texts
        self.exact = {" ".join(words(t)): i for i, t in enumerate(texts)}
        vectors = [_unit(self.embed(t)) for t in texts]
        self.matrix = np.stack(vectors) if vectors else np.zeros((0, 1), dtype=np.float32)

    def match(self, text: str) -> dict[str, Any] | None:
        """``{"source", "similarity", "exact"}`` of the closest source at or over the threshold,
        or ``None`` when ``text`` copies no source."""
        if not text.strip() or not self.texts:
            return None
        exact = self.exact.get(" ".join(words(text)))
        if exact is not None:
            return {"source": exact, "similarity": 1.0, "exact": True}
        sims = self.matrix @ _unit(self.embed(text))
        best = int(np.argmax(sims))
        if float(sims[best]) >= self.threshold:
            return {"source": best, "similarity": round(float(sims[best]), 4), "exact": False}
        return None


def _unit(vector: Any) -> np.ndarray:
    vec = np.asarray(vector, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


def leakage_report(
    generated: Sequence[Any],
    sources: Sequence[Any],
    threshold: float = THRESHOLD,
    embedder: Any = "hash",
    examples: int = 20,
) -> dict[str, Any]:
    """Near-copy check of generated prompts against source traces: ``n_generated``,
    ``n_sources``, ``n_leaky`` (the full count), ``threshold`` and ``leaky`` (the first
    ``examples`` offenders: ``index``, ``prompt``, ``source_prompt``, ``similarity``, ``exact``)."""
    return _check(generated, sources, threshold, embedder, examples)[1]


def drop_leaky_rows(
    rows: Sequence[Any],
    sources: Sequence[Any],
    threshold: float = THRESHOLD,
    embedder: Any = "hash",
    examples: int = 20,
) -> tuple[list[Any], dict[str, Any]]:
    """The rows that copy no source (flagged rows are removed, not rewritten) and the report."""
    return _check(rows, sources, threshold, embedder, examples)


def _check(
    rows: Sequence[Any], sources: Sequence[Any], threshold: float, embedder: Any, examples: int
) -> tuple[list[Any], dict[str, Any]]:
    index = LeakIndex(sources, threshold=threshold, embedder=embedder)
    kept, leaky = [], []
    for position, row in enumerate(rows):
        hit = index.match(prompt_of(row))
        if hit is None:
            kept.append(row)
            continue
        leaky.append(
            {
                "index": position,
                "prompt": prompt_of(row),
                "source_prompt": index.texts[hit["source"]],
                "similarity": hit["similarity"],
                "exact": hit["exact"],
            }
        )
    report = {
        "n_generated": len(rows),
        "n_sources": len(index.texts),
        "n_leaky": len(leaky),
        "threshold": threshold,
        "leaky": leaky[:examples],
    }
    return kept, report
