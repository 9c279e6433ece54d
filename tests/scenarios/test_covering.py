from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.scenarios.covering import pairwise


def _covers_all_pairs(axes, rows):
    for (na, va), (nb, vb) in combinations(axes, 2):
        seen = {(r[na], r[nb]) for r in rows}
        if seen != {(a, b) for a in va for b in vb}:
            return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=6), st.text(max_size=5))
def test_every_pair_is_covered(sizes, salt):
    axes = [(f"a{i}", [f"v{i}_{j}" for j in range(n)]) for i, n in enumerate(sizes)]
    rows = pairwise(axes, salt=salt)
    assert _covers_all_pairs(axes, rows)
    biggest = sorted(sizes)[-2:]
    assert len(rows) >= biggest[0] * biggest[1]


def test_same_salt_same_rows_other_salt_other_rows():
    axes = [("a", list("abcd")), ("b", list("xyz")), ("c", list("pqrs")), ("d", list("01"))]
    assert pairwise(axes, salt="s") == pairwise(axes, salt="s")
    assert pairwise(axes, salt="s") != pairwise(axes, salt="t")


def test_empty_axis_is_an_error():
    with pytest.raises(ValueError, match="axes with no values: b"):
        pairwise([("a", ["1"]), ("b", [])])
