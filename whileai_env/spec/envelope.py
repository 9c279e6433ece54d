"""A tool whose one argument wraps all the others: ``manage_incidents(manage_request={...})``.

Python MCP servers built on pydantic often take a single model argument, so the published schema
is ``{"properties": {"manage_request": {"$ref": "#/$defs/IncidentManageRequest"}}}`` and the
fields that name and change a record (``incident_ids``, ``status``) sit one level down. The world,
the planner and the graders read the envelope's fields as the tool's own; the agent still sends,
and sees, the schema as published.

>>> name, fields = envelope_of({
...     "type": "object",
...     "properties": {"request": {"$ref": "#/$defs/Req"}},
...     "required": ["request"],
...     "$defs": {"Req": {"type": "object", "properties": {"order_id": {"type": "string"}},
...                       "required": ["order_id"]}},
... })
>>> name, sorted(fields["properties"]), fields["required"]
('request', ['order_id'], ['order_id'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from whileai_env.spec.safety import resolve_pointer

_DEFINITIONS = ("$defs", "definitions")
#: ``$ref`` hops followed to reach the envelope's object (a chain of aliases is rare but legal).
_MAX_HOPS = 8


def envelope_of(params: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """``(argument, fields schema)`` when ``params`` has exactly one argument, required, whose
    schema is an object with properties; ``None`` otherwise.

    The fields schema keeps the root's ``$defs`` so its ``$ref``s still resolve.
    """
    props = params.get("properties")
    if not isinstance(props, Mapping) or len(props) != 1:
        return None
    ((name, schema),) = props.items()
    if name not in (params.get("required") or ()):
        return None
    inner = _followed(schema, params)
    if not isinstance(inner, Mapping) or inner.get("type", "object") != "object":
        return None
    fields = inner.get("properties")
    if not isinstance(fields, Mapping) or not fields:
        return None
    flat = {k: v for k, v in inner.items() if k not in ("title", "description")}
    flat["type"] = "object"
    for key in _DEFINITIONS:
        if key in params:
            flat[key] = {**params[key], **(inner.get(key) or {})}
    return name, flat


def _followed(schema: Any, root: Mapping[str, Any]) -> Any:
    """``schema`` with local ``$ref``s followed (at most :data:`_MAX_HOPS`)."""
    for _ in range(_MAX_HOPS):
        if not isinstance(schema, Mapping) or not isinstance(schema.get("$ref"), str):
            return schema
        schema = resolve_pointer(root, schema["$ref"])
    return None
