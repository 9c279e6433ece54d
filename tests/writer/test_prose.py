"""Openers in prose a person would type: details said in the sentence, not as a form's label list;
a vague ask calls "my" only a thing that has ids; a description's "This tool helps …" is read."""

from __future__ import annotations

import re
from functools import cache
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import whileai_env as wenv
from tests.corpus import corpus_specs
from whileai_env.writer.description import described_action
from whileai_env.writer.opener import _vague_sentence
from whileai_env.writer.spoken import Label, said_labels, spoken_value
from whileai_env.writer.tool_phrasing import tool_words

#: A label-value list: "(namespace: staging, …)", or two "Label: value." sentences in a row.
_FORM = re.compile(
    r"\([^()]*\b[A-Za-z][\w ]{0,30}: [^()]+\)"
    r"|(?:^|[.!?] )[A-Z][\w ]{0,30}: [^.!?]+\. [A-Z][\w ]{0,30}: "
)
_NAMES = st.lists(
    st.sampled_from(["status", "namespace", "resource", "type", "total", "bags", "is", "public"]),
    min_size=1,
    max_size=3,
).map(" ".join)
_VALUES = st.one_of(
    st.booleans(),
    st.integers(0, 999),
    st.text("abcdefgh -", min_size=1, max_size=30).filter(str.strip),
    st.dictionaries(
        st.sampled_from(["priority", "status", "title"]),
        st.text("abc", min_size=1, max_size=5),
        min_size=1,
        max_size=2,
    ),
)


@given(st.lists(st.tuples(_NAMES, _VALUES), min_size=1, max_size=4))
def test_details_are_said_in_the_sentence_with_every_value(pairs: list[tuple[str, object]]) -> None:
    labels = [Label(name, spoken_value(value), value) for name, value in pairs]
    said = said_labels(labels)
    assert ":" not in said, said
    for label in labels:
        if isinstance(label.value, dict):
            assert all(spoken_value(v, depth=1) in said for v in label.value.values())
        elif not isinstance(label.value, bool):
            assert label.spoken in said, (label, said)


def test_an_object_of_changes_is_said_as_what_it_sets() -> None:
    said = said_labels([Label("updates", "", {"status": "closed", "priority": "high"})])
    assert said == " by setting status to closed and priority to high"


@cache
def _tasks() -> list[tuple[wenv.Spec, wenv.Task]]:
    out = []
    for path in corpus_specs():
        try:
            spec = wenv.load_spec(path)
        except wenv.SpecError:
            continue
        out += [(spec, t) for t in wenv.draw_tasks(spec, 8, seed=11)]
    return out


def test_no_corpus_opener_reads_as_a_form() -> None:
    forms = [t.opener for _, t in _tasks() if _FORM.search(t.opener)]
    assert not forms, forms[:5]


def _vague_spec() -> wenv.Spec:
    return wenv.load_spec(
        [
            {
                "name": "square_root",
                "description": "Calculate the square root of a number.",
                "parameters": {
                    "type": "object",
                    "properties": {"number": {"type": "number"}},
                    "required": ["number"],
                },
            },
            {
                "name": "cancel_order",
                "description": "Cancel an order.",
                "parameters": {
                    "type": "object",
                    "properties": {"order_id": {"type": "string"}},
                    "required": ["order_id"],
                },
            },
        ]
    )


@pytest.mark.parametrize("seed", range(8))
def test_a_vague_ask_owns_only_things_with_ids(seed: int) -> None:
    spec = _vague_spec()
    from whileai_env.writer.tool_phrasing import owned_nouns

    root = _vague_sentence(tool_words(spec, "square_root"), (), Random(seed), owned_nouns(spec))
    assert "my" not in root.lower().split() and "something" in root, root
    order = _vague_sentence(tool_words(spec, "cancel_order"), (), Random(seed), owned_nouns(spec))
    assert "order" in order, order


def test_a_tool_that_helps_do_something_is_said_by_that_action() -> None:
    found = described_action(
        "A tool for thinking.\nThis tool helps analyze problems through a flexible process."
    )
    assert found is not None and (found.verb, found.noun) == ("analyze", "problems")
