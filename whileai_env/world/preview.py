"""What the world will state for each argument of a spec, before any run: a few sample values
per argument (drawn by the package's own value functions) and the arguments it could not fill
well, so ``whileai-env check-spec --values`` can show them.

An argument is flagged when a drawn value fails the argument's own schema, checked
independently with ``jsonschema`` (Draft 2020-12 and its format checker, not the world's
validator), when it is a filler word ("standard", "as discussed") rather than a value that
means something, when it is a format template copied from a description ("YYYY-MM-DD"), or
when the world itself would refuse it as a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from whileai_env._util.frozen import thaw
from whileai_env.spec.arguments import argument_role
from whileai_env.spec.load import Spec, Tool
from whileai_env.world.arguments import detail_value, locator_value
from whileai_env.world.profile import profile_for
from whileai_env.world.validation import find_placeholder

#: Words that fill a field without meaning anything in it.
FILLERS = frozenset(
    {
        "standard",
        "as discussed",
        "the usual one",
        "priority",
        "default",
        "test",
        "testing",
        "example",
        "sample",
        "string",
        "value",
        "text",
        "foo",
        "bar",
        "baz",
        "lorem ipsum",
        "n/a",
        "na",
        "tbd",
        "todo",
        "placeholder",
        "xxx",
        "abc",
        "something",
        "anything",
        "misc",
        "other",
        "none",
        "null",
        "undefined",
        "whatever",
    }
)
_FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER
#: A format template copied from a description ("YYYY-MM-DD", "HH:MM") instead of a value in it.
_TEMPLATE = re.compile(r"^(?=(?:.*[YMDHSmhs]){4})[YMDHSmhsT:/\-. ]+$")


@dataclass(frozen=True)
class ArgumentPreview:
    """Sample values of one argument and what is wrong with them (empty when nothing is)."""

    tool: str
    argument: str
    role: str
    values: tuple[Any, ...]
    problems: tuple[str, ...] = field(default=())

    @property
    def flagged(self) -> bool:
        return bool(self.problems)


def _wrapped(params: Mapping[str, Any], arg: str) -> dict[str, Any]:
    """A schema for ``{arg: value}`` that keeps the tool's ``$defs`` so local ``$ref`` resolve."""
    schema: dict[str, Any] = {"type": "object", "properties": {arg: params["properties"][arg]}}
    for key in ("$defs", "definitions"):
        if key in params:
            schema[key] = params[key]
    return schema


def _strings(value: Any) -> list[str]:
    """The strings of ``value`` that stand for a field: the value itself or a record's fields at
    any depth (an array of records holds dates and names too), not the items of a list of words
    such as an argv (``["npm", "test"]``)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value if not isinstance(v, str) for s in _strings(v)]
    return []


def _listed(schema: Any) -> set[str]:
    """Every string an ``enum`` or ``const`` anywhere in ``schema`` allows ("text", "none")."""
    found: set[str] = set()
    if isinstance(schema, Mapping):
        for key, sub in schema.items():
            if key == "enum" and isinstance(sub, list):
                found.update(v for v in sub if isinstance(v, str))
            elif key == "const" and isinstance(sub, str):
                found.add(sub)
            else:
                found |= _listed(sub)
    elif isinstance(schema, list):
        for sub in schema:
            found |= _listed(sub)
    return found


def _meaningless(value: Any, allowed: set[str]) -> str | None:
    for text in _strings(value):
        if text in allowed:
            continue
        if text.strip().lower() in FILLERS:
            return f"{text!r} is a filler word, not a value"
        if _TEMPLATE.match(text.strip()):
            return f"{text!r} is a format template, not a value in that format"
    return None


def value_problems(params: Mapping[str, Any], arg: str, role: str, values: list[Any]) -> list[str]:
    """What is wrong with the drawn ``values`` of argument ``arg`` of a tool whose argument schema
    is ``params``: a schema failure, a filler word or format template anywhere in the value, or a
    value the world would refuse as a placeholder (each said once)."""
    schema = _wrapped(params, arg)
    validator = jsonschema.Draft202012Validator(schema, format_checker=_FORMATS)
    allowed = _listed(schema)
    found: list[str] = []
    for value in values:
        error = next(iter(validator.iter_errors({arg: value})), None)
        meaningless = _meaningless(value, allowed)
        if error is not None:
            found.append(f"{value!r} fails its schema: {error.message}")
        elif meaningless is not None:
            found.append(meaningless)
        else:
            refused = find_placeholder(
                {arg: value},
                params["properties"],
                lambda v: False,
                (arg,) if role == "locator" else (),
            )
            if refused is not None:
                found.append(f"{value!r}: the world would refuse it ({refused['message']})")
    return list(dict.fromkeys(found))


def preview_tool(spec: Spec, tool: Tool, samples: int = 3, seed: int = 0) -> list[ArgumentPreview]:
    """Sample values and problems for every argument of ``tool`` (in the schema's order)."""
    params = thaw(tool.parameters)
    profile = profile_for(spec).tools[tool.name]
    out = []
    for arg, schema in (params.get("properties") or {}).items():
        schema = schema if isinstance(schema, Mapping) else {}
        role = argument_role(arg, schema)
        values = []
        for i in range(samples):
            if role == "locator":
                value = locator_value(
                    arg, schema, seed, i, root=params, spec=spec, noun=profile.nouns.get(arg, "")
                )
            else:
                value = detail_value(
                    arg, schema, seed, i, root=params, spec=spec, writes=tool.is_write
                )
            values.append(value)
        problems = value_problems(params, arg, role, values)
        out.append(ArgumentPreview(tool.name, arg, role, tuple(values), tuple(problems)))
    return out + _undeclared_required(tool.name, params)


def _undeclared_required(tool: str, params: Mapping[str, Any]) -> list[ArgumentPreview]:
    """A required name the schema declares no property for while it allows no other: no call
    of the tool can be valid, which the world would answer ``rejected`` every time."""
    props = params.get("properties") or {}
    if params.get("additionalProperties") is not False:
        return []
    return [
        ArgumentPreview(
            tool,
            str(name),
            "text",
            (),
            (
                "required, but no such property is declared and additionalProperties is false: "
                "no call can be valid",
            ),
        )
        for name in params.get("required") or ()
        if name not in props
    ]


def preview_values(spec: Spec, samples: int = 3, seed: int = 0) -> list[ArgumentPreview]:
    """:func:`preview_tool` for every tool of ``spec``."""
    return [p for tool in spec.tools for p in preview_tool(spec, tool, samples, seed)]
