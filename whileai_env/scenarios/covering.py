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

    Cost: the first uncovered pair is found by a cursor over the pairs in sorted order (a pair
    once covered stays covered), and a tie-break hash is only computed for values that tie
    with the best so far; the rows are the same as a plain ``min(uncovered)`` scan gives.

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
    sizes = [len(v) for v in values]
    order = [
        (i, a, j, b)
        for i, j in combinations(range(n), 2)
        for a in range(sizes[i])
        for b in range(sizes[j])
    ]
    order.sort()
    uncovered = set(order)
    rows: list[dict[str, str]] = []
    cursor = 0
    while uncovered:
        while order[cursor] not in uncovered:
            cursor += 1
        i0, a0, j0, b0 = order[cursor]
        row: list[int | None] = [None] * n
        row[i0], row[j0] = a0, b0
        for k in range(n):
            if row[k] is None:
                row[k] = _best_value(k, sizes[k], row, uncovered, salt, len(rows))
        full = [r for r in row if r is not None]
        for i, j in combinations(range(n), 2):
            uncovered.discard((i, full[i], j, full[j]))
        rows.append({names[k]: values[k][full[k]] for k in range(n)})
    return rows


def _best_value(
    k: int, size: int, row: list[int | None], uncovered: set, salt: str, index: int
) -> int:
    """The value of axis ``k`` covering the most uncovered pairs with the values already in
    ``row``; ties go to the largest ``-stable_hash(salt, index, k, v) / 2**64``, the first of
    equal scores winning (exactly the order a full ``(gain, key)`` comparison gives)."""
    fixed = [(m, row[m]) for m in range(len(row)) if row[m] is not None and m != k]
    best, best_gain, best_key = 0, -1, None
    for v in range(size):
        gain = 0
        for m, value in fixed:
            if ((m, value, k, v) if m < k else (k, v, m, value)) in uncovered:
                gain += 1
        if gain < best_gain:
            continue
        if gain > best_gain:
            best, best_gain, best_key = v, gain, None
            continue
        if best_key is None:
            best_key = -stable_hash(salt, index, k, best) / 2**64
        key = -stable_hash(salt, index, k, v) / 2**64
        if key > best_key:
            best, best_key = v, key
    return best
