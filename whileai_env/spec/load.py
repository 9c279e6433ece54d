"""Load an agent's spec (tools, system prompt, optional rubric) into an immutable ``Spec``.

Accepts tools in OpenAI function-calling shape (``{"type": "function", "function": {...}}``),
as the bare inner dict, or in MCP (``inputSchema``) and Anthropic (``input_schema``) shape,
and normalises them to one form. Messy-but-real schemas load; a schema that is not valid JSON
Schema is refused with a :class:`SpecError` naming the tool and the JSON path.

Hostile input is refused the same way, in one line, before it can cost much: files are read by
:mod:`whileai_env.spec.reading` (regular files only, size cap, encodings, bounded JSON and
YAML), and every tool passes :mod:`whileai_env.spec.safety` (plain JSON, no ``$ref`` loop, no
huge enum, no reserved name). A catastrophic ``pattern`` loads with a warning on
:attr:`Spec.warnings`.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import jsonschema

from whileai_env._util.frozen import FrozenDict, freeze, thaw
from whileai_env._util.hashing import canonical_json, hex_id
from whileai_env.errors import SpecError
from whileai_env.spec.clauses import Clause, split_policy
from whileai_env.spec.envelope import envelope_of
from whileai_env.spec.kinds import WRITE_KINDS, classify_tool, normalise_kind
from whileai_env.spec.reading import read_spec_file, read_text
from whileai_env.spec.safety import (
    SpecWarning,
    check_enums,
    check_ref_cycles,
    check_reserved_name,
    pattern_warnings,
    plain_tool,
    resolve_pointer,
)

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_SPEC_KEYS = {
    "tools",
    "system_prompt",
    "policy",
    "prompt",
    "rubric",
    "name",
    "kinds",
    "description",
    "version",
    "metadata",
}
_TOOL_KEYS = {
    "type",
    "function",
    "name",
    "description",
    "parameters",
    "strict",
    "inputSchema",
    "input_schema",
    "outputSchema",
    "output_schema",
    "returns",
    "response",
    "kind",
    "annotations",
    "title",
    # MCP 2025-11-25 tool fields the world has no use for; refusing them would refuse every
    # current TypeScript MCP server (its SDK adds ``execution`` to each tool).
    "execution",
    "icons",
    "_meta",
}
#: Schemas with no ``$schema`` are read as Draft 2020-12; one valid only under draft-07 (tuple
#: ``items`` lists, still common in published tool sets) is read as draft-07 instead.
_DRAFT7 = "http://json-schema.org/draft-07/schema#"
_SPEC_FILES = ("spec.json", "spec.yaml", "spec.yml")


@dataclass(frozen=True)
class Tool:
    """One tool of the spec, normalised.

    ``parameters`` is the argument JSON Schema (always an object schema), ``output_schema`` what
    the tool declares it returns (or ``None``), ``kind`` one of read/create/update/delete.

    A tool whose one argument wraps all the others (:mod:`whileai_env.spec.envelope`) has that
    argument's name in ``envelope``: ``parameters`` are then the wrapped fields, what the world
    reads, and ``sent_parameters`` the schema as published, what the agent sees and sends.
    """

    name: str
    description: str
    parameters: FrozenDict
    kind: str
    output_schema: FrozenDict | None = None
    strict: bool = False
    envelope: str | None = None
    sent_parameters: FrozenDict | None = None
    #: What loads but its author should fix (one line each: file, tool, JSON path, why).
    warnings: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def is_write(self) -> bool:
        """True for create, update and delete tools."""
        return self.kind in WRITE_KINDS

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(self.parameters.get("required", ()))

    @property
    def properties(self) -> Mapping[str, Any]:
        return self.parameters.get("properties", FrozenDict())

    @property
    def call_parameters(self) -> FrozenDict:
        """The argument schema as published: what an agent sees and its calls must match."""
        return self.sent_parameters if self.sent_parameters is not None else self.parameters

    def fields_of(self, arguments: Any) -> Any:
        """The fields a call sent, read out of the envelope (``arguments`` as sent otherwise).

        >>> tool = normalise_tool({"name": "manage", "parameters": {"type": "object",
        ...     "properties": {"req": {"type": "object", "properties": {"id": {"type": "string"}}}},
        ...     "required": ["req"]}})
        >>> tool.fields_of({"req": {"id": "A1"}}), tool.sent({"id": "A1"})
        ({'id': 'A1'}, {'req': {'id': 'A1'}})
        """
        if self.envelope is None or not isinstance(arguments, Mapping):
            return arguments
        inner = arguments.get(self.envelope)
        return inner if isinstance(inner, Mapping) and len(arguments) == 1 else arguments

    def sent(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """The call that sends ``fields``: wrapped in the envelope when the tool has one."""
        return {self.envelope: dict(fields)} if self.envelope is not None else dict(fields)

    def to_openai(self) -> dict:
        """The tool as an OpenAI function-calling dict (a plain, editable copy)."""
        function: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "parameters": thaw(self.call_parameters),
        }
        if self.strict:
            function["strict"] = True
        return {"type": "function", "function": function}

    def to_dict(self) -> dict:
        out = {
            "name": self.name,
            "description": self.description,
            "parameters": thaw(self.call_parameters),
            "kind": self.kind,
            "strict": self.strict,
        }
        if self.output_schema is not None:
            out["output_schema"] = thaw(self.output_schema)
        return out


@dataclass(frozen=True, eq=False)
class Spec:
    """An agent's tools, system prompt, policy clauses and rubric. Immutable and hashable.

    Two specs are equal when their content is; ``content_hash`` identifies the content in
    lineage records.

    >>> spec = load_spec(tools=[{"name": "get_order", "parameters": {}}],
    ...                  system_prompt="You are support. Never refund twice.")
    >>> [t.kind for t in spec.tools], [c.text for c in spec.clauses]
    (['read'], ['Never refund twice.'])
    """

    tools: tuple[Tool, ...]
    system_prompt: str = ""
    rubric: str | None = None
    name: str = "spec"
    source: str | None = field(default=None, compare=False)

    @cached_property
    def clauses(self) -> tuple[Clause, ...]:
        """The policy clauses of the system prompt."""
        return split_policy(self.system_prompt)

    @cached_property
    def content_hash(self) -> str:
        """A hex digest of the tools, system prompt and rubric."""
        payload = {
            "tools": [t.to_dict() for t in self.tools],
            "system_prompt": self.system_prompt,
            "rubric": self.rubric,
        }
        return hex_id("spec", canonical_json(payload), length=16)

    def __hash__(self) -> int:
        return int(self.content_hash, 16)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Spec) and other.content_hash == self.content_hash

    def tool(self, name: str) -> Tool:
        """The tool called ``name``; ``KeyError`` naming the known tools otherwise."""
        found = self._by_name.get(name) if isinstance(name, str) else None
        if found is None:
            raise KeyError(
                f"no tool {name!r} in spec {self.name!r}; tools: {', '.join(self.tool_names)}"
            )
        return found

    @cached_property
    def _by_name(self) -> dict[str, Tool]:
        return {t.name: t for t in self.tools}

    @cached_property
    def tool_names(self) -> tuple[str, ...]:
        """The tool names in spec order (computed once: the draw reads it per cell)."""
        return tuple(t.name for t in self.tools)

    @property
    def warnings(self) -> tuple[str, ...]:
        """Everything that loaded but should be fixed (catastrophic patterns), one line each."""
        return tuple(w for t in self.tools for w in t.warnings)

    def openai_tools(self) -> list[dict]:
        """All tools in OpenAI function-calling shape."""
        return [t.to_openai() for t in self.tools]

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "system_prompt": self.system_prompt,
            "tools": [t.to_openai() for t in self.tools],
            "kinds": {t.name: t.kind for t in self.tools},
            **({"rubric": self.rubric} if self.rubric else {}),
        }


def load_spec(
    source: str | os.PathLike | Mapping | Iterable | Spec | None = None,
    *,
    tools: Iterable[Mapping] | None = None,
    system_prompt: str | None = None,
    rubric: str | None = None,
    kinds: Mapping[str, str] | None = None,
    name: str | None = None,
) -> Spec:
    """Load a spec from a file, a folder, a dict, a list of tools, or inline arguments.

    ``source`` may be a JSON/YAML file, a folder holding ``spec.json``/``spec.yaml`` and an
    optional ``rubric.md``, a dict with ``tools`` and ``system_prompt`` (or ``policy``), a list
    of tools, or a ``Spec``. Inline ``tools=``/``system_prompt=``/``rubric=`` fill in or override.
    ``kinds`` overrides the read/create/update/delete classification per tool name.

    >>> spec = load_spec(tools=[{"type": "function", "function": {"name": "lookup_order",
    ...     "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}])
    >>> spec.tools[0].name, spec.tools[0].kind
    ('lookup_order', 'read')
    """
    if (
        isinstance(source, Spec)
        and tools is None
        and system_prompt is None
        and rubric is None
        and kinds is None
        and name is None
    ):
        return source
    raw, origin = _raw_spec(source)
    _check_spec_keys(raw, origin)
    raw.update(
        (k, v)
        for k, v in (
            ("tools", None if tools is None else list(tools)),
            ("system_prompt", system_prompt),
            ("rubric", rubric),
        )
        if v is not None
    )
    prompt = raw.get("system_prompt", raw.get("policy", raw.get("prompt", ""))) or ""
    if not isinstance(prompt, str):
        raise SpecError(
            f"system_prompt must be a string, got {type(prompt).__name__}", source=origin
        )
    rubric_text = raw.get("rubric")
    if rubric_text is not None and not isinstance(rubric_text, str):
        raise SpecError(f"rubric must be a string, got {type(rubric_text).__name__}", source=origin)
    overrides = _kind_overrides(raw.get("kinds"), origin)
    overrides.update(kinds or {})
    spec = Spec(
        tools=_normalised_tools(raw.get("tools"), overrides, origin),
        system_prompt=prompt.strip(),
        rubric=rubric_text.strip() if rubric_text else None,
        name=_spec_name(name or raw.get("name"), origin),
        source=origin,
    )
    for warning in spec.warnings:
        warnings.warn(warning, SpecWarning, stacklevel=2)
    return spec


def _raw_spec(source: Any) -> tuple[dict[str, Any], str | None]:
    """The spec's raw mapping and the file it came from, whatever ``source`` is."""
    if isinstance(source, Spec):
        raw = {
            "tools": [t.to_dict() for t in source.tools],
            "system_prompt": source.system_prompt,
            "rubric": source.rubric,
            "name": source.name,
            "kinds": {t.name: t.kind for t in source.tools},
        }
        return raw, source.source
    if isinstance(source, str | os.PathLike):
        return _read_path(Path(source))
    if isinstance(source, Mapping):
        return dict(source), None
    return ({"tools": _tool_list(source)} if source is not None else {}), None


def _normalised_tools(
    tool_list: Any, overrides: dict[str, str], origin: str | None
) -> tuple[Tool, ...]:
    """Every tool in one shape, names unique, and every ``kinds=`` override naming one of them."""
    if tool_list is None:
        raise SpecError("no tools: give tools=, or a 'tools' list in the spec", source=origin)
    if isinstance(tool_list, Mapping | str | bytes):
        raise SpecError("'tools' must be a list of tool objects", source=origin)
    normalised = tuple(
        normalise_tool(item, index=i, kinds=overrides, source=origin)
        for i, item in enumerate(tool_list)
    )
    if not normalised:
        raise SpecError("the spec has no tools", source=origin)
    seen: set[str] = set()
    for tool in normalised:
        if tool.name in seen:
            raise SpecError("duplicate tool name", tool=tool.name, source=origin)
        seen.add(tool.name)
    unknown = set(overrides) - seen
    if unknown:
        raise SpecError(
            f"kinds= names tools that are not in the spec: {', '.join(sorted(unknown))}",
            source=origin,
        )
    return normalised


def _spec_name(given: Any, origin: str | None) -> str:
    """The spec's name: given, else its file's stem (a folder's name for ``spec.json`` inside one)."""
    name = given or (Path(origin).stem if origin else "spec")
    if name == "spec" and origin and Path(origin).name.startswith("spec."):
        name = Path(origin).parent.name
    return str(name)


def _tool_list(source: Any) -> list:
    """``source`` read as a list of tools; ``SpecError`` when it is no kind of spec at all."""
    if isinstance(source, bytes | bytearray):
        raise SpecError(
            "a spec is a path, a dict, a list of tools or a Spec, got bytes (decode it, or pass the path)"
        )
    try:
        return list(source)
    except TypeError:
        raise SpecError(
            f"a spec is a path, a dict, a list of tools or a Spec, got {type(source).__name__}"
        ) from None


def _kind_overrides(value: Any, origin: str | None) -> dict[str, str]:
    """The spec's own ``kinds`` map, checked: tool name -> kind, both strings."""
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise SpecError(
            "'kinds' must map tool names to kinds (read, create, update, delete)",
            path="$.kinds",
            source=origin,
        )
    return dict(value)


def normalise_tool(
    item: Any,
    *,
    index: int = 0,
    kinds: Mapping[str, str] | None = None,
    source: str | None = None,
) -> Tool:
    """Normalise one tool in any accepted shape; ``SpecError`` names the tool and path on failure."""
    label = f"tools[{index}]"
    if not isinstance(item, Mapping):
        raise SpecError(f"{label} must be an object, got {type(item).__name__}", source=source)
    item = plain_tool(item, index, source)
    body: Mapping[str, Any] = item
    prefix = "$"
    if "function" in item:
        if item.get("type", "function") != "function":
            raise SpecError(
                f"{label}.type must be 'function', got {item.get('type')!r}", source=source
            )
        body = item["function"]
        prefix = "$.function"
        if not isinstance(body, Mapping):
            raise SpecError(f"{label}.function must be an object", source=source)
    tool_name = body.get("name")
    if not isinstance(tool_name, str) or not tool_name:
        raise SpecError(f"{label} has no name", path=f"{prefix}.name", source=source)
    if not _NAME.match(tool_name):
        raise SpecError(
            "a tool name may hold only letters, digits, '_', '-' and '.' (at most 64)",
            tool=tool_name,
            path=f"{prefix}.name",
            source=source,
        )
    check_reserved_name(tool_name, f"{prefix}.name", source)
    extra = set(body) - _TOOL_KEYS
    if extra:
        raise SpecError(
            f"unknown keys {', '.join(sorted(extra))}", tool=tool_name, path=prefix, source=source
        )
    description = body.get("description") or item.get("description") or ""
    if not isinstance(description, str):
        raise SpecError(
            "description must be a string",
            tool=tool_name,
            path=f"{prefix}.description",
            source=source,
        )

    key = next(
        (k for k in ("parameters", "inputSchema", "input_schema") if k in body), "parameters"
    )
    params = _normalise_parameters(body.get(key), tool_name, f"{prefix}.{key}", source)
    output_key = next(
        (
            k
            for k in ("outputSchema", "output_schema", "returns", "response")
            if body.get(k) is not None
        ),
        None,
    )
    output = None
    if output_key:
        output = _checked_schema(
            dict(_as_schema(body[output_key], tool_name, f"{prefix}.{output_key}", source)),
            tool_name,
            f"{prefix}.{output_key}",
            source,
        )
    wrapped = envelope_of(params)
    kind_given = (kinds or {}).get(tool_name) or body.get("kind")
    try:
        kind = (
            normalise_kind(kind_given)
            if kind_given
            else classify_tool(
                tool_name,
                description,
                wrapped[1] if wrapped else params,
                output,
                body.get("annotations") or item.get("annotations"),
            )
        )
    except ValueError as exc:
        raise SpecError(str(exc), tool=tool_name, path="kinds", source=source) from None
    strict = body.get("strict", False)
    if not isinstance(strict, bool):
        raise SpecError(
            "strict must be true or false", tool=tool_name, path=f"{prefix}.strict", source=source
        )
    found = pattern_warnings(params, tool_name, f"{prefix}.{key}", source)
    return Tool(
        name=tool_name,
        description=description.strip(),
        parameters=freeze(wrapped[1] if wrapped else params),
        envelope=wrapped[0] if wrapped else None,
        sent_parameters=freeze(params) if wrapped else None,
        kind=kind,
        output_schema=freeze(output) if output is not None else None,
        strict=strict,
        warnings=found,
    )


def _as_schema(value: Any, tool: str, path: str, source: str | None) -> Mapping:
    if isinstance(value, bool):
        return {} if value else {"not": {}}
    if not isinstance(value, Mapping):
        raise SpecError(
            f"must be a JSON Schema object, got {type(value).__name__}",
            tool=tool,
            path=path,
            source=source,
        )
    return value


def _normalise_parameters(value: Any, tool: str, path: str, source: str | None) -> dict:
    if value is None:
        return {"type": "object", "properties": {}}
    schema = dict(_as_schema(value, tool, path, source))
    declared = schema.get("type")
    if declared is None:
        schema["type"] = "object"
    elif declared != "object" and not (isinstance(declared, list) and "object" in declared):
        raise SpecError(
            f"the argument schema must describe an object, got type {declared!r}",
            tool=tool,
            path=f"{path}.type",
            source=source,
        )
    schema.setdefault("properties", {})
    return _checked_schema(schema, tool, path, source)


def _checked_schema(schema: dict, tool: str, path: str, source: str | None) -> dict:
    validator_cls = jsonschema.validators.validator_for(
        schema, default=jsonschema.Draft202012Validator
    )
    try:
        validator_cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        if "$schema" in schema or not jsonschema.Draft7Validator(
            jsonschema.Draft7Validator.META_SCHEMA
        ).is_valid(schema):
            where = path + exc.json_path[1:]
            raise SpecError(
                f"invalid JSON Schema: {exc.message}", tool=tool, path=where, source=source
            ) from None
        schema["$schema"] = (
            _DRAFT7  # every validator downstream (world, checks) then reads it as draft-07
        )
    _check_refs(schema, schema, tool, path, source)
    check_ref_cycles(schema, tool, path, source)
    check_enums(schema, tool, path, source)
    return json.loads(canonical_json(schema))


def _check_refs(node: Any, root: Mapping, tool: str, path: str, source: str | None) -> None:
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str):
            if not ref.startswith("#"):
                raise SpecError(
                    f"$ref {ref!r} points outside the schema; only local refs (#/...) load offline",
                    tool=tool,
                    path=f"{path}.$ref",
                    source=source,
                )
            if resolve_pointer(root, ref) is None:
                raise SpecError(
                    f"$ref {ref!r} does not resolve inside the schema",
                    tool=tool,
                    path=f"{path}.$ref",
                    source=source,
                )
        for key, value in node.items():
            if key in ("enum", "const", "default", "examples"):
                continue
            _check_refs(value, root, tool, f"{path}.{key}", source)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _check_refs(value, root, tool, f"{path}[{i}]", source)


def _check_spec_keys(raw: Mapping, origin: str | None) -> None:
    odd = [k for k in raw if not isinstance(k, str)]
    if odd:
        raise SpecError(
            f"a spec key is not a string ({type(odd[0]).__name__} {odd[0]!r}); quote it",
            source=origin,
        )
    unknown = set(raw) - _SPEC_KEYS
    if unknown:
        raise SpecError(
            f"unknown spec keys {', '.join(sorted(unknown))}; known: {', '.join(sorted(_SPEC_KEYS))}",
            source=origin,
        )


def _read_path(path: Path) -> tuple[dict, str]:
    if not path.exists():
        raise SpecError(f"no such file or folder: {path}")
    if path.is_dir():
        spec_file = next((path / f for f in _SPEC_FILES if (path / f).is_file()), None)
        if spec_file is None:
            raise SpecError(f"folder has no {' / '.join(_SPEC_FILES)}", source=str(path))
        raw, origin = read_spec_file(spec_file)
        rubric = path / "rubric.md"
        if rubric.is_file() and not raw.get("rubric"):
            raw["rubric"] = read_text(rubric)
        policy = path / "system_prompt.md"
        if policy.is_file() and not any(raw.get(k) for k in ("system_prompt", "policy", "prompt")):
            raw["system_prompt"] = read_text(policy)
        if "name" not in raw:
            raw["name"] = path.name
        return raw, origin
    return read_spec_file(path)
