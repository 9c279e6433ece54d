"""Immutable JSON containers, so a loaded spec can be shared, hashed and never edited in place.

They subclass ``dict`` and ``list`` so jsonschema, ``json.dumps`` and OpenAI clients accept them
unchanged; only mutation is refused.
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn

from whileai_env._util.hashing import canonical_json


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is immutable; use thaw() for an editable copy")


class FrozenDict(dict):
    """A ``dict`` that refuses mutation and hashes by content."""

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(canonical_json(self))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenDict:
        return self

    def __reduce__(self) -> tuple:
        return (_rebuild_dict, (dict(self),))


class FrozenList(list):
    """A ``list`` that refuses mutation and hashes by content."""

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = _refuse
    sort = reverse = __iadd__ = __imul__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(canonical_json(self))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenList:
        return self

    def __reduce__(self) -> tuple:
        return (_rebuild_list, (list(self),))


def _rebuild_dict(items: dict) -> FrozenDict:
    out = FrozenDict()
    dict.update(out, items)
    return out


def _rebuild_list(items: list) -> FrozenList:
    out = FrozenList()
    list.extend(out, items)
    return out


def freeze(obj: Any) -> Any:
    """Return a deeply immutable copy of a JSON-like value."""
    if isinstance(obj, FrozenDict | FrozenList):
        return obj
    if isinstance(obj, dict):
        return _rebuild_dict({str(k): freeze(v) for k, v in obj.items()})
    if isinstance(obj, list | tuple):
        return _rebuild_list([freeze(v) for v in obj])
    return obj


_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, scalars), several times faster than ``copy.deepcopy``.

    Frozen containers come back as plain, editable ones.
    """
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    return value


def copy_tree(value: Any) -> Any:
    """``copy.deepcopy(value)``, several times faster where ``value`` is JSON-like (plain dicts,
    lists, scalars): what a row is. Anything else in it (a tuple, a frozen or custom object) is
    handed to ``copy.deepcopy``, so it keeps its type; a structure that nests without end (a
    cycle) is copied by ``copy.deepcopy`` whole, as it was before.

    >>> row = {"steps": [{"args": {"id": 1}}], "final_text": "done"}
    >>> copied = copy_tree(row)
    >>> copied == row, copied["steps"][0] is row["steps"][0]
    (True, False)
    """
    try:
        return _copy_tree(value)
    except RecursionError:
        return copy.deepcopy(value)


def _copy_tree(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _copy_tree(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else _copy_tree(v) for v in value]
    return copy.deepcopy(value)


def thaw(obj: Any) -> Any:
    """Return a plain, editable deep copy (dicts and lists) of a frozen value (its keys are
    strings already: :func:`freeze` made them so)."""
    return copy_json(obj)
