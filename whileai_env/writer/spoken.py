"""Stated values as a person says them: :func:`spoken_value` for one value, :func:`stated_values`
for every value a plan states (spans the texture must not touch), and :func:`render_details`
placing each of a tool's stated details in the ask.

Dates "on …", free text quoted after the words that introduce it ("saying …"), enum values
without underscores, an amount with its currency, an address in reading order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from whileai_env._util.lexicon import plural
from whileai_env.writer.grammar import singular_phrase
from whileai_env.writer.tool_phrasing import ToolWords, tokens_of, tool_names, tool_words
from whileai_env.writer.vocabulary import (
    ADDRESS_ORDER,
    AMOUNT_WORDS,
    DISCRIMINATORS,
    FREE_TEXT_LEADS,
    MONEY_NOUNS,
    OPERAND_WORDS,
    PEOPLE_WORDS,
    QUERY_WORDS,
    REASON_STARTS,
)

if TYPE_CHECKING:
    from whileai_env.scenarios.task import WorldPlan
    from whileai_env.spec.load import Spec


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"\d{1,2}:\d{2}")
_SNAKE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")


def spoken_value(value: Any, schema: Mapping[str, Any] | None = None, *, depth: int = 0) -> str:
    """How a stated value reads in the opener: enum ``suspected_fraud`` → ``suspected fraud``,
    trailing punctuation dropped (it would double the sentence's own), an address as its distinct
    parts in reading order, another record as its fields ("priority high, assignee dana"), a list
    as "a, b and c" (records in it split by ";"); deeper data by its values alone. Never JSON: a
    person describes the data rather than pasting it.

    >>> spoken_value("Running late, sorry."), spoken_value("on_hold", {"enum": ["on_hold"]})
    ('Running late, sorry', 'on hold')
    >>> spoken_value([{"sku": "A-1", "quantity": 2}, {"sku": "B-2", "quantity": 1}])
    'sku A-1, quantity 2; sku B-2, quantity 1'
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return _spoken_record(value, depth)
    if isinstance(value, list | tuple):
        items = [spoken_value(v, depth=depth + 1) for v in value if v not in (None, "", [], {})]
        if any(isinstance(v, Mapping) for v in value):
            return ("; " if depth == 0 else ", ").join(dict.fromkeys(i for i in items if i))
        return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)
    text = str(value).strip()
    if text[:1] in "{[":  # JSON text in a string field: said as the data it holds
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict | list):
            return spoken_value(data, depth=depth)
    if schema and schema.get("enum") and _SNAKE.fullmatch(text):
        text = text.replace("_", " ")
    return text.rstrip(".!?,;: ") or text


def spoken_id(value: Any) -> str:
    """An id as the person says it: verbatim, a list of ids as "a, b and c"."""
    if isinstance(value, list | tuple):
        return spoken_value([str(v) for v in value])
    return str(value)


def _spoken_record(value: Mapping[str, Any], depth: int) -> str:
    """A record as its fields: an address (or data three levels down) by its values alone, in
    reading order; another record with each field's name ("first name Dana, last name Kim")."""
    keys = sorted(value, key=lambda k: ADDRESS_ORDER.get(str(k).lower(), len(ADDRESS_ORDER)))
    keys = [
        k
        for k in keys
        if value[k] not in (None, "", [], {}) and not (depth and str(k) in DISCRIMINATORS)
    ]
    bare = depth > 2 or all(str(k).lower() in ADDRESS_ORDER for k in keys)
    parts = []
    for key in keys:
        said = spoken_value(value[key], depth=depth + 1)
        parts.append(said if bare else f"{' '.join(tokens_of(str(key))) or key} {said}")
    return ", ".join(dict.fromkeys(p for p in parts if p))


def stated_values(plan: WorldPlan, spec: Spec) -> list[str]:
    """Every detail the plan says the user states, as the opener spells it (see :func:`spoken_value`;
    an empty text is not said)."""
    out: list[str] = []
    names = tool_names(spec)
    for target, details in plan.details.items():
        schemas = tool_words(spec, target).schemas if target in names else {}
        out.extend(
            s
            for s in (
                spoken_value(v, schemas.get(k))
                for k, v in details.items()
                # an object of changes is said change by change ("by setting notes to …")
                if not (isinstance(v, Mapping) and _wraps(" ".join(tokens_of(k))))
            )
            if s
        )
        for value in details.values():  # an object of changes is said field by field
            if isinstance(value, Mapping):
                out.extend(s for s in (spoken_value(v, depth=1) for v in value.values()) if s)
    return out


class Label(NamedTuple):
    """A detail with no phrase of its own: its name in words, as said, and its value."""

    name: str
    spoken: str
    value: Any


class Rendered(NamedTuple):
    """A tool's stated details, sorted by where they go in the sentence."""

    pre: list[str]
    obj: str
    tail: str
    labels: list[Label]
    ordinal: str
    query: str
    said_noun: bool = False


