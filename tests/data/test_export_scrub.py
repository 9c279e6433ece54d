"""Export scrubbing decodes before it checks, and ``share=True`` drops what rebuilds hidden state (issue 13)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.data.rows import export_row, from_row, row_errors
from whileai_env.scenarios.draw import rebuild_task

SECRET = "SECRET-7f3a"


def _tool_row(content: str) -> dict:
    return {
        "final_text": "ok",
        "messages": [{"role": "tool", "tool_call_id": "c1", "content": content}],
    }


def _leaks(row: dict) -> bool:
    return SECRET in json.dumps(export_row(row, refuse_leaks=False), ensure_ascii=False)


@pytest.mark.parametrize(
    "content",
    [
        '{"hidden\\u005fstate": "SECRET-7f3a"}',  # an escaped key
        '{"\\u0068idden_state": {"x": "SECRET-7f3a"}}',
        json.dumps({"result": json.dumps({"hidden_state": SECRET})}),  # JSON inside a JSON string
        json.dumps({"a": [json.dumps({"b": json.dumps({"rubric": SECRET})})]}),  # three levels down
        "\ufeff" + json.dumps({"hidden_state": SECRET}),  # a byte-order mark first
        "  \n" + json.dumps([{"privileged": {"reference": SECRET}}]),
        json.dumps(json.dumps({"principle": SECRET})),  # a JSON string of JSON
    ],
)
def test_encoded_privileged_fields_are_dropped(content):
    assert not _leaks(_tool_row(content))


def test_unreadable_json_naming_a_privileged_field_is_withheld():
    row = _tool_row('{"hidden_state": "SECRET-7f3a", "cut": ')  # cut short: cannot be parsed
    assert not _leaks(row)
    deep = "[" * 200 + json.dumps({"hidden_state": SECRET}) + "]" * 200
    assert not _leaks(_tool_row(deep))


def test_ordinary_text_is_left_alone():
    for text in (
        "Your order shipped.",
        '{"status": "ok", "note": "the rubric is public"}',
        "[1, 2, 3]",
        "{not json but mentions nothing}",
    ):
        assert export_row(_tool_row(text), refuse_leaks=False)["messages"][0]["content"] == text


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.recursive(
        st.sampled_from([SECRET, 1, None, "x"]),
        lambda kids: st.one_of(
            st.lists(kids, max_size=3),
            st.dictionaries(
                st.sampled_from(["a", "b", "hidden_state", "rubric"]), kids, max_size=3
            ),
            kids.map(json.dumps),
        ),
        max_leaves=8,
    )
)
def test_no_secret_under_a_privileged_key_survives_any_nesting(value):
    wrapped = json.dumps({"hidden_state": value, "other": json.dumps({"principle": value})})
    assert not _leaks(_tool_row(wrapped))


def test_share_export_drops_the_columns_that_rebuild_hidden_state():
    spec = wenv.load_spec("configs/specs/order-support.json")
    row = wenv.simulate("seeded", spec=spec, budget=1, quiet=True).trajectories[0]
    hidden = row["privileged"]["hidden_state"]
    shared = export_row(row, share=True, refuse_leaks=False)
    for column in ("world", "fault_plan", "seed", "situation", "phrasing"):
        assert column not in shared
    assert shared["shared"] is True and row_errors(shared) == []
    assert from_row(shared).task is None  # a shared row cannot be re-drawn or re-run
    with pytest.raises(ValueError):
        rebuild_task(shared, spec)
    assert hidden and "hidden_state" not in json.dumps(shared)
    plain = export_row(row, refuse_leaks=False)
    assert "world" in plain and "fault_plan" in plain and row_errors(plain) == []
