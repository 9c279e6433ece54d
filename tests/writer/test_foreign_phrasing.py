"""Openers for tools this team did not design: short, verbless or product-prefixed names take
their phrasing from the description; frames agree with each other and with the task's history;
values are said, never pasted as JSON. Checked as properties over generated tools and over
every loadable spec of the foreign corpus."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from tests.corpus import corpus_specs
from whileai_env.writer import spoken_value
from whileai_env.writer.description import described_action
from whileai_env.writer.templates import (
    HISTORY,
    PERSONA,
    PRIOR_CONTACT_HISTORIES,
    PRIOR_CONTACT_STANCES,
    TONE_AFTER_CONTACT,
)
from whileai_env.writer.tool_phrasing import tool_words
from whileai_env.writer.vocabulary import KNOWN_VERBS

_NUMBERS = {
    "type": "object",
    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    "required": ["a", "b"],
}


def _spec(*tools: dict, kinds: dict | None = None) -> wenv.Spec:
    return wenv.load_spec(tools=list(tools), system_prompt="You help the user.", kinds=kinds)


@cache
def _corpus_draws() -> list[tuple[wenv.Spec, list[wenv.Task]]]:
    out = []
    for path in corpus_specs():
        try:
            spec = wenv.load_spec(path)
        except wenv.SpecError:
            continue  # the loader's business, tested in tests/spec
        out.append((spec, wenv.draw_tasks(spec, 40, seed=5)))
    assert len(out) >= 30
    return out


def test_descriptions_give_the_verb_and_object():
    cases = {
        "This tool belongs to the Gorilla file system. Tool description: Copy a file or directory.": (
            "copy",
            "file",
        ),
        "Subtract one number from another.": ("subtract", "number"),
        "Performs a web search using the Brave Search API.": ("search", "web"),
        "Navigate to a URL": ("navigate", "URL"),
        "Notion | Retrieve a user Error Responses: 400": ("retrieve", "user"),
        "Create a new GitHub repository in your account": ("create", "repository"),
        "Returns the name of all installed apps on the phone.": ("return", "name"),
        "Switches branches": ("switch", "branches"),
        "Permanently delete a monitor and stop its schedule.": ("delete", "monitor"),
        "Multiply two numbers.": ("multiply", "numbers"),
        "Apply a discount to an order.": ("apply", "discount"),
    }
    for description, (verb, noun) in cases.items():
        found = described_action(description)
        assert found is not None and (found.verb, found.noun) == (verb, noun), (description, found)
    assert described_action("A detailed tool for dynamic problem-solving.") is None
    assert described_action("Notion") is None


@settings(max_examples=60, deadline=None)
@given(
    name=st.from_regex(r"[bcdfghjklmnpqrstvwxz]{2,4}", fullmatch=True),
    verb=st.sampled_from(["copy", "archive", "rename", "print", "compress", "scan", "render"]),
    noun=st.sampled_from(["file", "report", "page", "image", "folder", "record"]),
    third_person=st.booleans(),
)
def test_a_verbless_short_name_is_phrased_from_its_description(name, verb, noun, third_person):
    assume(name not in KNOWN_VERBS)  # "rm", "ls" are verbs of their own
    said = (verb + ("es" if verb.endswith("s") else "s")) if third_person else verb
    spec = _spec(
        {
            "name": name,
            "description": f"{said.capitalize()} a {noun} for the user.",
            "parameters": {
                "type": "object",
                "properties": {f"{noun}_id": {"type": "string"}},
                "required": [f"{noun}_id"],
            },
        }
    )
    words = tool_words(spec, name)
    assert words.noun == noun
    assert {v.phrase for v in words.verbs} & {
        verb,
        "pull up",
        "get",
        "check",
        "look up",
        "show",
        "bring up",
    }
    for task in wenv.draw_tasks(spec, 12, seed=1):
        assert f" {name} " not in f" {task.opener.lower()} ", task.opener


def test_arithmetic_tools_say_their_operands():
    spec = _spec(
        {
            "name": "subtract",
            "description": "Subtract one number from another.",
            "parameters": _NUMBERS,
        },
        {"name": "add", "description": "Add two numbers.", "parameters": _NUMBERS},
    )
    for task in wenv.draw_tasks(spec, 40, seed=2):
        if task.cell.ask == "vague" or not task.world.targets:
            continue
        details = task.world.details[task.world.targets[-1]]
        opener = task.opener.lower()
        assert "(a:" not in opener and "(:" not in opener and "b:" not in opener, task.opener
        assert f"{details['a']} and {details['b']}" in task.opener, task.opener


def test_people_to_invite_are_the_object():
    spec = _spec(
        {
            "name": "invite",
            "description": "Invite people to an event.",
            "parameters": {
                "type": "object",
                "required": ["event_id", "emails"],
                "properties": {
                    "event_id": {"type": "string"},
                    "emails": {"type": "array", "items": {"type": "string", "format": "email"}},
                },
            },
        }
    )
    asks = [
        t for t in wenv.draw_tasks(spec, 30, seed=2) if t.cell.ask == "tool" and t.world.targets
    ]
    assert asks
    for task in asks:
        assert "to to" not in task.opener and re.search(r"@\S+ to event ", task.opener), task.opener


def test_frames_agree_with_the_persona_and_the_history():
    """No first-contact greeting beside a frame that says they have been in touch; no history
    frame on a task whose plan has no history; no greeting twice."""
    first_contact = [line.lower() for line in PERSONA["first_time"]]
    frames = {h: [line.lower() for line in lines if line] for h, lines in HISTORY.items()}
    for _, tasks in _corpus_draws():
        for task in tasks:
            if task.texture not in ("standard", "lowercase"):
                continue
            text = task.opener.lower()
            for history, lines in frames.items():
                if any(line in text for line in lines):
                    assert history == task.world.history, (task.world.history, task.opener)
                    assert not any(line in text for line in first_contact), task.opener
            if task.cell.stance in ("retry", "mistaken") and task.world.targets:
                assert not any(line in text for line in first_contact), task.opener
            if any(line.lower() in text for line in TONE_AFTER_CONTACT):
                assert task.world.targets and (
                    task.world.history in PRIOR_CONTACT_HISTORIES
                    or task.cell.stance in PRIOR_CONTACT_STANCES
                ), task.opener
            assert not re.search(
                r"\b(?:hi|hello|hey|good (?:morning|afternoon|day))\b[^.!?]*[.!?,] (?:hi|hello|hey)\b",
                text,
            ), task.opener


def _leaf_texts(value: object) -> list[str]:
    if isinstance(value, Mapping):
        return [t for v in value.values() for t in _leaf_texts(v)]
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [t for v in value for t in _leaf_texts(v)]
    return [spoken_value(value)] if isinstance(value, str) else []


def test_return_is_a_look_up_only_for_a_read():
    spec = _spec(
        {"name": "pwd", "description": "Return the current working directory path."},
        {
            "name": "return_delivered_order_items",
            "description": "Return some items of a delivered order.",
            "parameters": {
                "type": "object",
                "required": ["order_id"],
                "properties": {"order_id": {"type": "string"}},
            },
        },
        kinds={"pwd": "read", "return_delivered_order_items": "update"},
    )
    assert tool_words(spec, "pwd").verb == "get"
    assert tool_words(spec, "return_delivered_order_items").verb == "return"


def test_a_list_of_ids_is_said_as_ids():
    spec = _spec(
        {
            "name": "return_items",
            "description": "Return items of a delivered order.",
            "parameters": {
                "type": "object",
                "required": ["order_id", "item_ids"],
                "properties": {
                    "order_id": {"type": "string"},
                    "item_ids": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                },
            },
        }
    )
    for task in wenv.draw_tasks(spec, 20, seed=3):
        assert "['" not in task.opener and "[" not in task.opener, task.opener


def test_no_opener_pastes_json():
    """Structured values are said as prose; a text value (a file's content) may hold anything."""
    for _, tasks in _corpus_draws():
        for task in tasks:
            text = task.opener
            for leaf in sorted(_leaf_texts(dict(task.world.details)), key=len, reverse=True):
                text = text.replace(leaf, "")
            assert not re.search(r"[{\[]\s*\"", text), task.opener


_LEAF = st.one_of(st.integers(0, 999), st.from_regex(r"[a-z]{2,8}", fullmatch=True), st.booleans())
_DATA = st.recursive(
    _LEAF,
    lambda inner: (
        st.lists(inner, min_size=1, max_size=3)
        | st.dictionaries(
            st.from_regex(r"[a-z]{1,6}(?:_[a-z]{1,6})?", fullmatch=True),
            inner,
            min_size=1,
            max_size=3,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(value=_DATA)
def test_spoken_data_is_prose(value):
    said = spoken_value(value)
    assert not set(said) & set('{}[]":'), said


def test_a_priority_is_said_as_a_rank_not_a_count():
    """``set_issue_priority(priority=2)`` reads "priority 2", not "2 priorities" (a user's
    Linear spec wrote "Can I get 2 priorities on issue ENG-140 set?")."""
    spec = _spec(
        {
            "name": "set_issue_priority",
            "description": "Set the priority of an issue.",
            "parameters": {
                "type": "object",
                "required": ["issue_id", "priority"],
                "properties": {
                    "issue_id": {"type": "string"},
                    "priority": {"type": "integer", "minimum": 1, "maximum": 4},
                },
            },
        }
    )
    asks = [
        t for t in wenv.draw_tasks(spec, 40, seed=2) if t.cell.ask == "tool" and t.world.targets
    ]
    assert asks
    for task in asks:
        n = task.world.details["set_issue_priority"]["priority"]
        assert not re.search(r"\b\d priorit(?:y|ies)\b", task.opener), task.opener
        assert f"priority {n}" in task.opener.lower(), task.opener


def test_a_due_date_is_said_as_when_it_is_due():
    spec = _spec(
        {
            "name": "update_issue",
            "description": "Update an issue.",
            "parameters": {
                "type": "object",
                "required": ["issue_id", "due_date"],
                "properties": {
                    "issue_id": {"type": "string"},
                    "due_date": {"type": "string", "format": "date"},
                },
            },
        }
    )
    asks = [
        t for t in wenv.draw_tasks(spec, 40, seed=2) if t.cell.ask == "tool" and t.world.targets
    ]
    assert asks
    for task in asks:
        due = task.world.details["update_issue"]["due_date"]
        assert f"due date of {due}" in task.opener and f"on {due}" not in task.opener, task.opener
