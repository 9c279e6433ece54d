"""Seeded hashing: the fast key path gives exactly the canonical JSON it stands in for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env._util.hashing import _part, canonical_json, stable_hash

_SCALAR = st.one_of(
    st.integers(),
    st.text(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.none(),
)
_TUPLE = st.recursive(
    st.tuples(_SCALAR) | st.tuples(_SCALAR, _SCALAR, _SCALAR),
    lambda inner: st.tuples(inner, _SCALAR) | st.tuples(_SCALAR, inner, inner),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(_TUPLE)
def test_a_tuple_key_hashes_as_its_canonical_json(key: tuple) -> None:
    assert _part(key) == canonical_json(key)


def test_strings_json_would_escape_take_the_exact_path() -> None:
    for text in ('a"b', "a\\b", "line\nbreak", "tab\t", "\u2028", "\x7f", "é ok"):
        assert _part((1, text)) == canonical_json((1, text))
    assert stable_hash((1, "a")) == stable_hash([1, "a"])
