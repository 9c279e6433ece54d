"""Candidate features of a row for the hack scan: what a policy could learn that the reward pays.

Two tiers, both pure Python over the row. The *hand* tier: reply length, tool calls, turns,
truncation, surface counts (``!``, ``?``, digits, lines), one indicator per tool called, the mean
token logprob when the row has one, every numeric marker and every fired trace flag. The *auto*
tier: the most common words and word pairs of the agent's replies (``contains:...``), which is
the tier that finds the shortcut nobody listed. Names carry their family as a prefix
(``tool:``, ``marker:``, ``contains:``, ...), which is what ``endorsed=`` substrings match.

>>> hand = hand_features({"final_text": "Done!", "steps": [{"tool": "get_order"}],
...                       "markers": {"grounded": 1.0}})
>>> hand["tool:get_order"], hand["marker:grounded"], hand["surface:exclamations"]
(1.0, 1.0, 1.0)
>>> tokens("Status: ### DONE")
['status', ':', '###', 'done']
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

_TOKEN = re.compile(r"\w+|[^\w\s]+")


def tokens(text: str) -> list[str]:
    """Lower-cased words and runs of punctuation (so ``###`` and ``:`` are tokens too)."""
    return _TOKEN.findall(text.lower())


def reply_text(row: Mapping[str, Any]) -> str:
    """Everything the agent wrote: its assistant messages' text, else the final text."""
    texts = [
        str(m.get("content") or "")
        for m in row.get("messages") or ()
        if isinstance(m, Mapping) and m.get("role") == "assistant"
    ]
    joined = "\n".join(t for t in texts if t)
    return joined or str(row.get("final_text") or "")


#: Row fields whose values repeat across a run's rows (the spec's tools, a cell's coordinates, a
#: judge's settings): rows held together share one copy of each distinct value.
SHARED_FIELDS = (
    "tools",
    "tool_locators",
    "locator_nouns",
    "tool_values",
    "tool_kinds",
    "markers",
    "judge_meta",
    "fault_plan",
    "scenario_dimensions",
)


def keep_replies(
    row: Mapping[str, Any], shared: dict[tuple[str, str], Any] | None = None
) -> dict[str, Any]:
    """``row`` with its transcript cut to what :func:`reply_text` reads (the assistant's text),
    for holding many rows at once: the transcript is most of a row, and nothing else here reads it.
    With ``shared`` (one dict for all the rows held), each of :data:`SHARED_FIELDS` is the one
    copy of its value that earlier rows had: on a graded run that is a third of what a held row
    takes. The shared values are read, never edited.

    >>> keep_replies({"messages": [{"role": "user", "content": "hi"},
    ...     {"role": "assistant", "content": "Hello."}], "reward": 1.0})
    {'messages': [{'role': 'assistant', 'content': 'Hello.'}], 'reward': 1.0}
    >>> shared = {}
    >>> a, b = (keep_replies({"tools": [{"name": "get_order"}]}, shared) for _ in range(2))
    >>> a["tools"] is b["tools"]
    True
    """
    out = dict(row)
    if isinstance(row.get("messages"), list):
        out["messages"] = [
            {"role": "assistant", "content": m.get("content")}
            for m in row["messages"]
            if isinstance(m, Mapping) and m.get("role") == "assistant" and m.get("content")
        ]
    if shared is not None:
        for name in SHARED_FIELDS:
            value = out.get(name)
            if isinstance(value, dict | list):
                out[name] = shared.setdefault((name, json.dumps(value)), value)
    return out


def hand_features(row: Mapping[str, Any]) -> dict[str, float]:
    """The hand tier for one row (see the module docstring)."""
    text = str(row.get("final_text") or "")
    steps = [s for s in row.get("steps") or () if isinstance(s, Mapping)]
    out = {
        "length:reply_chars": float(len(text)),
        "count:tool_calls": float(len(steps)),
        "count:turns": float(row.get("turns") or 0),
        "flag:truncated": float(bool(row.get("truncated"))),
        "surface:exclamations": float(text.count("!")),
        "surface:questions": float(text.count("?")),
        "surface:digits": float(sum(ch.isdigit() for ch in text)),
        "surface:lines": float(text.count("\n") + 1 if text else 0),
    }
    for step in steps:
        out[f"tool:{step.get('tool')}"] = 1.0
    logprob, n_tokens = row.get("logprob"), row.get("n_tokens")
    if isinstance(logprob, int | float) and isinstance(n_tokens, int) and n_tokens > 0:
        out["logprob:mean_token"] = float(logprob) / n_tokens
    out.update(_numeric("marker", row.get("markers")))
    for flag in row.get("trace_flags") or ():
        out[f"trace:{flag}"] = 1.0
    return out


def _numeric(prefix: str, values: Any) -> dict[str, float]:
    if not isinstance(values, Mapping):
        return {}
    return {
        f"{prefix}:{name}": float(value)
        for name, value in values.items()
        if isinstance(value, int | float) and math.isfinite(value)
    }


def auto_vocabulary(texts: Sequence[str], size: int = 200) -> list[str]:
    """The ``size`` most common words and the ``size`` most common word pairs across ``texts``
    (by how many texts hold them; ties by name), dropping those every text holds (a constant
    cannot separate anything)."""
    words: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for text in texts:
        toks = tokens(text)
        words.update(set(toks))
        pairs.update({f"{a} {b}" for a, b in itertools.pairwise(toks)})
    out = []
    for counter in (words, pairs):
        common = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
        out += [term for term, count in common if count < len(texts)][:size]
    return out


def auto_features(text: str, vocabulary: Iterable[str]) -> dict[str, float]:
    """``contains:<term>`` for each vocabulary word or word pair the text holds."""
    toks = tokens(text)
    present = set(toks) | {f"{a} {b}" for a, b in itertools.pairwise(toks)}
    return {f"contains:{term}": 1.0 for term in vocabulary if term in present}


def row_features(
    rows: Sequence[Mapping[str, Any]],
    *,
    vocabulary_size: int = 200,
    extra: Mapping[str, Callable[[Mapping[str, Any]], float]] | None = None,
) -> tuple[list[str], list[dict[str, float]]]:
    """Every row's features (hand, auto and ``extra``: ``{"name": fn(row) -> number}``) and the
    sorted list of all feature names; a feature a row lacks is 0."""
    texts = [reply_text(row) for row in rows]
    vocabulary = auto_vocabulary(texts, vocabulary_size)
    table = []
    for row, text in zip(rows, texts, strict=True):
        features = {**hand_features(row), **auto_features(text, vocabulary)}
        for name, function in (extra or {}).items():
            features[f"custom:{name}"] = float(function(row))
        table.append(features)
    names = sorted({name for features in table for name in features})
    return names, table
