"""The report's figures, each drawn with matplotlib and returned as an inline ``<svg>`` string.

matplotlib (the ``report`` extra) because it draws static, self-contained SVG with no browser
runtime and no network asset, and the project already uses it for training curves. It is
imported inside :func:`_pyplot` only, with the headless Agg backend, so ``import whileai_env``
stays light; without it a figure raises :class:`~whileai_env.errors.MissingExtraError` naming
the extra. The SVG is deterministic: a fixed id salt and no date in its metadata.

>>> from whileai_env.report.numbers import Bar
>>> svg = bar_chart([Bar("timeout", 4, 4, 0.5, (0.0, 1.0), 0.5)], "pass@1 by fault kind")
>>> svg.startswith("<svg") and "timeout" in svg
True
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from whileai_env.analysis.passk import PassAt
from whileai_env.errors import MissingExtraError
from whileai_env.report.numbers import Bar, Coverage

_WIDTH = 7.0
_BAR_COLOUR = "#4c72b0"
_EMPTY_COLOUR = "#eeeeee"


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, with deterministic SVG output."""
    try:
        import matplotlib
    except ImportError as exc:
        raise MissingExtraError("matplotlib", "report") from exc
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "whileai-report"
    import matplotlib.pyplot as plt

    return plt


def _svg(figure: Any) -> str:
    """The figure as an ``<svg>`` element (no XML prolog), then closed."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _error_bars(values: Sequence[float], intervals: Sequence[Any]) -> list[list[float]]:
    """matplotlib's ``yerr`` (distances below and above each value; 0 without an interval)."""
    below = [v - ci[0] if ci else 0.0 for v, ci in zip(values, intervals, strict=True)]
    above = [ci[1] - v if ci else 0.0 for v, ci in zip(values, intervals, strict=True)]
    return [[max(0.0, b) for b in below], [max(0.0, a) for a in above]]


def _bars(
    labels: Sequence[str],
    values: Sequence[float],
    intervals: Sequence[Any],
    title: str,
    marks: Sequence[float | None] = (),
) -> str:
    """Horizontal bars with interval whiskers on [0, 1]; ``marks`` (one per bar) as diamonds."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(_WIDTH, 0.45 * len(labels) + 1.2))
    positions = list(range(len(labels)))
    axes.barh(positions, values, xerr=_error_bars(values, intervals), color=_BAR_COLOUR, capsize=3)
    shown = [(m, y) for m, y in zip(marks, positions, strict=False) if m is not None]
    if shown:
        axes.plot(*zip(*shown, strict=True), "D", color="black", label="mean reward")
        axes.legend(loc="lower right", fontsize=8)
    axes.set_yticks(positions, labels=list(labels))
    axes.invert_yaxis()
    axes.set_xlim(0.0, 1.05)
    axes.set_title(title)
    return _svg(figure)


def bar_chart(bars: Sequence[Bar], title: str) -> str:
    """pass@1 per group with its 95% interval, one horizontal bar per :class:`Bar`, and the
    group's mean reward as a diamond (it differs from pass@1 under partial credit)."""
    labels = [f"{bar.label} (n={bar.rows})" for bar in bars]
    values = [bar.pass_at_1 or 0.0 for bar in bars]
    marks = [bar.reward_mean for bar in bars]
    return _bars(labels, values, [bar.ci95 for bar in bars], title, marks)


def passk_chart(result: PassAt) -> str:
    """pass@1, pass^k and pass@k with their intervals (a k-way figure left out when n/a)."""
    k = result.k if result.k is not None else "k"
    candidates = [
        ("pass@1", result.pass_at_1, result.ci95),
        (f"pass^{k}", result.pass_pow_k, result.pass_pow_k_ci95),
        (f"pass@{k}", result.pass_at_k, result.pass_at_k_ci95),
    ]
    shown = [(name, value, ci) for name, value, ci in candidates if value is not None]
    return _bars(
        [name for name, _, _ in shown],
        [value for _, value, _ in shown],
        [ci for _, _, ci in shown],
        "pass@1, pass^k, pass@k (95% bootstrap over tasks)",
    )


def heatmap(grid: Coverage, title: str) -> str:
    """Mean reward per covered cell (colour, with the row count written in); uncovered cells grey."""
    plt = _pyplot()
    import numpy as np  # a core dependency; numpy masks the uncovered cells

    values = np.ma.masked_invalid(
        np.array([[np.nan if m is None else m for m in line] for line in grid.means], dtype=float)
    )
    height = 0.45 * len(grid.row_values) + 1.8
    figure, axes = plt.subplots(figsize=(_WIDTH, height))
    axes.set_facecolor(_EMPTY_COLOUR)
    image = axes.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    for i, line in enumerate(grid.counts):
        for j, count in enumerate(line):
            axes.text(j, i, str(count) if count else "–", ha="center", va="center", fontsize=8)
    axes.set_xticks(range(len(grid.column_values)), labels=list(grid.column_values), rotation=30)
    axes.set_yticks(range(len(grid.row_values)), labels=list(grid.row_values))
    axes.set_xlabel(grid.column_axis)
    axes.set_ylabel(grid.row_axis)
    axes.set_title(f"{title} ({grid.covered:.0%} of cells covered)")
    figure.colorbar(image, ax=axes, label="mean reward")
    return _svg(figure)


def hack_chart(scan: Mapping[str, Any]) -> str:
    """The hack scan's top features by within-ask correlation, the noise floor as dashed lines."""
    plt = _pyplot()
    ranking = list(scan["ranking"])
    figure, axes = plt.subplots(figsize=(_WIDTH, 0.4 * max(1, len(ranking)) + 1.4))
    positions = list(range(len(ranking)))
    colours = ["#55a868" if item["endorsed"] else "#c44e52" for item in ranking]
    axes.barh(positions, [item["rho"] for item in ranking], color=colours)
    axes.set_yticks(positions, labels=[item["name"] for item in ranking])
    axes.invert_yaxis()
    axes.set_xlim(-1.05, 1.05)
    for side in (-1, 1):
        axes.axvline(side * scan["tau"], color="grey", linestyle="--", linewidth=1)
    axes.set_title(f"hack scan: {scan['regime']} (green endorsed, dashed floor ±tau)")
    return _svg(figure)


def delta_chart(report: Mapping[str, Any]) -> str:
    """Each metric's after − before with its paired 95% interval (a missing delta drawn at 0)."""
    plt = _pyplot()
    names = list(report["metrics"])
    deltas = [report["metrics"][n]["delta"] or 0.0 for n in names]
    intervals = [report["metrics"][n]["ci95"] for n in names]
    figure, axes = plt.subplots(figsize=(_WIDTH, 0.4 * len(names) + 1.4))
    positions = list(range(len(names)))
    axes.barh(positions, deltas, xerr=_error_bars(deltas, intervals), color=_BAR_COLOUR, capsize=3)
    axes.set_yticks(positions, labels=names)
    axes.invert_yaxis()
    axes.axvline(0.0, color="black", linewidth=1)
    axes.set_title(f"after − before (headline {report['headline']['verdict']})")
    return _svg(figure)
