"""Verifiers over the reply's text: exact match, inclusion, a regular expression, a multiple choice.

>>> from whileai_env.judges import Includes, MultipleChoice, Regex
>>> Includes()({"final_text": "Order 7 is cancelled.", "answer": ["order 7", "cancelled"]})["reward"]
1.0
>>> Regex(r"^ORD-\\d{4}$")({"final_text": "ORD-1234"})["reward"]
1.0
>>> MultipleChoice()({"final_text": "I think the answer is (C).", "answer": "c"})["reward"]
1.0
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from whileai_env._util.regex_safety import linear_supported, pattern_risk, pattern_search
from whileai_env.judges.base import Verifier, normalise, verdict

#: Longest candidate text a backtracking-only pattern (back-references, lookarounds) is run on.
MAX_BACKTRACK_CHARS = 10_000


class ExactMatch(Verifier):
    """1 when the reply equals the gold answer (one of them, for a list of accepted answers),
    compared after :func:`~whileai_env.judges.base.normalise` unless ``normalize=False``.

    >>> ExactMatch()({"final_text": "Paris.", "answer": ["paris", "Paris, France"]})["reward"]
    1.0
    >>> ExactMatch(normalize=False)({"final_text": "paris", "answer": "Paris"})["reward"]
    0.0
    """

    def __init__(self, *, normalize: bool = True, **where: Any) -> None:
        super().__init__(**where)
        self.normalize = normalize

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        accepted = _texts(gold)
        clean = self._clean(candidate)
        hit = next((g for g in accepted if self._clean(g) == clean), None)
        if hit is None:
            return verdict(
                0.0, f"reply does not equal the gold answer {accepted[0]!r}", "ExactMatch"
            )
        return verdict(1.0, f"reply equals the gold answer {hit!r}", self.name)

    def _clean(self, text: str) -> str:
        return normalise(text) if self.normalize else text


class Includes(Verifier):
    """The share of gold phrases the reply contains (case-folded): ``answer: "42"`` is 1 or 0,
    ``answer: ["order 7", "cancelled"]`` gives half credit for one of the two.

    >>> Includes()({"final_text": "It is cancelled.", "answer": ["order 7", "cancelled"]})["reward"]
    0.5
    """

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        phrases = _texts(gold)
        text = normalise(candidate)
        missing = [p for p in phrases if normalise(p) not in text]
        score = (len(phrases) - len(missing)) / len(phrases)
        reason = "reply contains every gold phrase" if not missing else f"reply lacks {missing!r}"
        return verdict(score, reason, self.name)


class Regex(Verifier):
    """1 when ``pattern`` is found in the reply (``re.search``; ``fullmatch=True`` for the whole
    reply). With no ``pattern`` the gold answer is the pattern.

    Time-bounded: patterns run on the linear-time matcher of
    :mod:`whileai_env._util.regex_safety`, so neither the pattern's author nor the policy writing
    the reply can make a check take exponential time. A pattern that matcher cannot run
    (back-references, lookarounds) falls back to ``re`` on at most
    :data:`MAX_BACKTRACK_CHARS` characters, and is refused when it also has a catastrophic shape.

    >>> Regex(r"\\bdone\\b", fullmatch=False)({"final_text": "All done."})["reward"]
    1.0
    >>> Regex(r"(a+)+\\1")
    Traceback (most recent call last):
    ...
    ValueError: pattern '(a+)+\\\\1' needs backtracking and can take exponential time: nested quantifier: a repeat inside a repeated group can share characters with what follows it, as in (a+)+
    """

    def __init__(
        self, pattern: str | None = None, *, fullmatch: bool = False, **where: Any
    ) -> None:
        super().__init__(**where)
        self.needs_gold = pattern is None
        self.pattern = pattern
        self.fullmatch = fullmatch
        if pattern is not None:
            _checked(pattern, fullmatch)

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        pattern = self.pattern if self.pattern is not None else str(gold)
        search = _checked(pattern, self.fullmatch)
        found = search(candidate)
        word = "matches" if found else "does not match"
        return verdict(float(found), f"reply {word} {pattern!r}", self.name)


def _checked(pattern: str, fullmatch: bool) -> Any:
    """A linear-time ``text -> bool`` for ``pattern``, or ``ValueError`` if it cannot be bounded."""
    anchored = rf"\A(?:{pattern})\Z" if fullmatch else pattern
    if linear_supported(anchored):
        return pattern_search(anchored)
    risk = pattern_risk(anchored)
    if risk is not None:
        raise ValueError(
            f"pattern {pattern!r} needs backtracking and can take exponential time: {risk}"
        )
    compiled = re.compile(anchored)
    return lambda text: compiled.search(text[:MAX_BACKTRACK_CHARS]) is not None


_CHOICE_PATTERNS = (
    r"(?i:answer|choice|option)\s*(?i:is)?\s*[:\-]?\s*\(?\b([A-Z])\b\)?",
    r"^\s*\(?([A-Za-z])\)?[.):]?\s*$",
    r"\(([A-Z])\)",
)


class MultipleChoice(Verifier):
    """1 when the choice letter the reply commits to is the gold letter.

    The choice is read as ``answer: B`` / ``the answer is (B)``, a bare ``B`` or ``(B)``, or a
    single parenthesised letter; a reply naming two different letters that way commits to none
    and scores 0. ``choices`` bounds the letters (default ``"ABCD"``).

    >>> MultipleChoice()({"final_text": "Answer: (B) or maybe (C)", "answer": "B"})["reward"]
    1.0
    >>> MultipleChoice()({"final_text": "(B) or (C)", "answer": "B"})["reward"]
    0.0
    """

    def __init__(self, *, choices: str = "ABCD", **where: Any) -> None:
        super().__init__(**where)
        self.choices = choices.upper()

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        letter = re.search(r"[A-Za-z]", str(gold))
        want = letter.group().upper() if letter else ""
        chosen = self.choice(candidate)
        if chosen is None:
            return verdict(0.0, "reply commits to no single choice", self.name)
        word = "is" if chosen == want else "is not"
        return verdict(
            float(chosen == want), f"chose {chosen}, which {word} {want}", "MultipleChoice"
        )

    def choice(self, text: str) -> str | None:
        """The one letter ``text`` commits to, or ``None``.

        >>> MultipleChoice().choice("My final answer is D.")
        'D'
        """
        for pattern in _CHOICE_PATTERNS:
            found = {
                m.upper()
                for m in re.findall(pattern, text, flags=re.MULTILINE)
                if m.upper() in self.choices
            }
            if len(found) == 1:
                return found.pop()
            if len(found) > 1:
                return None
        return None


def _texts(gold: Any) -> list[str]:
    """The gold answer as a non-empty list of accepted strings."""
    if isinstance(gold, Sequence) and not isinstance(gold, str):
        items = [str(g) for g in gold]
        return items or [""]
    return [str(gold)]
