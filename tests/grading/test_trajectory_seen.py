"""Trajectory.seen_anywhere: the set of seen words answers exactly as the substring search does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.grading.trajectory import Trajectory

WORDS = st.sampled_from(["ord-4412", "#4412", "4412", "rf_20931", "(a_1)", "x@y.io", "zz", "9"])
TEXT = st.lists(WORDS, max_size=12).map(" ".join)


def _row(user: str, argument: str, result: str) -> dict:
    step = {"index": 0, "tool": "get_order", "arguments": {"order_id": argument}, "ok": True}
    step |= {"result": {"status": "ok", "note": result}, "error": None, "fault": None}
    return {"prompt": user, "final_text": "done", "steps": [step], "system_prompt": "Be kind."}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(TEXT, TEXT, TEXT, st.lists(WORDS | st.text(max_size=6), min_size=20, max_size=40))
def test_every_lookup_agrees_with_a_plain_substring_search(user, argument, result, values):
    t = Trajectory(_row(user, argument, result))
    t.seen_anywhere("warm-up")  # the set is built only past the first lookups
    texts = (t.user_text, t.system, t._results_text(), t._arguments_text())
    for value in values:
        value = value.lower()
        assert t.seen_anywhere(value) == any(value in text for text in texts), value
