"""World invariants of the one entity store (docs/world.md, "Invariants"), over every corpus spec.

- a result's ``ok``/``success`` flag (and a yes/no ``<verb>_status``) says the call succeeded;
- a result shows at most one status of its entity (its own ``status``/``state``/``<noun>_status``);
- a read repeated returns the same fields (the clock aside): output-schema fields the store did
  not hold were added to it once, never redrawn;
- every item of a list agrees with a get of the same id on every field both show;
- a created entity is in the next list of its noun.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import whileai_env as wenv
from tests.world.test_invariants import NAMES, SETTINGS, SPECS, _args, _by_id, _family
from whileai_env._util.lexicon import name_tokens
from whileai_env.world.output import is_ok_flag

_CLOCK = {"as_of", "datetime", "time", "timestamp", "updated_at", "now", "current_time"}


def _body(result: dict[str, Any]) -> Any:
    inner = result.get("result")
    return inner if isinstance(inner, dict) else result


def _with_output(name: str) -> list[str]:
    return [t.name for t in SPECS[name].tools if t.output_schema is not None]


OUTPUT_SPECS = [n for n in NAMES if _with_output(n)]


def _own_statuses(body: dict[str, Any], noun: str) -> set[str]:
    own = {"status", "state", *(f"{'_'.join(name_tokens(noun))}_{w}" for w in ("status", "state"))}
    return {
        str(v).lower() for k, v in body.items() if k in own and isinstance(v, str) and v != "ok"
    }


@pytest.mark.parametrize("name", OUTPUT_SPECS)
@SETTINGS
@given(data=st.data())
def test_output_fields_say_what_happened_and_read_the_same_twice(
    name: str, data: st.DataObject
) -> None:
    spec = SPECS[name]
    tool = data.draw(st.sampled_from(_with_output(name)))
    arguments = data.draw(_args(name, tool))
    world = wenv.World(spec, seed=data.draw(st.integers(0, 3)), options={"exists_share": 1.0})
    result = world.call(tool, arguments)
    if result.get("status") != "ok":
        return
    body = _body(result)
    if not isinstance(body, dict):
        return
    props = spec.tool(tool).output_schema.get("properties") or {}
    writes = spec.tool(tool).is_write
    for key, value in body.items():
        if key in props and is_ok_flag(key, props[key], writes=writes):
            assert value is True, (tool, key, body)
    profile = world._profile.tools[tool]
    assert len(_own_statuses(body, profile.noun)) <= 1, (tool, body)
    if writes:
        return
    again = _body(world.call(tool, arguments))
    drop = lambda b: {k: v for k, v in b.items() if k not in _CLOCK}  # noqa: E731
    assert drop(again) == drop(body), (tool, arguments)


def _items(result: dict[str, Any]) -> list[Any]:
    body = _body(result)
    items = body.get("items") if isinstance(body, dict) else None
    return items if isinstance(items, list) else []


@pytest.mark.parametrize("name", NAMES)
def test_a_list_and_a_get_of_the_same_id_agree_and_a_list_has_no_repeats(name: str) -> None:
    spec = SPECS[name]
    takers = _by_id(spec)
    world = wenv.World(spec, seed=5, options={"exists_share": 1.0})
    conflicts = []
    for tool in spec.tools:
        if tool.required or _family(world, tool.name) != "list":
            continue
        items = _items(world.call(tool.name, {}))
        shown = [json.dumps(i, sort_keys=True) for i in items]
        assert len(set(shown)) == len(shown), (tool.name, items)
        for item in (i for i in items if isinstance(i, dict)):
            for key, value in item.items():
                for taker in takers.get(key, ()):
                    if _family(world, taker) != "record":
                        continue  # a write (close_ticket) would change what the list showed
                    if key == "id" and _noun(world, taker) != _noun(world, tool.name):
                        continue  # a bare "id" names no noun: a crawl's id is no monitor's
                    got = world.call(taker, {key: value})
                    if got.get("status") != "ok":
                        continue
                    read = _body(got)
                    bad = [k for k in item if k in read and read[k] != item[k]]
                    conflicts += [f"{tool.name} -> {taker}: {k}" for k in bad]
    assert not conflicts, conflicts


def _noun(world: wenv.World, tool: str) -> str:
    return world._profile.tools[tool].noun


def _create_list_pairs(name: str) -> list[tuple[str, str]]:
    spec = SPECS[name]
    world = wenv.World(spec)
    out = []
    for tool in spec.tools:
        p = world._profile.tools[tool.name]
        if p.kind != "create" or p.family != "write":
            continue
        noun = p.created_noun or p.name_noun
        lists = [
            t.name
            for t in spec.tools
            if not t.required
            and _family(world, t.name) == "list"
            and world._profile.tools[t.name].noun == noun
        ]
        out += [(tool.name, lists[0])] if lists else []
    return out


CREATES = [(n, c, lst) for n in NAMES for c, lst in _create_list_pairs(n)]


@pytest.mark.parametrize(("name", "create", "listing"), CREATES)
@SETTINGS
@given(data=st.data())
def test_a_created_entity_is_in_the_next_list(
    name: str, create: str, listing: str, data: st.DataObject
) -> None:
    spec = SPECS[name]
    world = wenv.World(spec, seed=data.draw(st.integers(0, 3)), options={"exists_share": 1.0})
    created = world.call(create, data.draw(_args(name, create)))
    if created.get("status") != "ok":
        return
    profile = world._profile.tools[create]
    id_key = world._profile.id_key(profile.created_noun or profile.name_noun)
    body = _body(created)
    # a declared output schema may name the id a bare ``id`` (PagerDuty's ``Incident.id``)
    ident = next((v for k, v in body.items() if k == id_key or k.endswith(f"_{id_key}")), None)
    ident = body.get("id") if ident is None else ident
    assert ident is not None, (create, body)
    listed = [
        i.get(id_key, i.get("id")) for i in _items(world.call(listing, {})) if isinstance(i, dict)
    ]
    assert str(ident) in {str(i) for i in listed}, (create, ident, listed)
