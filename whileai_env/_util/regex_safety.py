"""Regular expressions from untrusted specs: find the catastrophic ones, match in linear time.

Python's ``re`` backtracks: ``^(a+)+$`` against 41 ``a`` and a ``!`` takes minutes, and even an
ordinary ``[a-z]+@`` searched in a long string is quadratic. A spec's ``pattern`` is written by
one party and the string it is matched against by another (the policy), so neither may decide
how long validation takes. Two tools:

- :func:`pattern_risk` reads a pattern (Python's own parse of it) and names the shapes that make
  backtracking exponential: a repeat holding an open-ended repeat over the same characters
  (``(a+)+``, ``(\\w+\\s?)*``) and a repeat over alternatives that overlap (``(a|ab)*``).
- :func:`pattern_search` returns a search function that is linear in the text: a Thompson NFA
  simulated as a lazily built DFA, whose character tests are ``re`` itself compiled for one
  character (so case folding, categories and flags mean exactly what they mean to ``re``).
  ``re`` still answers for short strings of patterns without risk (it is faster there and cannot
  be slow on them). Back-references, lookarounds, atomic groups and possessive repeats have no
  NFA: such patterns use ``re``, and :func:`pattern_risk` says so when they are also risky.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache
from re import _compiler as sre_compile  # type: ignore[attr-defined]  # CPython's own regex parser
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as sre_parse
from typing import Any

#: Texts up to this long use ``re`` directly when the pattern has no risky shape.
SHORT_TEXT = 64
#: NFA size past which a pattern is matched by ``re`` (a huge counted repeat, say).
MAX_STATES = 5_000
#: DFA states kept per pattern before the cache starts over (memory stays bounded).
MAX_DFA_STATES = 2_000

_CHAR, _SPLIT, _ASSERT, _MATCH, _EMPTY = range(5)
_UNSUPPORTED = {
    C.GROUPREF,
    C.GROUPREF_EXISTS,
    C.ASSERT,
    C.ASSERT_NOT,
    C.ATOMIC_GROUP,
    C.POSSESSIVE_REPEAT,
}
_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT}
_LEAVES = {C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN}
# Characters the risk check uses to tell whether two character sets overlap.
_PROBE = tuple(chr(i) for i in range(128)) + tuple(
    "\u00a0\u00e9\u00df\u00ff\u0416\u0663\u2028\u20ac\U0001f600"
)


class _Unsupported(Exception):
    """The pattern uses something a finite automaton cannot express (or is too big for one)."""


# ---------------------------------------------------------------------------------------------
# Leaves: one character, tested by re itself


def _leaf(node: tuple, flags: int) -> Callable[[str], Any]:
    """``fullmatch`` of a one-character pattern holding just ``node``, under ``flags``."""
    state = sre_parse.State()
    state.flags = flags
    return sre_compile.compile(sre_parse.SubPattern(state, [node]), flags).fullmatch


def _local_flags(flags: int, add: int, remove: int) -> int:
    return (flags | add) & ~remove


# ---------------------------------------------------------------------------------------------
# NFA


class _Nfa:
    """States as parallel lists: ``kind``, ``arg`` (a predicate or an assertion), ``out``/``out2``."""

    def __init__(self) -> None:
        self.kind: list[int] = []
        self.arg: list[Any] = []
        self.out: list[int] = []
        self.out2: list[int] = []
        self.asserts: set[tuple[Any, bool]] = set()

    def add(self, kind: int, arg: Any = None, out: int = -1, out2: int = -1) -> int:
        if len(self.kind) >= MAX_STATES:
            raise _Unsupported("too many states")
        self.kind.append(kind)
        self.arg.append(arg)
        self.out.append(out)
        self.out2.append(out2)
        return len(self.kind) - 1


def _build_seq(nfa: _Nfa, items: list, nxt: int, flags: int) -> int:
    for item in reversed(items):
        nxt = _build(nfa, item, nxt, flags)
    return nxt


def _build(nfa: _Nfa, node: tuple, nxt: int, flags: int) -> int:
    op, av = node
    if op in _UNSUPPORTED:
        raise _Unsupported(str(op))
    if op in _LEAVES:
        return nfa.add(_CHAR, _leaf(node, flags), nxt)
    if op is C.SUBPATTERN:
        _group, add, remove, body = av
        return _build_seq(nfa, list(body), nxt, _local_flags(flags, add, remove))
    if op is C.BRANCH:
        starts = [_build_seq(nfa, list(alt), nxt, flags) for alt in av[1]]
        head = starts[-1]
        for start in reversed(starts[:-1]):
            head = nfa.add(_SPLIT, None, start, head)
        return head
    if op in _REPEATS:
        return _build_repeat(nfa, av, nxt, flags)
    if op is C.AT:
        nfa.asserts.add((av, bool(flags & re.MULTILINE)))
        return nfa.add(_ASSERT, (av, bool(flags & re.MULTILINE), bool(flags & re.ASCII)), nxt)
    raise _Unsupported(str(op))


def _build_repeat(nfa: _Nfa, av: tuple, nxt: int, flags: int) -> int:
    low, high, body = av
    body = list(body)
    if high == C.MAXREPEAT:
        loop = nfa.add(_SPLIT, None, -1, nxt)
        nfa.out[loop] = _build_seq(nfa, body, loop, flags)
        head = loop
    else:
        head = nxt
        for _ in range(high - low):
            split = nfa.add(_SPLIT, None, -1, nxt)
            nfa.out[split] = _build_seq(nfa, body, head, flags)
            head = split
    for _ in range(low):
        head = _build_seq(nfa, body, head, flags)
    return head


# ---------------------------------------------------------------------------------------------
# Simulation (a DFA built lazily from the NFA)


@lru_cache(maxsize=2)
def _word(ascii_only: bool) -> Callable[[str], Any]:
    return re.compile(r"\w", re.ASCII if ascii_only else 0).fullmatch


def _assert_holds(arg: tuple, text: str, i: int) -> bool:
    """Whether the anchor ``arg`` holds at position ``i`` of ``text`` (as ``re`` reads it)."""
    code, multiline, ascii_only = arg
    n = len(text)
    if code is C.AT_BEGINNING:
        return i == 0 or (multiline and text[i - 1] == "\n")
    if code is C.AT_BEGINNING_STRING:
        return i == 0
    if code is C.AT_END:
        return i == n or (text[i] == "\n" and (multiline or i == n - 1))
    if code is C.AT_END_STRING:
        return i == n
    if code in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
        if n == 0:
            return False
        word = _word(ascii_only)
        before = i > 0 and word(text[i - 1]) is not None
        after = i < n and word(text[i]) is not None
        return (before != after) == (code is C.AT_BOUNDARY)
    raise _Unsupported(str(code))


class _Matcher:
    """Linear-time ``search``: each position costs one cached transition (or one NFA step).

    The DFA cache is keyed by (state set, character, context); the context is what anchors at
    the next position depend on, and is ``None`` away from the ends unless the pattern has
    ``\\b``/``\\B`` or multiline anchors. One lock per pattern: worlds in threads share it.
    """

    def __init__(self, nfa: _Nfa, start: int, anchored: bool) -> None:
        self.nfa = nfa
        self.start = start
        self.anchored = anchored
        self.match = nfa.add(_MATCH)
        self.context_free = not nfa.asserts
        self.plain_middle = not any(
            multiline or code in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY)
            for code, multiline in nfa.asserts
        )
        self._ids: dict[frozenset[int], int] = {}
        self._sets: list[frozenset[int]] = []
        self._steps: dict[tuple, int] = {}
        self._lock = threading.Lock()

    def _closure(self, seeds: set[int], text: str, i: int) -> frozenset[int]:
        nfa, seen, out = self.nfa, set(), set()
        stack = list(seeds)
        while stack:
            s = stack.pop()
            if s < 0 or s in seen:
                continue
            seen.add(s)
            kind = nfa.kind[s]
            if kind is _CHAR or kind is _MATCH:
                out.add(s)
            elif kind is _SPLIT:
                stack += (nfa.out[s], nfa.out2[s])
            elif kind is _ASSERT:
                if _assert_holds(nfa.arg[s], text, i):
                    stack.append(nfa.out[s])
            else:
                stack.append(nfa.out[s])
        return frozenset(out)

    def _intern(self, states: frozenset[int]) -> tuple[int, bool]:
        """The id of ``states`` and whether the cache was started over to make room."""
        found = self._ids.get(states)
        if found is not None:
            return found, False
        cleared = len(self._sets) >= MAX_DFA_STATES
        if cleared:
            self._ids.clear()
            self._sets.clear()
            self._steps.clear()
        found = self._ids[states] = len(self._sets)
        self._sets.append(states)
        return found, cleared

    def _context(self, text: str, i: int) -> Any:
        """What the closure at position ``i`` (> 0) depends on besides the states and the
        character just read: nothing in the middle of a plain pattern, the next character in the
        middle of one with ``\\b`` or multiline anchors, and the tail near the end."""
        n = len(text)
        if i < n - 1:
            return None if self.plain_middle else text[i]
        return text[i:], n - i

    def _step(self, current: int, ch: str, text: str, i: int) -> frozenset[int]:
        nfa = self.nfa
        seeds = {nfa.out[s] for s in self._sets[current] if nfa.kind[s] is _CHAR and nfa.arg[s](ch)}
        if not self.anchored:
            seeds.add(self.start)
        return self._closure(seeds, text, i)

    def search(self, text: str) -> bool:
        with self._lock:
            current, _ = self._intern(self._closure({self.start}, text, 0))
            if self.match in self._sets[current]:
                return True
            steps, context = self._steps, self._context
            for i, ch in enumerate(text, 1):
                key = (current, ch) if self.context_free else (current, ch, context(text, i))
                nxt = steps.get(key)
                if nxt is None:
                    states = self._step(current, ch, text, i)
                    if self.match in states:
                        return True
                    nxt, cleared = self._intern(states)
                    if not cleared:
                        steps[key] = nxt
                if self.anchored and not self._sets[nxt]:
                    return False
                current = nxt
            return False


def _anchored(items: list, flags: int) -> bool:
    """Whether every match must start at position 0 (a leading ``\\A``, or ``^`` without
    MULTILINE), so the search need not start afresh at later positions."""
    while items and items[0][0] is C.SUBPATTERN:
        _op, (_group, add, remove, body) = items[0]
        flags = _local_flags(flags, add, remove)
        items = list(body)
    if not items or items[0][0] is not C.AT:
        return False
    code = items[0][1]
    return code is C.AT_BEGINNING_STRING or (code is C.AT_BEGINNING and not flags & re.MULTILINE)


def _compile_nfa(pattern: str) -> _Matcher:
    tree = sre_parse.parse(pattern)
    nfa = _Nfa()
    match_placeholder = -2
    start = _build_seq(nfa, list(tree), match_placeholder, tree.state.flags)
    matcher = _Matcher(nfa, start, _anchored(list(tree), tree.state.flags))
    nfa.out = [matcher.match if o == match_placeholder else o for o in nfa.out]
    nfa.out2 = [matcher.match if o == match_placeholder else o for o in nfa.out2]
    matcher.start = matcher.match if start == match_placeholder else start
    return matcher


# ---------------------------------------------------------------------------------------------
# Risk


def _chars(items: list, flags: int) -> frozenset[str]:
    """The probe characters any part of ``items`` can match (an over-approximation)."""
    found: set[str] = set()
    for op, av in items:
        if op in _LEAVES:
            test = _leaf((op, av), flags)
            found.update(c for c in _PROBE if test(c))
        elif op is C.SUBPATTERN:
            found |= _chars(list(av[3]), _local_flags(flags, av[1], av[2]))
        elif op is C.BRANCH:
            for alt in av[1]:
                found |= _chars(list(alt), flags)
        elif op in _REPEATS:
            found |= _chars(list(av[2]), flags)
    return frozenset(found)


def _nullable(items: list) -> bool:
    """Whether ``items`` can match the empty string (anchors count as empty)."""
    for op, av in items:
        if op in _LEAVES:
            return False
        if op is C.SUBPATTERN and not _nullable(list(av[3])):
            return False
        if op is C.BRANCH and not any(_nullable(list(alt)) for alt in av[1]):
            return False
        if op in _REPEATS and av[0] > 0 and not _nullable(list(av[2])):
            return False
    return True


def _first(items: list, flags: int) -> frozenset[str]:
    """The probe characters a match of ``items`` can start with."""
    found: set[str] = set()
    for op, av in items:
        part = [(op, av)]
        if op is C.SUBPATTERN:
            found |= _first(list(av[3]), _local_flags(flags, av[1], av[2]))
        elif op is C.BRANCH:
            for alt in av[1]:
                found |= _first(list(alt), flags)
        elif op in _REPEATS:
            found |= _first(list(av[2]), flags)
        elif op in _LEAVES:
            found |= _chars(part, flags)
        if not _nullable(part):
            break
    return frozenset(found)


def _walk(items: list):
    for op, av in items:
        yield op, av
        if op is C.SUBPATTERN:
            yield from _walk(list(av[3]))
        elif op is C.BRANCH:
            for alt in av[1]:
                yield from _walk(list(alt))
        elif op in _REPEATS:
            yield from _walk(list(av[2]))


_TRADE = "nested quantifier: a repeat inside a repeated group can share characters with what follows it, as in (a+)+"
_SAME_START = (
    "a repeated group has alternatives that can start with the same character, as in (\\w+|\\d+)+"
)
_OPTIONAL = "a repeated group has an optional part that can share characters with what follows it, as in (a|aa)*"


def _seq_risk(items: list, follow: frozenset[str], outer_open: bool, flags: int) -> str | None:
    """Why ``items``, inside a repeat, make it ambiguous; ``follow`` is what can come after them."""
    for index, (op, av) in enumerate(items):
        rest = items[index + 1 :]
        after = _first(rest, flags) | (follow if _nullable(rest) else frozenset())
        found = _item_risk(op, av, after, outer_open, flags)
        if found:
            return found
    return None


def _item_risk(op: Any, av: Any, after: frozenset[str], outer_open: bool, flags: int) -> str | None:
    if op is C.SUBPATTERN:
        return _seq_risk(list(av[3]), after, outer_open, _local_flags(flags, av[1], av[2]))
    if op in _REPEATS:
        low, high, body = av
        ambiguous = low != high and high > 1 and (outer_open or high == C.MAXREPEAT)
        return _TRADE if ambiguous and _chars(list(body), flags) & after else None
    if op is C.BRANCH and outer_open:
        alts = [list(a) for a in av[1]]
        firsts = [_first(a, flags) for a in alts]
        if any(firsts[i] & firsts[j] for i in range(len(alts)) for j in range(i + 1, len(alts))):
            return _SAME_START
        if any(_nullable(a) for a in alts) and any(f & after for f in firsts):
            return _OPTIONAL
        for alt in alts:
            found = _seq_risk(alt, after, outer_open, flags)
            if found:
                return found
    return None


def _repeat_risk(low: int, high: int, body: list, flags: int) -> str | None:
    """Why a repeat of ``body`` (``low``..``high`` times) can backtrack exponentially, or ``None``."""
    if high <= 1:
        return None
    return _seq_risk(body, _first(body, flags), high == C.MAXREPEAT, flags)


def _risk_in(items: list, flags: int) -> str | None:
    for op, av in _walk(items):
        if op in _REPEATS:
            found = _repeat_risk(av[0], av[1], list(av[2]), flags)
            if found:
                return found
    return None


@lru_cache(maxsize=4096)
def pattern_risk(pattern: str) -> str | None:
    """Why ``pattern`` can make a backtracking matcher take exponential time, or ``None``.

    A heuristic over Python's parse of the pattern (it may flag a safe pattern; it should not
    miss the textbook shapes). An invalid pattern is ``re.error``, as from ``re.compile``.

    >>> pattern_risk("^(a+)+$")
    'nested quantifier: a repeat inside a repeated group can share characters with what follows it, as in (a+)+'
    >>> pattern_risk("^[A-Z]{3}-[0-9]+$") is None
    True
    """
    tree = sre_parse.parse(pattern)
    return _risk_in(list(tree), tree.state.flags)


# ---------------------------------------------------------------------------------------------
# Search


def _simple(pattern: str) -> bool:
    """Whether ``re`` is fast on short texts for ``pattern`` whatever the text: no repeat or
    alternation inside a repeat, and at most three open-ended repeats (so backtracking is at most
    cubic in a text of :data:`SHORT_TEXT` characters)."""
    tree = list(sre_parse.parse(pattern))
    open_ended = 0
    for op, av in _walk(tree):
        if op in _REPEATS:
            open_ended += av[1] == C.MAXREPEAT
            if any(inner in _REPEATS or inner is C.BRANCH for inner, _ in _walk(list(av[2]))):
                return False
    return open_ended <= 3


@lru_cache(maxsize=1024)
def linear_supported(pattern: str) -> bool:
    """Whether ``pattern`` can be matched by the linear-time matcher (no back-references,
    lookarounds, atomic groups or possessive repeats, and a bounded automaton)."""
    try:
        _compile_nfa(pattern)
    except (_Unsupported, RecursionError):
        return False
    return True


@lru_cache(maxsize=1024)
def pattern_search(pattern: str) -> Callable[[str], bool]:
    """A function ``text -> bool``: whether ``pattern`` is found in ``text`` (``re.search``
    semantics), in time linear in ``len(text)`` whenever :func:`linear_supported`.

    Raises ``re.error`` for an invalid pattern.

    >>> search = pattern_search("^(a+)+$")
    >>> search("a" * 50_000 + "!"), search("aaa")
    (False, True)
    """
    compiled = re.compile(pattern)
    try:
        matcher = _compile_nfa(pattern)
    except (_Unsupported, RecursionError):
        return lambda text: compiled.search(text) is not None
    safe_short = _simple(pattern)

    def search(text: str) -> bool:
        if safe_short and len(text) <= SHORT_TEXT:
            return compiled.search(text) is not None
        return matcher.search(text)

    return search


def search(pattern: str, text: str) -> bool:
    """``re.search(pattern, text) is not None``, in linear time (see :func:`pattern_search`)."""
    return pattern_search(pattern)(text)


# ---------------------------------------------------------------------------------------------
# jsonschema


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, allowed: Any, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    known, patterns = schema.get("properties", {}), list(schema.get("patternProperties", {}))
    extras = [k for k in instance if k not in known and not any(search(p, k) for p in patterns)]
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        shown = ", ".join(repr(e) for e in sorted(extras, key=str))
        yield ValidationError(f"Additional properties are not allowed ({shown} unexpected)")


@lru_cache(maxsize=16)
def with_linear_patterns(cls: type) -> type:
    """``cls`` (a ``jsonschema`` validator class) with ``pattern``, ``patternProperties`` and
    ``additionalProperties`` matched by :func:`search`, so no schema makes validation slow."""
    from jsonschema import _keywords, validators

    own = {
        "pattern": (_keywords.pattern, _pattern),
        "patternProperties": (_keywords.patternProperties, _pattern_properties),
        "additionalProperties": (_keywords.additionalProperties, _additional_properties),
    }
    swap = {key: new for key, (old, new) in own.items() if cls.VALIDATORS.get(key) is old}  # type: ignore[attr-defined]
    return validators.extend(cls, swap) if swap else cls
