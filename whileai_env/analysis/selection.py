"""Prune graded rows before training: :func:`optimize` for RL (whole groups with signal) or SFT
(rejection sampling), :func:`curriculum` (easy to hard, solved and not-ready set apart) and
:func:`retire_solved`.

``optimize(mode="rl")``, in order: drops junk (unjudged rows, a failed judge, no ask), duplicate
trajectories within an ask (the same rollout twice adds nothing to a group-relative advantage),
truncated rollouts (``truncated="keep"`` leaves them in marked ``overlong``; ``"penalize"`` keeps
them as failures with the judged score under ``reward_before_penalty``, DAPO's overlong
handling), unanimous asks (all pass or all fail: zero advantage), and asks whose pass rate is
outside ``band`` (the offline difficulty filter of the reasoning-model recipes: it reads pass
rates, never the prompt); then keeps whole groups round-robin across fault kinds so no one kind
of failure fills the set. Every kept row carries ``group_stats`` (``n0`` / ``n1``,
``reward_mean``, ``reward_std`` after the prune) and a ``calibration`` stamp: its task's pass rate
and the run's pass@1 / pass^k / pass@k measured on the graded rows *before* the prune, since the
prune shrinks groups and the k-way numbers of the selection no longer mean what they did.

>>> rows = [{"task_id": f"t{t}", "prompt": f"p{t}", "reward": float(i < t),
...          "final_text": f"reply {i}"} for t in range(4) for i in range(3)]
>>> kept, report = optimize(rows, mode="rl")
>>> sorted({row["task_id"] for row in kept}), report["unanimous"]
(['t1', 't2'], {'all_pass': 1, 'all_fail': 1})
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from whileai_env._util.hashing import rng, stable_hash
from whileai_env.analysis.groups import (
    ask_key,
    by_ask,
    fault_kind,
    from_eval,
    reward_of,
    stats,
    trajectory_signature,
)
from whileai_env.analysis.hack_scan import hack_scan
from whileai_env.analysis.passk import pass_at

MODES = ("rl", "sft")
TRUNCATED = ("drop", "keep", "penalize")
SFT_SELECT = ("top_per_prompt", "top_k_overall", "random_per_prompt", "random_k_overall")


def optimize(
    rows: Iterable[Mapping[str, Any]],
    mode: str = "rl",
    *,
    band: tuple[float, float] = (0.2, 0.8),
    enforce_band: bool = True,
    truncated: str = "drop",
    max_groups: int | None = None,
    select: str = "top_per_prompt",
    min_reward: float = 1.0,
    k: int | None = None,
    seed: int = 0,
    endorsed: Sequence[str] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Select training rows from graded ``rows``; returns ``(rows, report)`` (see the module
    docstring for ``mode="rl"``).

    ``mode="sft"`` is rejection sampling (after the same junk, duplicate and truncation steps):
    ``select="top_per_prompt"`` keeps each ask's best row with ``reward >= min_reward``,
    ``"top_k_overall"`` the best ``k`` rows across asks, and ``"random_per_prompt"`` /
    ``"random_k_overall"`` the matching chance controls (seeded by ``seed``).
    ``enforce_band=False`` keeps out-of-band asks, ranked after the in-band ones.
    ``endorsed`` (what the reward should track) runs :func:`~whileai_env.analysis.hack_scan.
    hack_scan` on the graded rows into ``report["hack_scan"]``, its warnings into
    ``hygiene_warnings``: a reward that tracks a shortcut is a judge problem, so it is flagged,
    not pruned.

    >>> rows = [{"prompt": "p", "reward": r, "final_text": str(r)} for r in (0.0, 1.0, 1.0)]
    >>> kept, report = optimize(rows, mode="sft")
    >>> [row["final_text"] for row in kept], report["duplicates"]
    (['1.0'], 1)
    """
    _check(mode, truncated, select, band)
    rows = list(rows)
    clean, report = _clean(rows, truncated)
    graded = [r for r in clean if reward_of(r) is not None]
    report["calibration"] = _calibration(graded)
    if mode == "rl":
        kept = _select_rl(by_ask(clean), band, enforce_band, max_groups, report)
    else:
        kept = _select_sft(by_ask(clean), select, min_reward, k, seed, report)
    _stamp(kept, by_ask(graded), report["calibration"])
    report.update(_tail(rows, kept, mode, report))
    if endorsed is not None:
        report["hack_scan"] = hack_scan(graded, endorsed, seed=seed)
        report["hygiene_warnings"] += report["hack_scan"]["warnings"]
    return kept, report


