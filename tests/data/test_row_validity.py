"""Every row the package writes passes ``validate_row``; text reaches disk as valid UTF-8 (issue 13)."""

from __future__ import annotations

import json

import pytest

import whileai_env as wenv
from whileai_env.data.jsonl import RowWriter, read_rows, write_rows
from whileai_env.data.rows import row_errors
from whileai_env.data.text import clean_text
from whileai_env.episode.engine import Episode

SPEC = "configs/specs/order-support.json"


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


def test_clean_text_replaces_and_counts_lone_surrogates():
    assert clean_text("Hello \ud800") == ("Hello \ufffd", 1)
    assert clean_text({"a\udcff": ["x\ud800\ud800", 3, None]}) == (
        {"a\ufffd": ["x\ufffd\ufffd", 3, None]},
        3,
    )
    assert clean_text("\ud83d\ude00 fine") == (
        "\U0001f600 fine",
        0,
    )  # a split pair is joined, not counted
    plain = {"k": ["v", 1.5]}
    assert clean_text(plain) == (plain, 0)


def test_lone_surrogate_reply_does_not_abort_simulate(tmp_path, spec):
    def policy(observation):
        return "Hello \ud800"

    out = tmp_path / "rows.jsonl"
    data = wenv.simulate(policy, spec=spec, budget=3, output=str(out), quiet=True)
    assert len(data) == 3 and data.stopped_because == "budget"
    out.read_bytes().decode("utf-8")  # strict: valid UTF-8 on disk
    rows = read_rows(out)
    assert len(rows) == 3
    assert all(not row_errors(r) for r in rows)
    assert all(r["text_repairs"] >= 1 for r in rows)
    assert "\ufffd" in rows[0]["final_text"]


def test_episode_counts_repairs_in_info_and_row(spec):
    task = wenv.draw_tasks(spec, 1, seed=3)[0]
    ep = Episode(spec, task, grade=False)
    result = ep.step(
        '<tool_call>{"name": "get_order", "arguments": {"order_id": "a\ud800"}}</tool_call>'
    )
    assert result.info["text_repairs"] == 1
    row = ep.row()
    assert row["text_repairs"] == 1 and not row_errors(row)
    json.dumps(row, ensure_ascii=False).encode("utf-8")


def test_clean_episode_rows_carry_no_repair_count(spec):
    task = wenv.draw_tasks(spec, 1, seed=3)[0]
    ep = Episode(spec, task, grade=False)
    ep.step("Which order do you mean?")
    assert "text_repairs" not in ep.row()


@pytest.mark.parametrize("arguments", [5, 2.5, True, {1, 2}, b"raw"])
def test_reported_steps_with_odd_arguments_make_valid_rows(spec, arguments):
    task = wenv.draw_tasks(spec, 1, seed=3)[0]
    ep = Episode(spec, task, grade=False)
    ep.record_external(
        [{"tool": "get_order", "arguments": arguments, "result": {"status": "ok"}}], "done"
    )
    assert row_errors(ep.row()) == []


def test_writers_repair_text_they_are_given(tmp_path):
    path = tmp_path / "a.jsonl"
    with RowWriter(path, config={"seed": 0}) as writer:
        writer.write({"text": "x\ud800"})
    assert writer.repaired == 1
    assert read_rows(path) == [{"text": "x\ufffd"}]
    write_rows([{"text": "y\udfff"}], tmp_path / "b.jsonl")
    assert read_rows(tmp_path / "b.jsonl") == [{"text": "y\ufffd"}]


def test_write_rows_leaves_nothing_when_the_rows_raise(tmp_path):
    """``write_rows`` writes through a temporary file: a failure midway leaves neither a partial
    file nor the temporary one (``export --share`` refusing a row of another spec relies on it)."""

    def rows():
        yield {"text": "first"}
        raise ValueError("a row of another run")

    target = tmp_path / "rows.jsonl"
    with pytest.raises(ValueError, match="another run"):
        write_rows(rows(), target)
    assert list(tmp_path.iterdir()) == []
