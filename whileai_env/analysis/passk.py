"""pass@1, pass^k and pass@k over graded rows, each with a bootstrap interval over tasks.

The rows of one prompt are that task's repeats (a group). Three numbers, one job each:

- **pass@1**, the measurement headline (in production the agent runs once): the mean over
  tasks of each task's pass rate, every task weighted equally however many repeats it has.
- **pass^k**, the reliability line: the chance that all of k repeats pass.
- **pass@k**, the chance that at least one of k repeats passes. ``headroom = pass@k - pass@1``
  is what a grouped RL update can learn from: tasks the policy sometimes solves.

pass^k and pass@k use the unbiased per-group estimators (Chen et al. 2021, "Evaluating Large
Language Models Trained on Code"; Yao et al. 2024, tau-bench): a group with ``n`` judged
rollouts of which ``c`` pass gives ``pass@k = 1 - C(n-c, k) / C(n, k)`` and
``pass^k = C(c, k) / C(n, k)``, averaged over the groups with ``n >= k``. Below ``k = 4`` the
k-way figures are ``None`` with a ``note`` instead of a noisy number.

>>> rows = [{"prompt": f"task {t}", "reward": float(r < t)} for t in range(5) for r in range(4)]
>>> result = pass_at(rows)
>>> print(result)
pass@1 0.50 [0.20, 0.80] | pass^4 0.20 | pass@4 0.80 | headroom 0.30 (5 groups, k=4)
>>> result.per_task["task 2"]
0.5
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

MIN_K = 4
MIN_GROUPS_FOR_CI = 3


@dataclass(frozen=True)
class PassAt:
    """pass@1, pass^k and pass@k of one set of graded rows, with their 95% intervals.

    ``per_task`` is a dict ``{prompt: pass rate}`` keyed by the prompt string (iterate
    ``.items()``; ``per_task[0]`` is a ``KeyError``). ``groups`` counts the prompts with at
    least one judged row, ``groups_at_k`` those with at least ``k``, over which pass^k and
    pass@k are averaged. ``n_rows`` counts every row given, ``unjudged`` those whose reward
    is ``None``. An interval is ``None`` when fewer than three groups stand behind it.
    """

    pass_at_1: float | None
    ci95: tuple[float, float] | None
    pass_pow_k: float | None
    pass_pow_k_ci95: tuple[float, float] | None
    pass_at_k: float | None
    pass_at_k_ci95: tuple[float, float] | None
    headroom: float | None
    k: int | None
    groups: int
    groups_at_k: int
    n_rows: int
    unjudged: int
    threshold: float
    per_task: dict[str, float] = field(hash=False)
    note: str | None = None

    def __str__(self) -> str:
        head = "pass@1 n/a" if self.pass_at_1 is None else f"pass@1 {self.pass_at_1:.2f}"
        if self.ci95 is not None:
            head += f" [{self.ci95[0]:.2f}, {self.ci95[1]:.2f}]"
        # at k=1 "pass@1 n/a" would read as the headline's pass@1 withdrawn
        label = "k" if self.k in (None, 1) else str(self.k)
        parts = [
            head,
            f"pass^{label} {_fmt(self.pass_pow_k)}",
            f"pass@{label} {_fmt(self.pass_at_k)}",
            f"headroom {_fmt(self.headroom)}",
        ]
        plural = "" if self.groups == 1 else "s"
        tail = f"{self.groups} group{plural}, k={self.k if self.k is not None else 'n/a'}"
        if self.unjudged:
            tail += f", {self.unjudged} unjudged"
        text = " | ".join(parts) + f" ({tail})"
        return text if self.note is None else f"{text}: {self.note}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: intervals as ``[low, high]`` lists, ``per_task`` copied."""
        return {
            "pass_at_1": self.pass_at_1,
            "ci95": _as_list(self.ci95),
            "pass_pow_k": self.pass_pow_k,
            "pass_pow_k_ci95": _as_list(self.pass_pow_k_ci95),
            "pass_at_k": self.pass_at_k,
            "pass_at_k_ci95": _as_list(self.pass_at_k_ci95),
            "headroom": self.headroom,
            "k": self.k,
            "groups": self.groups,
            "groups_at_k": self.groups_at_k,
            "n_rows": self.n_rows,
            "unjudged": self.unjudged,
            "threshold": self.threshold,
            "per_task": dict(self.per_task),
            "note": self.note,
        }


