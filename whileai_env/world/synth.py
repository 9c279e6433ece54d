"""Values that conform to a JSON Schema, seeded, taking real values from a hint where they fit.

When a tool declares an output schema, the world first builds its usual result (the record,
the list …) and then walks the schema: each property takes the hint's value of the same (or a
matching) name when that value is valid there, and is drawn fresh otherwise. So a declared
output conforms, and still agrees with what other tools say about the same entity.

>>> import random
>>> schema = {"type": "object", "properties": {"rate": {"type": "number"},
...           "as_of": {"type": "string", "format": "date-time"}}, "required": ["rate"]}
>>> synth(schema, {"rate": 1.08}, random.Random(0), now=0)["rate"]
1.08
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import jsonschema

from whileai_env.world import values as v
from whileai_env.world.naming import resolve_field
from whileai_env.world.regex_gen import sample
from whileai_env.world.validation import FORMAT_CHECKER, compile_check, json_type

_MAX_DEPTH = 12
_ADDRESS_KEYS = frozenset({"line1", "street", "city", "postcode", "postal_code", "zip", "country"})


def _resolve(schema: Any, root: Mapping[str, Any]) -> Any:
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 16:
        node: Any = root
        for part in schema["$ref"].lstrip("#").strip("/").split("/"):
            if not part:
                continue
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part) if isinstance(node, Mapping) else None
        rest = {k: val for k, val in schema.items() if k != "$ref"}
        schema = {**node, **rest} if isinstance(node, Mapping) else rest
        seen += 1
    return schema


def _fits(value: Any, schema: Any, root: Mapping[str, Any]) -> bool:
    check = compile_check(schema)
    if check is not None:
        return check(value)
    try:
        cls = jsonschema.validators.validator_for(root, default=jsonschema.Draft202012Validator)
        resolved = {**schema, **{k: root[k] for k in ("$defs", "definitions") if k in root}} if isinstance(schema, Mapping) else schema
        return cls(resolved, format_checker=FORMAT_CHECKER).is_valid(value)
    except Exception:
        return False


def _merge_all_of(schema: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {k: val for k, val in schema.items() if k != "allOf"}
    for part in schema.get("allOf") or []:
        part = _resolve(part, root)
        if not isinstance(part, Mapping):
            continue
        for k, val in part.items():
            if k == "properties":
                merged["properties"] = {**merged.get("properties", {}), **val}
            elif k == "required":
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *val]))
            elif k not in merged:
                merged[k] = val
    return merged


def _type_of(schema: Mapping[str, Any], hint: Any, r: random.Random) -> str:
    declared = schema.get("type")
    if isinstance(declared, list):
        options = [t for t in declared if isinstance(t, str)]
        hinted = json_type(hint)
        if hinted in options or (hinted == "integer" and "number" in options):
            return "number" if hinted == "integer" and "integer" not in options else hinted
        non_null = [t for t in options if t != "null"]
        return non_null[0] if non_null else "null"
    if isinstance(declared, str):
        return declared
    if "properties" in schema or "additionalProperties" in schema or "required" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return "number"
    if hint is not None:
        return json_type(hint)
    return "string"


def hint_for(hint: Any, name: str) -> Any:
    """The hint's value for property ``name``: same name, a matching field, or ``x_cents`` from ``x``."""
    if not isinstance(hint, Mapping) or not hint:
        return None
    if name in hint:
        return hint[name]
    if name.endswith("_cents"):
        base = resolve_field(hint, name[: -len("_cents")])
        value = hint.get(base) if base else None
        return round(value * 100) if type(value) in (int, float) else None
    field = resolve_field(hint, name)
    return hint[field] if field is not None else None


