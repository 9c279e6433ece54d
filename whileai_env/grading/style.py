"""Style markers on replies, and a report that warns when the reward pays for a style tic.

Per row (1.0 = clean reply): ``no_boilerplate``, ``no_hedging``, ``no_apology``,
``no_sycophancy`` (no phrase of that family in ``final_text``, see
:mod:`whileai_env.grading.claims`) and ``answered`` (the reply says something beyond filler: at
least :data:`ANSWER_WORDS` words once the style phrases are taken out). These measure drift in a
paired before/after; they are not part of the reward.

>>> style_markers([{"final_text": "Great question! I think order 4412 shipped. Hope this helps!"}])[0]
{'no_boilerplate': 0.0, 'no_hedging': 0.0, 'no_apology': 1.0, 'no_sycophancy': 0.0, 'answered': 1.0}
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from whileai_env.grading import claims

STYLE_MARKERS = ("no_boilerplate", "no_hedging", "no_apology", "no_sycophancy", "answered")
#: The tic each marker measures the absence of (names used in warnings).
TICS = {
    "no_boilerplate": "boilerplate",
    "no_hedging": "hedging",
    "no_apology": "apology",
    "no_sycophancy": "sycophancy",
    "answered": "non-answers",
}
_FAMILY = {
    "no_boilerplate": "boilerplate",
    "no_hedging": "hedging",
    "no_apology": "apology",
    "no_sycophancy": "sycophancy",
}
#: Words a reply needs, after style phrases are removed, to count as an answer.
ANSWER_WORDS = 3
#: A warning needs at least this many rewarded rows and a correlation above this size.
MIN_ROWS = 10
CORRELATION = 0.3
_WORD = re.compile(r"[a-z0-9]+")


def reply_style(text: str) -> tuple[dict[str, float], dict[str, str]]:
    """``(markers, hits)`` for one reply: the five markers and the phrase behind each 0."""
    hits = claims.style_hits(text)
    markers = {name: 0.0 if family in hits else 1.0 for name, family in _FAMILY.items()}
    rest = claims.normalise(text)
    for pattern in claims.STYLE_FAMILIES.values():
        rest = pattern.sub(" ", rest)
    answered = len(_WORD.findall(rest)) >= ANSWER_WORDS
    markers["answered"] = 1.0 if answered else 0.0
    named = {name: hits[family] for name, family in _FAMILY.items() if family in hits}
    if not answered:
        named["answered"] = text.strip()[:80]
    return markers, named


def _final(row: Mapping[str, Any]) -> str:
    text = row.get("final_text")
    return text if isinstance(text, str) else ""


def style_markers(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, float]]:
    """The five style markers of each row's ``final_text``, in row order (rows are not changed).

    Merge them onto rows with ``{**row, "markers": {**row.get("markers", {}), **m}}``.
    """
    return [reply_style(_final(row))[0] for row in rows]


def _pearson(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.sqrt(
        sxx * syy
    )


def style_report(rows: Iterable[Mapping[str, Any]], *, examples: int = 3) -> dict[str, Any]:
    """Clean rates, hits and examples per marker, and warnings when reward tracks a tic.

    Returns ``{"rows", "markers": {name: {"rate", "hits", "examples"}}, "correlation": {name:
    corr | None}, "warnings": [...]}``. ``rate`` is the clean share (1.0 = no row has the tic),
    ``hits`` the rows with it. The correlation is Pearson's between ``reward`` and the tic's
    presence over rows with a numeric reward; above ±0.3 over at least 10 rows it warns, e.g.
    ``"reward pays for hedging (corr +0.41 over 60 rows)"``.

    >>> rows = [{"final_text": "I think it shipped." if i % 2 else "It shipped.", "reward": float(i % 2)}
    ...         for i in range(20)]
    >>> style_report(rows)["warnings"]
    ['reward pays for hedging (corr +1.00 over 20 rows)']
    """
    rows = list(rows)
    per_row = [reply_style(_final(row)) for row in rows]
    report: dict[str, Any] = {"rows": len(rows), "markers": {}, "correlation": {}, "warnings": []}
    rewarded = [
        i
        for i, row in enumerate(rows)
        if isinstance(row.get("reward"), int | float) and not isinstance(row.get("reward"), bool)
    ]
    for name in STYLE_MARKERS:
        flagged = [i for i, (markers, _) in enumerate(per_row) if markers[name] == 0.0]
        report["markers"][name] = {
            "rate": 1.0 - len(flagged) / len(rows) if rows else None,
            "hits": len(flagged),
            "examples": [
                {
                    "scenario_id": rows[i].get("scenario_id"),
                    "rollout_index": rows[i].get("rollout_index"),
                    "phrase": per_row[i][1][name],
                }
                for i in flagged[:examples]
            ],
        }
        corr = None
        if len(rewarded) >= 2:
            corr = _pearson(
                [float(rows[i]["reward"]) for i in rewarded],
                [1.0 - per_row[i][0][name] for i in rewarded],
            )
        report["correlation"][name] = corr
        if corr is not None and len(rewarded) >= MIN_ROWS and abs(corr) > CORRELATION:
            verb = "pays for" if corr > 0 else "penalises"
            report["warnings"].append(
                f"reward {verb} {TICS[name]} (corr {corr:+.2f} over {len(rewarded)} rows)"
            )
    return report
