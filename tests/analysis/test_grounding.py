"""mark_grounding() / grounding_report(): invented values are named, seen ones are not."""

from __future__ import annotations

import copy

import pytest

import whileai_env as wenv
from whileai_env.analysis.grounding import grounding_report, mark_grounding, ungrounded_arguments


def _row(
    arguments, *, user="Please refund order 4412 to my card.", system="Refunds need a reason."
):
    return {
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "steps": [{"tool": "refund_order", "arguments": arguments, "result": {"status": "ok"}}],
        "final_text": "Refunded.",
    }


def test_values_from_the_user_or_system_prompt_are_grounded():
    assert ungrounded_arguments(_row({"order_id": "4412", "reason": "Refunds"})) == []
    assert ungrounded_arguments(_row({"order_id": "#4412"})) == []  # the same id, written with #


def test_invented_values_are_named_and_options_skip_them():
    row = _row({"order_id": "5550", "note": "customer asked nicely", "method": "card_refund"})
    assert {a["key"] for a in ungrounded_arguments(row)} == {"order_id", "note", "method"}
    skipped = ungrounded_arguments(row, ignore_keys=["note"], allow=["card_refund"])
    assert [(a["key"], a["value"]) for a in skipped] == [("order_id", "5550")]


def test_mark_and_report():
    rows = [_row({"order_id": "4412"}), _row({"order_id": "7777"}), {"final_text": "hi"}]
    marked = mark_grounding(rows)
    assert [r["markers"]["argument_grounding"] for r in marked] == [1.0, 0.0, 1.0]
    assert "markers" not in rows[0]
    report = grounding_report(rows)
    assert report["grounded_rate"] == pytest.approx(2 / 3)
    assert report["invented"] == {"refund_order": {"order_id": ["7777"]}}


def test_simulated_oracle_rows_are_grounded_and_an_edit_is_caught():
    data = wenv.simulate("oracle", spec="configs/specs/order-support.json", budget=12, quiet=True)
    rows = [row for row in data.rows if row["steps"]]
    assert rows and grounding_report(rows)["grounded_rate"] == 1.0
    edited = copy.deepcopy(rows[0])
    edited["steps"][0]["arguments"] = {
        key: "ZZ-000111" if isinstance(value, str) else value
        for key, value in edited["steps"][0]["arguments"].items()
    }
    assert any(a["value"] == "ZZ-000111" for a in ungrounded_arguments(edited))
