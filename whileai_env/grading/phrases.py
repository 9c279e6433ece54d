"""A family of regular-expression alternatives, searched with only the alternatives that can match.

A phrase family (:mod:`whileai_env.grading.claims`) is dozens of alternatives, and Python's
``re`` tries every one at every position: a 200 KB reply cost tens of milliseconds per family
even when none of the family's words was in it, which made an episode's final, graded step slow.
Most alternatives hold a literal that every match of them contains (``successfully``, ``could
not``), and ``str.__contains__`` finds a literal in microseconds. :class:`Phrases` compiles, per
text, only the alternatives whose literals all occur in it (and those that have none). A dropped
alternative could not have matched anywhere in that text, so the answers are the ones the whole
alternation gives: leftmost match first, the earlier alternative on a tie (group numbers are
not kept: a family reads only the whole match).

>>> p = Phrases((r"\\bsuccessfully\\b", r"\\ball set\\b", r"\\?"))
>>> p.search("we are all set?").group(0), p.search("nothing here") is None
('all set', True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

#: The shortest literal worth a prefilter: shorter ones occur in nearly every long text.
MIN_LITERAL = 3
#: Texts up to this long are searched with the whole alternation (the prefilter costs more).
SHORT_TEXT = 512
#: An inline flag group turning on ``i`` or ``x`` (``(?i)``, ``(?ix:``): literals then need not
#: occur as written. Read from the text, so building a family compiles nothing per alternative.
_CASELESS_OR_VERBOSE = re.compile(r"\(\?[aLmsux]*[ix][aiLmsux]*[:)]")
_BREAKS = frozenset(".^$")
_OPTIONAL = frozenset("?*{")


def _skip(regex: str, at: int) -> int:
    """The index just past the escape or character class that starts at ``regex[at]``."""
    if regex[at] == "\\":
        return at + 2
    i = at + 1
    if i < len(regex) and regex[i] == "^":
        i += 1
    if i < len(regex) and regex[i] == "]":
        i += 1
    while i < len(regex) and regex[i] != "]":
        i += 2 if regex[i] == "\\" else 1
    return i + 1


def _top_level(regex: str) -> tuple[list[str], list[tuple[int, int]]]:
    """``regex`` split at its top-level ``|``, and the spans ``(open, close)`` of its top-level
    groups (indices of the parentheses)."""
    branches, groups, depth, start, opened, i = [], [], 0, 0, 0, 0
    while i < len(regex):
        ch = regex[i]
        if ch in "\\[":
            i = _skip(regex, i)
            continue
        if ch == "(":
            opened = i if depth == 0 else opened
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                groups.append((opened, i))
        elif ch == "|" and depth == 0:
            branches.append(regex[start:i])
            start = i + 1
        i += 1
    return [*branches, regex[start:]], groups


def _group_body(group: str) -> str | None:
    """The body of a group that must match as part of its sequence (plain, ``(?:``, ``(?P<n>``);
    ``None`` for lookarounds, conditionals, atomic groups and inline flags."""
    if not group.startswith("?"):
        return group
    if group.startswith("?:"):
        return group[2:]
    if group.startswith("?P<"):
        return group[group.index(">") + 1 :]
    return None


def _sequence(regex: str) -> list[tuple[str, ...]]:
    """The requirements of a regex without a top-level ``|`` (see :func:`requirements`)."""
    _, groups = _top_level(regex)
    spans = {open_: close for open_, close in groups}
    clauses: list[tuple[str, ...]] = []
    run, i = "", 0

    def flush(text: str) -> None:
        if len(text) >= MIN_LITERAL:
            clauses.append((text,))

    while i < len(regex):
        ch = regex[i]
        if ch in _OPTIONAL or ch == "+":
            flush(run[:-1] if ch in _OPTIONAL else run)  # the last character is optional/repeated
            run = ""
            end = regex.find("}", i) if ch == "{" else -1
            i = end + 1 if end != -1 else i + 1
        elif ch == "(":
            flush(run)
            run, close = "", spans[i]
            body = _group_body(regex[i + 1 : close])
            optional = close + 1 < len(regex) and regex[close + 1] in _OPTIONAL
            clauses.extend(requirements(body) if body is not None and not optional else ())
            i = close + 1
        elif ch in "\\[" or ch in _BREAKS:
            flush(run)
            run = ""
            i = _skip(regex, i) if ch in "\\[" else i + 1
        else:
            run += ch
            i += 1
    flush(run)
    return clauses


def requirements(regex: str) -> list[tuple[str, ...]]:
    """What every match of ``regex`` contains, as clauses: each clause is literals of which every
    match holds at least one (a plain run, or one per branch of an alternation). Only plain
    characters count, each literal at least :data:`MIN_LITERAL` long; ``[]`` when none is known.

    >>> requirements(r"\\b(?:it|that) is (?:now )?done\\b")
    [(' is ',), ('done',)]
    >>> requirements(r"\\b(?:was|has been) (?:complete|finali[sz]ed)\\b")
    [('was', 'has been'), ('complete', 'finali')]
    >>> requirements(r"\\?"), requirements(r"\\bfail(?:ed|s)?\\b"), requirements("ab|cde")
    ([], [('fail',)], [])
    """
    if _CASELESS_OR_VERBOSE.search(regex):
        return []  # its literals need not occur as written
    branches, _ = _top_level(regex)
    if len(branches) == 1:
        return _sequence(regex)
    picks: list[str] = []
    for branch in branches:
        clauses = _sequence(branch)
        if not clauses:
            return []
        picks.extend(max(clauses, key=lambda c: min(map(len, c))))
    return [tuple(picks)]


@lru_cache(maxsize=1024)
def _compile(alternatives: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(alternatives) + ")")


class Phrases:
    """An alternation of ``alternatives`` with ``re.Pattern``'s ``search``, ``finditer`` and
    ``sub``, each run on a text with only the alternatives that can match it."""

    def __init__(self, alternatives: tuple[str, ...]) -> None:
        self.alternatives = alternatives
        self.pattern = _compile(alternatives)
        self._needs = tuple(requirements(a) for a in alternatives)

    def for_text(self, text: str) -> re.Pattern[str] | None:
        """The alternation narrowed to what can match ``text``; ``None`` when nothing can."""
        if len(text) <= SHORT_TEXT:
            return self.pattern
        kept = tuple(
            alt
            for alt, needs in zip(self.alternatives, self._needs, strict=True)
            if all(any(literal in text for literal in clause) for clause in needs)
        )
        return _compile(kept) if kept else None

    def search(self, text: str) -> re.Match[str] | None:
        """The leftmost match in ``text``, as ``re.Pattern.search``."""
        pattern = self.for_text(text)
        return pattern.search(text) if pattern else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The non-overlapping matches in ``text``, as ``re.Pattern.finditer``."""
        pattern = self.for_text(text)
        return pattern.finditer(text) if pattern else iter(())

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        """``text`` with every match replaced, as ``re.Pattern.sub``."""
        pattern = self.for_text(text)
        return pattern.sub(repl, text) if pattern else text
