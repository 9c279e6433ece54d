"""Split a system prompt into policy clauses: the rules an agent is meant to follow.

Preambles ("You are …", "Your job is …") and headings describe the agent rather than bind it,
so they are not clauses. A clause's id is a hash of its normalised text alone, which is what
keeps every other clause's grid cells stable when one rule is edited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from whileai_env._util.hashing import hex_id

_BULLET = re.compile(r"^\s*(?:[-*•+]|\(?\d{1,2}[.)]|\(?[a-zA-Z][.)])\s+")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(A-Z0-9])")
_PREAMBLE = re.compile(
    r"^(you are|you're|your (role|job|name|task|goal|purpose) (is|are)|as an? |this (assistant|agent)|"
    r"you (help|work|assist|answer|support|handle)\b|i am|we are)",
    re.IGNORECASE,
)
_RULE_WORDS = re.compile(
    r"\b(must|never|always|only|do not|don't|dont|should|shall|cannot|can't|can not|require[sd]?|"
    r"before|unless|need to|needs to|may not|not allowed|make sure|ensure|avoid|refuse|confirm|"
    r"verify|ask|no more than|at most|at least|within|prohibited|forbidden|mustn't|if)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Clause:
    """One rule of the policy. ``id`` depends on the rule's text and nothing else."""

    id: str
    text: str
    index: int

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, "index": self.index}


def normalise_clause_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip(".;").lower()


def clause_id(text: str) -> str:
    """The stable id of a clause with this text (whitespace and case do not matter)."""
    return "cl-" + hex_id("clause", normalise_clause_text(text), length=8)


def _units(prompt: str) -> list[tuple[str, bool]]:
    units: list[tuple[str, bool]] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            text = " ".join(paragraph)
            units.extend((s.strip(), False) for s in _SENTENCE_SPLIT.split(text) if s.strip())
            paragraph.clear()

    for raw in prompt.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            flush()
            continue
        if _BULLET.match(line):
            flush()
            units.append((_BULLET.sub("", line, count=1).strip(), True))
            continue
        paragraph.append(line)
    flush()
    return units


def split_policy(system_prompt: str) -> tuple[Clause, ...]:
    """Return the policy clauses of ``system_prompt`` in order, without duplicates.

    >>> [c.text for c in split_policy("You are a helpful agent. Never refund twice.")]
    ['Never refund twice.']
    """
    clauses: list[Clause] = []
    seen: set[str] = set()
    for text, bullet in _units(system_prompt or ""):
        if len(text) < 8 or text.endswith(":"):
            continue
        if _PREAMBLE.match(text):
            continue
        if not bullet and not _RULE_WORDS.search(text):
            continue
        cid = clause_id(text)
        if cid in seen:
            continue
        seen.add(cid)
        clauses.append(Clause(id=cid, text=text, index=len(clauses)))
    return tuple(clauses)
