"""Openers from every example spec read like a person typed them: no known-bad patterns.

Each check strips the protected spans first (ids, stated values, quoted rule text), since
those are the user's data and may legitimately hold ``snake_case`` or odd spacing.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.scenarios import axes as ax
from whileai_env.writer import spoken_id, stated_values
from whileai_env.writer.tool_phrasing import tool_words

SPEC_PATHS = sorted(
    [*SPECS_DIR.glob("*.json"), *SPECS_DIR.glob("*.yaml"), *SPECS_DIR.glob("*/spec.yaml")]
)
SENTENCE_CASE = {"standard", "typo", "clipped", "run_on"}
UNPUNCTUATED = {"no_punctuation", "clipped"}

# (name, pattern, textures exempt) for patterns that must never match the prose of an opener.
BAD_PATTERNS = [
    ("doubled my", re.compile(r"\bmy my\b", re.IGNORECASE), ()),
    (
        "a before a vowel sound",
        re.compile(r"\ba (?!one\b|once\b|uni|use|usu|eu)[aeio]\w*", re.IGNORECASE),
        (),
    ),
    (
        "an before a consonant",
        re.compile(r"\ban (?!h)[bcdfgjklmnpqrstvwxyz]\w*", re.IGNORECASE),
        (),
    ),
    ("doubled period", re.compile(r"\.\."), ()),
    (
        "function word left in a noun",
        re.compile(r"\b(?:my|a|the) to\b|\b(?:transfer|hand) (?:my|the|a) ", re.IGNORECASE),
        (),
    ),
    ("article dropped before human", re.compile(r"\bto human\b", re.IGNORECASE), ("clipped",)),
    (
        "namespace as verb",
        re.compile(
            r"\b(?:to|you|me|please|just|quick:?)\s+(?:git|invoices)\b|^(?:git|invoices)\b(?! (?:diff|status|log)\b)",
            re.IGNORECASE,
        ),
        (),
    ),
    (
        "first-person 'show me'",
        re.compile(r"\b(?:to|me|you|please)\s+show me\b", re.IGNORECASE),
        (),
    ),
    (
        "'get me' after a first-person frame",
        re.compile(r"\b(?:to|me)\s+get me\b", re.IGNORECASE),
        (),
    ),
    (
        "raw argument label",
        re.compile(
            r"\bwith (?:reason|amount|body|content|expression|summary|comment|query) (?!\")",
            re.IGNORECASE,
        ),
        (),
    ),
    ("template leftover", re.compile(r"[{}]|\bNone\b|\bTrue\b|\bFalse\b"), ()),
    ("double space", re.compile(r" {2}"), ()),
    ("space before punctuation", re.compile(r" [,.!?;:]"), ()),
    ("empty parentheses", re.compile(r"\(\s*\)|\(\s|\s\)"), ()),
    ("doubled word", re.compile(r"\b(\w{2,}) \1\b"), ()),
    ("snake_case word", re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b"), ()),
]
PLACEHOLDER = "<v>"


@cache
def _draws(path: Path) -> tuple[wenv.Spec, list[wenv.Task]]:
    spec = wenv.load_spec(path)
    return spec, wenv.draw_tasks(spec, 120, seed=3)


def _quoted_rule(task: wenv.Task) -> list[str]:
    clause = task.world.clause or ""
    return [q for q in re.findall(r'"([^"]+)"', task.opener) if q in clause]


def _prose(task: wenv.Task, spec: wenv.Spec) -> str:
    """The opener with every protected span blanked out (kept as a neutral placeholder word)."""
    spans = (
        [spoken_id(v) for v in task.world.entities.values()]
        + stated_values(task.world, spec)
        + _quoted_rule(task)
    )
    text = task.opener
    for span in sorted({s for s in spans if s}, key=len, reverse=True):
        text = text.replace(span, PLACEHOLDER)
    return text


def problems(task: wenv.Task, spec: wenv.Spec) -> list[str]:
    """Every known-bad pattern in the task's opener, by name."""
    prose = _prose(task, spec)
    found = [
        name
        for name, pattern, exempt in BAD_PATTERNS
        if task.texture not in exempt and pattern.search(prose)
    ]
    if task.texture not in UNPUNCTUATED and not re.search(r"[.!?]\)?$", task.opener):
        found.append("no closing punctuation")
    if task.texture in SENTENCE_CASE:
        if re.search(r"[.!?] [a-z]", prose) or re.match(r"[a-z]", prose):
            found.append("lowercase sentence start")
        if re.search(r"\bi(?:'m|'ve|'d|'ll)?\b", prose):
            found.append("lowercase pronoun I")
    return found


