"""``copy_tree``: what ``copy.deepcopy`` gives, for rows and for what a row should not hold."""

from __future__ import annotations

import copy
import datetime

from hypothesis import given
from hypothesis import strategies as st

from whileai_env._util.frozen import FrozenDict, copy_tree, freeze

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@given(json_values)
def test_a_json_value_copies_equal_and_shares_no_container(value):
    copied = copy_tree(value)
    assert copied == value == copy.deepcopy(value)
    stack = [(value, copied)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, dict | list):
            assert a is not b
            left, right = (a.values(), b.values()) if isinstance(a, dict) else (a, b)
            stack.extend(zip(left, right, strict=True))


def test_what_is_not_json_keeps_its_type_as_deepcopy_does():
    when = datetime.datetime(2026, 1, 1)
    row = {"pair": (1, [2]), "frozen": freeze({"a": [1]}), "when": when, "seen": {1, 2}}
    copied = copy_tree(row)
    assert copied == copy.deepcopy(row)
    assert type(copied["pair"]) is tuple and copied["pair"][1] is not row["pair"][1]
    assert isinstance(copied["frozen"], FrozenDict)
    assert copied["seen"] is not row["seen"]


def test_a_cycle_is_copied_by_deepcopy():
    row: dict = {"steps": []}
    row["steps"].append(row)
    copied = copy_tree(row)
    assert copied["steps"][0] is copied and copied is not row
