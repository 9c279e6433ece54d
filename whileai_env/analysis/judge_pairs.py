"""Pairwise judging both ways round: a winner per pair, and how often the order decided it.

A judge shown two replies tends to prefer one *position* (LLM judges often the first). Each pair
``{"chosen": row, "rejected": row}`` (what :func:`~whileai_env.analysis.pairs.build_preference_pairs`
returns; ``{"a": row, "b": row}`` works too) is judged as ``{"first": A, "second": B}`` and as
``{"first": B, "second": A}`` through the one runner. The judge is a pair judge
(:func:`~whileai_env.judges.pairwise.pair_judge`, or any callable of a pair row): reward 1.0 means
the first side won, 0.0 the second, 0.5 a tie. A side wins when it wins both orders; when the
verdict follows the position instead (the same position wins both times) the pair is a ``tie``
and counts towards ``position_flip_rate``; a pair either order could not grade has no winner.

>>> first_wins = lambda pair: 1.0                          # always prefers position one
>>> pairs = [{"chosen": {"final_text": "Done"}, "rejected": {"final_text": "Hm"}}]
>>> judged, report = judge_pairs(pairs, first_wins)
>>> judged[0]["judge_pair"]["winner"], report["position_flip_rate"]
('tie', 1.0)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from whileai_env.grading.judge import run_judge


def _sides(pair: Mapping[str, Any], index: int) -> tuple[str, str]:
    for names in (("chosen", "rejected"), ("a", "b")):
        if all(isinstance(pair.get(n), Mapping) for n in names):
            return names
    raise ValueError(f"pair {index} needs two rows as 'chosen'/'rejected' or 'a'/'b'")


def _pair_row(pair: Mapping[str, Any], first: str, second: str) -> dict[str, Any]:
    return {
        "prompt": pair.get("prompt") or pair[first].get("prompt"),
        "task_id": pair.get("task_id") or pair[first].get("task_id"),
        "first": copy.deepcopy(dict(pair[first])),
        "second": copy.deepcopy(dict(pair[second])),
    }


def _score(row: Mapping[str, Any]) -> float | None:
    reward = row.get("reward")
    return float(reward) if row.get("judge_status") == "ok" and reward is not None else None


def _outcome(
    forward: float | None, backward: float | None, names: tuple[str, str]
) -> dict[str, Any]:
    """The pair's verdict from the two orders' rewards (first side's view in each)."""
    out: dict[str, Any] = {
        "forward": forward,
        "backward": backward,
        "winner": None,
        "flipped": False,
    }
    if forward is None or backward is None:
        return out
    a_over_b, b_over_a = forward - 0.5, backward - 0.5
    if a_over_b > 0 and b_over_a < 0:
        out["winner"] = names[0]
    elif a_over_b < 0 and b_over_a > 0:
        out["winner"] = names[1]
    else:
        out["winner"] = "tie"
        out["flipped"] = (a_over_b > 0 and b_over_a > 0) or (a_over_b < 0 and b_over_a < 0)
    return out


def judge_pairs(
    pairs: Sequence[Mapping[str, Any]],
    judge: Callable[[dict[str, Any]], Any],
    *,
    timeout: float | None = None,
    concurrency: int = 1,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Copies of ``pairs`` with ``judge_pair`` (``winner``, ``forward``, ``backward``,
    ``flipped``), and a report: ``pairs``, ``judged`` (both orders graded), ``wins`` per side,
    ``ties``, ``position_flip_rate`` (of the judged pairs), ``first_position_rate`` (share of
    decided verdicts that went to whichever side was shown first) and, for chosen/rejected pairs,
    ``agrees_with_chosen`` (share of judged pairs the chosen side won)."""
    names = [_sides(pair, i) for i, pair in enumerate(pairs)]
    views = [
        view
        for pair, (a, b) in zip(pairs, names, strict=True)
        for view in (_pair_row(pair, a, b), _pair_row(pair, b, a))
    ]
    graded = run_judge(views, judge, timeout=timeout, concurrency=concurrency)
    out = []
    for i, (pair, sides) in enumerate(zip(pairs, names, strict=True)):
        verdict = _outcome(_score(graded[2 * i]), _score(graded[2 * i + 1]), sides)
        out.append({**copy.deepcopy(dict(pair)), "judge_pair": verdict})
    return out, _report(out, names)


def _report(judged: list[dict[str, Any]], names: list[tuple[str, str]]) -> dict[str, Any]:
    verdicts = [p["judge_pair"] for p in judged]
    both = [v for v in verdicts if v["winner"] is not None]
    wins: dict[str, int] = {}
    for v in both:
        if v["winner"] != "tie":
            wins[v["winner"]] = wins.get(v["winner"], 0) + 1
    decided = [s for v in both for s in (v["forward"], v["backward"]) if s != 0.5]
    chosen = [v for v, n in zip(verdicts, names, strict=True) if n[0] == "chosen" and v["winner"]]
    return {
        "pairs": len(judged),
        "judged": len(both),
        "wins": wins,
        "ties": sum(v["winner"] == "tie" for v in both),
        "position_flip_rate": sum(v["flipped"] for v in both) / len(both) if both else None,
        "first_position_rate": sum(s > 0.5 for s in decided) / len(decided) if decided else None,
        "agrees_with_chosen": (
            sum(v["winner"] == "chosen" for v in chosen) / len(chosen) if chosen else None
        ),
    }
