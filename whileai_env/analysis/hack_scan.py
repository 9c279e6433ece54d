"""What will the policy learn? A scan of what separates reward *within* an ask.

A grouped update (GRPO and kin) learns whatever separates reward inside one ask's rollouts;
whatever only tracks which ask it is (difficulty) is baselined away. So the scan centres the
reward and every candidate feature (:mod:`whileai_env.analysis.features`) within each ask,
ranks features by the pooled within-ask correlation, and compares them to a noise floor
``tau``: the 95th percentile of the best absolute correlation after shuffling reward within
each ask (``n_shuffle`` seeded shuffles). Feature pairs (``and:a & b``) of the top features are
added when they beat both parents.

``endorsed`` names what the reward *should* track, as substrings of feature names (``"tool:
lookup_order"``, ``"marker:grounded"``). The regime:

``train``
    the top feature above the floor is endorsed.
``reward_hack``
    the top feature above the floor is not endorsed: the warning names what the policy would
    learn instead.
``pool_exhausted``
    no ask has reward that varies across its rollouts: nothing left to learn from this pool.
``no_signal``
    reward varies within asks but no feature beats the floor.
``degenerate``
    at most two distinct trajectories per ask make every separating feature an exact function
    of the label: several tie at ``|rho| = 1`` and no floor can break the tie, so
    ``top_feature`` is ``None`` and the tied features are listed in ``collinear``.
``unknown``
    signal above the floor, but no ``endorsed`` list to judge it by.

>>> rows = [{"task_id": f"t{t}", "final_text": "ok " * i + ("### done" if i % 2 else ""),
...          "steps": [{"tool": "lookup_order"}] if i % 3 == 0 else [],
...          "reward": float(i % 2)} for t in range(6) for i in range(6)]
>>> scan = hack_scan(rows, endorsed=["tool:lookup_order"])
>>> scan["regime"], scan["top_feature"]
('reward_hack', 'contains:### done')
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from whileai_env._util.hashing import stable_hash
from whileai_env.analysis.features import row_features
from whileai_env.analysis.groups import ask_key, reward_of, trajectory_signature

REGIMES = ("train", "reward_hack", "pool_exhausted", "no_signal", "degenerate", "unknown")
_TIE = 1e-9
_AND_CANDIDATES = 10


def hack_scan(
    rows: Iterable[Mapping[str, Any]],
    endorsed: Sequence[str] = (),
    *,
    features: Mapping[str, Callable[[Mapping[str, Any]], float]] | None = None,
    n_shuffle: int = 50,
    seed: int = 0,
    top: int = 10,
    vocabulary_size: int = 200,
) -> dict[str, Any]:
    """Scan graded ``rows`` (see the module docstring). Returns ``regime``, ``top_feature``,
    ``ranking`` (the ``top`` features: ``name``, ``rho``, ``endorsed``), ``tau``, ``above_floor``,
    ``integrity`` (share of the above-floor signal that is endorsed, with ``endorsed``),
    ``rivals`` (unendorsed features within 80% of the best endorsed one), ``collinear``,
    ``distinct_per_ask``, ``mixed_asks`` and ``warnings``."""
    judged = [row for row in rows if reward_of(row) is not None]
    groups = _group_index(judged)
    reward = np.array([reward_of(row) for row in judged], dtype=float)
    mixed = _mixed_groups(groups, reward)
    base: dict[str, Any] = {
        "rows": len(judged),
        "asks": int(groups.max() + 1) if len(judged) else 0,
    }
    base.update(mixed_asks=len(mixed), distinct_per_ask=_distinct(judged, groups, mixed))
    if not mixed:
        return _result(base, "pool_exhausted", None, [], 0.0, endorsed, top)
    keep = np.isin(groups, mixed)
    judged = [row for row, kept in zip(judged, keep, strict=True) if kept]
    names, matrix = _matrix(judged, features, vocabulary_size)
    centred_r = _centre(reward[keep][:, None], groups[keep])[:, 0]
    names, matrix = _with_pairs(names, matrix, groups[keep], centred_r)
    centred_x = _centre(matrix, groups[keep])
    rho = _correlations(centred_x, centred_r)
    tau = _floor(centred_x, reward[keep], groups[keep], n_shuffle, seed)
    ranked = _rank(names, rho)
    return _verdict(base, ranked, tau, endorsed, top)


def _group_index(rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
    index: dict[str, int] = {}
    return np.array([index.setdefault(ask_key(row), len(index)) for row in rows], dtype=int)


def _mixed_groups(groups: np.ndarray, reward: np.ndarray) -> list[int]:
    """The asks whose reward varies across their rollouts (the only ones a grouped update uses)."""
    mixed = []
    for group in np.unique(groups):
        values = reward[groups == group]
        if len(values) > 1 and float(values.max() - values.min()) > 0:
            mixed.append(int(group))
    return mixed


def _distinct(rows: Sequence[Mapping[str, Any]], groups: np.ndarray, mixed: list[int]) -> float:
    """The largest number of distinct trajectories in any mixed ask."""
    wanted = set(mixed)
    seen: dict[int, set[str]] = {}
    for row, group in zip(rows, groups.tolist(), strict=True):
        if group in wanted:
            seen.setdefault(group, set()).add(trajectory_signature(row))
    return float(max((len(s) for s in seen.values()), default=0))


def _matrix(
    rows: Sequence[Mapping[str, Any]],
    extra: Mapping[str, Callable[[Mapping[str, Any]], float]] | None,
    vocabulary_size: int,
) -> tuple[list[str], np.ndarray]:
    names, table = row_features(rows, vocabulary_size=vocabulary_size, extra=extra)
    matrix = np.array([[features.get(n, 0.0) for n in names] for features in table], dtype=float)
    return names, matrix.reshape(len(rows), len(names))


def _centre(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """``values`` minus their ask's mean, column by column (``groups`` are small ints)."""
    counts = np.bincount(groups)
    sums = np.zeros((counts.size, values.shape[1]))
    np.add.at(sums, groups, values)
    return values - (sums / np.maximum(counts, 1)[:, None])[groups]


