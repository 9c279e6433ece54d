"""World invariants (docs/world.md, "Invariants") as properties over every corpus spec that loads.

Arguments are drawn from each tool's own schema by hypothesis-jsonschema (fixed seed), so the
properties hold for tools nobody here designed:

- a call with schema-valid arguments is never ``rejected`` as ``missing`` a field the schema
  does not require;
- every id a list result holds is accepted by every tool that takes that id alone;
- after an update, a read of the same entity shows the change, and every field that changed
  is one the update names (``updated``), or holds one (a line item's status); no wrapper of the changes (``update``/``patch``/
  ``fields``) is stored as a field;
- a record has at most one status field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import whileai_env as wenv
from tests.corpus import corpus_specs
from whileai_env._util.frozen import thaw
from whileai_env.spec.arguments import required_sets


def _loadable() -> dict[str, wenv.Spec]:
    out = {}
    for path in corpus_specs():
        try:
            out[path.name] = wenv.load_spec(path)
        except wenv.SpecError:
            continue
    return out


SPECS = _loadable()
NAMES = sorted(SPECS)
SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
WRAPPERS = {"update", "patch", "fields", "changes"}
_STRATEGIES: dict[tuple[str, str], Any] = {}


def _narrow(node: Any, root: dict[str, Any], *, schema: bool = True) -> Any:
    """The schema with local ``$ref``s inlined and arrays capped at 3 items (a subset of its
    instances, drawn faster); a ``properties`` map is walked as names, so a property called
    ``items`` (Stripe's) is not taken for an array's items."""
    if isinstance(node, dict):
        if schema and isinstance(node.get("$ref"), str):
            target: Any = root
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return _narrow({**target, **{k: v for k, v in node.items() if k != "$ref"}}, root)
        names = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
        out = {
            k: _narrow(v, root, schema=not (schema and k in names))
            for k, v in node.items()
            if k not in ("$defs", "definitions")
        }
        if schema and (out.get("type") == "array" or "items" in out):
            out["maxItems"] = min(out.get("maxItems", 3), 3)
        return out
    if isinstance(node, list):
        return [_narrow(v, root, schema=schema) for v in node]
    return node


def _args(name: str, tool: str) -> Any:
    key = (name, tool)
    if key not in _STRATEGIES:
        schema = thaw(SPECS[name].tool(tool).parameters)
        _STRATEGIES[key] = from_schema(_narrow(schema, schema))
    return _STRATEGIES[key]


def _family(world: wenv.World, tool: str) -> str:
    return world._profile.tools[tool].family


def _required_anywhere(tool: wenv.Tool) -> set[str]:
    return {n for names in required_sets(tool.parameters) for n in names} | set(tool.required)


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(data=st.data())
def test_a_valid_call_is_never_missing_a_field_the_schema_leaves_optional(
    name: str, data: st.DataObject
) -> None:
    spec = SPECS[name]
    tool = data.draw(st.sampled_from([t.name for t in spec.tools]))
    arguments = data.draw(_args(name, tool))
    world = wenv.World(spec, seed=data.draw(st.integers(0, 3)))
    result = world.call(tool, spec.tool(tool).sent(arguments))
    error = result.get("error") or {}
    if error.get("code") == "rejected" and error.get("problem") == "missing":
        field = str(error.get("field"))
        envelope = spec.tool(tool).envelope
        field = field.removeprefix(f"{envelope}.") if envelope else field
        top = field.split(".")[0].split("[")[0]
        assert top in _required_anywhere(spec.tool(tool)) or field != top, (tool, arguments, error)


def _as_taken(spec: wenv.Spec, tool: str, arg: str, value: Any) -> Any:
    """``value`` in the shape ``tool`` takes ``arg``: a list of it where the argument holds
    several ids (``list_oncalls(user_ids: list[str] | None)``)."""
    schema = spec.tool(tool).properties.get(arg)
    plain = thaw(schema) if isinstance(schema, Mapping) else {}
    shapes = [plain, *(b for k in ("anyOf", "oneOf") for b in plain.get(k) or ())]
    return [value] if any(b.get("type") == "array" for b in shapes) else value


def _by_id(spec: wenv.Spec) -> dict[str, list[str]]:
    """For each argument name, the tools that take it as their only required argument."""
    out: dict[str, list[str]] = {}
    for tool in spec.tools:
        for arg in tool.properties:
            if set(tool.required) <= {arg}:
                out.setdefault(arg, []).append(tool.name)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_ids_from_a_list_are_accepted_by_every_tool_taking_them(name: str) -> None:
    spec = SPECS[name]
    takers = _by_id(spec)
    world = wenv.World(spec, seed=5, options={"exists_share": 1.0})
    refused = []
    for tool in spec.tools:
        if tool.required or _family(world, tool.name) != "list":
            continue
        listed = world.call(tool.name, {})
        noun = world._profile.tools[tool.name].noun
        for item in listed.get("items") or () if isinstance(listed.get("items"), list) else ():
            for key, value in item.items() if isinstance(item, dict) else ():
                # a bare ``id`` is an id of the taker's own noun: a product's is no customer's
                same = [
                    t
                    for t in takers.get(key, ())
                    if key not in ("id", "uuid") or world._profile.tools[t].nouns.get(key) == noun
                ]
                for taker in same if type(value) in (str, int) else ():
                    taken = {key: _as_taken(spec, taker, key, value)}
                    error = world.call(taker, spec.tool(taker).sent(taken))
                    error = error.get("error") or {}
                    if error.get("code") == "rejected" and error.get("problem") != "missing":
                        refused.append(
                            f"{tool.name} -> {taker}({key}={value!r}): {error.get('message')}"
                        )
    assert not refused, "\n".join(refused[:20])


def _pairs(spec: wenv.Spec, world: wenv.World) -> list[tuple[str, str, str]]:
    """(update tool, read tool, locator): a record read taking only the locator the update takes."""
    out = []
    for write in spec.tools:
        if write.kind != "update" or _family(world, write.name) != "write":
            continue
        for read in spec.tools:
            if (
                read.kind == "read"
                and _family(world, read.name) == "record"
                and len(read.required) == 1
            ):
                arg = read.required[0]
                if arg in write.required and arg in world._profile.tools[write.name].locators:
                    out.append((write.name, read.name, arg))
                    break
    return out


PAIRS = [(n, *p) for n in NAMES for p in _pairs(SPECS[n], wenv.World(SPECS[n]))]


def _keys_within(value: Any) -> set[str]:
    """The field names inside a nested value (a list of line items, an address)."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys_within(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys_within(v)}
    return set()


def _status_fields(record: dict[str, Any]) -> list[str]:
    return [k for k in record if (k == "status" and record[k] != "ok") or k.endswith("_status")]


@pytest.mark.parametrize(("name", "write", "read", "arg"), PAIRS)
@SETTINGS
@given(data=st.data())
def test_an_update_shows_in_a_later_read_and_changes_only_what_it_names(
    name, write, read, arg, data
) -> None:
    spec = SPECS[name]
    world = wenv.World(spec, seed=data.draw(st.integers(0, 3)), options={"exists_share": 1.0})
    arguments = data.draw(_args(name, write))
    before = world.call(read, spec.tool(read).sent({arg: arguments[arg]}))
    if before.get("status") != "ok":
        return
    result = world.call(write, spec.tool(write).sent(arguments))
    if result.get("status") != "ok" or "updated" not in result:
        return
    after = world.call(read, spec.tool(read).sent({arg: arguments[arg]}))
    assert after.get("status") == "ok"
    named = set(result["updated"]) | {"updated_at"}
    changed = {k for k in after if k != "status" and after.get(k) != before.get(k)}
    unnamed = {k for k in changed - named if not named & _keys_within(after[k])}
    assert not unnamed, (write, arguments, sorted(unnamed))
    assert not WRAPPERS & (set(after) - set(before)), (write, arguments)
    assert len(_status_fields(after)) <= 1, sorted(after)
