"""Before and after: :func:`delta_report` compares pass@1 and every shared marker of two runs.

Each metric goes through :func:`~whileai_env.analysis.compare.compare_runs` (paired on the
shared tasks). A metric *moved* when its interval excludes zero; with ``run_std`` (from
:func:`~whileai_env.analysis.compare.eval_variance`) a delta inside twice that band is
``within_noise`` whatever its interval, since re-running the eval moves it that much on its own.
``target`` is the headline; a significant drop of any ``must_not_regress`` metric fails the
report (``ok`` is ``False``); any other significant drop is a warning. Markers read with the
one polarity: ``1.0`` is good, so a drop is a regression.

``proxy`` names the metric the training optimised (the training reward, a reward model's
marker) when ``target`` is the one you care about: a proxy that moved up while the target did not
move up is the over-optimisation picture (rlhf-book ch. 14) and fails the report.

``by`` (a row key, a ``scenario_dimensions`` coordinate, a marker, or a callable ``row -> label``)
compares the target within each group too, and ``groups_down`` names the groups whose target
dropped significantly: a headline carried by one dominant kind of ask cannot hide the others.

>>> before = [{"task_id": f"t{i}", "reward": 1.0, "markers": {"honest": 1.0}} for i in range(20)]
>>> after = [{"task_id": f"t{i}", "reward": 1.0, "markers": {"honest": float(i < 5)}}
...          for i in range(20)]
>>> report = delta_report(before, after, must_not_regress=["honest"])
>>> report["ok"], report["regressions"], report["metrics"]["honest"]["direction"]
(False, ['honest'], 'down')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from whileai_env.analysis.compare import compare_runs

Label = str | Callable[[Mapping[str, Any]], Any]


def delta_report(
    before: Iterable[Mapping[str, Any]],
    after: Iterable[Mapping[str, Any]],
    *,
    target: str = "pass_at_1",
    must_not_regress: Sequence[str] = (),
    proxy: str | None = None,
    by: Label | None = None,
    run_std: float | None = None,
    threshold: float = 1.0,
    seed: int = 0,
) -> dict[str, Any]:
    """See the module docstring. Returns ``target``, ``headline`` (the target's comparison with
    its ``direction`` and ``verdict``: ``moved_up``, ``moved_down``, ``no_change`` or
    ``within_eval_noise``), ``metrics`` (every compared metric), ``regressions``, ``warnings``,
    ``ok``, with ``proxy`` also ``proxy`` (:func:`_proxy_check`), and with ``by`` also ``groups``
    and ``groups_down``.

    >>> before = [{"task_id": f"t{i}", "reward": 0.5, "markers": {"rm": 0.2}} for i in range(20)]
    >>> after = [{"task_id": f"t{i}", "reward": 0.5, "markers": {"rm": 0.9}} for i in range(20)]
    >>> report = delta_report(before, after, target="reward", proxy="rm")
    >>> report["ok"], report["proxy"]["diverged"]
    (False, True)
    """
    before, after = list(before), list(after)
    extra = [proxy] if proxy is not None else []
    names = _metrics(before, after, [target, *extra])
    metrics = {name: _one(before, after, name, run_std, threshold, seed) for name in names}
    regressions = [n for n in must_not_regress if metrics.get(n, {}).get("direction") == "down"]
    warnings = [
        f"{name} dropped by {m['delta']:+.3f} (95% CI {_interval(m)})"
        for name, m in metrics.items()
        if m["direction"] == "down" and name not in must_not_regress
    ]
    warnings += [f"{n} is not measured on both sides" for n in must_not_regress if n not in metrics]
    report: dict[str, Any] = {
        "target": target,
        "headline": {**metrics[target], "verdict": _headline(metrics[target])},
        "metrics": metrics,
        "regressions": regressions,
        "warnings": warnings,
        "ok": not regressions,
        "run_std": run_std,
    }
    if proxy is not None:
        report["proxy"] = _proxy_check(metrics, proxy, target)
        report["ok"] = report["ok"] and not report["proxy"]["diverged"]
        if proxy not in metrics:
            warnings.append(f"proxy {proxy} is not measured on both sides")
    if by is not None:
        report.update(_by_group(before, after, target, by, run_std, threshold, seed))
    return report


def _metrics(
    before: list[Mapping[str, Any]],
    after: list[Mapping[str, Any]],
    headline: Sequence[str],
) -> list[str]:
    """pass@1, the ``headline`` metrics (the target, the proxy), and every marker both sides
    carry (sorted)."""
    shared = _marker_names(before) & _marker_names(after)
    wanted = ["pass_at_1", *headline, *sorted(shared)]
    return list(dict.fromkeys(n for n in wanted if n in ("pass_at_1", "reward") or n in shared))


def _marker_names(rows: list[Mapping[str, Any]]) -> set[str]:
    names: set[str] = set()
    for row in rows:
        markers = row.get("markers")
        if isinstance(markers, Mapping):
            names.update(str(name) for name in markers)
    return names


def _one(
    before: list[Mapping[str, Any]],
    after: list[Mapping[str, Any]],
    metric: str,
    run_std: float | None,
    threshold: float,
    seed: int,
) -> dict[str, Any]:
    result = compare_runs(before, after, metric=metric, threshold=threshold, seed=seed)
    noise = (
        run_std is not None and result["delta"] is not None and abs(result["delta"]) <= 2 * run_std
    )
    if noise:
        direction = "within_noise"
    elif result["verdict"] == "b_better":
        direction = "up"
    elif result["verdict"] == "a_better":
        direction = "down"
    else:
        direction = "flat"
    return {**result, "direction": direction}


def _proxy_check(metrics: Mapping[str, Any], proxy: str, target: str) -> dict[str, Any]:
    """``name``, ``direction``, ``target_direction`` and ``diverged``: the proxy moved up while the
    target did not, with a one-line ``message`` when it did."""
    moved = metrics.get(proxy, {}).get("direction")
    followed = metrics[target]["direction"]
    diverged = moved == "up" and followed != "up"
    check = {
        "name": proxy,
        "direction": moved,
        "target_direction": followed,
        "diverged": diverged,
    }
    if diverged:
        check["message"] = (
            f"proxy {proxy} moved up ({metrics[proxy]['delta']:+.3f}) while the target {target} "
            f"did not ({followed}): the update optimised the proxy, not the target"
        )
    return check


def _headline(result: Mapping[str, Any]) -> str:
    return {
        "up": "moved_up",
        "down": "moved_down",
        "within_noise": "within_eval_noise",
    }.get(result["direction"], "no_change")


def _label(row: Mapping[str, Any], by: Label) -> Any:
    if callable(by):
        return by(row)
    for place in (row, row.get("scenario_dimensions"), row.get("markers")):
        if isinstance(place, Mapping) and by in place:
            return place[by]
    return None


def _by_group(
    before: list[Mapping[str, Any]],
    after: list[Mapping[str, Any]],
    target: str,
    by: Label,
    run_std: float | None,
    threshold: float,
    seed: int,
) -> dict[str, Any]:
    labels = sorted({str(_label(row, by)) for row in [*before, *after]})
    groups = {}
    for label in labels:
        left = [row for row in before if str(_label(row, by)) == label]
        right = [row for row in after if str(_label(row, by)) == label]
        groups[label] = _one(left, right, target, run_std, threshold, seed)
    down = [label for label, result in groups.items() if result["direction"] == "down"]
    name = by if isinstance(by, str) else getattr(by, "__name__", "by")
    return {"by": name, "groups": groups, "groups_down": down}


def _interval(result: Mapping[str, Any]) -> str:
    ci = result.get("ci95")
    return "n/a" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def format_delta_report(report: Mapping[str, Any]) -> str:
    """One line per metric (``UP``, ``DOWN``, ``flat``, ``noise``), the target first, then the
    verdict and any regressions, warnings and dropped groups.

    >>> rows = [{"task_id": f"t{i}", "reward": 1.0} for i in range(6)]
    >>> print(format_delta_report(delta_report(rows, rows)))
    * pass_at_1  1.000 -> 1.000  +0.000  [+0.000, +0.000]  flat
    headline: no_change | ok
    """
    words = {"up": "UP", "down": "DOWN", "flat": "flat", "within_noise": "noise"}
    order = [report["target"], *(n for n in report["metrics"] if n != report["target"])]
    width = max(len(name) for name in order)
    lines = []
    for name in order:
        m = report["metrics"][name]
        star = "*" if name == report["target"] else " "
        a, b = _num(m["a"]), _num(m["b"])
        delta = "n/a" if m["delta"] is None else f"{m['delta']:+.3f}"
        lines.append(
            f"{star} {name:<{width}}  {a} -> {b}  {delta}  {_interval(m)}  {words[m['direction']]}"
        )
    failures = [f"{name} regressed" for name in report["regressions"]]
    proxy = report.get("proxy") or {}
    if proxy.get("diverged"):
        failures.append(f"proxy {proxy['name']} up, target not")
    status = "ok" if report["ok"] else f"FAILED: {'; '.join(failures)}"
    lines.append(f"headline: {report['headline']['verdict']} | {status}")
    lines += [f"warning: {w}" for w in report["warnings"]]
    if report.get("groups_down"):
        lines.append(f"groups down: {', '.join(report['groups_down'])}")
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
