"""to_plain: plain copies under limits, and errors that say where."""

from __future__ import annotations

import pytest

from whileai_env._util.bounded_json import JsonLimitError, to_plain


class _Text(str):
    pass


def test_copies_to_plain_types():
    out = to_plain({"a": (1, _Text("x"), b"y"), "b": [None, True, 2.5]})
    assert out == {"a": [1, "x", "y"], "b": [None, True, 2.5]}
    assert type(out["a"][1]) is str


@pytest.mark.parametrize(
    ("value", "where"),
    [
        (
            {"tool_calls": [{"function": {"arguments": {"x": object()}}}]},
            "tool_calls[0].function.arguments.x",
        ),
        ([[1, {1: 2}]], "[0][1]"),
        ({"n": 2**400}, "n"),
        ({"deep": [[[[[[]]]]]]}, "deep[0][0][0]"),
    ],
)
def test_errors_name_the_path(value, where):
    with pytest.raises(JsonLimitError) as caught:
        to_plain(value, max_depth=6 if "tool_calls" in value else 4)
    assert caught.value.path == where


def test_size_budget_counts_nodes_and_characters():
    assert to_plain(["abc", "de"], max_items=8) == ["abc", "de"]
    with pytest.raises(JsonLimitError, match="too big"):
        to_plain(["abc", "de"], max_items=7)
