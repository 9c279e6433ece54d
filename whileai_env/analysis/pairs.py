"""Preference pairs from graded rollouts of the same ask, for DPO-style training.

Within one ask, a better-rewarded rollout is *chosen* over a worse one when the rewards differ by
at least ``min_margin`` (a small margin is mostly judge noise). ``length_match`` (a ratio, such as
``1.5``) keeps only pairs whose replies are within that factor in length, so the pair does not
teach "longer wins" when the judge happens to prefer length. Each ask gives at most
``max_pairs_per_prompt`` pairs, the widest margins first, each rollout in at most one pair.

A pair is ``{"prompt", "task_id", "chosen", "rejected", "margin", "chosen_reward",
"rejected_reward"}`` with the two rows whole (the export projects them; it drops ``privileged``).

>>> rows = [{"task_id": "t", "prompt": "p", "reward": r, "final_text": text}
...         for r, text in ((1.0, "Done: order 7 cancelled."), (0.0, "Sorry."), (0.4, "Hmm"))]
>>> pairs, report = build_preference_pairs(rows)
>>> [(p["chosen"]["final_text"], p["rejected"]["final_text"], p["margin"]) for p in pairs]
[('Done: order 7 cancelled.', 'Sorry.', 1.0)]
>>> build_preference_pairs(rows, length_match=2.0)[1]["length_filtered"]
2
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env.analysis.groups import (
    by_ask,
    from_eval,
    reply_length,
    reward_of,
    trajectory_signature,
)


def build_preference_pairs(
    rows: Iterable[Mapping[str, Any]],
    *,
    min_margin: float = 0.5,
    length_match: float | None = None,
    max_pairs_per_prompt: int = 1,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Pairs from graded ``rows`` (see the module docstring) and a report: ``pairs``, ``asks``,
    ``asks_paired``, ``no_margin`` (asks with no two rollouts ``min_margin`` apart),
    ``length_filtered`` (candidate pairs ``length_match`` removed), ``chosen_longer`` (share of
    pairs whose chosen reply is the longer: near 1 reads as a length preference) and
    ``eval_sourced`` (pairs with a side graded by an evaluation)."""
    if max_pairs_per_prompt < 1:
        raise ValueError(f"max_pairs_per_prompt must be at least 1, got {max_pairs_per_prompt}")
    if length_match is not None and length_match < 1:
        raise ValueError(f"length_match is a ratio >= 1, got {length_match}")
    pairs: list[dict[str, Any]] = []
    report = {"asks": 0, "asks_paired": 0, "no_margin": 0, "length_filtered": 0}
    for group in by_ask(_judged(rows)).values():
        report["asks"] += 1
        candidates, filtered = _candidates(group, min_margin, length_match)
        report["length_filtered"] += filtered
        chosen = _greedy(candidates, max_pairs_per_prompt)
        report["no_margin"] += not candidates and not filtered
        report["asks_paired"] += bool(chosen)
        pairs += [_pair(group[i], group[j]) for i, j in chosen]
    return pairs, {**report, **_summary(pairs)}


def _judged(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Judged rows, one per distinct trajectory within an ask."""
    seen: set[tuple[Any, str]] = set()
    out = []
    for row in rows:
        if reward_of(row) is None or row.get("judge_status", "ok") != "ok":
            continue
        mark = (row.get("task_id") or row.get("prompt"), trajectory_signature(row))
        if mark not in seen:
            seen.add(mark)
            out.append(row)
    return out


def _candidates(
    group: Sequence[Mapping[str, Any]], min_margin: float, length_match: float | None
) -> tuple[list[tuple[int, int]], int]:
    """Index pairs ``(chosen, rejected)`` a margin apart, widest margin first (then the closest
    lengths), and how many the length match removed."""
    out, filtered = [], 0
    for i, j in itertools.permutations(range(len(group)), 2):
        margin = _reward(group[i]) - _reward(group[j])
        if margin <= 0 or margin < min_margin - 1e-9:  # 0.7 - 0.2 is 0.4999…
            continue
        if length_match is not None and _length_ratio(group[i], group[j]) > length_match:
            filtered += 1
            continue
        out.append((i, j))
    out.sort(
        key=lambda ij: (
            -(_reward(group[ij[0]]) - _reward(group[ij[1]])),
            _length_ratio(group[ij[0]], group[ij[1]]),
            ij,
        )
    )
    return out, filtered


def _greedy(candidates: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    used: set[int] = set()
    chosen: list[tuple[int, int]] = []
    for i, j in candidates:
        if len(chosen) == limit:
            break
        if i not in used and j not in used:
            chosen.append((i, j))
            used.update((i, j))
    return chosen


def _reward(row: Mapping[str, Any]) -> float:
    reward = reward_of(row)
    return 0.0 if reward is None else reward


def _length_ratio(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    short, long = sorted((reply_length(a), reply_length(b)))
    return long / max(short, 1)


def _pair(chosen: Mapping[str, Any], rejected: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "prompt": chosen.get("prompt"),
        "task_id": chosen.get("task_id"),
        "chosen": copy.deepcopy(dict(chosen)),
        "rejected": copy.deepcopy(dict(rejected)),
        "margin": _reward(chosen) - _reward(rejected),
        "chosen_reward": _reward(chosen),
        "rejected_reward": _reward(rejected),
    }


def _summary(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    longer = [reply_length(p["chosen"]) > reply_length(p["rejected"]) for p in pairs]
    eval_sourced = sum(any(from_eval(p[side]) for side in ("chosen", "rejected")) for p in pairs)
    warnings = []
    if eval_sourced:
        warnings.append(f"{eval_sourced} pairs hold a side graded by an evaluation")
    return {
        "pairs": len(pairs),
        "chosen_longer": sum(longer) / len(longer) if longer else None,
        "eval_sourced": eval_sourced,
        "warnings": warnings,
    }