@pytest.mark.parametrize(
    "path", SPEC_PATHS, ids=lambda p: p.parent.name if p.name == "spec.yaml" else p.name
)
def test_openers_have_no_known_bad_patterns(path: Path):
    spec, tasks = _draws(path)
    bad = [
        (task.cell.tool, task.texture, problem, task.opener)
        for task in tasks
        for problem in problems(task, spec)
    ]
    assert not bad, "\n".join(map(str, bad[:10]))


@pytest.mark.parametrize(
    "path", SPEC_PATHS, ids=lambda p: p.parent.name if p.name == "spec.yaml" else p.name
)
def test_openers_state_every_planned_value(path: Path):
    spec, tasks = _draws(path)
    for task in tasks:
        if task.cell.ask == "vague" or not task.world.targets:
            continue
        for value in [spoken_id(v) for v in task.world.entities.values()] + stated_values(
            task.world, spec
        ):
            assert value in task.opener, (task.cell.tool, value, task.opener)


@pytest.mark.parametrize(
    "path", SPEC_PATHS, ids=lambda p: p.parent.name if p.name == "spec.yaml" else p.name
)
def test_quoted_rules_are_verbatim_and_short(path: Path):
    _, tasks = _draws(path)
    for task in tasks:
        if task.cell.rule == ax.NO_RULE:
            continue
        for quote in re.findall(
            r'(?:rule says|hide behind|I know about) "([^"]+)"', task.opener, re.IGNORECASE
        ):
            assert quote in (task.world.clause or ""), (quote, task.world.clause)
            assert len(quote.split()) <= 12


def test_check_catches_the_reviewed_bad_openers(order_spec):
    """The pattern check fails on the openers the old writer produced, so it can fail at all."""
    task = wenv.draw_tasks(order_spec, 1, seed=0)[0]
    old = [
        "Help me git my status.",
        "I need to invoices my invoice INV-1.",
        "I need to show me all of my customer email x@y.io.",
        "Please transfer my to human with summary Team offsite.",
        "Send it with body Running about ten minutes late, sorry..",
        "Freeze card C-1 with reason customer_request.",
        "Hi, I need help with my my order.",
        "I'd like a order.",
        "hello. please check it",
    ]
    for opener in old:
        fake = wenv.Task.from_dict(
            {
                **task.to_dict(),
                "prompt": opener,
                "scenario_dimensions": {**task.dimensions, "texture": "standard"},
                "world": {**task.world.to_dict(), "entities": {}, "details": {}},
            }
        )
        assert problems(fake, order_spec), opener


@pytest.mark.parametrize(
    ("tool", "verbs", "noun"),
    [
        ("git_status", {"check", "pull up", "look at"}, "git status"),
        ("git_commit", {"commit"}, ""),
        ("git_checkout", {"check out", "switch to"}, ""),
    ],
)
def test_namespace_prefixes_are_not_verbs(tool, verbs, noun):
    spec = wenv.load_spec(SPECS_DIR / "coding-agent.json")
    words = tool_words(spec, tool)
    assert {v.phrase for v in words.verbs} == verbs
    assert words.noun == noun


def test_tool_object_noun_and_required_order():
    messy = wenv.load_spec(SPECS_DIR / "messy.json")
    assert tool_words(messy, "invoices.void").verb == "void"
    helpdesk = wenv.load_spec(SPECS_DIR / "helpdesk" / "spec.yaml")
    assert tool_words(helpdesk, "reset_password").noun == "password"
    assert tool_words(helpdesk, "update_ticket_status").noun == "status"
    airline = wenv.load_spec(SPECS_DIR / "airline.yaml")
    book = tool_words(airline, "book_flight")
    assert book.order[:2] == ("user_id", "flight_number")
    for task in wenv.draw_tasks(airline, 150, seed=1):
        if task.cell.tool == "book_flight" and task.cell.ask == "tool":
            ids = task.world.entities
            opener = task.opener
            assert (
                opener.index(str(ids["flight_number"]))
                < opener.index(str(ids["user_id"]))
                < opener.index(str(ids["payment_method_id"]))
            ), opener
