"""What a field's description says about its values, when the schema does not say it.

Real specs put much of the contract in prose: ``"[Enum]: [economy, business]"``, ``"either
'no longer needed' or 'ordered by mistake'"``, ``"Limit can range between 1 and 100"``, ``"(max
400 chars)"``, ``"in the format 'YYYY-MM-DD', such as '2024-05-01'"``, ``"Three-letter ISO code for
the currency"``, ``"IANA timezone name (e.g., 'America/New_York')"``. :func:`hints_of` reads these
into a :class:`Hints`; the value generator honours them as if the schema had said so (a value
that follows a hint is still checked against the schema itself).

>>> h = hints_of({"description": "Number of results (1-20, default 5)"})
>>> h.minimum, h.maximum, h.default
(1.0, 20.0, '5')
>>> hints_of({"description": "The cabin class such as 'basic_economy', 'economy', or 'business'."}).examples
('basic_economy', 'economy', 'business')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from whileai_env._util import bounded_json

_NUM = r"(-?\d+(?:\.\d+)?)"
_QUOTED = re.compile(r"""'([^'\n]{1,80})'|"([^"\n]{1,80})"|`([^`\n]{1,80})`""")
_CHOICE_LEAD = re.compile(
    r"(?:\[enum\]\s*:?|\benum\s*:|\bone of\b\s*:?|\bpossible values?\b(?:\s+(?:are|is|include))?\s*:?|"
    r"\ballowed values?\b(?:\s+(?:are|is))?\s*:?|\bvalid values?\b(?:\s+(?:are|is))?\s*:?|\boptions?\s*(?:are|is)?\s*:|"
    r"\bmust be(?: one of)?\b|\bshould be either\b|\beither\b|\bcan be\b|\baccepted values?\b\s*:?)",
    re.IGNORECASE,
)
_EXAMPLE_LEAD = re.compile(
    r"(?:\be\.\s?g\.?,?|\bsuch as\b|\bfor example\b,?|\bfor instance\b,?|\bexamples?\s*:|\blike\b"
    r"|\bexample values?\s*:"
    r"|\bin the (?:format|form)\b(?=\s*['\"`]))",
    re.IGNORECASE,
)
_RANGES = (
    re.compile(rf"\bbetween\s+{_NUM}\s+and\s+{_NUM}", re.IGNORECASE),
    re.compile(rf"\bfrom\s+{_NUM}\s+to\s+{_NUM}\b", re.IGNORECASE),
    re.compile(rf"\brange[sd]?(?:\s+is)?\s*:?\s*{_NUM}\s*(?:-|–|to|\.\.)\s*{_NUM}", re.IGNORECASE),
    re.compile(rf"\(\s*{_NUM}\s*(?:-|–|to)\s*{_NUM}\s*[,)]"),
    re.compile(rf"\[\s*{_NUM}\s*,\s*{_NUM}\s*\]"),
)
_MAX = re.compile(
    rf"\b(?:max(?:imum)?|at most|up to|no more than|not exceed(?:ing)?|<=?)\s*(?:of|is|:|=)?\s*{_NUM}(?![\d.]*\s*(?:chars?|characters|words|bytes))(?![\d.])",
    re.IGNORECASE,
)
_MIN = re.compile(
    rf"\b(?:min(?:imum)?|at least|no less than|>=?)\s*(?:of|is|:|=)?\s*{_NUM}(?![\d.]*\s*(?:chars?|characters|words|bytes))(?![\d.])",
    re.IGNORECASE,
)
_MAX_LEN = re.compile(
    r"\b(?:max(?:imum)?|at most|up to|no more than)\s*(?:of\s*)?(\d+)\s*(?:chars?|characters)\b",
    re.IGNORECASE,
)
_DEFAULT = re.compile(
    r"\bdefaults?(?:\s+(?:is|to|value))?\s*(?::|=|is|to)?\s*['\"`]?([\w.:/+-]+)['\"`]?",
    re.IGNORECASE,
)
_FORMATS = (
    (
        re.compile(
            r"YYYY-MM-DD[T ]HH:MM(?::SS)?|ISO[ -]?8601|RFC[ -]?3339|date[- ]?time"
            r"|\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}",  # a quoted date-time ('2025-01-01T10:00:00')
            re.IGNORECASE,
        ),
        "date-time",
    ),
    (re.compile(r"YYYY-MM-DD|\bdate\b.*\bformat\b|\bformat\b.*\bdate\b"), "date"),
    (re.compile(r"\bHH:MM\b", re.IGNORECASE), "hh:mm"),
    (re.compile(r"\bunix\b|\bepoch\b", re.IGNORECASE), "epoch"),
)
_STANDARDS = (
    (
        re.compile(
            r"ISO[ -]?4217|currency code|three-letter (?:iso )?(?:code for the )?currency",
            re.IGNORECASE,
        ),
        "currency",
    ),
    (
        re.compile(r"ISO[ -]?3166(?:-1)?[ -]?alpha[ -]?3|three-letter country", re.IGNORECASE),
        "country3",
    ),
    (re.compile(r"ISO[ -]?3166|two-letter country|country code", re.IGNORECASE), "country2"),
    (re.compile(r"\bIATA\b|airport code", re.IGNORECASE), "airport"),
    (re.compile(r"E\.?164", re.IGNORECASE), "e164"),
    (re.compile(r"ISO[ -]?639|language code", re.IGNORECASE), "language"),
    (re.compile(r"BCP[ -]?47|\blocale\b", re.IGNORECASE), "locale"),
    (re.compile(r"\bIANA\b|time ?zone", re.IGNORECASE), "timezone"),
    (re.compile(r"\bUUID\b|\bGUID\b", re.IGNORECASE), "uuid"),
)
_UNITS = (
    (re.compile(r"celsius|°c\b", re.IGNORECASE), "celsius"),
    (re.compile(r"fahrenheit|°f\b", re.IGNORECASE), "fahrenheit"),
    (re.compile(r"\bcents\b|smallest currency unit", re.IGNORECASE), "cents"),
    (re.compile(r"millisec|\bms\b", re.IGNORECASE), "milliseconds"),
    (re.compile(r"\bseconds?\b", re.IGNORECASE), "seconds"),
    (re.compile(r"\bminutes?\b", re.IGNORECASE), "minutes"),
    (re.compile(r"percent|%", re.IGNORECASE), "percent"),
)
#: A format template ("YYYY-MM-DD", "HH:MM:SS", "DD/MM/YYYY"): it names the form of a value and
#: is never one itself.
_TEMPLATE = re.compile(r"^(?=(?:.*[YMDHSmhs]){4})[YMDHSmhsT:/\-. ]+$")
#: A string field that carries a truth value ("If true, the service will return …").
_BOOLEAN = re.compile(r"\b(?:if|when|set to|defaults? to)\s+['\"`]?(?:true|false)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Hints:
    """What a description says: ``choices`` (an enumeration in prose), ``examples``,
    ``minimum``/``maximum``, ``max_length``, ``format`` (``date``, ``date-time``, ``hh:mm``,
    ``epoch``), ``standard`` (``currency``, ``country2``, ``airport``, ``e164`` …), ``unit``,
    ``default`` and ``boolean`` (the text speaks of the field being true or false). A format
    template the text quotes ("in the format 'YYYY-MM-DD'") is a ``format``, never an example or
    a choice. Empty fields mean the description says nothing about them."""

    choices: tuple[str, ...] = ()
    examples: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None
    format: str | None = None
    standard: str | None = None
    unit: str | None = None
    default: str | None = None
    boolean: bool = False
    text: str = ""


def is_format_template(text: str) -> bool:
    """Whether ``text`` spells a format ("YYYY-MM-DD", "HH:MM") rather than a value in it."""
    return bool(_TEMPLATE.match(text.strip()))


def _quoted(text: str) -> list[str]:
    """The quoted strings of ``text``, format templates left out (they name a form, not a value)."""
    found = (next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(text))
    return [q for q in found if not is_format_template(q)]


def _list_after(text: str, lead: re.Pattern[str], *, stop: str) -> tuple[str, ...]:
    """The quoted values (else the bare comma/``or`` list) right after ``lead``."""
    m = lead.search(text)
    if not m:
        return ()
    rest = text[m.end() :]
    head = re.split(stop, rest, maxsplit=1)[0]
    bracket = re.match(r"\s*\[([^\]]{1,400})\]", rest)
    if bracket:
        head = bracket.group(1)
    found = _quoted(head)
    if found:
        return tuple(dict.fromkeys(found))
    parts = [p.strip(" .;:()`'\"") for p in re.split(r",|\bor\b|\band\b|\|", head)]
    words = [
        p for p in parts if p and re.fullmatch(r"[\w./:+-]{1,40}", p) and not is_format_template(p)
    ]
    return tuple(dict.fromkeys(words)) if len(words) >= 2 else ()


def _examples(text: str) -> tuple[Any, ...]:
    m = _EXAMPLE_LEAD.search(text)
    if not m:
        return ()
    rest = text[m.end() :].lstrip(" :")
    if rest.startswith("\n"):
        return _listed_examples(rest)
    if rest.startswith("["):
        try:
            # bounded: a description's "[[[[…" is refused, never a recursion error
            return (bounded_json.loads(rest[: rest.index("]") + 1]),)
        except ValueError:
            pass
    head = re.split(r"\)|\.\s|;|\n", rest, maxsplit=1)[0]
    found = _quoted(head)
    if found:
        return tuple(dict.fromkeys(found))
    token = re.match(r"\s*([A-Za-z0-9#+/][^\s,;()`'\"]+)", rest)
    word = token.group(1).rstrip(".") if token else ""
    return (word,) if word and not is_format_template(word) else ()


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*)$")