def unbiased_pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of "at least one of k passes" from ``c`` passes in ``n`` tries.

    ``1 - C(n-c, k) / C(n, k)``: one minus the chance that k tries drawn without
    replacement from the n are all failures.

    >>> unbiased_pass_at_k(5, 2, 4)  # 1 - C(3, 4)/C(5, 4) = 1 - 0/5
    1.0
    """
    _check_counts(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def unbiased_pass_pow_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of "all k pass" (pass^k) from ``c`` passes in ``n`` tries.

    ``C(c, k) / C(n, k)``: the chance that k tries drawn without replacement from the n are
    all passes.

    >>> unbiased_pass_pow_k(5, 4, 4)  # C(4, 4)/C(5, 4) = 1/5
    0.2
    """
    _check_counts(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def pass_at(
    rows: Iterable[Mapping[str, Any]],
    *,
    threshold: float = 1.0,
    k: int | None = None,
    seed: int = 0,
    n_boot: int = 2000,
) -> PassAt:
    """pass@1, pass^k and pass@k of graded ``rows``, grouped by ``row["prompt"]``.

    A row passes when ``reward >= threshold``. The default ``1.0`` suits a 0/1 judge and
    means partial credit (a reward of 0.5) is not a pass; lower it for a partial-credit
    judge whose passing grade is below full marks. Rows with ``reward`` ``None`` (the judge
    failed on them) are left out and counted in ``unjudged``, never scored as failures.

    ``k`` defaults to the smallest group's judged size; a given ``k`` averages pass^k and
    pass@k over the groups with at least ``k`` judged rows. The intervals are percentile
    bootstraps over tasks with ``n_boot`` resamples from ``numpy.random.default_rng(seed)``,
    so the same rows and seed always give the same intervals.

    >>> rows = [{"prompt": "a", "reward": 1.0}, {"prompt": "a", "reward": 0.0},
    ...         {"prompt": "b", "reward": 0.5}, {"prompt": "b", "reward": None}]
    >>> result = pass_at(rows)
    >>> result.pass_at_1, result.per_task, result.unjudged, result.pass_at_k
    (0.25, {'a': 0.5, 'b': 0.0}, 1, None)
    >>> pass_at(rows, threshold=0.5).per_task
    {'a': 0.5, 'b': 1.0}
    """
    _check_options(k, n_boot, threshold)
    groups, n_rows, unjudged = _group_passes(rows, threshold)
    per_task = {prompt: math.fsum(passes) / len(passes) for prompt, passes in groups.items()}
    rates = list(per_task.values())
    pass_at_1 = math.fsum(rates) / len(rates) if rates else None
    sizes = [len(passes) for passes in groups.values()]
    k_used = k if k is not None else (min(sizes) if sizes else None)
    eligible = [
        (len(p), sum(p)) for p in groups.values() if k_used is not None and len(p) >= k_used
    ]
    base = PassAt(
        pass_at_1=pass_at_1,
        ci95=_bootstrap(rates, seed, n_boot),
        pass_pow_k=None,
        pass_pow_k_ci95=None,
        pass_at_k=None,
        pass_at_k_ci95=None,
        headroom=None,
        k=k_used,
        groups=len(groups),
        groups_at_k=len(eligible),
        n_rows=n_rows,
        unjudged=unjudged,
        threshold=float(threshold),
        per_task=per_task,
    )
    why_not = _why_no_k(base, k_used, eligible)
    if why_not is not None or pass_at_1 is None or k_used is None:
        return replace(base, note=why_not)
    return _with_k(base, pass_at_1, k_used, eligible, seed, n_boot)


def _check_options(k: int | None, n_boot: int, threshold: float) -> None:
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ValueError(f"k must be a positive int or None, got {k!r}")
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 1:
        raise ValueError(f"n_boot must be a positive int, got {n_boot!r}")
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not math.isfinite(threshold)
    ):
        raise ValueError(f"threshold must be a finite number, got {threshold!r}")


