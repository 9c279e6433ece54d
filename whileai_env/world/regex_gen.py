"""A string that matches a regular expression, chosen by a seeded RNG.

JSON Schema ``pattern`` values are usually simple (``^[A-Z]{3}$``, ``^\\+?[0-9 ()-]{6,20}$``), so
walking the parsed pattern is enough; lookarounds are skipped and the caller checks the result.

>>> import random
>>> import re
>>> bool(re.fullmatch(r"[A-Z]{3}-\\d{4}", sample(r"^[A-Z]{3}-\\d{4}$", random.Random(1))))
True
"""

from __future__ import annotations

import random
import re
import string

try:
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_CATEGORIES = {
    _c.CATEGORY_DIGIT: string.digits,
    _c.CATEGORY_NOT_DIGIT: string.ascii_letters,
    _c.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    _c.CATEGORY_NOT_WORD: " -.,",
    _c.CATEGORY_SPACE: " ",
    _c.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}
_ANY = string.ascii_letters + string.digits
_MAX_REPEAT_EXTRA = 4


def _charset(items: list, r: random.Random) -> str:
    negate = False
    chars: list[str] = []
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            chars.append(chr(av))
        elif op is _c.RANGE:
            low, high = av
            chars.append(chr(r.randint(low, min(high, low + 200))))
        elif op is _c.CATEGORY:
            chars.append(r.choice(_CATEGORIES.get(av, _ANY)))
    if negate:
        excluded = {c for c in chars}
        pool = [c for c in _ANY if c not in excluded]
        return r.choice(pool) if pool else "~"
    return r.choice(chars) if chars else ""


def _emit(parsed: list, r: random.Random, groups: dict[int, str], depth: int = 0) -> str:
    if depth > 50:
        return ""
    out: list[str] = []
    for op, av in parsed:
        if op is _c.LITERAL:
            out.append(chr(av))
        elif op is _c.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op is _c.ANY:
            out.append(r.choice(_ANY))
        elif op is _c.IN:
            out.append(_charset(av, r))
        elif op is _c.BRANCH:
            out.append(_emit(r.choice(av[1]), r, groups, depth + 1))
        elif op is _c.SUBPATTERN:
            group, sub = av[0], av[-1]
            text = _emit(sub, r, groups, depth + 1)
            if group is not None:
                groups[group] = text
            out.append(text)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            top = low + _MAX_REPEAT_EXTRA if high is _c.MAXREPEAT else min(high, low + _MAX_REPEAT_EXTRA)
            count = r.randint(low, max(low, top))
            out.extend(_emit(sub, r, groups, depth + 1) for _ in range(count))
        elif op is _c.GROUPREF:
            out.append(groups.get(av, ""))
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            out.append(_emit(av, r, groups, depth + 1))
        elif op is _c.CATEGORY:
            out.append(r.choice(_CATEGORIES.get(av, _ANY)))
    return "".join(out)


def sample(pattern: str, r: random.Random) -> str:
    """A string that ``re.search(pattern, ...)`` accepts, or a best effort when that fails."""
    try:
        parsed = _p.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return ""
    compiled = re.compile(pattern)
    text = ""
    for _ in range(8):
        text = _emit(list(parsed), r, {})
        if compiled.search(text):
            return text
    return text
