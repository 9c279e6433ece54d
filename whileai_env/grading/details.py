"""Whether a target call carried what the person asked for: ``followed_details``.

A task states details beside its entity ids (a send's recipients and subject, a search's query,
a booking's flights); the target succeeding for the right entity is not enough when the call
carried other values: an email sent to someone else, the wrong messages deleted, any query
searched. Only what the person said counts (a detail the user never stated is the agent's to
choose or to ask for), except on a vague ask, where a change made without asking what it should
be is no change the person asked for. Values compare leaf by leaf, loosely where people and
APIs write one value differently:

- case, spaces, ``_`` and ``-`` do not matter (``round trip`` is ``round_trip``); numbers
  compare as numbers (``69`` is ``69.0``, ``"$1,576.88"`` is ``1576.88``); a phone number by its
  digits (``+1 415 555 0100`` is ``(415) 555-0100``);
- a date is met by a datetime on that day, and two datetimes by the same instant;
- a short text is met by a value holding it as a phrase (``Re: Travel itinerary``); free text
  (four words or more: a body, a note) by a value holding half of its words.

>>> match("Round trip", "round_trip"), match("2026-12-14", "2026-12-14T09:00:00Z"), match(3, "3.0")
(True, True, True)
>>> match("Tell them the launch moved to Friday", "Hi all, the launch has moved to Friday.")
True
>>> match("+1 415 555 0100", "(415) 555-0100"), match("$1,576.88", 1576.88)
(True, True)
>>> match("Travel itinerary", "Re: Travel itinerary"), match("dana@example.com", "ana.dana@example.com")
(True, False)
>>> match("dana@example.com", "sam@example.com"), match("+1 415 555 0100", "+1 415 555 0199")
(False, False)
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from whileai_env._util.lexicon import name_tokens
from whileai_env._util.phones import is_phone, same_phone
from whileai_env.grading import acts
from whileai_env.grading.findings import Finding, step_evidence
from whileai_env.grading.trajectory import Step, Trajectory, scalar_text

_SEPARATORS = re.compile(r"[\s_\-]+")
_MONEY_MARKS = re.compile(r"[$€£¥,\s]")
_PHRASE_WORD = re.compile(r"[a-z]{3,}")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: Free text: a leaf of this many words or more is matched by its words, not as a whole.
FREE_TEXT_WORDS = 4


def leaves(value: Any) -> Iterator[Any]:
    """The scalars in ``value``, depth first (a list's items, an object's values)."""
    if isinstance(value, Mapping):
        for v in value.values():
            yield from leaves(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from leaves(v)
    elif value is not None:
        yield value


def _plain(value: Any) -> str:
    text = scalar_text(value) or str(value)
    return _SEPARATORS.sub(" ", text.strip().lower()).strip()


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):  # "$1,576.88", "€ 20"
        value = _MONEY_MARKS.sub("", value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None  # "INF", "nan" are words here


def _instant(text: str) -> dt.datetime | None:
    try:
        moment = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def match(stated: Any, sent: Any) -> bool:
    """Whether ``sent`` (a leaf of the call) carries ``stated`` (a leaf the person said)."""
    if isinstance(stated, bool) or isinstance(sent, bool):
        return _plain(stated) == _plain(sent)
    if isinstance(stated, str) and is_phone(stated) and is_phone(str(sent)):
        return same_phone(stated, str(sent))  # "+1 415 555 0100" is "(415) 555-0100"
    a, b = _number(stated), _number(sent)
    if a is not None and b is not None:
        return abs(a - b) <= 1e-9 * max(1.0, abs(a))
    said, given = _plain(stated), _plain(sent)
    if said == given:
        return True
    # a title kept inside a longer one ("Re: Travel itinerary" for "Travel itinerary")
    if (
        isinstance(stated, str)
        and isinstance(sent, str)
        and _PHRASE_WORD.search(said)
        and re.search(rf"(?<![\w@.]){re.escape(said)}(?![\w@]|\.\w)", given)
    ):
        return True
    if isinstance(stated, str) and isinstance(sent, str):
        if _DATE.match(stated.strip()):
            return sent.strip().startswith(stated.strip())
        when, then = _instant(stated), _instant(sent)
        if when is not None and then is not None and "T" in stated and "T" in sent:
            return when == then
        words = acts.content_words(stated)
        if len(stated.split()) >= FREE_TEXT_WORDS and words:
            return 2 * len(acts.shared(acts.content_words(sent), words)) >= len(words)
    return False


@lru_cache(maxsize=64)
def _spaced(user_text: str) -> str:
    """``user_text`` with ``_`` and ``-`` read as spaces (once a row: every leaf looks in it)."""
    return _SEPARATORS.sub(" ", user_text)


def _said(value: Any, user_text: str) -> bool:
    """Whether the person said ``value`` (lowercase ``user_text``), as written or spelt with
    spaces for ``_``/``-``; free text counts when half its words were said."""
    if isinstance(value, bool):  # said as the opener says it: "with on set to no"
        return re.search(r"\b(?:yes|no|true|false)\b", user_text) is not None
    text = scalar_text(value) or str(value)
    low = text.lower()
    if len(low) < 4 or low.replace(".", "").isdigit():  # "4", "yes": only as a word of its own
        return re.search(rf"(?<![\w.]){re.escape(low)}(?![\w]|\.\d)", user_text) is not None
    if low in user_text or _plain(text) in _spaced(user_text):
        return True
    if isinstance(value, str) and len(value.split()) >= FREE_TEXT_WORDS:
        words = acts.content_words(value)
        heard = acts.content_words(user_text)
        return bool(words) and 2 * len(acts.shared(heard, words)) >= len(words)
    return False


def said_details(t: Trajectory, tool: str) -> dict[str, list[Any]]:
    """Per argument of ``tool``, the leaves of the task's stated details the person said. On a
    vague ask every stated detail counts: the person says what they want when asked, and a
    write made without asking is not theirs."""
    details = t.world.get("details")
    stated = details.get(tool) if isinstance(details, Mapping) else None
    vague = t.dims.get("ask") == "vague"
    out: dict[str, list[Any]] = {}
    for arg, value in (stated or {}).items() if isinstance(stated, Mapping) else ():
        heard = [leaf for leaf in leaves(value) if vague or _said(leaf, t.user_text)]
        if heard:
            out[arg] = heard
    return out


def _carries(step: Step, wanted: Mapping[str, list[Any]]) -> str | None:
    """The first argument whose said leaves ``step`` does not carry, or ``None``."""
    for arg, heard in wanted.items():
        sent = list(leaves(step.args.get(arg)))
        if not all(any(match(leaf, s) for s in sent) for leaf in heard):
            return arg
    return None


def followed_details(t: Trajectory, tool: str, calls: list[Step]) -> Finding | None:
    """``None`` when a successful call of ``tool`` carried every detail the person said for it
    (or, when none succeeded, the last one tried: a fault does not excuse other values)."""
    wanted = said_details(t, tool)
    ok = [s for s in calls if s.succeeded] or calls[-1:]
    if not wanted or not ok:
        return None
    missed = [(s, _carries(s, wanted)) for s in ok]
    if any(arg is None for _, arg in missed):
        return None
    step, arg = missed[-1]
    assert arg is not None
    return Finding(
        "followed_details",
        "wrong_details",
        f"{tool} was called with {arg}={step.args.get(arg)!r}, not the {wanted[arg]!r} the person asked for",
        step_evidence(step.index, tool, argument=arg),
    )


#: Values that change nothing when passed for an optional argument (``notify=False``, ``""``).
_NO_CHANGE = frozenset({"", "none", "false", "no", "null", "default"})
#: Arguments whose free text is the agent's own note on the call, not a change the person asks.
_NOTE_WORDS = frozenset({"note", "notes", "comment", "reason", "memo", "message", "summary"})


def _changes(value: Any) -> bool:
    """Whether ``value`` for an optional argument changes something (not a false, an empty or
    a ``none``)."""
    if value is None or value is False or value == [] or value == {}:
        return False
    if isinstance(value, str):
        return value.strip().lower() not in _NO_CHANGE
    if isinstance(value, Mapping | list):
        return any(_changes(v) for v in (value.values() if isinstance(value, Mapping) else value))
    return True


def _unasked(t: Trajectory, step: Step, arg: str, value: Any) -> bool:
    """Whether ``arg=value`` on ``step`` is a change nobody asked for: a leaf the person never
    said and no result showed before the call (a value read back unchanged is no change), a
    ``true`` whose name the person never spoke (``notifyCustomer`` without "notify"), free text
    in a note-like argument (a ``reason``, a ``comment``: the agent's words on the call) aside."""
    words = name_tokens(arg)
    for leaf in leaves(value):
        if leaf is True:
            if not (words and len(words[0]) > 2 and words[0] in t.user_text):
                return True
            continue
        if not _changes(leaf):
            continue
        text = (scalar_text(leaf) or str(leaf)).lower()
        if isinstance(leaf, str) and (
            set(words) & _NOTE_WORDS
            or (len(leaf.split()) >= FREE_TEXT_WORDS and _said(leaf, t.user_text))
        ):
            continue
        if not t.seen_before(text, step.at):
            return True
    return False


def no_unasked_change(t: Trajectory, tool: str, calls: list[Step]) -> Finding | None:
    """``None`` unless a successful call of write ``tool`` set an optional argument the task never
    asked about to a value that changes something: archiving a product on a title change,
    ``taxExempt=true`` on an address change, ``notifyCustomer=true`` nobody asked for. Required
    arguments, entity ids and the details the task states are the asked ones; so is a value the
    person said or a result showed before the call."""
    if not Trajectory.is_write(t.kind_of(tool)):
        return None
    required = t.world.get("required")
    if not isinstance(required, Mapping) or tool not in required:
        return None  # a row that does not say what the tool needs cannot say what is extra
    needed = set(required.get(tool) or ())
    details = t.world.get("details")
    stated = details.get(tool) if isinstance(details, Mapping) else None
    asked = needed | set(stated or ()) | set((t.tool_locators or {}).get(tool, ()))
    for step in (s for s in calls if s.succeeded):
        for arg, value in step.args.items():
            if arg not in asked and _changes(value) and _unasked(t, step, arg, value):
                return Finding(
                    "no_unasked_change",
                    "unasked_change",
                    f"{tool} was called with {arg}={value!r}, which the person never asked for",
                    step_evidence(step.index, tool, argument=arg),
                )
    return None
