"""What did the update move toward? :func:`hack_scan_diff` reads two scans and the shift between.

:func:`~whileai_env.analysis.hack_scan.hack_scan` on the rows *before* an update says what the
reward paid for within an ask (each feature's within-ask correlation ``rho`` above the noise
floor ``tau``); a policy trained on that reward moves toward those features. The diff measures
how far each such feature moved from the rows before to the rows after (its mean after minus
before, over the pooled standard deviation of both sides, so a length and an indicator compare)
and names the paid-for feature the policy moved toward most (``shift × sign(rho)`` largest and
positive) as ``moved_toward``, endorsed or not (``avoids`` is ``True`` when the reward paid for
its absence and the policy shed it). When either side is ``degenerate`` (at most two
distinct trajectories per ask: several features separate reward exactly and no scan can say
which one it pays for) the name is withheld (``moved_toward`` is ``None``, ``withheld`` says
why), because any one of the tied features would be a guess.

>>> def rows(texts):
...     return [{"task_id": f"t{t}", "final_text": text, "reward": float("###" in text),
...              "steps": [{"tool": "lookup"}] if (i + t) % 2 else []}
...             for t in range(8) for i, text in enumerate(texts)]
>>> before = rows(["Done ###", "It shipped.", "Let me check.", "Done."])
>>> after = rows(["Done ###", "Shipped ###", "Let me check.", "Done ###"])
>>> diff = hack_scan_diff(before, after, endorsed=["tool:lookup"])
>>> diff["moved_toward"], diff["endorsed"], diff["shifts"][0]["before"], diff["shifts"][0]["after"]
('contains:###', False, 0.25, 0.75)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from whileai_env.analysis.features import auto_features, hand_features, reply_text
from whileai_env.analysis.hack_scan import hack_scan

Feature = Callable[[Mapping[str, Any]], float]
_RANKED = 50


def hack_scan_diff(
    before: Iterable[Mapping[str, Any]],
    after: Iterable[Mapping[str, Any]],
    endorsed: Sequence[str] = (),
    *,
    features: Mapping[str, Feature] | None = None,
    seed: int = 0,
    top: int = 10,
) -> dict[str, Any]:
    """Scan ``before`` and ``after`` (see the module docstring). Returns ``before`` and ``after``
    (the two scans), ``moved_toward`` (a feature name or ``None``), ``endorsed`` (whether it is,
    ``None`` without a name), ``avoids``, ``withheld`` (why no name, or ``None``), ``shifts`` (the ``top``
    paid-for features: ``name``, ``rho`` before, ``before`` / ``after`` means, ``shift``) and
    ``warnings``."""
    before, after = list(before), list(after)
    scans = {
        side: hack_scan(rows, endorsed, features=features, seed=seed, top=_RANKED)
        for side, rows in (("before", before), ("after", after))
    }
    paid = [
        item for item in scans["before"]["ranking"] if abs(item["rho"]) > scans["before"]["tau"]
    ]
    shifts = [_shift(item, before, after, features) for item in paid]
    # an endorsed feature that ties the best wins: the move is then explained as well by what the
    # reward should track (count:tool_calls ties tool:<name> when one tool is ever called)
    shifts.sort(
        key=lambda s: (-round(s["toward"], 9), not _endorsed(s["name"], endorsed), s["name"])
    )
    result: dict[str, Any] = {
        **scans,
        "moved_toward": None,
        "endorsed": None,
        "avoids": None,
        "withheld": _withheld(scans, shifts),
        "shifts": shifts[:top],
        "warnings": [],
    }
    if result["withheld"] is None:
        name = shifts[0]["name"]
        result.update(
            moved_toward=name,
            endorsed=_endorsed(name, endorsed),
            avoids=shifts[0]["rho"] < 0,
        )
        if endorsed and not result["endorsed"]:
            result["warnings"].append(
                f"the update moved toward {name} (shift {shifts[0]['shift']:+.2f} sd), which the "
                "reward paid for and nothing endorsed explains"
            )
    return result


def _endorsed(name: str, endorsed: Sequence[str]) -> bool:
    return any(term in name for term in endorsed)


def _withheld(scans: Mapping[str, Mapping[str, Any]], shifts: list[dict[str, Any]]) -> str | None:
    """Why no feature is named: a degenerate side, nothing the reward paid for, nothing moved."""
    for side in ("before", "after"):
        if scans[side]["regime"] == "degenerate":
            return f"the {side} scan is degenerate (distinct_per_ask {scans[side]['distinct_per_ask']:.0f})"
    if not shifts:
        return f"the reward paid for nothing above the floor before (regime {scans['before']['regime']})"
    if shifts[0]["toward"] <= 0:
        return "no feature the reward paid for moved in the direction it was paid"
    return None


def _shift(
    item: Mapping[str, Any],
    before: list[Mapping[str, Any]],
    after: list[Mapping[str, Any]],
    features: Mapping[str, Feature] | None,
) -> dict[str, Any]:
    """How far one paid-for feature moved, in pooled standard deviations."""
    left = [feature_value(row, item["name"], features) for row in before]
    right = [feature_value(row, item["name"], features) for row in after]
    a, b = _mean(left), _mean(right)
    spread = _std(left + right)
    shift = (b - a) / spread if spread > 0 else 0.0
    return {
        "name": item["name"],
        "rho": item["rho"],
        "before": a,
        "after": b,
        "shift": shift,
        "toward": shift * math.copysign(1.0, item["rho"]),
    }


def feature_value(
    row: Mapping[str, Any], name: str, features: Mapping[str, Feature] | None = None
) -> float:
    """The value of the hack scan's feature ``name`` on ``row`` (0 when the row lacks it).

    >>> feature_value({"final_text": "all done ###"}, "and:contains:### & contains:done")
    1.0
    """
    if name.startswith("and:"):
        left, right = name[4:].split(" & ", 1)
        return feature_value(row, left, features) * feature_value(row, right, features)
    if name.startswith("contains:"):
        return auto_features(reply_text(row), [name[9:]]).get(name, 0.0)
    if name.startswith("custom:") and features and name[7:] in features:
        return float(features[name[7:]](row))
    return hand_features(row).get(name, 0.0)


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def _std(values: list[float]) -> float:
    mean = _mean(values)
    return math.sqrt(_mean([(v - mean) ** 2 for v in values]))


def format_hack_scan_diff(diff: Mapping[str, Any]) -> str:
    """The diff as text: the two regimes, what the update moved toward (or why not), the shifts.

    >>> print(format_hack_scan_diff({"before": {"regime": "degenerate"}, "after": {"regime": "train"},
    ...     "moved_toward": None, "withheld": "the before scan is degenerate", "shifts": [],
    ...     "warnings": []}))
    before degenerate -> after train | moved toward: withheld (the before scan is degenerate)
    """
    toward = diff["moved_toward"] or f"withheld ({diff['withheld']})"
    lines = [
        f"before {diff['before']['regime']} -> after {diff['after']['regime']} | "
        f"moved toward: {toward}"
    ]
    for s in diff["shifts"]:
        lines.append(
            f"  {s['shift']:+.2f} sd  {s['name']}  (rho before {s['rho']:+.2f}; "
            f"{s['before']:.2f} -> {s['after']:.2f})"
        )
    lines += [f"warning: {w}" for w in diff["warnings"]]
    return "\n".join(lines)