def _check(mode: str, truncated: str, select: str, band: tuple[float, float]) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if truncated not in TRUNCATED:
        raise ValueError(f"truncated must be one of {TRUNCATED}, got {truncated!r}")
    if select not in SFT_SELECT:
        raise ValueError(f"select must be one of {SFT_SELECT}, got {select!r}")
    low, high = band
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"band must be (low, high) with 0 <= low <= high <= 1, got {band!r}")


def _clean(
    rows: list[Mapping[str, Any]], truncated: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Copies of the usable rows (junk and duplicates out, truncation handled) and the counts."""
    report: dict[str, Any] = {"junk": 0, "duplicates": 0, "truncated": 0}
    seen: set[tuple[str, str]] = set()
    out = []
    for row in rows:
        if not _usable(row):
            report["junk"] += 1
            continue
        signature = (ask_key(row), trajectory_signature(row))
        if signature in seen:
            report["duplicates"] += 1
            continue
        seen.add(signature)
        if row.get("truncated"):
            report["truncated"] += 1
            if truncated == "drop":
                continue
        out.append(_truncation(copy.deepcopy(dict(row)), truncated))
    report["truncated_handling"] = truncated
    return out, report


def _usable(row: Mapping[str, Any]) -> bool:
    has_ask = bool(row.get("task_id") or row.get("prompt"))
    judged_ok = row.get("judge_status", "ok") == "ok"
    return has_ask and judged_ok and reward_of(row) is not None


def _truncation(row: dict[str, Any], truncated: str) -> dict[str, Any]:
    if not row.get("truncated"):
        return row
    if truncated == "keep":
        row["overlong"] = True
    elif truncated == "penalize":
        row["reward_before_penalty"] = row.get("reward")
        row["reward"] = 0.0
    return row


def _select_rl(
    groups: dict[str, list[dict[str, Any]]],
    band: tuple[float, float],
    enforce_band: bool,
    max_groups: int | None,
    report: dict[str, Any],
) -> list[dict[str, Any]]:
    """Whole groups with signal, in band, round-robin over fault kinds."""
    report["unanimous"] = {"all_pass": 0, "all_fail": 0}
    report["band"] = list(band)
    report["band_dropped"] = {"too_easy": 0, "too_hard": 0}
    inside, outside = [], []
    for key, group in groups.items():
        numbers = stats(group)
        if numbers["reward_std"] == 0 or numbers["n"] < 2:
            report["unanimous"]["all_pass" if numbers["pass_rate"] >= 0.5 else "all_fail"] += 1
            continue
        rate = numbers["pass_rate"]
        if band[0] <= rate <= band[1]:
            inside.append((key, group, rate))
            continue
        report["band_dropped"]["too_easy" if rate > band[1] else "too_hard"] += 1
        if not enforce_band:
            outside.append((key, group, rate))
    chosen = _round_robin(inside, report) + _round_robin(outside, {})
    chosen = chosen[:max_groups] if max_groups is not None else chosen
    report["kept_groups"] = len(chosen)
    return [row for group in chosen for row in group]


def _round_robin(
    groups: list[tuple[str, list[dict[str, Any]], float]], report: dict[str, Any]
) -> list[list[dict[str, Any]]]:
    """Groups interleaved one fault kind at a time (kinds sorted; within a kind, the pass rate
    nearest one half first, ties by a stable hash of the ask)."""
    kinds: dict[str, list[tuple[str, list[dict[str, Any]], float]]] = {}
    for item in groups:
        kinds.setdefault(fault_kind(item[1][0]), []).append(item)
    for items in kinds.values():
        items.sort(key=lambda item: (abs(item[2] - 0.5), stable_hash("ask", item[0])))
    report["fault_kinds"] = {kind: len(items) for kind, items in sorted(kinds.items())}
    order = []
    queues = [kinds[kind] for kind in sorted(kinds)]
    for depth in range(max((len(q) for q in queues), default=0)):
        order += [q[depth][1] for q in queues if depth < len(q)]
    return order


def _select_sft(
    groups: dict[str, list[dict[str, Any]]],
    select: str,
    min_reward: float,
    k: int | None,
    seed: int,
    report: dict[str, Any],
) -> list[dict[str, Any]]:
    """Rejection sampling: the best (or, as a control, a random) row per ask or overall."""
    rows = [row for group in groups.values() for row in group]
    if select.endswith("_k_overall") and (k is None or k < 1):
        raise ValueError(f"select={select!r} needs k, a positive number of rows")
    draw = rng("optimize-sft", seed)
    if select == "top_per_prompt":
        kept = [_best(g) for g in groups.values() if _best(g)["reward"] >= min_reward]
    elif select == "random_per_prompt":
        kept = [draw.choice(g) for g in groups.values()]
    elif select == "top_k_overall":
        kept = sorted(rows, key=lambda r: -float(r["reward"]))[:k]
    else:
        kept = draw.sample(rows, min(int(k or 0), len(rows)))
    report["select"] = select
    report["min_reward"] = min_reward
    return kept


def _best(group: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The group's highest-reward row (the first of equals, so the choice is stable)."""
    return max(group, key=lambda row: float(row["reward"]))


def _calibration(graded: list[dict[str, Any]]) -> dict[str, Any]:
    """The graded run's measurement, taken before the prune changes the groups."""
    if not graded:
        return {"pass_at_1": None, "pass_pow_k": None, "pass_at_k": None, "k": None}
    measured = pass_at(graded, threshold=0.5)
    return {
        "pass_at_1": measured.pass_at_1,
        "pass_pow_k": measured.pass_pow_k,
        "pass_at_k": measured.pass_at_k,
        "k": measured.k,
    }


def _stamp(
    kept: list[dict[str, Any]],
    graded: dict[str, list[dict[str, Any]]],
    calibration: Mapping[str, Any],
) -> None:
    """``group_stats`` (after the prune) and ``calibration`` (before it) on every kept row."""
    after = by_ask(kept)
    for row in kept:
        key = ask_key(row)
        before = stats(graded.get(key, ()))
        row["group_stats"] = {
            name: value for name, value in stats(after[key]).items() if name != "pass_rate"
        }
        row["calibration"] = {
            **calibration,
            "task_pass_rate": before["pass_rate"],
            "task_rollouts": before["n"],
        }


def _tail(
    rows: list[Mapping[str, Any]], kept: list[dict[str, Any]], mode: str, report: Mapping[str, Any]
) -> dict[str, Any]:
    """The report's closing counts and warnings."""
    warnings = []
    if mode == "rl" and report["calibration"]["pass_pow_k"] is not None:
        warnings.append(
            "the prune shrank every group, so pass^k and pass@k of the selection are not the "
            "graded run's: read report['calibration'] (also on every row)"
        )
    eval_sourced = sum(from_eval(row) for row in rows)
    if eval_sourced:
        warnings.append(
            f"{eval_sourced} rows took their reward from an evaluation (lineage.source == "
            "'eval'): the scorer you report becomes the one you optimise against"
        )
    return {
        "mode": mode,
        "input_rows": len(rows),
        "kept_rows": len(kept),
        "eval_sourced": eval_sourced,
        "hygiene_warnings": warnings,
    }