def _currency_pair(names: Sequence[str]) -> tuple[str | None, str | None]:
    """(amount argument, currency argument) when a tool states both: said together, "42.10 EUR"."""
    amount = next(
        (n for n in names if tokens_of(n)[-1:] and tokens_of(n)[-1] in AMOUNT_WORDS), None
    )
    currency = next((n for n in names if tokens_of(n) == ("currency",)), None)
    return (amount, currency) if amount and currency else (None, None)


def render_details(words: ToolWords, details: Mapping[str, Any]) -> Rendered:
    """Place each stated detail: before the object ("a 10% discount"), as the object ("work out
    12 * 3"), as a phrase after it (" on 2026-12-02", ' saying "…"'), or as a label."""
    pre: list[str] = []
    tail: list[str] = []
    labels: list[Label] = []
    obj = index = query = ""
    names = sorted(details, key=words.rank)
    amount, currency = _currency_pair(names)
    operands = _operands(words, details, names)
    if operands:
        said = [spoken_value(details[n], words.schemas.get(n)) for n in operands]
        obj = _the_object(
            words, operands, ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
        )
        names = [n for n in names if n not in operands]
    for name in names:
        if name == currency:
            continue
        schema = words.schemas.get(name) or {}
        spoken = spoken_value(details[name], schema)
        if not spoken:
            continue  # an empty text is nothing a person says
        if name == amount and currency is not None:
            spoken = f"{spoken} {spoken_value(details[currency], words.schemas.get(currency))}"
        tokens = list(tokens_of(name)) or [name]
        if tokens[-1] == "index" and " ".join(tokens[:-1]) == singular_phrase(words.noun):
            index = spoken
            continue
        if tokens[-1] in AMOUNT_WORDS and words.noun in MONEY_NOUNS and not obj:
            obj = spoken
            continue
        slot, text = _detail_phrase(tokens, spoken, details[name], schema, words)
        if slot == "obj" and not obj:
            obj = text
        elif slot == "pre" and words.noun:
            pre.append(text)
        elif slot == "tail":
            tail.append(text)
        elif slot == "query":
            query = text
        elif slot == "label":
            labels.append(Label(text, spoken, details[name]))
        else:  # an object or a modifier with no place left: said as a label
            labels.append(Label(" ".join(tokens), spoken, details[name]))
    return Rendered(pre, obj, "".join(tail), labels, index, query, bool(operands))


def _operands(words: ToolWords, details: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The numbers the tool works on, said as its object ("add 3 and 4", "convert 79.01 liters"):
    numeric arguments named by no more than a letter or a placeholder word (``a``, ``b``,
    ``num1``, ``numbers``), or named for the tool's own object noun (``liter``)."""
    noun = singular_phrase(words.noun)

    def numeric(value: Any) -> bool:
        items = value if isinstance(value, list | tuple) else [value]
        return bool(items) and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in items
        )

    found = [
        n
        for n in names
        if numeric(details[n])
        and (set(tokens_of(n)) <= OPERAND_WORDS or " ".join(tokens_of(n)) == noun)
    ]
    return found if found and (len(found) > 1 or noun) else []


def _the_object(words: ToolWords, operands: Sequence[str], said: str) -> str:
    """Operands as the object: alone when the noun says only "numbers" ("3 and 4"), with the noun
    when they are named for it ("79.01 liters"), else as what is asked of them ("the mean of 3,
    5 and 8")."""
    noun = singular_phrase(words.noun)
    if not noun or set(noun.split()) <= OPERAND_WORDS:
        return said
    if all(" ".join(tokens_of(n)) == noun for n in operands):
        if noun.split()[-1] in _RANKS:  # a priority of 2 is "priority 2", not "2 priorities"
            return f"{noun} {said}"
        return f"{said} {noun if said == '1' else plural(noun)}"
    return f"the {words.noun} of {said}"


#: Nouns a number ranks rather than counts: "priority 2", "level 3", never "2 priorities".
_RANKS = frozenset(
    {"priority", "level", "rating", "score", "severity", "rank", "tier", "grade", "version"}
)


