"""JSON verifiers: validity, a schema (with a linear-time pattern), a field."""

from __future__ import annotations

import time

from whileai_env.grading.judge import run_judge
from whileai_env.judges import JSONField, JSONSchema, JSONValid
from whileai_env.judges.structured import reply_json


def test_reply_json_finds_fenced_and_embedded_json():
    assert reply_json('```json\n{"a": [1]}\n```') == (True, {"a": [1]})
    assert reply_json('Result: {"a": 1} done') == (True, {"a": 1})
    assert reply_json("[" * 100 + "]" * 100)[0] is False  # nesting past the bounded reader's limit


def test_json_valid_needs_no_gold():
    assert JSONValid()({"final_text": '{"ok": 1}'})["reward"] == 1.0
    assert JSONValid()({"final_text": "{'ok': 1}"})["reward"] == 0.0


def test_json_schema_from_gold_or_constructor():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert JSONSchema(schema)({"final_text": '{"n": 2}'})["reward"] == 1.0
    assert (
        JSONSchema()({"final_text": '{"n": "2"}', "privileged": {"reference": schema}})["reward"]
        == 0.0
    )


def test_json_schema_pattern_is_time_bounded():
    schema = {"type": "string", "pattern": "^(a+)+$"}
    started = time.monotonic()
    assert JSONSchema(schema)({"final_text": '"' + "a" * 5000 + '!"'})["reward"] == 0.0
    assert time.monotonic() - started < 2.0


def test_an_invalid_schema_is_a_judge_error():
    (row,) = run_judge([{"final_text": "{}"}], JSONSchema({"type": "no-such-type"}))
    assert row["judge_status"] == "error"


def test_json_field():
    row = {"final_text": '{"items": [{"sku": "A-1", "qty": 2}]}', "answer": 2}
    assert JSONField("items.0.qty")(row)["reward"] == 1.0
    assert JSONField("items.0.sku", expected="a-1")(row)["reward"] == 1.0
    assert JSONField("items.1.qty")(row)["reward"] == 0.0
    assert JSONField("flag", expected=True)({"final_text": '{"flag": 1}'})["reward"] == 0.0