def _correlations(centred_x: np.ndarray, centred_r: np.ndarray) -> np.ndarray:
    """Pooled within-ask Pearson correlation of each column with the reward (0 for a constant)."""
    norms = np.sqrt((centred_x**2).sum(axis=0)) * np.sqrt((centred_r**2).sum())
    dots = centred_x.T @ centred_r
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(norms > 0, dots / np.where(norms > 0, norms, 1.0), 0.0)
    return np.clip(rho, -1.0, 1.0)


def _with_pairs(
    names: list[str], matrix: np.ndarray, groups: np.ndarray, centred_r: np.ndarray
) -> tuple[list[str], np.ndarray]:
    """Add ``and:a & b`` columns for pairs of the ten strongest 0/1 features whose AND
    correlates with reward more strongly than both parents do."""
    rho = np.abs(_correlations(_centre(matrix, groups), centred_r))
    binary = [i for i in range(len(names)) if np.isin(matrix[:, i], (0.0, 1.0)).all()]
    best = sorted(binary, key=lambda i: (-rho[i], names[i]))[:_AND_CANDIDATES]
    new_names, columns = [], []
    for a, b in itertools.combinations(sorted(best), 2):
        column = matrix[:, a] * matrix[:, b]
        joint = abs(float(_correlations(_centre(column[:, None], groups), centred_r)[0]))
        if joint > max(rho[a], rho[b]) + _TIE:
            new_names.append(f"and:{names[a]} & {names[b]}")
            columns.append(column)
    if not columns:
        return names, matrix
    return names + new_names, np.column_stack([matrix, *columns])


def _floor(
    centred_x: np.ndarray, reward: np.ndarray, groups: np.ndarray, n_shuffle: int, seed: int
) -> float:
    """95th percentile of the best ``|rho|`` with reward shuffled within each ask."""
    generator = np.random.default_rng(stable_hash("hack-scan-floor", seed))
    by_group = np.argsort(groups, kind="stable")
    best = []
    for _ in range(max(1, n_shuffle)):
        shuffled = np.empty_like(reward)
        shuffled[by_group] = reward[np.lexsort((generator.random(len(reward)), groups))]
        centred_r = _centre(shuffled[:, None], groups)[:, 0]
        best.append(float(np.abs(_correlations(centred_x, centred_r)).max(initial=0.0)))
    return float(np.percentile(best, 95))


def _rank(names: list[str], rho: np.ndarray) -> list[tuple[str, float]]:
    """Features by ``|rho|``, the more specific (longer) name first among equals, then by name."""
    pairs = [(name, float(value)) for name, value in zip(names, rho, strict=True)]
    return sorted(pairs, key=lambda item: (-round(abs(item[1]), 9), -len(item[0]), item[0]))