def _group_passes(
    rows: Iterable[Mapping[str, Any]], threshold: float
) -> tuple[dict[str, list[bool]], int, int]:
    """Pass/fail of every judged row, grouped by prompt; and the counts of rows and unjudged rows."""
    groups: dict[str, list[bool]] = {}
    n_rows = unjudged = 0
    for index, row in enumerate(rows):
        n_rows += 1
        prompt = row.get("prompt")
        if not isinstance(prompt, str):
            raise ValueError(f"row {index} has no string 'prompt' to group its repeats by")
        reward = row.get("reward")
        if reward is None:
            unjudged += 1
            continue
        groups.setdefault(prompt, []).append(_reward_value(reward, index) >= threshold)
    return groups, n_rows, unjudged


def _why_no_k(base: PassAt, k_used: int | None, eligible: list[tuple[int, int]]) -> str | None:
    """Why pass^k and pass@k cannot be given, or ``None`` when they can."""
    if not base.groups:
        return "no judged rows: every reward is None" if base.n_rows else "no rows"
    if k_used is None or k_used < MIN_K:
        return (
            f"k={k_used} is below {MIN_K}: pass^k and pass@k need at least {MIN_K} "
            "judged repeats of every prompt to be more than noise"
        )
    if not eligible:
        return f"no prompt has {k_used} judged repeats"
    return None


def _with_k(
    base: PassAt, pass_at_1: float, k: int, eligible: list[tuple[int, int]], seed: int, n_boot: int
) -> PassAt:
    pow_k = [unbiased_pass_pow_k(n, c, k) for n, c in eligible]
    at_k = [unbiased_pass_at_k(n, c, k) for n, c in eligible]
    pass_at_k = math.fsum(at_k) / len(at_k)
    note = None
    if len(eligible) < base.groups:
        note = (
            f"pass^{k} and pass@{k} are over {len(eligible)} of {base.groups} groups; "
            f"the others have fewer than {k} judged repeats"
        )
    return replace(
        base,
        pass_pow_k=math.fsum(pow_k) / len(pow_k),
        pass_pow_k_ci95=_bootstrap(pow_k, seed, n_boot),
        pass_at_k=pass_at_k,
        pass_at_k_ci95=_bootstrap(at_k, seed, n_boot),
        headroom=pass_at_k - pass_at_1,
        note=note,
    )


def _check_counts(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got n={n}, k={k}")


def _reward_value(reward: Any, index: int) -> float:
    if isinstance(reward, bool | np.bool_):
        return float(reward)
    if not isinstance(reward, int | float | np.integer | np.floating) or not math.isfinite(reward):
        raise ValueError(f"row {index} has reward {reward!r}; expected a finite number or None")
    return float(reward)


#: Resampled values a bootstrap holds at once (about 40 MB as Python floats).
BOOTSTRAP_BLOCK = 1 << 20


def resample_blocks(n: int, n_boot: int, seed: int) -> Iterator[np.ndarray]:
    """``n_boot`` resamples of ``n`` indices with replacement from ``default_rng(seed)``, as
    blocks of rows: the same picks in the same order as one ``(n_boot, n)`` draw (the
    generator's stream does not depend on how it is cut), without holding it all. On a
    20,000-task run the whole matrix and its values took 2 GB.

    >>> import numpy as np
    >>> whole = np.random.default_rng(3).integers(0, 5, size=(4, 5))
    >>> np.array_equal(np.concatenate(list(resample_blocks(5, 4, 3))), whole)
    True
    """
    rng = np.random.default_rng(seed)
    per_block = max(1, BOOTSTRAP_BLOCK // max(1, n))
    for start in range(0, n_boot, per_block):
        yield rng.integers(0, n, size=(min(per_block, n_boot - start), n))


def _bootstrap(values: Sequence[float], seed: int, n_boot: int) -> tuple[float, float] | None:
    """Percentile 95% interval of the mean, resampling ``values`` with replacement."""
    if len(values) < MIN_GROUPS_FOR_CI:
        return None
    data = np.asarray(values, dtype=float)
    means = [
        math.fsum(sample) / len(data)
        for picks in resample_blocks(len(data), n_boot, seed)
        for sample in data[picks].tolist()
    ]
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _as_list(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else list(interval)
