"""Verifiers over JSON in the reply: it parses (:class:`JSONValid`), it fits a schema
(:class:`JSONSchema`), one field holds the gold value (:class:`JSONField`).

The reply's JSON is the whole reply, else its first fenced code block, else the span from its
first ``{`` or ``[`` to the matching last bracket. It is read with the bounded reader of
:mod:`whileai_env._util.bounded_json` (the reply is the policy's text: bounded depth and numbers).

>>> from whileai_env.judges import JSONField
>>> row = {"final_text": 'Here: ```json\\n{"order": {"id": 7}}\\n```', "answer": 7}
>>> JSONField("order.id")(row)["reward"]
1.0
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from whileai_env._util import bounded_json
from whileai_env.judges.base import Verifier, read_path, verdict

_FENCE = re.compile(r"```[\w-]*\s*\n(.*?)```", re.DOTALL)


def reply_json(text: str) -> tuple[bool, Any]:
    """``(True, value)`` for the JSON in a reply (see the module docstring), ``(False, why)``.

    >>> reply_json('{"a": 1}'), reply_json("the list is [1, 2] ok")
    ((True, {'a': 1}), (True, [1, 2]))
    >>> reply_json("no json")[0]
    False
    """
    candidates = [text.strip(), *(m.strip() for m in _FENCE.findall(text))]
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    end = max(text.rfind("}"), text.rfind("]"))
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    problem = "reply holds no JSON"
    for piece in candidates:
        try:
            return True, bounded_json.loads(piece)
        except ValueError as exc:
            problem = f"reply holds no valid JSON ({exc})"
    return False, problem


class JSONValid(Verifier):
    """1 when the reply holds valid JSON (no gold needed).

    >>> JSONValid()({"final_text": '{"ok": true'})["reward"]
    0.0
    """

    needs_gold = False

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        ok, value = reply_json(candidate)
        return verdict(float(ok), "reply holds valid JSON" if ok else str(value), self.name)


class JSONSchema(Verifier):
    """1 when the reply's JSON validates against ``schema`` (or, with none, the gold answer as
    the schema), with ``jsonschema`` (already a core dependency) and the linear-time ``pattern``
    matcher, so a schema's regex cannot stall the check.

    >>> check = JSONSchema({"type": "object", "required": ["id"]})
    >>> check({"final_text": '{"id": 3}'})["reward"], check({"final_text": '{"name": 3}'})["reason"]
    (1.0, "reply's JSON breaks the schema at $: 'id' is a required property")
    """

    def __init__(self, schema: Mapping[str, Any] | None = None, **where: Any) -> None:
        super().__init__(**where)
        self.needs_gold = schema is None
        self.schema = schema

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        schema = self.schema if self.schema is not None else gold
        if not isinstance(schema, Mapping):
            raise ValueError(f"the schema must be a JSON object, got {type(schema).__name__}")
        ok, value = reply_json(candidate)
        if not ok:
            return verdict(0.0, str(value), self.name)
        error = _first_error(dict(schema), value)
        if error is None:
            return verdict(1.0, "reply's JSON fits the schema", self.name)
        return verdict(0.0, f"reply's JSON breaks the schema at {error}", self.name)


def _first_error(schema: dict[str, Any], value: Any) -> str | None:
    from jsonschema import validators

    from whileai_env._util.regex_safety import with_linear_patterns

    cls: Any = with_linear_patterns(validators.validator_for(schema))
    cls.check_schema(schema)
    error = next(iter(cls(schema).iter_errors(value)), None)
    return None if error is None else f"{error.json_path}: {error.message}"


class JSONField(Verifier):
    """1 when the reply's JSON holds the gold value at ``path`` (dotted, list items by index),
    or ``expected`` when given instead of a gold answer. Strings compare case-folded and
    stripped; numbers by value (``7 == 7.0``).

    >>> JSONField("status", expected="shipped")({"final_text": '{"status": "Shipped"}'})["reward"]
    1.0
    """

    def __init__(self, path: str, *, expected: Any = None, **where: Any) -> None:
        super().__init__(**where)
        self.path = path
        self.expected = expected
        self.needs_gold = expected is None

    def check(self, candidate: str, gold: Any) -> dict[str, Any]:
        want = self.expected if self.expected is not None else gold
        ok, value = reply_json(candidate)
        if not ok:
            return verdict(0.0, str(value), self.name)
        got = read_path(value, self.path) if isinstance(value, Mapping | list) else None
        same = _same(got, want)
        word = "holds" if same else "does not hold"
        return verdict(float(same), f"{self.path} {word} {want!r} (got {got!r})", self.name)


def _same(got: Any, want: Any) -> bool:
    if isinstance(got, str) and isinstance(want, str):
        return got.strip().casefold() == want.strip().casefold()
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    return bool(got == want)
