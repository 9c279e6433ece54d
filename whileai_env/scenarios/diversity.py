"""Diversity selection: a hashed bag-of-words embedding plus seeded noise.

Used to pick, among a few candidate tasks, the one whose opener is least like the recent
batch, so a run is not a stack of near-copies. crc32 is used for token buckets because it is
fast and stable across processes (Python's ``hash`` is salted).
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence

import numpy as np

from whileai_env._util.hashing import unit

DIM = 256
#: How many recent openers a candidate is compared with.
RECENT = 64
_TOKEN = re.compile(r"[a-z0-9]+")


def embed(text: str, dim: int = DIM) -> np.ndarray:
    """A unit-norm hashed bag-of-words vector (words and word pairs).

    The buckets are counted by one ``np.bincount`` (a numpy item update per word was most of the
    cost); counts of ones and halves are exact in float32, so the vector is the same as adding
    them one by one.

    >>> v = embed("refund order 42")
    >>> v.shape, round(float(v @ v), 4)
    ((256,), 1.0)
    """
    words = _TOKEN.findall(text.lower())
    if not words:
        return np.zeros(dim, dtype=np.float32)
    buckets = [zlib.crc32(w.encode()) % dim for w in words]
    buckets += [zlib.crc32(f"{a} {b}".encode()) % dim for a, b in itertools.pairwise(words)]
    weights = np.full(len(buckets), 0.5)
    weights[: len(words)] = 1.0
    vec = np.bincount(buckets, weights=weights, minlength=dim).astype(np.float32)
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


def most_novel(
    candidates: Sequence[np.ndarray], recent: np.ndarray, *, noise: float = 0.05, key: object = 0
) -> int:
    """Index of the candidate embedding farthest (by max cosine similarity) from the ``recent`` rows."""
    if len(recent) == 0 or len(candidates) == 1:
        return 0
    sims = (recent @ np.stack(candidates).T).max(axis=0)
    scores = [
        (1.0 - float(sim)) + noise * unit("novelty-noise", key, i) for i, sim in enumerate(sims)
    ]
    return int(np.argmax(scores))