def _detail_phrase(
    tokens: list[str], spoken: str, value: Any, schema: Mapping[str, Any], words: ToolWords
) -> tuple[str, str]:
    """(slot, text) for one detail; slot is ``obj``, ``pre``, ``query``, ``tail`` or ``label``."""
    last, first, label = tokens[-1], tokens[0], " ".join(tokens)
    quoted = f'"{spoken}"'
    if isinstance(value, bool):
        return "label", label
    if last in ("expression", "expr"):
        return "obj", spoken
    if last in ("command", "cmd"):
        return "obj", f"`{spoken}`"
    if last in QUERY_WORDS:
        return "query", quoted
    if last == "name" and len(tokens) > 1:
        return "label", label
    if last in FREE_TEXT_LEADS:
        return "tail", FREE_TEXT_LEADS[last] + quoted
    if "reason" in tokens:
        starts = spoken.split(" ", 1)[0].lower()
        return ("tail", f" because {spoken}") if starts in REASON_STARTS else ("label", "reason")
    if last in ("percent", "percentage", "pct"):
        return "pre", f"{spoken}%"
    if "cents" in tokens:
        return "tail", f" for {spoken} cents"
    if last in AMOUNT_WORDS:
        return "tail", f" for {spoken}"
    if last in ("count", "quantity") and len(tokens) > 1 and spoken.isdigit():
        things = " ".join(tokens[:-1])
        return "tail", f" ({spoken} {things if spoken == '1' else plural(things)})"
    if (
        first in ("base", "origin", "source")
        or (first == "from" and len(tokens) > 1)
        or last in ("origin", "source")
    ):
        return "tail", f" from {spoken}"
    if (
        first in ("quote", "destination", "target")
        or (first == "to" and len(tokens) > 1)
        or last == "destination"
    ):
        return "tail", f" to {spoken}"
    if last in PEOPLE_WORDS and "@" in spoken and not words.noun:
        return "obj", spoken  # "invite a@x.io and b@y.io to event evt_1"
    if last in ("to", "recipient", "recipients", "cc", "attendees") and "@" in spoken:
        return "tail", (", cc " if last == "cc" else " to ") + spoken
    if _DATE.match(spoken):
        return "tail", _date_phrase(tokens, spoken)
    if _TIME.fullmatch(spoken):
        return "tail", f" at {spoken}"
    if last in ("status", "state"):
        return ("tail", f" to {spoken}") if words.kind == "update" else ("label", label)
    if last in ("cabin", "class", "tier"):
        return "tail", f" in {spoken}"
    if "last" in tokens and "4" in tokens:
        thing = " ".join(t for t in tokens if t not in ("last", "4")) or "number"
        return "tail", f", {thing} ending in {spoken}"
    if last in ("priority", "severity", "urgency") and not _SNAKE.fullmatch(str(value)):
        return "tail", f" at {spoken} {last}"
    if first == "new" and len(tokens) > 1:
        return "tail", f" to {spoken}"
    if label == singular_phrase(words.noun) and schema.get("enum"):
        return "pre", spoken
    return "label", label


def _date_phrase(tokens: list[str], spoken: str) -> str:
    """ " on 2026-12-02", " from …", " to …", " with a due date of …", ", born …" by what the
    date argument means."""
    if "birth" in tokens or "dob" in tokens:
        return f", born {spoken}"
    if set(tokens) & {"start", "from", "since", "after", "begin", "begins"}:
        return f" from {spoken}"
    if set(tokens) & {"end", "to", "until", "before", "ends"}:
        return f" to {spoken}"
    if set(tokens) & {"due", "deadline", "expiry", "expires", "expiration"}:
        return f" with a due date of {spoken}"  # when it is due, not when to act
    return f" on {spoken}"


_CHANGE_WRAPPERS = frozenset(
    {"update", "updates", "patch", "fields", "changes", "change", "set", "data", "values"}
)
_FREE_TEXT = frozenset(
    {"reason", "summary", "comment", "body", "content", "description", "note", "notes", "text"}
)
_YES_NO_LEADS = frozenset({"is", "has", "include", "enable", "use", "allow", "should"})


def said_labels(labels: Sequence[Label], *, after_with: bool = False) -> str:
    """Details with no phrase of their own, said in the sentence rather than as a form's
    label-value list: ' with namespace staging and resource type pod', ' by setting status to
    closed' for an object of changes, ' with revision set to yes' for a yes/no, free text quoted;
    ``after_with``: the sentence already has a "with …", so these continue its list."""
    changes = [lb for lb in labels if isinstance(lb.value, Mapping) and _wraps(lb.name)]
    rest = [_said_label(lb) for lb in labels if lb not in changes]
    out = ""
    if changes:
        out += " by setting " + _and_list(
            [
                _said_label(
                    Label(f"{' '.join(tokens_of(str(k))) or k}", spoken_value(v, depth=1), v), "to "
                )
                for lb in changes
                for k, v in lb.value.items()
                if v not in (None, "", [], {})
            ]
        )
    if rest:
        lead = ", " if after_with else ", with " if out else " with "
        out += lead + _and_list(rest)
    return out


def _wraps(name: str) -> bool:
    return bool(set(name.split()) & _CHANGE_WRAPPERS)


def _said_label(label: Label, link: str = "") -> str:
    """One detail as "name value" ("namespace staging"); ``link`` between them ("to ")."""
    words = label.name.split()
    if isinstance(label.value, bool):
        rest = " ".join(
            words[1:] if words[:1] and words[0] in _YES_NO_LEADS and len(words) > 1 else words
        )
        return f"{rest} {link or 'set to '}{'yes' if label.value else 'no'}"
    if isinstance(label.value, str) and (
        (words[-1:] and words[-1] in _FREE_TEXT) or len(label.spoken.split()) > 3
    ):  # free text is quoted: where it ends is then plain
        return f'{label.name} {link}"{label.spoken}"'
    return f"{label.name} {link}{label.spoken}"


def _and_list(parts: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"; parts holding commas themselves are parted by ";"."""
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return "".join(parts)
    sep = "; " if any("," in p for p in parts) else ", "
    return sep.join(parts[:-1]) + " and " + parts[-1]