def _listed_examples(rest: str) -> tuple[Any, ...]:
    """Examples listed one per line under their lead ("Examples:\n- Find Epics: "issuetype = Epic""):
    each bullet's quoted value, else its text after a label."""
    out: list[str] = []
    for line in rest.lstrip("\n").split("\n"):
        bullet = _BULLET.match(line)
        if not bullet:
            break
        quoted = _quoted(bullet.group(1))
        value = quoted[0] if quoted else bullet.group(1).rsplit(": ", 1)[-1].strip(" `")
        if value and not is_format_template(value):
            out.append(value)
    return tuple(dict.fromkeys(out))


_BARE_LIST = re.compile(r"^\s*[\w-]{1,24}(?:\s*,\s*(?:or\s+)?[\w-]{1,24}){2,}\s*\.?\s*$")


def _bare_list(text: str) -> tuple[str, ...]:
    """A description that is only a list of words is its field's values ("new, open, pending,
    on-hold, solved, closed" for a ticket's ``status``)."""
    if not _BARE_LIST.match(text):
        return ()
    words = [w.strip().removeprefix("or ").strip() for w in text.strip().rstrip(".").split(",")]
    return tuple(dict.fromkeys(w for w in words if w))


def _range(text: str) -> tuple[float | None, float | None]:
    for pattern in _RANGES:
        m = pattern.search(text)
        if m:
            low, high = float(m.group(1)), float(m.group(2))
            if low < high:
                return low, high
    at_least = _MIN.search(text)
    at_most = _MAX.search(text)
    return (float(at_least.group(1)) if at_least else None), (
        float(at_most.group(1)) if at_most else None
    )


