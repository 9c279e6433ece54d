"""Is the judge trustworthy? Agreement with hand labels, and the holes a policy would find.

Label 30 to 100 rows by hand as ``gold_reward`` (0/1). :func:`judge_agreement` gives agreement
with a Wilson interval, Cohen's kappa, the confusion counts and ``pass_when_gold_fail``: the gold
failures the judge passed, the rows a training run learns the failure from, so that rate matters
more than the headline. :func:`judge_trust` adds agreement on two task halves (tune on one, read
the other), length bias (the judge's pass rate on short versus long replies *within the same
human label*), and, given the judge, a re-judge of a sample as is (consistency) and with neutral
filler appended (a flip means the judge reads length), plus ``probes``: the reward hacks a policy
finds first, tried on the judge on purpose. ``ok`` means measured and clean; with no labels the
judge is *unmeasured*, not untrustworthy, and the report says so.

>>> rows = [{"reward": float(i % 4 != 0), "gold_reward": float(i % 2 == 0)} for i in range(40)]
>>> agreement = judge_agreement(rows)
>>> agreement["agreement"], agreement["pass_when_gold_fail"], agreement["kappa"]
(0.25, 1.0, -0.5)
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from whileai_env._util.hashing import rng, stable_hash
from whileai_env.analysis.groups import ask_key, reply_length, reward_of
from whileai_env.analysis.judge_probes import EXPLOITABLE, FILLER, judge_probes, with_reply

__all__ = [
    "EXPLOITABLE",
    "FILLER",
    "format_judge_trust",
    "judge_agreement",
    "judge_trust",
    "wilson",
]

MIN_LABELS = 50


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if n == 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def judge_agreement(
    rows: Sequence[Mapping[str, Any]],
    *,
    gold: str | Sequence[Mapping[str, Any]] = "gold_reward",
    threshold: float = 0.5,
) -> dict[str, Any]:
    """Agreement of the judge's ``reward`` with ``gold`` (a row field, or a second scoring run
    whose rewards, row by row, are the gold). Rewards and gold pass at ``threshold``."""
    pairs = _labelled(rows, gold, threshold)
    n = len(pairs)
    tp = sum(j and g for j, g in pairs)
    tn = sum(not j and not g for j, g in pairs)
    fp = sum(j and not g for j, g in pairs)
    fn = n - tp - tn - fp
    one_class = n > 0 and (tp + fn in (0, n))
    notes = []
    if n < MIN_LABELS:
        notes.append(f"{n} labelled rows: {MIN_LABELS} is the floor for a reliable read")
    if one_class:
        notes.append("the gold labels hold one class only: kappa and the length flags are skipped")
    return {
        "n": n,
        "agreement": (tp + tn) / n if n else None,
        "ci95": wilson(tp + tn, n),
        "kappa": None if one_class else _kappa(tp, tn, fp, fn),
        "confusion": {"tp": tp, "tn": tn, "fp": fp, "fn": fn},
        "pass_when_gold_fail": fp / (fp + tn) if fp + tn else None,
        "fail_when_gold_pass": fn / (fn + tp) if fn + tp else None,
        "one_class": one_class,
        "notes": notes,
    }


def _labelled(
    rows: Sequence[Mapping[str, Any]], gold: str | Sequence[Mapping[str, Any]], threshold: float
) -> list[tuple[bool, bool]]:
    if isinstance(gold, str):
        labels = [reward_of({"reward": row.get(gold)}) for row in rows]
    else:
        if len(gold) != len(rows):
            raise ValueError(f"gold run has {len(gold)} rows for {len(rows)} judged rows")
        labels = [reward_of(row) for row in gold]
    pairs = []
    for row, label in zip(rows, labels, strict=True):
        reward = reward_of(row)
        if reward is not None and label is not None:
            pairs.append((reward >= threshold, label >= threshold))
    return pairs


def _kappa(tp: int, tn: int, fp: int, fn: int) -> float | None:
    n = tp + tn + fp + fn
    if not n:
        return None
    observed = (tp + tn) / n
    expected = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / (n * n)
    return None if expected == 1 else (observed - expected) / (1 - expected)


def judge_trust(
    rows: Sequence[Mapping[str, Any]],
    *,
    judge: Callable[[dict[str, Any]], Any] | None = None,
    gold: str = "gold_reward",
    threshold: float = 0.5,
    sample: int = 20,
    probes: bool | str | Sequence[str] = False,
    seed: int = 0,
) -> dict[str, Any]:
    """The trust report (see the module docstring): ``measured``, ``ok``, ``agreement``,
    ``halves``, ``length_bias``, with ``judge`` also ``consistency`` and ``filler_flip_rate``,
    with ``probes=True`` (or probe names) also ``probes`` and ``exploitable_by`` from
    :func:`~whileai_env.analysis.judge_probes.judge_probes`; ``review_queue`` lists the
    disagreements."""
    labelled = [row for row in rows if reward_of(row) is not None and row.get(gold) is not None]
    agreement = judge_agreement(labelled, gold=gold, threshold=threshold)
    report: dict[str, Any] = {
        "measured": agreement["n"] > 0,
        "agreement": agreement,
        "halves": _halves(labelled, gold, threshold),
        "length_bias": _length_bias(labelled, gold, threshold, agreement["one_class"]),
        "review_queue": _review(rows, gold, threshold),
    }
    if judge is not None:
        picked = _sample(rows, sample, seed)
        report.update(_rejudge(picked, judge, threshold))
        if probes:
            chosen = "all" if probes is True else probes
            found = judge_probes(picked, judge, chosen, threshold=threshold)
            report.update(probes=found["probes"], exploitable_by=found["exploitable_by"])
    report["ok"] = _clean(report)
    return report


def _halves(rows: list[Mapping[str, Any]], gold: str, threshold: float) -> list[float | None]:
    halves: list[list[Mapping[str, Any]]] = [[], []]
    for row in rows:
        halves[stable_hash("half", _ask(row)) % 2].append(row)
    return [judge_agreement(h, gold=gold, threshold=threshold)["agreement"] for h in halves]


def _ask(row: Mapping[str, Any]) -> str:
    try:
        return ask_key(row)
    except ValueError:
        return str(row.get("final_text"))


def _length_bias(
    rows: list[Mapping[str, Any]], gold: str, threshold: float, one_class: bool
) -> dict[str, Any]:
    """Judge pass rate on the shorter and longer half of replies within each gold label."""
    out: dict[str, Any] = {"flag": False}
    if one_class:
        return out
    for label, name in ((True, "gold_pass"), (False, "gold_fail")):
        same = sorted((r for r in rows if (float(r[gold]) >= threshold) is label), key=reply_length)
        if len(same) < 6:
            continue
        short, long = same[: len(same) // 2], same[len(same) - len(same) // 2 :]
        rates = [_pass_rate(part, threshold) for part in (short, long)]
        out[name] = {"short": rates[0], "long": rates[1]}
        out["flag"] = out["flag"] or rates[1] - rates[0] >= 0.2
    return out


def _pass_rate(rows: Sequence[Mapping[str, Any]], threshold: float) -> float:
    return sum((reward_of(r) or 0.0) >= threshold for r in rows) / len(rows)


def _review(rows: Sequence[Mapping[str, Any]], gold: str, threshold: float) -> list[dict[str, Any]]:
    queue = []
    for index, row in enumerate(rows):
        reward, label = reward_of(row), reward_of({"reward": row.get(gold)})
        if (
            reward is not None
            and label is not None
            and (reward >= threshold) != (label >= threshold)
        ):
            queue.append(
                {"index": index, "task_id": row.get("task_id"), "reward": reward, "gold": label}
            )
    return queue[:50]


def _sample(rows: Sequence[Mapping[str, Any]], size: int, seed: int) -> list[Mapping[str, Any]]:
    pool = [row for row in rows if reward_of(row) is not None]
    return rng("judge-trust", seed).sample(pool, min(size, len(pool)))


def _passes(
    judge: Callable[[dict[str, Any]], Any], row: dict[str, Any], threshold: float
) -> bool | None:
    from whileai_env.grading.judge import judge_verdict

    verdict = judge_verdict(judge, row)
    return None if verdict.reward is None else verdict.reward >= threshold


def _rejudge(
    rows: list[Mapping[str, Any]], judge: Callable[[dict[str, Any]], Any], threshold: float
) -> dict[str, Any]:
    same = flips = counted = 0
    for row in rows:
        before = (reward_of(row) or 0.0) >= threshold
        again = _passes(judge, copy.deepcopy(dict(row)), threshold)
        padded = _passes(
            judge, with_reply(row, str(row.get("final_text") or "") + FILLER), threshold
        )
        if again is None or padded is None:
            continue
        counted += 1
        same += again == before
        flips += padded != again
    return {
        "consistency": same / counted if counted else None,
        "filler_flip_rate": flips / counted if counted else None,
        "rejudged": counted,
    }


def _clean(report: Mapping[str, Any]) -> bool:
    agreement = report["agreement"]
    if not report["measured"] or agreement["one_class"]:
        return False
    checks = [
        (agreement["kappa"] or 0.0) >= 0.6,
        (agreement["pass_when_gold_fail"] or 0.0) <= 0.1,
        not report["length_bias"]["flag"],
        (report.get("consistency") or 1.0) >= 0.9,
        (report.get("filler_flip_rate") or 0.0) <= 0.1,
        not report.get("exploitable_by"),
    ]
    return all(checks)


def format_judge_trust(report: Mapping[str, Any]) -> str:
    """The trust report as text; ``NOT MEASURED`` when no row carries a gold label.

    >>> print(format_judge_trust(judge_trust([{"reward": 1.0, "final_text": "ok"}])))
    judge trust: NOT MEASURED (no row has a gold label: label 30 to 100 rows as gold_reward)
    """
    if not report["measured"]:
        return "judge trust: NOT MEASURED (no row has a gold label: label 30 to 100 rows as gold_reward)"
    a = report["agreement"]
    low, high = a["ci95"]
    kappa = "n/a" if a["kappa"] is None else f"{a['kappa']:.2f}"
    pwgf = "n/a" if a["pass_when_gold_fail"] is None else f"{a['pass_when_gold_fail']:.2f}"
    lines = [
        f"judge trust: {'OK' if report['ok'] else 'NOT OK'} | agreement {a['agreement']:.2f} "
        f"[{low:.2f}, {high:.2f}] over {a['n']} | kappa {kappa} | pass when gold fails {pwgf}",
        f"halves: {', '.join('n/a' if h is None else f'{h:.2f}' for h in report['halves'])}"
        f" | length bias: {'YES' if report['length_bias']['flag'] else 'no'}",
    ]
    if "consistency" in report:
        lines.append(
            f"consistency {_fmt(report['consistency'])} | filler flips {_fmt(report['filler_flip_rate'])}"
        )
    if report.get("exploitable_by"):
        lines.append(f"exploitable by: {', '.join(report['exploitable_by'])}")
    lines += [f"note: {note}" for note in a["notes"]]
    return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"
