"""Whether the reply reports what a successful target call did (``reported_result``).

A target that succeeded is half the task: the person still has to hear the result. Without this
check, a policy that makes the right call and then says anything ("I tried that, but it was
rejected", unrelated text) is paid in full; the probe that calls a no-argument tool with empty
arguments showed it. Model-free, from the ledger:

- a **read** is reported when a reply after it names one fact of its result (a field's value,
  an item's name or path, the count; a yes/no field by its name: ``verified``), or, for an
  empty result, says nothing was found;
- a **write** is reported when a reply after it names a fact it returned (a confirmation id,
  the new state), claims it (the tool's own verb in a claim or state frame, or a generic
  completion: ``I have cancelled``, ``is now updated``, ``successfully``) or says it had been
  done already.

Values a call was given (the entity's id echoed in the result) do not count: repeating the ask is
not reporting the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from itertools import islice
from typing import Any

from whileai_env._util.lexicon import name_tokens, verb_kind
from whileai_env.grading import acts, claims
from whileai_env.grading.findings import Finding, step_evidence
from whileai_env.grading.trajectory import Step, Trajectory, scalar_text

#: Result fields that describe the answer rather than hold it.
META_FIELDS = frozenset(
    {"status", "stale", "as_of", "source", "truncated", "has_more", "next_page_token", "ok"}
)
#: An empty result reported: "no orders", "no matching records", "nothing", "none", "not … any".
_EMPTY = re.compile(
    r"\bno (?:\w+ )?\w+(?:s|es)\b|\bnothing\b|\bnone\b|\bempty\b|\bzero\b|\bnot (?:\w+ ){0,3}any\b"
)
_LONGEST = 120
_MOST = 60


def facts(
    result: Mapping[str, Any], given: AbstractSet[str] = frozenset(), *, as_written: bool = False
) -> list[tuple[str, str]]:
    """``(field, value)`` pairs a reply can report from ``result``, breadth first (top-level fields
    before nested ones), as lowercase text (``as_written``: as the result spells them): meta
    fields, values in ``given`` (what the call was given) and long text are left out; a boolean
    is ``yes``/``no``.

    >>> facts({"status": "ok", "order_id": "4412", "state": "shipped", "items": [{"sku": "A-1"}], "count": 1}, {"4412"})
    [('state', 'shipped'), ('count', '1'), ('sku', 'a-1')]
    >>> facts({"verified": True})
    [('verified', 'yes')]
    """
    return list(islice(_facts(result, given, as_written), _MOST))


def _facts(
    result: Mapping[str, Any], given: AbstractSet[str], as_written: bool
) -> Iterator[tuple[str, str]]:
    seen: set[str] = set()
    level: list[tuple[str, Any]] = [("", result)]
    for _ in range(5):
        nested: list[tuple[str, Any]] = []
        for key, value in level:
            kind = type(value)
            if kind is bool:
                yield key, "yes" if value else "no"
                continue
            if kind is dict or isinstance(value, Mapping):
                nested.extend((str(k), v) for k, v in value.items() if k not in META_FIELDS)
                continue
            if kind is list:
                nested.extend((key, v) for v in value[:10])
                continue
            if kind is str:
                text = value.strip().lstrip("#").lower()
            elif kind is float and not (value.is_integer() and abs(value) < 1e15):
                text = str(value).lower()  # said as written: 2.7e+48, not its 49 integer digits
            else:
                text = scalar_text(value)
            if text and text not in given and len(text) <= _LONGEST and text not in seen:
                seen.add(text)
                yield key, str(value).strip() if as_written else text
        if not nested:
            return
        level = nested


def _named(field: str, value: str, text: str) -> bool:
    """Whether ``text`` (lowercase) names the fact: a yes/no field by the last word of its name
    (``nextThoughtNeeded`` by "needed", ``is_verified`` by "verified"), a word-like value
    anywhere, a number or a short value only as a whole token (``1`` is not in ``2015``)."""
    if value in ("yes", "no"):
        word = (name_tokens(field) or [""])[-1]
        return len(word) >= 3 and word in text
    if len(value) >= 3 and not value.isdigit():
        return value in text
    at = text.find(value)
    while at >= 0:
        end = at + len(value)
        if (at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_.")) and (
            end == len(text) or not (text[end].isalnum() or text[end] == "_")
        ):
            return True
        at = text.find(value, at + 1)
    return False


def _names_a_fact(step: Step, text: str) -> tuple[bool, bool]:
    """``(named, any)``: whether ``text`` names a fact of the step's result, and whether it has any."""
    given = {v for v in (scalar_text(a) for a in step.args.values()) if v}
    lower = text.lower()
    some = False
    for key, value in islice(_facts(step.result, given, False), _MOST):
        some = True
        if _named(key, value, lower):
            return True, True
    return False, some


def _read_reported(step: Step, text: str) -> bool:
    named, some = _names_a_fact(step, text)
    if named:
        return True
    if step.result.get("count") == 0 or step.result.get("items") == []:
        return (
            claims.missing_reported(text) is not None
            or _EMPTY.search(claims.normalise(text)) is not None
        )
    return not some


def _write_reported(step: Step, text: str) -> bool:
    """A fact the write returned (a confirmation id, the new state), a claim in its own verb
    (state frames too: "is now cancelled") or any write verb's, the act named as done ("I have
    requested the return", "your return request is in"), or an already-done note where the write
    changed nothing (a write that made its change and is reported as "already done earlier" is
    misreported: 85 of 89 such swapped replies scored 1.0 on a trial Airtable spec)."""
    return (
        _names_a_fact(step, text)[0]
        or (_changed_nothing(step) and claims.done_acknowledged(text) is not None)
        or claims.success_claim(text, claims.verb_forms(step.tool), state=True, generic=False)
        is not None
        or claims.success_claim(text) is not None
        or _act_named_done(step.tool, text)
    )


def _changed_nothing(step: Step) -> bool:
    """Whether the write's answer says it changed nothing (``updated: []``, ``already_done``)."""
    result = step.result
    return (
        result.get("updated") == []
        or bool(result.get("already_done"))
        or result.get("changed") is False
        or result.get("modified") is False
    )


#: Words that report an act as made: "requested the return", "the exchange is in".
_MADE = re.compile(
    r"\b(?:requested|submitted|placed|processed|initiated|filed|started|logged|registered"
    r"|scheduled|recorded|(?:is|are|has been|have been) (?:in|through|underway|on its way))\b"
)


def _act_named_done(tool: str, text: str) -> bool:
    """The reply names the tool's act (its verb, as a verb or a noun) beside a word that
    reports it made."""
    norm = claims.normalise(text)
    if not _MADE.search(norm):
        return False
    verbs = [w for w in name_tokens(tool) if verb_kind(w) in ("create", "update", "delete")]
    said = {acts.root(w) for w in acts.content_words(norm)}
    return any(acts.root(v) in said for v in verbs)


def reported_result(t: Trajectory, name: str, calls: list[Step]) -> Finding | None:
    """``reported_result`` for target ``name``: some successful call of it is reported by a
    reply after it (see the module docstring)."""
    ok = [s for s in calls if s.succeeded]
    if not ok:
        return None
    write = t.is_write(t.kind_of(name))
    for step in ok:
        text = t.replies_after(step.pos)
        if (_write_reported if write else _read_reported)(step, text):
            return None
    step = ok[-1]
    what = "says it succeeded" if write else "names anything it returned"
    return Finding(
        "reported_result",
        "result_not_reported",
        f"{name} succeeded at step {step.index} and no later reply {what}",
        step_evidence(step.index, name, phrase=t.final[-80:]),
    )
