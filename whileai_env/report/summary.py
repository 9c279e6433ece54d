"""The report's terminal summary: one plain-text table of the headline and each breakdown.

Plain text, not a rich table, so the same rows always print the same characters whatever the
terminal is (the CLI prints it as is).

>>> rows = [{"prompt": f"p{t}", "reward": float(r < t), "scenario_dimensions": {
...     "condition": "success", "world_state": "exists", "tool": "get"}}
...     for t in range(5) for r in range(4)]
>>> print(summary_table(rows))  # doctest: +NORMALIZE_WHITESPACE
rows 20 (20 judged) | pass@1 0.50 [0.20, 0.80] | pass^4 0.20 | pass@4 0.80 | headroom 0.30
group               rows  tasks  pass@1  95% CI        mean reward
fault: success        20      5    0.50  [0.20, 0.80]         0.50
world_state: exists   20      5    0.50  [0.20, 0.80]         0.50
tool: get             20      5    0.50  [0.20, 0.80]         0.50
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from whileai_env.analysis.passk import pass_at
from whileai_env.report.numbers import SPLITS, Bar, breakdown, judged


def summary_table(rows: Sequence[Mapping[str, Any]], *, threshold: float = 1.0) -> str:
    """The headline (pass@1, pass^k, pass@k, headroom) then one line per group of each split."""
    named = [
        (f"{split}: {bar.label}", bar)
        for split in SPLITS
        for bar in breakdown(rows, split, threshold=threshold)
    ]
    width = max([len("group"), *(len(name) for name, _ in named)])
    header = (
        f"{'group':<{width}} {'rows':>4}  {'tasks':>5}  {'pass@1':>6}  {'95% CI':<12}  mean reward"
    )
    return "\n".join([_headline(rows, threshold), header, *(_line(n, b, width) for n, b in named)])


def _headline(rows: Sequence[Mapping[str, Any]], threshold: float) -> str:
    """``rows N (M judged) | <pass_at's own line, without its tail>``."""
    result = pass_at(rows, threshold=threshold)
    numbers = str(result).split(" (")[0]
    line = f"rows {len(rows)} ({len(judged(rows))} judged) | {numbers}"
    return line if result.note is None else f"{line} | {result.note}"


def _line(name: str, bar: Bar, width: int) -> str:
    value = _number(bar.pass_at_1)
    interval = "n/a" if bar.ci95 is None else f"[{bar.ci95[0]:.2f}, {bar.ci95[1]:.2f}]"
    return (
        f"{name:<{width}} {bar.rows:>4}  {bar.tasks:>5}  {value:>6}  {interval:<12}  "
        f"{_number(bar.reward_mean):>11}"
    )


def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"
