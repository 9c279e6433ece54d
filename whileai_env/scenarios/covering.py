"""Pairwise (strength-2) covering arrays.

Written here rather than taken from a library (allpairspy) because the grid needs two things
those do not give: tie-breaks drawn from a seeded hash, so the same axes always give the same
rows in any process, and a salt per block, so each policy clause owns a block of cells that no
other clause's edit can move.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from whileai_env._util.hashing import stable_hash


def pairwise(axes: Sequence[tuple[str, Sequence[str]]], salt: str = "") -> list[dict[str, str]]:
    """Rows covering every pair of values of every two axes at least once.

    Greedy (AETG-style): each new row starts from the first uncovered pair, then fills every
    other axis with the value that covers the most uncovered pairs, a hash of ``salt``
    breaking ties (so no value is favoured by its position).

    >>> rows = pairwise([("a", ["1", "2"]), ("b", ["x", "y"]), ("c", ["p", "q"])])
    >>> len(rows), all({(r["a"], r["b"]) for r in rows} >= {("1", "x")} for _ in [0])
    (4, True)
    """
    names = [name for name, _ in axes]
    values = [list(vals) for _, vals in axes]
    if any(not v for v in values):
        empty = [n for n, v in zip(names, values, strict=True) if not v]
        raise ValueError(f"axes with no values: {', '.join(empty)}")
    n = len(names)
    if n == 1:
        return [{names[0]: v} for v in values[0]]
    uncovered: set[tuple[int, int, int, int]] = {
        (i, a, j, b)
        for i, j in combinations(range(n), 2)
        for a in range(len(values[i]))
        for b in range(len(values[j]))
    }
    rows: list[dict[str, str]] = []
    while uncovered:
        i0, a0, j0, b0 = min(uncovered)
        row: list[int | None] = [None] * n
        row[i0], row[j0] = a0, b0
        for k in range(n):
            if row[k] is not None:
                continue
            best, best_score = 0, (-1, 0.0)
            for v in range(len(values[k])):
                gain = 0
                for m in range(n):
                    if row[m] is None or m == k:
                        continue
                    key = (m, row[m], k, v) if m < k else (k, v, m, row[m])
                    if key in uncovered:
                        gain += 1
                score = (gain, -stable_hash(salt, len(rows), k, v) / 2**64)
                if score > best_score:
                    best, best_score = v, score
            row[k] = best
        full = [r for r in row if r is not None]
        for i, j in combinations(range(n), 2):
            uncovered.discard((i, full[i], j, full[j]))
        rows.append({names[k]: values[k][full[k]] for k in range(n)})
    return rows