def synth(schema: Any, hint: Any, r: random.Random, *, now: int, name: str = "", root: Mapping[str, Any] | None = None,
          depth: int = 0) -> Any:
    """A value valid against ``schema``, preferring ``hint`` (and its parts) where they are valid."""
    root = root if root is not None else (schema if isinstance(schema, Mapping) else {})
    schema = _resolve(schema, root)
    if schema is True or schema is None or (isinstance(schema, Mapping) and not schema):
        return hint if hint is not None else _string(name, {}, r, now)
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return hint
    if "allOf" in schema:
        schema = _merge_all_of(schema, root)
    if hint is not None and not isinstance(hint, dict | list) and _fits(hint, schema, root):
        return hint
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return hint if hint in schema["enum"] else r.choice(schema["enum"])
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            base = {k: val for k, val in schema.items() if k != key}
            resolved = [_resolve(b, root) for b in branches]
            if hint is not None:
                for b in resolved:
                    if isinstance(b, Mapping) and json_type(hint) == _type_of(b, hint, r):
                        candidate = synth({**base, **b}, hint, r, now=now, name=name, root=root, depth=depth + 1)
                        if _fits(candidate, {**base, key: branches}, root):
                            return candidate
            non_null = [b for b in resolved if not (isinstance(b, Mapping) and b.get("type") == "null")]
            for b in non_null or resolved:
                merged = {**base, **b} if isinstance(b, Mapping) else base
                candidate = synth(merged, None, r, now=now, name=name, root=root, depth=depth + 1)
                if key == "anyOf" or _fits(candidate, {**base, key: branches}, root):
                    return candidate
            return synth(base, None, r, now=now, name=name, root=root, depth=depth + 1)
    kind = _type_of(schema, hint, r)
    if kind == "object":
        return _object(schema, hint, r, now, root, depth)
    if kind == "array":
        return _array(schema, hint, r, now, name, root, depth)
    if kind == "string":
        return _string(name, schema, r, now)
    if kind == "integer":
        return int(_number(name, schema, r, integer=True))
    if kind == "number":
        return _number(name, schema, r, integer=False)
    if kind == "boolean":
        return hint if isinstance(hint, bool) else r.random() < 0.5
    return None


def _object(schema: Mapping[str, Any], hint: Any, r: random.Random, now: int, root: Mapping[str, Any], depth: int) -> dict[str, Any]:
    props = schema.get("properties") or {}
    out: dict[str, Any] = {}
    if hint is None and len(_ADDRESS_KEYS.intersection(props)) >= 2:
        place = v.address(r)
        hint = {"line1": place["line1"], "street": place["line1"], "address": place["line1"], "city": place["city"],
                "postcode": place["postcode"], "postal_code": place["postcode"], "zip": place["postcode"],
                "country": place["country"]}
    for prop, sub in props.items():
        out[prop] = synth(sub, hint_for(hint, prop), r, now=now, name=prop, root=root, depth=depth + 1)
    extra = schema.get("additionalProperties", True)
    if isinstance(hint, Mapping) and extra is not False and not schema.get("patternProperties"):
        for k, val in hint.items():
            if k not in out and (extra is True or _fits(val, extra, root)):
                out[k] = val
    for k in schema.get("required") or []:
        if k not in out:
            sub = extra if isinstance(extra, Mapping) else {}
            out[k] = synth(sub, None, r, now=now, name=k, root=root, depth=depth + 1)
    return out


def _array(schema: Mapping[str, Any], hint: Any, r: random.Random, now: int, name: str, root: Mapping[str, Any], depth: int) -> list[Any]:
    low = schema.get("minItems", 0) if type(schema.get("minItems")) is int else 0
    high = schema.get("maxItems") if type(schema.get("maxItems")) is int else None
    prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
    items = schema.get("items", {})
    if isinstance(items, list):
        prefix, items = items, schema.get("additionalItems", {})
    hints = hint if isinstance(hint, list) else []
    if isinstance(hint, list):
        count = len(hints)
    else:
        count = r.randint(max(low, 1 if high != 0 else 0), max(low, min(3, high if high is not None else 3)))
    count = max(low, count if high is None else min(high, count))
    out = []
    for i in range(count):
        sub = prefix[i] if i < len(prefix) else items
        if sub is False:
            break
        out.append(synth(sub, hints[i] if i < len(hints) else None, r, now=now, name=name, root=root, depth=depth + 1))
    if schema.get("uniqueItems") and len({repr(x) for x in out}) != len(out):
        out = list({repr(x): x for x in out}.values())
    return out