def _first(table: tuple[tuple[re.Pattern[str], str], ...], text: str) -> str | None:
    return next((name for pattern, name in table if pattern.search(text)), None)


@lru_cache(maxsize=8192)
def _parse(text: str) -> Hints:
    low, high = _range(text)
    length = _MAX_LEN.search(text)
    default = _DEFAULT.search(text)
    return Hints(
        choices=_list_after(text, _CHOICE_LEAD, stop=r"\.\s|\n|;") or _bare_list(text),
        examples=_examples(text),
        minimum=low,
        maximum=high,
        max_length=int(length.group(1)) if length else None,
        format=_first(_FORMATS, text),
        standard=_first(_STANDARDS, text),
        unit=_first(_UNITS, text),
        default=default.group(1).rstrip(".") if default else None,
        boolean=bool(_BOOLEAN.search(text)),
        text=text,
    )


def hints_of(schema: Mapping[str, Any] | None) -> Hints:
    """The hints in ``schema``'s ``description`` (and ``title``). A string field the text says
    holds JSON ("JSON string of fields to update. Example: '{"summary": …}'") has the JSON
    values the text shows as its examples, as JSON text (never the words quoted inside them)."""
    if not isinstance(schema, Mapping):
        return Hints()
    text = " ".join(
        str(schema[k]) for k in ("title", "description") if isinstance(schema.get(k), str)
    )
    if not text:
        return Hints()
    found = _parse(text)
    if schema.get("type") == "string" and _SAYS_JSON.search(text):
        shown = _json_shown(text)
        if shown:
            return replace(found, examples=shown, choices=())
    return found


_SAYS_JSON = re.compile(r"\bJSON\b")
_JSON_SCAN = 4000


@lru_cache(maxsize=1024)
def _json_shown(text: str) -> tuple[str, ...]:
    """Every JSON object or array written out in ``text``, as compact JSON text."""
    decoder = json.JSONDecoder()
    out: list[str] = []
    at = 0
    text = text[:_JSON_SCAN]  # a description is read, not a document parsed: bounded work
    while (start := _next_open(text, at)) >= 0 and len(out) < 8:
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):  # not JSON, or nested past any real example
            at = start + 1
            continue
        if isinstance(value, dict | list) and value:
            out.append(json.dumps(value, ensure_ascii=False))
        at = end
    return tuple(dict.fromkeys(out))


def _next_open(text: str, at: int) -> int:
    found = [i for i in (text.find("{", at), text.find("[", at)) if i >= 0]
    return min(found) if found else -1
