"""A spec tool as a Python signature and Google-style docstring that TRL can read back.

TRL's ``environment_factory`` turns each public method of the environment class into a tool,
its schema rebuilt by ``transformers.utils.get_json_schema`` from the method's type hints and
docstring. That reader knows ``str``/``int``/``float``/``bool``, ``list[X]``, ``dict``,
``Literal`` and unions, nothing more: nested object properties, ``format``, ``pattern`` and
bounds have no type hint. So the hint carries what it can (enums as ``Literal``, item types,
nullable unions) and the argument's description carries the rest in words (``format: date;
at least 1; keys: city, zip``), which is what a model then reads. Pure Python: no torch here.
"""

from __future__ import annotations

import inspect
import keyword
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal, Union

from whileai_env._util.lexicon import name_tokens
from whileai_env.spec.arguments import entity_noun

#: Method names TRL treats specially or the environment class uses itself.
RESERVED = frozenset({"reset", "get_reward", "ask_user"})
_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}
#: Words that end the description block of a Google docstring in transformers' parser.
_SECTION = re.compile(r"\b(Args|Arguments|Returns|Raises):", re.IGNORECASE)
#: transformers reads a trailing ``(choices: [...])`` as JSON; a spec's own text must not end so.
_CHOICES = re.compile(r"\(\s*choices\s*:", re.IGNORECASE)


def python_name(name: str, taken: Iterable[str] = ()) -> str:
    """``name`` as a Python identifier no other method uses: kept when it already is one
    (camelCase included, so the model sees the spec's own name), else its words in snake_case.

    >>> python_name("get-order"), python_name("getOrder"), python_name("class"), python_name("reset")
    ('get_order', 'getOrder', 'class_', 'reset_')
    """
    used = set(taken) | RESERVED
    base = (
        name
        if name.isidentifier() and not name.startswith("_")
        else "_".join(name_tokens(name)) or "arg"
    )
    if base[0].isdigit():
        base = f"n_{base}"
    if keyword.iskeyword(base) or base in RESERVED:
        base = f"{base}_"
    candidate, n = base, 2
    while candidate in used:
        candidate, n = f"{base}_{n}", n + 1
    return candidate


def type_hint(schema: Any) -> Any:
    """The Python type hint that makes transformers write back as much of ``schema`` as it can."""
    if not isinstance(schema, Mapping):
        return Any
    if "const" in schema and _scalar(schema["const"]):
        return Literal[schema["const"]]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(_scalar(v) for v in enum):
        return Literal[tuple(dict.fromkeys(enum))]
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        return _union([type_hint(o) for o in options])
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([type_hint({**schema, "type": k}) for k in kind])
    if kind == "array":
        items = schema.get("items")
        return list[type_hint(items)] if isinstance(items, Mapping) and items else list
    if kind == "object":
        extra = schema.get("additionalProperties")
        return dict[str, type_hint(extra)] if isinstance(extra, Mapping) and extra else dict
    return _SCALARS.get(kind, Any) if isinstance(kind, str) else Any


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _union(hints: list[Any]) -> Any:
    unique = list(dict.fromkeys(hints))
    if Any in unique:
        return Any
    return unique[0] if len(unique) == 1 else Union[tuple(unique)]  # noqa: UP007 (built at run time)


def constraint_words(schema: Any) -> str:
    """What ``schema`` says that a type hint cannot: format, pattern, bounds, nested keys, default."""
    if not isinstance(schema, Mapping):
        return ""
    words = []
    if isinstance(schema.get("format"), str):
        words.append(f"format {schema['format']}")
    if isinstance(schema.get("pattern"), str):
        words.append(f"matching {schema['pattern']}")
    for key, phrase in (
        ("minimum", "at least"),
        ("maximum", "at most"),
        ("exclusiveMinimum", "more than"),
        ("exclusiveMaximum", "less than"),
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
    ):
        value = schema.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            words.append(phrase.format(value) if "{}" in phrase else f"{phrase} {value}")
    words.extend(_nested_words(schema))
    if "default" in schema and _scalar(schema["default"]):
        words.append(f"default {schema['default']!r}")
    return "; ".join(words)


def _nested_words(schema: Mapping[str, Any]) -> list[str]:
    """Object keys (and which are required), for an object or an array of objects."""
    inner = schema.get("items") if schema.get("type") == "array" else schema
    props = inner.get("properties") if isinstance(inner, Mapping) else None
    if not isinstance(props, Mapping) or not props:
        return []
    required = [k for k in inner.get("required") or () if k in props]
    keys = ", ".join(
        f"{k} ({(props[k] or {}).get('type', 'any')})" if isinstance(props[k], Mapping) else str(k)
        for k in props
    )
    out = [f"{'each item has' if inner is not schema else 'keys'} {keys}"]
    if required:
        out.append(f"required keys {', '.join(required)}")
    return out


def clean_text(text: Any, fallback: str) -> str:
    """One line of text transformers' docstring parser reads as plain prose."""
    line = " ".join(str(text or "").split()) or fallback
    line = _SECTION.sub(lambda m: f"{m.group(1)} -", line)
    return _CHOICES.sub("(options:", line)


def argument_description(name: str, schema: Any) -> str:
    """The docstring line for one argument: the spec's description plus the constraint words."""
    description = schema.get("description") if isinstance(schema, Mapping) else None
    text = clean_text(description, f"The {entity_noun(name)}.")
    extra = clean_text(constraint_words(schema), "")
    return f"{text} ({extra})" if extra else text


def tool_signature(
    parameters: Mapping[str, Any],
) -> tuple[inspect.Signature, dict[str, Any], dict[str, str]]:
    """``(signature, annotations, python name -> schema name)`` for a tool's parameter schema.

    Required arguments come first with no default; the rest default to ``None`` (so the schema
    marks them optional). ``self`` leads, without a hint, as transformers expects of a method.
    """
    props = parameters.get("properties") or {}
    required = [k for k in parameters.get("required") or () if k in props]
    order = required + [k for k in props if k not in required]
    names: dict[str, str] = {}
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for schema_name in order:
        py = python_name(schema_name, names)
        names[py] = schema_name
        hint = type_hint(props[schema_name])
        annotations[py] = hint
        default = inspect.Parameter.empty if schema_name in required else None
        params.append(
            inspect.Parameter(py, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint)
        )
    return inspect.Signature(params), annotations, names


def tool_docstring(
    description: Any, parameters: Mapping[str, Any], names: Mapping[str, str], tool: str
) -> str:
    """A Google-style docstring: the tool's description, then one ``Args:`` line per argument."""
    props = parameters.get("properties") or {}
    head = clean_text(description, f"The {' '.join(name_tokens(tool)) or tool} tool.")
    if not names:
        return head
    lines = [
        f"    {py}: {argument_description(schema_name, props[schema_name])}"
        for py, schema_name in names.items()
    ]
    return "\n".join([head, "", "Args:", *lines])