def _string(name: str, schema: Mapping[str, Any], r: random.Random, now: int) -> str:
    fmt = schema.get("format")
    lowered = name.lower()
    if fmt == "date-time" or (not fmt and lowered.endswith(("_at", "time", "timestamp"))):
        text = v.iso(now - r.randint(0, 30 * v.DAY))
    elif fmt == "date" or (not fmt and "date" in lowered):
        text = v.day(now - r.randint(0, 30 * v.DAY))
    elif fmt == "time":
        text = f"{r.randint(0, 23):02d}:{r.choice((0, 15, 30, 45)):02d}:00Z"
    elif fmt in ("email", "idn-email") or "email" in lowered:
        text = v.email(r)
    elif fmt in ("uri", "url", "iri", "uri-reference") or lowered.endswith(("url", "uri", "link")):
        text = f"https://api.example.internal/{lowered or 'item'}/{r.randrange(10**6)}"
    elif fmt == "uuid":
        h = f"{r.getrandbits(128):032x}"
        text = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"
    elif fmt in ("ipv4",):
        text = f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)}"
    elif fmt == "hostname":
        text = f"host-{r.randrange(1000)}.example.internal"
    elif isinstance(schema.get("pattern"), str):
        text = sample(schema["pattern"], r)
    elif lowered in ("city", "town"):
        text = v.address(r)["city"]
    elif lowered in ("postcode", "postal_code", "zip", "zip_code", "zipcode", "postalcode"):
        text = v.address(r)["postcode"]
    elif lowered in ("country", "country_code"):
        text = v.address(r)["country"]
    elif lowered in ("line1", "street", "address", "address_line1", "street_address", "line_1"):
        text = v.address(r)["line1"]
    elif lowered in ("line2", "address_line2", "line_2"):
        text = r.choice(("Apt 4B", "Suite 210", "Floor 3", "Unit 12"))
    elif lowered.endswith("phone") or lowered == "number":
        text = v.phone(r)
    elif lowered.endswith("currency"):
        text = r.choice(("USD", "EUR", "GBP"))
    elif lowered.endswith("name"):
        text = v.person(r).name
    elif lowered.endswith(("id", "ref", "number", "sku")):
        text = f"{(lowered[:3] or 'id').upper()}-{r.randrange(10000, 99999)}"
    elif lowered in ("source", "provider"):
        text = "ECB reference rate"
    elif lowered.endswith(("status", "state")):
        text = r.choice(("active", "pending", "completed"))
    elif lowered in ("description", "summary", "message", "note", "notes", "body", "text"):
        text = r.choice(v.EMAIL_BODIES)
    else:
        text = r.choice(v.PRODUCTS).split()[-1].lower()
    low = schema.get("minLength") if type(schema.get("minLength")) is int else 0
    high = schema.get("maxLength") if type(schema.get("maxLength")) is int else None
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if high is not None and len(text) > high:
        text = text[:high]
    return text


def _number(name: str, schema: Mapping[str, Any], r: random.Random, *, integer: bool) -> float:
    lowered = name.lower()
    low = schema.get("minimum")
    high = schema.get("maximum")
    ex_low = schema.get("exclusiveMinimum")
    ex_high = schema.get("exclusiveMaximum")
    step = 1 if integer else 0.01
    lo = max([x for x in (low, ex_low + step if type(ex_low) in (int, float) else None) if type(x) in (int, float)],
             default=None)
    hi = min([x for x in (high, ex_high - step if type(ex_high) in (int, float) else None) if type(x) in (int, float)],
             default=None)
    if lowered.endswith("cents"):
        default = (100, 250_000)
    elif any(w in lowered for w in ("amount", "price", "total", "balance", "cost", "fee", "fare")):
        default = (5, 2400)
    elif any(w in lowered for w in ("count", "quantity", "qty", "number", "num")):
        default = (1, 9)
    elif any(w in lowered for w in ("length", "width", "height", "_cm", "depth")):
        default = (5, 120)
    elif "weight" in lowered or "grams" in lowered:
        default = (100, 20000)
    elif "rate" in lowered:
        default = (0.5, 2.0)
    else:
        default = (1, 1000)
    a = lo if lo is not None else (default[0] if hi is None or default[0] <= hi else hi - (default[1] - default[0]))
    b = hi if hi is not None else max(a, default[1] if default[1] >= a else a + default[1])
    if a > b:
        b = a
    value = r.randint(int(-(-a // 1)), int(b // 1)) if integer and int(-(-a // 1)) <= int(b // 1) else round(r.uniform(a, b), 2)
    multiple = schema.get("multipleOf")
    if type(multiple) in (int, float) and multiple > 0:
        value = round(round(value / multiple) * multiple, 10)
        if lo is not None and value < lo:
            value += multiple
        if hi is not None and value > hi:
            value -= multiple
    if not integer and (value < a or value > b):
        value = a
    return value