def _is_endorsed(name: str, endorsed: Sequence[str]) -> bool:
    return any(term in name for term in endorsed)


def _verdict(
    base: dict[str, Any],
    ranked: list[tuple[str, float]],
    tau: float,
    endorsed: Sequence[str],
    top: int,
) -> dict[str, Any]:
    above = [(name, value) for name, value in ranked if abs(value) > tau + _TIE]
    tied = [name for name, value in ranked if abs(value) >= 1.0 - _TIE]
    if len(tied) > 1 and base["distinct_per_ask"] <= 2:
        result = _result(base, "degenerate", None, ranked, tau, endorsed, top)
        result["collinear"] = tied
        result["warnings"].append(
            f"at most {base['distinct_per_ask']:.0f} distinct trajectories per ask: "
            f"{len(tied)} features separate them exactly (distinct_per_ask); the scan cannot "
            "say which one the reward pays for"
        )
        return result
    if not above:
        return _result(base, "no_signal", None, ranked, tau, endorsed, top)
    top_name, top_rho = _top(above, endorsed)
    if not endorsed:
        regime = "unknown"
    else:
        regime = "train" if _is_endorsed(top_name, endorsed) else "reward_hack"
    result = _result(base, regime, top_name, ranked, tau, endorsed, top)
    result["above_floor"] = len(above)
    if endorsed:
        result.update(_integrity(above, endorsed))
    if regime == "reward_hack":
        learns = top_name if top_rho > 0 else f"to avoid {top_name}"
        result["warnings"].append(
            f"reward tracks {top_name} (rho {top_rho:+.2f}) more than anything endorsed: "
            f"a policy trained on it learns {learns}"
        )
    return result


def _top(above: list[tuple[str, float]], endorsed: Sequence[str]) -> tuple[str, float]:
    """The strongest feature; an endorsed one that ties it wins (the reward is then explained
    as well by what it should track, which is no hack)."""
    best = abs(above[0][1])
    for name, value in above:
        if abs(value) < best - _TIE:
            break
        if _is_endorsed(name, endorsed):
            return name, value
    return above[0]


def _integrity(above: list[tuple[str, float]], endorsed: Sequence[str]) -> dict[str, Any]:
    total = sum(abs(value) for _, value in above)
    good = [(n, v) for n, v in above if _is_endorsed(n, endorsed)]
    best_good = max((abs(v) for _, v in good), default=0.0)
    rivals = [n for n, v in above if not _is_endorsed(n, endorsed) and abs(v) >= 0.8 * best_good]
    return {"integrity": sum(abs(v) for _, v in good) / total if total else None, "rivals": rivals}


def _result(
    base: dict[str, Any],
    regime: str,
    top_feature: str | None,
    ranked: list[tuple[str, float]],
    tau: float,
    endorsed: Sequence[str],
    top: int,
) -> dict[str, Any]:
    return {
        **base,
        "regime": regime,
        "top_feature": top_feature,
        "tau": tau,
        "ranking": [
            {"name": n, "rho": v, "endorsed": _is_endorsed(n, endorsed)} for n, v in ranked[:top]
        ],
        "above_floor": 0,
        "integrity": None,
        "rivals": [],
        "collinear": [],
        "endorsed": list(endorsed),
        "warnings": [],
    }


def format_hack_scan(scan: Mapping[str, Any]) -> str:
    """The scan as text: the regime line, the floor, the top features and the warnings.

    >>> print(format_hack_scan({"regime": "no_signal", "top_feature": None, "tau": 0.2,
    ...                         "mixed_asks": 3, "ranking": [], "warnings": []}))
    regime no_signal | top feature none | floor tau 0.20 | 3 mixed asks
    """
    lines = [
        f"regime {scan['regime']} | top feature {scan['top_feature'] or 'none'} | "
        f"floor tau {scan['tau']:.2f} | {scan['mixed_asks']} mixed asks"
    ]
    for item in scan["ranking"]:
        mark = " (endorsed)" if item["endorsed"] else ""
        lines.append(f"  {item['rho']:+.2f}  {item['name']}{mark}")
    lines += [f"warning: {warning}" for warning in scan["warnings"]]
    return "\n".join(lines)
