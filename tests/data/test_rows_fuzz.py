"""Fuzz: whatever an agent sends, the row the package writes validates and is valid UTF-8 (issue 13).

Hypothesis with a fixed seed (``derandomize``) and a bounded number of examples, so CI is fast
and repeatable.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env.data.jsonl import RowWriter, read_rows
from whileai_env.data.rows import export_row, row_errors
from whileai_env.episode.engine import Episode

SPEC = wenv.load_spec("configs/specs/order-support.json")
TASKS = wenv.draw_tasks(SPEC, 4, seed=5)

_TEXT = st.text(
    st.one_of(st.characters(), st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
    max_size=40,
)
_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _TEXT),
    lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(_TEXT, kids, max_size=3)),
    max_leaves=10,
)
_CALL = st.fixed_dictionaries(
    {
        "id": _TEXT,
        "type": st.just("function"),
        "function": st.fixed_dictionaries(
            {
                "name": st.one_of(st.sampled_from([t.name for t in SPEC.tools]), _TEXT),
                "arguments": st.one_of(
                    _JSON.map(lambda v: json.dumps(v, ensure_ascii=False)), _JSON, _TEXT
                ),
            }
        ),
    }
)
_ACTION = st.one_of(
    _TEXT,
    _TEXT.map(lambda t: f"<tool_call>{t}</tool_call>"),
    st.fixed_dictionaries(
        {
            "role": st.just("assistant"),
            "content": st.one_of(_TEXT, st.none()),
            "tool_calls": st.lists(_CALL, max_size=2),
        }
    ),
    _JSON,
)


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.integers(0, len(TASKS) - 1), st.lists(_ACTION, min_size=1, max_size=4))
def test_any_turns_make_a_valid_utf8_row_on_disk(tmp_path, which, actions):
    episode = Episode(SPEC, TASKS[which], grade=False)
    for action in actions:
        if episode.done:
            break
        episode.step(action)
    row = episode.row()
    row.update(episode.reward())
    assert row_errors(row) == []
    path = tmp_path / "rows.jsonl"
    path.unlink(missing_ok=True)
    with RowWriter(path, config={"fuzz": True}) as writer:
        writer.write(export_row(row, refuse_leaks=False))
    path.read_bytes().decode("utf-8")  # strict
    (back,) = read_rows(path)
    assert row_errors(back) == []


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "tool": st.one_of(st.sampled_from(["get_order"]), _TEXT.filter(bool)),
                "arguments": st.one_of(_JSON, st.sets(st.integers(), max_size=2)),
                "result": _JSON,
            }
        ),
        max_size=3,
    ),
    _TEXT,
)
def test_any_reported_steps_make_a_valid_row(steps, final_text):
    episode = Episode(SPEC, TASKS[0], grade=False)
    episode.record_external(steps, final_text)
    row = episode.row()
    assert row_errors(row) == []
    json.dumps(row, ensure_ascii=False, default=str).encode("utf-8")
